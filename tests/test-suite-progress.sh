#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# make ab's progress: on a terminal one line that rewrites itself (round
# k, benchmarks still in play, elapsed and estimated time), erased at the
# end; in a log one line a round.  The rank tests (--rank) cannot decide
# 2 rounds, so every round of the three runs (the t might end at 2).
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
suite=$top_srcdir/test-suite
command -v script > /dev/null 2>&1 || skip "no script(1) to run make ab on a terminal"
cat > run.sh <<EOS
make -s -f "$suite/Makefile" ab O="$tmp/o" TIMEIT="$TIMEIT" TIMEIT_COMPARE="$top_builddir/compare/timeit-compare" \\
	SIZE=small SAMPLES=auto MIN_SAMPLES=2 MAX_SAMPLES=3 BENCHMARKS='hash tak' COMPARE_FLAGS=--rank \\
	BASE='CFLAGS=-O1' NEW='CFLAGS=-O2'
EOS
script -qec "sh $tmp/run.sh" /dev/null > tty.out < /dev/null || fail "make ab on a terminal failed"
cr=$(printf '\r')
grep -q "${cr}.*round 1 (at most 3): 2 in play, [0-9]\{1,\}:[0-9][0-9] elapsed, order AB" tty.out ||
	fail "no progress line for round 1: $(od -c tty.out | sed 20q)"
grep -q "${cr}.*round 3 (at most 3): 2 in play, [0-9]\{1,\}:[0-9][0-9] elapsed, at most [0-9]\{1,\}:[0-9][0-9] left, order AB" tty.out ||
	fail "no progress line for round 3"
! grep -q '  RUN      round' tty.out || fail "log lines on a terminal"
sh run.sh > log.out 2> log.err
[ "$(grep -c '^  RUN      round [1-3] ' log.out)" -eq 3 ] || fail "not one line a round: $(cat log.out)"
! grep -q "$cr" log.out log.err || fail "carriage returns in a log"
exit 0
