#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Arguments that broke timeit-perf's parsing, checked beside timeit's:
# paths that start with "-" (a tool would read them as options), blanks
# after the commas of -e, commas inside a PMU's /.../, and byte limits
# that are not whole blocks of the shell's ulimit (exact, as in timeit).
. "$top_srcdir/tests/setup"

PERFWRAP=$top_builddir/perfwrap/timeit-perf
[ -x "$PERFWRAP" ] || fail "$PERFWRAP was not built"
perf_counts || skip "perf cannot count task-clock here (or is not installed: linux-perf)"
TIMEIT_PERF=$perf_bin
export TIMEIT_PERF

# Paths starting with "-": the summary, a redirect, the directory, TMPDIR.
mkdir -- -d -t
for tool in "$TIMEIT" "$PERFWRAP"; do
	name=${tool##*/}
	rm -f -- -d/s -d/-out
	echo previous >-d/s
	expect_status 0 env TMPDIR=-t "$tool" --summary -d/s --chdir -d --redirect-stdout -d/-out \
		"$AUX" pwd 2>err
	[ "$(sed -n 1p -- -d/s)" = "exit 0" ] || fail "$name --summary -d/s: $(cat err)"
	[ "$(cat -- -d/-out)" = "$tmp/-d" ] || fail "$name --redirect-stdout -d/-out: $(cat -- -d/-out)"
	[ -z "$(find . -name '.timeit.tmp.*' -o -name 'timeit-perf.*')" ] ||
		fail "$name: temporary files left"
done

# Blanks after the commas of -e: the keys are the names, in both.
for tool in "$TIMEIT" "$PERFWRAP"; do
	name=${tool##*/}
	expect_status 0 "$tool" --summary s -e 'task-clock, page-faults' "$AUX" burn 20
	keys=$(sed -n '5,$p' s | awk '$1 != "tsc-ticks" && $1 != "noise-flags" { print $1 }' |
		tr '\n' ' ')
	# timeit keys only what it counts (not under qemu-user: ENOSYS).
	if counting_expected || [ "$name" != timeit ]; then
		[ "$keys" = "task-clock page-faults " ] || fail "$name -e 'task-clock, page-faults': keys '$keys'"
	fi
	! grep -q '^ ' s || fail "$name: a key with a leading blank: $(cat s)"
done

# A PMU's /.../ with commas is one event: timeit-perf passes it whole to
# perf and keys it by perf's name for it; timeit refuses it by that name.
if "$perf_bin" stat -x, -o /dev/null -e 'software/config=1,config1=0/' true 2>/dev/null; then
	expect_status 0 "$PERFWRAP" --summary s -e 'software/config=1,config1=0/,task-clock' \
		"$AUX" burn 20
	grep -Eq '^software/config=1,config1=0/ [0-9]+$' s ||
		fail "timeit-perf: the PMU event was cut: $(cat s)"
	grep -Eq '^task-clock +[0-9.]+$' s || fail "timeit-perf: the event after it is gone: $(cat s)"
else
	echo "note: perf has no software PMU syntax here" >&2
fi
expect_status 1 "$TIMEIT" --summary s -e 'cycles,cpu/event=0x3c,umask=0x0/' true 2>err
grep -q "'cpu/event=0x3c,umask=0x0/'" err || fail "timeit: the PMU event is not named whole: $(cat err)"

# Byte limits that are not whole blocks (dash: 512 for file size, 1024
# for the others) are exact, as in timeit.
# qemu-user takes a guest's RLIMIT_STACK and RLIMIT_DATA and ignores them
# (the host's would bind the emulator): there only the other two.
lims="file-size:fsize:1000 core:core:1023"
emulated || lims="$lims stack-size:stack:8389633 data-size:data:1073741825"
for tool in "$TIMEIT" "$PERFWRAP"; do
	name=${tool##*/}
	for lim in $lims; do
		opt=${lim%%:*} rest=${lim#*:}
		res=${rest%%:*} val=${rest#*:}
		expect_status 0 "$tool" --summary s --limit-"$opt" "$val" "$AUX" limit "$res" >out 2>err
		[ "$(cat out)" = "$val" ] || fail "$name --limit-$opt $val: the limit is $(cat out); $(cat err)"
	done
done

# Descriptors 3-9 reach the command as under timeit (the shell version
# used them itself), and nothing of perf's or the helper's does.
for tool in "$TIMEIT" "$PERFWRAP"; do
	"$tool" --summary s "$AUX" fds 5</dev/null 9</dev/null >"fds-${tool##*/}"
done
grep -qx 5 "fds-timeit-perf" && grep -qx 9 "fds-timeit-perf" ||
	fail "timeit-perf: fds 5 and 9 did not reach the command: $(tr '\n' ' ' <fds-timeit-perf)"
cmp -s fds-timeit fds-timeit-perf ||
	fail "fds: timeit $(tr '\n' ' ' <fds-timeit), timeit-perf $(tr '\n' ' ' <fds-timeit-perf)"

# The hidden exec-helper mode refuses a spec that is not timeit-perf's.
expect_status 1 "$PERFWRAP" --timeit-perf-exec-helper bogus '' -- -- true true 2>err
grep -q "timeit-perf's own" err || fail "exec helper with a bad spec: $(cat err)"

# --timeout counts from the run, as real does, not from timeit-perf's
# start: a perf that takes 1.5 s to start still gives the command its
# whole second (it was killed after 0.83 s of real under a loaded CI).
perf_path=$(command -v "$perf_bin")
cat >slowperf <<EOF
#!/bin/sh
sleep 1.5
exec "$perf_path" "\$@"
EOF
chmod +x slowperf
expect_status 137 env TIMEIT_PERF="$tmp/slowperf" "$PERFWRAP" --summary s --timeout 1 \
	"$AUX" sleep 3000 2>err
real=$(awk '$1 == "real" { print $2 }' s)
awk -v r="$real" 'BEGIN { exit !(r >= 1) }' ||
	fail "timeit-perf --timeout 1 with a slow perf: real $real under 1; $(cat err)"
exit 0
