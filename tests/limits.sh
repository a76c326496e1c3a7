#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The seven --limit-* options reach the command as soft = hard = N (at most
# the current hard limit), and limit the command, not timeit.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"

# limit OPTION AUXNAME PROCNAME N: with --limit-OPTION N the command sees a
# soft limit of N (timeit-aux), and soft = hard = N in /proc/self/limits
# (row PROCNAME).  A limit the system does not take from a program at all
# (qemu-user keeps RLIMIT_STACK and RLIMIT_DATA for itself) is not tested:
# the test skips at the end, naming it.
untested=
limit() {
	l_opt=$1 l_row=$3 l_n=$4
	if [ "$("$AUX" setlimit "$2" "$l_n" limit "$2" 2>/dev/null)" != "$l_n" ]; then
		untested="$untested --limit-$l_opt"
		return 0
	fi
	expect_status 0 "$TIMEIT" --summary s "--limit-$l_opt" "$l_n" "$AUX" limit "$2" >out
	[ "$(cat out)" = "$l_n" ] || fail "--limit-$l_opt $l_n: the command's soft limit is '$(cat out)'"
	if [ -r /proc/self/limits ]; then
		expect_status 0 "$TIMEIT" --summary s "--limit-$l_opt" "$l_n" cat /proc/self/limits >out
		row=$(grep "^Max $l_row " out) || fail "no '$l_row' row in /proc/self/limits"
		# Columns after the name: soft, hard, unit.
		# shellcheck disable=SC2086,SC2046
		set -- ${row#Max "$l_row"}
		[ "$1" = "$l_n" ] || fail "/proc/self/limits '$l_row': soft $1, expected $l_n"
		[ "$2" = "$l_n" ] || fail "/proc/self/limits '$l_row': hard $2, expected $l_n"
	fi
}

limit cpu cpu "cpu time" 7
limit stack-size stack "stack size" 4194304
limit data-size data "data size" 1073741824
limit rss-size rss "resident set" 838860800
limit file-size fsize "file size" 209715200
limit core core "core file size" 0
limit file-count nofile "open files" 64
limit subprocess-count nproc "processes" 500

# lit's own set, all at once.
expect_status 0 "$TIMEIT" --timeout 7200 --limit-core 0 --limit-cpu 7200 \
	--limit-file-size 209715200 --limit-rss-size 838860800 --summary s \
	"$AUX" limit core limit cpu limit fsize limit rss >out 2>err
printf '%s\n' 0 7200 209715200 838860800 | cmp -s - out || fail "lit's limits: $(cat out)"
[ ! -s err ] || fail "lit's limits: timeit said '$(cat err)'"

# Without an option the command keeps timeit's limits.
"$AUX" limit nofile limit cpu >want
expect_status 0 "$TIMEIT" --summary s "$AUX" limit nofile limit cpu >out
cmp -s want out || fail "limits changed without --limit-*: $(cat out), expected $(cat want)"

# N above the current hard limit: the hard limit, quietly (soft = hard =
# min(N, hard), timeit(1), OPTIONS).  ulimit -H and -n are not POSIX but dash,
# bash and busybox sh have them.
# shellcheck disable=SC3045
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -gt 100 ]; then
	(
		# shellcheck disable=SC3045
		ulimit -n 100
		exec "$TIMEIT" --summary s --limit-file-count 5000 "$AUX" limit nofile
	) >out 2>err
	[ "$(cat out)" = 100 ] || fail "--limit-file-count above the hard limit 100 gave $(cat out)"
	[ ! -s err ] || fail "clamping to the hard limit was not quiet: $(cat err)"
fi
# The largest value is "unlimited" when the hard limit is.
# shellcheck disable=SC3045
if [ "$(ulimit -Ht)" = unlimited ]; then
	expect_status 0 "$TIMEIT" --summary s --limit-cpu 18446744073709551615 "$AUX" limit cpu >out
	[ "$(cat out)" = unlimited ] || fail "--limit-cpu 2^64-1 gave $(cat out)"
fi

# The limits bind: RLIMIT_DATA covers malloc's mmap (Linux >= 4.7), so
# 64 MiB cannot be had under 32 MiB (timeit-aux exits 98).
case " $untested " in
*" --limit-data-size "*) ;;
*)
	expect_status 98 "$TIMEIT" --summary s --limit-data-size 33554432 "$AUX" alloc 64
	expect_status 0 "$TIMEIT" --summary s --limit-data-size 1073741824 "$AUX" alloc 64
	;;
esac
# RLIMIT_FSIZE 0 kills the command on its first write with SIGXFSZ, while
# timeit, not limited, still writes its summary.
set +e
"$TIMEIT" --summary s --limit-file-size 0 --redirect-output o "$AUX" print x 2>err
got=$?
set -e
[ "$got" -gt 128 ] || fail "writing past --limit-file-size 0: status $got"
grep -q '^timeit: error: child terminated by signal ' err || fail "SIGXFSZ: stderr is '$(cat err)'"
[ "$(sed -n 1p s)" = "exit $got" ] || fail "--limit-file-size 0 limited timeit's summary too"
[ -z "$untested" ] || skip "this system ignores a program's setrlimit (an emulator's own limits):$untested"
exit 0
