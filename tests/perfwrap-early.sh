#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-perf when perf misbehaves (a scripted perf, TIMEIT_PERF):
# - a perf that never starts the command: --timeout (plus 10 s for
#   perf's start) and SIGTERM end it (status 137, as for the command),
#   and no perf is left behind;
# - a perf that exits, or is killed, while the command runs: said, and
#   the command kept and waited for (its own status, times from rusage),
#   not killed by timeit-perf and reported as signal 9;
# - perf's numbers: "1e999" is no time (never "inf"), a duration_time
#   <not counted> leaves timeit-perf's own clock, an event name with a
#   blank is one summary key.
. "$top_srcdir/tests/setup"

PERFWRAP=$top_builddir/perfwrap/timeit-perf
need_proc

# A perf that never runs the command: it writes its pid and sleeps.
cat >hung-perf <<'EOF2'
#!/bin/sh
echo $$ > "$PIDFILE"
exec sleep 30
EOF2
# What both fake perfs start with: perf's options up to "--" dropped.
cat >perf-args <<'EOF2'
while [ $# -gt 0 ]; do
	[ "$1" = -- ] && { shift; break; }
	shift
done
EOF2
# A perf that starts the command, then exits (or kills itself) at once.
cat >early-perf <<'EOF2'
#!/bin/sh
. "$PERFARGS"
"$@" &
sleep 0.2
[ "${DIE:-}" ] && kill -9 $$
exit 0
EOF2
# A perf whose CSV is odd, and that waits for the command as perf does.
cat >odd-perf <<'EOF2'
#!/bin/sh
. "$PERFARGS"
"$@"
st=$?
t=$(printf '\t')
printf '%s\n' "1e999${t}ns${t}duration_time${t}0${t}100.00${t}${t}" \
	"50.00${t}msec${t}task-clock${t}50000000${t}100.00${t}${t}" \
	"7${t}${t}my event${t}50000000${t}100.00${t}${t}" \
	"<not counted>${t}ns${t}user_time${t}0${t}100.00${t}${t}"
exit $st
EOF2
chmod +x hung-perf early-perf odd-perf
PIDFILE=$tmp/perf.pid PERFARGS=$tmp/perf-args
export PIDFILE PERFARGS

# --timeout bounds a perf that never starts the command: N + 10 s.
start=$(date +%s)
expect_status 137 env TIMEIT_PERF="$tmp/hung-perf" "$PERFWRAP" -t 1 --summary s \
	"$AUX" exit 0 2>err
el=$(($(date +%s) - start))
[ "$el" -ge 10 ] && [ "$el" -le 20 ] || fail "-t 1 with a hung perf took $el s, not 11"
grep -q 'TIMING OUT PROCESS' err || fail "no word of the timeout: $(cat err)"
[ "$(summary_value s exit)" = 137 ] && [ "$(summary_value s user)" = 0.0000 ] ||
	fail "summary of a run cut before the command: $(cat s)"
pid=$(cat perf.pid)
group_gone "$pid"

# SIGTERM too.
rm -f perf.pid
TIMEIT_PERF=$tmp/hung-perf "$PERFWRAP" --summary s "$AUX" exit 0 2>err &
term_when perf.pid $!
[ "$st" -eq 137 ] || fail "SIGTERM with a hung perf: status $st, not 137: $(cat err)"
[ "$(summary_value s exit)" = 137 ] || fail "SIGTERM with a hung perf: summary: $(cat s)"
group_gone "$(cat perf.pid)"

# perf exits while the command runs: the command's status and times.
rm -f s
expect_status 3 env TIMEIT_PERF="$tmp/early-perf" "$PERFWRAP" --summary s \
	"$AUX" burn 100 sleep 500 exit 3 2>err
grep -q 'perf exited 0 before the command ended' err || fail "perf's exit unsaid: $(cat err)"
[ "$(summary_value s exit)" = 3 ] || fail "exit: $(cat s)"
real=$(summary_value s real)
in_range "$real" 0.55 30 || fail "real $real for a 600 ms command"
in_range "$(cpu_time s)" 0.05 30 || fail "user+sys $(cpu_time s) for a 100 ms burn"
# ... or is killed.
rm -f s
expect_status 0 env DIE=1 TIMEIT_PERF="$tmp/early-perf" "$PERFWRAP" --summary s \
	"$AUX" sleep 500 2>err
grep -q 'perf was killed by signal 9 before the command ended' err ||
	fail "perf's death unsaid: $(cat err)"
[ "$(summary_value s exit)" = 0 ] || fail "exit: $(cat s)"

# Odd numbers and names.
rm -f s
expect_status 0 env TIMEIT_PERF="$tmp/odd-perf" "$PERFWRAP" --summary s -e 'task-clock' \
	"$AUX" sleep 300 2>err
real=$(summary_value s real)
case $real in *inf* | *nan*) fail "real $real from perf's 1e999" ;; esac
in_range "$real" 0.25 30 || fail "real $real: not timeit-perf's clock for a 300 ms command"
awk 'NF != 2 { bad = 1 } END { exit bad }' s || fail "a summary line not 'key value': $(cat s)"
[ "$(summary_value s my_event)" = 7 ] || fail "the event 'my event' not one key: $(cat s)"
exit 0
