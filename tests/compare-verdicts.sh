#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-compare's verdicts end to end, on synthetic results with a fixed
# seed (tests/compare-gen): the A/A false-positive rate, a 3 % shift with 5
# samples a side at 1 % noise, the gates (--min-change, --noise-floor,
# multiple-comparison control), instruction counts telling "same code"
# from "code changed", n = 1 sides, filters, output formats, exit status.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
COMPARE=${COMPARE:-$top_builddir/timeit/timeit-compare}
GEN=${GEN:-$top_builddir/tests/compare-gen}

# count VERDICT FILE: rows of a CSV output with that verdict.
count() {
	awk -F, -v v="$1" 'NR > 1 && $13 == v { n++ } END { print n + 0 }' "$2"
}

# A/A: 400 benchmarks, 5 samples a side, 1 % noise, identical distributions.
"$GEN" A1 1 400 5 0.01 0 0
"$GEN" A2 2 400 5 0.01 0 0
"$COMPARE" --format csv --no-adjust --min-change 0 A1 A2 >raw.csv || [ $? -eq 1 ] || fail "A/A raw"
fp=$(($(count regressed raw.csv) + $(count improved raw.csv)))
echo "A/A, no adjustment, no gate: $fp of 400 significant"
[ "$fp" -le 20 ] || fail "A/A false-positive rate $fp/400 > 5 %"
"$COMPARE" --format csv --min-change 0 A1 A2 >holm.csv || fail "A/A with Holm exited $?"
fp=$(($(count regressed holm.csv) + $(count improved holm.csv)))
[ "$fp" -eq 0 ] || fail "A/A with Holm: $fp false positives"
"$COMPARE" --format csv --fdr --min-change 0 A1 A2 >bh.csv || fail "A/A with BH exited $?"
[ "$(($(count regressed bh.csv) + $(count improved bh.csv)))" -eq 0 ] || fail "A/A with BH"

# A 3 % slowdown of 5 benchmarks out of 20, 5 samples a side, 1 % noise.
"$GEN" base 3 20 5 0.01 0 0
"$GEN" slow 4 20 5 0.01 0.03 5
expect_status 1 "$COMPARE" --no-color --no-adjust base slow >/dev/null
"$COMPARE" --format csv --no-adjust base slow >shift.csv || [ $? -eq 1 ] || fail "shift"
[ "$(awk -F, '$1 ~ /^b00[0-4]$/ && $13 == "regressed"' shift.csv | wc -l)" -eq 5 ] ||
	fail "3 % shift not detected everywhere: $(cat shift.csv)"
[ "$(count regressed shift.csv)" -eq 5 ] || fail "regressions beyond the shifted ones: $(cat shift.csv)"
# The 3 % lies inside the Hodges-Lehmann interval of each shifted benchmark.
awk -F, '$1 ~ /^b00[0-4]$/ && !($7 < 0.03 && $8 > 0.03) { exit 1 }' shift.csv ||
	fail "3 % outside the confidence interval: $(cat shift.csv)"
# Alone (a family of one) the default Holm control detects it too; among
# 20 benchmarks 5 samples a side cannot pass Holm, and the user is told.
expect_status 1 "$COMPARE" -p '^b000$' base slow >/dev/null
"$COMPARE" base slow >/dev/null 2>holm.err
grep -q 'no benchmark can pass Holm' holm.err || fail "no Holm warning: $(cat holm.err)"
# With 2 samples a side no p-value can be below 1/3: whatever the
# adjustment, nothing can be significant, and the note says that instead
# of suggesting --fdr or --no-adjust; Holm's note is for when they help.
mkdir two-a two-b
for b in p q r; do
	for i in 1 2; do
		printf 'exit 0\nuser 1.0%s\n' $i >"two-a/$b.$i.time"
		printf 'exit 0\nuser 1.5%s\n' $i >"two-b/$b.$i.time"
	done
done
for adj in "" --no-adjust --fdr; do
	# shellcheck disable=SC2086 # no option is no word
	"$COMPARE" $adj two-a two-b >/dev/null 2>two.err || fail "2 a side $adj"
	[ "$(cat two.err)" = "timeit-compare: note: no test can reach alpha 0.05 with these sample counts, whatever the adjustment (smallest possible p 0.3333, with 2 and 2 samples); take more samples" ] ||
		fail "2 a side $adj: $(cat two.err)"
