#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The last round in part: when the budget left after a round is too short
# for another round of every test in play, but a look is due after it,
# the tests nearest a verdict that it holds run it (their cost the one
# measured in the round before) and are looked at; the rest stop at the
# budget, said in the stop table, their pairs still in the suite's
# adjustment.  Without it the run ends a round early, before its first
# look, and nothing is decided.
#
# A duet over four tests of tests/lit-fake, B 1.5 times A: three quick
# ones and one whose runs sleep 4 s.  The budget leaves about 2.5 s after
# round 2: not enough for the slow test (4 s), enough for the quick ones.
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
fake_lit "$tmp/b" B 1.5
for d in a b; do
	printf 'time: 0.2\nslow: 1 4\n' > "$tmp/$d/slow.test"
	for t in q1 q2 q3; do
		printf 'time: 0.2\n' > "$tmp/$d/$t.test"
	done
done

# Two rounds to learn when round 2 ends on this machine today.
"$ab" --lit "$lit" --compare "$compare" -o "$tmp/two" -n 2 -q --schedule duet --cpu 0,1 \
	"$tmp/a" "$tmp/b" > two.out 2> two.err || true
end2=$(awk -F '\t' 'NR > 1 && $1 == 2 { e = $6 + $7; if (e > m) m = e } END { printf "%.3f", m }' \
	"$tmp/two/samples.tsv")
budget=$(awk -v e="$end2" 'BEGIN { printf "%.3f", e + 2.5 }')

expect_status 1 "$ab" --lit "$lit" --compare "$compare" -o "$tmp/part" --budget "$budget" \
	--schedule duet --cpu 0,1 -C --format=csv "$tmp/a" "$tmp/b" > part.csv 2> part.err
cat part.err
grep -Eq "^timeit-ab: the budget of [0-9.]+ s holds 2\.[0-9]+ rounds at round 1's cost \([0-9.]+ s\): 3 rounds, the last for the tests nearest a verdict; 1 look, the first at round 3$" part.err ||
	fail "the plan: not 3 rounds, the last in part"
grep -Eq "^timeit-ab: round 3: the budget's [0-9]+ s left hold 3 of the 4 tests in play, those nearest a verdict; the rest stop at the budget$" part.err ||
	fail "round 3 not said to hold 3 of the 4 tests"
grep -Eq "^timeit-ab: round 3 \(at most 3\): 3 undecided, " part.err || fail "round 3 did not run 3 tests"
cat "$tmp/part/stop.tsv"
for t in q1 q2 q3; do
	grep -Eq "^$t	3	decided$" "$tmp/part/stop.tsv" || fail "$t: not decided at round 3"
done
grep -Eq "^slow	2	budget: left out of round 3, which the budget held for 3 of the 4 tests in play$" \
	"$tmp/part/stop.tsv" || fail "slow: not left out of round 3"
# Its runs: 2 of the slow test a side, 3 of each quick one.
[ "$(awk -F '\t' 'NR > 1 && $3 ~ /slow/' "$tmp/part/samples.tsv" | wc -l)" -eq 4 ] ||
	fail "the slow test ran in round 3"
[ "$(awk -F '\t' 'NR > 1 && $1 == 3' "$tmp/part/samples.tsv" | wc -l)" -eq 6 ] ||
	fail "round 3: not 6 runs"
# It is still in the report, over its two pairs.
grep -q '^slow,2,2,' part.csv || fail "the slow test is not in the report over 2 pairs: $(cat part.csv)"
# docs/LLVM-TEST-SUITE.md's count of such runs against a long one (here
# the run itself): the 3 that ran round 3 decided regressed (the slow
# one's two pairs too, may be: the made-up times have no noise), the
# changes beyond 5 and 15 % all decided, none contradicted.
python3 "$top_srcdir/bench/lit-budget-agree.py" part.csv part.csv > agree.out ||
	fail "lit-budget-agree.py: $(cat agree.out)"
awk '$1 == "part.csv" && $2 == 4 && $3 >= 3 && $3 == $5 && $4 == 0 && $6 == 0 &&
	$8 == $3 && $10 == $3 && $11 == $3 && $13 == $3 && $NF == "none" { ok = 1 }
	END { exit !ok }' agree.out || fail "lit-budget-agree.py: $(cat agree.out)"
exit 0
