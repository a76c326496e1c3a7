#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-compare's --help and --version, and its man page documents every
# option --help lists.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
COMPARE=${COMPARE:-$top_builddir/compare/timeit-compare}
page=$top_srcdir/man/timeit-compare.1

"$COMPARE" --help >help || fail "--help exited $?"
grep -q '^usage: timeit-compare \[options\] A B$' help || fail "--help: $(cat help)"
"$COMPARE" -h >h2 || fail "-h"
cmp -s help h2 || fail "-h and --help differ"
"$COMPARE" --version | grep -Eq '^timeit-compare [0-9]+\.[0-9]+' || fail "--version"
options_documented "$COMPARE" "$page"
# --strict changes the exit status: EXIT STATUS says how.
sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$page" | grep -qF -- '\-\-strict' ||
	fail "timeit-compare.1: EXIT STATUS does not mention --strict"
grep -q -- '--strict.*exit 1' help || fail "--help does not say what --strict does: $(cat help)"
for opt in -a -b -m -p -h; do
	grep -q -- "^\.B[IR]* \\\\$opt\\b" "$page" || fail "timeit-compare.1 does not document $opt"
done
exit 0
