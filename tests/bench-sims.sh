#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The simulations that chose the statistics (bench/series-sim,
# bench/ab-sim) still run and print their tables: a few histories and
# suites of their cheaper modes, each mode's table header and one row
# of each model it names.  Their figures are docs/'s, not checked here.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ss=$top_builddir/bench/series-sim
as=$top_builddir/bench/ab-sim
[ -x "$ss" ] && [ -x "$as" ] || fail "the simulations were not built (make check builds them)"

# sim WHAT COMMAND...: COMMAND exits 0 and prints a table.
sim() {
	_what=$1
	shift
	expect_status 0 "$@" > out 2> err || fail "$_what: $(cat err)"
	grep -q '^| ' out || fail "$_what: no table: $(head -c 500 out)"
}
sim "series-sim last" "$ss" 3 1 60 3 last
sim "series-sim replay" "$ss" 3 1 60 3 replay ramp
grep -q ramp out || fail "series-sim replay ramp: no ramp row: $(cat out)"
sim "series-sim ours" "$ss" 3 1 60 1 ours
for m in ramp weekly missing shape; do
	grep -q "^| $m " out || fail "series-sim ours: no $m row: $(cat out)"
done
# Every rule on the same histories, Apache Otava's default among them: a
# +10 % step at CV 2 % is found by each of the E-divisive pair in nearly
# every history.
sim "series-sim" "$ss" 20 1 60 3
head -n 5 out | grep -q '| ours | pettitt | edivisive | otava | perfherder | lnt | catapult |' ||
	fail "series-sim: not every rule: $(head -n 5 out)"
for r in 6 7; do
	f=$(awk -F'|' -v r="$r" '$2 == " cv2 " && $3 == " +10% " { split($r, a, " / "); print a[1] + 0 }' out)
	[ "${f:-0}" -ge 90 ] || fail "series-sim: column $r finds a +10 % step in ${f:-no} % of histories"
done
grep -q '^| double | +0% |' out || fail "series-sim: no noise that doubles: $(cat out)"
sim "series-sim shapes" "$ss" 4 1 60 3 shapes
for m in cv2 disturbed missing vm shape double ramp weekly; do
	for h in 'bump 3 +5%' 'bump 8 +10%' 'bump 20 +20%' 'two steps +5%'; do
		grep -q "^| $m | $h | .* | .* | .* | .* | .* | .* | .* |\$" out ||
			fail "series-sim shapes: no $m $h row of 7 rules: $(cat out)"
	done
done
sim "series-sim place" "$ss" 20 1 60 1 place
for st in +3% +5% +10%; do
	grep -q "^| $st | .* | .* | .* | .* |\$" out || fail "series-sim place: no $st row: $(cat out)"
done
sim "ab-sim mixed" "$as" --quick --table mixed
exit 0
