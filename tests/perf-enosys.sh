#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A system without perf_event_open (ENOSYS: a kernel without
# CONFIG_PERF_EVENTS, qemu-user) is a system without perf events: the
# default run falls back to rusage as quietly as a build without them,
# events asked for with -e are noted, --list-events says why.  strace
# injects the ENOSYS.
. "$top_srcdir/tests/setup"

"$TIMEIT" --version | grep -qx 'perf events: yes' || skip "built without perf events"
command -v strace > /dev/null 2>&1 && strace -o /dev/null true 2> /dev/null ||
	skip "no strace that can trace here"
# LeakSanitizer cannot run under a tracer (it ptraces the process itself).
nosys() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -o /dev/null -e trace=perf_event_open -e inject=perf_event_open:error=ENOSYS \
		"$TIMEIT" "$@"
}
enosys=$(errno_text ENOSYS)

# The default events: no note, the rusage times, the run as usual.
expect_status 3 nosys --summary s "$AUX" burn 20 exit 3 2> err
[ ! -s err ] || fail "a note with the default events: $(cat err)"
[ "$(summary_value s exit)" = 3 ] || fail "summary: $(cat s)"
! grep -q '^task-clock ' s || fail "a task-clock line without perf events: $(cat s)"
# Under strace each of burn's clock reads stops in the kernel: most of its
# CPU time may be charged to sys, so the lower bound is on the sum.
in_range "$(cpu_time s)" 0.015 5 || fail "user + sys from rusage: $(cat s)"
in_range "$(lit_user s)" 0 5 || fail "user from rusage: $(cat s)"
# ... with --json too: the source is rusage, the reason recorded.
expect_status 0 nosys --summary s --json j "$AUX" exit 0 2> err
[ ! -s err ] || fail "a note with --json: $(cat err)"
grep -q '"source": "rusage"' j || fail "JSON source: $(cat j)"
# -v says what happened.
expect_status 0 nosys -v --summary s "$AUX" exit 0 2> err
grep -q "note: no perf counter could be opened ($enosys)" err || fail "-v: $(cat err)"

# Events asked for: each one noted, then the fallback.
expect_status 0 nosys -e task-clock --summary s "$AUX" exit 0 2> err
grep -q "^timeit: note: event task-clock skipped: $enosys\$" err || fail "-e task-clock: $(cat err)"
grep -q "note: no perf counter could be opened ($enosys)" err || fail "-e task-clock: $(cat err)"
# --strict-events fails on it, as on any event that cannot count.
expect_status 66 nosys --strict-events -e task-clock --summary s "$AUX" exit 0 2> err
grep -q "^timeit: --strict-events: event task-clock: $enosys\$" err || fail "--strict-events: $(cat err)"
# --list-events gives the reason per event.
nosys --list-events > list 2> /dev/null || fail "--list-events failed"
grep -q "^task-clock  *unavailable ($enosys)\$" list || fail "--list-events: $(grep task-clock list)"
exit 0
