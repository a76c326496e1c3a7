#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A budget planned at round 1's cost: when the first look decides the
# costly tests, the rounds after it cost less, and the budget's time
# left holds more of them than the plan.  The last round, and the last
# look with it, move later; the looks keep their number (the regular
# look that would have been one more is skipped).  Without it the run
# ends at the rounds planned after round 1, most of its budget unspent.
#
# A duet over two tests of tests/lit-fake: "slow", whose runs sleep 2 s
# and B's 1.5 times A's (decided at the first look, round 3), and "edge",
# B 0.95 % slower than A, at a part in a thousand of noise: significant,
# but its interval holds the gate of 1 % for tens of rounds.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compare=$top_builddir/compare/timeit-compare
find_lit
timeit_has --cpu || skip "this platform cannot pin: no duet"
ncpu=$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)
if [ "$ncpu" -lt 2 ] || ! taskset -c 0,1 true 2> /dev/null; then
	skip "fewer than two CPUs to pin: no duet"
fi

fake_lit "$tmp/a" A 1.0
fake_lit "$tmp/b" B 1.0
printf 'time: 0.2\nslow: 1 2\n' > "$tmp/a/slow.test"
printf 'time: 0.3\nslow: 1 2\n' > "$tmp/b/slow.test"
printf 'time: 0.2\n' > "$tmp/a/edge.test"
printf 'time: 0.2019\n' > "$tmp/b/edge.test"

# One round to learn what a round of both costs on this machine today;
# a budget of 4.1 of them: 4 rounds planned (or 5, as the round after
# varies), looks at 3 and at the last.
"$ab" --lit "$lit" --compare "$compare" -o "$tmp/one" -n 1 -q --schedule duet --cpu 0,1 \
	"$tmp/a" "$tmp/b" > one.out 2> one.err || true
# Its start (lit's listing, the servers) and round 1's wall.
budget=$(awk -F '\t' 'NR > 1 && $1 == 1 { if (s == "" || $6 < s) s = $6; e = $6 + $7; if (e > m) m = e }
	END { printf "%.3f", s + 4.1 * (m - s) }' "$tmp/one/samples.tsv")

expect_status 1 "$ab" --lit "$lit" --compare "$compare" -o "$tmp/ext" --budget "$budget" \
	--schedule duet --cpu 0,1 "$tmp/a" "$tmp/b" > ext.txt 2> ext.err
cat ext.err
grep -Eq "^timeit-ab: the budget of [0-9.]+ s holds [0-9.]+ rounds at round 1's cost \([0-9.]+ s\): [45] rounds(, the last for the tests nearest a verdict)?; 2 looks, the first at round 3$" ext.err ||
	fail "the plan after round 1: not 4 or 5 rounds, 2 looks"
planned=$(sed -n "s/^timeit-ab: the budget of .*: \([45]\) rounds.*/\1/p" ext.err)
line=$(grep -E "^timeit-ab: after round 3 the budget's [0-9]+ s left hold [0-9.]+ rounds at [0-9.]+ s for the 1 test in play: [0-9]+ rounds, not $planned; the last look at round [0-9]+$" ext.err) ||
	fail "the rounds not moved after the first look"
to=$(echo "$line" | sed 's/.*the last look at round //')
[ "$to" -gt "$planned" ] || fail "moved to $to rounds, not more than $planned"
cat "$tmp/ext/stop.tsv"
grep -Eq "^slow	3	decided$" "$tmp/ext/stop.tsv" || fail "slow: not decided at round 3"
# edge ran past the rounds planned, to the last round or to the budget.
rounds=$(awk -F '\t' '$1 == "edge" { print $2 }' "$tmp/ext/stop.tsv")
[ "$rounds" -gt "$planned" ] || fail "edge: $rounds rounds, no more than the $planned planned"
grep -Eq "^edge	$rounds	(max samples|budget)" "$tmp/ext/stop.tsv" || fail "edge: not stopped at the end"
# The looks kept their number: 2, the last at the last round (a look at
# round 10 on the way would have made them 3).
grep -q 'over 2 looks' ext.txt || fail "the final table: not over 2 looks: $(cat ext.txt)"
grep -q '^edge ' ext.txt || fail "edge is not in the report: $(cat ext.txt)"
exit 0
