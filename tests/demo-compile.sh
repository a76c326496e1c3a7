#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# make demo-compile: the compiles of -O1 against -O2 through make ab
# WHAT=compile, adaptively: a row a benchmark in the table, its CSV, each
# side's compile_commands.json with its flags.  Two benchmarks and at
# most four rounds keep it short.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
command -v "${CC:-cc}" > /dev/null 2>&1 || skip "no C compiler (${CC:-cc})"
make -s -C "$top_builddir" demo-compile DEMO_COMPILE_DIR="$tmp/dc" BENCHMARKS='hash tak' \
	MIN_SAMPLES=2 MAX_SAMPLES=4 AB_LOOK_EVERY=2 > out 2>&1 || { cat out; fail "make demo-compile failed"; }
for b in hash tak; do
	grep -Eq "^$b +[2-4] +[2-4] " out || fail "$b: no row of 2 to 4 rounds: $(cat out)"
	grep -q "^$b,[2-4],[2-4]," "$tmp/dc/ab-compile.csv" || fail "$b: not in ab-compile.csv"
done
grep -q '^metric compile_time' out || fail "not the compile_time table: $(cat out)"
grep -q '"-O1", "-c"' "$tmp/dc/A/compile_commands.json" || fail "side A not -O1"
grep -q '"-O2", "-c"' "$tmp/dc/B/compile_commands.json" || fail "side B not -O2"
exit 0
