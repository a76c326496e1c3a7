#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The reliability batch (tests/reliability-*.sh: signal storms, timeouts,
# full disks, inherited descriptors and masks, standard streams, runs side
# by side) run against timeit-perf instead of timeit: the same contract,
# the same checks.  A script that is about timeit alone skips itself.
. "$top_srcdir/tests/setup"

PERFWRAP=$top_builddir/perfwrap/timeit-perf
[ -x "$PERFWRAP" ] || fail "$PERFWRAP was not built"
command -v perf >/dev/null 2>&1 || skip "perf is not installed (linux-perf)"
perf stat -x, -o /dev/null -e task-clock true 2>/dev/null ||
	skip "perf cannot count task-clock here"
ran=0
for t in "$top_srcdir"/tests/reliability-*.sh; do
	name=${t##*/}
	# memcheck on a static timeit-perf and perf's children is the C
	# program's check already (it runs the same lib/).
	[ "$name" != reliability-valgrind.sh ] || continue
	set +e
	TIMEIT=$PERFWRAP sh "$t" >"$name.log" 2>&1
	st=$?
	set -e
	case $st in
	0) ran=$((ran + 1)) ;;
	77) echo "note: $name: $(grep '^SKIP' "$name.log")" >&2 ;;
	*) fail "$name against timeit-perf: $(tail -n 5 "$name.log")" ;;
	esac
done
[ "$ran" -gt 0 ] || fail "no reliability test ran"
echo "$ran reliability tests pass against timeit-perf"
exit 0
