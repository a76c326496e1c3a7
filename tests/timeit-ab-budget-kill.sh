#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The budget bounds the rounds after the first (timeit-ab(1), --budget):
# a test that hangs in round 2 (tests/lit-fake: it sleeps 1000 s from
# its second run on, counted in a file) is killed when the budget runs
# out, its lit run's process group with it; timeit-ab ends soon after
# with the verdict over round 1 and its status (0: no regression, not
# 130), the rounds table says "budget: killed at the budget in round 2",
# a note on stderr says so, and nothing of round 2 is a sample.  Before,
# the budget only decided whether a round started: the run waited out
# the sleep.  What the killed lit leaves in its TMPDIR (lit-tmp-*) is
# gone with timeit-ab's own.  Sequential rounds, and a duet where one can
# run.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compare=$top_builddir/compare/timeit-compare
find_lit
# No sleeper outlives the test, whatever it found.
trap 'for f in "$tmp"/*/*/state/slow.pid; do
	if [ -s "$f" ]; then kill -9 "$(cat "$f")" 2> /dev/null || :; fi; done; rm -rf "$tmp"' EXIT

# mkbuild DIR SIDE: a lit test directory of side SIDE (tests/lit-fake)
# with hang.test, which sleeps from its second run on, and ok.test.
mkbuild() {
	fake_lit "$1" "$2"
	printf 'time: 0.5\nslow: 2 1000\n' > "$1/hang.test"
	printf 'time: 0.5\n' > "$1/ok.test"
}

# run SCHEDULE: the case in $tmp/SCHEDULE.
run() {
	s=$1
	# The budget: room for round 1 as it costs here and now (seconds on a
	# loaded machine), and for round 2 to start.
	mkbuild "$tmp/cal-$s/a" A
	mkbuild "$tmp/cal-$s/b" B
	t0=$(date +%s)
	"$ab" --schedule "$s" --lit "$lit" --compare "$compare" -o "$tmp/cal-$s/o" -n 1 -q \
		"$tmp/cal-$s/a" "$tmp/cal-$s/b" > "cal-$s.out" 2> "cal-$s.err" ||
		fail "$s: one round: $(cat "cal-$s.out" "cal-$s.err")"
	budget=$((4 * ($(date +%s) - t0 + 1) + 4))

	mkbuild "$tmp/$s/a" A
	mkbuild "$tmp/$s/b" B
	mkdir "$tmp/tmpdir-$s"
	t0=$(date +%s)
	TMPDIR=$tmp/tmpdir-$s "$ab" --schedule "$s" --lit "$lit" --compare "$compare" -o "$tmp/$s/o" -n 2 --budget "$budget" \
		-q -C --no-color "$tmp/$s/a" "$tmp/$s/b" > "$s.out" 2> "$s.err" &
	pid=$!
	# A generous bound: the budget, then the verdict, on a loaded machine;
	# past it timeit-ab is stopped (its children with it) and the test
	# fails then, not after the sleep.
	k=0
	while kill -0 "$pid" 2> /dev/null && [ $k -lt $(((budget + 20) * 10)) ]; do
		sleep 0.1
		k=$((k + 1))
	done
	if kill -0 "$pid" 2> /dev/null; then
		kill -TERM "$pid"
		wait_status "$pid"
		fail "$s: --budget $budget, the run still going after $(($(date +%s) - t0)) s"
	fi
	wait_status "$pid"
	st=$got
	took=$(($(date +%s) - t0))
	cat "$s.out" "$s.err" "$tmp/$s/o/samples.tsv"
	[ "$took" -le $((budget + 20)) ] || fail "$s: --budget $budget, the run took $took s"
	[ "$st" -eq 0 ] || fail "$s: status $st, not the verdict's 0: $(cat "$s.err")"
	grep -Eq '^hang +1  budget: killed at the budget in round 2$' "$s.out" ||
		fail "$s: the rounds table on hang.test: $(cat "$s.out")"
	grep -q "^timeit-ab: the budget of $budget s ran out in round 2: its runs were killed" "$s.err" ||
		fail "$s: no note of the cut: $(cat "$s.err")"
	# The verdict is over round 1 alone: round 2's results are gone.
	if ! { grep -Eq '^hang +1 +1 ' "$s.out" && grep -Eq '^ok +1 +1 ' "$s.out"; }; then
		fail "$s: the verdict not over round 1: $(cat "$s.out")"
	fi
	# The killed lit left its lit-tmp-* in timeit-ab's own TMPDIR, which
	# is gone with it: nothing in the user's.
	[ -z "$(ls -A "$tmp/tmpdir-$s")" ] || fail "$s: left in TMPDIR: $(ls -A "$tmp/tmpdir-$s")"
	for f in "$tmp/$s/o"/[AB].2.json "$tmp/$s/o"/[AB].2.*.json; do
		[ ! -e "$f" ] || fail "$s: round 2's results kept: $f"
	done
	if ! { grep -q '^1 ' "$tmp/$s/o/rounds.log" && ! grep -q '^2 ' "$tmp/$s/o/rounds.log"; }; then
		fail "$s: rounds.log: $(cat "$tmp/$s/o/rounds.log")"
	fi
	awk -F '\t' '$1 == 2 && $8 == "signal 9" { k = 1 } END { exit !k }' "$tmp/$s/o/samples.tsv" ||
		fail "$s: no run of round 2 killed in samples.tsv"
	# The sleeping test itself is gone (or a zombie its new parent has
	# not reaped yet), not only the lit that ran it.
	spid=$(cat "$tmp/$s/a/state/slow.pid" "$tmp/$s/b/state/slow.pid" 2> /dev/null | sed 1q)
	[ -n "$spid" ] || fail "$s: hang.test never slept"
	pid_gone "$spid" 50 || fail "$s: the hung test (pid $spid) outlived the budget"
}

run sequential
# One lit run a side over both tests: both killed.
grep -Eq '^ok +1  budget: killed at the budget in round 2$' sequential.out ||
	fail "sequential: the rounds table on ok.test: $(cat sequential.out)"

# A duet runs a test a pair: ok.test's ended (or never started) in round
# 2, only hang.test's were killed.
if "$ab" --check --schedule duet --lit "$lit" --compare "$compare" -o "$tmp/chk" "$tmp/sequential/a" \
	"$tmp/sequential/b" > chk.out 2> chk.err; then
	run duet
	grep -Eq '^ok +1  budget$' duet.out || fail "duet: the rounds table on ok.test: $(cat duet.out)"
else
	echo "duet part skipped: $(cat chk.err)"
fi
exit 0
