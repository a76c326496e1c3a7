#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/ab-live.sh [REPS]: the adaptive A/B of the bundled suite on a
# machine, against a known truth.
#
# Two build pairs of the bundled benchmarks at SIZE=small:
#   live  CFLAGS=-O2 against CFLAGS='-O2 -DAB_LIVE': the knob AB_LIVE adds
#         3 % more work of the same kind to nbody and lcs and 10 % to
#         matmul and tak (after their output, so the output is the same);
#         the other 8 benchmarks do not read it: their binaries are the
#         same on both sides.
#   aa    CFLAGS=-O2 on both sides, two build directories: nothing changed.
# Each pair runs REPS (default 10) times with make ab SAMPLES=auto (the
# suite's defaults: MIN_SAMPLES, AB_LOOK_EVERY, MAX_SAMPLES), then REPS
# times with a fixed SAMPLES that spends the same number of runs in all
# (the adaptive runs' mean, spread evenly over the 12 benchmarks).  Per
# pair and rule one line: detection rate of the +3 % and +10 % benchmarks
# (verdict regressed), false verdicts (improved or regressed where nothing
# changed, improved where it got slower), undecided verdicts, mean runs a
# side, mean wall time of make ab, over all REPS.
#
# Environment: TIMEIT, TIMEIT_COMPARE (make bench-ab-live sets both), CC,
# PAIRS (default "live aa": which pairs to run),
# AB_ARGS (more make ab settings, e.g. MAX_SAMPLES=20), KEEP=DIR (keep
# every run's output under DIR).
set -eu
LC_ALL=C
export LC_ALL
: "${TIMEIT:?TIMEIT must name the timeit binary}"
: "${TIMEIT_COMPARE:?TIMEIT_COMPARE must name the timeit-compare binary}"
reps=${1:-10}
suite=$(cd "$(dirname "$0")/../test-suite" && pwd)
cc=${CC:-cc}
work=${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/timeit-ablive.XXXXXX")}
mkdir -p "$work"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT INT TERM
unset MAKEFLAGS MFLAGS MAKELEVEL

# The truth: the change of each benchmark in the live pair, in percent.
truth_live='nbody 3
lcs 3
matmul 10
tak 10'

# ab PAIR RULE REP SAMPLES: one make ab; appends "PAIR RULE REP NAME VERDICT
# ROUNDS" lines to $work/verdicts and "PAIR RULE REP RUNS SECONDS" to
# $work/runs.
ab() {
	o=$work/$1-$2-$3
	rm -rf "$o"
	if [ "$1" = live ]; then new="CFLAGS='-O2 -DAB_LIVE'"; else new='CFLAGS=-O2'; fi
	t0=$(date +%s)
	# shellcheck disable=SC2086 # AB_ARGS: more settings, split on purpose
	make -s -f "$suite/Makefile" ab O="$o" TIMEIT="$TIMEIT" TIMEIT_COMPARE="$TIMEIT_COMPARE" \
		CC="$cc" SIZE=small SAMPLES="$4" BASE='CFLAGS=-O2' NEW="$new" AB_GATE=no \
		COMPARE_FLAGS=--no-color ${AB_ARGS:-} > "$o.out" 2>&1 ||
		{ tail -n 20 "$o.out" >&2; echo "ab-live: make ab failed ($o.out)" >&2; exit 1; }
	t1=$(date +%s)
	# The verdicts from O/ab.csv (its header names the columns), the
	# rounds from O/ab-stop.tsv.
	awk -F, -v p="$1" -v r="$2" -v k="$3" -v stop="$o/ab-stop.tsv" '
	BEGIN { while ((getline l < stop) > 0) { split(l, f, "\t"); rounds[f[1]] = f[2] } }
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == "verdict") v = i; next }
	{ print p, r, k, $1, $v, rounds[$1] }' "$o/ab.csv" >> "$work/verdicts"
	runs=$(awk -F '\t' '{ n += $2 } END { print n + 0 }' "$o/ab-stop.tsv")
	echo "$1 $2 $3 $runs $((t1 - t0))" >> "$work/runs"
	echo "  $1 $2 #$3: $runs runs a side, $((t1 - t0)) s" >&2
}

: > "$work/verdicts"
: > "$work/runs"
echo "ab-live: $reps repetitions a pair and rule, load $(uptime | sed 's/.*load average: //')" >&2
for pair in ${PAIRS:-live aa}; do
	k=1
	while [ "$k" -le "$reps" ]; do
		ab "$pair" auto "$k" auto
		k=$((k + 1))
	done
	# The same runs in all, spread evenly: the adaptive mean over 12.
	n=$(awk -v p="$pair" '$1 == p && $2 == "auto" { s += $4; c++ } END { x = s / c / 12; print (x < 2 ? 2 : int(x + 0.5)) }' "$work/runs")
	k=1
	while [ "$k" -le "$reps" ]; do
		ab "$pair" "fixed-$n" "$k" "$n"
		k=$((k + 1))
	done
done

printf '%s\n' "$truth_live" > "$work/truth"
echo "ab-live: CC=$cc, load at the end $(uptime | sed 's/.*load average: //')"
printf '%-6s %-9s %10s %10s %7s %10s %10s %8s\n' pair rule "det. +3%" "det. +10%" false undecided "runs/side" "wall s"
awk '
FILENAME == ARGV[1] { truth[$1] = $2; next }
FILENAME == ARGV[2] { key = $1 " " $2; runs[key] += $4; wall[key] += $5; reps[key]++
	if (!(key in seen)) { seen[key] = 1; order[++no] = key }; next }
{
	key = $1 " " $2; t = ($1 == "live" && ($4 in truth)) ? truth[$4] : 0
	if (t > 0) { n[key, t]++; if ($5 == "regressed") det[key, t]++; if ($5 == "improved") bad[key]++ }
	else if ($5 == "improved" || $5 == "regressed") bad[key]++
	if ($5 == "undecided" || $5 == "noisy") und[key]++
	all[key]++
}
END {
	for (i = 1; i <= no; i++) {
		key = order[i]; split(key, f, " ")
		d3 = n[key, 3] ? sprintf("%d/%d", det[key, 3], n[key, 3]) : "-"
		d10 = n[key, 10] ? sprintf("%d/%d", det[key, 10], n[key, 10]) : "-"
		printf "%-6s %-9s %10s %10s %7s %10s %10.1f %8.1f\n", f[1], f[2], d3, d10,
			sprintf("%d/%d", bad[key], all[key]), sprintf("%d/%d", und[key], all[key]),
			runs[key] / reps[key], wall[key] / reps[key]
	}
}' "$work/truth" "$work/runs" "$work/verdicts"
