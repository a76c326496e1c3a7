#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Reading is linear in the number of benchmarks: lit -o and LNT
# reports of 5 000 and 20 000 tests, one file a side; the 4 times larger
# input must take less than 10 times the CPU time (a linear lookup per
# sample made it 16 to 20 times).  A ratio of two runs on this machine, not
# a time.  docs/scale.md has the figures.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
COMPARE=${COMPARE:-$top_builddir/compare/timeit-compare}

# gen FORMAT N SEED: a report of N tests.
gen() {
	awk -v fmt="$1" -v n="$2" -v seed="$3" 'BEGIN {
		srand(seed)
		if (fmt == "lit")
			printf "{\"tests\": [\n"
		else
			printf "{\"format_version\": \"2\", \"machine\": {\"name\": \"m\"}, \"run\": {},\n \"tests\": [\n"
		for (i = 0; i < n; i++) {
			v = 1 + rand() / 100
			if (fmt == "lit")
				printf "%s{\"name\": \"s :: SingleSource/b%06d.test\", \"code\": \"PASS\", \"metrics\": {\"exec_time\": %.6f}}\n", i ? "," : "", i, v
			else
				printf "%s{\"name\": \"SingleSource/b%06d\", \"execution_time\": [%.6f, %.6f]}\n", i ? "," : "", i, v, v
		}
		print "]}"
	}'
}

for fmt in lit lnt; do
	for n in 5000 20000; do
		gen $fmt $n 1 >"$fmt-$n-a.json"
		gen $fmt $n 2 >"$fmt-$n-b.json"
		"$TIMEIT" --summary "$fmt-$n.time" "$COMPARE" --format csv "$fmt-$n-a.json" \
			"$fmt-$n-b.json" >"$fmt-$n.csv" 2>err || [ $? -eq 1 ] || fail "$fmt $n: $(cat err)"
		[ "$(wc -l <"$fmt-$n.csv")" -eq $((n + 1)) ] || fail "$fmt $n: not every test read"
	done
	small=$(cpu_time "$fmt-5000.time") large=$(cpu_time "$fmt-20000.time")
	echo "$fmt: 5000 tests ${small} s, 20000 tests ${large} s of CPU" >&2
	# Below 20 ms the clock's tick decides: a floor for the small run.
	awk -v s="$small" -v l="$large" 'BEGIN { if (s < 0.02) s = 0.02; exit !(l < 10 * s) }' ||
		fail "$fmt: 4 times the tests took more than 10 times the time ($small s, $large s)"
done
exit 0
