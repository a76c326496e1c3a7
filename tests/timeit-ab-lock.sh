#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# One run an output directory: timeit-ab locks -o for its run (fcntl(2),
# O/.timeit-ab.lock, let go when the process ends), so a second run into
# it, or its --check, is refused (status 2, the holder's pid said) before
# anything runs, with lit (-o DIR) and with the suite (--suite, make ab's
# O); a suite run into an O that holds an earlier run's summaries is
# refused too (make ab removes them first), and a lock left by a run that
# ended does not stand in the way.  A --suite run file that is none (a
# junk file: it fails and leaves no summary) is an error that names it.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed: nothing holds the lock"

# hold DIR: a process that holds DIR's lock as a run would, until killed.
hold() {
	python3 -c 'import fcntl, sys, time
f = open(sys.argv[1] + "/.timeit-ab.lock", "a+")
fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
open(sys.argv[1] + "/held", "w").write("1")
time.sleep(60)' "$1" &
	holder=$!
	wait_for_file "$1/held"
	rm -f "$1/held"
}

# The suite: a run file that notes every sample it is asked for.
mkdir O
cat > run.sh <<'EOS'
echo "$*" >> "$RAN"
mkdir -p "$OUT/$1/results"
printf 'exit 0\nreal 0.1\nuser 0.1\nsys 0\n' > "$OUT/$1/results/$2.$3.time"
EOS
RAN=$tmp/ran OUT=$tmp/O
export RAN OUT
hold O
expect_status 2 "$ab" --suite run.sh -o O -n 1 -- x > out 2> err
grep -q "^timeit-ab: -o O: in use by another run (pid $holder)" err ||
	fail "a held O: $(cat err)"
[ ! -e ran ] || fail "a held O ran samples: $(cat ran)"
expect_status 2 "$ab" --check --suite run.sh -o O -n 1 -- x > out 2> err
grep -q "in use by another run (pid $holder)" err || fail "--check of a held O: $(cat err)"
kill "$holder"
wait "$holder" 2> /dev/null || :

# Let go once its holder ended: the run goes on.
expect_status 0 "$ab" --suite run.sh -o O -n 1 -C --strict -- x > out 2> err ||
	fail "after the holder: $(cat err)"
[ -s ran ] || fail "no sample run"
# An earlier run's summaries are refused, not mixed with this run's.
: > ran
expect_status 2 "$ab" --suite run.sh -o O -n 1 -- x > out 2> err
grep -q "^timeit-ab: -o O: A/results holds an earlier run's summaries" err ||
	fail "an earlier run's summaries: $(cat err)"
[ ! -s ran ] || fail "samples run over an earlier run's: $(cat ran)"

# A run file that is none: status 2, named, no "DONE".
echo junk > junk.txt
mkdir J
expect_status 2 "$ab" --suite junk.txt -o J -- x > out 2> err
grep -q "^timeit-ab: sh junk.txt A x 1 exited 127 and left no summary" err ||
	fail "a junk run file: $(cat err)"
! grep -q DONE out err || fail "a junk run file: DONE: $(cat out err)"

# lit's -o: an empty directory another run holds.
find_lit
mkdir -p a b lo
printf 'config.name = "x"\n' > a/lit.cfg
cp a/lit.cfg b/lit.cfg
hold lo
expect_status 2 "$ab" --lit "$lit" -o lo a b > out 2> err
grep -q "^timeit-ab: -o lo: in use by another run (pid $holder)" err || fail "a held -o: $(cat err)"
expect_status 2 "$ab" --check --lit "$lit" -o lo a b > out 2> err
grep -q "in use by another run (pid $holder)" err || fail "--check of a held -o: $(cat err)"
kill "$holder"
wait "$holder" 2> /dev/null || :
exit 0
