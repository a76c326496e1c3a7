#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/ab-live's knob: with -DAB_LIVE nbody, lcs, matmul and tak do more
# work and still print their reference outputs; every other bundled
# benchmark's binary is byte-identical with and without it.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
suite=$top_srcdir/test-suite
for side in a b; do
	if [ "$side" = a ]; then f=-O2; else f='-O2 -DAB_LIVE'; fi
	make -s -f "$suite/Makefile" O="$tmp/$side" TIMEIT="$TIMEIT" SIZE=small SAMPLES=1 \
		CFLAGS="$f" > "$side.out" 2>&1 || { cat "$side.out"; fail "CFLAGS=$f: the suite failed"; }
done
grep -q '12 benchmarks, 12 passed, 0 failed' b.out || fail "with the knob: $(cat b.out)"
same=
for bin in "$tmp/a/bin/"*; do
	b=${bin##*/}
	if cmp -s "$bin" "$tmp/b/bin/$b"; then same="$same $b"; fi
done
[ "$same" = " exprparse fft hash memwalk qsort sieve spawn wordfreq" ] ||
	fail "binaries the knob leaves alone:$same"
exit 0
