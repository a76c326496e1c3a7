#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Rules of the tree that a grep can check: timeit's own exit statuses are
# named once (enum ti_status in lib/measure/record.h), only
# lib/measure/summary.c writes summary lines, and comments cite the man pages'
# sections, never the design notes outside the tree (spec/*.md); only
# the platform seam's files include a header one system alone has; and no
# function in lib/ is over 100 lines, and no C file in lib/ over 700.
. "$top_srcdir/tests/setup"
cd "$top_srcdir"

# A status as a literal where code returns, exits or assigns it.
bad=$(grep -n -E '(return|_?exit *\(|status(_out)? *=|exit) *"?(66|126|127|137)\b' \
	lib/*.c lib/*.h lib/*/*.c lib/*/*.h timeit/*.c timeit/*.h compare/*.c series/*.c abrun/*.c \
	perfwrap/*.c || true)
[ -z "$bad" ] || fail "exit statuses as literals (use enum ti_status):
$bad"

# Summary lines: "%-10s" is the summary's key column; the one writer owns it.
bad=$(grep -n -e '"%-10s' lib/*.c lib/*/*.c timeit/*.c timeit/*.h compare/*.c series/*.c abrun/*.c perfwrap/*.c | grep -v -e '^lib/measure/summary.c:' \
	|| true)
[ -z "$bad" ] || fail "summary lines written outside lib/measure/summary.c:
$bad"

bad=$(grep -rn 'spec/' lib timeit compare series abrun perfwrap test-suite man tests \
	--include='*.c' --include='*.h' --include='*.sh' --include='*.1' \
	--include='Makefile*' --include='*.mk' --include='setup' |
	grep -v -e '^tests/source-rules.sh:' || true)
[ -z "$bad" ] || fail "comments citing spec/*.md, which is not in the tree (cite a man page section):
$bad"

# The platform seam (lib/os.h): headers of one system only in its file;
# linux/perf_event.h in the perf_event_open seam (lib/measure/counters.c and what
# encodes and fakes its events), compiled only with perf events.
bad=$(grep -n -E '^#include <(linux/|asm/|sys/(personality|vfs|statfs|prctl|procctl|sysctl|syscall|sysinfo)\.h|sched\.h|mach/)' \
	lib/*.c lib/*.h lib/*/*.c lib/*/*.h timeit/*.c timeit/*.h compare/*.c series/*.c abrun/*.c perfwrap/*.c tests/*.c tests/*.h fuzz/*.c bench/*.c |
	grep -v -e '^lib/os-[a-z-]*\.c:' \
		-e '^lib/measure/counters\.c:[0-9]*:#include <\(linux/perf_event\|sys/syscall\)\.h>' \
		-e '^lib/measure/pfm\.c:[0-9]*:#include <linux/perf_event\.h>' \
		-e '^tests/fakeperf\.h:[0-9]*:#include <linux/perf_event\.h>' || true)
[ -z "$bad" ] || fail "a system's own header outside its lib/os-*.c (lib/os.h is the seam):
$bad"

# No function in lib/ over 100 lines (house style: the braces of a
# function alone at column 0): a long one is split along its steps.
bad=$(awk '
	/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { h = $0; sub(/\(.*/, "", h); n = split(h, w, /[ \t*]+/); name = w[n] }
	/^\{/ { start = FNR; fn = name }
	/^\}/ && start { if (FNR - start + 1 > 100) printf "%s:%d: %s, %d lines\n", FILENAME, start, fn, FNR - start + 1; start = 0 }
	' lib/*.c lib/*/*.c)
[ -z "$bad" ] || fail "functions in lib/ over 100 lines:
$bad"

# No C file in lib/ over 700 lines: a reader looks for one thing in a
# file, and a file that long holds several (split it where they part).
bad=$(wc -l lib/*.c lib/*/*.c | awk '$2 != "total" && $1 > 700 { print $2 ": " $1 " lines" }')
[ -z "$bad" ] || fail "C files in lib/ over 700 lines:
$bad"
exit 0
