#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Every signal whose default would end timeit -- not only SIGINT, SIGTERM
# and SIGHUP -- stops the run the same way, in timeit and timeit-perf:
# the command's group is killed, status 137 with the reference's message,
# the summary is written and no temporary file is left.  An outside
# SIGALRM is a timeout.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"

# signum NAME: the number of signal NAME (kill -l N names signal N).
signum() {
	_n=1
	while [ "$_n" -lt 128 ] && [ "$(kill -l "$_n" 2>/dev/null)" != "$1" ]; do
		_n=$((_n + 1))
	done
	echo "$_n"
}

# stop TOOL SIG: run TOOL on a sleeping command, send SIG to TOOL, check.
stop() {
	tool=$1 sig=$2
	name=${tool##*/}
	rm -f pf s err
	# The script cannot trap what it was started with ignored (a
	# background job of sh ignores SIGINT and SIGQUIT, timeit-perf(1),
	# BUGS): it is started with the defaults.  timeit handles them anyway.
	case $name in
	timeit) "$tool" --summary s "$AUX" pidfile pf spawn 1 30000 sleep 30000 2>err & ;;
	*) env --default-signal=INT,QUIT "$tool" --summary s "$AUX" pidfile pf spawn 1 30000 \
		sleep 30000 2>err & ;;
	esac
	pid=$!
	wait_for_file pf
	case $sig in
	[0-9]*) kill -"$sig" "$pid" || fail "kill -$sig: not a signal here" ;;
	*) kill -s "$sig" "$pid" || fail "kill -s $sig: not a signal here" ;;
	esac
	wait_status "$pid"
	[ "$got" -eq 137 ] || fail "$name: SIG$sig: status $got, expected 137"
	if [ "$sig" = ALRM ]; then
		grep -Eq '^(timeit|timeit-perf): TIMING OUT PROCESS: ' err || fail "$name: SIGALRM: stderr is '$(cat err)'"
	else
		case $sig in [0-9]*) num=$sig ;; *) num=$(signum "$sig") ;; esac
		grep -Eq "^(timeit|timeit-perf): error: received signal $num\. killing monitored process\(es\)" err ||
			fail "$name: SIG$sig: stderr is '$(cat err)'"
	fi
	[ "$(sed -n 1p s 2>/dev/null)" = "exit 137" ] ||
		fail "$name: SIG$sig: summary is '$(cat s 2>/dev/null)'"
	[ -z "$(find . -name '.timeit.tmp.*')" ] || fail "$name: SIG$sig: temporary file left"
	group_gone "$(cat pf)"
}

sigs="QUIT USR1 USR2 VTALRM PROF XCPU XFSZ ALRM"
# Linux's own where this kill knows them, and the real-time signals by the
# numbers of the C library timeit is built with (the shell's RTMIN is the
# kernel's first, which musl keeps for itself).
for extra in PWR IO; do
	[ "$(signum "$extra")" -lt 128 ] && sigs="$sigs $extra"
done
rt=$("$AUX" sigrt)
rtmin=${rt% *} rtmax=${rt#* }
# qemu-user keeps host real-time signals for itself and maps the guest's
# onto others: the host's kill -34 is not the guest's signal 34.
if emulated; then
	echo "note: under an emulator the real-time signals are numbered by it: not checked" >&2
	rtmin=
else
	sigs="$sigs $rtmin $((rtmin + 1)) $rtmax"
fi
for sig in $sigs; do
	stop "$TIMEIT" "$sig"
done

PERFWRAP=$top_builddir/perfwrap/timeit-perf
if perf_counts && env --default-signal=INT true 2>/dev/null; then
	TIMEIT_PERF=$perf_bin
	export TIMEIT_PERF
	for sig in QUIT USR1 XCPU ALRM ${rtmin:+$((rtmin + 1))}; do
		stop "$PERFWRAP" "$sig"
	done
else
	echo "note: perf cannot count here (or env has no --default-signal): timeit-perf is not checked" >&2
fi
exit 0
