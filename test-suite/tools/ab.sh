#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# ab.sh: the end of "make ab": a report per side, timeit-compare's verdict
# table (identical binaries are "same code" there: AB_COMPARE_ARGS has
# --binaries), the rounds table, and the exit status.
#
# usage: ab.sh SRCDIR O SAMPLES GATE DIR/NAME...
# environment: AB_BASE AB_NEW (make arguments of each side), TIMEIT_COMPARE,
#   AB_COMPARE_ARGS (COMPARE_FLAGS and --binaries), TIMEIT; O/ab-looks the looks
# O/ab-stop.tsv (tools/ab-rounds.sh) gives each benchmark's rounds and why
# its sampling stopped: printed after the table.
# Exit status: 2 timeit-compare failed, 1 a run failed or (GATE=yes) a
# significant regression, 0 otherwise.
set -u
srcdir=$1 out=$2 samples=$3 gate=$4
shift 4
st=0

# Each side's report, with the run info that side's make used (written by
# its "make build" to O/SIDE/Output/report-env: compiler, version, flags,
# the start time and revision of the whole run).
for side in A B; do
	if [ "$side" = A ]; then args=$AB_BASE; else args=$AB_NEW; fi
	(
		env=$out/$side/Output/report-env
		[ -f "$env" ] || { echo "ab: $env: missing (did the build of side $side run?)" >&2; exit 1; }
		eval "$(cat "$env")"
		export CC CFLAGS CPPFLAGS LDFLAGS CC_VERSION START_TIME REVISION SIZE SHARD
		echo "== $side: $args"
		sh "$srcdir/tools/report.sh" -q "$out/$side" "$out/$side/results" "$samples" "$@"
	) || st=1
done

echo "== $TIMEIT_COMPARE A B"
cst=0
# The looks the driver planned (timeit-ab --suite writes O/ab-looks; 0: a
# fixed count, no looks).
looks=
if [ -f "$out/ab-looks" ] && [ "$(cat "$out/ab-looks")" != 0 ]; then
	looks="--looks $(cat "$out/ab-looks")"
fi
# COMPARE_FLAGS is split into words on purpose.
# shellcheck disable=SC2086
"$TIMEIT_COMPARE" ${AB_COMPARE_ARGS:-} $looks --svg "$out/ab.svg" "$out/A/results" "$out/B/results" \
	> "$out/ab.txt" || cst=$?
# The same verdicts as CSV, for scripts (make demo-aa, bench/ab-live).
# shellcheck disable=SC2086
"$TIMEIT_COMPARE" ${AB_COMPARE_ARGS:-} $looks --format csv "$out/A/results" "$out/B/results" \
	> "$out/ab.csv" 2> /dev/null || { c=$?; [ "$c" -le 1 ] || cst=$c; }
cat "$out/ab.txt"
if [ -f "$out/ab-stop.tsv" ]; then
	echo "== rounds: how many each benchmark got, and why its sampling stopped"
	awk -F '\t' '{ printf "%-24s %6s  %s\n", $1, $2, $3 }
	BEGIN { printf "%-24s %6s  %s\n", "benchmark", "rounds", "stopped" }' "$out/ab-stop.tsv"
fi
[ -f "$out/ab.svg" ] && echo "plot: $out/ab.svg"
case $cst in
0) ;;
1) [ "$gate" = no ] || st=1 ;;
*)
	echo "ab: $TIMEIT_COMPARE failed (status $cst)" >&2
	st=2
	;;
esac
exit $st
