#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-ab's duet on a lit suite of made-up results (tests/lit-fake)
# through one long-lived lit a side (abrun/lit-server.py): lit's program
# loaded once a side, not once a test and side; each run pinned to its
# side's CPU, swapped every round, as a lit process a run was; a server
# that cannot start (a lit that is no Python script) said, and the run
# done with a lit process a run; --no-lit-server; nothing left running,
# no socket left, when the run ends or is stopped.  And the plan: after
# round 1 the rounds a budget holds (or that it holds too few for a
# look), after round 2 the rounds' noise and the smallest change they can
# decide.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compare=$top_builddir/compare/timeit-compare
find_lit
case $lit in
/*) litpath=$lit ;;
*) litpath=$(command -v "$lit") ;;
esac
head -n 1 "$litpath" | grep -q python || skip "$lit is not a Python script: no lit server to test"

# A lit program that records each start of its top level (a process's,
# or the server's load of it), then is lit.
cat > "$tmp/pylit" <<EOF
#!/usr/bin/env python3
import os, sys
with open('$tmp/starts', 'a') as f:
    f.write(' '.join(sys.argv[1:]) + '\n')
sys.path.insert(0, os.path.dirname(os.path.realpath('$litpath')))
from lit.main import main
if __name__ == '__main__':
    main()
EOF
chmod +x "$tmp/pylit"
# And one that is a shell script: no server can load it.
cat > "$tmp/shlit" <<EOF
#!/bin/sh
exec $lit "\$@"
EOF
chmod +x "$tmp/shlit"

fake_lit "$tmp/a" A 1.0
fake_lit "$tmp/b" B 1.5
for t in p q r; do
	printf 'time: 0.2\n' > "$tmp/a/$t.test"
	printf 'time: 0.2\n' > "$tmp/b/$t.test"
done

# The plan, on any platform (sequential rounds): a budget too small for
# the first look (round 3) says so after round 1, with what would hold
# one.
"$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/o1" -n 1 -q \
	"$tmp/a" "$tmp/b" > o1.out 2> o1.err || true
t1=$(awk -F '\t' 'NR > 1 && $1 == 1 { s += $7 } END { printf "%.3f", s }' "$tmp/o1/samples.tsv")
small=$(awk -v t="$t1" 'BEGIN { printf "%.3f", 0.5 * t }')
expect_status 0 "$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/small" \
	--budget "$small" "$tmp/a" "$tmp/b" > small.out 2> small.err
grep -Eq "^timeit-ab: the budget of [0-9.]+ s holds 1 round at round 1's cost \([0-9.]+ s\), fewer than the 3 of the first look: nothing but byte-identical binaries can be decided \(a look needs a budget of about [0-9]+ s\)$" small.err ||
	fail "a budget too small for a look: $(cat small.err)"
# One that holds more: the rounds and the looks; after round 2, the
# noise (none here: B is 1.5 times A in every run) and the smallest
# change, the gate of 1 %.
big=$(awk -v t="$t1" 'BEGIN { printf "%.3f", 20 * t + 2 }')
expect_status 1 "$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/big" \
	--budget "$big" "$tmp/a" "$tmp/b" > big.out 2> big.err
grep -Eq "^timeit-ab: the budget of [0-9.]+ s holds [0-9.]+ rounds at round 1's cost \([0-9.]+ s\): [0-9]+ rounds(, the last for the tests nearest a verdict)?; [0-9]+ looks?, the first at round 3$" big.err ||
	fail "the rounds a budget holds: $(cat big.err)"
grep -Eq '^timeit-ab: rounds 1-2: the noise of ln\(B/A\) is 0\.0 % a round \(from 3 tests\); in the [0-9]+ rounds planned, a change of about 1\.0 % is decided half the time where many tests change, 1\.0 % where one alone does; a smaller one seldom$' big.err ||
	fail "the noise and the smallest change: $(cat big.err)"
# The last line's numbers agree with their nouns: one round of three
# runs a side.
grep -q '^timeit-ab: 1 round, 3 test runs a side, ' small.err || fail "one round: $(cat small.err)"
# -q: no plan either.
expect_status 1 "$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/bigq" -q \
	--budget "$big" "$tmp/a" "$tmp/b" > bigq.out 2> bigq.err
[ ! -s bigq.err ] || fail "-q: $(cat bigq.err)"

# --no-lit-server is for lit runs: with --cmd, one line, nothing made.
expect_status 2 "$ab" --no-lit-server -o "$tmp/cmd" --cmd true --cmd true 2> cmd.err
grep -qx 'timeit-ab: --no-lit-server: only with two lit test directories' cmd.err || fail "--cmd: $(cat cmd.err)"
[ ! -e "$tmp/cmd" ] || fail "--cmd --no-lit-server: something was written"

if ! timeit_has --cpu; then
	echo "the duet's lit server: skipped, this platform cannot pin"
	exit 0
fi
ncpu=$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)
if [ "$ncpu" -lt 2 ] || ! taskset -c 0,1 true 2> /dev/null; then
	echo "the duet's lit server: skipped, fewer than two CPUs to pin"
	exit 0
fi

# servers_left DIR: the lit servers of the run in DIR still running.
servers_left() {
	ps -eo args | grep "lit-server.py $1 " | grep -v grep
}

# A duet of 3 rounds over 3 tests through the servers: lit's program
# started once to check it (--version), then twice a side (the listing,
# the server), not 9 times more.
: > "$tmp/starts"
rm -f "$tmp/a/state/runs" "$tmp/b/state/runs"
expect_status 1 "$ab" --lit "$tmp/pylit" --compare "$compare" -o "$tmp/d" -n 3 --schedule duet \
	--cpu 0,1 "$tmp/a" "$tmp/b" > d.out 2> d.err
cat d.err "$tmp/starts"
[ "$(wc -l < "$tmp/starts")" -eq 5 ] || fail "lit started $(wc -l < "$tmp/starts") times, not 5"
[ "$(grep -c -- '--no-execute' "$tmp/starts")" -eq 2 ] || fail "not one listing a side"
grep -q 'lit server did not start' d.err && fail "a server did not start: $(cat d.err)"
[ "$(awk -F '\t' 'NR > 1 && $4 == "duet"' "$tmp/d/samples.tsv" | wc -l)" -eq 18 ] || fail "not 18 duet runs"
for s in A B; do
	[ "$(ls "$tmp/d" | grep -c "^$s\.[123]\.[123]\.json$")" -eq 9 ] || fail "side $s: not 9 results: $(ls "$tmp/d")"
	[ -f "$tmp/d/lit-server.$s.log" ] || fail "no lit-server.$s.log"
done
grep -Eq '^p +3 ' d.out || grep -q 'p\.test' d.out || fail "no verdict: $(cat d.out)"
# Each worker took its client's CPU: A on 0 in rounds 1 and 3, on 1 in 2.
[ "$(grep -c '^A p.test 0$' "$tmp/a/state/runs")" -eq 2 ] && [ "$(grep -c '^A p.test 1$' "$tmp/a/state/runs")" -eq 1 ] &&
	[ "$(grep -c '^B p.test 1$' "$tmp/b/state/runs")" -eq 2 ] ||
	fail "not pinned and swapped: $(cat "$tmp/a/state/runs" "$tmp/b/state/runs")"
[ -z "$(servers_left "$tmp/d")" ] || fail "servers left running: $(servers_left "$tmp/d")"
ls "$tmp/d" | grep -q 'sock' && fail "a socket left: $(ls "$tmp/d")"

# The two scripts of docs/LLVM-TEST-SUITE.md read such a run: its 3
# rounds, their wall and what lies outside the runs; its 3 tests'
# spread (none: B is 1.5 times A in every run).
python3 "$top_srcdir/bench/lit-round-cost.py" "$tmp/d" > cost.out || fail "lit-round-cost.py: $(cat cost.out)"
grep -Eq '^d +duet +3 +[0-9.]+ +[0-9.]+ +-?[0-9.]+ +-?[0-9]+% ' cost.out || fail "lit-round-cost.py: $(cat cost.out)"
python3 "$top_srcdir/bench/lit-pair-spread.py" "$tmp/d" > spread.out || fail "lit-pair-spread.py: $(cat spread.out)"
grep -Eq '^d +3 +3 +0\.00% ' spread.out || fail "lit-pair-spread.py: $(cat spread.out)"

# --no-lit-server: a lit process a run (the check, 2 listings, 18 runs).
: > "$tmp/starts"
expect_status 1 "$ab" --lit "$tmp/pylit" --compare "$compare" -o "$tmp/n" -n 3 -q --schedule duet \
	--no-lit-server --cpu 0,1 "$tmp/a" "$tmp/b" > n.out 2> n.err
[ "$(wc -l < "$tmp/starts")" -eq 21 ] || fail "--no-lit-server: lit started $(wc -l < "$tmp/starts") times, not 21"
[ ! -e "$tmp/n/lit-server.A.log" ] || fail "--no-lit-server: a server started"

# A lit that no server can load: said, and the run goes on with a lit
# process a run.
expect_status 1 "$ab" --lit "$tmp/shlit" --compare "$compare" -o "$tmp/sh" -n 3 --schedule duet \
	--cpu 0,1 "$tmp/a" "$tmp/b" > sh.out 2> sh.err
grep -q "^timeit-ab: side A's lit server did not start (see $tmp/sh/lit-server.A.log): a lit process a run$" sh.err ||
	fail "a server that cannot start: $(cat sh.err)"
[ "$(ls "$tmp/sh" | grep -c '^B\.[123]\.[123]\.json$')" -eq 9 ] || fail "no runs without the server: $(ls "$tmp/sh")"
[ -z "$(servers_left "$tmp/sh")" ] || fail "a server left running: $(servers_left "$tmp/sh")"

# SIGTERM in round 2 of a slow test: the run stops, its servers with it.
printf 'time: 0.2\nslow: 2 30\n' > "$tmp/a/p.test"
printf 'time: 0.2\nslow: 2 30\n' > "$tmp/b/p.test"
rm -f "$tmp/a/state/count."* "$tmp/b/state/count."* "$tmp/a/state/slow.pid"
"$ab" --lit "$tmp/pylit" --compare "$compare" -o "$tmp/t" -n 3 -q --schedule duet --cpu 0,1 \
	"$tmp/a" "$tmp/b" > t.out 2> t.err &
abpid=$!
i=0
while [ ! -s "$tmp/a/state/slow.pid" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$tmp/a/state/slow.pid" ] || { kill $abpid; fail "the slow run never started: $(cat t.err)"; }
kill -TERM $abpid
st=0
wait $abpid || st=$?
[ $st -eq 130 ] || fail "SIGTERM: status $st, not 130: $(cat t.err)"
pid_gone "$(cat "$tmp/a/state/slow.pid")" 30 || fail "the slow test's worker was not stopped"
[ -z "$(servers_left "$tmp/t")" ] || fail "servers left running after SIGTERM: $(servers_left "$tmp/t")"
ls "$tmp/t" | grep -q 'sock' && fail "a socket left after SIGTERM: $(ls "$tmp/t")"

# server_group DIR SIDE: the process group of the run's side SIDE server
# (its leader: the server, not a worker it forked).
server_group() {
	ps -eo pid,pgid,args | awk -v m="lit-server.py $1 lit.$2.sock" \
		'index($0, m) && $1 == $2 { print $1 }'
}
# wait_slow: until the slow run of round 2 has started.
wait_slow() {
	i=0
	while [ ! -s "$tmp/a/state/slow.pid" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$tmp/a/state/slow.pid" ] || { kill "$1"; fail "the slow run never started"; }
}

# Side A's server killed in round 2: said before round 3, which runs a
# lit process a test; the verdict over what ran.
printf 'time: 0.2\nslow: 2 2\n' > "$tmp/a/p.test"
printf 'time: 0.2\nslow: 2 2\n' > "$tmp/b/p.test"
rm -f "$tmp/a/state/count."* "$tmp/b/state/count."* "$tmp/a/state/slow.pid"
"$ab" --lit "$tmp/pylit" --compare "$compare" -o "$tmp/k" -n 3 --schedule duet --cpu 0,1 \
	"$tmp/a" "$tmp/b" > k.out 2> k.err &
abpid=$!
wait_slow $abpid
g=$(server_group "$tmp/k" A)
case $g in
[1-9]*[0-9]) ;;
*) kill $abpid; fail "no server of side A: $(ps -eo pid,pgid,args | grep lit-server)" ;;
esac
kill -9 "-$g"   # its process group: dash's kill takes no --
st=0
wait $abpid || st=$?
[ $st -eq 1 ] || fail "a server killed: status $st, not 1: $(cat k.err)"
grep -q "^timeit-ab: side A's lit server ended (see $tmp/k/lit-server.A.log): a lit process a run from round 3$" k.err ||
	fail "a server killed: not said: $(cat k.err)"
# The runs asked of the dead server in round 2, if any (the tests after
# the slow one, in lit's order: none where it is the last), are lost,
# and said: missing on A in round 2; every other test runs round 3.
lost=$(grep -c "	1	missing: not in side A's results of round 2$" "$tmp/k/stop.tsv" || :)
[ "$lost" -le 2 ] && [ "$(grep -c '	3	' "$tmp/k/stop.tsv")" -eq $((3 - lost)) ] ||
	fail "the lost runs not said: $(cat "$tmp/k/stop.tsv")"
[ "$(ls "$tmp/k" | grep -c '^[AB]\.3\.[123]\.json$')" -eq $((2 * (3 - lost))) ] ||
	fail "round 3 not run: $(ls "$tmp/k")"
[ -z "$(servers_left "$tmp/k")" ] || fail "a server left running: $(servers_left "$tmp/k")"

# timeit-ab SIGKILLed in round 2: its servers see their pipe's end and
# go, with their spare workers, within seconds.
rm -f "$tmp/a/state/count."* "$tmp/b/state/count."* "$tmp/a/state/slow.pid"
"$ab" --lit "$tmp/pylit" --compare "$compare" -o "$tmp/x" -n 3 -q --schedule duet --cpu 0,1 \
	"$tmp/a" "$tmp/b" > x.out 2> x.err &
abpid=$!
wait_slow $abpid
kill -KILL $abpid
wait $abpid || :
i=0
while [ -n "$(servers_left "$tmp/x" | grep -v ' - ')" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 3   # the slow run's worker ends on its own, in its client's group
[ -z "$(server_group "$tmp/x" A)$(server_group "$tmp/x" B)" ] ||
	fail "servers left after SIGKILL: $(ps -eo pid,pgid,args | grep lit-server)"
exit 0
