#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# series-scale.sh [RUNS [BENCHMARKS]]: how long timeit-series takes over
# a history of RUNS lit -o reports of BENCHMARKS tests each (default 1000
# x 500; the target: 2 s, memory linear in the samples; docs/scale.md):
# wall, user and system time and the peak resident set (GNU time), the
# load average.  Ten of the benchmarks take a +5 % step at the middle run
# (their hash changes there too); the others only noise, 1 % CV.
#   TIMEIT_SERIES=timeit-series bench/series-scale.sh [RUNS [BENCHMARKS]]
set -eu
: "${TIMEIT_SERIES:?TIMEIT_SERIES must name timeit-series}"
runs=${1:-1000}
nb=${2:-500}
command -v /usr/bin/time > /dev/null 2>&1 || { echo "series-scale: needs GNU time (/usr/bin/time)" >&2; exit 2; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/series-scale.XXXXXX")
trap 'rm -rf "$dir"' EXIT

awk -v runs="$runs" -v nb="$nb" -v dir="$dir" 'BEGIN {
	srand(1)
	for (r = 1; r <= runs; r++) {
		f = sprintf("%s/r%05d.json", dir, r)
		printf "{\"__version__\": [17, 0, 0], \"elapsed\": 1.0, \"tests\": [\n" > f
		for (b = 0; b < nb; b++) {
			step = (b < 10 && r > runs / 2) ? 1.05 : 1
			# a normal deviate from twelve uniforms
			z = -6; for (k = 0; k < 12; k++) z += rand()
			v = (1 + b / 1000) * step * exp(0.01 * z)
			h = (step > 1) ? "new" : "old"
			sep = b ? "," : ""
			printf "%s{\"name\": \"suite :: b%03d.test\", \"code\": \"PASS\", \"metrics\": {\"exec_time\": %.6f, \"hash\": \"%s\"}}\n", \
				sep, b, v, h > f
		}
		printf "]}\n" > f
		close(f)
	}
}'
echo "series-scale: $runs runs x $nb benchmarks, $(du -sh "$dir" | cut -f1); load $(uptime | sed 's/.*load average: //')"
/usr/bin/time -f '%e s wall, %U s user, %S s sys, %M KiB max RSS' \
	"$TIMEIT_SERIES" --since 1 "$dir"/r*.json > "$dir/out" 2> "$dir/time" || :
tail -n 1 "$dir/time"
echo "change points: $(grep -c '^b[0-9]' "$dir/out" || :), of the ten stepped benchmarks:" \
	"$(grep -c '^b00[0-9] ' "$dir/out" || :)"
