#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-ab --resume: a run cut short goes on in its -o directory from the
# round after its last complete one.  Two commands (--cmd) killed with
# SIGKILL as round 3 starts, one side of it written: resumed, rounds 1 to
# 5 are there once each (rounds.log, samples.tsv, the summaries), the
# half-written round 3 redone (removed when the resumed run's budget has
# no room for it), the progress says "resuming at round 3"; killed in
# round 1, resumed from round 1;
# a changed command, -C option or --samples is refused (status 2, one
# line naming it, the directory unchanged to the byte); --resume with
# --replace is refused; a finished run shows its verdict again with its
# status and runs nothing; --resume on a new directory starts afresh.
# On lit (tests/lit-fake, results that depend only on each test's run
# count): SIGTERM in round 3, resumed, the same verdict and rounds table
# as a run never cut, a test a look decided staying decided, a file
# planted as a half-written round 3 not used.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compare=$top_builddir/compare/timeit-compare

# The directory's files and their bytes, as one checksum.
sums() {
	(cd "$1" && find . -type f -exec cksum {} + | sort -k3 && find . | sort) | cksum
}

"${CC:-cc}" -O2 -o spin "$top_srcdir/tests/lit-ab/spin.c" || fail "cannot build spin"
# Each run counts itself; the one that killat names kills timeit-ab.
cat > step.sh <<'EOS'
n=$(cat count 2> /dev/null || echo 0)
n=$((n + 1))
echo "$n" > count
[ "$n" != "$(cat killat)" ] || kill -KILL "$(cat abpid)"
exec ./spin "$1"
EOS
set -- --schedule sequential -n 5 --cmd 'sh step.sh 20000000' --cmd 'sh step.sh 60000000'
# Killed in round 1: resumed, it starts again at round 1.
killed_at 1 out err "$ab" "$@" -o R1
wait_for_file 'R1/A/results/sh.1.time'
expect_status 1 "$ab" --resume "$@" -o R1 > out 2> err
! grep -q 'resuming' err || fail "round 1 cut, yet resuming: $(cat err)"
[ "$(awk '{ print $1 }' R1/rounds.log | tr '\n' ' ')" = '1 2 3 4 5 ' ] ||
	fail "round 1 cut, rounds.log: $(cat R1/rounds.log)"
[ "$(awk -F '\t' 'NR > 1 { print $1 $2 }' R1/samples.tsv | sort | tr '\n' ' ')" = \
	'1A 1B 2A 2B 3A 3B 4A 4B 5A 5B ' ] || fail "round 1 cut, samples.tsv: $(cat R1/samples.tsv)"

# Killed as round 3 starts (its fifth run).
echo 0 > count
killed_at 5 out err "$ab" "$@" -o O
# The run that was killed goes on: round 3's A finishes, its B never runs.
wait_for_file 'O/A/results/sh.3.time'
[ ! -e 'O/B/results/sh.3.time' ] || fail "round 3 of B ran"
[ "$(awk '{ print $1 }' O/rounds.log | tr '\n' ' ')" = '1 2 3 ' ] ||
	fail "rounds.log of the killed run: $(cat O/rounds.log)"
# Marked, to know it is never used: a run of 1000 s.
printf 'exit 0\nreal 1000\nuser 1000\nsys 0\n' > 'O/A/results/sh.3.time'

# Not the same run: refused, nothing changed.
before=$(sums O)
expect_status 2 "$ab" --resume --schedule sequential -n 5 --cmd 'sh step.sh 20000000' \
	--cmd 'sh step.sh 60000001' -o O > out 2> err
[ "$(wc -l < err)" -eq 1 ] && grep -q "command B 'sh step.sh 60000000', this one command B 'sh step.sh 60000001'" err ||
	fail "changed command B: $(cat err)"
expect_status 2 "$ab" --resume -C --alpha=0.01 "$@" -o O > out 2> err
grep -q -- "has no -C '--alpha=0.01'" err || fail "changed -C: $(cat err)"
expect_status 2 "$ab" --resume --schedule sequential -n 6 --cmd 'sh step.sh 20000000' \
	--cmd 'sh step.sh 60000000' -o O > out 2> err
grep -q -- "--samples '5', this one --samples '6'" err || fail "changed -n: $(cat err)"
expect_status 2 "$ab" --resume --replace "$@" -o O > out 2> err
grep -q -- '--resume and --replace' err || fail "--resume --replace: $(cat err)"
[ "$(sums O)" = "$before" ] || fail "a refused --resume changed the directory"

# A copy resumed with no room for round 3 in its budget (counted from
# the resumed run's start): the verdict over rounds 1 and 2 alone, the
# half-written round 3 removed, not read.
# Two pairs decide the threefold change only where the runs are steady
# (not under a sanitizer or an emulator): 1 or 0, never an error.
cp -R O O2
set +e
"$ab" --resume --budget 0.001 "$@" -o O2 > out 2> err
st=$?
set -e
[ "$st" -le 1 ] || fail "resumed, no budget: status $st: $(cat out err)"
grep -Eq '^sh +2 +2 ' out || fail "resumed, no budget, not 2 rounds a side: $(cat out)"
[ ! -e O2/A/results/sh.3.time ] || fail "resumed, no budget: the half-written round 3 is there"

