#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/accounting.sh [RUNS]: where timeit's user (task-clock) and
# rusage user+sys part, and why.
#
# task-clock counts a process from the exec of the command (a descendant:
# from its fork) until the kernel detaches its counters in exit; rusage
# counts everything the scheduler ran.  Two measurements:
#
# 1. Memory held at exit.  bench/hold MIB maps and touches MIB MiB and
#    exits holding it, or unmaps it first ("unmap").  RUNS runs of each
#    (default 5) under timeit --json: median of rusage user+sys minus
#    task-clock.  If the gap grows with the memory held at exit and goes
#    when the program frees it itself, the kernel frees an exiting
#    process's address space after it has detached its counters.
#
# 2. The tree of bench/scaling.sh (sh -c running /bin/true 1000 times),
#    recorded system-wide with perf record -e sched:sched_switch.  From
#    the recording, bench/outside.awk sums each process's time on a CPU
#    after its counters were detached (PERF_RECORD_EXIT) and the command's
#    time before its exec.  task-clock plus that time against rusage
#    user+sys shows whether inheritance loses anything else.  Needs perf
#    and the right to record every CPU (root, or perf_event_paranoid -1);
#    skipped otherwise, saying why.  RUNS runs.
#
# Environment: TIMEIT, BENCH_BIN (make bench sets both); PERF (default
# perf).
. "$(dirname "$0")/common.sh"
runs=${1:-5}
HOLD=$BENCH_BIN/hold
[ -x "$HOLD" ] || { echo "accounting.sh: $HOLD: not built (run make bench)" >&2; exit 1; }
PERF=${PERF:-perf}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "accounting: $(nproc) cpus, $(uname -r), load $(cut -d" " -f1-3 /proc/loadavg)"
echo
echo "== rusage user+sys - task-clock, ms (median of $runs runs)"
printf '  %8s %14s %14s %12s\n' "MiB held" "exit holding" "unmap first" "ms per MiB"
for mib in 0 16 64 256; do
	for how in keep unmap; do
		arg=
		[ "$how" = unmap ] && arg=unmap
		i=0
		: > "$tmp/gaps"
		while [ "$i" -lt "$runs" ]; do
			# shellcheck disable=SC2086
			"$TIMEIT" --json "$tmp/j" "$HOLD" "$mib" $arg 2>/dev/null
			cpu_times "$tmp/j" > "$tmp/times"
			awk '{ printf "%.3f\n", ($2 - $1) * 1e3 }' "$tmp/times" >> "$tmp/gaps"
			i=$((i + 1))
		done
		median < "$tmp/gaps" > "$tmp/$how"
	done
	keep=$(cat "$tmp/keep")
	[ "$mib" = 0 ] && base=$keep
	awk -v m="$mib" -v k="$keep" -v u="$(cat "$tmp/unmap")" -v b="$base" 'BEGIN {
		printf "  %8d %14.3f %14.3f", m, k, u
		if (m > 0)
			printf " %12.4f", (k - b) / m
		print ""
	}'
done
echo

tru=
for t in /bin/true /usr/bin/true; do
	[ -x "$t" ] && { tru=$t; break; }
done
tree="i=0; while [ \$i -lt 1000 ]; do $tru; i=\$((i + 1)); done"
echo "== the tree of 1000 x $tru, recorded ($runs runs)"
why=
if ! command -v "$PERF" > /dev/null 2>&1; then
	why="no $PERF"
elif ! "$PERF" record -q -a -e sched:sched_switch -o "$tmp/probe.data" -- true > "$tmp/probe.err" 2>&1; then
	why="perf record -a -e sched:sched_switch refused: $(head -n 1 "$tmp/probe.err")"
fi
if [ -n "$why" ]; then
	echo "  skipped: $why"
	exit 0
fi
i=0
: > "$tmp/rows"
while [ "$i" -lt "$runs" ]; do
	# perf's own complaints (lost events above all) are shown; timeit's
	# report is not.
	"$PERF" record -q -a -e sched:sched_switch -o "$tmp/t.data" -- \
		"$TIMEIT" --json "$tmp/j" sh -c "$tree" 2> "$tmp/rec.err" ||
		{ cat "$tmp/rec.err" >&2; exit 1; }
	grep -v -e ' real .* user .* sys' "$tmp/rec.err" >&2 || true
	"$PERF" script -i "$tmp/t.data" --ns --show-task-events \
		-F comm,pid,tid,time,event,trace 2> "$tmp/script.err" > "$tmp/t.txt" ||
		{ cat "$tmp/script.err" >&2; exit 1; }
	awk -f "$(dirname "$0")/outside.awk" "$tmp/t.txt" > "$tmp/out"
	echo "$(cpu_times "$tmp/j") $(cat "$tmp/out")" >> "$tmp/rows"
	i=$((i + 1))
done
awk '
	# TC RU TASKS EXITS BEFORE AFTER
	{ n++; r = $1 / $2; r2 = ($1 + $5 + $6) / $2
	  if (n == 1 || r < lo) lo = r; if (n == 1 || r > hi) hi = r
	  if (n == 1 || r2 < lo2) lo2 = r2; if (n == 1 || r2 > hi2) hi2 = r2
	  tc += $1; ru += $2; pr += $3; ex += $4; be += $5; af += $6 }
	END {
		if (!n || !ru || !ex) { print "accounting.sh: no exits found in the recordings" > "/dev/stderr"; exit 1 }
		printf "  tasks %d, exits seen %d (means per run)\n", pr / n, ex / n
		printf "  task-clock %.4f s, rusage user+sys %.4f s: ratio %.4f (min %.4f, max %.4f)\n",
			tc / n, ru / n, tc / ru, lo, hi
		printf "  on a CPU outside the counters: before exec %.1f us, after detach %.4f s (%.1f us per exit)\n",
			be / n * 1e6, af / n, af / ex * 1e6
		printf "  task-clock + that time vs rusage: ratio %.4f (min %.4f, max %.4f)\n",
			(tc + be + af) / ru, lo2, hi2
	}' "$tmp/rows"
