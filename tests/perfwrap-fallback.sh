#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-perf without a working perf: exit 66 and say so, or with
# --fallback measure with rusage, as timeit --no-perf does (no GNU time:
# TIMEIT_TIME, which the shell version read, changes nothing).
. "$top_srcdir/tests/setup"

PERFWRAP=$top_builddir/perfwrap/timeit-perf
TIMEIT_PERF=$tmp/no-perf-here
export TIMEIT_PERF

# No perf: status 66, the problem named, the command not run.
expect_status 66 "$PERFWRAP" --summary S "$AUX" print ran >out 2>err
grep -q 'no-perf-here: not found' err || fail "no perf: message: $(cat err)"
grep -q -- '--fallback' err || fail "no perf: --fallback not suggested: $(cat err)"
[ ! -s out ] || fail "no perf: the command ran"
[ ! -e S ] || fail "no perf: a summary was written"
echo keep >kept
expect_status 66 "$PERFWRAP" --redirect-stdout kept "$AUX" exit 0 2>err
[ "$(cat kept)" = keep ] || fail "no perf: the redirect file was truncated"

# A perf that cannot count (it fails before running the command).
printf '#!/bin/sh\necho "No permission to enable task-clock event." >&2\nexit 255\n' >bad-perf
chmod +x bad-perf
expect_status 66 env TIMEIT_PERF="$tmp/bad-perf" "$PERFWRAP" "$AUX" print ran >out 2>err
grep -q 'perf cannot count: No permission to enable task-clock event' err ||
	fail "cannot count: message: $(cat err)"
[ ! -s out ] || fail "cannot count: the command ran"

# A perf that cannot count leaves an existing redirect file as it was,
# and removes one it created (timeit-perf(1) had this under BUGS).
echo keep >kept
expect_status 66 env TIMEIT_PERF="$tmp/bad-perf" "$PERFWRAP" --redirect-stdout kept \
	--redirect-stderr new-err "$AUX" exit 0 2>err
[ "$(cat kept)" = keep ] || fail "cannot count: the redirect file was truncated"
[ ! -e new-err ] || fail "cannot count: a redirect file was left"

{
	# --fallback: rusage, one note, the same contract.
	expect_status 3 "$PERFWRAP" --fallback --report-maxrss --summary S \
		--redirect-stdout out "$AUX" burn 200 alloc 32 print ran exit 3 2>err
	grep -q 'note: perf unavailable .*times from rusage' err ||
		fail "--fallback: no note: $(cat err)"
	[ "$(cat out)" = ran ] || fail "--fallback: output: $(cat out)"
	[ "$(awk '{ print $1 }' S | tr '\n' ' ')" = "exit real user sys maxrss " ] ||
		fail "--fallback: summary keys: $(cat S)"
	[ "$(summary_value S exit)" = 3 ] || fail "--fallback: exit line: $(cat S)"
	# rusage's user/sys split is tick-sampled: the lower bound is on the sum.
	in_range "$(cpu_time S)" 0.15 1.5 || fail "--fallback: user + sys $(cpu_time S) for 200 ms"
	in_range "$(lit_user S)" 0 1.5 || fail "--fallback: user $(lit_user S) for 200 ms"
	# The kernel counts RSS in per-CPU batches (up to 512 KiB short).
	in_range "$(summary_value S maxrss)" 33030144 268435456 ||
		fail "--fallback: maxrss $(summary_value S maxrss) for 32 MiB"
	expect_status 139 "$PERFWRAP" -q --fallback --summary S "$AUX" signal 11 2>err
	grep -q '^timeit-perf: error: child terminated by signal 11$' err || fail "--fallback: signal: $(cat err)"
	grep -q 'note:' err && fail "--fallback -q: a note: $(cat err)"
	expect_status 139 "$PERFWRAP" -q --fallback --summary S "$AUX" exit 139 2>err
	[ ! -s err ] || fail "--fallback: exit 139 reported as a signal: $(cat err)"
	# perf failed before running anything: the command runs once, under time.
	expect_status 0 env TIMEIT_PERF="$tmp/bad-perf" "$PERFWRAP" --fallback \
		--summary S "$AUX" print ran >out 2>err
	[ "$(cat out)" = ran ] || fail "--fallback after perf failed: output: $(cat out)"
	grep -q 'note: perf cannot count (No permission' err ||
		fail "--fallback after perf failed: note: $(cat err)"
}

# GNU time is not needed: --fallback and --report-maxrss work without it.
expect_status 0 env TIMEIT_TIME="$tmp/no-time" "$PERFWRAP" -q --fallback --summary S "$AUX" exit 0
[ "$(summary_value S exit)" = 0 ] || fail "--fallback without time: $(cat S)"
unset TIMEIT_PERF
if command -v perf >/dev/null 2>&1 && perf stat -x, -o /dev/null -e task-clock true 2>/dev/null; then
	expect_status 0 env TIMEIT_TIME="$tmp/no-time" "$PERFWRAP" --report-maxrss --summary S \
		"$AUX" alloc 32 2>err
	in_range "$(summary_value S maxrss)" 33030144 268435456 ||
		fail "--report-maxrss under perf: maxrss $(summary_value S maxrss) for 32 MiB"
fi
exit 0
