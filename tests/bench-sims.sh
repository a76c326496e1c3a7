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
sim "ab-sim mixed" "$as" --quick --table mixed
exit 0
