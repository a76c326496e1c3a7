#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# One battery of command lines through both timeit and timeit-perf: the
# exit status, the stderr messages, the summary's layout and keys, and the
# files the command wrote must be the same; times agree within a tolerance.
. "$top_srcdir/tests/setup"

PERFWRAP=$top_builddir/perfwrap/timeit-perf
[ -x "$PERFWRAP" ] || fail "$PERFWRAP was not built"
perf_counts || skip "perf cannot count task-clock here (or is not installed: linux-perf)"
# (The shell version read maxrss through GNU time; the exec helper reads
# the command's rusage itself.)
maxrss=--report-maxrss
TIMEIT_PERF=$perf_bin
export TIMEIT_PERF

mkdir c p sub
printf 'line one\nline two\n' >in
printf 'echo not executable\n' >notexec
chmod 644 notexec
cases=0
closed_stdin=0
min_real=0
cpu_times=1
# Under an emulator timeit's user is rusage's (it counts nothing there)
# and timeit-perf's is task-clock over its chain, whose emulator start-up
# dominates a short command (0.02 s against 0.11 s seen): the CPU times
# are not the contract's, and are not compared.
emu=0
! emulated || emu=1

# run TOOL DIR ARGS...: run TOOL from DIR; keep its status and stderr there.
# fds 3-9 are closed, as they were for the shell version (which used them).
run() {
	tool=$1 dir=$2
	shift 2
	(
		cd "$dir" || exit 99
		set +e
		if [ "$closed_stdin" = 1 ]; then
			"$tool" "$@" >stdout 2>stderr 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- <&-
		else
			"$tool" "$@" >stdout 2>stderr 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
		fi
		echo $? >status
	)
}

# stderr lines with the program's name and the numbers taken out.
# A timeit without perf events also notes the events it was asked for and
# cannot count; timeit-perf counts them, so those notes are not compared.
norm_stderr() {
	drop='s/^//'	# keeps every line
	[ "${only_reference:-0}" = 0 ] ||
		drop='/^timeit: note: event .* skipped: /d;/^timeit: note: no perf counter could be opened/d'
	sed -e "$drop" -e 's/^timeit-perf: /timeit: /' -e 's/TIMING OUT PROCESS: .*/TIMING OUT PROCESS: X/' \
		-e 's/[0-9][0-9]*\.[0-9][0-9]*/N/g' -e 's/[0-9][0-9]* maxrss/N maxrss/' -e 's/  */ /g' "$1"
}

# keys FILE: the summary keys timeit-perf promises to share.  Not compared:
# what only the C program measures (tsc-ticks: the timestamp counter;
# noise-flags: its noise screen; valgrind-*), and *-running, which depends
# on multiplexing, not on the contract (timeit-perf(1), BUGS).
# A timeit that counts nothing here (built without perf events, or a
# system without them: qemu-user) while timeit-perf may: there only the
# reference's keys are compared.
if ! counting_expected; then
	only_reference=1
else
	only_reference=0
fi
keys() {
	awk -v ref="$only_reference" '$1 != "tsc-ticks" && $1 != "noise-flags" && $1 !~ /^valgrind-/ &&
	     $1 !~ /-running$/ && (ref == 0 || $1 ~ /^(exit|real|user|sys|maxrss)$/) { print $1 }' "$1"
}

# close_enough A B ABS REL: |A-B| <= ABS + REL * max(A, B).
close_enough() {
	awk -v a="$1" -v b="$2" -v abs="$3" -v rel="$4" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		m = a > b ? a : b
		exit !(d <= abs + rel * m) }'
}

