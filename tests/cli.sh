#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The command line (timeit(1), SYNOPSIS and OPTIONS): the reference's usage
# errors byte for byte, strict numbers, "--", --version, -h, options ending
# at the first non-option, the last repeated option winning.  A bad command
# line runs nothing and leaves an existing summary alone.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"

echo "previous summary" > old.time
cp old.time old.keep

# bad KIND FIRSTLINE ARGS...: timeit ARGS fails with status 1, FIRSTLINE is
# the first line on stderr, KIND "usage" also prints the usage after it;
# stdout stays empty, the child (which would write pf) never runs and the
# existing summary is untouched.
bad() {
	b_kind=$1
	b_want=$2
	shift 2
	rm -f pf
	expect_status 1 "$TIMEIT" "$@" >out 2>err
	[ ! -s out ] || fail "'$*' wrote to stdout: $(cat out)"
	b_got=$(sed -n 1p err)
	[ "$b_got" = "$b_want" ] || fail "'$*': stderr line 1 is '$b_got', expected '$b_want'"
	if [ "$b_kind" = usage ]; then
		sed -n 2p err | grep -q '^usage: ' || fail "'$*': no usage after the error"
	else
		[ "$(wc -l <err)" -eq 1 ] || fail "'$*': more than the error on stderr: $(cat err)"
	fi
	[ ! -e pf ] || fail "'$*' ran the command"
	cmp -s old.time old.keep || fail "'$*' touched the summary file"
	for f in .*.tmp.*; do
		[ ! -e "$f" ] || fail "'$*' left a temporary file $f"
	done
}

S="--summary old.time"
# shellcheck disable=SC2086
{
# The reference's three usage errors.
bad usage "error: invalid argument '--x'" $S --x "$AUX" pidfile pf
bad usage "error: invalid argument '-x'" $S -x "$AUX" pidfile pf
bad usage "error: invalid argument '-'" $S - "$AUX" pidfile pf
bad usage "error: invalid argument '--summary-file'" --summary-file old.time "$AUX" pidfile pf
bad usage "error: invalid argument '--posix=1'" $S --posix=1 "$AUX" pidfile pf
bad usage "error: --timeout argument requires an option" $S --timeout
bad usage "error: -t argument requires an option" $S -t
bad usage "error: --summary argument requires an option" --summary
bad usage "error: --redirect-output argument requires an option" $S --redirect-output
bad usage "error: --limit-core argument requires an option" $S --limit-core
bad usage "error: no command (or arguments) was given"
bad usage "error: no command (or arguments) was given" $S
bad usage "error: no command (or arguments) was given" $S -p --report-maxrss
bad usage "error: no command (or arguments) was given" $S --

# Strict 64-bit numbers (DECISION): garbage, a sign, overflow, empty.
bad invalid "timeit: --limit-cpu: invalid number 'abc'" $S --limit-cpu abc "$AUX" pidfile pf
bad invalid "timeit: --limit-cpu: invalid number '-1'" $S --limit-cpu -1 "$AUX" pidfile pf
bad invalid "timeit: --limit-cpu: invalid number '+1'" $S --limit-cpu +1 "$AUX" pidfile pf
bad invalid "timeit: --limit-cpu: invalid number ''" $S --limit-cpu '' "$AUX" pidfile pf
bad invalid "timeit: --limit-cpu: invalid number ''" $S --limit-cpu= "$AUX" pidfile pf
bad invalid "timeit: --limit-cpu: invalid number ' 1'" $S --limit-cpu ' 1' "$AUX" pidfile pf
bad invalid "timeit: --limit-cpu: invalid number '1 '" $S --limit-cpu '1 ' "$AUX" pidfile pf
bad invalid "timeit: --limit-cpu: invalid number '1x'" $S --limit-cpu 1x "$AUX" pidfile pf
bad invalid "timeit: --limit-cpu: invalid number '0x10'" $S --limit-cpu 0x10 "$AUX" pidfile pf
bad invalid "timeit: --limit-cpu: invalid number '1.5'" $S --limit-cpu 1.5 "$AUX" pidfile pf
bad invalid "timeit: --limit-cpu: invalid number '1e3'" $S --limit-cpu 1e3 "$AUX" pidfile pf
bad invalid "timeit: --limit-cpu: number out of range '18446744073709551616'" \
	$S --limit-cpu 18446744073709551616 "$AUX" pidfile pf
bad invalid "timeit: --limit-cpu: number out of range '99999999999999999999999'" \
	$S --limit-cpu 99999999999999999999999 "$AUX" pidfile pf
bad invalid "timeit: --timeout: invalid number '-5'" $S --timeout -5 "$AUX" pidfile pf
bad invalid "timeit: --timeout: invalid number '1s'" $S -t 1s "$AUX" pidfile pf
for opt in stack-size data-size rss-size file-size core file-count subprocess-count; do
	bad invalid "timeit: --limit-$opt: invalid number 'x'" $S --limit-$opt x "$AUX" pidfile pf
	bad invalid "timeit: --limit-$opt: number out of range '18446744073709551616'" \
		$S --limit-$opt 18446744073709551616 "$AUX" pidfile pf
done
# A bad value is caught even when a later option would be fine.
bad invalid "timeit: --limit-cpu: invalid number 'abc'" \
	$S --limit-cpu abc --limit-cpu 5 "$AUX" pidfile pf

# --append-exitstatus without a stdout file (DECISION: a usage error
# before anything runs; the reference fails with 66 afterwards).
bad invalid "timeit: --append-exitstatus needs --redirect-output or --redirect-stdout" \
	$S --append-exitstatus "$AUX" pidfile pf
bad invalid "timeit: --append-exitstatus needs --redirect-output or --redirect-stdout" \
	$S --append-exitstatus --redirect-stderr e "$AUX" pidfile pf
[ ! -e e ] || fail "a usage error created the --redirect-stderr file"

# Two of timeit's files that are one: the summary would overwrite the
# JSON, a redirect the summary or the input.  Found whatever the spelling
# (./x, a symlink) and whether or not the file exists yet; stdout and
# stderr may share one, and devices may be named twice.
bad invalid "timeit: --summary old.time and --json ./old.time are the same file" \
	$S --json ./old.time "$AUX" pidfile pf
bad invalid "timeit: --summary new.time and --json ./new.time are the same file" \
	--summary new.time --json ./new.time "$AUX" pidfile pf
[ ! -e new.time ] || fail "a clash created the summary"
bad invalid "timeit: --summary old.time and --redirect-output old.time are the same file" \
	$S --redirect-output old.time "$AUX" pidfile pf
ln -s old.time old.link
bad invalid "timeit: --summary old.time and --redirect-stderr old.link are the same file" \
	$S --redirect-stderr old.link "$AUX" pidfile pf
echo input > in.txt
bad invalid "timeit: --redirect-input in.txt and --redirect-stdout in.txt are the same file" \
	$S --redirect-input in.txt --redirect-stdout in.txt "$AUX" pidfile pf
[ "$(cat in.txt)" = input ] || fail "a clash truncated the input"
}
expect_status 0 "$TIMEIT" --summary s --redirect-stdout o --redirect-stderr ./o "$AUX" exit 0
expect_status 0 "$TIMEIT" --summary /dev/null --json /dev/null --redirect-input /dev/null \
	--redirect-output /dev/null "$AUX" exit 0

