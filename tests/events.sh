#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Event selection for real: software events, --list-events, --strict-events,
# unknown names, and libpfm4 strings when built with it.
. "$top_srcdir/tests/setup"

[ -e /proc/sys/kernel/perf_event_paranoid ] || skip "no perf events on this kernel"
"$TIMEIT" --version | grep -q '^perf events: yes' || skip "built without perf events"

# --list-events: every generic name, task-clock available (software events
# work everywhere perf does).
"$TIMEIT" --list-events >list || fail "--list-events failed"
for ev in task-clock cycles instructions cpu-migrations major-faults emulation-faults; do
	grep -q "^$ev  *\(un\)\{0,1\}available" list || fail "--list-events lacks $ev"
done
# Where the system has no perf_event_open (qemu-user: ENOSYS) or refuses
# this user (perf_event_paranoid: EACCES), there is nothing to count.
why=$(sed -n 's/^task-clock  *unavailable (\(.*\))$/\1/p' list)
case $why in
"$(errno_text ENOSYS)" | "$(errno_text EACCES)" | "$(errno_text EPERM)")
	skip "task-clock cannot be counted here: $why" ;;
esac
grep -q '^task-clock  *available' list || fail "task-clock not available: $why"

# Software events counted on a real child: exact values where exact.
"$TIMEIT" -e task-clock,page-faults,major-faults,cs,cpu-migrations --summary s \
	"$AUX" burn 50 alloc 4 || fail "run failed"
tc=$(summary_value s task-clock)
in_range "$tc" 0.040 2 || fail "task-clock $tc for 50 ms of CPU"
pf=$(summary_value s page-faults)
# 4 MiB touched: at least 1024 faults of 4 KiB pages (fewer only with THP).
[ -n "$pf" ] && [ "$pf" -ge 200 ] || fail "page-faults '$pf' for 4 MiB"
# No major fault once the program's pages are in the page cache.  Under a
# parallel make check a page can be read again (seen once in CI-like
# runs); a second warm run must then have none.
if [ "$(summary_value s major-faults)" != 0 ]; then
	"$TIMEIT" -e major-faults --summary s "$AUX" burn 50 alloc 4 || fail "run failed"
	[ "$(summary_value s major-faults)" = 0 ] ||
		fail "major faults in two warm runs: $(summary_value s major-faults)"
fi

# A group and a user-only modifier.
"$TIMEIT" -e '{task-clock,cs},page-faults:u' --summary s "$AUX" burn 10 || fail "group run"
[ -n "$(summary_value s page-faults:u)" ] || fail "no page-faults:u line"

# Unknown names are a usage error naming the event; nothing runs.
expect_status 1 "$TIMEIT" -e task-clock,no-such-event --summary s2 "$AUX" pidfile ran 2>err
grep -q "no-such-event" err || fail "usage error does not name the event"
[ ! -e ran ] || fail "the command ran despite a bad event"

# --strict-events: an unavailable event fails before the command runs.
if grep -q '^cycles  *unavailable' list; then
	expect_status 66 "$TIMEIT" --strict-events -e task-clock,cycles --summary s3 \
		"$AUX" pidfile ran 2>err
	grep -q "cycles" err || fail "--strict-events does not name the event"
	[ ! -e ran ] || fail "--strict-events ran the command"
	[ ! -e s3 ] || fail "--strict-events wrote a summary"
	# Without it: a note and a normal run.
	"$TIMEIT" -e task-clock,cycles --summary s3 "$AUX" exit 0 2>err || fail "non-strict run"
	grep -q "note: event cycles skipped" err || fail "no note for the skipped event"
	# In perf's words (perf stat's <not supported>), not ENOENT's text.
	if grep -q '^cycles  *unavailable (not supported on this machine)$' list; then
		grep -qx "timeit: note: event cycles skipped: not supported on this machine" err ||
			fail "skipped cycles: $(cat err)"
	fi
	grep -q 'No such file or directory' list err && fail "ENOENT's text for an event: $(cat list err)"
else
	expect_status 0 "$TIMEIT" --strict-events -e task-clock,cycles --summary s3 "$AUX" exit 0
fi
expect_status 0 "$TIMEIT" --strict-events -e task-clock,cs --summary s3 "$AUX" exit 0
# A command that cannot be executed counted nothing: 127 or 126 as always,
# not an event failure, and no "never scheduled" note.
expect_status 127 "$TIMEIT" --strict-events -e task-clock --summary s3 ./no-such-command 2>err
[ "$(summary_value s3 exit)" = 127 ] || fail "--strict-events, exec failure: $(cat s3)"
expect_status 127 "$TIMEIT" -e task-clock --summary s3 ./no-such-command 2>err
grep -q "never scheduled" err && fail "exec failure noted as never scheduled: $(cat err)"

# libpfm4 strings, when built with it.
if "$TIMEIT" --version | grep -q '^libpfm4: yes'; then
	grep -q '^# libpfm4 PMU perf:' list || fail "libpfm4's perf PMU not listed"
	grep -q '^perf::TASK-CLOCK  *available' list || fail "perf::TASK-CLOCK not available"
	"$TIMEIT" -e perf::TASK-CLOCK,perf::PAGE-FAULTS:u --summary s4 "$AUX" burn 20 ||
		fail "libpfm4 events run"
	v=$(summary_value s4 perf::TASK-CLOCK)
	# The libpfm4 spelling is not recognised as a time: nanoseconds.
	in_range "$v" 15000000 2000000000 || fail "perf::TASK-CLOCK $v ns for 20 ms"
	expect_status 1 "$TIMEIT" -e perf::no-such-thing "$AUX" exit 0 2>err
	grep -q "perf::no-such-thing" err || fail "libpfm4 error does not name the event"
else
	grep -q '^# libpfm4: not built in' list || fail "no libpfm4 line"
fi
exit 0
