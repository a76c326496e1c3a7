#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-compare's verdicts end to end, on synthetic results with a fixed
# seed (tests/compare-gen) and hand-made ones: the A/A rate, shifts found
# paired and unpaired, "unchanged" only with evidence, the gate on the
# estimator and at its edge, failed runs, binary identity, noise flags,
# the geometric mean, --undecided and --looks, formats and exit statuses.
# Each regression case of the first verdict engine has its block.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
COMPARE=${COMPARE:-$top_builddir/compare/timeit-compare}
GEN=${GEN:-$top_builddir/tests/compare-gen}

# count VERDICT FILE: rows of a CSV output with that verdict (field 14).
count() {
	awk -F, -v v="$1" 'NR > 1 && $14 == v { n++ } END { print n + 0 }' "$2"
}
# field FILE NAME N: field N of benchmark NAME's CSV row.
field() {
	awk -F, -v b="$2" -v n="$3" '$1 == b { print $n }' "$1"
}
# summaries DIR NAME VALUE...: DIR/NAME.I.time for I = 1, 2, ... with user VALUE.
summaries() {
	_d=$1 _n=$2
	shift 2
	mkdir -p "$_d"
	_i=1
	for _v do
		printf 'exit 0\nuser %s\n' "$_v" >"$_d/$_n.$_i.time"
		_i=$((_i + 1))
	done
}

# A/A: 100 benchmarks, 10 rounds, 2 % noise: no improved or regressed
# verdict, and few "unchanged": 10 samples at 2 % noise rarely show a
# change to lie within +-1 %.  Without adjustment some are called.
"$GEN" A1 1 100 10 0.02 0 0
"$GEN" A2 2 100 10 0.02 0 0
expect_status 0 "$COMPARE" --format csv A1 A2 >aa.csv
[ "$(($(count regressed aa.csv) + $(count improved aa.csv)))" -eq 0 ] || fail "A/A: $(cat aa.csv)"
[ "$(count unchanged aa.csv)" -le 5 ] || fail "A/A unchanged: $(cat aa.csv)"
[ "$(($(count undecided aa.csv) + $(count unchanged aa.csv)))" -eq 100 ] || fail "A/A undecided: $(cat aa.csv)"
grep -q ',undecided,yes,,spread larger than the change: 90% interval ' aa.csv ||
	fail "A/A reason: $(cat aa.csv)"
"$COMPARE" --format csv --no-adjust A1 A2 >aa-raw.csv || true
[ "$(($(count regressed aa-raw.csv) + $(count improved aa-raw.csv)))" -le 12 ] ||
	fail "A/A unadjusted, more than chance: $(cat aa-raw.csv)"
# The same A/A with 0.1 % noise: equivalent within the gate, "unchanged".
"$GEN" Q1 1 20 10 0.001 0 0
"$GEN" Q2 2 20 10 0.001 0 0
expect_status 0 "$COMPARE" --format csv Q1 Q2 >q.csv
[ "$(count unchanged q.csv)" -eq 20 ] || fail "quiet A/A not unchanged: $(cat q.csv)"
grep -q ',unchanged,no,,equivalent: 90% interval .* within +-1%,' q.csv || fail "equivalence reason: $(cat q.csv)"

# A 5 % slowdown of 5 benchmarks of 20 at 1 % noise: found, exit 1.  The
# rounds share nothing, but they are pairs by design (the old
# rule left them unpaired by their correlation); the footer says so.
"$GEN" base 3 20 10 0.01 0 0
"$GEN" slow 4 20 10 0.01 0.05 5
expect_status 1 "$COMPARE" --format csv base slow >shift.csv
[ "$(awk -F, '$1 ~ /^b00[0-4]$/ && $14 == "regressed"' shift.csv | wc -l)" -eq 5 ] ||
	fail "5 % shift not found everywhere: $(cat shift.csv)"
[ "$(count regressed shift.csv)" -eq 5 ] || fail "regressions beyond the shifted: $(cat shift.csv)"
awk -F, '$1 ~ /^b00[0-4]$/ && !($8 < 0.05 && $9 > 0.05) { exit 1 }' shift.csv ||
	fail "5 % outside the interval: $(cat shift.csv)"
[ "$(field shift.csv b000 4)" = yes ] || fail "rounds not paired by design: $(cat shift.csv)"
"$COMPARE" base slow >shift.txt || true
grep -q '^rounds paired by design: A_i and B_i ran in one round (median rank correlation -\{0,1\}0\.[0-9][0-9] over 20 benchmarks); --unpaired compares all samples$' shift.txt ||
	fail "pairing footer: $(cat shift.txt)"
grep -q '^change: 20 of 20 tested benchmarks paired by round; tests: signed rank 20; 95% intervals per benchmark, not adjusted$' shift.txt ||
	fail "change footer: $(cat shift.txt)"
