#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Rules of the tree that a grep can check: timeit's own exit statuses are
# named once (enum ti_status in lib/record.h, st_* in timeit-perf), only
# lib/summary.c writes summary lines, and comments cite the man pages'
# sections, never the design notes outside the tree (spec/*.md).
. "$top_srcdir/tests/setup"
cd "$top_srcdir"

# A status as a literal where code returns, exits or assigns it.
bad=$(grep -n -E '(return|_?exit *\(|status(_out)? *=|exit) *"?(66|126|127|137)\b' \
	lib/*.c lib/*.h timeit/*.c timeit/*.h perfwrap/timeit-perf.sh |
	grep -v -e 'st_usage=1 st_internal=66' || true)
[ -z "$bad" ] || fail "exit statuses as literals (use enum ti_status / st_*):
$bad"

# Summary lines: "%-10s" is the summary's key column; the one writer owns it.
bad=$(grep -n -e '"%-10s' lib/*.c timeit/*.c | grep -v -e '^lib/summary.c:' \
	|| true)
[ -z "$bad" ] || fail "summary lines written outside lib/summary.c:
$bad"

bad=$(grep -rn 'spec/' lib timeit perfwrap/timeit-perf.sh test-suite man tests \
	--include='*.c' --include='*.h' --include='*.sh' --include='*.1' \
	--include='Makefile*' --include='*.mk' --include='setup' |
	grep -v -e '^tests/source-rules.sh:' || true)
[ -z "$bad" ] || fail "comments citing spec/*.md, which is not in the tree (cite a man page section):
$bad"
exit 0
