#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A test on one side only (tests/lit-fake): A has onlya.test, B lacks it;
# B has onlyb.test, A lacks it.  Sequential rounds and a duet name both
# in the verdict the same way (missing, only in A, only in B; "2
# missing") and in the rounds table, and -C --strict fails on the test
# B lost.  A duet whose tests came from side A alone lost onlyb.test
# from every table, and dropped onlya.test's results from the verdict.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compare=$top_builddir/compare/timeit-compare
find_lit

# mkbuild DIR SIDE: a lit test directory of side SIDE (tests/lit-fake).
mkbuild() {
	fake_lit "$1" "$2"
}
mkbuild "$tmp/a" A
mkbuild "$tmp/b" B
echo 'time: 0.5' > "$tmp/a/both.test"
echo 'time: 0.5' > "$tmp/b/both.test"
echo 'time: 0.5' > "$tmp/a/onlya.test"
echo 'time: 0.5' > "$tmp/b/onlyb.test"

# A duet needs two CPUs this process may run on, and a way to pin.
set +e
"$ab" --check --schedule duet --lit "$lit" --compare "$compare" -o "$tmp/chk" "$tmp/a" "$tmp/b" \
	> chk.out 2> chk.err
st=$?
set -e
[ "$st" -eq 0 ] || skip "no duet here: $(cat chk.err)"

# The verdict's words for the one-sided tests (name, nA, nB, verdict,
# why; not the medians, which vary), its count of missing, and the
# rounds table's rows of them.
words() {
	awk '$1 == "onlya" || $1 == "onlyb" { print $1, $2, $3, $(NF - 3), $(NF - 2), $(NF - 1), $NF }
		match($0, /[0-9]+ missing, /) { print substr($0, RSTART, RLENGTH) }' "$1"
}
for s in sequential duet; do
	expect_status 0 "$ab" --schedule "$s" --lit "$lit" --compare "$compare" -o "$tmp/o-$s" -n 2 -q \
		-C --no-color "$tmp/a" "$tmp/b" > "$s.out" 2> "$s.err"
	cat "$s.out" "$s.err"
	grep -Eq '^onlya +[0-9]+ +0 .* missing +only in A$' "$s.out" ||
		fail "$s: onlya.test not missing only in A: $(cat "$s.out")"
	grep -Eq '^onlyb +0 +[0-9]+ .* missing +only in B$' "$s.out" ||
		fail "$s: onlyb.test not missing only in B: $(cat "$s.out")"
	grep -q ' 2 missing, ' "$s.out" || fail "$s: not 2 missing: $(cat "$s.out")"
	grep -Eq "^onlya +0  missing: not in side B's results of round 1$" "$s.out" ||
		fail "$s: the rounds table on onlya.test: $(cat "$s.out")"
	grep -Eq "^onlyb +0  missing: not in side A's results of round 1$" "$s.out" ||
		fail "$s: the rounds table on onlyb.test: $(cat "$s.out")"
	grep -Eq '^both +2  fixed$' "$s.out" || fail "$s: both.test not 2 rounds: $(cat "$s.out")"
	words "$s.out" > "$s.words"
done
cmp sequential.words duet.words || fail "the schedules differ on the missing tests:
$(cat sequential.words)
against the duet's
$(cat duet.words)"
# The duet ran each one-sided test on its own side alone, once.
if ! { grep -q '	A	fake :: onlya.test	duet	' "$tmp/o-duet/samples.tsv" &&
	grep -q '	B	fake :: onlyb.test	duet	' "$tmp/o-duet/samples.tsv"; }; then
	fail "the one-sided tests did not run on their side: $(cat "$tmp/o-duet/samples.tsv")"
fi
! grep -q '	B	fake :: onlya.test	\|	A	fake :: onlyb.test	' "$tmp/o-duet/samples.tsv" ||
	fail "a one-sided test ran on the side that lacks it: $(cat "$tmp/o-duet/samples.tsv")"

# -C --strict: a test of A missing from B fails the run, in either schedule.
for s in sequential duet; do
	expect_status 1 "$ab" --schedule "$s" --lit "$lit" --compare "$compare" -o "$tmp/s-$s" -n 2 -q \
		-C --no-color -C --strict "$tmp/a" "$tmp/b" > "s-$s.out" 2> "s-$s.err"
done
exit 0