# The same shift under a 5 % load shared by A_i and B_i (one load seed for
# both sides): paired, found; unpaired, the load hides most of it.
"$GEN" lbase 3 20 10 0.005 0 0 99 0.05
"$GEN" lslow 4 20 10 0.005 0.05 5 99 0.05
expect_status 1 "$COMPARE" --format csv lbase lslow >load.csv
[ "$(count regressed load.csv)" -eq 5 ] || fail "under load: $(cat load.csv)"
[ "$(field load.csv b000 4)" = yes ] || fail "load: not paired: $(cat load.csv)"
"$COMPARE" --format csv --unpaired lbase lslow >load-u.csv || true
[ "$(count regressed load-u.csv)" -le 2 ] || fail "under load unpaired: $(cat load-u.csv)"
[ "$(field load-u.csv b000 4)" = no ] || fail "--unpaired paired: $(cat load-u.csv)"
expect_status 1 "$COMPARE" --format csv --paired base slow >forced.csv
[ "$(field forced.csv b000 4)" = yes ] || fail "--paired: $(cat forced.csv)"
# Rounds that differ between the sides cannot be paired: a note says so.
cp -r lslow lslow9
rm lslow9/b000.10.time
"$COMPARE" --format csv --paired lbase lslow9 >diff.csv || true
[ "$(field diff.csv b000 4)" = no ] || fail "unequal rounds paired: $(cat diff.csv)"
grep -q '^b000,.*unpaired: the rounds of A and B differ$' diff.csv || fail "unpaired note: $(cat diff.csv)"

# A true +5 % at 5 % noise (10 rounds) is never "unchanged": the old
# engine called half of these so with --noise-floor.
"$GEN" n1 5 50 10 0.05 0 0
"$GEN" n2 6 50 10 0.05 0.05 50
"$GEN" f1 7 50 10 0.05 0 0
"$GEN" f2 8 50 10 0.05 0 0
"$COMPARE" --format csv n1 n2 >n.csv || true
[ "$(count unchanged n.csv)" -eq 0 ] || fail "+5 % called unchanged: $(cat n.csv)"
"$COMPARE" --format csv --noise-floor f1 f2 n1 n2 >nf.csv || true
[ "$(count unchanged nf.csv)" -eq 0 ] || fail "+5 % unchanged with --noise-floor: $(cat nf.csv)"

# The gate is on the estimator the test and the interval use: samples
# whose medians differ by 0.7 % but whose mean log-ratio (Welch's t,
# unpaired) is +13.3 % are a regression (the old gate on the median
# ratio said "unchanged").
summaries ga x 0.85 0.86 0.87 0.995 0.996 0.997 0.998 1.0
summaries gb x 1.001 1.001 1.002 1.002 1.003 1.15 1.18 1.2
expect_status 1 "$COMPARE" --format csv --unpaired ga gb >ga.csv
[ "$(field ga.csv x 14)" = regressed ] || fail "gate on the median ratio: $(cat ga.csv)"
awk -v a="$(field ga.csv x 5)" -v b="$(field ga.csv x 6)" -v c="$(field ga.csv x 7)" \
	'BEGIN { exit !(b / a < 1.008 && c > 0.12 && c < 0.13) }' || fail "estimate: $(cat ga.csv)"
# A change of exactly the gate counts as reaching it, for every operand:
# 99 benchmarks of B = 1.01 x A (the old engine: 89 one way, 10 the other).
k=1
while [ $k -le 99 ]; do
	a=$(awk -v k=$k 'BEGIN { printf "%.2f", 1 + k / 100 }')
	b=$(awk -v a="$a" 'BEGIN { printf "%.4f", a * 1.01 }')
	summaries ea "g$k" "$a" "$a" "$a" "$a" "$a" "$a" "$a" "$a" "$a" "$a"
	summaries eb "g$k" "$b" "$b" "$b" "$b" "$b" "$b" "$b" "$b" "$b" "$b"
	k=$((k + 1))
done
"$COMPARE" --format csv ea eb >edge.csv || true
[ "$(count regressed edge.csv)" -eq 99 ] || fail "at the gate: $(cut -d, -f14 edge.csv | sort | uniq -c)"

# Heavy ties above 40 samples, --rank: the exact p 0.0647, not the normal
# approximation's 0.0451 (exit 1 before).
i=1
while [ $i -le 23 ]; do
	a=0.0100 b=0.0100
	[ $i -gt 12 ] && a=0.0101
	[ $i -gt 6 ] && b=0.0101
	[ $i -gt 21 ] && b=0.0102
	printf 'exit 0\nuser %s\n' $a >"ha.$i.time"
	printf 'exit 0\nuser %s\n' $b >"hb.$i.time"
	i=$((i + 1))
done
mkdir ha hb
for i in $(seq 1 23); do mv "ha.$i.time" "ha/t.$i.time" && mv "hb.$i.time" "hb/t.$i.time"; done
expect_status 0 "$COMPARE" --format csv --unpaired --rank --no-adjust --min-change 0.5 ha hb >ties.csv
[ "$(field ties.csv t 12)" = 0.0646974615 ] || fail "heavy ties p: $(cat ties.csv)"

# A failed run: the benchmark is still compared on the rest, and noted;
# --strict fails on any failed run.  B is 50 % slower: regressed, exit 1
# (before: "failed", exit 0).
for i in 1 2 3 4 5 6 7 8 9 10; do
	printf 'exit 0\nuser 1.%02d\n' $i >"fa.$i"
	printf 'exit 0\nuser 1.5%02d\n' $i >"fb.$i"
