#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-series on generated histories of LNT and lit reports: the change
# points and their cause, the window and the exit status, missing nights,
# failed runs, benchmarks added and removed, a night of 1000 % outliers,
# the last night that cannot be told yet, the formats, --order-by,
# machines, the plot, and bad input refused with status 2.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
SERIES=${SERIES:-$top_builddir/series/timeit-series}
command -v jq > /dev/null 2>&1 || skip "jq is not installed"

# night N [MACHINE [REV]]: night N's LNT report (format 2) in nN.json.
# Benchmarks: step (+10 % from night 12, a new binary), mach (+10 % from
# night 12, the same binary), flat (a night of 1000 % at 7, failed at 9),
# late (from night 5), gone (until night 8), edge (+20 % at the last night
# only).  Noise: about 0.5 %, deterministic.
night() {
	awk -v n="$1" -v m="${2:-box}" -v rev="${3:-$1}" -v last="${LAST:-20}" 'BEGIN {
		printf "{\"format_version\": \"2\", \"machine\": {\"name\": \"%s\"},\n", m
		printf " \"run\": {\"llvm_project_revision\": \"%s\", \"start_time\": \"2026-01-%02d 03:00:00\"},\n", rev, n
		printf " \"tests\": ["
		split("step mach flat late gone edge", b, " ")
		sep = ""
		for (i = 1; i <= 6; i++) {
			if (b[i] == "late" && n < 5) continue
			if (b[i] == "gone" && n > 8) continue
			lvl = i
			if ((b[i] == "step" || b[i] == "mach") && n >= 12) lvl *= 1.1
			if (b[i] == "flat" && n == 7) lvl *= 11
			if (b[i] == "edge" && n == last) lvl *= 1.2
			hash = (b[i] == "step" && n >= 12) ? "new" : "old"
			printf "%s\n  {\"name\": \"Suite/%s\", \"execution_time\": [", sep, b[i]
			for (k = 0; k < 3; k++) {
				x = sin(n * 12.9898 + i * 78.233 + k * 37.719) * 43758.5453
				x -= int(x)
				if (x < 0) x += 1
				printf "%s%.5f", k ? ", " : "", lvl * (1 + 0.01 * (x - 0.5))
			}
			printf "], \"hash\": \"%s-%s\"", b[i], hash
			if (b[i] == "flat" && n == 9) printf ", \"execution_status\": [1, 1, 1]"
			printf "}"
			sep = ","
		}
		print "\n]}"
	}' > "n$1.json"
}
i=1
while [ "$i" -le 20 ]; do
	night "$i"
	i=$((i + 1))
done
runs=$(i=1; while [ "$i" -le 20 ]; do printf 'n%s.json ' "$i"; i=$((i + 1)); done)

# The default window (the last 5 runs): the changes at night 12 are listed
# but start before it: status 0.
# shellcheck disable=SC2086 # $runs: the file names, split on purpose
"$SERIES" $runs > out.txt || fail "status $? with no regression in the window: $(cat out.txt)"
grep -q '^Suite/step .* 12  *11 .*+10\.[0-9]*% .* code  *$' out.txt ||
	fail "the code's change at run 12 (index 11) is not listed: $(cat out.txt)"
grep -q '^Suite/mach .* 12  *11 .* machine  *$' out.txt ||
	fail "the machine's change is not the machine's: $(cat out.txt)"
grep -q '^Suite/flat' out.txt && fail "a night of 1000 % made a change point: $(cat out.txt)"
grep -q '1 disturbed night left out' out.txt || fail "the disturbed night is not said: $(cat out.txt)"
grep -q '1 benchmark-run failed every sample' out.txt || fail "the failed night is not counted"
grep -q '^Suite/edge: last night off its level: +20\.[0-9]*%, p=[0-9.e<-]*, suspect (the same binary)$' out.txt ||
	fail "the last night's change is not said to be a suspect: $(cat out.txt)"
grep -q '^Suite/edge ' out.txt && fail "the last night alone made a change point"
[ "$(grep -c '^Suite/[a-z]* ' out.txt)" -eq 2 ] || fail "only the two changes expected: $(cat out.txt)"

