#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The timeout hits a command that ignores SIGTERM and has forked
# grandchildren: every process of the tree dies, the summary is written,
# and nothing is left running.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"

# dead PID: the process is gone, or a zombie waiting for a parent that is
# not timeit (grandchildren are re-parented; PID 1 may not reap them),
# within 10 s: a killed process still has to be scheduled to exit.
need_proc
dead() {
	_n=0
	while [ -e "/proc/$1" ]; do
		state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 0
		{ [ "$state" = Z ] || [ "$state" = X ]; } && return 0
		_n=$((_n + 1))
		[ "$_n" -le 200 ] || return 1
		sleep 0.05
	done
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
# The tree must be set up before the timeout: 1 s, and on a loaded or
# emulated machine where that was not enough, longer.
for t in 1 5 20; do
	rm -f pids started aux.pid s err
	expect_status 137 "$TIMEIT" -t "$t" --summary s sh tree.sh 2> err
	[ -f started ] && break
	echo "note: the tree was not set up within $t s; again" >&2
done
[ -f started ] || fail "the tree never started"
[ "$(head -n 1 s)" = "exit 137" ] || fail "summary after the timeout: $(cat s)"
grep -q "^$TIMEIT_NAME: TIMING OUT PROCESS" err || fail "no timeout message: $(cat err)"
[ "$(wc -l < pids)" -eq 5 ] || fail "pids: $(cat pids)"
while read -r p; do
	dead "$p" || fail "process $p survived the timeout"
done < pids
# The two sleepers timeit-aux spawned: any process still in the group?
group_gone "$(tail -n 1 pids)"
exit 0
