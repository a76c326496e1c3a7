#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# What a release carries: the version in NEWS, a bug-report address in
# every program's --help only when configure was given one
# (--with-bug-url: none by default, never one that nobody owns), the
# licence in configure.ac, and a quiet build (no autoconf warning, no ar
# warning).
. "$top_srcdir/tests/setup"
: "${PACKAGE_VERSION:?}" "${PACKAGE_BUGREPORT?}"

# NEWS: the newest entry is this version.
top=$(sed -n 's/^\* \([0-9][0-9.]*\).*/\1/p' "$top_srcdir/NEWS" | sed 1q)
[ "$top" = "$PACKAGE_VERSION" ] ||
	fail "NEWS: newest entry is '$top', configure says $PACKAGE_VERSION"
"$TIMEIT" --version | sed 1q | grep -qx "timeit $PACKAGE_VERSION" ||
	fail "timeit --version does not say $PACKAGE_VERSION"

# The bug-report address: configure's --with-bug-url, in each program's
# --help; without it no "Report bugs" line at all.
if grep -q -- '--with-bug-url=.' "$top_builddir/config.status"; then
	[ -n "$PACKAGE_BUGREPORT" ] || fail "--with-bug-url was given, PACKAGE_BUGREPORT is empty"
else
	[ -z "$PACKAGE_BUGREPORT" ] || fail "a bug-report address nobody configured: $PACKAGE_BUGREPORT"
fi
for p in "$TIMEIT" "$top_builddir/compare/timeit-compare" "$top_builddir/series/timeit-series" \
	"$top_builddir/perfwrap/timeit-perf" "$top_builddir/abrun/timeit-ab"; do
	"$p" --help > help.txt 2>&1 || true
	if [ -n "$PACKAGE_BUGREPORT" ]; then
		grep -qxF "Report bugs to: $PACKAGE_BUGREPORT" help.txt ||
			fail "${p##*/} --help names no bug-report address"
	else
		! grep -q 'Report bugs' help.txt || fail "${p##*/} --help: $(grep 'Report bugs' help.txt)"
	fi
done
# The man pages name no address (the one a packager sets is in --help).
! grep -l 'timeit-dev\|Report bugs' "$top_srcdir"/man/*.1 ||
	fail "a man page names a bug-report address"

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
