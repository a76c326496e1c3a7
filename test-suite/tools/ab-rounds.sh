#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# ab-rounds.sh: the sampling loop of "make ab".  Each round runs every
# benchmark still in play once on each side, A and B back to back, the
# order of the two alternated (or drawn at random) per round and recorded.
# With a fixed sample count every benchmark gets exactly that many rounds.
# With SAMPLES=auto the loop looks at the results after MIN rounds and
# then every STEP rounds: timeit-compare --undecided names the benchmarks
# that more samples could still decide, and only those run on.  It stops
# when none is left, at MAX rounds, or when the next round would not end
# within BUDGET seconds.  No sample is ever dropped.
#
# usage: ab-rounds.sh O RUNFILE SAMPLES MIN MAX STEP BUDGET ORDER SEED NAME...
#   RUNFILE   defines run_one SIDE NAME I (one checked sample; make writes it)
#   SAMPLES   a count, or auto
#   ORDER     alternate (AB, BA, AB, ...) or random (seeded by SEED)
# environment: TIMEIT_COMPARE, AB_COMPARE_ARGS (the arguments of every
#   look before the result directories: --looks N, --binaries, flags)
# Writes O/ab-rounds.log (one line a round: round, order, benchmarks run),
# O/ab-stop.tsv (per benchmark: rounds, why sampling stopped), and the
# progress to stderr (one line that rewrites itself on a terminal).
# Exit status 0, 2 when a look failed (timeit-compare's own error).
set -eu
out=$1 runfile=$2 samples=$3 min=$4 max=$5 step=$6 budget=$7 order=$8 seed=$9
shift 9
# shellcheck source=/dev/null
. "$runfile"

if [ "$samples" = auto ]; then
	rounds=$max
else
	rounds=$samples
fi
active=$*
log=$out/ab-rounds.log stop=$out/ab-stop.tsv
: > "$log"
: > "$stop.tmp"
tty=
[ -t 2 ] && tty=yes

now() { date +%s; }
# clock SECONDS: m:ss
clock() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
count() { echo $#; }

# stopped REASON ROUND NAME...: record why sampling stopped for NAMEs.
stopped() {
	_why=$1 _r=$2
	shift 2
	for _b do
		printf '%s\t%s\t%s\n' "$_b" "$_r" "$_why" >> "$stop.tmp"
	done
}

# The order of round R: alternate, or random from SEED and R (awk's
# generator, so the same SEED gives the same orders everywhere).
round_order() {
	if [ "$order" = random ]; then
		awk -v s="$seed" -v r="$1" 'BEGIN { srand(s * 1000 + r); print (rand() < 0.5 ? "A B" : "B A") }'
	elif [ $(($1 % 2)) -eq 1 ]; then
		echo "A B"
	else
		echo "B A"
	fi
}

start=$(now)
runs=0
round=0
st=0
while [ -n "$active" ]; do
	round=$((round + 1))
	sides=$(round_order "$round")
	# shellcheck disable=SC2086 # one word per benchmark
	n=$(count $active)
	elapsed=$(($(now) - start))
	# The time left, from the mean time of a benchmark's round so far:
	# with SAMPLES=auto it is the most that is left (every benchmark in
	# play running to MAX).
	left=
	if [ "$runs" -gt 0 ]; then
		left=$((elapsed * n * (rounds - round + 1) / runs))
		[ "$budget" -eq 0 ] || [ "$left" -le $((budget - elapsed)) ] ||
			left=$((budget - elapsed))
		left=$(clock "$left")
		[ "$samples" != auto ] || left="at most $left"
	fi
	if [ "$samples" = auto ]; then
		what="round $round (at most $rounds): $n in play"
	else
		what="round $round of $rounds"
	fi
	msg="$what, $(clock "$elapsed") elapsed${left:+, $left left}, order ${sides% *}${sides#* }"
	if [ -n "$tty" ]; then
		printf '\r\033[K  %s' "$msg" >&2
	else
		echo "  RUN      $msg"
	fi
	echo "$round ${sides% *}${sides#* } $active" >> "$log"
	for b in $active; do
		for s in $sides; do
			run_one "$s" "$b" "$round"
		done
	done
	runs=$((runs + n))

	if [ "$samples" = auto ] && [ "$round" -ge "$min" ] &&
		{ [ $(((round - min) % step)) -eq 0 ] || [ "$round" -eq "$rounds" ]; }; then
		# shellcheck disable=SC2086 # arguments split on purpose
		# Its notes (too few samples yet) would only repeat at every look.
		if ! undecided=$("$TIMEIT_COMPARE" ${AB_COMPARE_ARGS:-} --undecided \
			"$out/A/results" "$out/B/results" 2> "$out/ab-look.err"); then
			[ -z "$tty" ] || printf '\n' >&2
			cat "$out/ab-look.err" >&2
			echo "ab: $TIMEIT_COMPARE --undecided failed at round $round" >&2
			st=2
			# shellcheck disable=SC2086
			stopped "look failed" "$round" $active
			break
		fi
		next=
		for b in $active; do
			if printf '%s\n' "$undecided" | grep -qxF -- "$b"; then
				next="$next $b"
			else
				stopped decided "$round" "$b"
			fi
		done
		active=${next# }
	fi
	if [ -n "$active" ] && [ "$round" -ge "$rounds" ]; then
		if [ "$samples" = auto ]; then
			# shellcheck disable=SC2086
			stopped "max samples" "$round" $active
		else
			# shellcheck disable=SC2086
			stopped fixed "$round" $active
		fi
		break
	fi
	# Start another round only if it can end within the budget.  With
	# the order alternated, rounds come in blocks of two (AB, BA), so
	# that an order effect (the second run of a round faster) cancels:
	# a block starts only if both its rounds fit, and its second round
	# always runs.
	blk=1
	[ "$order" = alternate ] && blk=2
	if [ -n "$active" ] && [ "$budget" -gt 0 ] && [ $((round % blk)) -eq 0 ]; then
		elapsed=$(($(now) - start))
		# shellcheck disable=SC2086
		nn=$(count $active)
		if [ $((elapsed + blk * elapsed * nn / runs)) -gt "$budget" ]; then
			# shellcheck disable=SC2086
			stopped budget "$round" $active
			break
		fi
	fi
done
[ -z "$tty" ] || printf '\r\033[K' >&2
elapsed=$(($(now) - start))
echo "  DONE     $round rounds, $runs runs a side, $(clock "$elapsed")"
mv -f "$stop.tmp" "$stop"
exit $st
