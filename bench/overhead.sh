#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/overhead.sh [ROUNDS]: what timing a command with timeit costs.
#
# Interleaved rounds (default 30) of, on "true" and on a 50 ms CPU-bound
# program: the minimal posix_spawn+waitpid launcher (the baseline), timeit
# with its default counters and --summary, timeit the LLVM way (--no-perf
# --rusage-times), perf stat and GNU time when present.  Prints the median
# wall time per run and the median CPU time it cost (user+sys of the tool
# and the program), their coefficients of variation and ratios to the
# launcher; then timeit's own peak RSS.  Targets: timeit <= 1.05x the
# launcher on true, peak RSS <= 1.5 MiB (docs/cost.md).
#
# Environment: TIMEIT, BENCH_BIN (make bench sets both); SUMMARY_DIR, the
# directory of the summary file (default: a fresh directory under TMPDIR;
# its file system matters, see docs/cost.md); BENCH_KEEP, a
# directory to copy the raw runner output and medians into; SPACED_ROUNDS
# (default 5, 0 to skip), rounds of runs after a pause.
. "$(dirname "$0")/common.sh"
rounds=${1:-30}
sdir=${SUMMARY_DIR:-$tmp}
F=$sdir/timeit-bench-summary.$$

# The commands, "::"-separated for the runner, and their labels.
set -- "$LAUNCHER" @ :: "$TIMEIT" --summary "$F" @ :: \
	"$TIMEIT" --no-perf --rusage-times --summary "$F" @
labels="launcher|timeit --summary F|timeit --no-perf --rusage-times --summary F"
if [ -n "$shm" ] && [ -z "${SUMMARY_DIR:-}" ]; then
	set -- "$@" :: "$TIMEIT" --summary "$shm/summary" @
	labels="$labels|timeit --summary F (F on tmpfs)"
fi
if command -v perf >/dev/null 2>&1 && perf stat -o /dev/null true 2>/dev/null; then
	set -- "$@" :: perf stat -o /dev/null @
	labels="$labels|perf stat"
fi
gnutime=
for t in /usr/bin/time /bin/time; do
	if [ -x "$t" ] && "$t" -f %M -o /dev/null true 2>/dev/null; then
		gnutime=$t
		break
	fi
done
if [ -n "$gnutime" ]; then
	set -- "$@" :: "$gnutime" -o /dev/null @
	labels="$labels|GNU time"
fi

# The template is expanded word by word, so no path may contain blanks.
case "$TIMEIT$BENCH_BIN$sdir$shm" in
*[[:space:]]*) echo "overhead.sh: paths with blanks are not supported" >&2; exit 1 ;;
esac
template=$*

echo "overhead: $rounds interleaved rounds, medians per run (host: $(nproc) cpus, $(uname -r), load $(cut -d" " -f1-3 /proc/loadavg))"
echo "summary file: $F ($(stat -f -c %T "$sdir" 2>/dev/null || echo '?'))"
echo
true_and_work "$rounds" "$template" "$labels"

# Spaced runs: the kernel turns its perf scheduling hooks off (a static
# key, patched into the kernel text with IPIs to every CPU) about a second
# after the last perf event closes, and on again at the next open.  Runs
# back to back never see that; a timeit started after a pause pays it.
spaced=${SPACED_ROUNDS:-5}
if [ "$spaced" -gt 0 ]; then
	echo "== true, each run after a 1.2 s pause ($spaced rounds)"
	: > "$tmp/spaced.raw"
	r=0
	while [ "$r" -lt "$spaced" ]; do
		for c in 0 1 2; do
			sleep 1.2
			case $c in
			0) "$RUNNER" 1 1 "$LAUNCHER" true ;;
			1) "$RUNNER" 1 1 "$TIMEIT" --summary "$F" true ;;
			2) "$RUNNER" 1 1 "$TIMEIT" --no-perf --summary "$F" true ;;
			esac | awk -v r="$r" -v c="$c" '{ $1 = r; $2 = c; print }' >> "$tmp/spaced.raw"
		done
		r=$((r + 1))
	done
	medians "$tmp/spaced.raw" "launcher|timeit --summary F|timeit --no-perf --summary F" \
		> "$tmp/spaced.med"
	report "$tmp/spaced.med"
	echo
fi

# Peak RSS of timeit itself: wait4's ru_maxrss of timeit is the larger of
# its own peak and its children's, so the child is the static nop (about
# 0.5 MiB, below timeit).  The runner forks (-f) so that its own memory
# does not count (see bench/runner.c).
if [ -x "$NOP" ]; then
	"$RUNNER" -f 10 1 "$NOP" :: "$LAUNCHER" "$NOP" :: "$TIMEIT" --summary "$F" "$NOP" :: \
		"$TIMEIT" --summary "$F" true > "$tmp/rss.raw"
	medians "$tmp/rss.raw" "nop alone|launcher nop|timeit --summary F nop|timeit --summary F true" \
		> "$tmp/rss.med"
	rss_report "$tmp/rss.med"
else
	echo "peak RSS: $NOP not built (needs a static libc)"
fi
rm -f "$F"
[ -z "${BENCH_KEEP:-}" ] || cp "$tmp"/*.raw "$tmp"/*.med "$BENCH_KEEP"/