# The largest 64-bit value is accepted (it is "no limit" for RLIMIT_CPU).
expect_status 0 "$TIMEIT" --summary s --limit-cpu 18446744073709551615 "$AUX" limit cpu >out
[ "$(cat out)" = unlimited ] || fail "--limit-cpu 2^64-1: child's limit is $(cat out)"
expect_status 0 "$TIMEIT" --summary s --limit-cpu 007 "$AUX" limit cpu >out
[ "$(cat out)" = 7 ] || fail "--limit-cpu 007: child's limit is $(cat out)"
expect_status 0 "$TIMEIT" --summary s --limit-cpu=9 "$AUX" limit cpu >out
[ "$(cat out)" = 9 ] || fail "--limit-cpu=9: child's limit is $(cat out)"

# -h / --help: usage on stdout, status 0, nothing run.
for h in -h --help; do
	rm -f pf
	expect_status 0 "$TIMEIT" "$h" "$AUX" pidfile pf >out 2>err
	sed -n 1p out | grep -q '^usage: timeit ' || fail "$h: no usage on stdout"
	[ ! -s err ] || fail "$h wrote to stderr: $(cat err)"
	[ ! -e pf ] || fail "$h ran the command"
	# Every option of the reference is listed.
	for opt in -p --posix -t --timeout -c --chdir --summary --redirect-input \
		--redirect-output --redirect-stdout --redirect-stderr --append-exitstatus \
		--report-maxrss --limit-cpu --limit-stack-size --limit-data-size \
		--limit-rss-size --limit-file-size --limit-core --limit-file-count \
		--limit-subprocess-count -h --help --version; do
		grep -q -e "${opt}[ ,]" out || fail "$h does not list $opt"
	done
done
# -h anywhere among the options wins over what follows.
expect_status 0 "$TIMEIT" --summary old.time -h --x >out 2>err
cmp -s old.time old.keep || fail "-h touched the summary file"

