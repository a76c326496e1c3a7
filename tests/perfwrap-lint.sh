#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-perf is shellcheck clean, and its man page documents every option
# of its --help.
. "$top_srcdir/tests/setup"

script=$top_srcdir/perfwrap/timeit-perf.sh
page=$top_srcdir/man/timeit-perf.1
"$top_builddir/perfwrap/timeit-perf" --help | grep -o -- '--[a-z][a-z-]*' | sort -u >opts
[ -s opts ] || fail "timeit-perf --help lists no options"
while read -r opt; do
	esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	grep -q -- "$esc" "$page" || fail "$page does not document $opt"
done <opts
command -v shellcheck >/dev/null 2>&1 || skip "shellcheck is not installed"
shellcheck -s sh "$script" || fail "shellcheck: $script"
exit 0