done
mkdir fa fb
for i in 1 2 3 4 5 6 7 8 9 10; do mv "fa.$i" "fa/f.$i.time" && mv "fb.$i" "fb/f.$i.time"; done
printf 'exit 1\nuser 0.5\n' >fa/f.3.time
expect_status 1 "$COMPARE" --format csv fa fb >fail.csv
grep -q '^f,9,9,yes,.*,regressed,no,,.*,1 of 10 runs on A failed (fa/f.3.time)$' fail.csv ||
	fail "a failed run: $(cat fail.csv)"
expect_status 1 "$COMPARE" --strict fa fb >/dev/null
# A run without the metric's line is left out, and said.
mkdir gapa gapb
for i in 1 2 3 4 5 6 7 8 9 10; do
	printf 'exit 0\nuser 1.%02d\n' $i >"gapa/g.$i.time"
	printf 'exit 0\nuser 1.%02d%d\n' $i $((i % 3)) >"gapb/g.$i.time"
done
printf 'exit 0\nreal 1\nsys 0\n' >gapb/g.4.time
expect_status 0 "$COMPARE" --format csv gapa gapb >gap.csv
grep -q '^g,9,9,.*,no exec_time in 1 of 10 runs on B$' gap.csv || fail "a run without user: $(cat gap.csv)"
# The medians are those of the samples tested: paired, the rounds both
# sides have (A's median was once over all ten, 1.055, beside nA 9).
[ "$(field gap.csv g 5)" = 1.06 ] || fail "median A over the paired rounds: $(cat gap.csv)"
# Only failed runs on a side: "failed".
mkdir fx fy
printf 'exit 1\nuser 1\n' >fx/z.1.time
printf 'exit 0\nuser 1\n' >fy/z.1.time
expect_status 0 "$COMPARE" --format csv fx fy >allfail.csv
grep -q '^z,0,1,no,.*,failed,no,,every run on A failed (fx/z.1.time),$' allfail.csv || fail "all failed: $(cat allfail.csv)"
expect_status 1 "$COMPARE" --strict fx fy >/dev/null

# Same code is the same binary, not the same instruction count: two
# builds of a matrix multiply in two loop orders, the same count and a
# 35x time, are a regression (exit 1), noted "code changed, same
# instruction count"; identical binaries are "unchanged" whatever the
# times, and the footer counts them as the machine's noise.
mkdir la lb bina binb
for i in 1 2 3 4 5 6; do
	printf 'exit 0\nuser 1.0%s\nvalgrind-instructions 1078861713\n' $i >"la/mm.$i.time"
	printf 'exit 0\nuser 35.%s\nvalgrind-instructions 1078861713\n' $i >"lb/mm.$i.time"
	printf 'exit 0\nuser 1.0%s\n' $i >"la/same.$i.time"
	printf 'exit 0\nuser 1.3%s\n' $i >"lb/same.$i.time"
done
printf 'ijk' >bina/mm
printf 'jki' >binb/mm
printf 'xx' >bina/same
printf 'xx' >binb/same
expect_status 1 "$COMPARE" --format csv --binaries bina binb la lb >code.csv
grep -q '^mm,.*,regressed,no,changed,.*,"code changed, same instruction count"$' code.csv ||
	fail "loop order: $(cat code.csv)"
grep -q '^same,.*,unchanged,no,same,"same binary: the difference is the machine.s (times alone: regressed, ' code.csv ||
	fail "same binary: $(cat code.csv)"
expect_status 0 "$COMPARE" --binaries bina binb -p '^same$' la lb >same.txt
grep -q '^note: 1 benchmark has identical binaries on both sides; the times alone would call 1 of them improved or regressed: this machine.s noise, not the code.s$' same.txt ||
	fail "same-binary footer: $(cat same.txt)"
# Without identity, equal counts claim nothing about the code.
"$COMPARE" --format csv la lb >nocode.csv || true
grep -q '^same,.*,regressed,no,,.*,$' nocode.csv || fail "no identity: $(cat nocode.csv)"
grep -q '^mm,.*,regressed,no,,.*,same instruction count$' nocode.csv || fail "counts alone: $(cat nocode.csv)"
# -m hash compares identity only.
expect_status 0 "$COMPARE" --format csv -m hash --binaries bina binb la lb >hash.csv
grep -q '^mm,.*,changed,no,changed,binaries differ,' hash.csv || fail "-m hash changed: $(cat hash.csv)"
grep -q '^same,.*,unchanged,no,same,same binary,' hash.csv || fail "-m hash same: $(cat hash.csv)"
# --undecided never lists a benchmark whose binaries are identical.
"$COMPARE" --undecided --binaries bina binb A1 A2 >/dev/null

