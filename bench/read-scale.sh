#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# read-scale.sh: how long timeit-compare takes to read and compare N tests
# x 6 rounds a side, lit -o JSON and LNT report JSON (format 2), for each
# N given (default 5000 20000 100000): wall and CPU time, the load
# average.  The figures of docs/scale.md.
#   TIMEIT=timeit TIMEIT_COMPARE=timeit-compare [READ_FORMATS="lit lnt"] bench/read-scale.sh [N...]
set -eu
: "${TIMEIT:?TIMEIT must name timeit}" "${TIMEIT_COMPARE:?TIMEIT_COMPARE must name timeit-compare}"
[ "$#" -gt 0 ] || set -- 5000 20000 100000
dir=$(mktemp -d "${TMPDIR:-/tmp}/read-scale.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# gen FORMAT N SEED: a report of N tests, one sample each, with a hash.
gen() {
	awk -v fmt="$1" -v n="$2" -v seed="$3" 'BEGIN {
		srand(seed)
		if (fmt == "lit")
			printf "{\"__version__\": [17, 0, 0], \"elapsed\": 1.0, \"tests\": [\n"
		else
			printf "{\"format_version\": \"2\", \"machine\": {\"name\": \"m\"}, \"run\": {\"start_time\": \"2026-01-01 00:00:00\", \"llvm_project_revision\": \"1\"}, \"tests\": [\n"
		for (i = 0; i < n; i++) {
			v = 1 + rand() / 100
			if (fmt == "lit")
				printf "%s{\"name\": \"test-suite :: SingleSource/b%06d.test\", \"code\": \"PASS\", \"elapsed\": %.6f, \"metrics\": {\"exec_time\": %.6f, \"hash\": \"h%06d\"}}\n", (i ? "," : ""), i, v, v, i
			else
				printf "%s{\"name\": \"SingleSource/b%06d\", \"execution_time\": [%.6f], \"hash\": [\"h%06d\"]}\n", (i ? "," : ""), i, v, i
		}
		printf "]}\n"
	}'
}

for n do
	for fmt in ${READ_FORMATS:-lit lnt}; do
		args=
		for r in 1 2 3 4 5 6; do
			gen $fmt "$n" "$r" >"$dir/$fmt-a$r.json"
			gen $fmt "$n" "$((r + 10))" >"$dir/$fmt-b$r.json"
			args="$args -a $dir/$fmt-a$r.json -b $dir/$fmt-b$r.json"
		done
		load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
		# shellcheck disable=SC2086 # the words of the list
		"$TIMEIT" --summary "$dir/t.time" "$TIMEIT_COMPARE" --format csv $args >/dev/null || :
		awk -v f=$fmt -v n="$n" -v l="$load" '$1 == "real" { r = $2 } $1 == "user" { u = $2 }
			$1 == "sys" { s = $2 }
			END { printf "%s %7d tests x 6 rounds a side: real %7.2f s, user+sys %7.2f s (load %s)\n", f, n, r, u + s, l }' "$dir/t.time"
		rm -f "$dir"/$fmt-*.json
	done
done