done
"$COMPARE" --no-adjust base slow >/dev/null 2>noadj.err || [ $? -eq 1 ] || fail "--no-adjust"
[ ! -s noadj.err ] || fail "5 a side, --no-adjust: no note expected: $(cat noadj.err)"
grep -q -- 'use --fdr or --no-adjust' holm.err || fail "Holm note: $(cat holm.err)"
# A 5 % gate hides it; a faster B is an improvement and exits 0.
expect_status 0 "$COMPARE" --no-adjust --min-change 5 base slow >/dev/null
"$COMPARE" --format csv --no-adjust --min-change 5 base slow >gate.csv || fail "gate"
[ "$(count regressed gate.csv)" -eq 0 ] || fail "--min-change 5: $(cat gate.csv)"
grep -q 'significant, below --min-change' gate.csv || fail "--min-change 5 note: $(cat gate.csv)"
expect_status 0 "$COMPARE" --no-adjust slow base >/dev/null
"$COMPARE" --format csv --no-adjust slow base >imp.csv || fail "improvement"
[ "$(count improved imp.csv)" -eq 5 ] || fail "improvements: $(cat imp.csv)"

# Summary rows: geometric mean with a reproducible bootstrap interval.
"$COMPARE" --no-color base slow >t1
"$COMPARE" --no-color base slow >t2
cmp -s t1 t2 || fail "two runs differ (bootstrap seed)"
grep -Eq '^geometric mean of B/A: \+[0-9.]+% \(95% bootstrap CI [-+][0-9.]+%\.\.\+[0-9.]+%, 20 benchmarks\)$' t1 ||
	fail "geomean line: $(cat t1)"
"$COMPARE" --format json base slow | grep -A4 '"geomean"' >g1
"$COMPARE" --format json --seed 99 base slow | grep -A4 '"geomean"' >g3
cmp -s g1 g3 && fail "--seed changes nothing: $(cat g1)"

# n = 1 a side: no test; without a noise floor a big change is "noisy",
# with one it is decided against the floor.
mkdir one-a one-b aa1 aa2
printf 'exit 0\nuser 1.00\n' >one-a/k.time
printf 'exit 0\nuser 1.10\n' >one-b/k.time
printf 'exit 0\nuser 2.00\n' >one-a/q.time
printf 'exit 0\nuser 2.015\n' >one-b/q.time
printf 'exit 0\nuser 1.00\n' >aa1/k.time
printf 'exit 0\nuser 1.02\n' >aa2/k.time
printf 'exit 0\nuser 2.00\n' >aa1/q.time
printf 'exit 0\nuser 2.10\n' >aa2/q.time
"$COMPARE" --format csv one-a one-b >n1.csv || fail "n=1 without a floor"
grep -q '^k,1,1,.*,noisy,,n=1/1: no test$' n1.csv || fail "n=1 k: $(cat n1.csv)"
grep -q '^q,1,1,.*,unchanged,,n=1/1: no test$' n1.csv || fail "n=1 q: $(cat n1.csv)"
expect_status 1 "$COMPARE" --noise-floor aa1 aa2 one-a one-b >/dev/null
"$COMPARE" --format csv --noise-floor aa1 aa2 one-a one-b >fl.csv || [ $? -eq 1 ] || fail "floor"
grep -q '^k,1,1,.*,regressed,,n=1/1: no test; beyond noise floor$' fl.csv || fail "floor k: $(cat fl.csv)"
# q moved 0.75 %, within its A/A floor of 5 %.
grep -q '^q,1,1,.*,unchanged,' fl.csv || fail "floor q: $(cat fl.csv)"
# Enough samples, but a time of 0 (below the clock's resolution) has no
# logarithm: no test, and the note says why, not "n=5/5".
mkdir za zb
for i in 1 2 3 4 5; do
	printf 'exit 0\nuser 0.00%s\n' $((i % 3)) >"za/z.$i.time"
	printf 'exit 0\nuser 0.00%s\n' $((i % 3 + 1)) >"zb/z.$i.time"
	printf 'exit 0\nuser 0.000\n' >"za/zero.$i.time"
	printf 'exit 0\nuser 0.000\n' >"zb/zero.$i.time"
done
"$COMPARE" --format csv za zb >z.csv || fail "zero times"
grep -q '^z,5,5,.*,noisy,,values <= 0: no test$' z.csv || fail "a zero sample: $(cat z.csv)"
grep -q '^zero,5,5,.*,unchanged,,values <= 0: no test$' z.csv || fail "all zero: $(cat z.csv)"
# A median of 0 against one above: no ratio either, and the note says so
# in the man page's words; the geometric mean has no benchmark whose
# medians are both above 0 (the benchmark is on both sides).
mkdir z0a z0b
for i in 1 2; do
	printf 'exit 0\nuser 0.0000\n' >"z0a/t.$i.time"
	printf 'exit 0\nuser 0.0001\n' >"z0b/t.$i.time"