# Noise flags: counted per benchmark, dropped on request, and the footer
# says when the verdicts rest mostly on flagged samples.
mkdir na nb
for i in 1 2 3 4 5 6 7 8; do
	flags=2
	[ $i -gt 6 ] && flags=0
	printf 'exit 0\nuser 1.%02d\nnoise-flags %s\n' $((i * 3)) $flags >"na/p.$i.time"
	printf 'exit 0\nuser 1.%02d\nnoise-flags %s\n' $((i * 3 + 1)) $flags >"nb/p.$i.time"
done
"$COMPARE" --format csv na nb >flag.csv || true
grep -q '^p,8,8,.*12 of 16 samples flagged$' flag.csv || fail "flagged count: $(cat flag.csv)"
"$COMPARE" na nb >flag.txt || true
grep -q '^note: verdicts rest mostly on flagged samples: timeit.s noise screen flagged 12 of 16 (--drop-flagged leaves them out)$' flag.txt ||
	fail "flagged footer: $(cat flag.txt)"
"$COMPARE" --format csv --drop-flagged na nb >drop.csv || true
# The 2 pairs left (1.21, 1.24 against 1.22, 1.25) are one tick apart:
# no spread, so unpaired.
grep -q '^p,2,2,no,.*,undecided,yes,,spread larger than the change: 90% interval [-+.0-9%]* crosses +-1%,"unpaired: B/A is the same in every round (within the values. resolution), so the pairs have no spread; 12 of 16 samples flagged; --drop-flagged left 2 of 8 and 2 of 8 samples"$' drop.csv || fail "--drop-flagged: $(cat drop.csv)"
# With the rank tests, 2 + 2 samples cannot reach alpha: the reason says so.
"$COMPARE" --format csv --rank --drop-flagged na nb >drop-r.csv || true
grep -q '^p,2,2,no,.*,too few samples: 2 + 2 samples cannot reach p 0.05 (smallest possible p 0.333),"unpaired: B/A is the same in every round (within the values. resolution), so the pairs have no spread; 12 of 16 samples flagged; --drop-flagged left 2 of 8 and 2 of 8 samples"$' drop-r.csv || fail "--drop-flagged --rank: $(cat drop-r.csv)"

# The geometric mean: t over the rounds (paired), over the benchmarks
# (unpaired); all-zero benchmarks (no ratio) are left out, not counted as
# ratio 1.
mkdir za zb
# (B's rounds 1, 5, 2: ratios apart by more than the values' last digit,
# so the pairs have a spread.)
for i in 1 2 3; do
	j=$(echo 1 5 2 | cut -d' ' -f$i)
	printf 'exit 0\nuser 0.0000\n' >"za/zero.$i.time"
	printf 'exit 0\nuser 0.0000\n' >"zb/zero.$i.time"
	printf 'exit 0\nuser 1.0%s\n' $i >"za/one.$i.time"
	printf 'exit 0\nuser 1.1%s\n' $j >"zb/one.$i.time"
	printf 'exit 0\nuser 2.0%s\n' $i >"za/two.$i.time"
	printf 'exit 0\nuser 2.2%s\n' $j >"zb/two.$i.time"
done
"$COMPARE" za zb >geo.txt || true
grep -q '^geometric mean of B/A: +[0-9.]*% (95% CI [-+0-9.]*%\.\.[-+0-9.]*%, t over 3 rounds of 2 benchmarks)$' geo.txt ||
	fail "geomean: $(cat geo.txt)"
"$COMPARE" --unpaired za zb >geo-u.txt || true
grep -q '^geometric mean of B/A: +[0-9.]*% (95% CI [-+0-9.]*%\.\.[-+0-9.]*%, t over 2 benchmarks)$' geo-u.txt ||
	fail "geomean unpaired: $(cat geo-u.txt)"
grep -q '^zero .* unchanged  every sample equal$' geo.txt || fail "all zero: $(cat geo.txt)"
"$COMPARE" --format json za zb | tr -d ' \n' | grep -q '"geomean":{"n":2,' || fail "geomean n"
"$COMPARE" --bootstrap 2000 za zb | grep -q ', bootstrap over 2 benchmarks)$' || fail "--bootstrap"
# A value of 0 on one side only: no ratio, no test.
mkdir zc zd
printf 'exit 0\nuser 0.0000\n' >zc/t.1.time
printf 'exit 0\nuser 0.0000\n' >zc/t.2.time
printf 'exit 0\nuser 0.0001\n' >zd/t.1.time
printf 'exit 0\nuser 0.0001\n' >zd/t.2.time
"$COMPARE" --format csv zc zd >z.csv || fail "a zero median"
grep -q '^t,2,2,no,0,0.0001,.*,undecided,no,,"values <= 0: no ratio, no test",$' z.csv || fail "zero: $(cat z.csv)"
"$COMPARE" zc zd | grep -qx 'geometric mean of B/A: - (no benchmark with medians above 0 on both sides)' ||
	fail "no geomean"

