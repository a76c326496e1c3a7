# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# shellcheck shell=sh
# bench/common.sh: sourced by the bench scripts.  Finds the programs, and
# turns the runner's lines ("ROUND INDEX NS MAXRSS_KIB") into figures.
set -eu
LC_ALL=C
export LC_ALL

# Built programs: make bench sets these; by hand, point BENCH_BIN at the
# build directory's bench/ and TIMEIT at its timeit/timeit.
: "${TIMEIT:?TIMEIT must name the timeit binary (make bench sets it)}"
: "${BENCH_BIN:?BENCH_BIN must name the directory holding the built bench programs}"
LAUNCHER=$BENCH_BIN/launcher
RUNNER=$BENCH_BIN/runner
WORK=$BENCH_BIN/work
# shellcheck disable=SC2034
NOP=$BENCH_BIN/nop
for p in "$TIMEIT" "$LAUNCHER" "$RUNNER" "$WORK"; do
	[ -x "$p" ] || { echo "bench: $p: not built (run make bench)" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/timeit-bench.XXXXXX")
# A second scratch directory in memory (tmpfs), when there is one: a
# summary written there costs no file-system journaling or write-back.
shm=
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	shm=$(mktemp -d /dev/shm/timeit-bench.XXXXXX)
fi
trap 'rm -rf "$tmp" ${shm:+"$shm"}' EXIT INT TERM

# medians FILE NAME...: per command index (from the runner's lines
# "ROUND INDEX NS MAXRSS_KIB CPU_NS"), one line:
#   INDEX WALL_US WALL_CV% MAXRSS_KIB CPU_US CPU_CV% NAME
# medians in microseconds, coefficients of variation over the rounds, the
# largest maxrss; labelled with the "|"-separated NAMEs in index order.
medians() {
	f=$1
	shift
	awk -v names="$*" '
	BEGIN { split(names, label, "|") }
	{ i = $2; c = ++n[i]; w[i, c] = $3; u[i, c] = $5
	  sw[i] += $3; ssw[i] += $3 * $3; su[i] += $5; ssu[i] += $5 * $5
	  if ($4 > rss[i]) rss[i] = $4 }
	function sort(a, i, c,  j, k, t) {
		for (j = 2; j <= c; j++)
			for (k = j; k > 1 && a[i, k - 1] > a[i, k]; k--) {
				t = a[i, k]; a[i, k] = a[i, k - 1]; a[i, k - 1] = t
			}
	}
	function median(a, i, c) {
		return (c % 2) ? a[i, (c + 1) / 2] : (a[i, c / 2] + a[i, c / 2 + 1]) / 2
	}
	function cv(s, ss, c,  m, v) {
		m = s / c; v = ss / c - m * m
		return m > 0 && v > 0 ? 100 * sqrt(v) / m : 0
	}
	END {
		for (i = 0; i in n; i++) {
			c = n[i]
			sort(w, i, c)
			sort(u, i, c)
			printf "%d %.1f %.1f %d %.1f %.1f %s\n", i, median(w, i, c) / 1000,
				cv(sw[i], ssw[i], c), rss[i], median(u, i, c) / 1000,
				cv(su[i], ssu[i], c), label[i + 1]
		}
	}' "$f"
}

# report FILE: a table of medians lines, ratios to the first (the
# baseline): wall time per run and the CPU time it cost (user+sys of the
# command and all its descendants).
report() {
	printf '%-44s %11s %6s %7s %11s %6s %7s\n' "" "wall us" "cv%" "ratio" "cpu us" "cv%" "ratio"
	awk '
	NR == 1 { w0 = $2; c0 = $5 }
	{ l = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+ /, "", l)
	  printf "%-44s %11.1f %6.1f %6.3fx %11.1f %6.1f %6.3fx\n", l, $2, $3, $2 / w0, $5, $6,
		(c0 > 0 ? $5 / c0 : 0) }' "$1"
}

# rss_report FILE: the largest maxrss of each command of a medians file.
rss_report() {
	awk '{ l = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+ /, "", l)
	       printf "peak RSS  %-30s %6d KiB (%.2f MiB)\n", l, $4, $4 / 1024 }' "$1"
}

# cpu_times JSON: "TASK_CLOCK_S RUSAGE_S" for the first run of a timeit
# --json file: its task-clock and its rusage user+sys, in seconds.  Says
# so and fails when the run has no task-clock.  The
# JSON has one key per line, and only what follows "runs" is the run's (the
# environment checks before it have "value"s too).  Fails when task-clock
# was not counted.
cpu_times() {
	awk '
	/"runs": \[/ { inruns = 1 }
	inruns && /"utime":/ && ut == "" { ut = $2 + 0 }
	inruns && /"stime":/ && st == "" { st = $2 + 0 }
	inruns && /"name": "task-clock"/ && tc == "" { intc = 1 }
	intc && /"value":/ { tc = $2 / 1e9; intc = 0 }
	END {
		if (!tc) { print "bench: no task-clock in " FILENAME > "/dev/stderr"; exit 1 }
		printf "%.9f %.6f\n", tc, ut + st
	}' "$1"
}

# true_and_work ROUNDS TEMPLATE LABELS: the TEMPLATE commands ("::"-separated,
# "@" for the program) interleaved on true (10 runs a round) and on a 50 ms
# CPU-bound program (1 run a round), reported; raw runs in $tmp/true.raw
# and $tmp/work.raw.
true_and_work() {
	echo "== true (10 runs per round)"
	# shellcheck disable=SC2046
	"$RUNNER" "$1" 10 $(printf '%s\n' "$2" | sed 's|@|true|g') > "$tmp/true.raw"
	medians "$tmp/true.raw" "$3" > "$tmp/true.med"
	report "$tmp/true.med"
	echo
	echo "== work 50 user (a 50 ms CPU-bound program, 1 run per round)"
	# shellcheck disable=SC2046
	"$RUNNER" "$1" 1 $(printf '%s\n' "$2" | sed "s|@|$WORK 50 user|g") > "$tmp/work.raw"
	medians "$tmp/work.raw" "$3" > "$tmp/work.med"
	report "$tmp/work.med"
	echo
}