done
"$COMPARE" --format csv z0a z0b >z0.csv || fail "a zero median"
grep -q '^t,2,2,0,0.0001,,,,,0,,,noisy,,"values <= 0: no ratio, no test"$' z0.csv ||
	fail "a zero median: $(cat z0.csv)"
grep -qF '"values <= 0: no ratio, no test"' "$top_srcdir/man/timeit-compare.1" ||
	fail "timeit-compare.1 does not give the note for a zero median"
"$COMPARE" z0a z0b >z0.txt 2>/dev/null || fail "a zero median (text)"
grep -qx 'geometric mean of B/A: - (no benchmark with medians above 0 on both sides)' z0.txt ||
	fail "geomean of a zero median: $(cat z0.txt)"

# Instruction counts: equal counts with a time change are timing noise and
# do not fail the gate; different counts mean the code changed.
mkdir ia ib
for i in 1 2 3 4 5; do
	printf 'exit 0\nuser 1.0%s\ninstructions 1000000000\n' "$i" >"ia/same.$i.time"
	printf 'exit 0\nuser 1.1%s\ninstructions 1000000050\n' "$i" >"ib/same.$i.time"
	printf 'exit 0\nuser 1.0%s\ninstructions 1000000000\n' "$i" >"ia/diff.$i.time"
	printf 'exit 0\nuser 1.1%s\ninstructions 1100000000\n' "$i" >"ib/diff.$i.time"
	# valgrind's exact count wins over the hardware one when both sides have it.
	printf 'exit 0\nuser 1.0%s\ninstructions 5\nvalgrind-instructions 700\n' "$i" >"ia/vg.$i.time"
	printf 'exit 0\nuser 1.1%s\ninstructions 9\nvalgrind-instructions 700\n' "$i" >"ib/vg.$i.time"
done
"$COMPARE" --format csv ia ib >code.csv || [ $? -eq 1 ] || fail "instruction counts"
grep -q '^same,5,5,.*,regressed,same,"same code, timing noise"$' code.csv || fail "same: $(cat code.csv)"
grep -q '^diff,5,5,.*,regressed,changed,code changed (instructions +10.00%)$' code.csv ||
	fail "diff: $(cat code.csv)"
grep -q '^vg,5,5,.*,regressed,same,"same code, timing noise"$' code.csv || fail "vg: $(cat code.csv)"
expect_status 1 "$COMPARE" ia ib >/dev/null
rm ia/diff.* ib/diff.*
expect_status 0 "$COMPARE" ia ib >/dev/null

# --min-change gates the change the table shows, |B/A - 1|: -26.23 % and
# +25.94 % are both inside 30 % and beyond 25 % (a gate on |ln(B/A)| put
# -26.23 % beyond 30 %: |ln 0.7377| = 0.304 > ln 1.30 = 0.262).
mkdir mc-a mc-b
for i in 1 2 3 4 5 6; do
	printf 'exit 0\nuser 1.0%s\n' $i >"mc-a/x.$i.time"
	printf 'exit 0\nuser 0.76%s\n' $i >"mc-b/x.$i.time"
	printf 'exit 0\nuser 1.0%s\n' $i >"mc-a/y.$i.time"
	printf 'exit 0\nuser 1.30%s\n' $i >"mc-b/y.$i.time"
done
"$COMPARE" --no-adjust --min-change 30 mc-a mc-b >mc30 || fail "--min-change 30: $(cat mc30)"
grep -Eq '^x .* -26\.23% .* unchanged +significant, below --min-change$' mc30 || fail "x at 30: $(cat mc30)"
grep -Eq '^y .* \+25\.94% .* unchanged +significant, below --min-change$' mc30 || fail "y at 30: $(cat mc30)"
expect_status 1 "$COMPARE" --no-adjust --min-change 25 mc-a mc-b >mc25
grep -Eq '^x .* -26\.23% .* improved$' mc25 || fail "x at 25: $(cat mc25)"
grep -Eq '^y .* \+25\.94% .* regressed$' mc25 || fail "y at 25: $(cat mc25)"
expect_status 0 "$COMPARE" --no-adjust --min-change 26.3 mc-a mc-b >/dev/null
expect_status 1 "$COMPARE" --no-adjust --min-change 25.9 mc-a mc-b >/dev/null

