#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The summary file and the stderr report (timeit(1), SUMMARY FILE):
# the reference's first lines byte for byte, read the way lit reads them;
# extra lines that no consumer can mistake; the atomic write, symlinks,
# devices, and the fail-fast on a path that cannot be written.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"

num='[0-9]+\.[0-9]{4}'

# check_layout FILE STATUS MAXRSS: the reference's lines in order (exit,
# real, user, sys, and maxrss when MAXRSS is yes), then only extra lines
# "key<spaces>number" whose key no consumer reads as one of those.
check_layout() {
	f=$1
	[ "$(sed -n 1p "$f")" = "exit $2" ] || fail "$f line 1: '$(sed -n 1p "$f")'"
	sed -n 2p "$f" | grep -Eqx "real {7}$num" || fail "$f line 2: '$(sed -n 2p "$f")'"
	sed -n 3p "$f" | grep -Eqx "user {7}$num" || fail "$f line 3: '$(sed -n 3p "$f")'"
	sed -n 4p "$f" | grep -Eqx "sys {8}$num" || fail "$f line 4: '$(sed -n 4p "$f")'"
	first_extra=5
	if [ "$3" = yes ]; then
		sed -n 5p "$f" | grep -Eqx 'maxrss {5}[0-9]+' || fail "$f line 5: '$(sed -n 5p "$f")'"
		first_extra=6
	fi
	sed -n "$first_extra,\$p" "$f" >extra
	while read -r line; do
		printf '%s\n' "$line" | grep -Eqx '[A-Za-z][^ ]* +[0-9]+(\.[0-9]+)?' ||
			fail "$f: extra line '$line' is not 'key number'"
		case $line in
		user* | exit* | real* | sys* | maxrss*)
			fail "$f: extra line '$line' starts with a reserved key" ;;
		esac
	done <extra
	# What lit takes: exactly one line starting with user, a float.
	u=$(lit_user "$f")
	in_range "$u" 0 1000 || fail "$f: lit reads user '$u'"
	# RunSafely.sh and TEST.simple.Makefile grep ^exit and ^real.
	[ "$(grep -c '^exit' "$f")" -eq 1 ] || fail "$f: more than one line starts with exit"
	[ "$(grep -c '^real' "$f")" -eq 1 ] || fail "$f: more than one line starts with real"
	[ "$(grep -c '^sys' "$f")" -eq 1 ] || fail "$f: more than one line starts with sys"
	[ "$(grep -c '^maxrss' "$f")" -le 1 ] || fail "$f: more than one line starts with maxrss"
}

expect_status 0 "$TIMEIT" --summary s "$AUX" burn 20
check_layout s 0 no
grep -q '^maxrss' s && fail "maxrss without --report-maxrss"
expect_status 3 "$TIMEIT" --summary s "$AUX" exit 3
check_layout s 3 no
expect_status 137 "$TIMEIT" --summary s --limit-core 0 "$AUX" signal 9 2>/dev/null
check_layout s 137 no

# --report-maxrss: bytes (ru_maxrss is KiB on Linux), and a plausible
# value after touching 64 MiB (the kernel counts RSS in per-CPU batches:
# up to 512 KiB short).
expect_status 0 "$TIMEIT" --summary s --report-maxrss "$AUX" alloc 64
check_layout s 0 yes
rss=$(awk '/^maxrss/ { print $2; exit }' s)
in_range "$rss" 66584576 536870912 || fail "maxrss after alloc 64 is $rss bytes"
expect_status 0 "$TIMEIT" --summary s --report-maxrss "$AUX" exit 0
small=$(awk '/^maxrss/ { print $2; exit }' s)
in_range "$small" 4096 33554432 || fail "maxrss of a tiny program is $small bytes"

# Whatever events are asked for, the keys stay out of the reserved names.
expect_status 0 "$TIMEIT" -q --summary s -e task-clock,cpu-clock,page-faults,minor-faults,major-faults,cs,cycles:u "$AUX" burn 20
check_layout s 0 no
expect_status 0 "$TIMEIT" --summary s --no-perf --report-maxrss "$AUX" burn 20
check_layout s 0 yes
expect_status 0 "$TIMEIT" --summary s --rusage-times "$AUX" burn 20
check_layout s 0 no
# Repeated runs add their statistics under the same rules.
expect_status 0 "$TIMEIT" --summary s --repeat 3 --warmup 1 --report-maxrss "$AUX" burn 5
check_layout s 0 yes

