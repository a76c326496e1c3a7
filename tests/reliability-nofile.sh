#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# 'ulimit -n' so low that counters cannot open: timeit falls back to
# rusage and still measures; lower still, it fails with a clear error and
# leaves nothing behind.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
# timeit's own counters falling back to rusage, read from its --json: perf
# opens its counters itself, and timeit-perf has no --json.
[ "$TIMEIT_NAME" = timeit ] ||
	skip "the counters' fallback at EMFILE is timeit's own (perf opens its counters itself)"

# How many descriptors the harness passes on is not known here, so the
# limit is raised one by one from far too low until timeit runs.  At every
# limit timeit either measures (exit 0, complete summary) or says why it
# cannot (status 1 when a result file cannot be created, else 66; EMFILE's
# text) without running the command.
# The redirections stay outside the subshell: dash saves descriptors above
# 9 for a redirected command, which the limit forbids.
events=page-faults,context-switches,task-clock
# Without the limit, do counters open at all (not in a portable build)?
"$TIMEIT" --json j -e "$events" "$AUX" exit 0 2> /dev/null
counters=yes
grep -q '"source": "rusage"' j && counters=no
# EMFILE in the C library's words (glibc: "Too many open files", musl: "No
# file descriptors available").
emfile=$(errno_text EMFILE)
n=4
first=
fellback=
while [ "$n" -le 64 ]; do
	echo previous > s
	set +e
	(
		# shellcheck disable=SC3045
		ulimit -n "$n"
		exec "$TIMEIT" --summary s --json j -e "$events" "$AUX" burn 20 print ran
	) > out 2> err
	st=$?
	set -e
	case $st in
	0)
		grep -q '^ran$' out || fail "ulimit -n $n: the command did not run"
		[ "$(head -n 1 s)" = "exit 0" ] || fail "ulimit -n $n: bad summary: $(cat s)"
		u=$(lit_user s)
		in_range "$u" 0 10 || fail "ulimit -n $n: user '$u'"
		grep -q '"status": 0' j || fail "ulimit -n $n: bad JSON"
		first=${first:-$n}
		# Fell back: task-clock did not open, times come from rusage,
		# and a note says why.
		if [ "$counters" = yes ] && grep -q '"source": "rusage"' j; then
			grep -q '^task-clock' s && fail "ulimit -n $n: task-clock in the summary"
			grep -qF "$emfile" err ||
				fail "ulimit -n $n: fell back without a note: $(cat err)"
			fellback=${fellback:-$n}
		fi
		;;
	1 | 66)
		[ -z "$first" ] || fail "ulimit -n $n fails although $first worked: $(cat err)"
		[ ! -s out ] || fail "ulimit -n $n: failed after running the command"
		grep -qF "$emfile" err || fail "ulimit -n $n: unclear error: $(cat err)"
		[ "$(cat s)" = previous ] || fail "ulimit -n $n: previous summary changed"
		;;
	*)
		fail "ulimit -n $n: timeit exited $st: $(cat err)"
		;;
	esac
	[ -z "$first" ] || [ "$n" -lt $((first + 4)) ] || break
	n=$((n + 1))
done
[ -n "$first" ] || fail "timeit never ran, even with ulimit -n 64"
# The lowest limit that runs at all must leave the counters without
# descriptors, and the run must fall back rather than fail.
[ "$counters" = no ] || [ "$fellback" = "$first" ] ||
	fail "with ulimit -n $first timeit ran but no counter fell back (fell back at: ${fellback:-none})"
[ -z "$(find . -name '.*.tmp.*')" ] || fail "temporary files left: $(find . -name '.*.tmp.*')"
exit 0
