#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# test-suite "make ab SAMPLES=auto": MIN_SAMPLES rounds, then a look every
# AB_LOOK_EVERY rounds; only the benchmarks timeit-compare --undecided
# names run on; the stop at MAX_SAMPLES and at the budget; every look and
# the final table with the same --looks N; every sample kept; the rounds
# table; the random order recorded and seeded; bad settings refused
# before anything runs.  A stand-in timeit-compare answers the looks from
# a script, so that the test decides what is undecided.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
suite=$top_srcdir/test-suite

# fake-compare: logs its arguments; --undecided prints line K of
# $tmp/plan (names separated by spaces) at its K-th call; the final call
# prints a table.
cat > fake-compare <<EOS
#!/bin/sh
echo "\$*" >> "$tmp/calls"
for a do
	case \$a in
	--undecided)
		k=\$(grep -c -- --undecided "$tmp/calls")
		sed -n "\${k}p" "$tmp/plan" | tr ' ' '\n' | sed '/^\$/d'
		[ ! -f "$tmp/look-fails" ] || { echo "fake-compare: bad input" >&2; exit 2; }
		exit 0 ;;
	esac
done
echo "the verdict table"
EOS
chmod +x fake-compare
cat > fake-timeit <<EOS
#!/bin/sh
prev=
for a do
	[ "\$prev" = --summary ] && echo "\$a" >> "$tmp/order"
	prev=\$a
done
[ -z "\${SLOW:-}" ] || sleep "\$SLOW"
exec "$TIMEIT" "\$@"
EOS
chmod +x fake-timeit

ab() {
	make -s -f "$suite/Makefile" ab TIMEIT="$tmp/fake-timeit" TIMEIT_COMPARE="$tmp/fake-compare" \
		SIZE=small SAMPLES=auto BASE='CFLAGS=-O1' NEW='CFLAGS=-O2' "$@"
}

# Looks at rounds 2, 4 and 6: hash is decided at the first, tak at the
# second, sieve never.
printf 'tak sieve\nsieve\nsieve\n' > plan
: > calls
ab O="$tmp/o" MIN_SAMPLES=2 MAX_SAMPLES=6 AB_LOOK_EVERY=2 BENCHMARKS='hash tak sieve' > out 2> err
cat out err
[ "$(grep -c -- '--undecided' calls)" -eq 3 ] || fail "not 3 looks: $(cat calls)"
[ "$(grep -c -- '--looks 3 ' calls)" -eq 5 ] || fail "not --looks 3 in the 3 looks, the table and the CSV: $(cat calls)"
grep -v -- --undecided calls | grep -q "$tmp/o/A/results $tmp/o/B/results" ||
	fail "the final table does not compare the results: $(cat calls)"