# check_summary NAME: compare c/NAME and p/NAME.
check_summary() {
	[ -e "c/$1" ] || { [ ! -e "p/$1" ] && return 0; fail "$label: timeit wrote no $1, timeit-perf did"; }
	[ -e "p/$1" ] || fail "$label: timeit-perf wrote no $1"
	# The reference's format strings, line by line.
	for f in "c/$1" "p/$1"; do
		awk 'NR == 1 && !/^exit [0-9]+$/ { exit 1 }
		     NR >= 2 && NR <= 4 && !/^(real|user|sys) +[0-9]+\.[0-9][0-9][0-9][0-9]$/ { exit 1 }
		     $1 == "maxrss" && !/^maxrss +[0-9]+$/ { exit 1 }
		     NF != 2 { exit 1 }' "$f" || fail "$label: $f: bad layout: $(cat "$f")"
	done
	[ "$(keys "c/$1")" = "$(keys "p/$1")" ] ||
		fail "$label: keys differ: timeit: $(keys "c/$1" | tr '\n' ' ') timeit-perf: $(keys "p/$1" | tr '\n' ' ')"
	[ "$(summary_value "c/$1" exit)" = "$(summary_value "p/$1" exit)" ] ||
		fail "$label: exit lines differ"
	# CPU times: the perf path adds a few ms of shells and execs.  Wall
	# time depends on the load of a shared VM, so only a lower bound.
	# sys is rusage's: the kernel splits a task's CPU time between user
	# and sys in proportion to the ticks that landed in each
	# (cputime_adjust, kernel/sched/cputime.c), so a short command's sys
	# can take up to all of it: 0 against 0.105 s seen for burn 100 on a
	# loaded VM.  It is compared within the command's CPU time.
	for k in user sys task-clock; do
		[ "$cpu_times" = 1 ] && [ "$emu" = 0 ] || break
		cv=$(summary_value "c/$1" "$k") pv=$(summary_value "p/$1" "$k")
		[ -n "$cv" ] || continue
		abs=0.06
		[ "$k" != sys ] || abs=$(awk -v a="$(summary_value "c/$1" user)" \
			-v b="$(summary_value "p/$1" user)" 'BEGIN { print 0.06 + (a > b ? a : b) }')
		close_enough "$cv" "$pv" "$abs" 0.25 || fail "$label: $k: timeit $cv, timeit-perf $pv"
	done
	for f in "c/$1" "p/$1"; do
		in_range "$(summary_value "$f" real)" "$min_real" 1e9 ||
			fail "$label: $f: real $(summary_value "$f" real) under $min_real"
	done
	cv=$(summary_value "c/$1" maxrss)
	if [ -n "$cv" ]; then
		close_enough "$cv" "$(summary_value "p/$1" maxrss)" 8388608 0.15 ||
			fail "$label: maxrss: timeit $cv, timeit-perf $(summary_value "p/$1" maxrss)"
	fi
}

