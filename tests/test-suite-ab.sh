#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# test-suite "make ab": both sides built, samples run interleaved, the
# order of A and B alternated per round (A B, B A, ...) and recorded,
# timeit-compare's table, CSV and SVG, byte-identical binaries "same
# binary" through --binaries (and only those), each side's LNT report
# readable by timeit-compare.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
suite=$top_srcdir/test-suite
compare=$top_builddir/compare/timeit-compare
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
make -s -f "$suite/Makefile" ab SCHEDULE=sequential O="$tmp/same" TIMEIT="$tmp/fake-timeit" \
	TIMEIT_COMPARE="$compare" COMPARE_FLAGS=--no-color SIZE=small SAMPLES=3 \
	BENCHMARKS='hash tak' BASE='CFLAGS=-O2' NEW="CFLAGS='-O2 -DUNUSED_MACRO=1'" > same.out
cat same.out
grep -q '^A: CFLAGS=-O2 (revision [0-9]*)$' same.out || fail "side A's settings not shown"
grep -q "^B: CFLAGS='-O2 -DUNUSED_MACRO=1' (revision [0-9]*)$" same.out || fail "side B's settings not shown"
# make ab gives timeit-compare the binaries (--binaries): the same binary
# is "unchanged", whatever its three samples say.
grep -Eq '^hash .* unchanged +same binary' same.out || fail "hash not 'unchanged, same binary'"
grep -Eq '^tak .* unchanged +same binary' same.out || fail "tak not 'unchanged, same binary'"
# Compiles go through timeit too: keep only the runs, in order.
grep '/results/' order | sed "s|^$tmp/same/||" > runs
cat > want <<'EOS'
A/results/hash.1.time
B/results/hash.1.time
A/results/tak.1.time
B/results/tak.1.time
B/results/hash.2.time
A/results/hash.2.time
B/results/tak.2.time
A/results/tak.2.time
A/results/hash.3.time
B/results/hash.3.time
A/results/tak.3.time
B/results/tak.3.time
EOS
cmp -s want runs || { cat runs; fail "runs not interleaved, A B then B A"; }
printf '1 AB hash tak\n2 BA hash tak\n3 AB hash tak\n' > want
cmp -s want "$tmp/same/ab-rounds.log" || fail "order of the rounds not recorded: $(cat "$tmp/same/ab-rounds.log")"
grep -Eq '^hash +3  fixed$' same.out || fail "no rounds table"
head -c 200 "$tmp/same/ab.svg" | grep -q '<svg' || fail "no SVG plot"
head -n 1 "$tmp/same/ab.csv" | grep -q '^benchmark,.*,verdict,' || fail "no ab.csv: $(cat "$tmp/same/ab.csv")"
grep -q '^hash,3,3,' "$tmp/same/ab.csv" || fail "ab.csv lacks hash's row"
grep -q '"cflags": "-O2 -DUNUSED_MACRO=1"' "$tmp/same/B/report.json" ||
	fail "side B's report lacks its flags"
# Each side's LNT report is itself an input timeit-compare reads.
"$compare" --no-color "$tmp/same/A/report.json" "$tmp/same/B/report.json" > lnt.out ||
	fail "timeit-compare cannot compare the sides' report.json"
grep -q 'SingleSource/Benchmarks/hash\|^hash' lnt.out || fail "hash missing from the LNT comparison"

# Different code: nothing is marked; a run failure fails the target.
# Each side's report holds what that side used: the CC and CFLAGS of make
# ab itself unless the side sets its own, the side's LDFLAGS, the version
# of its compiler, the start of the whole run, a revision of its own (one
# compiler: the start time, and that + 1 for B).  Under -j2 the sides'
# makes share the jobserver.
cat > mycc <<EOS
#!/bin/sh
exec cc "\$@"
EOS
chmod +x mycc
make -s -j2 -f "$suite/Makefile" ab SCHEDULE=sequential O="$tmp/diff" TIMEIT="$TIMEIT" TIMEIT_COMPARE="$compare" \
	COMPARE_FLAGS=--no-color SIZE=small SAMPLES=1 BENCHMARKS=tak CC="$tmp/mycc" CFLAGS=-O0 \
	BASE= NEW='CFLAGS=-O2 LDFLAGS=-s' AB_GATE=no > diff.out 2> diff.err