grep -qx 'the verdict table' out || fail "no final table"
for side in A B; do
	for want in hash:2 tak:4 sieve:6; do
		b=${want%:*} n=${want#*:}
		got=$(find "$tmp/o/$side/results" -name "$b.*.time" | wc -l)
		[ "$got" -eq "$n" ] || fail "side $side: $got samples of $b, expected $n"
	done
done
printf '%s\n' '1 AB hash tak sieve' '2 BA hash tak sieve' '3 AB tak sieve' '4 BA tak sieve' \
	'5 AB sieve' '6 BA sieve' > want
cmp -s want "$tmp/o/ab-rounds.log" || fail "rounds: $(cat "$tmp/o/ab-rounds.log")"
grep -Eq '^hash +2  decided$' out || fail "hash: not 2 rounds, decided"
grep -Eq '^tak +4  decided$' out || fail "tak: not 4 rounds, decided"
grep -Eq '^sieve +6  max samples$' out || fail "sieve: not 6 rounds, max samples"
# Each side's report has every sample that ran, and no "not run".
grep -q '"samples": "auto"' "$tmp/o/A/report.json" || fail "report: samples not auto"
[ "$(grep -c '^SingleSource/Benchmarks/sieve,' "$tmp/o/B/report.csv")" -eq 6 ] ||
	fail "report.csv lacks sieve's 6 samples"
! grep -q 'not run' "$tmp/o/A/report.csv" || fail "report.csv: samples 'not run'"
# The runs alternate A B / B A, round by round.
grep '/results/' order | sed "s|^$tmp/o/||" | sed -n '1,2p;7,8p' > runs
printf '%s\n' A/results/hash.1.time B/results/hash.1.time B/results/hash.2.time \
	A/results/hash.2.time > want
cmp -s want runs || fail "order: $(cat runs)"

# A second run starts afresh: no sample of the first stays.
printf '\n' > plan
: > calls
ab O="$tmp/o" MIN_SAMPLES=1 MAX_SAMPLES=3 AB_LOOK_EVERY=1 BENCHMARKS='hash tak sieve' > out2
[ "$(find "$tmp/o/A/results" -name 'sieve.*.time' | wc -l)" -eq 1 ] ||
	fail "samples of the first run left over"
grep -Eq '^sieve +1  decided$' out2 || fail "second run: $(cat out2)"

# The budget: no round starts that could not end within it.  Each run
# takes over a second (two a round): with a budget of 2 s and random order
# no second round; with the order alternated rounds come in blocks of two
# (AB, BA: an order effect cancels), so the first block ends, no second
# starts.
: > calls
SLOW=1 ab O="$tmp/b" MIN_SAMPLES=5 MAX_SAMPLES=30 AB_BUDGET=2 AB_ORDER=random BENCHMARKS=hash > outb
cat outb
grep -Eq '^hash +1  budget$' outb || fail "budget: $(cat outb)"
SLOW=1 ab O="$tmp/b2" MIN_SAMPLES=5 MAX_SAMPLES=30 AB_BUDGET=2 BENCHMARKS=hash > outb2
grep -Eq '^hash +2  budget$' outb2 || fail "budget, a block: $(cat outb2)"
! grep -q -- --undecided calls || fail "a look before MIN_SAMPLES"

# AB_ORDER=random: the orders drawn are recorded, the same seed gives the
# same orders, and the runs follow the record.
: > order
ab O="$tmp/r1" MIN_SAMPLES=6 MAX_SAMPLES=6 AB_ORDER=random AB_SEED=7 BENCHMARKS=tak > /dev/null
ab O="$tmp/r2" MIN_SAMPLES=6 MAX_SAMPLES=6 AB_ORDER=random AB_SEED=7 BENCHMARKS=tak > /dev/null
cmp -s "$tmp/r1/ab-rounds.log" "$tmp/r2/ab-rounds.log" || fail "same seed, other orders"
grep "$tmp/r1/" order | sed "s|^$tmp/r1/\(.\)/results/tak\.\([0-9]*\)\.time|\2 \1|" |
	awk '{ o[$1] = o[$1] $2 } END { for (r = 1; r <= 6; r++) print r, o[r], "tak" }' > runs
cmp -s runs "$tmp/r1/ab-rounds.log" || fail "runs do not follow the record: $(cat runs)"

# A look that fails stops make ab with timeit-compare's message.
touch look-fails
set +e
ab O="$tmp/f" MIN_SAMPLES=1 MAX_SAMPLES=3 BENCHMARKS=tak > outf 2>&1
status=$?
set -e
rm look-fails
[ "$status" -ne 0 ] || fail "a failed look did not fail make ab"
grep -q 'fake-compare: bad input' outf || fail "the look's error not shown: $(cat outf)"
grep -q 'timeit-compare\|fake-compare --undecided failed at round 1' outf || fail "$(cat outf)"

# Bad settings: refused before anything is written.
for bad in MIN_SAMPLES=0 MAX_SAMPLES=x AB_LOOK_EVERY= 'MIN_SAMPLES=9 MAX_SAMPLES=3' AB_BUDGET=-1 \
	AB_ORDER=abba AB_SEED=x; do
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
