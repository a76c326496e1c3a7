#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# What a release carries: the version in NEWS, a bug-report address in
# every program's --help, the licence in configure.ac, and a quiet build
# (no autoconf warning, no ar warning).
. "$top_srcdir/tests/setup"
: "${PACKAGE_VERSION:?}" "${PACKAGE_BUGREPORT:?}"

# NEWS: the newest entry is this version.
top=$(sed -n 's/^\* \([0-9][0-9.]*\).*/\1/p' "$top_srcdir/NEWS" | sed 1q)
[ "$top" = "$PACKAGE_VERSION" ] ||
	fail "NEWS: newest entry is '$top', configure says $PACKAGE_VERSION"
"$TIMEIT" --version | sed 1q | grep -qx "timeit $PACKAGE_VERSION" ||
	fail "timeit --version does not say $PACKAGE_VERSION"

# The bug-report address is in each program's --help.
"$TIMEIT" --help | grep -qxF "Report bugs to: $PACKAGE_BUGREPORT" ||
	fail "timeit --help names no bug-report address"
"$top_builddir/perfwrap/timeit-perf" --help | grep -qxF "Report bugs to: $PACKAGE_BUGREPORT" ||
	fail "timeit-perf --help names no bug-report address"
"$top_builddir/abrun/timeit-ab" --help | grep -qxF "Report bugs to: $PACKAGE_BUGREPORT" ||
	fail "timeit-ab --help names no bug-report address"

grep -q '^# Licence: Apache License v2.0 with LLVM Exceptions' "$top_srcdir/configure.ac" ||
	fail "configure.ac does not state the licence"

# ar: automake's default ARFLAGS "cru" makes binutils warn at every build.
printf 'int x;\n' > x.c
${CC:-cc} -c x.c -o x.o
# shellcheck disable=SC2086 # ARFLAGS is words
${AR:-ar} ${ARFLAGS:?} x.a x.o 2> ar.err || fail "$AR $ARFLAGS failed"
[ ! -s ar.err ] || fail "$AR $ARFLAGS warns: $(cat ar.err)"

# autoconf -Wall on configure.ac (a copy: the source tree may be read-only).
command -v autoconf > /dev/null 2>&1 || skip "autoconf is not installed: configure.ac's warnings were not checked"
mkdir ac
cp "$top_srcdir/configure.ac" "$top_srcdir/aclocal.m4" ac/
# A tarball has no m4/ (aclocal.m4 holds what it had).
mkdir ac/m4
(cd ac && autoconf --warnings=all --output=configure) 2> ac.err ||
	fail "autoconf failed: $(cat ac.err)"
[ ! -s ac.err ] || fail "autoconf warns: $(cat ac.err)"