# Without --summary: the report on stderr, in both layouts.
expect_status 0 "$TIMEIT" -q "$AUX" print hello >out 2>err
[ "$(cat out)" = hello ] || fail "the report went to stdout: $(cat out)"
grep -Eqx " *$num real +$num user +$num sys" err || fail "report: '$(cat err)'"
# %12.4f: each field exactly 12 wide while the value is below 10^7.
grep -Eqx "[ 0-9.]{12} real [ 0-9.]{12} user [ 0-9.]{12} sys" err || fail "report widths: '$(cat err)'"
[ "$(wc -l <err)" -eq 1 ] || fail "report is more than one line: $(cat err)"
expect_status 0 "$TIMEIT" -q --report-maxrss "$AUX" exit 0 2>err
grep -Eqx "[ 0-9.]{12} real [ 0-9.]{12} user [ 0-9.]{12} sys [ 0-9]{12} maxrss" err ||
	fail "report with maxrss: '$(cat err)'"
expect_status 4 "$TIMEIT" -q -p "$AUX" exit 4 2>err
grep -Eq '^ *[0-9.]+ real' err && fail "-p gave the default layout"
[ "$(wc -l <err)" -eq 3 ] || fail "-p report is not three lines: $(cat err)"
sed -n 1p err | grep -Eqx "real [ 0-9.]{12}" || fail "-p line 1: '$(sed -n 1p err)'"
sed -n 2p err | grep -Eqx "user [ 0-9.]{12}" || fail "-p line 2: '$(sed -n 2p err)'"
sed -n 3p err | grep -Eqx "sys  [ 0-9.]{12}" || fail "-p line 3: '$(sed -n 3p err)'"
# The reference's -p layout has no maxrss.
expect_status 0 "$TIMEIT" -q -p --report-maxrss "$AUX" exit 0 2>err
[ "$(wc -l <err)" -eq 3 ] || fail "-p --report-maxrss: $(cat err)"
# The report is timeit's: not in the command's redirected output.
expect_status 0 "$TIMEIT" -q --redirect-output o "$AUX" print x 2>err
[ "$(cat o)" = x ] || fail "the report went into --redirect-output: $(cat o)"
grep -q ' real ' err || fail "no report with --redirect-output"
# -p is only about the report: the summary file keeps its format.
expect_status 0 "$TIMEIT" -p --summary s "$AUX" exit 0 2>err
check_layout s 0 no
[ ! -s err ] || fail "with --summary, -p still reported on stderr: $(cat err)"

# --summary /dev/stdout prints it, after what the command printed, to a
# pipe or a file (/dev/stdout is written in place, never replaced).
"$TIMEIT" --summary /dev/stdout "$AUX" print hello | cat >piped
[ "$(sed -n 1p piped)" = hello ] || fail "/dev/stdout to a pipe: '$(cat piped)'"
sed 1d piped >s && check_layout s 0 no
echo before >file
"$TIMEIT" --summary /dev/stdout "$AUX" print hello >>file
[ "$(sed -n 1,2p file)" = "$(printf 'before\nhello')" ] || fail "/dev/stdout to a file lost data: '$(cat file)'"
sed 1,2d file >s && check_layout s 0 no
"$TIMEIT" --summary /dev/stdout "$AUX" print hello >file
[ "$(sed -n 1p file)" = hello ] || fail "/dev/stdout to a file lost the output: '$(cat file)'"
"$TIMEIT" --summary /dev/stderr "$AUX" exit 0 2>file
sed -n 1p file | grep -qx 'exit 0' || fail "/dev/stderr: '$(cat file)'"
expect_status 0 "$TIMEIT" --summary /dev/null "$AUX" exit 0
# A FIFO is written in place.
mkfifo fifo
cat fifo >from-fifo &
reader=$!
expect_status 5 "$TIMEIT" --summary fifo "$AUX" exit 5
wait "$reader"
check_layout from-fifo 5 no

# A symlink is written through: the link stays, its target is replaced.
mkdir d
echo old >d/target
ln -s target d/link
ln -s d/link link2
expect_status 6 "$TIMEIT" --summary link2 "$AUX" exit 6
[ -L d/link ] || fail "a symlink was replaced by the summary"
[ -L link2 ] || fail "a symlink was replaced by the summary"
[ "$(readlink link2)" = d/link ] || fail "link2 now points to $(readlink link2)"
check_layout d/target 6 no
# A dangling link creates its target.
ln -s made-by-timeit dangling
expect_status 0 "$TIMEIT" --summary dangling "$AUX" exit 0
[ -L dangling ] || fail "the dangling link was replaced"
check_layout made-by-timeit 0 no
# A replaced file keeps its mode.
echo old >moded
chmod 640 moded
expect_status 0 "$TIMEIT" --summary moded "$AUX" exit 0
# (find -perm, not GNU stat -c: POSIX says what it matches.)
[ -n "$(find moded -prune -perm 640)" ] || fail "the summary's mode changed: $(ls -l moded)"

# A path that cannot be written: status 1 before the command runs, the
# error names the path.
touch afile
mkdir adir
for bad in no-such-dir/s afile/s adir . ''; do
	rm -f pf
	expect_status 1 "$TIMEIT" --summary "$bad" "$AUX" pidfile pf 2>err
	[ ! -e pf ] || fail "--summary '$bad': the command ran"
	grep -q -- "--summary: $bad: " err || fail "--summary '$bad': error is '$(cat err)'"