# --undecided: the names more samples could decide, one a line, exit 0
# even with a regression among the rest; --looks N spends alpha over N
# analyses (intervals at 1 - alpha/N).
expect_status 0 "$COMPARE" --undecided base slow >und
awk -F, '$14 == "undecided" { print $1 }' shift.csv >und.want
[ -s und.want ] || fail "no undecided benchmark to list: $(cat shift.csv)"
cmp -s und und.want || fail "--undecided: $(cat und), want $(cat und.want)"
expect_status 0 "$COMPARE" --undecided Q1 Q2 >und2
[ ! -s und2 ] || fail "--undecided on decided: $(cat und2)"
"$COMPARE" --looks 6 base slow >looks.txt || true
grep -q '^benchmark .* 99.2% CI ' looks.txt || fail "--looks header: $(head -1 looks.txt)"
grep -q '^metric exec_time, alpha 0.05 over 6 looks (0.00833333 each), ' looks.txt ||
	fail "--looks footer: $(cat looks.txt)"
"$COMPARE" --format json --looks 6 base slow | tr -d ' \n' | grep -q '"looks":6,"alpha_per_look":0.008333' ||
	fail "--looks json"

# n = 1 a side: no test; a noise floor from an A/A pair decides.
mkdir one-a one-b aa1 aa2
printf 'exit 0\nuser 1.00\n' >one-a/k.time
printf 'exit 0\nuser 1.10\n' >one-b/k.time
printf 'exit 0\nuser 2.00\n' >one-a/q.time
printf 'exit 0\nuser 2.002\n' >one-b/q.time
printf 'exit 0\nuser 1.00\n' >aa1/k.time
printf 'exit 0\nuser 1.02\n' >aa2/k.time
printf 'exit 0\nuser 2.00\n' >aa1/q.time
printf 'exit 0\nuser 2.001\n' >aa2/q.time
expect_status 0 "$COMPARE" --format csv one-a one-b >n1.csv
grep -q '^k,1,1,no,.*,undecided,yes,,n=1/1: too few samples for a test,$' n1.csv || fail "n=1: $(cat n1.csv)"
expect_status 1 "$COMPARE" --format csv --noise-floor aa1 aa2 one-a one-b >fl.csv
grep -q '^k,1,1,no,.*,regressed,no,,"n=1/1: +10.00%, beyond the A/A noise floor 2.00%",$' fl.csv ||
	fail "floor k: $(cat fl.csv)"
grep -q '^q,1,1,no,.*,unchanged,no,,n=1/1: +0.10% and the A/A noise floor 0.05% within +-1%,$' fl.csv ||
	fail "floor q: $(cat fl.csv)"

# --min-change gates |B/A - 1|: -26.23 % and +25.94 % are both within 30 %.
mkdir mc-a mc-b
for i in 1 2 3 4 5 6; do
	printf 'exit 0\nuser 1.0%s\n' $i >"mc-a/x.$i.time"
	printf 'exit 0\nuser 0.76%s\n' $i >"mc-b/x.$i.time"
	printf 'exit 0\nuser 1.0%s\n' $i >"mc-a/y.$i.time"
	printf 'exit 0\nuser 1.30%s\n' $i >"mc-b/y.$i.time"
done
"$COMPARE" --format csv --unpaired --min-change 25 mc-a mc-b >mc25.csv || true
[ "$(field mc25.csv x 14)" = improved ] && [ "$(field mc25.csv y 14)" = regressed ] ||
	fail "--min-change 25: $(cat mc25.csv)"
expect_status 0 "$COMPARE" --format csv --unpaired --min-change 30 mc-a mc-b >mc30.csv
[ "$(field mc30.csv x 14)" = unchanged ] && [ "$(field mc30.csv y 14)" = unchanged ] ||
	fail "--min-change 30: $(cat mc30.csv)"

# valgrind counts, equal in every sample of a side: exact, no test.
mkdir ex-a ex-b
for i in 1 2 3; do
	printf 'exit 0\nuser 1.0\nvalgrind-instructions 1000000\n' >"ex-a/e.$i.time"
	printf 'exit 0\nuser 1.0\nvalgrind-instructions 1020000\n' >"ex-b/e.$i.time"
	printf 'exit 0\nuser 1.0\nvalgrind-instructions 1000000\n' >"ex-a/s.$i.time"
	printf 'exit 0\nuser 1.0\nvalgrind-instructions 1000000\n' >"ex-b/s.$i.time"
done
expect_status 1 "$COMPARE" --format csv -m valgrind-instructions ex-a ex-b >ex.csv
grep -q '^e,3,3,no,1000000,1020000,0.02,0.02,0.02,0,0,,,regressed,no,,"exact count, +2.00% beyond the +-1% gate",' ex.csv ||
	fail "exact: $(cat ex.csv)"
grep -q '^s,.*,unchanged,no,,every sample equal,' ex.csv || fail "exact equal: $(cat ex.csv)"
expect_status 0 "$COMPARE" -m valgrind-instructions --min-change 5 -p '^e$' ex-a ex-b >/dev/null

# --strict: any failure, what B lost, or nothing compared.
mkdir st-a st-b
printf 'exit 0\nuser 1.0\n' >st-a/ok.time
cp st-a/ok.time st-b/ok.time
cp st-a/ok.time st-a/gone.time
cp st-a/ok.time st-a/broke.time
printf 'exit 1\nuser 1.0\n' >st-b/broke.time
expect_status 0 "$COMPARE" st-a st-b >/dev/null
expect_status 1 "$COMPARE" --strict st-a st-b >/dev/null
for b in gone broke; do
	expect_status 1 "$COMPARE" --strict -p "^$b\$" st-a st-b >/dev/null
	expect_status 0 "$COMPARE" -p "^$b\$" st-a st-b >/dev/null
