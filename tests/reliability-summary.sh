#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Fault injection on the result file: a full device, a full file system,
# paths that cannot be written.  A clear error names the path, the
# previous file survives, no temporary file is left behind.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"

# /dev/full (Linux's, FreeBSD's): written in place at the end; the write
# error is not silent.
untested=
if [ -w /dev/full ]; then
	expect_status 66 "$TIMEIT" --summary /dev/full "$AUX" print ran > out 2> err
	grep -q '^ran$' out || fail "/dev/full: the command did not run"
	grep -q "$TIMEIT_NAME: --summary: /dev/full: $(errno_text ENOSPC)" err ||
		fail "/dev/full: no clear error: $(cat err)"
else
	untested="$untested /dev/full"
fi

# Unwritable paths are refused before the command runs (root ignores
# permissions, so: a path through a regular file, a missing directory and
# a directory of /proc, where nothing can be created).
echo previous > file
procdir=
[ -d /proc/self ] && procdir=/proc/timeit-summary
for p in file/summary missing/summary $procdir; do
	expect_status 1 "$TIMEIT" --summary "$p" "$AUX" print ran > out 2> err
	[ ! -s out ] || fail "$p: the command ran"
	grep -q "$TIMEIT_NAME: --summary: $p: " err || fail "$p: no clear error: $(cat err)"
done
[ "$(cat file)" = previous ] || fail "file/summary: file changed"

# --json fails the same way, and a good --summary next to it is untouched
# (timeit-perf has no --json).
if [ "$TIMEIT_NAME" = timeit ]; then
	echo previous > s
	expect_status 1 "$TIMEIT" --summary s --json missing/j.json "$AUX" print ran > out 2> err
	[ ! -s out ] || fail "--json missing/: the command ran"
	[ "$(cat s)" = previous ] || fail "--json missing/: the summary was replaced"
fi
[ -z "$(find . -name '.*.tmp.*')" ] || fail "temporary files left: $(find . -name '.*.tmp.*')"

# A file system that fills up: the summary cannot be written at the end,
# so the previous summary must survive whole.  Needs a tmpfs mount (root).
mkdir mnt
if mount -t tmpfs -o size=4k,nr_inodes=16 timeit-test "$tmp/mnt" 2>/dev/null; then
	trap 'umount "$tmp/mnt" 2>/dev/null || true; rm -rf "$tmp"' EXIT
	printf 'exit 0\nreal 1\nuser 1\nsys 1\n' > mnt/summary
	cp mnt/summary expected
	dd if=/dev/zero of=mnt/fill bs=512 count=64 2>/dev/null || true
	expect_status 66 "$TIMEIT" --summary mnt/summary --report-maxrss "$AUX" print ran \
		> out 2> err
	grep -q '^ran$' out || fail "full tmpfs: the command did not run"
	grep -q "$TIMEIT_NAME: --summary: mnt/summary: No space left on device" err ||
		fail "full tmpfs: no clear error: $(cat err)"
	cmp -s mnt/summary expected || fail "full tmpfs: previous summary damaged"
	[ -z "$(find mnt -name '.*.tmp.*')" ] ||
		fail "full tmpfs: temporary file left: $(find mnt -name '.*.tmp.*')"
	umount "$tmp/mnt"
	trap 'rm -rf "$tmp"' EXIT
else
	echo "note: cannot mount a tmpfs here; the full file system case did not run" >&2
fi

# timeit started with stderr closed: its notes must not land in the
# summary file (which would otherwise get the lowest free descriptor, 2).
"$TIMEIT" --summary s2 -e cycles,task-clock "$AUX" exit 0 2>&- ||
	fail "stderr closed: timeit failed"
[ "$(head -n 1 s2)" = "exit 0" ] || fail "stderr closed: summary starts with: $(head -n 1 s2)"
grep -q note s2 && fail "stderr closed: a note went into the summary"
[ -z "$untested" ] || skip "everything else checked; not (missing here):$untested"
exit 0
