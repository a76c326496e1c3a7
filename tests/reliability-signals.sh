#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# SIGINT, SIGTERM and SIGHUP storms at timeit: while the command runs and
# while timeit is still starting.  Whatever arrives, the command's group
# dies, timeit exits 137 with the summary written (or, hit before it could
# install its handlers, dies of the signal before starting anything), and
# no command is left running.
# A caller that ignores SIGHUP (nohup, some CI runners) passes the ignore
# to every job started here, and env --default-signal=HUP resets it only
# once env runs: a storm that ends before then is discarded whole (SIGINT
# is ignored in a background job too) and timeit, rightly untouched, runs
# the command to its end.  So the shell itself starts with SIGHUP at its
# default, and every job inherits that.
if [ -z "${SIGNALS_HUP_DEFAULT:-}" ] && env --default-signal=HUP true 2>/dev/null; then
	SIGNALS_HUP_DEFAULT=1 exec env --default-signal=HUP sh "$0" "$@"
fi
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"

need_proc
alive() {
	[ -e "/proc/$1" ] || return 1
	state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 1
	[ "$state" != Z ] && [ "$state" != X ]
}

# storm SIG...: 30 rounds of the signals at $pid, as fast as kill goes.
storm() {
	k=0
	while [ "$k" -lt 30 ]; do
		for sig in "$@"; do
			kill -s "$sig" "$pid" 2>/dev/null || return 0
		done
		k=$((k + 1))
	done
}

# While the command runs.
for sigs in INT TERM HUP "INT TERM HUP" "HUP HUP INT TERM"; do
	rm -f s p
	# shellcheck disable=SC2086 # a word list
	$DFLSIG "$TIMEIT" --summary s "$AUX" pidfile p sleep 30000 2> err &
	pid=$!
	wait_for_file p
	# shellcheck disable=SC2086
	storm $sigs
	set +e
	wait "$pid"
	st=$?
	set -e
	[ "$st" -eq 137 ] || fail "storm '$sigs': timeit exited $st: $(cat err)"
	[ "$(head -n 1 s)" = "exit 137" ] || fail "storm '$sigs': summary: $(cat s)"
	grep -q "^$TIMEIT_NAME"': error: received signal [0-9]*\. killing monitored process(es): ' err ||
		fail "storm '$sigs': no message: $(cat err)"
	child=$(cat p)
	sleep 0.05
	alive "$child" && fail "storm '$sigs': the command $child survived"
done

# While timeit starts: the signal races handler set-up, fork and exec.
i=0
while [ "$i" -lt 20 ]; do
	rm -f s p
	# shellcheck disable=SC2086 # a word list
	$DFLSIG "$TIMEIT" --summary s "$AUX" pidfile p sleep 30000 2> err &
	pid=$!
	case $((i % 3)) in
	0) storm TERM ;;
	1) storm INT HUP ;;
	2) sleep 0.001; storm HUP TERM INT ;;
	esac
	set +e
	wait "$pid"
	st=$?
	set -e
	case $st in
	137) [ "$(head -n 1 s)" = "exit 137" ] || fail "start race $i: summary: $(cat s)" ;;
	129 | 130 | 143) [ ! -e s ] || fail "start race $i: killed by a signal yet a summary exists" ;;
	*) fail "start race $i: timeit exited $st: $(cat err)" ;;
	esac
	if [ -s p ]; then
		sleep 0.05
		alive "$(cat p)" && fail "start race $i: the command $(cat p) survived"
	fi
	i=$((i + 1))
done
[ -z "$(find . -name '.*.tmp.*')" ] || fail "temporary files left: $(find . -name '.*.tmp.*')"
exit 0
