#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# fuzz/replay.sh: make check replays every fuzz target's corpus (the seeds
# and each crash a fuzzer found, fuzz/corpus/TARGET/) through the target
# built without libFuzzer (fuzz/TARGET-replay).  A crash or abort fails.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
for t in events options jsonread readers perfcsv; do
	prog=$top_builddir/fuzz/$t-replay
	[ -x "$prog" ] || fail "$prog not built"
	"$prog" "$top_srcdir/fuzz/corpus/$t/"* || fail "$t: replay failed on fuzz/corpus/$t"
done

# Regressions the fuzzers found, checked by behaviour too (the replay above
# catches them only in a sanitizer build).
# readers: an exit status beyond long's range was converted anyway
# (undefined behaviour); it is a bad status.
printf 'exit 1e300\nreal 1\n' > big.time
printf 'exit 0\nreal 1\n' > ok.time
expect_status 2 "$top_builddir/compare/timeit-compare" -m real big.time ok.time 2> err
grep -q "big.time:1: exit: bad status '1e300'" err || fail "exit 1e300: $(cat err)"
exit 0
