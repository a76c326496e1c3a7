#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# TIMEIT_OPTIONS (timeit(1), ENVIRONMENT; timeit-perf(1) too): options for every run that lit
# or CMake start, parsed before the command line's (which win), split as
# sh splits words, recorded in --json; a word that is not an option, a
# value left hanging, an open quote are usage errors naming TIMEIT_OPTIONS
# that run nothing.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"

# Options from the environment alone.
TIMEIT_OPTIONS='--summary s1 --report-maxrss' "$TIMEIT" "$AUX" exit 3 2> err && fail "exit 3 lost"
[ "$(summary_value s1 exit)" = 3 ] || fail "TIMEIT_OPTIONS --summary not used"
grep -q '^maxrss ' s1 || fail "TIMEIT_OPTIONS --report-maxrss not used"

# The command line's options come after, and win.
TIMEIT_OPTIONS='--summary from-env' "$TIMEIT" --summary from-argv "$AUX" exit 0
[ -f from-argv ] || fail "the command line's --summary lost to TIMEIT_OPTIONS"
[ ! -e from-env ] || fail "TIMEIT_OPTIONS' --summary was written too"

# Words as sh splits them: quotes, backslashes, blanks of every kind.
mkdir 'a dir'
TIMEIT_OPTIONS="--summary 'a dir/s 1'	--chdir \"a dir\"
	--redirect-output a\\ dir/out" "$TIMEIT" "$AUX" pwd
[ -f 'a dir/s 1' ] || fail "a single-quoted path with a space"
grep -q '/a dir$' 'a dir/out' || fail "a double-quoted --chdir, a backslash-escaped space"
TIMEIT_OPTIONS='--summary "x\"y"' "$TIMEIT" "$AUX" exit 0
[ -f 'x"y' ] || fail "an escaped quote inside double quotes"
# Empty and blank: no options.
TIMEIT_OPTIONS='' "$TIMEIT" --summary e1 "$AUX" exit 0
TIMEIT_OPTIONS='  	' "$TIMEIT" --summary e2 "$AUX" exit 0
[ -f e1 ] || fail "an empty TIMEIT_OPTIONS changed something"
[ -f e2 ] || fail "a blank TIMEIT_OPTIONS changed something"

# --json records it (null without).
if command -v jq > /dev/null 2>&1; then
	TIMEIT_OPTIONS="-q --report-maxrss" "$TIMEIT" --json j1 "$AUX" exit 0
	jq -e '.timeit_options == "-q --report-maxrss"' j1 > /dev/null ||
		fail "--json timeit_options: $(jq -c .timeit_options j1)"
	jq -e '.timeit_argv | index("-q") == null' j1 > /dev/null ||
		fail "timeit_argv holds TIMEIT_OPTIONS' words"
	env -u TIMEIT_OPTIONS "$TIMEIT" --json j2 "$AUX" exit 0
	jq -e '.timeit_options == null' j2 > /dev/null || fail "timeit_options not null when unset"
fi

# Errors: status 1, the message names TIMEIT_OPTIONS, nothing runs.
bad() {
	rm -f ran
	set +e
	TIMEIT_OPTIONS=$1 "$TIMEIT" --summary bad.time "$AUX" pidfile ran > out 2> err
	st=$?
	set -e
	[ "$st" -eq 1 ] || fail "TIMEIT_OPTIONS='$1': status $st, expected 1"
	sed 1q err | grep -qF -- "$2" || fail "TIMEIT_OPTIONS='$1': $(sed 1q err)"
	[ ! -e ran ] || fail "TIMEIT_OPTIONS='$1': the command ran"
	[ ! -e bad.time ] || fail "TIMEIT_OPTIONS='$1': a summary was written"
}
bad '--bogus' "error: TIMEIT_OPTIONS: invalid argument '--bogus'"
bad '--timeout abc' "timeit: TIMEIT_OPTIONS: --timeout: invalid number 'abc'"
bad '--limit-cpu' "error: TIMEIT_OPTIONS: --limit-cpu argument requires an option"
bad 'true' "timeit: TIMEIT_OPTIONS: 'true' is not an option"
bad '-q /bin/true' "timeit: TIMEIT_OPTIONS: '/bin/true' is not an option"
bad '-- true' "timeit: TIMEIT_OPTIONS: '--' ends timeit's options on its command line only"
bad "--summary 'x" "timeit: TIMEIT_OPTIONS: a quote is not closed"
bad '--summary "x' "timeit: TIMEIT_OPTIONS: a quote is not closed"
# An error on the command line itself is not blamed on TIMEIT_OPTIONS.
set +e
TIMEIT_OPTIONS=-q "$TIMEIT" --bogus "$AUX" exit 0 2> err
set -e
sed 1q err | grep -qx "error: invalid argument '--bogus'" || fail "blamed: $(sed 1q err)"

# timeit-perf reads it the same way (no eval: nothing in it runs).
P=$top_builddir/perfwrap/timeit-perf
pbad() {
	set +e
	TIMEIT_OPTIONS=$1 "$P" --summary pbad.time "$AUX" pidfile ran > out 2> err
	st=$?
	set -e
	[ "$st" -eq 1 ] || fail "timeit-perf, TIMEIT_OPTIONS='$1': status $st, expected 1"
	sed 1q err | grep -qF -- "$2" || fail "timeit-perf, TIMEIT_OPTIONS='$1': $(sed 1q err)"
	[ ! -e ran ] || fail "timeit-perf, TIMEIT_OPTIONS='$1': the command ran"
}
pbad '--bogus' "error: TIMEIT_OPTIONS: invalid argument '--bogus'"
pbad '--timeout abc' "timeit-perf: TIMEIT_OPTIONS: --timeout: invalid number 'abc'"
pbad '--limit-cpu' "error: TIMEIT_OPTIONS: --limit-cpu argument requires an option"
pbad 'true' "timeit-perf: TIMEIT_OPTIONS: 'true' is not an option"
pbad '-- true' "timeit-perf: TIMEIT_OPTIONS: '--' ends timeit-perf's options on its command line only"
pbad "--summary 'x" "timeit-perf: TIMEIT_OPTIONS: a quote is not closed"
# shellcheck disable=SC2016 # a literal command substitution, never run
pbad 'x$(touch pwned)' "timeit-perf: TIMEIT_OPTIONS: 'x\$(touch' is not an option"
[ ! -e pwned ] || fail "timeit-perf ran a command substitution from TIMEIT_OPTIONS"
TIMEIT_OPTIONS="--fallback -q --summary 'p dir s'" "$P" --summary p2 "$AUX" exit 0
[ -f p2 ] || fail "timeit-perf: the command line's --summary lost"
[ ! -e 'p dir s' ] || fail "timeit-perf: TIMEIT_OPTIONS' --summary won"
TIMEIT_OPTIONS="--fallback -q --summary 'p s'" "$P" "$AUX" exit 0
[ -f 'p s' ] || fail "timeit-perf: TIMEIT_OPTIONS' quoted --summary not used"
