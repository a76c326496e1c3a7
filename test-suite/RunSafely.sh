#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# RunSafely.sh: run one sample of one benchmark under timeit the way lit
# does, then check its output against the reference.  Never fails itself:
# the verdict goes to OUTBASE.status so that one broken benchmark does not
# stop the suite (the report counts the failures at the end).
#
# usage: RunSafely.sh NAME OUTBASE SUMMARY REFERENCE BINARY [ARG...]
#   OUTBASE.out     the program's output, with "exit N" appended
#   OUTBASE.err     timeit's own messages (TIMING OUT PROCESS, notes)
#   OUTBASE.diff    fpcmp's description of a wrong output
#   OUTBASE.status  one line: pass | fail build | fail timeout |
#                   fail signal N | fail exit N | fail output | fail timeit N
#   SUMMARY         timeit's summary; renamed SUMMARY.wrong-output when the
#                   output is wrong, so no comparison uses its time
# environment: TIMEIT SUITE_TIMEIT_FLAGS RUNTIMELIMIT LIMIT_FILE_SIZE LIMIT_RSS_SIZE
#              FPCMP FP_TOLERANCE FP_ABSTOLERANCE
set -u
name=$1 outbase=$2 summary=$3 reference=$4 binary=$5
shift 5

verdict() {
	echo "$1" > "$outbase.status.tmp" && mv -f "$outbase.status.tmp" "$outbase.status"
	case $1 in
	pass) ;;
	*) echo "$name: $1 (see $outbase.*)" >&2 ;;
	esac
	exit 0
}

rm -f "$summary" "$summary.wrong-output" "$outbase.out" "$outbase.err" "$outbase.diff"
[ -x "$binary" ] || verdict "fail build"

# The arguments lit's timeit module passes (litsupport/modules/timeit.py),
# and --report-maxrss for LNT's mem_bytes;
# SUITE_TIMEIT_FLAGS (TIMEIT_FLAGS, COUNT_INSTRUCTIONS) is split into words on purpose.
# RUNTIMELIMIT=0 means no limit, as --timeout 0 does: --limit-cpu 0 would
# be an RLIMIT_CPU of 0 seconds, so it is left out then.
cpu=$RUNTIMELIMIT
[ "$cpu" != 0 ] || cpu=
# shellcheck disable=SC2086
"$TIMEIT" --timeout "$RUNTIMELIMIT" --limit-core 0 ${cpu:+--limit-cpu $cpu} \
	--limit-file-size "$LIMIT_FILE_SIZE" --limit-rss-size "$LIMIT_RSS_SIZE" \
	--report-maxrss ${SUITE_TIMEIT_FLAGS:-} --redirect-input /dev/null --append-exitstatus \
	--redirect-output "$outbase.out" --summary "$summary" \
	"$binary" "$@" 2> "$outbase.err"
rc=$?
# With --append-exitstatus timeit itself returns 0; anything else is its
# own failure (usage error 1, internal error 66).
if [ "$rc" -ne 0 ] || [ ! -f "$summary" ]; then
	verdict "fail timeit $rc"
fi
status=$(sed -n 's/^exit \([0-9]*\)$/\1/p' "$summary" | sed 1q)
[ -n "$status" ] || verdict "fail timeit summary"
if [ "$status" -ne 0 ]; then
	# Both --timeout and --limit-cpu end in SIGKILL (137); timeit says
	# "PROG: TIMING OUT PROCESS" for the former (the reference and timeit
	# both start it with their name).
	if grep -q 'TIMING OUT PROCESS' "$outbase.err" || [ "$status" -eq 137 ]; then
		verdict "fail timeout"
	elif [ "$status" -gt 128 ]; then
		verdict "fail signal $((status - 128))"
	fi
	verdict "fail exit $status"
fi
if ! "$FPCMP" -r "$FP_TOLERANCE" -a "$FP_ABSTOLERANCE" "$reference" "$outbase.out" \
	> "$outbase.diff" 2>&1; then
	mv -f "$summary" "$summary.wrong-output"
	verdict "fail output"
fi
verdict pass
