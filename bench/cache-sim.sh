#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/cache-sim.sh [ROUNDS] [N]: what --count-instructions=valgrind-cache
# tells and what it costs (docs/noise.md and docs/cost.md).
#
# 1. The loop-order pair: tests/loop-order.c built -O1 -fno-tree-vectorize
#    as ijk and as jki (same machine code, same instructions), N x N
#    (default 512).  Twice each under valgrind-cache (the counts must be
#    identical), and ROUNDS (default 5) interleaved measured runs of each.
# 2. The bundled benchmarks (test-suite/SingleSource/Benchmarks, default
#    sizes) built -O1 and -O2: ROUNDS interleaved measured runs of both
#    builds (round r runs every benchmark's O1 and O2 back to back, in an
#    order that alternates with r), then one run under valgrind-cache and
#    one under valgrind of each build.  Per benchmark: the O2/O1 ratio of
#    the median user time, of the instructions and of the estimated
#    cycles; the correlation of each count ratio with the time ratio over
#    the benchmarks (est-cycles also without its branch term, to show what
#    the branch simulation adds); and the wall time of each count run
#    against its measured run (the cost of the extra run).
#
# Environment: TIMEIT (the timeit to use), CC (default cc), SRCDIR (the
# source tree; default the one this script is in).
set -eu
LC_ALL=C
export LC_ALL
rounds=${1:-5}
n=${2:-512}
: "${TIMEIT:?TIMEIT must name the timeit binary}"
: "${CC:=cc}"
: "${SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
bench=$SRCDIR/test-suite/SingleSource/Benchmarks
command -v valgrind > /dev/null 2>&1 || { echo "cache-sim: valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/timeit-cachesim.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

echo "cache-sim: $(uptime)"
echo "cache-sim: $($CC --version | sed 1q); $(valgrind --version)"

# val FILE KEY: the value of summary line KEY.
val() { awk -v k="$2" '$1 == k { print $2; exit }' "$1"; }
# jreal FILE: the wall time of the valgrind run in timeit's JSON FILE, and
# of the measured run ("VALGRIND MEASURED").
jreal() {
	tr -d ' \n' < "$1" | sed -n 's/.*"runs":\[{[^[]*"real":\([0-9.e-]*\),.*"valgrind":{.*"real":\([0-9.e-]*\),.*/\2 \1/p'
}
# nobranch FILE: est-cycles of summary FILE without its mispredict term.
nobranch() {
	awk '{ v[$1] = $2 }
	END { printf "%.0f", v["valgrind-est-cycles"] - v["valgrind-weight-mispredict"] * v["valgrind-mispredicts"] }' "$1"
}
# median: of the numbers on stdin, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# --- 1. the loop-order pair ------------------------------------------------
$CC -O1 -fno-tree-vectorize -o ijk "$SRCDIR/tests/loop-order.c"
$CC -O1 -fno-tree-vectorize -DJKI -o jki "$SRCDIR/tests/loop-order.c"
for v in ijk jki; do
	for k in 1 2; do
		"$TIMEIT" --summary "$v.vg$k" --json "$v.vg$k.json" --count-instructions=valgrind-cache \
			"./$v" "$n" > /dev/null
	done
	if cmp -s "$v.vg1" "$v.vg2" || [ "$(grep '^valgrind-' "$v.vg1")" = "$(grep '^valgrind-' "$v.vg2")" ]; then
		echo "$v: the valgrind lines of two runs are identical"
	else
		echo "$v: TWO RUNS DIFFER:"; diff "$v.vg1" "$v.vg2" || true
	fi
done
r=1
while [ "$r" -le "$rounds" ]; do
	for v in ijk jki; do
		"$TIMEIT" --summary "$v.t$r" "./$v" "$n" > /dev/null
	done
	r=$((r + 1))
done
echo
echo "loop order, N=$n, -O1 -fno-tree-vectorize, $rounds interleaved rounds (medians):"
printf '%-4s %14s %12s %10s %11s %14s %9s %9s\n' order instructions d1-misses ll-misses \
	mispredicts est-cycles user real
for v in ijk jki; do
	printf '%-4s %14s %12s %10s %11s %14s %9s %9s\n' "$v" "$(val "$v.vg1" valgrind-instructions)" \
		"$(val "$v.vg1" valgrind-d1-misses)" "$(val "$v.vg1" valgrind-ll-misses)" \
		"$(val "$v.vg1" valgrind-mispredicts)" "$(val "$v.vg1" valgrind-est-cycles)" \
		"$(for f in "$v".t*; do val "$f" user; done | median)" \
		"$(for f in "$v".t*; do val "$f" real; done | median)"
done
awk -v a="$(val ijk.vg1 valgrind-est-cycles)" -v b="$(val jki.vg1 valgrind-est-cycles)" \
	-v ua="$(for f in ijk.t*; do val "$f" user; done | median)" \
	-v ub="$(for f in jki.t*; do val "$f" user; done | median)" \
	'BEGIN { printf "jki/ijk: est-cycles %.3f, user time %.3f\n", b / a, ub / ua }'
echo "geometry: $(grep -E '^valgrind-(i1|d1|ll)-(size|assoc|line)' ijk.vg1 | awk '{ printf "%s=%s ", $1, $2 }')"

# --- 2. the bundled benchmarks ----------------------------------------------
names=$(sed -n 's/^BENCH_NAMES := //p' "$bench/bench.mk")
size() { sed -n "s/^$1_SIZE := //p" "$bench/bench.mk"; }
for b in $names; do
	$CC -O1 -o "$b.O1" "$bench/$b.c" -lm
	$CC -O2 -o "$b.O2" "$bench/$b.c" -lm
done
r=1
while [ "$r" -le "$rounds" ]; do
	for b in $names; do
		if [ $((r % 2)) -eq 1 ]; then order="O1 O2"; else order="O2 O1"; fi
		for o in $order; do
			"$TIMEIT" --summary "$b.$o.t$r" --redirect-output /dev/null "./$b.$o" "$(size "$b")"
		done
	done
	r=$((r + 1))
done
echo
echo "cache-sim: measured runs done: $(uptime)"
for b in $names; do
	for o in O1 O2; do
		"$TIMEIT" --summary "$b.$o.vc" --json "$b.$o.vc.json" --count-instructions=valgrind-cache \
			--redirect-output /dev/null "./$b.$o" "$(size "$b")"
		"$TIMEIT" --summary "$b.$o.vi" --json "$b.$o.vi.json" --count-instructions=valgrind \
			--redirect-output /dev/null "./$b.$o" "$(size "$b")"
	done
done
echo "cache-sim: count runs done: $(uptime)"

: > rows
for b in $names; do
	u1=$(for f in "$b".O1.t*; do val "$f" user; done | median)
	u2=$(for f in "$b".O2.t*; do val "$f" user; done | median)
	echo "$b $u1 $u2 $(val "$b.O1.vc" valgrind-instructions) $(val "$b.O2.vc" valgrind-instructions)" \
		"$(val "$b.O1.vc" valgrind-est-cycles) $(val "$b.O2.vc" valgrind-est-cycles)" \
		"$(jreal "$b.O1.vc.json") $(jreal "$b.O2.vc.json")" \
		"$(jreal "$b.O1.vi.json") $(jreal "$b.O2.vi.json")" \
		"$(nobranch "$b.O1.vc") $(nobranch "$b.O2.vc")" >> rows
done
echo
echo "O2/O1 ratios ($rounds interleaved rounds, median user time) and the cost of the count run"
echo "(its wall time over the measured run's, both builds):"
awk '
function lg(x) { return log(x) }
function corr(x, y, n,    i, mx, my, sxy, sxx, syy) {
	for (i = 1; i <= n; i++) { mx += x[i]; my += y[i] }
	mx /= n; my /= n
	for (i = 1; i <= n; i++) {
		sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) ^ 2; syy += (y[i] - my) ^ 2
	}
	return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0
}
BEGIN { printf "%-10s %8s %8s %8s %8s %8s %8s %8s %8s\n", "benchmark", "user", "instr", "est-cyc", "no-br", "user1", "valgrind", "v-cache", "v-c/v" }
{
	k++
	t[k] = $3 / $2; ir[k] = $5 / $4; es[k] = $7 / $6; nb[k] = $17 / $16
	# $8 $9: O1 valgrind-cache wall, measured wall; $10 $11 O2; $12-$15 plain valgrind.
	vc = ($8 + $10) / ($9 + $11); vi = ($12 + $14) / ($13 + $15)
	svc += $8 + $10; svi += $12 + $14; sm += $9 + $11; smi += $13 + $15
	eir += (lg(ir[k]) - lg(t[k])) ^ 2; ees += (lg(es[k]) - lg(t[k])) ^ 2
	enb += (lg(nb[k]) - lg(t[k])) ^ 2
	printf "%-10s %8.3f %8.3f %8.3f %8.3f %8.3f %7.1fx %7.1fx %7.2fx\n", $1, t[k], ir[k], es[k], nb[k], $2, vi, vc, vc / vi
}
END {
	printf "%-10s %8s %8s %8s %8s %8s %7.1fx %7.1fx %7.2fx\n", "all", "", "", "", "", "", svi / smi, svc / sm, (svc / sm) / (svi / smi)
	printf "correlation with the user-time ratio (Pearson, over %d benchmarks): instructions %.3f, est-cycles %.3f (without the branch term %.3f)\n", k, corr(t, ir, k), corr(t, es, k), corr(t, nb, k)
	printf "root mean square of log(count ratio / time ratio): instructions %.4f, est-cycles %.4f (without the branch term %.4f)\n", sqrt(eir / k), sqrt(ees / k), sqrt(enb / k)
}' rows
echo "cache-sim: $(uptime)"
