#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The suite's geometric mean of B/A after timeit-ab --suite stopped its
# benchmarks at different rounds (docs/verdicts.md, "Benchmarks stopped at
# different rounds"; bench/ab-geo-e2e.sh measures its coverage over many
# suites): 20 made-up benchmarks, 10 of them 10 % slower on B, own noise
# CV 2 %.  The 10 are decided early and stop, the others run on; make ab's
# final table (timeit-compare --looks of ab-looks) gives the interval at
# 1 - alpha / looks, over every round, holding its estimate (true value
# +4.88 %), 0.6-3 % wide: 1.19 % here (0.75-1.36 % over 20 suites of
# bench/ab-geo-e2e.sh), where the variance that imputed a stopped
# benchmark's estimate as a constant in the rounds it lacked gave 0.52 %.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compare=$top_builddir/compare/timeit-compare

mkdir S
cat > run.sh <<'EOS'
mkdir -p "$OUT/$1/results"
own=$(printf '%s %s %s\n' "$1" "$2" "$3" | cksum | cut -d ' ' -f 1)
awk -v o="$own" -v side="$1" -v name="$2" 'BEGIN {
	srand(o % 1000003); z = 0; for (i = 0; i < 12; i++) z += rand()
	t = 0.1 * exp(0.02 * (z - 6))
	if (side == "B" && name ~ /^c/) t *= 1.1
	printf "exit 0\nreal %.6f\nuser %.6f\nsys 0\n", t, t
}' > "$OUT/$1/results/$2.$3.time"
EOS
OUT=$(cd S && pwd -P)
export OUT
# shellcheck disable=SC2046
"$ab" -q --compare "$compare" --suite run.sh -o S -C --no-color -- \
	$(awk 'BEGIN { for (i = 0; i < 20; i++) printf "%s%02d\n", i < 10 ? "c" : "u", i }') \
	> ab.out 2>&1 || fail "timeit-ab: $(cat ab.out)"
# The changed stopped before the last round, the unchanged ran on.
awk -F '\t' '$1 ~ /^c/ && $3 == "decided" { c++; if ($2 > cmax) cmax = $2 }
	$1 ~ /^u/ { if (umax < $2) umax = $2 }
	END { exit !(c == 10 && cmax < umax) }' S/ab-stop.tsv ||
	fail "no early stops: $(cat S/ab-stop.tsv)"
looks=$(cat S/ab-looks)
set +e
"$compare" --looks "$looks" --no-color S/A/results S/B/results > cmp.txt
st=$?
set -e
[ "$st" -eq 1 ] || fail "timeit-compare: status $st: $(cat cmp.txt)"
line=$(grep '^geometric mean of B/A' cmp.txt) || fail "no geometric mean line: $(cat cmp.txt)"
pct=$(awk -v l="$looks" 'BEGIN { printf "%g", 100 - 5 / l }')
umax=$(awk -F '\t' '$2 > m { m = $2 } END { print m }' S/ab-stop.tsv)
printf '%s\n' "$line" | grep -Eq "^geometric mean of B/A: \\+[0-9.]+% \\($pct% CI [-+][0-9.]+%\\.\\.\\+[0-9.]+%, t over $umax rounds of 20 benchmarks\\)\$" ||
	fail "the line: $line"
nums=$(printf '%s\n' "$line" | sed -E 's/^[^:]*: ([-+][0-9.]+)% \([0-9.]+% CI ([-+][0-9.]+)%\.\.([-+][0-9.]+)%.*/\1 \2 \3/')
# shellcheck disable=SC2086
awk -v est="${nums%% *}" -v rest="${nums#* }" 'BEGIN {
	split(rest, ci, " "); lo = ci[1] + 0; hi = ci[2] + 0; est += 0
	exit !(lo < est && est < hi && lo >= 2 && hi <= 8 && hi - lo >= 0.6 && hi - lo <= 3)
}' || fail "the interval is not plausible: $line"