# A window from run 10: the code's regression gates (1), the machine's not.
# shellcheck disable=SC2086
expect_status 1 "$SERIES" --since 11 $runs > out.txt
grep -q '^Suite/step .*REGRESSED$' out.txt || fail "the regression in the window is not marked"
grep -q '^Suite/mach .*REGRESSED$' out.txt && fail "the machine's change gated"
# shellcheck disable=SC2086
expect_status 1 "$SERIES" --since run:10 $runs > /dev/null
# shellcheck disable=SC2086
# The changes at night 12 are confirmed at night 13 (the history of 12
# nights cannot tell them yet): a window of 8 holds that night, one of 7
# does not.
# shellcheck disable=SC2086
expect_status 1 "$SERIES" --since 8 --only-recent $runs > out.txt
# shellcheck disable=SC2086
expect_status 0 "$SERIES" --since 7 --only-recent $runs > out.txt
grep -q '^Suite/[a-z]* ' out.txt && fail "--only-recent listed a change before the window"
# A gate above the change: nothing listed, status 0.
# shellcheck disable=SC2086
expect_status 0 "$SERIES" --since 11 --min-change 15 $runs > out.txt
grep -q '^Suite/[a-z]* ' out.txt && fail "a change under --min-change was listed"

# JSON: the fields, exact where exact.
# shellcheck disable=SC2086
"$SERIES" --format json --since 11 $runs > out.json && fail "JSON: status 0 with a regression"
jq -e '(.benchmarks | map(.name)) == ["Suite/edge", "Suite/flat", "Suite/gone", "Suite/late", "Suite/mach", "Suite/step"] and
	(.benchmarks[5].changes | length) == 1 and
	(.benchmarks[5].changes[0] | .index == 11 and .run == "12" and .cause == "code" and
	 (.change > 0.09 and .change < 0.11) and (.interval[0] < .change and .interval[1] > .change) and
	 .p < 0.01 and (.before > 0.9 and .before < 1.1) and .in_window) and
	.benchmarks[4].changes[0].cause == "machine" and
	.benchmarks[1].disturbed_runs == 1 and .benchmarks[1].failed_runs == 1 and
	.benchmarks[1].failed_samples == 3 and .benchmarks[0].last_run_pending and
	.benchmarks[2].runs == 8 and .benchmarks[3].runs == 16 and
	.runs[11].label == "12" and .runs[11].machine == "box" and .exit_status == 1 and
	.regressions == 1 and .window_start == 9' out.json > /dev/null ||
	fail "JSON is not as expected: $(cat out.json)"
# CSV and Markdown.
# shellcheck disable=SC2086
"$SERIES" --format csv $runs > out.csv
[ "$(sed -n 1p out.csv)" = "benchmark,run,index,before,after,change,lo,hi,p,cause,in_window" ] ||
	fail "CSV header: $(sed -n 1p out.csv)"
grep -q '^Suite/step,12,11,.*,code,0$' out.csv || fail "CSV row: $(cat out.csv)"
# shellcheck disable=SC2086
"$SERIES" --format md $runs > out.md
grep -q '^| benchmark | run | index |' out.md || fail "Markdown header: $(cat out.md)"
grep -q '^| Suite/step | 12 | 11 |' out.md || fail "Markdown row: $(cat out.md)"

# Missing nights: the indices are the runs'; a change after a gap.
rm n13.json n14.json
gap=$(echo "$runs" | sed 's/n13.json //; s/n14.json //')
# shellcheck disable=SC2086
"$SERIES" --format json $gap > out.json
jq -e '.benchmarks[5].changes[0].index == 11 and (.runs | length) == 18' out.json > /dev/null ||
	fail "missing nights: $(cat out.json)"
night 13
night 14

# --order-by revision: the runs given newest first, ordered as LNT orders.
rev=$(echo "$runs" | tr ' ' '\n' | sed '/^$/d' | sort -r | tr '\n' ' ')
# shellcheck disable=SC2086
"$SERIES" --order-by revision --format json $rev > out.json
jq -e '.runs[0].label == "1" and .runs[19].label == "20" and
	.benchmarks[5].changes[0].index == 11' out.json > /dev/null ||
	fail "--order-by revision did not order 1 .. 20: $(jq -c '[.runs[].label]' out.json)"
# shellcheck disable=SC2086
"$SERIES" --order-by time --format json $rev | jq -e '.runs[0].label == "1"' > /dev/null ||
	fail "--order-by time"
# A start time that is no time: status 2, the run and the text named.
sed 's/"start_time": "[^"]*"/"start_time": "soon"/' n1.json > soon.json
expect_status 2 "$SERIES" --order-by time soon.json n2.json > out 2> err
grep -q "soon.json: the start time 'soon' is not a date and time" err ||
	fail "--order-by time of 'soon': $(cat err)"

# The plot: well-formed XML, one panel per benchmark with a change.
# shellcheck disable=SC2086
"$SERIES" --svg plot.svg $runs > /dev/null
if command -v python3 > /dev/null 2>&1; then
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' plot.svg ||
		fail "plot.svg is not well-formed XML"
fi
[ "$(grep -c 'stroke-dasharray' plot.svg)" -eq 2 ] || fail "two change points expected in the plot"
grep -q 'Suite/step' plot.svg || fail "the plot lacks the changed benchmark"
grep -q 'Suite/flat' plot.svg && fail "the plot shows an unchanged benchmark"

