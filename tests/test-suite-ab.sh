#!/bin/sh
# test-suite "make ab": both sides built, samples run strictly interleaved
# (A B A B ...), timeit-compare's table and SVG, byte-identical binaries
# marked "no code change" (and only those), each side's LNT report readable
# by timeit-compare.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
suite=$top_srcdir/test-suite
compare=$top_builddir/timeit/timeit-compare
[ -x "$compare" ] || skip "timeit-compare is not built in $top_builddir"

# A timeit that logs the summary path of every run, to see the order.
cat > fake-timeit <<EOS
#!/bin/sh
prev=
for a do
	[ "\$prev" = --summary ] && echo "\$a" >> "$tmp/order"
	prev=\$a
done
exec "$TIMEIT" "\$@"
EOS
chmod +x fake-timeit

# Same code on both sides: an unused macro changes nothing in the binary.
make -s -f "$suite/Makefile" ab O="$tmp/same" TIMEIT="$tmp/fake-timeit" \
	TIMEIT_COMPARE="$compare" COMPARE_FLAGS=--no-color SIZE=small SAMPLES=3 \
	BENCHMARKS='hash tak' BASE='CFLAGS=-O2' NEW="CFLAGS='-O2 -DUNUSED_MACRO=1'" > same.out
cat same.out
grep -q '^A: CFLAGS=-O2$' same.out || fail "side A's settings not shown"
grep -q "^B: CFLAGS='-O2 -DUNUSED_MACRO=1'$" same.out || fail "side B's settings not shown"
grep -q '^hash .*\[no code change\]$' same.out || fail "hash not marked 'no code change'"
grep -q '^tak .*\[no code change\]$' same.out || fail "tak not marked 'no code change'"
grep -qx 'byte-identical binaries on both sides (no code change): hash tak' same.out ||
	fail "no list of identical binaries"
# Compiles go through timeit too: keep only the runs, in order.
grep '/results/' order | sed "s|^$tmp/same/||" > runs
cat > want <<'EOS'
A/results/hash.1.time
B/results/hash.1.time
A/results/tak.1.time
B/results/tak.1.time
A/results/hash.2.time
B/results/hash.2.time
A/results/tak.2.time
B/results/tak.2.time
A/results/hash.3.time
B/results/hash.3.time
A/results/tak.3.time
B/results/tak.3.time
EOS
cmp -s want runs || { cat runs; fail "runs not interleaved A B A B"; }
head -c 200 "$tmp/same/ab.svg" | grep -q '<svg' || fail "no SVG plot"
grep -q '"cflags": "-O2 -DUNUSED_MACRO=1"' "$tmp/same/B/report.json" ||
	fail "side B's report lacks its flags"
# Each side's LNT report is itself an input timeit-compare reads.
"$compare" --no-color "$tmp/same/A/report.json" "$tmp/same/B/report.json" > lnt.out ||
	fail "timeit-compare cannot compare the sides' report.json"
grep -q 'SingleSource/Benchmarks/hash\|^hash' lnt.out || fail "hash missing from the LNT comparison"

# Different code: nothing is marked; a run failure fails the target.
make -s -f "$suite/Makefile" ab O="$tmp/diff" TIMEIT="$TIMEIT" TIMEIT_COMPARE="$compare" \
	COMPARE_FLAGS=--no-color SIZE=small SAMPLES=1 BENCHMARKS=tak \
	BASE='CFLAGS=-O0' NEW='CFLAGS=-O2' AB_GATE=no > diff.out
if grep -q 'no code change' diff.out; then
	fail "-O0 and -O2 binaries marked 'no code change'"
fi
set +e
make -s -f "$suite/Makefile" ab O="$tmp/fail" TIMEIT="$TIMEIT" TIMEIT_COMPARE="$compare" \
	SIZE=small SAMPLES=1 TEST_DIRS=SingleSource/SelfTest BENCHMARKS=crash \
	BASE='CFLAGS=-O1' NEW='CFLAGS=-O2' AB_GATE=no > fail.out 2>&1
status=$?
set -e
[ "$status" -ne 0 ] || fail "make ab succeeded although crash crashed"
grep -q 'fail signal 11' fail.out || fail "the crash is not reported"
exit 0
