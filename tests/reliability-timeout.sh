#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The timeout hits a command that ignores SIGTERM and has forked
# grandchildren: every process of the tree dies, the summary is written,
# and nothing is left running.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"

# dead PID: the process is gone, or a zombie waiting for a parent that is
# not timeit (grandchildren are re-parented; PID 1 may not reap them).
need_proc
dead() {
	[ ! -e "/proc/$1" ] && return 0
	state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 0
	[ "$state" = Z ] || [ "$state" = X ]
}

cat > tree.sh <<'EOS'
trap '' TERM INT HUP
for i in 1 2 3 4; do
	sh -c 'trap "" TERM; sleep 300' &
	echo $! >> pids
done
"$AUX" spawn 2 300000 pidfile aux.pid
echo $$ >> pids
echo started > started
wait
EOS
export AUX
expect_status 137 "$TIMEIT" -t 1 --summary s sh tree.sh 2> err
[ -f started ] || fail "the tree never started"
[ "$(head -n 1 s)" = "exit 137" ] || fail "summary after the timeout: $(cat s)"
grep -q '^timeit: TIMING OUT PROCESS' err || fail "no timeout message: $(cat err)"
[ "$(wc -l < pids)" -eq 5 ] || fail "pids: $(cat pids)"
while read -r p; do
	dead "$p" || fail "process $p survived the timeout"
done < pids
# The two sleepers timeit-aux spawned: any process still in the group?
pgid=$(tail -n 1 pids)
sleep 0.1
survivors=$(ps -eo pgid=,stat=,pid= | awk -v g="$pgid" '$1 == g && $2 !~ /^Z/ { print $3 }')
[ -z "$survivors" ] || fail "still running in the command's group: $survivors"
exit 0