# --version (DECISION): the version and the features built in.
expect_status 0 "$TIMEIT" --version >out 2>err
sed -n 1p out | grep -Eq '^timeit [0-9]+\.[0-9]+' || fail "--version: $(sed -n 1p out)"
grep -Eqx 'perf events: (yes|no)' out || fail "--version does not say 'perf events: yes|no'"
[ ! -s err ] || fail "--version wrote to stderr"
# What these print on standard output must all be written, or the status
# says it was not (a full disk).
if [ -w /dev/full ]; then
	for a in --help --version --list-events --check-env; do
		expect_status 66 "$TIMEIT" "$a" >/dev/full 2>err
		grep -q '^timeit: standard output: ' err || fail "$a on a full disk: '$(cat err)'"
	done
fi

# "--" ends the options (DECISION; the reference rejects it).
expect_status 3 "$TIMEIT" --summary s -- "$AUX" exit 3
[ "$(sed -n 1p s)" = "exit 3" ] || fail "-- : summary says $(sed -n 1p s)"
# After "--" even an option-looking word is the command: not found, 127
# (in an empty PATH: a PATH directory that cannot be searched gives 126).
mkdir emptybin
expect_status 127 env PATH="$tmp/emptybin" "$TIMEIT" --summary s -- --x 2>err
grep -q 'error: invalid argument' err && fail "'-- --x' was parsed as an option"
# Only the first "--" is special: the second reaches the command.
expect_status 0 "$TIMEIT" --summary s -- "$AUX" print -- >out
[ "$(cat out)" = "--" ] || fail "the command did not get its '--'"

# Options end at the first non-option; the rest goes unchanged to the
# command, option-looking words included.
rm -f s2
expect_status 0 "$TIMEIT" --summary s "$AUX" print --summary print s2 print -p >out 2>err
printf '%s\n' --summary s2 -p | cmp -s - out || fail "the command's arguments were changed: $(cat out)"
[ ! -e s2 ] || fail "an argument after the command was taken as --summary"
[ ! -s err ] || fail "an argument after the command was taken as an option: $(cat err)"
# Arguments with spaces, empty ones and globs pass through untouched.
expect_status 0 "$TIMEIT" --summary s "$AUX" print 'a  b' print '' print '*' >out
printf '%s\n' 'a  b' '' '*' | cmp -s - out || fail "arguments were not passed unchanged: $(cat out)"

# The environment reaches the command unchanged ("_" is the shell's).
TIMEIT_TEST_VAR='a b=c' "$TIMEIT" --summary s env | grep -v '^_=' | sort >env.timeit
TIMEIT_TEST_VAR='a b=c' env | grep -v '^_=' | sort >env.direct
cmp -s env.direct env.timeit || fail "the environment changed: $(diff env.direct env.timeit || true)"

# The last repeated option wins.
expect_status 0 "$TIMEIT" --limit-cpu 5 --limit-cpu 7 --summary s "$AUX" limit cpu >out
[ "$(cat out)" = 7 ] || fail "--limit-cpu 5 --limit-cpu 7 gave $(cat out)"
rm -f first second
expect_status 4 "$TIMEIT" --summary first --summary second "$AUX" exit 4
[ ! -e first ] || fail "the first of two --summary options was written"
[ "$(sed -n 1p second)" = "exit 4" ] || fail "the last --summary was not written"
rm -f o1 o2
expect_status 0 "$TIMEIT" --summary s --redirect-stdout o1 --redirect-stdout o2 "$AUX" print x
[ ! -e o1 ] || fail "the first of two --redirect-stdout options was opened"
[ "$(cat o2)" = x ] || fail "the last --redirect-stdout did not get the output"
expect_status 0 "$TIMEIT" --summary s -c / --chdir "$tmp" "$AUX" pwd >out
[ "$(cat out)" = "$(pwd -P)" ] || fail "-c / --chdir DIR ran in $(cat out)"

# Short and long spellings mean the same.
expect_status 137 "$TIMEIT" -t 1 --summary s "$AUX" sleep 20000 2>err
grep -q '^timeit: TIMING OUT PROCESS: ' err || fail "-t 1 did not time out"
expect_status 0 "$TIMEIT" -p "$AUX" exit 0 2>err
grep -q '^real ' err || fail "-p did not give the POSIX layout: $(cat err)"

# --json -: the document on standard output and no file named "-";
# --summary - still writes the file "-", as the reference does.
"$TIMEIT" --json - "$AUX" exit 0 > j.out 2> /dev/null
grep -q '"timeit_version"' j.out || fail "--json -: no document on stdout: $(head -c 200 j.out)"
[ ! -e ./- ] || fail "--json - wrote a file named '-'"
"$TIMEIT" --summary - "$AUX" exit 0
[ "$(sed -n 1p ./-)" = "exit 0" ] || fail "--summary - did not write the file '-'"
rm -f ./-
exit 0
