#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# --repeat, --warmup, --keep-going through the command line: summary lines,
# JSON runs, stopping at a failure, redirect files, progress display.
. "$top_srcdir/tests/setup"

# Each run appends a line to "count" and prints how many runs there were.
cat >run.sh <<'EOS'
echo x >>count
n=$(wc -l <count)
echo "run $n"
case " ${FAIL_AT:-} " in *" $n "*) exit 3;; esac
exit 0
EOS

"$TIMEIT" --repeat 3 --warmup 2 --summary s --json j sh run.sh 2>err >/dev/null ||
	fail "repeat run failed"
[ "$(wc -l <count)" -eq 5 ] || fail "2 warmups + 3 runs ran $(wc -l <count) times"
[ "$(summary_value s n-runs)" = 3 ] || fail "n-runs '$(summary_value s n-runs)'"
[ "$(summary_value s exit)" = 0 ] || fail "exit line"
lit_user s >/dev/null
for k in min-real mad-real min-user mad-user min-sys mad-sys; do
	v=$(summary_value s $k)
	in_range "${v:-x}" 0 100 || fail "$k '$v'"
done
# The median is between the minimum and the slowest run.
in_range "$(summary_value s real)" "$(summary_value s min-real)" 100 || fail "median < min"
# Only the reference's lines start with a reserved word.
[ "$(grep -c -E '^(user|exit|real|sys|maxrss)' s)" -eq 4 ] || fail "reserved prefixes in $(cat s)"
# JSON: every measured run's record, and the aggregate.
[ "$(grep -c '"exit_code"' j)" -eq 3 ] || fail "JSON has $(grep -c '"exit_code"' j) runs, want 3"
grep -q '"repeat": {' j || fail "JSON has no repeat object"
# Not a terminal: no progress line.
! grep -q 'run 1/' err || fail "progress written to a file"

# Without --summary the report on stderr gets the n-runs, min- and mad-
# lines; the POSIX layout of -p keeps its three lines.
"$TIMEIT" --repeat 2 true 2>err || fail "repeat report run"
grep -q '^n-runs  *2$' err || fail "no n-runs after the report: $(cat err)"
"$TIMEIT" -p --repeat 2 true 2>err || fail "repeat -p run"
[ "$(wc -l <err)" -eq 3 ] && grep -q '^real ' err && grep -q '^sys  ' err ||
	fail "-p with --repeat: $(cat err)"

# Stop at the first failure: its status is exit (and timeit's).
rm -f count
FAIL_AT=2 expect_status 3 "$TIMEIT" --repeat 5 --summary s sh run.sh
[ "$(wc -l <count)" -eq 2 ] || fail "ran on after the failure"
[ "$(summary_value s exit)" = 3 ] && [ "$(summary_value s n-runs)" = 2 ] || fail "$(cat s)"

# --keep-going: every run, exit is the first non-zero status.
rm -f count
FAIL_AT="2 4" expect_status 3 "$TIMEIT" --repeat 5 --keep-going --summary s sh run.sh
[ "$(wc -l <count)" -eq 5 ] && [ "$(summary_value s n-runs)" = 5 ] || fail "keep-going: $(cat s)"

# A killed run is a failure too; a signal status (128+S) comes through.
expect_status 137 "$TIMEIT" --repeat 3 --summary s sh -c 'kill -9 $$'
[ "$(summary_value s n-runs)" = 1 ] || fail "went on after a signal"

# Every row of the exit status table (timeit(1), EXIT STATUS) under --repeat: the
# series stops at the first run, whose status is timeit's and the summary's.
stops() {
	_want=$1
	shift
	rm -f s
	expect_status "$_want" "$TIMEIT" --repeat 3 --summary s "$@" 2>/dev/null
	[ "$(summary_value s exit)" = "$_want" ] && [ "$(summary_value s n-runs)" = 1 ] ||
		fail "--repeat 3 $*: $(cat s)"
}
stops 5 "$AUX" exit 5
stops 143 "$AUX" signal 15
stops 137 -t 1 "$AUX" sleep 5000
stops 137 --limit-cpu 1 "$AUX" burn 3000
stops 127 ./missing
stops 126 ./run.sh
# A bad --chdir is found before the first run: nothing runs, no summary.
rm -f s
expect_status 66 "$TIMEIT" --repeat 3 --summary s -c no-such-dir "$AUX" exit 0 2>/dev/null
[ ! -e s ] || fail "--repeat 3 -c no-such-dir wrote a summary: $(cat s)"
# SIGTERM to timeit: the running command is killed, the series ends, the
# summary is written.
rm -f s pid
"$TIMEIT" --repeat 3 --summary s "$AUX" pidfile pid sleep 5000 2>err &
term_when pid $!
[ "$st" -eq 137 ] || fail "SIGTERM during --repeat: status $st"
[ "$(summary_value s exit)" = 137 ] && [ "$(summary_value s n-runs)" = 1 ] ||
	fail "SIGTERM during --repeat: $(cat s)"
grep -q '^timeit: error: received signal 15\. killing monitored process(es): ' err || fail "SIGTERM: $(cat err)"

# Redirect files hold the last measured run; --append-exitstatus appends once.
rm -f count
"$TIMEIT" --repeat 3 --warmup 1 --append-exitstatus --redirect-output out --summary s \
	sh run.sh || fail "append run"
printf 'run 4\nexit 0\n' | cmp -s - out || fail "output file: $(cat out)"
rm -f count
FAIL_AT=2 expect_status 0 "$TIMEIT" --repeat 3 --append-exitstatus --redirect-output out \
	--summary s sh run.sh
printf 'run 2\nexit 3\n' | cmp -s - out || fail "output file after a failure: $(cat out)"

# Bad counts are usage errors; nothing runs.
rm -f count
expect_status 1 "$TIMEIT" --repeat 0 sh run.sh 2>/dev/null
expect_status 1 "$TIMEIT" --repeat x sh run.sh 2>/dev/null
expect_status 1 "$TIMEIT" --warmup 10001 sh run.sh 2>/dev/null
[ ! -e count ] || fail "a usage error ran the command"

# On a terminal (script(1) gives one), a progress line on stderr.
if command -v script >/dev/null 2>&1; then
	script -qec "\"$TIMEIT\" --repeat 3 sh -c true" /dev/null >tty.txt 2>&1 </dev/null || true
	grep -q 'run 1/3' tty.txt || fail "no progress line on a terminal: $(cat tty.txt)"
fi
exit 0