done
expect_status 0 "$COMPARE" --strict -p '^ok$' st-a st-b >/dev/null
expect_status 0 "$COMPARE" --strict -p '^(ok|gone)$' st-b st-a >/dev/null
expect_status 1 "$COMPARE" --strict -p nomatch st-a st-b >/dev/null 2>st.err
[ "$(cat st.err)" = "timeit-compare: --strict: no benchmark to compare" ] || fail "empty: $(cat st.err)"
"$COMPARE" --strict --format json -p '^(ok|gone)$' st-a st-b >st.json && fail "--strict json"
tr -d ' \n' <st.json | grep -q '"name":"gone","verdict":"missing",.*"gating":true' || fail "json: $(cat st.json)"
tr -d ' \n' <st.json | grep -q '"status":1}$' || fail "json status: $(cat st.json)"

# Names with a line break, a tab or a backslash keep one row each.
mkdir nl-a nl-b
nl='x
y'
for d in nl-a nl-b; do
	printf 'exit 0\nuser 1.0\n' >"$d/$nl.time"
	printf 'exit 0\nuser 1.0\n' >"$d/t	b\\s.time"
done
"$COMPARE" nl-a nl-b >nl.txt || fail "newline name"
grep -Eq '^x\\ny +1 +1 ' nl.txt || fail "newline name, text: $(cat nl.txt)"
grep -Eq '^t\\tb\\\\s +1 +1 ' nl.txt || fail "tab and backslash, text: $(cat nl.txt)"
[ "$(grep -c ' n=1/1: too few samples for a test$' nl.txt)" -eq 2 ] || fail "rows: $(cat nl.txt)"
"$COMPARE" --format md nl-a nl-b >nl.md || fail "newline name, md"
grep -q '^| x\\\\ny | 1 | 1 |' nl.md || fail "newline name, md: $(cat nl.md)"
"$COMPARE" --format csv nl-a nl-b >nl.csv || fail "newline name, csv"
grep -q '^"x$' nl.csv || fail "csv keeps the name, quoted: $(cat nl.csv)"

# Filters.
"$COMPARE" --format csv --only-changed base slow >only.csv || true
[ "$(count unchanged only.csv)" -eq 0 ] || fail "--only-changed lists unchanged"
"$COMPARE" --format csv -p '^b01[0-2]$' base slow >pat.csv || fail "-p"
[ "$(cut -d, -f1 pat.csv | tr '\n' ' ')" = "benchmark b010 b011 b012 " ] || fail "-p: $(cat pat.csv)"
"$COMPARE" --format csv --filter-short 1.5 one-a one-b >short.csv || fail "--filter-short"
[ "$(cut -d, -f1 short.csv | tr '\n' ' ')" = "benchmark q " ] || fail "--filter-short: $(cat short.csv)"

# Formats: titles say which p and which interval.
"$COMPARE" --format md base slow >out.md || true
sed -n 1p out.md | grep -q '^| benchmark | nA | nB | median A | median B | change | 95% CI | MAD% A | MAD% B | p (bh) | verdict | why |$' ||
	fail "md header: $(sed -n 1p out.md)"
grep -q '^| b000 | 10 | 10 | .* | \*\*regressed\*\* |' out.md || fail "md row: $(cat out.md)"
"$COMPARE" --holm base slow | head -1 | grep -q ' p (holm) ' || fail "holm header"
"$COMPARE" --no-adjust base slow | head -1 | grep -q ' p  verdict' || fail "unadjusted header"
"$COMPARE" --format json base slow >out.json || true
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == 1 and d["counts"]["regressed"] == 5, d["counts"]
assert d["adjust"] == "bh" and d["ci_level"] == 0.95 and d["pairing"]["mode"] == "auto"
b = {x["name"]: x for x in d["benchmarks"]}
x = b["b000"]
assert x["verdict"] == "regressed" and x["gating"] and not x["decidable"], x
assert x["ci_low"] < 0.05 < x["ci_high"] and x["p"] <= x["p_adjusted"] and x["paired"] is True, x
assert x["test"] == "signed rank", x
assert x["reason"].startswith("significant"), x
u = [x for x in d["benchmarks"] if x["verdict"] == "undecided"]
assert u and all(x["decidable"] for x in u), u
assert d["geomean"]["method"] == "round" and d["geomean"]["n"] == 20, d["geomean"]
assert d["geomean"]["rounds"] == 10 and d["geomean"]["level"] == 0.95, d["geomean"]
' out.json || fail "json: $(cat out.json)"
fi
# The audit of the rank-test rule, each finding as it was found
# (docs/verdicts.md, "Why the rule is what it is").
# 1. The floor: 129 benchmarks, --looks 5, 6 rounds, 2 % noise and a 3 %
# load shared within a round; one benchmark at x0.4 in every round.  The
# signed rank's smallest p, 2^-5, cannot pass 0.01/129 whatever the
# change: it was undecided (p 0.279 adjusted in the audit); the t on the
# log-ratios calls it improved at the first look.
"$GEN" i20a 11 129 6 0.02 0 0 77 0.03
"$GEN" i20b 12 129 6 0.02 -0.6 1 77 0.03
"$COMPARE" --format csv --looks 5 i20a i20b >floor.csv || true
[ "$(field floor.csv b000 14)" = improved ] || fail "x0.4 in 6 rounds of 129 tests: $(field floor.csv b000 17)"
[ "$(($(count regressed floor.csv) + $(count improved floor.csv)))" -eq 1 ] ||
	fail "x0.4 in 6 rounds: other verdicts: $(cat floor.csv)"
