#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# test-suite SHARD=K/N: the shards of a suite partition it exactly (every
# benchmark in exactly one shard, for several N), and a sharded run runs
# and reports only its own benchmarks.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
suite=$top_srcdir/test-suite
dirs='SingleSource/Benchmarks SingleSource/SelfTest'

list() {
	make -s -f "$suite/Makefile" O="$tmp/o" TEST_DIRS="$dirs" TIMEIT="$TIMEIT" "$@" list
}

list | sort > all
n=$(wc -l < all)
[ "$n" -ge 15 ] || fail "only $n benchmarks listed"
for shards in 1 2 3 4 7 "$n" $((n + 2)); do
	: > union
	k=1
	while [ "$k" -le "$shards" ]; do
		list SHARD="$k/$shards" > "shard.$k"
		cat "shard.$k" >> union
		# Round robin: sizes differ by at most one.
		c=$(wc -l < "shard.$k")
		if [ "$c" -lt $((n / shards)) ] || [ "$c" -gt $(((n + shards - 1) / shards)) ]; then
			fail "shard $k/$shards has $c of $n"
		fi
		k=$((k + 1))
	done
	sort union > union.sorted
	cmp -s all union.sorted || fail "the $shards shards do not partition the suite"
done

# A shard of a given BENCHMARKS, from the command line or the environment,
# takes positions in the sorted list too.
list SHARD=1/2 BENCHMARKS='tak sieve hash fft' > picked
printf '%s\n' SingleSource/Benchmarks/fft SingleSource/Benchmarks/sieve > want
cmp -s want picked || fail "SHARD=1/2 of BENCHMARKS on the command line: $(cat picked)"
BENCHMARKS='tak sieve hash fft' list SHARD=1/2 > picked
cmp -s want picked || fail "SHARD=1/2 of BENCHMARKS in the environment: $(cat picked)"

# A benchmark named twice is one benchmark: listed, run and reported
# once, in the order first given.
list BENCHMARKS='sieve tak sieve tak' > picked
printf '%s\n' SingleSource/Benchmarks/sieve SingleSource/Benchmarks/tak > want
cmp -s want picked || fail "BENCHMARKS with repeats: $(cat picked)"
make -s -f "$suite/Makefile" O="$tmp/dup" TIMEIT="$TIMEIT" SIZE=small BENCHMARKS='tak tak' \
	> table.dup
grep -Eq '^SingleSource/Benchmarks/tak +pass +1/1 ' table.dup ||
	fail "BENCHMARKS='tak tak': $(cat table.dup)"
[ "$(grep -c '"name": "SingleSource/Benchmarks/tak"' "$tmp/dup/report.json")" -eq 1 ] ||
	fail "BENCHMARKS='tak tak': tak reported twice in report.json"
[ "$(grep -c 'SingleSource/Benchmarks/tak' "$tmp/dup/report.csv")" -eq 1 ] ||
	fail "BENCHMARKS='tak tak': tak reported twice in report.csv"

# Two real shard runs of the bundled benchmarks: each writes summaries of
# its own benchmarks only, and together they cover the suite once.
: > ran
for k in 1 2; do
	make -s -j2 -f "$suite/Makefile" O="$tmp/s$k" TIMEIT="$TIMEIT" SIZE=small \
		SHARD="$k/2" > "table.$k"
	grep -q '"shard": "'"$k"'/2"' "$tmp/s$k/report.json" || fail "shard not in run info"
	(cd "$tmp/s$k/results" && ls) | sed 's/\.1\.time$//' >> ran
done
sort ran > ran.sorted
make -s -f "$suite/Makefile" O="$tmp/o" TIMEIT="$TIMEIT" list | sed 's|.*/||' | sort > bundled
cmp -s ran.sorted bundled || fail "the shard runs did not cover the suite exactly once"

# The shards' results merge in timeit-compare: every directory as one more
# path of a side (-a DIR1 -a DIR2), one row per benchmark.
compare=$top_builddir/compare/timeit-compare
"$compare" --format csv -a "$tmp/s1/results" -a "$tmp/s2/results" \
	-b "$tmp/s2/results" -b "$tmp/s1/results" > merged.csv || fail "timeit-compare of the shards failed"
sed 1d merged.csv | cut -d, -f1 | sort > merged
cmp -s merged bundled || fail "merged shards: $(cat merged.csv)"
awk -F, 'NR > 1 && ($2 != 1 || $3 != 1 || $13 == "missing" || $13 == "failed") { exit 1 }' merged.csv ||
	fail "merged shards: a benchmark without one sample a side: $(cat merged.csv)"
exit 0