# valgrind-instructions, equal in every sample of a side: an exact count,
# compared without a test, from summaries as from --json files.
mkdir ex-a ex-b
for i in 1 2 3; do
	printf 'exit 0\nuser 1.0\nvalgrind-instructions 1000000\n' >"ex-a/e.$i.time"
	printf 'exit 0\nuser 1.0\nvalgrind-instructions 1020000\n' >"ex-b/e.$i.time"
	printf 'exit 0\nuser 1.0\nvalgrind-instructions 100000%s\n' $i >"ex-a/v.$i.time"
	printf 'exit 0\nuser 1.0\nvalgrind-instructions 102000%s\n' $i >"ex-b/v.$i.time"
done
"$COMPARE" --format csv -m valgrind-instructions ex-a ex-b >ex.csv && fail "+2 % exact must exit 1"
grep -q '^e,3,3,1000000,1020000,0.02,0.02,0.02,0,0,,,regressed,changed,exact count$' ex.csv ||
	fail "exact count: $(cat ex.csv)"
# Counts that vary within a side are tested (3 a side: p >= 0.1).
grep -q '^v,3,3,1000002,1020002,.*,noisy,changed,' ex.csv || fail "varying counts: $(cat ex.csv)"
"$COMPARE" --format csv -m valgrind-instructions --min-change 5 -p '^e$' ex-a ex-b >ex5.csv ||
	fail "+2 % exact within --min-change 5"
grep -q ',unchanged,changed,"exact count, below --min-change"$' ex5.csv || fail "exact, gated: $(cat ex5.csv)"

# --strict: what B lost fails the gate; without it the same exits 0.
mkdir st-a st-b
printf 'exit 0\nuser 1.0\n' >st-a/ok.time
cp st-a/ok.time st-b/ok.time
cp st-a/ok.time st-a/gone.time
cp st-a/ok.time st-a/broke.time
printf 'exit 1\nuser 1.0\n' >st-b/broke.time
cp st-a/ok.time st-a/wrong.1.time
cp st-a/ok.time st-b/wrong.1.time.wrong-output
printf 'exit 0\nuser 1.0\nreal 1\n' >st-a/metric.time
printf 'exit 0\nuser 1.0\n' >st-b/metric.time
expect_status 0 "$COMPARE" st-a st-b >/dev/null
expect_status 1 "$COMPARE" --strict st-a st-b >/dev/null
for b in gone broke wrong; do
	expect_status 1 "$COMPARE" --strict -p "^$b\$" st-a st-b >/dev/null
	expect_status 0 "$COMPARE" -p "^$b\$" st-a st-b >/dev/null
done
expect_status 0 "$COMPARE" --strict -p '^ok$' st-a st-b >/dev/null
# A failure only in A (fixed in B) and a benchmark new in B are no loss.
expect_status 0 "$COMPARE" --strict -p '^(ok|broke)$' st-b st-a >/dev/null
expect_status 0 "$COMPARE" --strict -p '^(ok|gone)$' st-b st-a >/dev/null
# The metric is on A's side only.
expect_status 0 "$COMPARE" -m real --strict -p '^metric$' st-a st-a >/dev/null
expect_status 1 "$COMPARE" -m real --strict -p '^metric$' st-a st-b >/dev/null
expect_status 0 "$COMPARE" -m real --strict -p '^metric$' st-b st-a >/dev/null
# Nothing to compare.
expect_status 0 "$COMPARE" -p nomatch st-a st-b >/dev/null
expect_status 1 "$COMPARE" --strict -p nomatch st-a st-b >/dev/null 2>st.err
[ "$(cat st.err)" = "timeit-compare: --strict: no benchmark to compare" ] || fail "empty: $(cat st.err)"
"$COMPARE" --strict --format json -p '^(ok|gone)$' st-a st-b >st.json && fail "--strict json"
tr -d ' \n' <st.json | grep -q '"name":"gone",.*"verdict":"missing","gating":true' || fail "json: $(cat st.json)"
tr -d ' \n' <st.json | grep -q '"status":1}$' || fail "json status: $(cat st.json)"

# A name with a line break (or a tab, a backslash) keeps the text and md
# tables one row per benchmark: C escapes; csv quotes it.
mkdir nl-a nl-b
nl='x
y'
for d in nl-a nl-b; do
	printf 'exit 0\nuser 1.0\n' >"$d/$nl.time"
	printf 'exit 0\nuser 1.0\n' >"$d/t	b\\s.time"
