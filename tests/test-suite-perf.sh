#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# test-suite with TIMEIT=timeit-perf: the suite needs only the timeit
# contract, so the perf-stat wrapper runs it too, with the same verdicts
# for a passing benchmark, a crash, a timeout and a wrong output.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
perfwrap=$top_builddir/perfwrap/timeit-perf
[ -x "$perfwrap" ] || skip "timeit-perf is not built in $top_builddir"
command -v perf > /dev/null 2>&1 || skip "perf is not installed"

set +e
make -s -f "$top_srcdir/test-suite/Makefile" O="$tmp/o" TIMEIT="$perfwrap" CFLAGS=-O2 \
	SIZE=small TEST_DIRS='SingleSource/Benchmarks SingleSource/SelfTest' \
	BENCHMARKS='tak crash hang wrongout' > table 2> errors
status=$?
set -e
cat table
[ "$status" -ne 0 ] || fail "make succeeded although SelfTest benchmarks fail"
grep -q 'Benchmarks/tak  *pass ' table || fail "tak did not pass under timeit-perf"
grep -q 'SelfTest/crash  *FAIL .* fail signal 11$' table || fail "crash not 'fail signal 11'"
grep -q 'SelfTest/hang  *FAIL .* fail timeout$' table || fail "hang not 'fail timeout'"
grep -q 'SelfTest/wrongout  *FAIL .* fail output$' table || fail "wrongout not 'fail output'"
lit_user "$tmp/o/results/tak.1.time" > /dev/null
exit 0