done
# An empty --json path too, and neither leaves a temporary file behind.
rm -f pf
expect_status 1 "$TIMEIT" --summary s --json '' "$AUX" pidfile pf 2>err
[ ! -e pf ] || fail "--json '': the command ran"
grep -q -- "--json: : " err || fail "--json '': error is '$(cat err)'"
for f in .*.tmp.*; do
	[ ! -e "$f" ] || fail "an empty result path left $f behind"
done
# A directory that cannot take the temporary file (root may write anywhere:
# the checks run as nobody).  A new summary there is an error before the
# run; an existing file that may be written is rewritten in place, as the
# reference's fopen would.
if unprivileged; then
	mkdir u/rodir
	printf 'old contents, longer than a summary will be...%4000s\n' x > u/rodir/w.time
	chmod 0666 u/rodir/w.time
	chmod 0555 u/rodir
	rm -f pf
	# shellcheck disable=SC2086
	expect_status 1 $AS_USER "$U_TIMEIT" --summary "$tmp/u/rodir/s" "$U_AUX" pidfile "$tmp/u/pf" 2>err
	[ ! -e u/pf ] || fail "--summary in a read-only directory: the command ran"
	grep -q -- "--summary: $tmp/u/rodir/s: Permission denied" err ||
		fail "--summary in a read-only directory: '$(cat err)'"
	# shellcheck disable=SC2086
	expect_status 3 $AS_USER "$U_TIMEIT" --summary "$tmp/u/rodir/w.time" "$U_AUX" exit 3 2>err ||
		fail "a writable summary in a read-only directory: '$(cat err)'"
	[ "$(sed -n 1p u/rodir/w.time)" = "exit 3" ] && grep -q '^user ' u/rodir/w.time ||
		fail "a writable summary in a read-only directory was not rewritten: $(head -c 200 u/rodir/w.time)"
	grep -q 'old contents' u/rodir/w.time && fail "the old contents survived the rewrite"
	[ "$(find u/rodir -name '.*')" = "" ] || fail "a temporary file in the read-only directory"
	chmod 0755 u/rodir
else
	untested="a read-only directory (running as root without setpriv: no unprivileged user)"
fi

# A summary name as long as a file name may be (NAME_MAX, 255 bytes): the
# temporary name beside it must not be longer.
long=$(printf '%0255d' 0)
expect_status 0 "$TIMEIT" --summary "$long" --json "j$(printf '%0254d' 0)" "$AUX" exit 0
[ "$(sed -n 1p "$long")" = "exit 0" ] || fail "a 255-byte summary name"
rm -f "$long" "j$(printf '%0254d' 0)"

ln -s loop2 loop1
ln -s loop1 loop2
expect_status 1 "$TIMEIT" --summary loop1 "$AUX" pidfile pf 2>err
[ ! -e pf ] || fail "--summary on a symlink loop: the command ran"
# ... and for --json, which must not leave the summary's temporary behind.
expect_status 1 "$TIMEIT" --summary s --json no-such-dir/j "$AUX" pidfile pf 2>err
[ ! -e pf ] || fail "--json to a missing directory: the command ran"
grep -q -- "--json: no-such-dir/j: " err || fail "--json to a missing directory: '$(cat err)'"

# A write error at the end is an error, never silent.
if [ -w /dev/full ]; then
	expect_status 66 "$TIMEIT" --summary /dev/full "$AUX" exit 0 2>err
	grep -q -- "--summary: /dev/full: No space left on device" err ||
		fail "--summary /dev/full: error is '$(cat err)'"
fi

# Atomic: a run that cannot write its summary leaves the previous one
# whole.  RLIMIT_FSIZE 0 (SIGXFSZ ignored) makes timeit's write fail with
# EFBIG after the command ran.  timeit's stderr goes through a pipe, which
# the limit does not restrict.
printf 'exit 0\nreal       1.0000\nuser       1.0000\nsys        0.0000\n' >prev
cp prev prev.keep
set +e
{
	(
		ulimit -f 0
		trap '' XFSZ
		exec "$TIMEIT" --summary prev "$AUX" exit 0
	) 2>&1
	echo $? >rc
} | cat >err
set -e
[ "$(cat rc)" -eq 66 ] || fail "a failed summary write returned $(cat rc), expected 66"
grep -q -- "--summary: prev: File too large" err || fail "failed summary write: '$(cat err)'"
cmp -s prev prev.keep || fail "the previous summary was changed by a failed write: $(cat prev)"
# No temporary file is left behind, on failure or on success.
for f in .*.tmp.*; do
	[ ! -e "$f" ] || fail "temporary file left: $f"
done
[ -z "${untested:-}" ] || skip "everything else checked; not $untested"
exit 0