# case ARGS...: one command line through both programs.
case_() {
	cases=$((cases + 1))
	label="case $cases ($*)"
	rm -rf c p
	mkdir c p
	run "$TIMEIT" c "$@"
	run "$PERFWRAP" p "$@"
	[ "$(cat c/status)" = "$(cat p/status)" ] ||
		fail "$label: status: timeit $(cat c/status), timeit-perf $(cat p/status); stderr: $(cat p/stderr)"
	# Usage errors: the first line (the usage lists differ).
	if [ "$(cat c/status)" = 1 ]; then
		[ "$(norm_stderr c/stderr | head -n 1)" = "$(norm_stderr p/stderr | head -n 1)" ] ||
			fail "$label: stderr: timeit '$(head -n 1 c/stderr)', timeit-perf '$(head -n 1 p/stderr)'"
	else
		[ "$(norm_stderr c/stderr)" = "$(norm_stderr p/stderr)" ] ||
			fail "$label: stderr: timeit '$(cat c/stderr)', timeit-perf '$(cat p/stderr)'"
	fi
	check_summary S
	# Every file the command wrote, byte for byte; --help: the usage lists
	# differ, the first line does not.
	help=0
	case $1 in -h | --help) help=1 ;; esac
	if [ "$help" = 1 ]; then
		[ "$(sed -n '1s/timeit-perf/timeit/p' p/stdout)" = "$(sed -n 1p c/stdout)" ] ||
			fail "$label: usage line differs"
	fi
	for f in c/*; do
		n=${f#c/}
		case $n in S | stderr) continue ;; stdout) [ "$help" = 0 ] || continue ;; esac
		[ -e "p/$n" ] || fail "$label: timeit-perf did not write $n"
		cmp -s "$f" "p/$n" || fail "$label: $n differs: timeit '$(cat "$f")', timeit-perf '$(cat "p/$n")'"
	done
	for f in p/*; do
		[ -e "c/${f#p/}" ] || fail "$label: timeit-perf wrote ${f#p/}, timeit did not"
	done
}

# Exit paths.
case_ --summary S "$AUX" burn 200
case_ --summary S "$AUX" exit 3
case_ --summary S "$AUX" signal 11
case_ --summary S "$AUX" signal 15
min_real=0.9
case_ --summary S --timeout 1 "$AUX" sleep 3000
case_ --summary S --limit-cpu 1 "$AUX" burn 3000
min_real=0
case_ --summary S /nonexistent/command
case_ --summary S no-such-command-anywhere
case_ --summary S "$tmp/notexec"
case_ --summary S "$tmp"
case_ --summary S --chdir /nonexistent "$AUX" exit 0
case_ --summary S --redirect-input /nonexistent/in "$AUX" exit 0
case_ --summary S --redirect-stdout out --redirect-stderr /nonexistent/err "$AUX" exit 0
case_ --summary S --redirect-output S "$AUX" exit 0
case_ --summary S --redirect-stdout o --redirect-output o2 "$AUX" print out eprint err
case_ --summary S --redirect-output o2 --redirect-stdout o "$AUX" print out eprint err
case_ --summary '' "$AUX" exit 0
[ -w /dev/full ] && case_ --summary S --redirect-stdout /dev/full --append-exitstatus "$AUX" exit 0
case_ --summary S --redirect-stdout out --redirect-stderr ./out "$AUX" print 1 eprint 2 print 3
case_ --summary S --redirect-input ../in --redirect-stdout ./../in "$AUX" exit 0
case_ --summary /nonexistent/S "$AUX" exit 0
case_ --summary S --append-exitstatus --redirect-output out "$AUX" print hi eprint ho exit 5
case_ --summary S --append-exitstatus --redirect-stdout out "$tmp/notexec"
case_ --summary S "$AUX" fork 2

# A command whose path has a "=" (env would take it for NAME=VALUE).
mkdir -p "cfg=O2"
cp "$AUX" "cfg=O2/prog"
expect_status 0 "$PERFWRAP" --summary s "$tmp/cfg=O2/prog" print hello > out
[ "$(cat out)" = hello ] || fail "timeit-perf: a command path with '=': '$(cat out)'"
# A summary on the script's own stderr or stdout goes through that
# descriptor: appended to a log, not renamed over it; into a pipe.
echo previous > log
expect_status 0 "$PERFWRAP" --summary /dev/stderr "$AUX" eprint cmd 2>> log
[ "$(sed -n 1p log)" = previous ] && [ "$(sed -n 2p log)" = cmd ] &&
	[ "$(sed -n 3p log)" = "exit 0" ] || fail "timeit-perf --summary /dev/stderr: $(cat log)"
"$PERFWRAP" --summary /dev/stdout "$AUX" exit 0 | sed -n 1p > out
[ "$(cat out)" = "exit 0" ] || fail "timeit-perf --summary /dev/stdout into a pipe: '$(cat out)'"
# A symlink loop is refused before the run, as timeit does.
ln -s loop2 loop1
ln -s loop1 loop2
expect_status 1 "$PERFWRAP" --summary loop1 "$AUX" pidfile pf 2> err
[ ! -e pf ] || fail "timeit-perf --summary on a symlink loop ran the command"
grep -q "$(errno_text ELOOP)" err || fail "timeit-perf symlink loop: $(cat err)"

# A summary name of NAME_MAX bytes (the temporary name must not grow).
long=$(printf '%0255d' 0)
expect_status 0 "$PERFWRAP" --summary "$long" "$AUX" exit 0
[ "$(sed -n 1p "$long")" = "exit 0" ] || fail "timeit-perf: a 255-byte summary name"
rm -f "$long"

# Redirects and --chdir.
case_ --summary S --redirect-input ../in --redirect-stdout out --redirect-stderr err \
	"$AUX" cat eprint to-stderr
case_ --summary S --redirect-output out "$AUX" print a eprint b print c
case_ --summary S --redirect-stdout both --redirect-stderr both "$AUX" print a eprint b
case_ --summary S --redirect-stderr err "$AUX" eprint only-stderr
case_ --summary S --chdir "$tmp/sub" --redirect-stdout out "$AUX" pwd
case_ --summary S --redirect-stdout out "$AUX" fds sigstate pgrp
# Started without stdin: the command gets /dev/null, as from timeit.
closed_stdin=1
case_ --summary S --redirect-stdout out "$AUX" fds cat
closed_stdin=0
# The environment as given (perf adds to PATH and sets PERF_BUILDID_DIR).
case_ --summary S --chdir "$tmp/sub" --redirect-stdout out \
	sh -c 'env | grep -v "^_=" | LC_ALL=C sort'

# lit's command line, and every limit.
case_ --timeout 7200 --limit-core 0 --limit-cpu 7200 --limit-file-size 209715200 \
	--limit-rss-size 838860800 --redirect-stdout out --redirect-stderr err \
	--redirect-input /dev/null --chdir "$tmp" --summary S \
	"$AUX" limit core limit fsize limit rss limit cpu print done
# (qemu-user keeps RLIMIT_STACK and RLIMIT_DATA for itself: an emulated
# timeit cannot pass them on, as tests/limits.sh finds.)
if [ "$("$AUX" setlimit data 1073741824 limit data)" = 1073741824 ]; then
	case_ --summary S --limit-file-count 64 --limit-subprocess-count 500 \
		--limit-stack-size 8388608 --limit-data-size 1073741824 --redirect-stdout out \
		"$AUX" limit nofile limit nproc limit stack limit data
else
	case_ --summary S --limit-file-count 64 --limit-subprocess-count 500 \
		--redirect-stdout out "$AUX" limit nofile limit nproc
fi

# Option forms and summary contents.
# The CPU time of faulting in 64 MiB varies with the kernel's page
# allocation (a 4x spread seen under make distcheck): only maxrss, exit
# and the keys are compared here.
cpu_times=0
[ -z "$maxrss" ] || case_ --summary S "$maxrss" "$AUX" alloc 64
cpu_times=1
case_ --summary S -e task-clock,page-faults "$AUX" burn 100
case_ --summary=S --timeout=0 -q -- "$AUX" exit 2
case_ -c "$tmp/sub" -t 0 --summary S --summary S "$AUX" exit 0

# The report on stderr (no --summary).
case_ "$AUX" burn 50
case_ -p "$AUX" exit 4
[ -z "$maxrss" ] || case_ "$maxrss" "$AUX" exit 0

# Usage errors.
case_ --limit-cpu abc true
case_ --limit-cpu 99999999999999999999 true
case_ --limit-cpu 18446744073709551615 --summary S true
case_ --timeout -1 true
case_ -t
case_ --bogus true
case_ --posix=1 true
case_ - true
case_ --append-exitstatus true
case_ --summary S
case_ --help
case_ -h
# An event list neither accepts: a usage error, nothing run (the
# messages differ: timeit parses the list, timeit-perf asks perf).
for tool in "$TIMEIT" "$PERFWRAP"; do
	rm -f ran
	expect_status 1 "$tool" -e no-such-event --summary S "$AUX" pidfile ran 2>err
	grep -q -- '--events: .*no-such-event' err || fail "-e no-such-event: $tool: $(cat err)"
	[ ! -e ran ] || fail "-e no-such-event: $tool ran the command"
	[ ! -e S ] || fail "-e no-such-event: $tool wrote a summary"
done
cases=$((cases + 1))

# SIGTERM to the program while the command runs: the command's group is
# killed, the summary still written, status 137.
label="SIGTERM to the program"
rm -rf c p
mkdir c p
for d in c p; do
	tool=$TIMEIT
	[ "$d" = p ] && tool=$PERFWRAP
	(
		cd "$d" || exit 99
		"$tool" --summary S "$AUX" pidfile pid sleep 20000 2>stderr 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
		prog_pid=$!
		wait_for_file pid
		kill -TERM "$prog_pid"
		set +e
		wait "$prog_pid"
		echo $? >status
	)
	[ "$(cat "$d/status")" = 137 ] || fail "$label: $d: status $(cat "$d/status")"
	! kill -0 "$(cat "$d/pid")" 2>/dev/null || fail "$label: $d: the command survived"
done
[ "$(norm_stderr c/stderr)" = "$(norm_stderr p/stderr)" ] ||
	fail "$label: stderr: timeit '$(cat c/stderr)', timeit-perf '$(cat p/stderr)'"
[ "$(keys c/S)" = "$(keys p/S)" ] || fail "$label: keys differ: $(cat c/S) / $(cat p/S)"
[ "$(summary_value p/S exit)" = 137 ] || fail "$label: exit line: $(cat p/S)"
cases=$((cases + 1))

echo "$cases cases agree"
[ "$emu" = 0 ] ||
	skip "everything else checked; not the CPU times (the programs run under an emulator, $("$AUX" machine) on $(uname -m))"
exit 0
