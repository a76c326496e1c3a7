#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# SIGINT, SIGTERM and SIGHUP to timeit while the command runs: the
# command's whole process group is killed, status 137 with the reference's
# message, and the summary is still written.  The command leads its own
# process group, and starts with default signal dispositions.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"

# The command leads its own group (the group timeit kills).
expect_status 0 "$TIMEIT" --summary s "$AUX" pgrp >out
[ "$(cat out)" = "pgid==pid" ] || fail "the command does not lead its process group: $(cat out)"

# The numbers are fixed by POSIX (kill(1), XSI): HUP 1, INT 2, TERM 15.
for sig in INT:2 TERM:15 HUP:1; do
	name=${sig%:*}
	num=${sig#*:}
	rm -f pf s
	# A background job of a non-interactive shell starts with SIGINT
	# ignored; timeit installs its handlers regardless.
	# shellcheck disable=SC2086 # a word list
	$DFLSIG "$TIMEIT" --summary s "$AUX" pidfile pf spawn 2 30000 sleep 30000 2>err &
	timeit_pid=$!
	# pf is written after exec: timeit's handlers are in place by then.
	wait_for_file pf
	child=$(cat pf)
	kill -s "$name" "$timeit_pid"
	wait_status "$timeit_pid"
	[ "$got" -eq 137 ] || fail "SIG$name to timeit: status $got, expected 137"
	grep -qx "timeit: error: received signal $num. killing monitored process(es): $AUX" err ||
		fail "SIG$name: stderr is '$(cat err)'"
	[ "$(sed -n 1p s)" = "exit 137" ] || fail "SIG$name: summary is '$(cat s 2>/dev/null)'"
	sed -n 2p s | grep -Eq '^real +[0-9]+\.[0-9]{4}$' || fail "SIG$name: no real line"
	# The command and the grandchildren it left are gone.
	group_gone "$child"
done

# The command starts with an empty signal mask and no signal ignored, even
# when timeit itself was started with signals ignored.
expect_status 0 "$TIMEIT" --summary s "$AUX" sigstate >out
[ "$(cat out)" = "mask 0 ignored 0" ] || fail "the command's signal state: $(cat out)"
(
	trap '' INT QUIT USR1 PIPE
	exec "$TIMEIT" --summary s "$AUX" sigstate
) >out
[ "$(cat out)" = "mask 0 ignored 0" ] || fail "ignored signals leaked to the command: $(cat out)"

# A signal that the command ignores does not make timeit wait forever:
# the group gets SIGKILL.
rm -f pf
"$TIMEIT" --summary s "$AUX" ignore 15 pidfile pf sleep 30000 2>err &
timeit_pid=$!
wait_for_file pf
kill -s TERM "$timeit_pid"
wait_status "$timeit_pid"
[ "$got" -eq 137 ] || fail "SIGTERM with the command ignoring it: status $got"
group_gone "$(cat pf)"

# Started with SIGCHLD ignored (perl can set that up and exec), the kernel
# would reap the command itself and wait4 would find no child: timeit
# restores the default.
if command -v perl > /dev/null 2>&1; then
	rm -f s
	expect_status 3 perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV or die' \
		"$TIMEIT" --summary s "$AUX" exit 3
	[ "$(sed -n 1p s)" = "exit 3" ] || fail "SIGCHLD ignored: summary is '$(cat s 2>/dev/null)'"
fi

# Under nohup (SIGHUP ignored), a hangup does not stop timeit.
if command -v perl > /dev/null 2>&1; then
	rm -f pf s
	perl -e '$SIG{HUP} = "IGNORE"; exec @ARGV or die' \
		"$TIMEIT" --summary s "$AUX" pidfile pf sleep 300 &
	tpid=$!
	wait_for_file pf
	kill -s HUP "$tpid"
	wait_status "$tpid"
	[ "$got" -eq 0 ] || fail "SIGHUP under nohup stopped timeit: status $got"
fi

# A signal that comes after the command ended on its own does not make its
# run a killed one, and one between runs of a series starts no further run
# (which would truncate the output files).  strace holds timeit just after
# wait4 returned (for 3 s), so the signal lands there.
if command -v strace > /dev/null 2>&1 && strace -o /dev/null true 2> /dev/null; then
	late() {
		rm -f pf s out
		# LeakSanitizer cannot run under ptrace (a sanitizer build).
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -o /dev/null -e trace=wait4 -e inject=wait4:delay_exit=3000000 \
			"$TIMEIT" --summary s "$@" --redirect-output out "$AUX" pidfile pf print ran \
			exit 0 2> err &
		spid=$!
		wait_for_file pf
		# Once the command has been reaped, strace holds timeit's wait4
		# for 3 s: the signal lands there (without /proc, 0.3 s on).
		if [ -d /proc/self ]; then
			while [ -e "/proc/$(cat pf)" ]; do sleep 0.01; done
		else
			sleep 0.3
		fi
		# timeit is strace's only child.
		tpid=$(pgrep -P "$spid" | head -n 1)
		[ -n "$tpid" ] || fail "late signal: no timeit under strace"
		kill -s INT "$tpid"
		wait_status "$spid"
	}
	late
	[ "$got" -eq 0 ] || fail "SIGINT after the command exited: status $got, $(cat err)"
	[ "$(sed -n 1p s)" = "exit 0" ] || fail "SIGINT after the command exited: summary '$(cat s)'"
	late --repeat 3
	[ "$got" -eq 137 ] || fail "SIGINT between runs: status $got, $(cat err)"
	[ "$(sed -n 1p s)" = "exit 137" ] || fail "SIGINT between runs: summary '$(cat s)'"
	[ "$(summary_value s n-runs)" = 1 ] || fail "SIGINT between runs: $(summary_value s n-runs) runs"
	[ "$(cat out)" = ran ] || fail "SIGINT between runs: the output of run 1 is '$(cat out)'"
fi

# A FIFO redirect waits for the other end before the command starts; the
# timeout and a stop signal reach timeit there (137, the reference's
# messages, no summary, nothing run), and a writer that comes lets the run
# go on.  timeout(1) guards against a timeit that would wait for ever
# (-k: and one that would not end on its signal).
if command -v mkfifo > /dev/null 2>&1 && command -v timeout > /dev/null 2>&1; then
	mkfifo fifo
	rm -f s pf
	expect_status 137 timeout -k 5 20 "$TIMEIT" --timeout 1 --summary s --redirect-input fifo \
		"$AUX" pidfile pf 2> err
	grep -qx "timeit: TIMING OUT PROCESS: $AUX" err || fail "FIFO and --timeout: '$(cat err)'"
	[ ! -e s ] && [ ! -e pf ] || fail "FIFO and --timeout: a summary or a run"
	# timeout(1) passes the SIGINT on to its whole process group, where
	# LeakSanitizer's tracer runs while a sanitizer build exits: that
	# tracer, signalled, can wedge the exit (seen on CI); no leak check.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		timeout -k 5 20 "$TIMEIT" --summary s --redirect-input fifo "$AUX" pidfile pf 2> err &
	tpid=$!
	# The signal must come once timeit waits in the FIFO's open (its
	# wchan, proc(5): fifo_open's wait_for_partner), not after a fixed
	# time that a loaded or emulated machine may not give it; where
	# wchan cannot tell, after about 5 s.
	n=0 tp=
	while [ "$n" -lt 100 ]; do
		[ -n "$tp" ] || tp=$(pgrep -P "$tpid") || true
		case $(cat "/proc/${tp:-0}/wchan" 2> /dev/null) in
		fifo_open | wait_for_partner) break ;;
		esac
		n=$((n + 1))
		sleep 0.05
	done
	kill -s INT "$tpid" 2> /dev/null || true
	wait_status "$tpid"
	[ "$got" -eq 137 ] || fail "FIFO and SIGINT: status $got"
	grep -qx "timeit: error: received signal 2. killing monitored process(es): $AUX" err || fail "FIFO and SIGINT: '$(cat err)'"
	[ ! -e s ] && [ ! -e pf ] || fail "FIFO and SIGINT: a summary or a run"
	(sleep 0.5; echo data > fifo) &
	expect_status 0 timeout -k 5 20 "$TIMEIT" --timeout 10 --summary s --redirect-input fifo \
		"$AUX" cat > out
	[ "$(cat out)" = data ] && [ "$(sed -n 1p s)" = "exit 0" ] || fail "FIFO with a writer: '$(cat out)'"
	wait
fi
exit 0
