#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/perf-overhead.sh [ROUNDS] [OLD]: what timing a command with
# timeit-perf costs, and against the shell version it replaced.
#
# Interleaved rounds (default 20) of, on "true" (10 runs a round) and on a
# 50 ms CPU-bound program (1 run a round): the posix_spawn+waitpid
# launcher (the baseline), timeit --summary, perf stat alone (the floor of
# anything on top of it), timeit-perf --summary and, when OLD names it, the
# shell timeit-perf (built from git: see docs/cost.md).  Prints the
# medians of the wall time per run and of the CPU time (user+sys of the
# tool and the program), their coefficients of variation and ratios to the
# launcher (bench/common.sh).  Then the summary's own figures (real, user:
# what timeit-perf reports) of the 50 ms program, medians of ROUNDS runs.
#
# Environment: TIMEIT, BENCH_BIN (as for bench/overhead.sh); PERFWRAP, the
# C timeit-perf (default: beside timeit, ../perfwrap/timeit-perf).
. "$(dirname "$0")/common.sh"
rounds=${1:-20}
old=${2:-}
PERFWRAP=${PERFWRAP:-$(dirname "$TIMEIT")/../perfwrap/timeit-perf}
[ -x "$PERFWRAP" ] || { echo "perf-overhead.sh: $PERFWRAP: not built" >&2; exit 1; }
command -v perf >/dev/null 2>&1 && perf stat -o /dev/null -e task-clock true 2>/dev/null ||
	{ echo "perf-overhead.sh: perf cannot count here" >&2; exit 77; }
F=$tmp/summary

set -- "$LAUNCHER" @ :: "$TIMEIT" --summary "$F" @ :: \
	perf stat -o /dev/null -e task-clock @ :: "$PERFWRAP" --summary "$F" @
labels="launcher|timeit --summary F|perf stat -e task-clock|timeit-perf (C) --summary F"
if [ -n "$old" ]; then
	set -- "$@" :: "$old" --summary "$F" @
	labels="$labels|timeit-perf (shell) --summary F"
fi
case "$TIMEIT$BENCH_BIN$PERFWRAP$old$tmp" in
*[[:space:]]*) echo "perf-overhead.sh: paths with blanks are not supported" >&2; exit 1 ;;
esac
template=$*

echo "perf-overhead: $rounds interleaved rounds, medians per run (host: $(nproc) cpus, $(uname -r), load $(cut -d" " -f1-3 /proc/loadavg))"
echo
true_and_work "$rounds" "$template" "$labels"
# What each reports of the 50 ms program (its own real and user), medians.
echo "== the summary's real and user for work 50 user ($rounds interleaved runs each)"
: > "$tmp/sum.txt"
r=0
while [ "$r" -lt "$rounds" ]; do
	for p in "$TIMEIT" "$PERFWRAP" $old; do
		"$p" --summary "$F" "$WORK" 50 user >/dev/null 2>&1
		awk -v p="$p" '$1 == "real" || $1 == "user" { print p, $1, $2 }' "$F" >> "$tmp/sum.txt"
	done
	r=$((r + 1))
done
for p in "$TIMEIT" "$PERFWRAP" $old; do
	for k in real user; do
		awk -v p="$p" -v k="$k" '$1 == p && $2 == k { print $3 }' "$tmp/sum.txt" | sort -n |
			awk -v p="${p##*/}" -v k="$k" '{ v[NR] = $1 }
			END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			      printf "  %-24s %-4s median %.4f s\n", p, k, m }'
	done
done
