#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# make demo-aa: -O2 against -O2 in two build directories, adaptively; the
# binaries are the same, so every benchmark is decided after round 1
# (identity first) and nothing is improved or regressed.  Two benchmarks and two
# rounds keep it short.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
make -s -C "$top_builddir" demo-aa DEMO_AA_DIR="$tmp/aa" BENCHMARKS='hash tak' \
	MIN_SAMPLES=2 MAX_SAMPLES=4 AB_LOOK_EVERY=2 > out 2>&1 || { cat out; fail "make demo-aa failed"; }
cat out
grep -Eq '^hash +1  same binary$' out || fail "hash not decided after round 1"
grep -Eq '^tak +1  same binary$' out || fail "tak not decided after round 1"
grep -Eq '^hash .* unchanged +same binary' out || fail "hash not the same binary"
[ -d "$tmp/aa/A" ] && [ -d "$tmp/aa/B" ] || fail "not two build directories"
exit 0
