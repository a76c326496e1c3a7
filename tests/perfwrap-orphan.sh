#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A perf that exits without reaping the command.  perf stat's SIGCHLD
# handler sets child_pid to -1, so a command that ends before perf reaches
# its wait4 is never waited for: perf exits 0 (its status variable is
# still 0) and leaves the command a zombie for init (seen 1-3 runs in 60
# under load 5).  The pidfd's exit status exists only once the zombie is
# reaped, by whoever is its parent then: timeit-perf must not lose it.
. "$top_srcdir/tests/setup"

PERFWRAP=$top_builddir/perfwrap/timeit-perf

# The scripted perf: starts the command and becomes a process that never
# waits (exec), exiting 0 after $LINGER s, the command a zombie by then;
# its CSV says duration_time 0, as perf's does when it skipped wait4.
cat >fake-perf <<'EOF2'
#!/bin/sh
while [ $# -gt 0 ]; do
	[ "$1" = -- ] && { shift; break; }
	shift
done
tab=$(printf '\t')
printf '%s\n' "0${tab}ns${tab}duration_time${tab}0${tab}100.00${tab}${tab}"
"$@" &
exec sleep "${LINGER:-0.3}"
EOF2
chmod +x fake-perf
TIMEIT_PERF=$tmp/fake-perf
export TIMEIT_PERF

for st in 3 0 7; do
	rm -f s
	expect_status "$st" "$PERFWRAP" --summary s "$AUX" exit "$st" 2>err
	[ "$(summary_value s exit)" = "$st" ] || fail "exit $st: summary says: $(cat s)"
done
# A signal is the command's too (timeit: 128 + the signal).
rm -f s
expect_status 143 "$PERFWRAP" --summary s "$AUX" signal 15 2>err

# The real time is the command's: from the helper's start to the
# command's end (200 ms), not perf's 0, nor perf's own end (1 s later).
rm -f s
expect_status 3 env LINGER=1.2 "$PERFWRAP" --summary s "$AUX" sleep 200 exit 3 2>err
real=$(summary_value s real)
in_range "$real" 0.19 0.9 || fail "real $real for a 200 ms command (perf lingered 1.2 s)"
# ... and so in fork mode (--report-maxrss; the only mode where no pidfd
# tells a command's exit status), where the helper is perf's child and
# tells the status and the end itself.
rm -f s
expect_status 3 env LINGER=1.2 "$PERFWRAP" --summary s --report-maxrss "$AUX" sleep 200 exit 3 2>err
real=$(summary_value s real)
in_range "$real" 0.19 0.9 || fail "fork mode: real $real for a 200 ms command (perf lingered 1.2 s)"
[ "$(summary_value s exit)" = 3 ] || fail "fork mode: summary says: $(cat s)"