"$COMPARE" --format csv --looks 5 --rank i20a i20b >floor-r.csv || true
[ "$(field floor-r.csv b000 14)" = undecided ] || fail "--rank at its floor: $(field floor-r.csv b000 17)"
# 2. Pairing by design: rounds that anti-correlate (a round that slows
# one side and spares the other) are still pairs, and the report says
# so; the old rule voted them unpaired.
mkdir -p ana anb
for b in p q r s t; do
	for i in 1 2 3 4 5 6 7 8; do
		e=$(awk -v i=$i 'BEGIN { printf "%.4f", (i % 2 ? 1 : -1) * 0.04 * (0.5 + (i % 3) / 4) }')
		awk -v e="$e" 'BEGIN { printf "exit 0\nuser %.4f\n", 1 + e }' >"ana/$b.$i.time"
		awk -v e="$e" 'BEGIN { printf "exit 0\nuser %.4f\n", 1 - e + 0.001 }' >"anb/$b.$i.time"
	done
done
"$COMPARE" --format csv ana anb >anti.csv || true
[ "$(awk -F, 'NR > 1 && $4 != "yes"' anti.csv | wc -l)" -eq 0 ] || fail "anti-correlated rounds not paired: $(cat anti.csv)"
"$COMPARE" ana anb >anti.txt || true
grep -q '^rounds paired by design: A_i and B_i ran in one round (median rank correlation -1.00 over 5 benchmarks); --unpaired compares all samples$' anti.txt ||
	fail "anti-correlated footer: $(cat anti.txt)"
# What stays unpaired (unequal rounds) is tested by Welch's statistic on
# Hsu's degrees of freedom, valid when the spreads differ, and the footer
# names it.
"$COMPARE" --format csv --paired lbase lslow9 >welch.csv || true
grep -q '^b000,.*,no,' welch.csv || fail "unequal rounds: $(cat welch.csv)"
"$COMPARE" --paired lbase lslow9 | grep -q '^change: 19 of 20 tested benchmarks paired by round; tests: .*Welch-Hsu 1' ||
	fail "Welch named: $("$COMPARE" --paired lbase lslow9)"
# 3. No "unchanged" without evidence: every round equal on both sides but
# the rounds 3.45 % apart was "unchanged" at +0.00..+0.00 %; one
# surviving run of ten likewise.  Both undecided now; both sides truly
# constant stays unchanged with its point interval.
summaries eqa r 1.0 1.0345
summaries eqb r 1.0 1.0345
# ... also when two of the rounds happen to be close (the t's floor was
# the smallest gap between any two values: 0.01 %).
summaries eqa r3 1.0 1.0001 1.0345
summaries eqb r3 1.0 1.0001 1.0345
summaries eqa s 1.0 1.0 1.0
summaries eqb s 1.0 1.0 1.0
for i in 1 2 3 4 5 6 7 8 9 10; do
	v=exit\ 1
	[ $i -eq 4 ] && v=exit\ 0
	printf '%s\nuser 1.0\n' "$v" >"eqa/one.$i.time"
	printf '%s\nuser 1.0\n' "$v" >"eqb/one.$i.time"
done
"$COMPARE" --format csv eqa eqb >eq.csv || true
grep -q '^r,2,2,no,.*,undecided,yes,,spread larger than the change.*unpaired: B/A is the same in every round' eq.csv ||
	fail "equal rounds: $(cat eq.csv)"
grep -q '^r3,3,3,no,.*,undecided,yes,,spread larger than the change' eq.csv || fail "equal rounds, two close: $(cat eq.csv)"
grep -q '^one,1,1,.*,undecided,yes,,n=1/1: too few samples for a test' eq.csv || fail "one survivor: $(cat eq.csv)"
grep -q '^s,3,3,no,1,1,0,0,0,.*,unchanged,no,,every sample equal,' eq.csv || fail "constant: $(cat eq.csv)"
# 4. The report says what was computed: paired counts only tested rows
# (the old "every round equal" row made it "2 of 1"); one level, the
# rows', for the geometric mean (--looks 5: 99 %, not 95 %); the suite's
# interval by round, identical binaries as no change; a filter's
# benchmarks take no part in the correlation reported.
summaries pca x 1.0 1.1 1.2 1.3 1.4 1.5
summaries pcb x 1.05 1.16 1.26 1.37 1.47 1.58
summaries pca z 2.0 2.1 2.2 2.3 2.4 2.5
summaries pcb z 2.0 2.11 2.19 2.3 2.41 2.5
"$COMPARE" pca pcb >pc.txt || true
grep -q '^change: 2 of 2 tested benchmarks paired by round; ' pc.txt || fail "paired count: $(cat pc.txt)"
"$COMPARE" --looks 5 -p '^x$' pca pcb | grep -q '^geometric mean of B/A: +[0-9.]*% (99% CI [-+.0-9]*%\.\.[-+.0-9]*%, the one benchmark.s)$' ||
	fail "--looks 5, one benchmark: $("$COMPARE" --looks 5 -p '^x$' pca pcb)"