done
"$COMPARE" nl-a nl-b >nl.txt || fail "newline name"
[ "$(wc -l <nl.txt)" -eq 7 ] || fail "newline name breaks the text table: $(cat nl.txt)"
grep -Eq '^x\\ny +1 +1 ' nl.txt || fail "newline name, text: $(cat nl.txt)"
grep -Eq '^t\\tb\\\\s +1 +1 ' nl.txt || fail "tab and backslash, text: $(cat nl.txt)"
"$COMPARE" --format md nl-a nl-b >nl.md || fail "newline name, md"
[ "$(wc -l <nl.md)" -eq 8 ] || fail "newline name breaks the md table: $(cat nl.md)"
grep -q '^| x\\\\ny | 1 | 1 |' nl.md || fail "newline name, md: $(cat nl.md)"
"$COMPARE" --format csv nl-a nl-b >nl.csv || fail "newline name, csv"
grep -q '^"x$' nl.csv || fail "csv keeps the name, quoted: $(cat nl.csv)"

# Filters.
"$COMPARE" --format csv --no-adjust --only-changed base slow >only.csv || [ $? -eq 1 ] || fail "only"
[ "$(count unchanged only.csv)" -eq 0 ] || fail "--only-changed lists unchanged: $(cat only.csv)"
[ "$(wc -l <only.csv)" -eq $((1 + 20 - $(count unchanged shift.csv))) ] ||
	fail "--only-changed: $(cat only.csv)"
"$COMPARE" --format csv -p '^b01[0-2]$' base slow >pat.csv || fail "-p"
[ "$(cut -d, -f1 pat.csv | tr '\n' ' ')" = "benchmark b010 b011 b012 " ] || fail "-p: $(cat pat.csv)"
"$COMPARE" --format csv --filter-short 1.5 one-a one-b >short.csv || fail "--filter-short"
[ "$(cut -d, -f1 short.csv | tr '\n' ' ')" = "benchmark q " ] || fail "--filter-short: $(cat short.csv)"

# Output formats.
"$COMPARE" --format md --no-adjust base slow >out.md || [ $? -eq 1 ] || fail "md"
sed -n 1p out.md | grep -q '^| benchmark | nA | nB | median A |' || fail "md header: $(sed -n 1p out.md)"
sed -n 2p out.md | grep -q '^|:---|---:|' || fail "md rule: $(sed -n 2p out.md)"
grep -q '^| b000 | 5 | 5 | .* | \*\*regressed\*\* |' out.md || fail "md row: $(cat out.md)"
"$COMPARE" --format json --no-adjust base slow >out.json || [ $? -eq 1 ] || fail "json"
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == 1 and d["counts"]["regressed"] == 5, d["counts"]
assert len(d["benchmarks"]) == 20
b = [x for x in d["benchmarks"] if x["name"] == "b000"][0]
assert b["verdict"] == "regressed" and b["gating"] and 0.01 < b["change"] < 0.05, b
assert b["ci_low"] < 0.03 < b["ci_high"] and b["p"] <= b["p_adjusted"] or True
assert d["geomean"]["n"] == 20 and d["geomean"]["ci_low"] <= d["geomean"]["ratio"] <= d["geomean"]["ci_high"]
' out.json || fail "json: $(cat out.json)"
fi
grep -q '"verdict": "regressed"' out.json || fail "json verdicts: $(cat out.json)"
# Colour only on request of a terminal: never in a pipe.
"$COMPARE" base slow >plain || [ $? -eq 1 ] || fail "text"
grep -q "$(printf '\033')" plain && fail "colour escape in a pipe"
# On a terminal (util-linux script(1) gives one): regressions in red,
# unless --no-color or NO_COLOR.
# shellcheck disable=SC2016 # expanded by the shell script(1) starts
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
	export COMPARE
	script -qec '"$COMPARE" --no-adjust base slow' /dev/null >tty.out 2>&1 || true
	grep -q "$(printf '\033')\[31mregressed" tty.out || fail "no colour on a terminal: $(cat tty.out)"
	script -qec '"$COMPARE" --no-adjust --no-color base slow' /dev/null >tty2.out 2>&1 || true
	grep -q "$(printf '\033')" tty2.out && fail "--no-color on a terminal"
	script -qec 'NO_COLOR=1 "$COMPARE" --no-adjust base slow' /dev/null >tty3.out 2>&1 || true
	grep -q "$(printf '\033')" tty3.out && fail "NO_COLOR on a terminal"
fi
exit 0
