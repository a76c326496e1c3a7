#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/noise.sh [RUNS] [MS]: method noise of timeit's user time.
#
# RUNS (default 30) runs of bench/work MS (default 60 ms of CPU, with page
# faults and small system calls), each under timeit --json, once on a quiet
# machine and once with a busy loop on another core.  Per run, against the
# program's own exact CPU time (CLOCK_PROCESS_CPUTIME_ID at its end), the
# ratio of: task-clock (timeit's user), rusage user, rusage sys and rusage
# user+sys.  Prints the mean and standard deviation of each ratio (the
# method noise: how far one run's figure strays from the truth) and the
# run-to-run coefficient of variation of each metric.
#
# Environment: TIMEIT, BENCH_BIN (make bench sets both).
. "$(dirname "$0")/common.sh"
runs=${1:-30}
ms=${2:-60}

# One run: "ref tc utime stime" in nanoseconds.  timeit's JSON is one key
# per line; only what follows "runs" is the run's (the environment checks
# before it have "value"s too).  The task-clock counter is the run's
# "user" when the run's first "source" is perf:task-clock (checked, so a
# fallback cannot pass as task-clock).
one() {
	"$TIMEIT" --json "$tmp/j" --redirect-stdout "$tmp/o" "$WORK" "$ms" 2>/dev/null
	ref=$(cat "$tmp/o")
	awk -v ref="$ref" '
	/"runs": \[/ { inruns = 1 }
	inruns && /"source":/ && src == "" { src = $2 }
	inruns && /"utime":/ { ut = $2 + 0 }
	inruns && /"stime":/ { st = $2 + 0 }
	inruns && /"name": "task-clock"/ { intc = 1 }
	intc && /"value":/ { tc = $2 + 0; intc = 0 }
	END {
		if (src !~ /task-clock/) { print "no task-clock: " src > "/dev/stderr"; exit 1 }
		printf "%s %d %.0f %.0f\n", ref, tc, ut * 1e9, st * 1e9
	}' "$tmp/j"
}

series() {
	i=0
	while [ "$i" -lt "$runs" ]; do
		one
		i=$((i + 1))
	done
}

# summarize: ratios to ref and coefficients of variation.
summarize() {
	awk '
	function add(k, x) { s[k] += x; ss[k] += x * x }
	{ n++; ref = $1; tc = $2; ut = $3; st = $4
	  add("r_tc", tc / ref); add("r_ut", ut / ref); add("r_st", st / ref)
	  add("r_us", (ut + st) / ref)
	  add("ref", ref); add("tc", tc); add("ut", ut); add("st", st); add("us", ut + st) }
	function mean(k) { return s[k] / n }
	function sd(k,  m, v) { m = mean(k); v = ss[k] / n - m * m; return v > 0 ? sqrt(v) : 0 }
	function cv(k) { return mean(k) > 0 ? 100 * sd(k) / mean(k) : 0 }
	END {
		printf "  %-26s %10s %12s %10s\n", "metric", "mean ms", "ratio to ref", "method sd"
		printf "  %-26s %10.2f %12s %10s  run-to-run cv %5.2f%%\n", "exact CPU time (ref)", mean("ref") / 1e6, "1", "-", cv("ref")
		printf "  %-26s %10.2f %12.4f %9.2f%%  run-to-run cv %5.2f%%\n", "task-clock (timeit user)", mean("tc") / 1e6, mean("r_tc"), 100 * sd("r_tc"), cv("tc")
		printf "  %-26s %10.2f %12.4f %9.2f%%  run-to-run cv %5.2f%%\n", "rusage user", mean("ut") / 1e6, mean("r_ut"), 100 * sd("r_ut"), cv("ut")
		printf "  %-26s %10.2f %12.4f %9.2f%%  run-to-run cv %5.2f%%\n", "rusage sys", mean("st") / 1e6, mean("r_st"), 100 * sd("r_st"), cv("st")
		printf "  %-26s %10.2f %12.4f %9.2f%%  run-to-run cv %5.2f%%\n", "rusage user+sys", mean("us") / 1e6, mean("r_us"), 100 * sd("r_us"), cv("us")
	}'
}

echo "noise: $runs runs of work $ms (page faults + getppid + user spin), $(nproc) cpus, $(uname -r), load $(cut -d" " -f1-3 /proc/loadavg)"
echo "method sd: standard deviation over runs of (metric / exact CPU time), in % of it"
echo
series > "$tmp/quiet"
echo "== quiet"
summarize < "$tmp/quiet"

sh -c 'while :; do :; done' &
hog=$!
series > "$tmp/loaded"
kill "$hog"
wait "$hog" 2>/dev/null || true
echo "== other core loaded (one busy loop)"
summarize < "$tmp/loaded"
