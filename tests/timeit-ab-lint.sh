#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-ab's man page documents every option of its --help (and no
# option it does not have).
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
page=$top_srcdir/man/timeit-ab.1
options_documented "$top_builddir/abrun/timeit-ab" "$page"
sed 's/\\-/-/g' "$page" | sed -n 's/^\.B[IR]* --\([a-z-]*\).*/--\1/p' | sort -u > documented
while read -r opt; do
	case $opt in --looks | --undecided | --filter | --min-change | --no-color | --default-signal) continue ;; esac
	grep -qx -- "$opt" opts || fail "$page documents $opt, which --help does not list"
done < documented
exit 0
