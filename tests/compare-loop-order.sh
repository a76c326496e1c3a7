#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The loop-order pair end to end: a matrix multiply built in two loop
# orders executes the same instructions, walks memory differently and
# takes far longer.  Equal counts are not the same code: with the two
# binaries' identities (--binaries) the time is a regression, exit 1,
# noted "code changed, same instruction count" beside valgrind's
# estimated cycles; the estimated cycles as the metric are an exact
# regression; the instruction count is exactly unchanged.
. "$top_srcdir/tests/setup"
COMPARE=${COMPARE:-$top_builddir/compare/timeit-compare}
: "${CC:=cc}"

command -v valgrind >/dev/null 2>&1 || skip "valgrind is not installed"
# Under qemu-user the two orders differ by ~15 %, not 2x (the emulator's
# cost per instruction hides the cache), and valgrind cannot run them.
emulated && skip "the loop orders' cache behaviour needs the real CPU, not an emulator"
GEOM="--valgrind-i1 32768,8,64 --valgrind-d1 32768,8,64 --valgrind-ll 8388608,16,64"
mkdir A B VA VB binA binB
$CC -O1 -fno-tree-vectorize -o binA/mm "$top_srcdir/tests/loop-order.c" || fail "$CC ijk"
$CC -O1 -fno-tree-vectorize -DJKI -o binB/mm "$top_srcdir/tests/loop-order.c" || fail "$CC jki"
# Five interleaved rounds at N = 512, where jki takes about twice as long.
for i in 1 2 3 4 5; do
	for s in A B; do
		"$TIMEIT" --summary "$s/mm.$i.time" "bin$s/mm" 512 >/dev/null 2>err ||
			fail "timeit $s: $(cat err)"
	done
done
expect_status 1 "$COMPARE" --format csv --binaries binA binB A B >t.csv
grep -q '^mm,5,5,.*,regressed,no,changed,' t.csv || fail "loop order, time: $(cat t.csv)"
# The counts at N = 128 (valgrind is slow): the same instructions, over
# 10 % more estimated cycles, noted beside the time.
for s in A B; do
	# shellcheck disable=SC2086 # the geometry options are words
	"$TIMEIT" --summary "V$s/mm.time" --count-instructions=valgrind-cache $GEOM \
		"bin$s/mm" 128 >/dev/null 2>err || fail "timeit $s: $(cat err)"
done
"$COMPARE" --format csv --binaries binA binB VA VB >n.csv || true
grep -q '^mm,1,1,.*,"est. cycles +[0-9.]*%; code changed, same instruction count[;"]' n.csv ||
	fail "loop order, notes: $(cat n.csv)"
expect_status 1 "$COMPARE" --format csv -m valgrind-est-cycles VA VB >e.csv
grep -q '^mm,1,1,.*,regressed,no,,"exact count, +[0-9.]*% beyond the +-1% gate",' e.csv ||
	fail "loop order, est. cycles: $(cat e.csv)"
awk -F, 'NR == 2 && !($7 > 0.1) { exit 1 }' e.csv || fail "est. cycles within 10 %: $(cat e.csv)"
expect_status 0 "$COMPARE" --format csv -m valgrind-instructions VA VB >i.csv
grep -q '^mm,.*,unchanged,no,,"exact count, equal",' i.csv || fail "loop order, instructions: $(cat i.csv)"
