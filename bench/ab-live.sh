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
# Each pair runs, under each schedule of SCHEDULES (make ab SCHEDULE=),
# REPS (default 10) times with make ab SAMPLES=auto (the suite's defaults:
# MIN_SAMPLES, AB_LOOK_EVERY, MAX_SAMPLES), then REPS times with a fixed
# SAMPLES that spends the same number of runs in all (the adaptive runs'
# mean, spread evenly over the 12 benchmarks), the repetitions of the
# schedules interleaved.  Per pair, schedule and rule one line: detection
# rate of the +3 % and +10 % benchmarks (verdict regressed), false
# verdicts (improved or regressed where nothing changed, improved where
# it got slower), undecided verdicts, mean runs a side, mean wall time of
# make ab, and benchmarks decided per wall-second.  Then per benchmark
# and schedule: the median over the runs of its median time on A (a
# duet's over the sequential one's is the contention of running two at
# once) and of the width of its interval of B/A (the pair spread).
#
# Equal runs a side are the fixed rules; for equal wall time give both
# schedules one budget (AB_ARGS=AB_BUDGET=SECONDS).
#
# HOG=yes: an outside CPU hog (a busy loop) started and stopped at random
# (on and off for 1 to 5 s each, drawn from HOG_SEED) while each make ab
# runs: the interference a duet exists for.
#
# Environment: TIMEIT, TIMEIT_COMPARE (make bench-ab-live sets both), CC,
# PAIRS (default "live aa": which pairs to run), SCHEDULES (default
# "sequential duet"), HOG (default no), HOG_SEED (default 1),
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

# hog_start SEED / hog_stop: the outside load of HOG=yes, a loop that
# keeps a busy child on for 1 to 5 s, then off for 1 to 5 s, drawn from
# SEED; its pid in $hog.
hog=
hog_start() {
	[ "${HOG:-no}" = yes ] || return 0
	(
		trap 'kill "$burn" 2> /dev/null; exit 0' TERM
		burn=
		# shellcheck disable=SC2013 # one word a duration
		for t in $(awk -v s="$1" 'BEGIN { srand(s); for (i = 0; i < 2000; i++) printf "%d ", 1 + int(rand() * 5) }'); do
			if [ -z "$burn" ]; then
				sh -c 'while :; do :; done' &
				burn=$!
			else
				kill "$burn" 2> /dev/null
				wait "$burn" 2> /dev/null || true
				burn=
			fi
			sleep "$t" &
			wait $!
		done
	) &
	hog=$!
}
hog_stop() {
	[ -n "$hog" ] || return 0
	kill "$hog" 2> /dev/null || true
	wait "$hog" 2> /dev/null || true
	hog=
}
trap 'hog_stop' EXIT

# ab PAIR SCHEDULE RULE REP SAMPLES: one make ab; appends "PAIR SCHEDULE
# RULE REP NAME VERDICT ROUNDS MEDIAN_A CI_WIDTH" lines to $work/verdicts
# and "PAIR SCHEDULE RULE REP RUNS SECONDS DECIDED" to $work/runs.
nab=0
ab() {
	o=$work/$1-$2-$3-$4
	rm -rf "$o"
	if [ "$1" = live ]; then new="CFLAGS='-O2 -DAB_LIVE'"; else new='CFLAGS=-O2'; fi
	nab=$((nab + 1))
	hog_start "$((${HOG_SEED:-1} * 1000 + nab))"
	t0=$(date +%s)
	# shellcheck disable=SC2086 # AB_ARGS: more settings, split on purpose
	make -s -f "$suite/Makefile" ab O="$o" TIMEIT="$TIMEIT" TIMEIT_COMPARE="$TIMEIT_COMPARE" \
		CC="$cc" SIZE=small SAMPLES="$5" BASE='CFLAGS=-O2' NEW="$new" AB_GATE=no \
		SCHEDULE="$2" COMPARE_FLAGS=--no-color ${AB_ARGS:-} > "$o.out" 2>&1 ||
		{ hog_stop; tail -n 20 "$o.out" >&2; echo "ab-live: make ab failed ($o.out)" >&2; exit 1; }
	t1=$(date +%s)
	hog_stop
	# The verdicts from O/ab.csv (its header names the columns), the
	# rounds from O/ab-stop.tsv.
	awk -F, -v p="$1" -v sc="$2" -v r="$3" -v k="$4" -v stop="$o/ab-stop.tsv" '
	# A name in ab-stop.tsv is escaped (\t, \n, \r, \\: timeit-ab(1), FILES).
	function untsv(s,   o, i, c) {
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "\\" && i < length(s)) {
				c = substr(s, ++i, 1)
				c = c == "t" ? "\t" : c == "n" ? "\n" : c == "r" ? "\r" : c
			}
			o = o c
		}
		return o
	}
	BEGIN { while ((getline l < stop) > 0) { split(l, f, "\t"); rounds[untsv(f[1])] = f[2] } }
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ w = ($col["ci_high"] != "" && $col["ci_low"] != "") ? $col["ci_high"] - $col["ci_low"] : "-"
	  print p, sc, r, k, $1, $col["verdict"], rounds[$1], $col["median_a"], w }' "$o/ab.csv" >> "$work/verdicts"
	runs=$(awk -F '\t' '{ n += $2 } END { print n + 0 }' "$o/ab-stop.tsv")
	decided=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "verdict") v = i; next }
		$v == "improved" || $v == "regressed" || $v == "unchanged" { n++ } END { print n + 0 }' "$o/ab.csv")
	echo "$1 $2 $3 $4 $runs $((t1 - t0)) $decided" >> "$work/runs"
	echo "  $1 $2 $3 #$4: $runs runs a side, $((t1 - t0)) s, $decided decided" >&2
}

