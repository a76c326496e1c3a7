#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-series on the input a nightly history really holds: a night with
# no tests (skipped with a note, the rest analysed), NaN and Infinity
# (refused, naming the file, the benchmark and the value), a metric no run
# has (refused, naming it).
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
SERIES=${SERIES:-$top_builddir/series/timeit-series}

# lit_night N: night N's lit -o report in lit/nN.json.  Benchmarks: flat
# (1.0, noise under 0.3 %), step (+20 % from night 6).
mkdir lit
lit_night() {
	awk -v n="$1" 'BEGIN {
		printf "{\"tests\": ["
		split("flat step", b, " ")
		for (i = 1; i <= 2; i++) {
			lvl = (b[i] == "step" && n >= 6) ? 1.2 : 1
			x = sin(n * 12.9898 + i * 78.233) * 43758.5453
			x -= int(x)
			if (x < 0) x += 1
			printf "%s\n {\"name\": \"s :: %s.test\", \"code\": \"PASS\", \"metrics\": {\"exec_time\": %.5f}}",
				(i > 1 ? "," : ""), b[i], lvl * (1 + 0.003 * (x - 0.5))
		}
		print "\n]}"
	}' > "lit/n$1.json"
}
i=1
while [ "$i" -le 10 ]; do
	lit_night "$i"
	i=$((i + 1))
done
nights="lit/n1.json lit/n2.json lit/n3.json lit/n4.json lit/n5.json lit/n6.json lit/n7.json lit/n8.json lit/n9.json lit/n10.json"

# A night with no tests, as lit and as an LNT report: skipped with a note
# naming it, the other nights analysed.
echo '{"tests": []}' > lit/empty.json
printf '%s\n' '{"format_version": "2", "machine": {"name": "box"},' \
	'"run": {"llvm_project_revision": "7"}, "tests": []}' > lnt-empty.json
# shellcheck disable=SC2086 # $nights: the file names, split on purpose
expect_status 1 "$SERIES" --since 6 $nights lit/empty.json lnt-empty.json > out.txt 2> err
grep -q '^timeit-series: note: lit/empty.json: no tests: skipped$' err ||
	fail "the lit night without tests is not skipped with a note: $(cat err)"
grep -q '^timeit-series: note: lnt-empty.json: no tests: skipped$' err ||
	fail "the LNT night without tests is not skipped with a note: $(cat err)"
grep -q '^step ' out.txt || fail "the rest was not analysed: $(cat out.txt)"
grep -q '^10 runs, ' out.txt || fail "the skipped nights are counted as runs: $(cat out.txt)"

# NaN and Infinity (as Python's json writes them): refused, status 2,
# naming the file, the benchmark and the value; not a failed sample.
sed 's/"exec_time": [0-9.]*}/"exec_time": NaN}/' lit/n3.json > lit/nan.json
sed 's/"exec_time": [0-9.]*}/"exec_time": -Infinity}/' lit/n3.json > lit/inf.json
expect_status 2 "$SERIES" lit/n1.json lit/nan.json lit/n4.json > out.txt 2> err
grep -q '^timeit-series: lit/nan.json:[0-9]*: flat: exec_time is NaN' err ||
	fail "NaN is not refused naming file, benchmark and value: $(cat err)"
expect_status 2 "$SERIES" lit/n1.json lit/inf.json > out.txt 2> err
grep -q '^timeit-series: lit/inf.json:[0-9]*: flat: exec_time is -Infinity' err ||
	fail "-Infinity is not refused: $(cat err)"
printf '{"runs": [{"status": 0, "user": Infinity}]}\n' > t.json
expect_status 2 "$SERIES" lit/n1.json t.json > out.txt 2> err
grep -q "^timeit-series: t.json:1: t: user is Infinity" err ||
	fail "Infinity in timeit --json is not refused: $(cat err)"

# A metric no run has (a typo of -m): status 2, the metric named.
# shellcheck disable=SC2086
expect_status 2 "$SERIES" -m exec_tme $nights > out.txt 2> err
grep -q '^timeit-series: -m exec_tme: no run ' err || fail "-m exec_tme: $(cat err)"
exit 0