"$COMPARE" --looks 5 pca pcb | grep -q '^geometric mean of B/A: +[0-9.]*% (99% CI [-+.0-9]*%\.\.[-+.0-9]*%, t over 6 rounds of 2 benchmarks)$' ||
	fail "--looks 5, the suite: $("$COMPARE" --looks 5 pca pcb)"
mkdir -p sba sbb
printf 'same code\n' >sba/x
printf 'same code\n' >sbb/x
printf 'old code\n' >sba/z
printf 'new code\n' >sbb/z
"$COMPARE" --binaries sba sbb pca pcb >sb.txt || true
grep -q '^geometric mean of B/A: +0.0[0-9]% (95% CI -[.0-9]*%\.\.+[.0-9]*%, t over 6 rounds of 2 benchmarks, identical binaries as no change)$' sb.txt ||
	fail "same binaries, the suite: $(cat sb.txt)"
grep -q '^geometric mean of B/A: +0.00% (95% CI -0.00%\.\.+0.00%' sb.txt &&
	fail "same binaries, the suite: $(cat sb.txt)"
# A benchmark whose rounds differ (a run lost on B) is not paired; the
# suite's interval stays by round (it fell back to a t over the
# benchmarks, which a load shared by a round's benchmarks makes too narrow).
cp -r pcb pcl
rm pcl/x.6.time
"$COMPARE" pca pcl >pl.txt || true
grep -q '^change: 1 of 2 tested benchmarks paired by round; ' pl.txt || fail "a lost run: $(cat pl.txt)"
grep -q '^geometric mean of B/A: +[0-9.]*% (95% CI [-+.0-9]*%\.\.[-+.0-9]*%, t over 6 rounds of 2 benchmarks)$' pl.txt ||
	fail "a lost run, the suite: $(cat pl.txt)"
# One run a side: the run's machine state is in every benchmark, and
# nothing tells it from a change: no interval (was a t over benchmarks).
summaries o1a p 0.5
summaries o1a q 0.7
summaries o1b p 0.51
summaries o1b q 0.72
"$COMPARE" o1a o1b >o1.txt || true
grep -q '^geometric mean of B/A: +[.0-9]*% (no interval: one run a side, whose machine state every benchmark shares)$' o1.txt ||
	fail "one run a side: $(cat o1.txt)"
# A benchmark with one run on a side has no interval, so neither has the
# suite (was 0 %..+inf).  (p's ratios apart by more than the last digit.)
summaries o2a p 0.5 0.51 0.49
summaries o2a q 0.7 0.71 0.69
summaries o2b p 0.53 0.51 0.52
summaries o2b q 0.72
"$COMPARE" o2a o2b >o2.txt || true
grep -q '^geometric mean of B/A: +[.0-9]*% (no interval: a benchmark.s own has none)$' o2.txt ||
	fail "a benchmark without an interval: $(cat o2.txt)"
"$GEN" fs1 21 5 8 0.01 0 0 31 0.05
"$GEN" fs2 22 5 8 0.01 0 0 31 0.05
for d in fs1 fs2; do
	for k in 1 2 3 4 5 6 7 8 9 10; do
		for i in 1 2 3 4 5 6 7 8; do
			printf 'exit 0\nuser 0.00%s\n' $((i % 3 + 1)) >"$d/tiny$k.$i.time"
		done
	done
done
"$COMPARE" --filter-short 0.1 fs1 fs2 >fs.txt || true
grep -q '(median rank correlation [-.0-9]* over 5 benchmarks)' fs.txt || fail "--filter-short and the correlation: $(cat fs.txt)"
# Colour only on a terminal.
"$COMPARE" base slow >plain || true
grep -q "$(printf '\033')" plain && fail "colour escape in a pipe"
# shellcheck disable=SC2016 # expanded by the shell script(1) starts
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
	export COMPARE
	script -qec '"$COMPARE" base slow' /dev/null >tty.out 2>&1 || true
	grep -q "$(printf '\033')\[31mregressed" tty.out || fail "no colour on a terminal: $(cat tty.out)"
	script -qec '"$COMPARE" --no-color base slow' /dev/null >tty2.out 2>&1 || true
	grep -q "$(printf '\033')" tty2.out && fail "--no-color on a terminal"
	script -qec 'NO_COLOR=1 "$COMPARE" base slow' /dev/null >tty3.out 2>&1 || true
	grep -q "$(printf '\033')" tty3.out && fail "NO_COLOR on a terminal"
fi
exit 0
