#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# test-suite "make ab SAMPLES=auto" on timeit-ab --suite: identical
# binaries decided after round 1, then a look at MIN_SAMPLES and every
# AB_LOOK_EVERY rounds; only the undecided benchmarks run on; the stop at
# MAX_SAMPLES and at the budget (a bound); the final table with --looks N;
# every sample kept, the last run's reports and tables removed first; a
# side whose every run failed stops the run; the rounds table; the random
# order recorded and seeded; bad settings (numbers out of range too)
# refused before anything runs.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
suite=$top_srcdir/test-suite

# fake-compare: the final table (the looks are timeit-ab's own, through
# the verdict engine): logs its arguments, prints a table.
cat > fake-compare <<EOS
#!/bin/sh
echo "\$*" >> "$tmp/calls"
echo "the verdict table"
EOS
chmod +x fake-compare
cat > fake-timeit <<EOS
#!/bin/sh
prev=
for a do
	[ "\$prev" = --summary ] && echo "\$a" >> "$tmp/order"
	[ "\$prev" = --summary ] && [ -n "\${FAIL_SIDE:-}" ] &&
		case \$a in */\$FAIL_SIDE/results/*) exit 125 ;; esac
	prev=\$a
done
[ -z "\${SLOW:-}" ] || sleep "\$SLOW"
exec "$TIMEIT" "\$@"
EOS
chmod +x fake-timeit

# The sides: bench/ab-live's knob, which changes tak (10 % more work) and
# leaves hash and sieve byte-identical.
ab() {
	make -s -f "$suite/Makefile" ab TIMEIT="$tmp/fake-timeit" TIMEIT_COMPARE="$tmp/fake-compare" \
		TIMEIT_AB="$top_builddir/abrun/timeit-ab" SIZE=small SAMPLES=auto \
		BASE='CFLAGS=-O2' NEW="CFLAGS='-O2 -DAB_LIVE'" SCHEDULE=sequential "$@"
}

# Looks at rounds 2, 4 and 6: hash and sieve are the same binary on both
# sides, decided after round 1; tak runs on until a look decides it or
# round 6.
: > calls
ab O="$tmp/o" MIN_SAMPLES=2 MAX_SAMPLES=6 AB_LOOK_EVERY=2 BENCHMARKS='hash tak sieve' > out 2> err
cat out err
[ "$(grep -c -- '--looks 3 ' calls)" -eq 2 ] || fail "not --looks 3 in the table and the CSV: $(cat calls)"
grep -q "$tmp/o/A/results $tmp/o/B/results" calls ||
	fail "the final table does not compare the results: $(cat calls)"
grep -qx 'the verdict table' out || fail "no final table"
t=$(sed -n 's/^tak *\([0-9]*\)  .*/\1/p' out)
case $t in 2 | 4) grep -Eq '^tak +[24]  decided$' out || fail "tak: $(cat out)" ;;
6) grep -Eq '^tak +6  (decided|max samples)$' out || fail "tak: $(cat out)" ;;
*) fail "tak: $t rounds: $(cat out)" ;;
esac
for side in A B; do
	for want in hash:1 tak:$t sieve:1; do
		b=${want%:*} n=${want#*:}
		got=$(find "$tmp/o/$side/results" -name "$b.*.time" | wc -l)
		[ "$got" -eq "$n" ] || fail "side $side: $got samples of $b, expected $n"
	done
done
{
	echo '1 AB hash tak sieve'
	r=2
	while [ "$r" -le "$t" ]; do
		if [ $((r % 2)) -eq 1 ]; then echo "$r AB tak"; else echo "$r BA tak"; fi
		r=$((r + 1))
	done
} > want
cmp -s want "$tmp/o/ab-rounds.log" || fail "rounds: $(cat "$tmp/o/ab-rounds.log")"
grep -Eq '^hash +1  same binary$' out || fail "hash: not 1 round, same binary"
grep -Eq '^sieve +1  same binary$' out || fail "sieve: not 1 round, same binary"
# Each side's report has every sample that ran, and no "not run".
grep -q '"samples": "auto"' "$tmp/o/A/report.json" || fail "report: samples not auto"
[ "$(grep -c '^SingleSource/Benchmarks/tak,' "$tmp/o/B/report.csv")" -eq "$t" ] ||
	fail "report.csv lacks tak's $t samples"
! grep -q 'not run' "$tmp/o/A/report.csv" || fail "report.csv: samples 'not run'"
# The runs alternate A B / B A, round by round.
grep '/results/' order | sed "s|^$tmp/o/||" | sed -n '1,2p;7,8p' > runs
printf '%s\n' A/results/hash.1.time B/results/hash.1.time B/results/tak.2.time \
	A/results/tak.2.time > want
cmp -s want runs || fail "order: $(cat runs)"
# Every run is recorded with its schedule.
[ "$(grep -c '	sequential	-	' "$tmp/o/ab-samples.tsv")" -eq $((2 * t + 4)) ] ||
	fail "ab-samples.tsv: $(cat "$tmp/o/ab-samples.tsv")"

# A second run starts afresh: no sample, report or table of the first stays.
: > calls
cp "$tmp/o/A/report.json" "$tmp/o/ab.txt"
FAIL_SIDE=A ab O="$tmp/o" MIN_SAMPLES=1 MAX_SAMPLES=1 AB_LOOK_EVERY=1 BENCHMARKS='hash tak sieve' \
	> out2 2>&1 || true
[ "$(find "$tmp/o/A/results" -name 'sieve.*.time' | wc -l)" -le 1 ] ||
	fail "samples of the first run left over"
for f in ab.txt ab.csv A/report.json; do
	[ ! -e "$tmp/o/$f" ] || fail "$f of the first run left over"
done
# ... also when the run is interrupted before a sample, in its builds: a
# compiler that stops make ab (SIGTERM) at the first benchmark.
echo stale > "$tmp/o/ab.txt"
echo stale > "$tmp/o/B/report.json"
cat > stopcc <<EOF
#!/bin/sh
case "\$*" in */SingleSource/*) ;; *) exec ${CC:-cc} "\$@" ;; esac
while [ ! -s "$tmp/make.pid" ]; do sleep 0.1; done
kill -TERM "\$(cat "$tmp/make.pid")"
exit 1
EOF
chmod +x stopcc
rm -f make.pid
make -s -f "$suite/Makefile" ab TIMEIT="$tmp/fake-timeit" TIMEIT_COMPARE="$tmp/fake-compare" \
	TIMEIT_AB="$top_builddir/abrun/timeit-ab" SIZE=small SAMPLES=auto CC="$tmp/stopcc" \
	BASE='CFLAGS=-O2' NEW='CFLAGS=-O2' O="$tmp/o" BENCHMARKS=hash > out3 2>&1 &
echo $! > make.pid
wait_status $!
[ "$got" -ne 0 ] || fail "make ab stopped in its builds exited 0: $(cat out3)"
for f in ab.txt B/report.json; do
	[ ! -e "$tmp/o/$f" ] || fail "$f of an earlier run left by a run stopped in its builds"
done
# That run failed every sample of side A: make ab stops, naming the side
# and the first failure, status 2 from timeit-ab.
grep -q 'every test failed on side A .*the first: hash' out2 || fail "all failed on A: $(cat out2)"

# The budget is a bound: no round starts that could not end within it.
# Each run takes over a second (two a round): with a budget of 3 s no
# second round, in either order.
: > calls
SLOW=1 ab O="$tmp/b" MIN_SAMPLES=5 MAX_SAMPLES=30 AB_BUDGET=3 AB_ORDER=random BENCHMARKS=tak > outb
cat outb
grep -Eq '^tak +1  budget$' outb || fail "budget: $(cat outb)"
SLOW=1 ab O="$tmp/b2" MIN_SAMPLES=5 MAX_SAMPLES=30 AB_BUDGET=3 BENCHMARKS=tak > outb2
grep -Eq '^tak +1  budget$' outb2 || fail "budget, alternated: $(cat outb2)"

# AB_ORDER=random: the orders drawn are recorded, the same seed gives the
# same orders, and the runs follow the record.
: > order
ab O="$tmp/r1" MIN_SAMPLES=6 MAX_SAMPLES=6 AB_ORDER=random AB_SEED=7 BENCHMARKS=tak > /dev/null
ab O="$tmp/r2" MIN_SAMPLES=6 MAX_SAMPLES=6 AB_ORDER=random AB_SEED=7 BENCHMARKS=tak > /dev/null
cmp -s "$tmp/r1/ab-rounds.log" "$tmp/r2/ab-rounds.log" || fail "same seed, other orders"
grep "$tmp/r1/" order | sed "s|^$tmp/r1/\(.\)/results/tak\.\([0-9]*\)\.time|\2 \1|" |
	awk '{ o[$1] = o[$1] $2 } END { for (r = 1; r <= 6; r++) print r, o[r], "tak" }' > runs
cmp -s runs "$tmp/r1/ab-rounds.log" || fail "runs do not follow the record: $(cat runs)"

# SCHEDULE=duet: A and B of a benchmark started together, A on CPU 0 in
# odd rounds, on CPU 1 in even ones; every run recorded so.
# refused_duet NAME CPUS TEXT: make ab SCHEDULE=duet AB_CPU=CPUS into
# $tmp/NAME is refused, saying TEXT, before any build or run.
refused_duet() {
	set +e
	make -s -f "$suite/Makefile" ab TIMEIT="$TIMEIT" TIMEIT_COMPARE="$top_builddir/compare/timeit-compare" \
		SIZE=small SAMPLES=2 BASE='CFLAGS=-O2' NEW='CFLAGS=-O2' O="$tmp/$1" SCHEDULE=duet AB_CPU="$2" \
		BENCHMARKS=tak > "$1.out" 2>&1
	status=$?
	set -e
	[ "$status" -ne 0 ] || fail "$1: a duet ran: $(cat "$1.out")"
	grep -q "$3" "$1.out" || fail "$1: $(cat "$1.out")"
	[ ! -e "$tmp/$1/ab-samples.tsv" ] || fail "$1: runs were made"
	[ ! -e "$tmp/$1/A" ] || fail "$1: refused only after the builds"
}
if ! timeit_has --cpu; then
	refused_duet duet0 0,1 'pinning a process to a CPU is not supported on this system'
elif [ "$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)" -ge 2 ] && taskset -c 0,1 true 2> /dev/null; then
	make -s -f "$suite/Makefile" ab TIMEIT="$TIMEIT" TIMEIT_COMPARE="$top_builddir/compare/timeit-compare" \
		SIZE=small SAMPLES=2 BASE='CFLAGS=-O2' NEW="CFLAGS='-O2 -DAB_LIVE'" AB_GATE=no \
		O="$tmp/duet" SCHEDULE=duet AB_CPU=0,1 BENCHMARKS='tak hash' > outd 2>&1 ||
		{ cat outd; fail "make ab SCHEDULE=duet failed"; }
	grep -q 'DONE .*schedule duet, 1 at once (A on CPU 0, B on 1, swapped every round)' outd ||
		fail "the schedule not said: $(cat outd)"
	awk -F '\t' 'NR > 1 { n++; if ($4 != "duet") bad = 1
		if ($5 != ((($1 % 2 == 1) == ($2 == "A")) ? "0" : "1")) bad = 1
		k = $1 " " $3; if (k in s) { if (s[k] != $6) bad = 1 } else s[k] = $6 }
		END { exit bad || n != 8 }' "$tmp/duet/ab-samples.tsv" ||
		fail "ab-samples.tsv: not duets started together, pinned and swapped: $(cat "$tmp/duet/ab-samples.tsv")"
	refused_duet duet1 0 'needs two CPUs'
fi

# Bad settings: refused before anything is written.
for bad in MIN_SAMPLES=0 MAX_SAMPLES=x AB_LOOK_EVERY= 'MIN_SAMPLES=9 MAX_SAMPLES=3' AB_BUDGET=-1 \
	AB_ORDER=abba AB_SEED=x AB_BUDGET=99999999999999999999 AB_BUDGET=31536001 \
	AB_SEED=99999999999999999999 MAX_SAMPLES=1001 SCHEDULE=trio; do
	set +e
	# shellcheck disable=SC2086 # one or two settings
	ab O="$tmp/rej" BENCHMARKS=tak $bad > rej.out 2>&1
	status=$?
	set -e
	[ "$status" -ne 0 ] || fail "$bad accepted"
	grep -q "${bad%%=*}" rej.out || fail "$bad: $(cat rej.out)"
	[ ! -e "$tmp/rej" ] || fail "$bad: something was written before the refusal"
done
set +e
make -s -f "$suite/Makefile" O="$tmp/rej" TIMEIT="$TIMEIT" SAMPLES=auto BENCHMARKS=tak > rej.out 2>&1
status=$?
set -e
[ "$status" -ne 0 ] || fail "SAMPLES=auto accepted without make ab"
grep -q 'SAMPLES=auto: adaptive sampling is for make ab' rej.out || fail "$(cat rej.out)"
[ ! -e "$tmp/rej" ] || fail "SAMPLES=auto without ab: something was written"
exit 0
