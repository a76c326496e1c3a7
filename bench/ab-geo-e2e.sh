#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/ab-geo-e2e.sh [SUITES], or --table FILE...: the suite's geometric mean of B/A through
# timeit-ab --suite with its early stops, against a known truth
# (docs/verdicts.md, "Benchmarks stopped at different rounds").
#
# Each suite is 20 made-up benchmarks whose times are drawn, before the
# run, from a seeded model (log-normal around 0.1 s): own noise CV 2 % per
# run, and in the "shared" settings 3 % more shared by every benchmark of
# one side in one round (a slowdown of that side's whole round, which
# correlates the benchmarks through their common rounds).  In "+10 %"
# 10 of them are 10 % slower on B, so they are decided and stop early
# while the 10 unchanged run on; in "A/A" nothing changes.  timeit-ab
# --suite runs them with its defaults (looks at rounds 3, 10, 17, 24, 30),
# the runner copying the drawn result of each run into place (no sleeps).
# The final table is make ab's: timeit-compare --looks $(cat ab-looks)
# over all rounds, whose geometric mean interval is at 1 - alpha / looks
# (0.99 with the defaults; the JSON report's geomean.level says).
#
# Per setting one line: the share of suites whose interval holds the true
# geometric mean (exp of the mean of the true log-ratios: 1.1^(10/20) or
# 1), with its Wilson 95 % interval; the interval's level; the mean width
# (percent of the ratio); the mean of the estimate's error (percent); the
# mean rounds a benchmark ran, of the changed and of the unchanged; and
# the mean rounds the interval was over.  Seeded (suite S of setting K:
# seed 0x6e0e2e0 + 7919 K + S), so the load changes nothing.
#
# Environment: TIMEIT_AB, TIMEIT_COMPARE (the programs; default those of
# the build tree in the current directory), SETTINGS (default "change
# change-shared aa aa-shared"), FIRST (default 0: the first suite's
# number, so that runs of other suites can be added), KEEP=FILE (every
# suite's line: setting, suite, then ratio, low, high, level and rounds
# of the final table and of the one at 95 %, then the mean rounds of the
# changed and unchanged; --table FILE... prints the table of one or more
# such files).
set -eu
LC_ALL=C
export LC_ALL
# table FILE...: the summary of KEEP's lines, one row a setting.
table() {
	printf '| setting | suites | level | cover | Wilson 95 %% | mean width | at 95 %%: cover | Wilson 95 %% | mean width | mean error | rounds changed, unchanged | interval rounds |\n'
	printf '|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
	awk -F '\t' '
	# wilson(COVERED, N): the share and its Wilson 95 % interval, in percent.
	function wilson(x, n,   p, z, c, h) {
		p = x / n; z = 1.959964
		c = (p + z * z / (2 * n)) / (1 + z * z / n)
		h = z / (1 + z * z / n) * sqrt(p * (1 - p) / n + z * z / (4 * n * n))
		return sprintf("%.1f %% | %.1f-%.1f %%", 100 * p, 100 * (c - h), 100 * (c + h))
	}
	{
		k = $1; if (!(k in cnt)) order[++m] = k
		truth = k ~ /^change/ ? exp(0.5 * log(1.1)) : 1
		cnt[k]++; lev[k] = $6
		cov[k] += $4 <= truth && truth <= $5; wid[k] += $5 - $4
		cov95[k] += $9 <= truth && truth <= $10; wid95[k] += $10 - $9
		err[k] += $3 / truth - 1; rr[k] += $7; rc[k] += $13; ru[k] += $14
	}
	END {
		for (i = 1; i <= m; i++) {
			k = order[i]; n = cnt[k]
			printf "| %s | %d | %s | %s | %.2f %% | %s | %.2f %% | %+.2f %% | %.1f, %.1f | %.1f |\n",
				k, n, lev[k], wilson(cov[k], n), 100 * wid[k] / n, wilson(cov95[k], n),
				100 * wid95[k] / n, 100 * err[k] / n, rc[k] / n, ru[k] / n, rr[k] / n
		}
	}' "$@"
}

if [ "${1:-}" = --table ]; then
	shift
	table "$@"
	exit 0
