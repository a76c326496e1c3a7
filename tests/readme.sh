#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# README.md's example summary has the keys, in the order, that timeit
# writes with its default events; its LNT history section is there.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
# The section a site moving its LNT history reads: the step and the escape.
sec=$(sed -n '/^## Moving an LNT history to timeit$/,/^## /p' "$top_srcdir/README.md")
[ -n "$sec" ] || fail "README.md lacks the section 'Moving an LNT history to timeit'"
for w in 'TIMEIT_OPTIONS=--rusage-times' 'median change of exec_time' 'user + sys'; do
	printf '%s\n' "$sec" | grep -qF -- "$w" || fail "README's LNT history section lacks '$w'"
done

sed -n '/^\$ cat out.time$/,/^```$/p' "$top_srcdir/README.md" | sed '1d;$d' |
	awk '{ print $1 }' > readme-keys
[ -s readme-keys ] || fail "README.md has no example summary after '\$ cat out.time'"
counting_expected || skip "this build or machine counts no task-clock: README's example (with task-clock) not compared"
"$TIMEIT" --summary s "$AUX" burn 20 2> /dev/null
awk '{ print $1 }' s > keys
cmp -s readme-keys keys ||
	fail "README's example keys '$(tr '\n' ' ' < readme-keys)', timeit writes '$(tr '\n' ' ' < keys)'"