# Machines: never mixed unless --machine picks one.
night 21 other
# shellcheck disable=SC2086
expect_status 2 "$SERIES" $runs n21.json 2> err
grep -q "n21.json: machine 'other', but n1.json is of machine 'box': a history is one machine's (give --machine NAME)" err ||
	fail "mixed machines: $(cat err)"
# shellcheck disable=SC2086
"$SERIES" --machine box --format json $runs n21.json | jq -e '(.runs | length) == 20' > /dev/null ||
	fail "--machine box did not leave out the other machine's run"
expect_status 2 "$SERIES" --machine nobody n1.json n2.json 2> err
grep -q 'no run of that machine' err || fail "--machine nobody: $(cat err)"

# Bad input: status 2, a message naming it, no plot written.
printf '{"tests": [' > bad.json
# shellcheck disable=SC2086
expect_status 2 "$SERIES" --svg bad.svg $runs bad.json 2> err
grep -q '^timeit-series: bad.json:1: ' err || fail "bad JSON: $(cat err)"
[ ! -e bad.svg ] || fail "a plot was written for bad input"
expect_status 2 "$SERIES" 2> err
grep -q 'no runs' err || fail "no runs: $(cat err)"
expect_status 2 "$SERIES" --bogus n1.json 2> /dev/null
expect_status 2 "$SERIES" --format xml n1.json 2> /dev/null
expect_status 2 "$SERIES" --only-recent=yes n1.json 2> /dev/null
expect_status 2 "$SERIES" --alpha 0.5 n1.json 2> /dev/null
expect_status 2 "$SERIES" --min-change x n1.json 2> /dev/null
expect_status 2 "$SERIES" --since 0 n1.json n2.json 2> /dev/null
# A window longer than the history (a new machine's first nights, a
# nightly gate's --since 7): the whole history, not an error.
expect_status 0 "$SERIES" --since 3 n1.json n2.json > out3.txt
grep -q 'window: 2 runs from ' out3.txt || fail "--since 3 of 2: $(cat out3.txt)"
expect_status 2 "$SERIES" --since run:99 n1.json n2.json 2> err
grep -q "no run is labelled '99'" err || fail "--since run:99: $(cat err)"
expect_status 2 "$SERIES" n1.json ./n1.json 2> err
grep -q "same run" err || fail "a run given twice: $(cat err)"
expect_status 2 "$SERIES" --svg n2.json n1.json n2.json 2> err
grep -q "is the input" err || fail "--svg over an input: $(cat err)"
expect_status 2 "$SERIES" --lnt http://127.0.0.1:1 2> err
grep -q 'needs --machine' err || fail "--lnt without --machine: $(cat err)"
expect_status 2 "$SERIES" --lnt http://127.0.0.1:1 --machine box n1.json 2> /dev/null
expect_status 2 "$SERIES" --lnt ftp://x --machine box 2> err
grep -q 'not an http:// or https:// URL' err || fail "--lnt ftp: $(cat err)"
cat > lit.json <<'EOF'
{"tests": [{"name": "s :: a.test", "code": "PASS", "metrics": {"exec_time": 1}}]}
EOF
cp lit.json lit2.json
expect_status 2 "$SERIES" --order-by revision lit.json lit2.json 2> err
grep -q 'names no run order' err || fail "--order-by revision of lit JSON: $(cat err)"
"$SERIES" lit.json lit2.json > /dev/null || fail "two lit reports"

# Results directories (timeit summary files) are runs too.
i=1
while [ "$i" -le 10 ]; do
	mkdir "d$i"
	for b in a b; do
		u=$(awk -v i="$i" -v b="$b" 'BEGIN { x = (b == "a" && i >= 6) ? 2.2 : 2;
			printf "%.4f", x * (1 + 0.002 * ((i * 3) % 5)) }')
		printf 'exit 0\nreal %s\nuser %s\nsys 0.0010\n' "$u" "$u" > "d$i/$b.time"
	done
	i=$((i + 1))
done
"$SERIES" --format csv d1 d2 d3 d4 d5 d6 d7 d8 d9 d10 > dirs.csv && fail "directories: no regression"
[ "$(grep -c '^a,d6,5,' dirs.csv)" -eq 1 ] && [ "$(wc -l < dirs.csv)" -eq 2 ] ||
	fail "directories: the change of a at d6 only: $(cat dirs.csv)"
# Input that is no history: status 2, the file named.
echo junk > junk.txt
expect_status 2 "$SERIES" junk.txt > out 2> err
grep -q "junk.txt: not a timeit summary" err || fail "junk.txt: $(cat err)"
exit 0
