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
trap 'rm -rf "$tmp"' EXIT INT TERM

# medians FILE NAME...: per command index, the median ns per run (in
# microseconds), the coefficient of variation over rounds and the largest
# maxrss, one line per command, labelled with the NAMEs in index order.
medians() {
	f=$1
	shift
	sort -k2,2n -k3,3n "$f" | awk -v names="$*" '
	BEGIN { n_names = split(names, label, "|") }
	{ i = $2; c = ++n[i]; v[i, c] = $3; s[i] += $3; ss[i] += $3 * $3
	  if ($4 > rss[i]) rss[i] = $4 }
	END {
		for (i = 0; i in n; i++) {
			c = n[i]
			med = (c % 2) ? v[i, (c + 1) / 2] : (v[i, c / 2] + v[i, c / 2 + 1]) / 2
			mean = s[i] / c
			var = ss[i] / c - mean * mean
			cv = mean > 0 && var > 0 ? sqrt(var) / mean * 100 : 0
			printf "%d %.1f %.1f %d %s\n", i, med / 1000, cv, rss[i], label[i + 1]
		}
	}'
}
