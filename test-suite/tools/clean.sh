#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# clean.sh: remove what the suite wrote under O (and in RESULTS), by name,
# never a whole directory: O or RESULTS may be a directory that also holds
# the user's own files (RESULTS=$HOME/results, O=.).  A directory is removed
# only when nothing else is left in it.
#
# usage: clean.sh O RESULTS NAME...   (NAME: every benchmark the suite knows)
set -u
out=$1 results=$2
shift 2

# names: the benchmarks given, and those O/Output has a build stamp of (a
# run with other TEST_DIRS).
names=$*
for f in "$out"/Output/*.build; do
	[ -f "$f" ] || continue
	n=${f##*/}
	names="$names ${n%.build}"
done

for n in $names; do
	rm -f "$out/bin/$n" "$out/Output/$n".* "$results/$n".*.time "$results/$n".*.time.wrong-output
done
rm -f "$out/Output/build-config" "$out/Output/run-config" "$out/Output/report-env" \
	"$out/Output/"*.new "$out/tools/fpcmp" "$out/tools/lnt-answer" \
	"$out/tools/lnt-answer.h.d/config.h" "$out/report.json" "$out/report.csv" \
	"$out/report.rows" "$out/report.json.tmp" "$out/report.csv.tmp" \
	"$out/ab-run.sh" "$out/ab-rounds.log" "$out/ab-stop.tsv" "$out/ab-stop.tsv.tmp" "$out/ab-state.tsv" "$out/ab-samples.tsv" \
	"$out/ab-looks" \
	"$out/ab-look.err" "$out/ab.txt" "$out/ab.csv" "$out/ab.svg" "$out/.timeit-ab.lock" \
	"$out/compile_commands.json" "$out/ab-compile.txt" "$out/ab-compile.csv"
# make ab WHAT=compile's timeit-ab output: all the suite's.
rm -rf "$out/compile-ab"
# The sides of make ab are suite trees of their own.
for side in A B; do
	if [ -d "$out/$side" ]; then
		sh "$0" "$out/$side" "$out/$side/results" "$@"
	fi
done
# RESULTS elsewhere was maybe there before the suite: it stays.
dirs="$out/bin $out/Output $out/tools/lnt-answer.h.d $out/tools $out/A $out/B"
[ "$results" != "$out/results" ] || dirs="$out/results $dirs"
for d in $dirs; do
	[ -d "$d" ] && rmdir "$d" 2>/dev/null
done
exit 0