# The same run: it goes on at round 3, round 3 redone.
expect_status 1 "$ab" --resume "$@" -o O > out 2> err
grep -q 'resuming at round 3: 2 finished rounds kept' err || fail "no resuming line: $(cat err)"
grep -q '^sh .* regressed' out || fail "resumed verdict: $(cat out)"
grep -Eq '^sh +5  fixed$' out || fail "resumed rounds: $(cat out)"
[ "$(awk '{ print $1 }' O/rounds.log | tr '\n' ' ')" = '1 2 3 4 5 ' ] ||
	fail "rounds.log: $(cat O/rounds.log)"
[ "$(awk -F '\t' 'NR > 1 { print $1 $2 }' O/samples.tsv | sort | tr '\n' ' ')" = \
	'1A 1B 2A 2B 3A 3B 4A 4B 5A 5B ' ] || fail "samples.tsv: $(cat O/samples.tsv)"
for s in A B; do
	[ "$(find O/$s/results -name 'sh.*.time' | wc -l)" -eq 5 ] || fail "$s: not 5 summaries"
done
[ "$(summary_value O/A/results/sh.3.time real)" != 1000 ] || fail "the half-written round 3 was kept"
[ "$(cat count)" -eq 11 ] || fail "not 11 runs in all (5 and 6): $(cat count)"

# Finished: its verdict again, its status, nothing run.
before=$(sums O)
expect_status 1 "$ab" --resume "$@" -o O > out2 2> err
grep -q 'is finished' err || fail "finished: $(cat err)"
grep -q '^sh .* regressed' out2 || fail "finished, the verdict: $(cat out2)"
[ "$(cat count)" -eq 11 ] || fail "a finished run ran again"
[ "$(sums O)" = "$before" ] || fail "a finished run's directory changed"

# --resume on a directory that is not there: a run from round 1.
expect_status 0 "$ab" --resume -q -n 1 --cmd './spin 1000' --cmd './spin 1000' -o N > out 2> err ||
	fail "--resume, a new directory: $(cat out err)"
[ -f N/status ] || fail "--resume, a new directory: no verdict"

# lit: decided tests stay decided; the verdict is the uncut run's.
find_lit
# mkbuild DIR SIDE: a lit test directory of side SIDE.
mkbuild() {
	fake_lit "$1" "$2"
	# y twice as slow on B: decided at the first look (round 2, --min-samples 2); x a
	# change at the gate, in play to the last round; z identical.
	printf 'time: 0.5\n' > "$1/x.test"
	printf 'time: %s\n' "$([ "$2" = A ] && echo 0.5 || echo 1.0)" > "$1/y.test"
	printf 'time: 0.5\nhash: same\n' > "$1/z.test"
	[ "$2" = A ] || printf 'time: 0.505\n' > "$1/x.test"
}
for d in cut whole; do
	mkbuild "$tmp/$d/a" A
	mkbuild "$tmp/$d/b" B
done
# The cut run's A: x sleeps from its third run on (round 3).
printf 'time: 0.5\nslow: 3 30\n' > "$tmp/cut/a/x.test"
set -- --schedule sequential --min-samples 2 --max-samples 5 --lit "$lit" --compare "$compare" -C --no-color
expect_status 1 "$ab" "$@" -o whole/o "$tmp/whole/a" "$tmp/whole/b" > whole.out 2> whole.err ||
	fail "the uncut lit run: $(cat whole.out whole.err)"
grep -Eq '^y +2  decided$' whole.out && grep -Eq '^x +5  ' whole.out ||
	fail "the uncut lit run, its rounds: $(cat whole.out)"
"$ab" "$@" -o cut/o "$tmp/cut/a" "$tmp/cut/b" > cut.out 2> cut.err &
term_when "$tmp/cut/a/state/slow.pid" $!
[ "$st" -eq 130 ] || fail "lit, SIGTERM: status $st: $(cat cut.err)"
# The fake's own count of x's runs back to before round 3 (it counted
# the run cut short), x no longer slow, and a round 3 planted as if
# half-written: the resumed run must not use it.
count=$(echo "$tmp"/cut/a/state/count.A.*)
for f in "$tmp"/cut/a/state/count.A.*; do
	[ "$(cat "$f")" -eq 3 ] && count=$f
done
echo 2 > "$count"
printf 'time: 0.5\n' > "$tmp/cut/a/x.test"
cp cut/o/A.2.json cut/o/A.3.json
expect_status 1 "$ab" --resume "$@" -o cut/o "$tmp/cut/a" "$tmp/cut/b" > cut.out 2> cut.err ||
	fail "the resumed lit run: $(cat cut.out cut.err)"
grep -q 'resuming at round 3: 2 finished rounds kept, 1 undecided' cut.err ||
	fail "lit, resuming: $(cat cut.err)"
grep -v '^results: ' whole.out > whole.v
grep -v '^results: ' cut.out > cut.v
cmp -s whole.v cut.v || fail "resumed, another verdict: $(diff whole.v cut.v)"
[ "$(awk '{ print $1 }' cut/o/rounds.log | tr '\n' ' ')" = '1 2 3 4 5 ' ] ||
	fail "lit, rounds.log: $(cat cut/o/rounds.log)"
exit 0
