#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-ab --cmd A --cmd B: two command lines compared in rounds, each run
# under timeit (a summary a side and round in O/SIDE/results, the output
# in O/SIDE/logs), with the verdict, exit status and rounds table of a lit
# run.  A command twice as slow is a regression (status 1); two commands
# running byte-identical files with the same arguments are decided after
# round 1 (same binary), unless --no-identity; --no-shell splits as sh
# would without sh; a command timeit cannot run fails the run naming its
# logs; -C options reach the verdict (CSV); every wrong command line is one
# line and status 2 with nothing made; a used -o is refused, saying what is
# there, its rounds kept, unless --replace (an earlier run's only).
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab

"${CC:-cc}" -O2 -o spin "$top_srcdir/tests/lit-ab/spin.c" || fail "cannot build spin"
cp spin spin2
"${CC:-cc}" -O2 -DEXTRA=100 -o slow "$top_srcdir/tests/lit-ab/spin.c" || fail "cannot build slow"
cat > args.sh <<'EOS'
for a; do printf '[%s]' "$a"; done
echo
EOS

# Twice the work: regressed, status 1, named by the programs.  About
# 0.1 s a run: where user time comes from rusage, the kernel splits a
# run's CPU time between user and sys by where its ticks fell, and a
# 10 ms run can show a user time of 0.
expect_status 1 "$ab" -q --cmd './spin 60000000' --cmd './slow 60000000' -o O1 > out 2> err ||
	fail "twice the work: $(cat out err)"
grep -q '^spin vs slow .* regressed' out || fail "no regression: $(cat out)"
grep -q '^A: sh -c ./spin 60000000$' out || fail "command A not said: $(cat out)"
rounds=$(awk -F '\t' '{ print $2 }' O1/stop.tsv)
n=$(find O1/A/results -name 'spin vs slow.*.time' | wc -l)
[ "$n" -eq "$rounds" ] || fail "$n summaries of A, not the $rounds rounds"
[ "$(summary_value 'O1/B/results/spin vs slow.1.time' exit)" = 0 ] || fail "B's summary"
[ -f 'O1/A/logs/spin vs slow.1.log' ] || fail "no log of A's round 1"

# Byte-identical files, same arguments: decided after round 1, status 0.
expect_status 0 "$ab" -q --cmd './spin 100000' --cmd './spin2 100000' -o O2 > out 2> err ||
	fail "identical: $(cat out err)"
grep -Eq '^spin vs spin2 +1 +same binary' out || fail "identity: $(cat out)"
# Other arguments: no identity; sequential rounds, alternated.
expect_status 0 "$ab" -q -n 2 --schedule sequential --cmd './spin 100000' \
	--cmd './spin2 100001' -o O3 > out 2> err
grep -Eq '^spin vs spin2 +2 +fixed' out || fail "arguments differ, identity: $(cat out)"
[ "$(awk '{ print $2 }' O3/rounds.log | tr '\n' ' ')" = 'AB BA ' ] ||
	fail "sequential rounds: $(cat O3/rounds.log)"
[ "$(awk -F '\t' 'NR == 2 { print $4 }' O3/samples.tsv)" = sequential ] ||
	fail "samples.tsv: $(cat O3/samples.tsv)"
# --no-identity, names: sampled anyway, the names in the table.
expect_status 0 "$ab" -q -n 2 --no-identity --name old --name new --cmd './spin 100000' \
	--cmd './spin2 100000' -o O4 > out 2> err || fail "--no-identity: $(cat out err)"
grep -Eq '^old vs new +2 +fixed' out || fail "--no-identity: $(cat out)"
grep -q '^A (old): sh -c ./spin 100000$' out || fail "--name: $(cat out)"

# --no-shell: sh's quoting, no sh; the words reach the program as given.
# shellcheck disable=SC2016 # $HOME must reach it unexpanded
expect_status 0 "$ab" -q -n 1 -N --cmd "sh args.sh 'a b' \"c\\\"d\"" --cmd 'sh args.sh $HOME' \
	-o O5 > out 2> err || fail "--no-shell: $(cat out err)"
[ "$(cat O5/A/logs/sh.1.log)" = '[a b][c"d]' ] || fail "A's words: $(cat O5/A/logs/sh.1.log)"
[ "$(cat O5/B/logs/sh.1.log)" = "[\$HOME]" ] || fail "B's words: $(cat O5/B/logs/sh.1.log)"

# A command timeit cannot run: status 2, the logs named.
expect_status 2 "$ab" -q -N --cmd './no-such-program' --cmd './spin 1000' -o O6 > out 2> err
grep -q "every test failed on side A (command A; its output in .*/O6/A/logs)" err ||
	fail "a command that cannot run: $(cat err)"
