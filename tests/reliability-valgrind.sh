#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# valgrind memcheck on representative runs of timeit: counters and
# summary and JSON, the report on stderr, explicit and missing events,
# the rusage path, a timeout, an exec failure, usage and path errors, a
# full device.  No invalid access, no uninitialised use, no definite or
# indirect leak.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
if [ -z "${VALGRIND:-}" ] || ! command -v "$VALGRIND" > /dev/null 2>&1; then
	skip "valgrind not found (configure looks for it; for a cross build, HOST-valgrind)"
fi
"$VALGRIND" --tool=none -q "$AUX" exit 0 > /dev/null 2>&1 ||
	skip "$VALGRIND cannot run the programs built here (a cross build)"
# A sanitizer build has its own checks and cannot run under valgrind.
if grep -q -e __asan_init -e __ubsan_handle "$TIMEIT"; then
	skip "timeit is built with a sanitizer; valgrind cannot run it"
fi
# Nor can memcheck check a statically linked timeit: the C library's
# malloc and string functions inside it are not replaced, and its own
# internals read what memcheck thinks uninitialised.  A dynamic build of
# the same sources, when the build has one, is checked instead.
is_static() {
	if command -v readelf > /dev/null 2>&1; then
		if readelf -l "$1" 2> /dev/null | grep -q INTERP; then
			return 1
		fi
	else
		file "$1" 2> /dev/null | grep -q 'statically linked'
	fi
}
if is_static "$TIMEIT"; then
	dyn=$top_builddir/tests/timeit-dynamic
	if [ ! -x "$dyn" ] || is_static "$dyn"; then
		skip "timeit is linked statically and there is no dynamic build to check (configure --disable-static-timeit)"
	fi
	TIMEIT=$dyn
fi
# memcheck must replace the dynamic loader's functions: a 32-bit program
# on a 64-bit Debian needs libc6-dbg of that architecture.
if ! "$VALGRIND" --tool=memcheck -q "$TIMEIT" --version > /dev/null 2> vg.log; then
	skip "memcheck cannot start $TIMEIT here: $(grep -m1 -i -e 'fatal' -e 'error' vg.log)"
fi

# vg WANT ARGS...: timeit ARGS under memcheck must exit WANT (99: errors).
vg() {
	want=$1
	shift
	set +e
	"$VALGRIND" --tool=memcheck -q --error-exitcode=99 \
		--leak-check=full --errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect --log-file=vg.log "$TIMEIT" "$@" \
		> out 2> err
	got=$?
	set -e
	if [ -s vg.log ]; then
		cat vg.log >&2
		fail "memcheck reported on timeit $*"
	fi
	[ "$got" -eq "$want" ] || fail "timeit $* exited $got under valgrind, expected $want: $(cat err)"
}

vg 0 --summary s --json j "$AUX" burn 10 alloc 2
vg 3 -p "$AUX" exit 3
vg 0 -e task-clock,page-faults,cycles,r1234:u --summary s "$AUX" exit 0
vg 0 --no-perf --rusage-times --report-maxrss --summary s "$AUX" exit 0
vg 0 --redirect-output o --append-exitstatus --summary s "$AUX" print x exit 5
vg 137 -t 1 --summary s "$AUX" sleep 30000
vg 127 --summary s ./no-such-command
vg 1 --summary missing/s "$AUX" exit 0
vg 1 --no-such-option "$AUX" exit 0
[ ! -w /dev/full ] || vg 66 --summary /dev/full "$AUX" exit 0
exit 0
