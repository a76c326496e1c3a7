#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/cmd-vs-hyperfine.sh [REPS]: timeit-ab --cmd against hyperfine on
# the same pairs of commands in the same wall time.
#
# Three pairs of builds of tests/lit-ab/spin.c (a fixed loop, EXTRA
# percent more of it): aa (a copy of the same program: nothing changed;
# timeit-ab --no-identity, or its identity check would decide it at once),
# 2 (2 % more work) and 20 (20 % more).  Per pair and repetition (REPS,
# default 5), the order of the two tools alternated: hyperfine -N with its
# defaults (at least 10 runs and 3 s a command), then timeit-ab --cmd A
# --cmd B with --budget the wall time hyperfine took.  hyperfine always
# names a faster command ("B ran 1.02 +- 0.05 times faster than A"); what a
# user can take from it is read here as the two means +- one standard
# deviation: apart (slower, faster) or overlapping (a guess).  timeit-ab's
# word is its verdict (regressed, improved, unchanged, undecided).  Per
# pair and tool one line: the counts of each word and the mean wall time.
# The load average is printed before and after.
#
# Needs hyperfine (Debian: apt-get install hyperfine) and a C compiler;
# TIMEIT_AB names timeit-ab (make bench-cmd sets it).
set -eu
LC_ALL=C
export LC_ALL
reps=${1:-5}
: "${TIMEIT_AB:?TIMEIT_AB must name timeit-ab (make bench-cmd sets it)}"
: "${SRCDIR:?SRCDIR must name the source tree}"
command -v hyperfine > /dev/null 2>&1 || { echo "bench: hyperfine is not installed" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/timeit-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp"

for x in 0 2 20; do
	"${CC:-cc}" -O2 -DEXTRA=$x -o "spin$x" "$SRCDIR/tests/lit-ab/spin.c"
done
cp spin0 copy0
# About 50 ms a run on the project's VM.
n=${SPIN_N:-25000000}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# hf A B: hyperfine's word for B against A, and its wall time.
hf() {
	t0=$(now)
	hyperfine -N --style none --export-csv h.csv "./$1 $n" "./$2 $n" > /dev/null 2>&1
	t1=$(now)
	word=$(awk -F, 'NR == 2 { ma = $2; sa = $3 } NR == 3 { mb = $2; sb = $3 }
		END { if (mb - sb > ma + sa) print "slower"; else if (mb + sb < ma - sa) print "faster";
		      else print "overlap" }' h.csv)
	echo "hyperfine $word $(elapsed "$t0" "$t1")"
}

# ab A B BUDGET: timeit-ab's verdict for B against A, and its wall time.
ab() {
	rm -rf o
	t0=$(now)
	"$TIMEIT_AB" -q --no-identity --budget "$3" -C --format=csv -o o \
		--cmd "./$1 $n" --cmd "./$2 $n" > v.csv 2> /dev/null || :
	t1=$(now)
	word=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "verdict") c = i; next }
		NR == 2 { print $c }' v.csv)
	echo "timeit-ab ${word:-error} $(elapsed "$t0" "$t1")"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$reps"); do
	for pair in aa 2 20; do
		a=spin0 b=copy0
		[ $pair = aa ] || b=spin$pair
		if [ $((r % 2)) -eq 1 ]; then
			line=$(hf $a $b)
			echo "$pair $line" >> rows
			ab $a $b "${line##* }" | sed "s/^/$pair /" >> rows
		else
			# timeit-ab first: its budget is the last hyperfine wall of the pair.
			w=$(awk -v p=$pair '$1 == p && $2 == "hyperfine" { w = $4 } END { print w }' rows)
			ab $a $b "$w" | sed "s/^/$pair /" >> rows
			hf $a $b | sed "s/^/$pair /" >> rows
		fi
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-5s %-10s %5s  %8s  %s\n" pair tool runs "wall (s)" words
awk '{ k = $1 " " $2; n[k]++; w[k] += $4; c[k, $3]++ }
	!((k, $3) in seen) { seen[k, $3] = 1; words[k] = words[k] " " $3 }
	END {
		for (k in n) {
			split(k, p, " ")
			m = split(words[k], ws, " ")
			s = ""
			for (i = 1; i <= m; i++) s = s sprintf("%s %d  ", ws[i], c[k, ws[i]])
			printf "%-5s %-10s %5d  %8.1f  %s\n", p[1], p[2], n[k], w[k] / n[k], s
		}
	}' rows | sort -k1,1 -k2,2
