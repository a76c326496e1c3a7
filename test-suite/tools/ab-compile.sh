#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# ab-compile.sh: the end of "make ab WHAT=compile": both sides' compiles
# (O/A and O/B, each with the compile_commands.json make compdb wrote)
# run again in rounds by timeit-ab --compile, its output in O/compile-ab;
# its table in O/ab-compile.txt, the same verdicts as CSV in
# O/ab-compile.csv.
#
# usage: ab-compile.sh O GATE DRIVER_ARGUMENTS...
# environment: TIMEIT_AB, TIMEIT_COMPARE, COMPARE_FLAGS
# Exit status: 2 timeit-ab failed, 1 a compile failed or (GATE=yes) a
# significant regression, 0 otherwise.
set -u
out=$1 gate=$2
shift 2
dir=$out/compile-ab
rm -rf "$dir"
rm -f "$out/ab-compile.txt" "$out/ab-compile.csv"

st=0
"$TIMEIT_AB" -o "$dir" "$@" --compile "$out/A" "$out/B" > "$out/ab-compile.txt.tmp" || st=$?
mv -f "$out/ab-compile.txt.tmp" "$out/ab-compile.txt"
cat "$out/ab-compile.txt"
[ "$st" -le 1 ] || { echo "ab: $TIMEIT_AB --compile failed (status $st)" >&2; exit 2; }
looks=
if [ -f "$dir/looks" ] && [ "$(cat "$dir/looks")" != 0 ]; then
	looks="--looks $(cat "$dir/looks")"
fi
# COMPARE_FLAGS is split into words on purpose; a --metric of it comes
# after compile_time, and wins.
# shellcheck disable=SC2086
"$TIMEIT_COMPARE" --metric compile_time ${COMPARE_FLAGS:-} $looks --format csv \
	--binaries "$dir/A/bin" "$dir/B/bin" "$dir/A/results" "$dir/B/results" \
	> "$out/ab-compile.csv.tmp" 2> /dev/null
c=$?
[ "$c" -le 1 ] || { rm -f "$out/ab-compile.csv.tmp"; echo "ab: $TIMEIT_COMPARE failed (status $c)" >&2; exit 2; }
mv -f "$out/ab-compile.csv.tmp" "$out/ab-compile.csv"
echo "table: $out/ab-compile.txt; CSV: $out/ab-compile.csv"
# A failed compile fails make ab whatever the gate.
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "verdict") v = i; next }
	v && $v == "failed" { bad = 1 } END { exit !bad }' "$out/ab-compile.csv"; then
	exit 1
fi
[ "$st" = 0 ] || [ "$gate" = no ] || exit 1
exit 0
