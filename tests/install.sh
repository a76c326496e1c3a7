#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# make install: the three programs, the man pages, and the test-suite
# under $(pkgdatadir)/test-suite with a prebuilt fpcmp, which runs from
# there without the source tree (outputs where make runs, the installed
# timeit by default) and refuses to write into itself; make uninstall
# takes it all away again.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
p=$tmp/inst
make -s -C "$top_builddir" install prefix="$p" > install.out 2>&1 ||
	fail "make install: $(tail -n 5 install.out)"
for f in bin/timeit bin/timeit-compare bin/timeit-series bin/timeit-perf libexec/timeit/fpcmp; do
	[ -x "$p/$f" ] || fail "make install: no $f"
done
for f in man/man1/timeit.1 man/man1/timeit-compare.1 man/man1/timeit-series.1 man/man1/timeit-perf.1 \
	timeit/test-suite/Makefile timeit/test-suite/installed.mk \
	timeit/test-suite/SingleSource/Benchmarks/tak.c; do
	[ -f "$p/share/$f" ] || fail "make install: no share/$f"
done
suite=$p/share/timeit/test-suite

# From a directory of its own, with no timeit in PATH and no source tree:
# the installed timeit, the installed fpcmp, outputs under ./build.
mkdir work
(cd work && env -u TIMEIT -u TIMEIT_COMPARE PATH=/usr/bin:/bin make -s -f "$suite/Makefile" SIZE=small SAMPLES=1 \
	BENCHMARKS='tak sieve') > run.out 2>&1 || fail "the installed suite: $(cat run.out)"
grep -q 'tak  *pass' run.out || fail "tak did not pass: $(cat run.out)"
grep -qF "\"timeit\": \"$p/bin/timeit\"" work/build/report.json ||
	fail "not the installed timeit: $(grep '"timeit"' work/build/report.json)"
[ ! -e work/build/tools/fpcmp ] || fail "the installed suite built its own fpcmp"
"$p/bin/timeit-compare" work/build/results work/build/results > cmp.out 2>&1 ||
	fail "the installed timeit-compare: $(cat cmp.out)"

# Not into itself: make -C there says what to do instead.
set +e
env -u TIMEIT make -s -C "$suite" SIZE=small BENCHMARKS=tak > self.out 2>&1
st=$?
set -e
[ "$st" -ne 0 ] || fail "the installed suite wrote into itself"
grep -q 'is the installed test-suite, which is not for outputs' self.out || fail "$(cat self.out)"
[ ! -e "$suite/build" ] || fail "an output directory in the installed suite"

make -s -C "$top_builddir" uninstall prefix="$p" > uninstall.out 2>&1 ||
	fail "make uninstall: $(tail -n 5 uninstall.out)"
left=$(find "$p" -type f | sed "s|^$p/||")
[ -z "$left" ] || fail "make uninstall left: $left"
