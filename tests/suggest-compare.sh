#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-compare, timeit-series and timeit-ab: a mistyped option names
# the nearest valid one, exit 2, nothing run; one far from every option
# names none.
. "$top_srcdir/tests/setup"

C=$top_builddir/compare/timeit-compare
expect_status 2 "$C" --fromat md a b >out 2>err
[ "$(sed -n 1p err)" = "timeit-compare: unknown option '--fromat' (did you mean --format?)" ] ||
	fail "first line '$(sed -n 1p err)'"
[ "$(wc -l <err)" -eq 2 ] || fail "$(wc -l <err) lines on a typo"
[ ! -s out ] || fail "stdout written"
expect_status 2 "$C" --zzzzzzzz a b 2>err
[ "$(sed -n 1p err)" = "timeit-compare: unknown option '--zzzzzzzz'" ] ||
	fail "far option got '$(sed -n 1p err)'"

S=$top_builddir/series/timeit-series
expect_status 2 "$S" --sinse 3 a b > out 2> err
[ "$(sed -n 1p err)" = "timeit-series: unknown option '--sinse' (did you mean --since?)" ] ||
	fail "timeit-series: '$(sed -n 1p err)'"
[ ! -s out ] || fail "timeit-series: stdout written"

AB=$top_builddir/abrun/timeit-ab
expect_status 2 "$AB" --budjet 3 -o ab.out a b > out 2> err
[ "$(sed -n 1p err)" = "timeit-ab: --budjet: unknown option (did you mean --budget? see timeit-ab --help)" ] ||
	fail "timeit-ab: '$(sed -n 1p err)'"
[ ! -e ab.out ] || fail "timeit-ab: the output directory made"
expect_status 2 "$AB" --zzzzzzzz a b 2> err
[ "$(sed -n 1p err)" = "timeit-ab: --zzzzzzzz: unknown option (see timeit-ab --help)" ] ||
	fail "timeit-ab, a far option: '$(sed -n 1p err)'"
exit 0
