#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/scaling.sh [ROUNDS]: timeit on a tree of 1000 short processes, and
# the cost of counting 1, 8 and 32 events.
#
# The tree is sh -c running /bin/true 1000 times in a loop.  Interleaved
# rounds (default 10) of the launcher, timeit --no-perf, timeit with its
# default events and timeit -e with 1, 8 and 32 software events (counters
# are inherited by every child, so their cost grows with the tree), then
# the same on a single "true" (30 rounds of 10).  Finally the inherit
# accounting: task-clock of the whole tree against wait4's rusage
# user+sys (which includes every reaped descendant), over ROUNDS runs.
#
# Environment: TIMEIT, BENCH_BIN (make bench sets both).
. "$(dirname "$0")/common.sh"
rounds=${1:-10}
# The summary in memory when possible: the file system's cost is
# bench/overhead.sh's business, the counters' is this script's.
F=${shm:-$tmp}/summary

tru=
for t in /bin/true /usr/bin/true; do
	[ -x "$t" ] && { tru=$t; break; }
done
[ -n "$tru" ] || { echo "scaling.sh: no /bin/true" >&2; exit 1; }
tree="i=0; while [ \$i -lt 1000 ]; do $tru; i=\$((i + 1)); done"

# Software events only: this machine may have no PMU.  Eight distinct
# ones; 32 repeats them (timeit counts each entry separately).
sw="task-clock,page-faults,context-switches,cpu-migrations,minor-faults,major-faults,cpu-clock,alignment-faults"
e1=task-clock
e8=$sw
e32=$sw,$sw,$sw,$sw

labels="launcher|timeit --no-perf|timeit (default events)|timeit -e (1 event)|timeit -e (8 events)|timeit -e (32 events)"

echo "scaling: $(nproc) cpus, $(uname -r), load $(cut -d" " -f1-3 /proc/loadavg)"
echo
echo "== tree of 1000 x $tru under sh -c ($rounds rounds, median)"
"$RUNNER" "$rounds" 1 "$LAUNCHER" sh -c "$tree" :: \
	"$TIMEIT" --no-perf --summary "$F" sh -c "$tree" :: \
	"$TIMEIT" --summary "$F" sh -c "$tree" :: \
	"$TIMEIT" -e "$e1" --summary "$F" sh -c "$tree" :: \
	"$TIMEIT" -e "$e8" --summary "$F" sh -c "$tree" :: \
	"$TIMEIT" -e "$e32" --summary "$F" sh -c "$tree" > "$tmp/tree.raw"
medians "$tmp/tree.raw" "$labels" > "$tmp/tree.med"
report "$tmp/tree.med"
echo
echo "== true (30 rounds of 10, median)"
"$RUNNER" 30 10 "$LAUNCHER" true :: \
	"$TIMEIT" --no-perf --summary "$F" true :: \
	"$TIMEIT" --summary "$F" true :: \
	"$TIMEIT" -e "$e1" --summary "$F" true :: \
	"$TIMEIT" -e "$e8" --summary "$F" true :: \
	"$TIMEIT" -e "$e32" --summary "$F" true > "$tmp/true.raw"
medians "$tmp/true.raw" "$labels" > "$tmp/true.med"
report "$tmp/true.med"
echo

# Inherit accounting: task-clock (perf, inherited into every descendant)
# against rusage user+sys from wait4 (the tree's exact runtime split by
# ticks, but summed it is exact too).  bench/accounting.sh shows where the
# difference goes.
echo "== task-clock / rusage user+sys on the tree ($rounds runs)"
i=0
while [ "$i" -lt "$rounds" ]; do
	"$TIMEIT" --json "$tmp/j" sh -c "$tree" 2>/dev/null
	cpu_times "$tmp/j" | awk '{ printf "%.6f %.6f %.6f\n", $1, $2, $1 / $2 }'
	i=$((i + 1))
done | awk '
	{ n++; r = $3; s += r; if (n == 1 || r < lo) lo = r; if (n == 1 || r > hi) hi = r
	  tc += $1; us += $2 }
	END { printf "  task-clock %.4f s, rusage user+sys %.4f s (means); ratio mean %.4f, min %.4f, max %.4f\n",
		tc / n, us / n, s / n, lo, hi }'
