#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# README.md's example summary has the keys, in the order, that timeit
# writes with its default events; docs/LNT.md has the section a site
# moving its LNT history reads; docs/README.md lists every page of docs/.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
# The section a site moving its LNT history reads: the step and the escape.
sec=$(sed -n '/^## Moving an LNT history to timeit$/,/^## /p' "$top_srcdir/docs/LNT.md")
[ -n "$sec" ] || fail "docs/LNT.md lacks the section 'Moving an LNT history to timeit'"
for w in 'TIMEIT_OPTIONS=--rusage-times' 'median change of exec_time' 'user + sys'; do
	printf '%s\n' "$sec" | grep -qF -- "$w" || fail "docs/LNT.md's LNT history section lacks '$w'"
done
grep -qF 'Moving an LNT history to timeit' "$top_srcdir/README.md" ||
	fail "README.md does not point to docs/LNT.md's 'Moving an LNT history to timeit'"

# The index of docs/ names every page there, and every page it names exists.
for f in "$top_srcdir"/docs/*.md; do
	p=${f##*/}
	[ "$p" = README.md ] && continue
	grep -qF "]($p)" "$top_srcdir/docs/README.md" || fail "docs/README.md does not list docs/$p"
done
sed -n 's/.*](\([A-Za-z-]*\.md\)).*/\1/p' "$top_srcdir/docs/README.md" > listed
[ -s listed ] || fail "docs/README.md lists no page"
while read -r p; do
	[ -f "$top_srcdir/docs/$p" ] || fail "docs/README.md lists docs/$p, which does not exist"
done < listed

sed -n '/^\$ cat out.time$/,/^```$/p' "$top_srcdir/README.md" | sed '1d;$d' |
	awk '{ print $1 }' > readme-keys
[ -s readme-keys ] || fail "README.md has no example summary after '\$ cat out.time'"
counting_expected || skip "this build or machine counts no task-clock: README's example (with task-clock) not compared"
"$TIMEIT" --summary s "$AUX" burn 20 2> /dev/null
awk '{ print $1 }' s > keys
cmp -s readme-keys keys ||
	fail "README's example keys '$(tr '\n' ' ' < readme-keys)', timeit writes '$(tr '\n' ' ' < keys)'"