: > "$work/verdicts"
: > "$work/runs"
schedules=${SCHEDULES:-sequential duet}
echo "ab-live: $reps repetitions a pair, schedule and rule, schedules $schedules, hog ${HOG:-no}," \
	"load $(uptime | sed 's/.*load average: //')" >&2
for pair in ${PAIRS:-live aa}; do
	# The schedules' repetitions interleaved: the machine's drift hits all.
	k=1
	while [ "$k" -le "$reps" ]; do
		for sc in $schedules; do
			ab "$pair" "$sc" auto "$k" auto
		done
		k=$((k + 1))
	done
	# The same runs in all, spread evenly: the adaptive mean over 12, per
	# schedule.
	for sc in $schedules; do
		n=$(awk -v p="$pair" -v sc="$sc" '$1 == p && $2 == sc && $3 == "auto" { s += $5; c++ }
			END { x = s / c / 12; print (x < 2 ? 2 : int(x + 0.5)) }' "$work/runs")
		eval "fixed_$sc=$n"
	done
	k=1
	while [ "$k" -le "$reps" ]; do
		for sc in $schedules; do
			eval "n=\$fixed_$sc"
			ab "$pair" "$sc" "fixed-$n" "$k" "$n"
		done
		k=$((k + 1))
	done
done

printf '%s\n' "$truth_live" > "$work/truth"
echo "ab-live: CC=$cc, hog ${HOG:-no}, load at the end $(uptime | sed 's/.*load average: //')"
printf '%-6s %-10s %-9s %9s %9s %7s %10s %9s %7s %10s\n' pair schedule rule "det. +3%" "det. +10%" \
	false undecided "runs/side" "wall s" "decided/s"
awk '
FILENAME == ARGV[1] { truth[$1] = $2; next }
FILENAME == ARGV[2] { key = $1 " " $2 " " $3; runs[key] += $5; wall[key] += $6; dec[key] += $7; reps[key]++
	if (!(key in seen)) { seen[key] = 1; order[++no] = key }; next }
{
	key = $1 " " $2 " " $3; t = ($1 == "live" && ($5 in truth)) ? truth[$5] : 0
	if (t > 0) { n[key, t]++; if ($6 == "regressed") det[key, t]++; if ($6 == "improved") bad[key]++ }
	else if ($6 == "improved" || $6 == "regressed") bad[key]++
	if ($6 == "undecided" || $6 == "noisy") und[key]++
	all[key]++
}
END {
	for (i = 1; i <= no; i++) {
		key = order[i]; split(key, f, " ")
		d3 = n[key, 3] ? sprintf("%d/%d", det[key, 3], n[key, 3]) : "-"
		d10 = n[key, 10] ? sprintf("%d/%d", det[key, 10], n[key, 10]) : "-"
		printf "%-6s %-10s %-9s %9s %9s %7s %10s %9.1f %7.1f %10.3f\n", f[1], f[2], f[3], d3, d10,
			sprintf("%d/%d", bad[key], all[key]), sprintf("%d/%d", und[key], all[key]),
			runs[key] / reps[key], wall[key] / reps[key], wall[key] ? dec[key] / wall[key] : 0
	}
}' "$work/truth" "$work/runs" "$work/verdicts"
# Per benchmark and schedule (the live pair's adaptive runs): the median
# over the runs of its median time on A, and of the width of its interval
# of ln B/A where one was given.
echo
printf '%-10s %-10s %12s %12s %10s\n' benchmark schedule "median A s" "CI width" contention
awk '$1 == "live" && $3 == "auto" { k = $5 " " $2; a[k] = a[k] " " $8; if ($9 != "-") w[k] = w[k] " " $9
	b[$5] = 1; s[$2] = 1 }
function med(str,   v, n, i, j, t) { n = split(str, v, " "); if (!n) return "";
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
END { for (x in b) for (y in s) { k = x " " y; ma = med(a[k]); mw = med(w[k]); base = med(a[x " sequential"])
	printf "%-10s %-10s %12s %12s %10s\n", x, y, ma, mw == "" ? "-" : sprintf("%.4f", mw),
		(base != "" && base > 0) ? sprintf("%.3f", ma / base) : "-" } }' "$work/verdicts" | sort
