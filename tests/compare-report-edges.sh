#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The report at its edges: a change beyond a double's
# range (a denormal baseline) is a number, not +inf, in text, JSON, the
# verdict's reason and the SVG plot; a geometric mean of one benchmark
# without an interval says so instead of -100 %..+inf; a median of -0 is
# 0; errors say "an object", "an array".
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
COMPARE=${COMPARE:-$top_builddir/compare/timeit-compare}

# lit NAME VALUE: a lit -o report of one test.
lit() {
	printf '{"tests": [{"name": "s :: %s.test", "code": "PASS", "metrics": {"exec_time": %s}}]}\n' "$1" "$2"
}
args=
for i in 1 2 3 4 5; do
	lit d "${i}e-320" >"a$i.json"
	lit d "1.0$i" >"b$i.json"
	args="$args -a a$i.json -b b$i.json"
done
# shellcheck disable=SC2086 # the words of the list
expect_status 1 "$COMPARE" $args >out.txt
grep -q '^d .* +[0-9.]*e+32[0-9]% *+[0-9.]*e+32[0-9]%\.\.+[0-9.]*e+32[0-9]% ' out.txt ||
	fail "a denormal baseline: $(cat out.txt)"
# The verdict's reason says the change as the table does (one formatting).
grep -q 'significant, +[0-9.]*e+32[0-9]% beyond the +-1% gate' out.txt ||
	fail "the reason of a denormal baseline: $(cat out.txt)"
grep -q '^geometric mean of B/A: +[0-9.]*e+32[0-9]% (no interval' out.txt ||
	fail "the geometric mean of a denormal baseline: $(cat out.txt)"
# shellcheck disable=SC2086
expect_status 1 "$COMPARE" --format json $args >out.json
for k in change ci_low ci_high; do
	grep -q "\"$k\": 1.79769313e+308" out.json || fail "JSON $k of a denormal baseline: $(cat out.json)"
done
# The SVG plot: the dot at the edge, the texts from the logarithm, no
# inf or nan anywhere, well formed.
# shellcheck disable=SC2086
expect_status 1 "$COMPARE" --svg out.svg $args >/dev/null
grep -q '<title>d: +[0-9.]*e+32[0-9]%, regressed</title>' out.svg || fail "SVG: $(cat out.svg)"
grep -q 'geometric mean +[0-9.]*e+32[0-9]% over 1 benchmark[^s]' out.svg || fail "SVG: $(cat out.svg)"
! grep -qi 'inf\|nan' out.svg || fail "inf or nan in the SVG: $(grep -i 'inf\|nan' out.svg)"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' out.svg ||
		fail "the SVG of a denormal baseline is not well formed"
fi

# One benchmark, one sample a side: no interval.
lit e 1.0 >one-a.json
lit e 1.2 >one-b.json
expect_status 0 "$COMPARE" one-a.json one-b.json >out.txt
grep -q '^geometric mean of B/A: +20.00% (no interval: the one benchmark.s has none)$' out.txt ||
	fail "geometric mean without an interval: $(cat out.txt)"
expect_status 0 "$COMPARE" --format json one-a.json one-b.json >out.json
tr -d ' \n' <out.json | grep -q '"geomean":{"n":1,"ratio":1.2,"ci_low":null,"ci_high":null' ||
	fail "JSON geometric mean without an interval: $(cat out.json)"

# -0 is 0.
lit z -0.0 >z.json
expect_status 0 "$COMPARE" z.json z.json >out.txt
grep -q '^z  *1  *1  *0  *0 ' out.txt || fail "a median of -0: $(cat out.txt)"

# Articles.
echo '{"runs": {}}' >obj.json
expect_status 2 "$COMPARE" obj.json z.json 2>err
grep -q 'obj.json:1: "runs" is an object, not an array' err || fail "$(cat err)"
echo '{"tests": [{"name": "x", "code": "PASS", "metrics": {"exec_time": [[1]]}}]}' >arr.json
expect_status 2 "$COMPARE" arr.json z.json 2>err
grep -q 'arr.json:1: x: sample is an array, not a number' err || fail "$(cat err)"
exit 0
