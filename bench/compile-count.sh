#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# compile-count.sh: what timeit-ab --compile --count valgrind costs a
# unit: each source compiled REPEATS times plain and REPEATS times under
# timeit --count-instructions=valgrind, the wall time of each (the
# counted one is the timed compile and valgrind's run), the count, and
# the load average (docs/compile-time.md).
#
# usage: TIMEIT=timeit sh compile-count.sh COMPILER REPEATS SOURCE... [-- FLAGS...]
#   e.g. sh compile-count.sh /usr/bin/clang-14 3 test-suite/SingleSource/Benchmarks/*.c -- -O3
set -u
cc=$1 reps=$2
shift 2
srcs=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	srcs="$srcs $1"
	shift
done
[ $# -gt 0 ] && shift
timeit=${TIMEIT:-timeit}
dir=$(mktemp -d "${TMPDIR:-/tmp}/compile-count.XXXXXX")
trap 'rm -rf "$dir"' EXIT
now() { date +%s.%N; }
printf 'unit repeat plain_wall counted_wall factor count load\n'
for src in $srcs; do
	i=1
	while [ "$i" -le "$reps" ]; do
		s=$(now)
		"$timeit" --summary "$dir/p" "$cc" "$@" -c -o "$dir/x.o" "$src" || exit 1
		e=$(now)
		"$timeit" --summary "$dir/v" --count-instructions=valgrind "$cc" "$@" -c -o "$dir/x.o" "$src" || exit 1
		f=$(now)
		awk -v n="${src##*/}" -v i="$i" -v s="$s" -v e="$e" -v f="$f" \
			-v l="$(cut -d' ' -f1-3 /proc/loadavg)" \
			'$1 == "valgrind-instructions" { c = $2 }
			END { p = e - s; v = f - e; printf "%s %d %.2f %.2f %.0f %s %s\n", n, i, p, v, (v - p) / p, c, l }' \
			"$dir/v"
		i=$((i + 1))
	done
done
