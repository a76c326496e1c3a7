#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Counters lost at a privilege-changing exec, for real: the kernel detaches
# inherited perf counters from a process whose exec is setuid, setgid,
# file-capability or of a file it may not read.  Run by a user without
# root's rights, timeit and timeit-perf must notice, say so, and report
# the rusage times of that run -- alone or inside a process tree --
# instead of the few microseconds the counters saw.
. "$top_srcdir/tests/setup"

unprivileged || skip "running as root without setpriv: no unprivileged user"
# Under an emulator the privilege-changing exec is the emulator's (and an
# unreadable program cannot be emulated at all).
! emulated || skip "the programs built here run under an emulator ($("$AUX" machine) on $(uname -m))"
PERFWRAP=$top_builddir/perfwrap/timeit-perf
U_PERFWRAP=$tmp/u/timeit-perf
cp "$PERFWRAP" "$U_PERFWRAP"

# Whether the unprivileged user can count task-clock (paranoid <= 2).
counting=0
# shellcheck disable=SC2086 # AS_USER is a word list
if counting_expected $AS_USER "$U_TIMEIT"; then
	counting=1
fi

# An executable the user may run but not read: a copy with mode 0711
# owned by root, or 0111 owned by the user (whose own read bit is off).
cp "$AUX" "$tmp/u/xonly"
if [ "$(id -u)" -eq 0 ]; then chmod 0711 "$tmp/u/xonly"; else chmod 0111 "$tmp/u/xonly"; fi
progs=$tmp/u/xonly
# Setuid-root, setgid-root and file-capability copies, when root can make
# them and the file system honours them.
if [ "$(id -u)" -eq 0 ] && ! findmnt -n -o OPTIONS --target "$tmp" 2>/dev/null | grep -q nosuid
then
	cp "$AUX" "$tmp/u/suid"
	chmod 4755 "$tmp/u/suid"
	cp "$AUX" "$tmp/u/sgid"
	chgrp 0 "$tmp/u/sgid"
	chmod 2755 "$tmp/u/sgid"
	progs="$progs $tmp/u/suid $tmp/u/sgid"
	cp "$AUX" "$tmp/u/fcap"
	if command -v setcap >/dev/null 2>&1 && setcap cap_net_raw+ep "$tmp/u/fcap" 2>/dev/null; then
		progs="$progs $tmp/u/fcap"
	else
		echo "note: no file-capability case (no setcap, or no xattrs on $tmp)" >&2
	fi
else
	echo "note: no setuid, setgid or capability case (not root, or $tmp is nosuid)" >&2
fi
cd "$tmp/u"

# check TOOL LO HI ARGS...: run ARGS under TOOL as the user; user + sys
# within [LO, HI] seconds (cpu_time), no task-clock line, the note, and
# (timeit) the JSON says so.
# With TREE=1 the kernel has once been seen to keep the counters of the
# tree's grandchild (one run in a dozen of make check, not reproduced
# since): then they must have seen it all -- the user time still right,
# and no note.
check() {
	tool=$1 lo=$2 hi=$3
	shift 3
	json=
	case $tool in *timeit) json="--json $tmp/u/j" ;; esac
	rm -f s j
	# shellcheck disable=SC2086 # AS_USER and json are word lists
	expect_status 0 $AS_USER "$tool" --summary "$tmp/u/s" $json "$@" 2>err
	u=$(cpu_time s)
	in_range "$u" "$lo" "$hi" || fail "${tool##*/} $*: user + sys $u, expected $lo-$hi (rusage)"
	[ "$counting" = 1 ] || return 0
	if [ "${TREE:-0}" = 1 ] && ! grep -q 'lost' err; then
		tc=$(summary_value s task-clock)
		in_range "${tc:-0}" "$lo" "$hi" ||
			fail "${tool##*/} $*: counters neither complete ($tc) nor said lost: $(cat err)"
		echo "note: ${tool##*/} $*: the kernel kept the counters" >&2
		return 0
	fi
	! grep -q '^task-clock ' s ||
		fail "${tool##*/} $*: a task-clock line from counters that were lost: $(cat s)"
	grep -q "note: perf counters lost at a privilege-changing exec" err ||
		fail "${tool##*/} $*: no note on stderr: $(cat err)"
	if [ -n "$json" ]; then
		grep -q '"counters_lost": true' j || fail "timeit $*: JSON lacks counters_lost: true"
		grep -q '"source": "rusage"' j || fail "timeit $*: JSON source is not rusage"
	fi
}

for p in $progs; do
	check "$U_TIMEIT" 0.04 2 "$p" burn 60
	# Inside a tree: the other process's time is kept, this one's is not lost.
	TREE=1; check "$U_TIMEIT" 0.075 3 sh -c "\"$p\" burn 50; \"$U_AUX\" burn 50"; TREE=0
done

# Counters that were not lost stay: task-clock, source perf, no note.
# shellcheck disable=SC2086 # AS_USER is a word list
expect_status 0 $AS_USER "$U_TIMEIT" --summary "$tmp/u/s" --json "$tmp/u/j" "$U_AUX" burn 100 2>err
if [ "$counting" = 1 ]; then
	grep -q '^task-clock ' s || fail "task-clock missing for a plain program: $(cat s)"
	grep -q '"counters_lost": false' j || fail "JSON: counters_lost is not false"
	! grep -q 'lost' err || fail "a note about lost counters for a plain program: $(cat err)"
fi

# timeit-perf: the same, when perf can count here.
# shellcheck disable=SC2086 # AS_USER is a word list
if perf_counts $AS_USER; then
	TIMEIT_PERF=$perf_bin
	export TIMEIT_PERF
	# The detection is the same for every kind: two of them.
	for p in $(echo $progs | cut -d' ' -f1,2); do
		check "$U_PERFWRAP" 0.04 2 "$p" burn 60
		TREE=1; check "$U_PERFWRAP" 0.075 3 sh -c "\"$p\" burn 50; \"$U_AUX\" burn 50"; TREE=0
	done
	# shellcheck disable=SC2086 # AS_USER is a word list
	expect_status 0 $AS_USER "$U_PERFWRAP" --summary "$tmp/u/s" "$U_AUX" burn 100 2>err
	grep -q '^task-clock ' s || fail "timeit-perf: task-clock missing for a plain program"
	! grep -q 'lost' err || fail "timeit-perf: a note about lost counters: $(cat err)"
else
	echo "note: perf cannot count here: timeit-perf is not checked" >&2
fi
exit 0