if grep -q 'same binary' diff.out; then
	fail "-O0 and -O2 binaries taken for the same binary"
fi
! grep -q 'jobserver unavailable' diff.err || fail "make -j2 ab: $(cat diff.err)"
ccv=$(cc --version | sed 1q)
for side in A B; do
	j=$tmp/diff/$side/report.json
	grep -qF "\"cc\": \"$tmp/mycc\"," "$j" || fail "side $side: $(grep '"cc"' "$j")"
	grep -qF "\"cc_version\": \"$ccv\"," "$j" || fail "side $side: $(grep '"cc_version"' "$j")"
	grep '"start_time"' "$j" > "start.$side"
	sed -n 's/^ *"llvm_project_revision": "\([0-9]*\)",$/\1/p' "$j" > "rev.$side"
done
grep -q '"cflags": "-O0",' "$tmp/diff/A/report.json" || fail "side A's report lacks CFLAGS=-O0"
grep -q '"ldflags": "",' "$tmp/diff/A/report.json" || fail "side A's report has B's LDFLAGS"
grep -q '"cflags": "-O2",' "$tmp/diff/B/report.json" || fail "side B's report lacks CFLAGS=-O2"
grep -q '"ldflags": "-s",' "$tmp/diff/B/report.json" || fail "side B's report lacks LDFLAGS=-s"
cmp -s start.A start.B || fail "the sides' start differs: $(cat start.A start.B)"
[ -s rev.A ] || fail "side A has no revision"
[ "$(cat rev.B)" = $(($(cat rev.A) + 1)) ] || fail "revisions A $(cat rev.A), B $(cat rev.B)"
# make clean takes all that make ab wrote: no file, and no directory but O.
make -s -f "$suite/Makefile" clean O="$tmp/diff"
[ ! -e "$tmp/diff" ] || [ "$(find "$tmp/diff")" = "$tmp/diff" ] ||
	fail "make clean after make ab left: $(find "$tmp/diff" -mindepth 1)"

# Run settings cannot differ between the sides (every sample runs with
# those of make ab): refused before anything is written, as are a missing
# timeit-compare and quotes that do not close.
for bad in 'TIMEIT_FLAGS=--no-perf SIZE=default' all 'CFLAGS="-O2'; do
	set +e
	make -s -f "$suite/Makefile" ab SCHEDULE=sequential O="$tmp/rej" TIMEIT="$TIMEIT" TIMEIT_COMPARE="$compare" \
		SIZE=small BENCHMARKS=tak NEW="$bad" > rej.out 2>&1
	status=$?
	set -e
	[ "$status" -ne 0 ] || fail "NEW=$bad accepted"
	grep -q 'only CC CFLAGS CPPFLAGS LDFLAGS LIBS may differ' rej.out || fail "NEW=$bad: $(cat rej.out)"
	[ ! -e "$tmp/rej" ] || fail "NEW=$bad: something was written before the refusal"
done
set +e
make -s -f "$suite/Makefile" ab SCHEDULE=sequential O="$tmp/nc" TIMEIT="$TIMEIT" TIMEIT_COMPARE="$tmp/nope" \
	SIZE=small BENCHMARKS=tak > nc.out 2>&1
status=$?
set -e
[ "$status" -ne 0 ] || fail "make ab without timeit-compare succeeded"
grep -q "TIMEIT_COMPARE=$tmp/nope: not found" nc.out || fail "no timeit-compare: $(cat nc.out)"
[ ! -e "$tmp/nc" ] || fail "make ab ran although timeit-compare is missing"
set +e
make -s -f "$suite/Makefile" ab SCHEDULE=sequential O="$tmp/fail" TIMEIT="$TIMEIT" TIMEIT_COMPARE="$compare" \
	SIZE=small SAMPLES=1 TEST_DIRS=SingleSource/SelfTest BENCHMARKS=crash \
	BASE='CFLAGS=-O1' NEW='CFLAGS=-O2' AB_GATE=no > fail.out 2>&1
status=$?
set -e
[ "$status" -ne 0 ] || fail "make ab succeeded although crash crashed"
grep -q 'fail signal 11' fail.out || fail "the crash is not reported"
exit 0
