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

# night N STEP: night N's LNT report in nN.json: one benchmark, one sample,
# about 2 % of noise (deterministic), STEP more from night 15 on (a new
# binary), and a flat one.
night() {
	awk -v n="$1" -v step="$2" 'BEGIN {
		printf "{\"format_version\": \"2\", \"machine\": {\"name\": \"box\"},\n"
		printf " \"run\": {\"llvm_project_revision\": \"%d\"},\n \"tests\": [", n
		for (i = 1; i <= 2; i++) {
			z = 0
			for (k = 0; k < 4; k++) {
				x = sin(n * 12.9898 + i * 78.233 + k * 37.719) * 43758.5453
				x -= int(x)
				if (x < 0) x += 1
				z += x
			}
			z = (z - 2) * sqrt(3)
			lvl = (i == 1 && n >= 15) ? 1 + step : 1
			printf "%s\n  {\"name\": \"Suite/%s\", \"execution_time\": [%.6f], \"hash\": \"%s\"}",
				(i > 1 ? "," : ""), (i == 1 ? "step" : "flat"), lvl * exp(0.02 * z),
				(i == 1 && n >= 15) ? "new" : "old"
		}
		print "\n]}"
	}' > "n$1.json"
}

# replay STEP: feed nights 1..40 one by one; print "NIGHT STATUS LISTED"
# for each night from 8 on (LISTED: the step's change points listed).
replay() {
	i=1
	runs=
	while [ "$i" -le 40 ]; do
		night "$i" "$1"
		runs="$runs n$i.json"
		if [ "$i" -ge 8 ]; then
			# shellcheck disable=SC2086 # $runs: the file names, split on purpose
			st=0
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
