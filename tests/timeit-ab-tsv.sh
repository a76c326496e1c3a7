#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Names with a tab, a newline or a backslash in the driver's TSV files:
# each escaped (\t, \n, \\) so that samples.tsv keeps one line a run and
# its eight columns, stop.tsv one line a test and its three; the suite's
# rounds.log one line a round, and no ab-state.tsv (make ab's runs are
# not resumed).  The benchmarks of make ab's runner (any name a file may
# have), then lit tests (lit itself cannot keep a newline in a test's
# name: its .lit_test_times.txt is a line a test), in sequential rounds
# and, where two CPUs can be pinned, in a duet, whose samples.tsv names
# each test.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compare=$top_builddir/compare/timeit-compare
tab=$(printf '\t')
nl='
'

# cols FILE N: every line of FILE has N tab-separated fields.
cols() {
	awk -F '\t' -v n="$2" 'NF != n { bad = 1 } END { exit bad }' "$1" ||
		fail "$1: not $2 columns a line: $(cat "$1")"
}

cat > run.sh <<'EOS'
mkdir -p "$OUT/$1/results"
printf 'exit 0\nreal 0.1\nuser 0.1\nsys 0\n' > "$OUT/$1/results/$2.$3.time"
EOS
mkdir S
OUT=$tmp/S
export OUT
expect_status 0 "$ab" --suite run.sh -o S -n 2 --schedule sequential -- "t${tab}ab" "n${nl}l" \
	'back\slash' > out 2> err
cat S/ab-stop.tsv S/ab-samples.tsv S/ab-rounds.log
# make ab's runs cannot be resumed (make ab clears its O): no round state.
[ ! -e S/ab-state.tsv ] || fail "a --suite run wrote ab-state.tsv: $(cat S/ab-state.tsv)"
[ "$(wc -l < S/ab-stop.tsv)" -eq 3 ] || fail "ab-stop.tsv: not 3 lines"
cols S/ab-stop.tsv 3
# The name in the environment: awk's -v would undo the escapes.
for want in 't\tab' 'n\nl' 'back\\slash'; do
	W=$want awk -F '\t' '$1 == ENVIRON["W"] && $2 == 2 { f = 1 } END { exit !f }' S/ab-stop.tsv ||
		fail "ab-stop.tsv: no row of $want"
	W=$want awk -F '\t' '$3 == ENVIRON["W"] { n++ } END { exit n != 4 }' S/ab-samples.tsv ||
		fail "ab-samples.tsv: not 4 runs of $want"
done
[ "$(wc -l < S/ab-samples.tsv)" -eq 13 ] || fail "ab-samples.tsv: not 13 lines"
cols S/ab-samples.tsv 8
[ "$(wc -l < S/ab-rounds.log)" -eq 2 ] || fail "ab-rounds.log: not 2 lines"
grep -qF '1 AB t\tab n\nl back\\slash' S/ab-rounds.log || fail "ab-rounds.log: the names"
# make ab's rounds table (test-suite/tools/ab.sh) reads ab-stop.tsv's
# columns so.
awk -F '\t' '{ printf "%-24s %6s  %s\n", $1, $2, $3 }' S/ab-stop.tsv > table
grep -q '^t\\tab  *2  fixed$' table || fail "the rounds table: $(cat table)"

find_lit
mkbuild() {
	fake_lit "$1" "$2" "$3"
}
mkbuild "$tmp/a" A 1.0
mkbuild "$tmp/b" B 1.0
for name in "t${tab}ab" 'back\slash'; do
	printf 'time: 0.5\n' > "$tmp/a/$name.test"
	cp "$tmp/a/$name.test" "$tmp/b/$name.test"
done
expect_status 0 "$ab" --schedule sequential --lit "$lit" --compare "$compare" -o o -n 1 -q -C --no-color \
	"$tmp/a" "$tmp/b" > out 2> err
cat o/stop.tsv
cols o/stop.tsv 3
grep -qxF 't\tab	1	fixed' o/stop.tsv || fail "stop.tsv: the name with a tab"
grep -qxF 'back\\slash	1	fixed' o/stop.tsv || fail "stop.tsv: the name with a backslash"
ncpu=$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)
if timeit_has --cpu && [ "$ncpu" -ge 2 ] && taskset -c 0,1 true 2> /dev/null; then
	expect_status 0 "$ab" --schedule duet --cpu 0,1 --lit "$lit" --compare "$compare" -o d -n 1 -q \
		-C --no-color "$tmp/a" "$tmp/b" > out 2> err
	cat d/samples.tsv
	cols d/samples.tsv 8
	[ "$(grep -cF 'fake :: t\tab.test	duet' d/samples.tsv)" -eq 2 ] ||
		fail "samples.tsv: not two runs of the name with a tab"
else
	echo "duet part skipped: two CPUs cannot be pinned here"
fi
exit 0
