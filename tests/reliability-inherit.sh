#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The command inherits exactly the descriptors timeit was given (0, 1, 2
# here): no counter, pipe, summary or JSON descriptor leaks into it; and
# its signal mask and dispositions are the defaults, whatever timeit got.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"

# What the command would see without timeit (the harness may pass more
# than 0, 1, 2; timeit must add none and take none away).
"$AUX" fds > want
if ! grep -qx 0 want || ! grep -qx 1 want || ! grep -qx 2 want; then
	fail "no 0,1,2 here: $(cat want)"
fi

check_fds() {
	what=$1
	shift
	"$TIMEIT" "$@" "$AUX" fds > got 2> err || fail "$what: timeit failed: $(cat err)"
	cmp -s want got || fail "$what: fds $(tr '\n' ' ' < got), expected $(tr '\n' ' ' < want)"
}
echo in > in
check_fds "plain"
check_fds "--summary" --summary s
# (timeit-perf has neither --json nor --no-perf.)
if [ "$TIMEIT_NAME" = timeit ]; then
	check_fds "--json" --json j
	check_fds "--summary --json" --summary s --json j
	check_fds "--no-perf" --no-perf --summary s
fi
check_fds "-e" -e task-clock,page-faults,context-switches --summary s
check_fds "-t" -t 100 --summary s
check_fds "--chdir" --chdir "$tmp" --summary s
# The first CPU timeit may use (--cpu needs the platform's affinity call,
# and no other option opens a descriptor for it).
if [ "$TIMEIT_NAME" = timeit ] && timeit_has --cpu; then
	cpu=$(awk '/^Cpus_allowed_list/ { split($2, a, "[-,]"); print a[1] }' /proc/self/status)
	check_fds "--cpu" --cpu "${cpu:-0}" --summary s
fi
check_fds "--redirect-input" --redirect-input in --summary s
"$TIMEIT" --summary s --redirect-stdout o --redirect-stderr e "$AUX" fds ||
	fail "--redirect-stdout: timeit failed"
cmp -s want o || fail "--redirect-stdout: fds $(tr '\n' ' ' < o)"
"$TIMEIT" --summary s --redirect-output o "$AUX" fds || fail "--redirect-output: timeit failed"
cmp -s want o || fail "--redirect-output: fds $(tr '\n' ' ' < o)"

# Signals: ignored ones from the shell (and SIGINT/SIGQUIT, which a
# non-interactive shell ignores for background commands) ...
sh -c 'trap "" USR1 USR2 TERM HUP; exec "$0" --summary s "$1" sigstate' "$TIMEIT" "$AUX" > got
[ "$(cat got)" = "mask 0 ignored 0" ] || fail "ignored signals leaked: $(cat got)"
"$TIMEIT" --summary s "$AUX" sigstate > got &
wait $!
[ "$(cat got)" = "mask 0 ignored 0" ] || fail "background: $(cat got)"

# ... and a blocked mask, which only perl can set up from a script.  timeit
# must neither pass it on nor keep it: started with SIGTERM and SIGALRM
# blocked, it still stops on SIGTERM and still times out.
if command -v perl > /dev/null 2>&1; then
	# shellcheck disable=SC2016
	block='use POSIX; $SIG{USR1} = "IGNORE"; $SIG{PIPE} = "IGNORE";
		sigprocmask(SIG_BLOCK, POSIX::SigSet->new(SIGUSR2, SIGTERM, SIGINT, SIGALRM))
			or die "sigprocmask: $!";
		exec @ARGV or die "exec: $!"'
	perl -e "$block" "$AUX" sigstate > base
	[ "$(cat base)" != "mask 0 ignored 0" ] || fail "perl did not block or ignore: $(cat base)"
	perl -e "$block" "$TIMEIT" --summary s "$AUX" sigstate > got
	[ "$(cat got)" = "mask 0 ignored 0" ] || fail "blocked signals leaked: $(cat got)"

	perl -e "$block" "$TIMEIT" --summary s "$AUX" pidfile p sleep 30000 &
	term_when p $!
	[ "$st" -eq 137 ] || fail "started with SIGTERM blocked: timeit exited $st, not 137"

	expect_status 137 perl -e "$block" "$TIMEIT" -t 1 --summary s "$AUX" sleep 30000 2> err
	grep -q "^$TIMEIT_NAME: TIMING OUT PROCESS" err || fail "started with SIGALRM blocked: $(cat err)"
else
	echo "note: no perl; the blocked-mask cases did not run" >&2
fi
exit 0
