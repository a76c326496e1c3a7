#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-series' last-night test: a slowdown on the last night alone is
# said at once ("last night off its level: ..., suspect"), exit 0 unless
# --suspect-exit (3); --last-alpha 0 turns it off; a change confirmed
# wins over a suspect; bad values are refused.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
SERIES=${SERIES:-$top_builddir/series/timeit-series}

# history FROM: 20 nights, Suite/slow 8 % slower (a new binary) from
# night FROM on, Suite/flat never; 3 samples of about 1 % noise.
history() {
	lnt_history 20 slow "$1" 1.08 3 uniform
}

history 20
# shellcheck disable=SC2086 # $runs: the file names, split on purpose
expect_status 0 "$SERIES" $runs > out.txt
grep -q '^Suite/slow: last night off its level: +8\.[0-9]*%, p=[0-9.e<-]*, suspect$' out.txt ||
	fail "the last night's slowdown is not said: $(cat out.txt)"
grep -q '^Suite/flat' out.txt && fail "a flat benchmark is a suspect: $(cat out.txt)"
# shellcheck disable=SC2086
expect_status 3 "$SERIES" --suspect-exit $runs > /dev/null
# shellcheck disable=SC2086
"$SERIES" --format json $runs > out.json
if command -v jq > /dev/null 2>&1; then
	jq -e '.suspects == 1 and .last_alpha == 0.0001 and
		.benchmarks[1].last_run_suspect and .benchmarks[1].last_run_suspect_p < 0.0001 and
		(.benchmarks[0].last_run_suspect | not)' out.json > /dev/null ||
		fail "the JSON's suspect: $(cat out.json)"
fi
# Off: the note of before, and no status 3.
# shellcheck disable=SC2086
expect_status 0 "$SERIES" --last-alpha 0 --suspect-exit $runs > out.txt
grep -q 'suspect' out.txt && fail "--last-alpha 0 still tests: $(cat out.txt)"
grep -q '^Suite/slow: the last run is +8\.[0-9]*% off the level' out.txt ||
	fail "--last-alpha 0: the note of an undecided last run: $(cat out.txt)"

# Two nights at the new level: a regression confirmed, status 1, no
# suspect (the level since the change is one night).
history 19
# shellcheck disable=SC2086
expect_status 1 "$SERIES" --suspect-exit $runs > out.txt
grep -q 'suspect' out.txt && fail "a confirmed change is also a suspect: $(cat out.txt)"

# Nothing changed: no suspect, status 0.
history 99
# shellcheck disable=SC2086
expect_status 0 "$SERIES" --suspect-exit $runs > out.txt
grep -q 'suspect' out.txt && fail "a flat history has a suspect: $(cat out.txt)"

# Bad values: status 2.
expect_status 2 "$SERIES" --last-alpha 0.5 n1.json
expect_status 2 "$SERIES" --last-alpha x n1.json
expect_status 2 "$SERIES" --suspect-exit=1 n1.json