fi
suites=${1:-100}
ab=${TIMEIT_AB:-$PWD/abrun/timeit-ab}
compare=${TIMEIT_COMPARE:-$PWD/compare/timeit-compare}
for p in "$ab" "$compare"; do
	[ -x "$p" ] || { echo "ab-geo-e2e: $p: not built (set TIMEIT_AB and TIMEIT_COMPARE)" >&2; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/timeit-geo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp"

# The model: every run's result of a suite, 30 rounds of 20 benchmarks a
# side, drawn in one pass (a normal as the sum of 12 uniforms less 6).
cat > draw.awk <<'EOS'
BEGIN {
	srand(seed)
	for (r = 1; r <= 30; r++) {
		for (s = 0; s < 2; s++) {
			z = 0; for (i = 0; i < 12; i++) z += rand()
			sh[s] = shared * (z - 6)
		}
		for (b = 0; b < 20; b++) {
			name = sprintf("%s%02d", b < changed ? "c" : "u", b)
			for (s = 0; s < 2; s++) {
				z = 0; for (i = 0; i < 12; i++) z += rand()
				t = 0.1 * exp(sh[s] + 0.02 * (z - 6))
				if (s == 1 && b < changed)
					t *= 1.1
				f = sprintf("draw/%s/%s.%d.time", s ? "B" : "A", name, r)
				printf "exit 0\nreal %.6f\nuser %.6f\nsys 0\n", t, t > f
				close(f)
			}
		}
	}
}
EOS
# make ab's runner, SIDE BENCHMARK ROUND: the drawn result into place.
cat > run.sh <<'EOS'
mkdir -p "$OUT/$1/results"
cp "$DRAW/$1/$2.$3.time" "$OUT/$1/results/"
EOS
DRAW=$tmp/draw
export DRAW
# geo NAME ARGS: timeit-compare ARGS' JSON report of the suite into cmp.NAME.json.
geo() {
	set +e
	# shellcheck disable=SC2086
	"$compare" $2 --format json out/A/results out/B/results > "cmp.$1.json"
	st=$?
	set -e
	[ "$st" -le 1 ] || { echo "ab-geo-e2e: timeit-compare $2: status $st" >&2; exit 1; }
}

: > all.tsv
for setting in ${SETTINGS:-change change-shared aa aa-shared}; do
	case $setting in
	change) k=1 changed=10 shared=0 ;;
	change-shared) k=2 changed=10 shared=0.03 ;;
	aa) k=3 changed=0 shared=0 ;;
	aa-shared) k=4 changed=0 shared=0.03 ;;
	*) echo "ab-geo-e2e: $setting: not a setting" >&2; exit 2 ;;
	esac
	s=${FIRST:-0}
	while [ "$s" -lt $((${FIRST:-0} + suites)) ]; do
		rm -rf draw out
		mkdir -p draw/A draw/B out
		awk -v seed=$((0x6e0e2e0 + 7919 * k + s)) -v changed=$changed \
			-v shared=$shared -f draw.awk
		OUT=$tmp/out
		export OUT
		# shellcheck disable=SC2046
		"$ab" -q --compare "$compare" --suite run.sh -o out -C --no-color -- \
			$(awk -v c=$changed 'BEGIN { for (b = 0; b < 20; b++) printf "%s%02d\n", b < c ? "c" : "u", b }') \
			> ab.log 2>&1 || { echo "ab-geo-e2e: timeit-ab failed:" >&2; cat ab.log >&2; exit 1; }
		geo looks "--looks $(cat out/ab-looks)"
		geo 95 "--looks 1"
		# The report's "geomean" object, one member a line: setting
		# suite, then ratio low high level rounds of the final table and
		# of the one at 95 %; then the stops.
		printf '%s\t%d\t' "$setting" "$s" >> all.tsv
		for f in looks 95; do awk '
		/"geomean": *[{]/ { in_geo = 1; next }
		in_geo && /[}]/ { in_geo = 0 }
		in_geo { gsub(/[ ",]/, ""); split($0, p, ":"); v[p[1]] = p[2] }
		END {
			if (v["ci_high"] == "") { print "ab-geo-e2e: no geomean interval in the report" > "/dev/stderr"; exit 1 }
			printf "%s\t%s\t%s\t%s\t%s\t", v["ratio"], v["ci_low"], v["ci_high"], v["level"], v["rounds"]
		}' cmp.$f.json >> all.tsv; done
		awk '{ if ($1 ~ /^c/) { c += $2; nc++ } else { u += $2; nu++ } }
		END { printf "%.2f\t%.2f\n", nc ? c / nc : 0, nu ? u / nu : 0 }' out/ab-stop.tsv >> all.tsv
		s=$((s + 1))
	done
done
[ -z "${KEEP:-}" ] || cp all.tsv "$KEEP"

table all.tsv