grep -q 'no-such-program' O6/A/logs/* || fail "the log: $(cat O6/A/logs/*)"

# -C options reach the verdict: CSV.
expect_status 1 "$ab" -q -C --format=csv --cmd './spin 60000000' --cmd './slow 60000000' \
	-o O7 > out 2> err || fail "-C --format=csv: $(cat out err)"
[ "$(csv_field out 'spin vs slow' verdict)" = regressed ] || fail "CSV: $(cat out)"
# An export alone on stdout: the rounds table only in O/rounds.txt.
[ "$(wc -l < out)" -eq 2 ] || fail "CSV and more: $(cat out)"
grep -q '^spin vs slow ' O7/rounds.txt || fail "O7/rounds.txt: $(cat O7/rounds.txt)"

# A used -o: refused, saying what is there, its rounds kept.
expect_status 2 "$ab" -q -n 1 --cmd './spin 1000' --cmd './spin 1000' -o O1 > out 2> err
grep -q "^timeit-ab: O1: holds an earlier run of timeit-ab ($rounds rounds in rounds.log): give another --output, e.g. -o O1.2, or --replace to remove it first\$" err ||
	fail "a used -o: $(cat err)"
n=$(find O1/A/results -name '*.time' | wc -l)
[ "$n" -eq "$rounds" ] || fail "the earlier run's summaries: $n, not $rounds"
# --replace: the earlier run goes, nothing of it in the new one.
expect_status 0 "$ab" -q -n 2 --replace --cmd './spin 1000' --cmd './spin 1001' -o O1 > out 2> err ||
	fail "--replace: $(cat err)"
[ "$(find O1 -name '*.time' | wc -l)" -eq 4 ] || fail "--replace left: $(find O1 -name '*.time')"
[ "$(wc -l < O1/rounds.log)" -eq 2 ] || fail "--replace: rounds.log $(cat O1/rounds.log)"
# A directory that holds something else is the user's: --replace refuses it.
mkdir J && : > J/mine
expect_status 2 "$ab" -q --replace --cmd './spin 1' --cmd './spin 2' -o J > out 2> err
grep -q "^timeit-ab: J: is not empty (1 entry, e.g. 'mine'), and no run of timeit-ab: give another --output, e.g. -o J.2, or remove it first\$" err ||
	fail "--replace of another directory: $(cat err)"
[ -f J/mine ] || fail "--replace removed a file it did not write"

# Wrong command lines: one line, status 2, no -o made.
bad() {
	expect_status 2 "$ab" -o BAD "$@" > out 2> err
	[ "$(wc -l < err)" -eq 1 ] || fail "$*: not one line: $(cat err)"
	grep -q "^timeit-ab: $msg" err || fail "$*: $(cat err)"
	[ ! -e BAD ] || fail "$*: made -o"
}
msg="--cmd: give two commands" bad --cmd ./spin
msg="--cmd: given a third time" bad --cmd a --cmd b --cmd c
msg="--cmd: an empty command" bad --cmd '' --cmd b
msg="--name: give one for each command" bad --cmd a --cmd b --name x
msg="--name: only with --cmd" bad --name x --name y d1 d2
msg="--no-shell: only with --cmd" bad -N d1 d2
msg="'d1': with --cmd, no test directories" bad --cmd a --cmd b d1
msg="'x': with --cmd, no lit arguments" bad --cmd a --cmd b -- x
msg="--cmd ''a': a quote is not closed" bad -N --cmd "'a" --cmd b
msg="--name 'a/b': a name is 1 to 100" bad --cmd a --cmd b --name a/b --name c
msg="--cmd and --suite: one or the other" bad --cmd a --cmd b --suite run.sh
msg="--replace: not with --suite" bad --replace --suite run.sh x
msg="--cmds: unknown option (did you mean --cmd?" bad --cmds a
# The runs' TMPDIR: timeit-ab's own, absolute (a relative TMPDIR given),
# inside the user's, and gone when the run ends.
mkdir rel
printf 'echo "$TMPDIR" >> %s/tmpdirs\n' "$(pwd)" > tmpdir.sh
expect_status 0 env TMPDIR=rel "$ab" -q -n 1 -N --schedule sequential --cmd 'sh tmpdir.sh' --cmd 'sh tmpdir.sh' \
	-o TD > td.out 2> td.err || fail "TMPDIR: $(cat td.out td.err)"
[ "$(sort -u tmpdirs | wc -l)" -eq 1 ] || fail "not one TMPDIR: $(cat tmpdirs)"
case $(head -n 1 tmpdirs) in
"$(pwd)"/rel/timeit-ab.??????) ;;
*) fail "the runs' TMPDIR: $(cat tmpdirs)" ;;
esac
[ -z "$(ls -A rel)" ] || fail "left in TMPDIR: $(ls -A rel)"
# --check runs nothing and makes nothing.
expect_status 0 "$ab" --check --cmd './spin 1' --cmd './spin 2' -o CHECK
[ ! -e CHECK ] || fail "--check made -o"
exit 0
