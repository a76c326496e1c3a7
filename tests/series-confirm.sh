#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-series' exit status in a nightly replay: a history fed night by
# night, --since 1, exits 1 on the one night a regression is first
# confirmed, however many nights after its start that is, and not on the
# nights after it: not even when, at the edge of significance, it is lost
# and found again (+2.5 %: found on night 21, lost, found on 24 and 28).
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
SERIES=${SERIES:-$top_builddir/series/timeit-series}

# replay STEP: the history of a benchmark STEP slower from night 15 on
# (one sample a night, about 2 % of noise) fed night by night; print
# "NIGHT STATUS LISTED" for each night from 8 on (LISTED: the step's
# change points listed).
replay() {
	lnt_history 40 step 15 "$(awk -v s="$1" 'BEGIN { print 1 + s }')" 1 normal
	i=1
	runs=
	while [ "$i" -le 40 ]; do
		runs="$runs n$i.json"
		if [ "$i" -ge 8 ]; then
			st=0
			# shellcheck disable=SC2086 # $runs: the file names, split on purpose
			"$SERIES" --since 1 --format csv $runs > out.csv || st=$?
			[ "$st" -le 1 ] || fail "night $i: status $st"
			echo "$i $st $(grep -c '^Suite/step,' out.csv)"
		fi
		i=$((i + 1))
	done
}

for step in 0.02 0.025 0.20; do
	replay "$step" > replay.txt
	ones=$(awk '$2 == 1' replay.txt | wc -l)
	first=$(awk '$3 > 0 { print $1; exit }' replay.txt)
	at=$(awk '$2 == 1 { print $1; exit }' replay.txt)
	[ -n "$first" ] || fail "+$step: never found: $(cat replay.txt)"
	[ "$ones" -eq 1 ] || fail "+$step: status 1 on $ones nights, not once: $(cat replay.txt)"
	[ "$at" = "$first" ] ||
		fail "+$step: status 1 on night $at, confirmed on night $first: $(cat replay.txt)"
	echo "+$step from night 15: confirmed and status 1 on night $first"
	case $step in
	# The slow one needs more nights than the default window of 5.
	0.02) [ "$first" -ge 21 ] || fail "+2 % confirmed on night $first: not slow to confirm" ;;
	0.025) [ "$first" -eq 21 ] || fail "+2.5 % confirmed on night $first, not 21" ;;
	0.20) [ "$first" -eq 16 ] || fail "+20 % confirmed on night $first, not 16" ;;
	esac
done
