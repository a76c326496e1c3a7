#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-series on the input a nightly history really holds: a night with
# no tests (skipped with a note, the rest analysed), NaN and Infinity
# (refused, naming the file, the benchmark and the value), a metric no run
# has (refused, naming it), values of 0 and an LNT server's null samples
# (said, not dropped silently); the
# notes' numbers in the singular and plural, the disturbed nights' note
# naming its benchmarks, --only-recent's summary counting what it lists,
# nights labelled by their file names, and a UTF-8 name aligned in the
# table.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
SERIES=${SERIES:-$top_builddir/series/timeit-series}

# lit_night N: night N's lit -o report in lit/nN.json.  Benchmarks: flat
# (1.0, noise under 0.3 %), step (+20 % from night 6).
mkdir lit
lit_night() {
	awk -v n="$1" 'BEGIN {
		printf "{\"tests\": ["
		split("flat step", b, " ")
		for (i = 1; i <= 2; i++) {
			lvl = (b[i] == "step" && n >= 6) ? 1.2 : 1
			x = sin(n * 12.9898 + i * 78.233) * 43758.5453
			x -= int(x)
			if (x < 0) x += 1
			printf "%s\n {\"name\": \"s :: %s.test\", \"code\": \"PASS\", \"metrics\": {\"exec_time\": %.5f}}",
				(i > 1 ? "," : ""), b[i], lvl * (1 + 0.003 * (x - 0.5))
		}
		print "\n]}"
	}' > "lit/n$1.json"
}
i=1
while [ "$i" -le 10 ]; do
	lit_night "$i"
	i=$((i + 1))
done
nights="lit/n1.json lit/n2.json lit/n3.json lit/n4.json lit/n5.json lit/n6.json lit/n7.json lit/n8.json lit/n9.json lit/n10.json"

# A night with no tests, as lit and as an LNT report: skipped with a note
# naming it, the other nights analysed.
echo '{"tests": []}' > lit/empty.json
printf '%s\n' '{"format_version": "2", "machine": {"name": "box"},' \
	'"run": {"llvm_project_revision": "7"}, "tests": []}' > lnt-empty.json
# shellcheck disable=SC2086 # $nights: the file names, split on purpose
expect_status 1 "$SERIES" --since 6 $nights lit/empty.json lnt-empty.json > out.txt 2> err
grep -q '^timeit-series: note: lit/empty.json: no tests: skipped$' err ||
	fail "the lit night without tests is not skipped with a note: $(cat err)"
grep -q '^timeit-series: note: lnt-empty.json: no tests: skipped$' err ||
	fail "the LNT night without tests is not skipped with a note: $(cat err)"
grep -q '^step ' out.txt || fail "the rest was not analysed: $(cat out.txt)"
grep -q '^10 runs, ' out.txt || fail "the skipped nights are counted as runs: $(cat out.txt)"

# NaN and Infinity (as Python's json writes them): refused, status 2,
# naming the file, the benchmark and the value; not a failed sample.
sed 's/"exec_time": [0-9.]*}/"exec_time": NaN}/' lit/n3.json > lit/nan.json
sed 's/"exec_time": [0-9.]*}/"exec_time": -Infinity}/' lit/n3.json > lit/inf.json
expect_status 2 "$SERIES" lit/n1.json lit/nan.json lit/n4.json > out.txt 2> err
grep -q '^timeit-series: lit/nan.json:[0-9]*: flat: exec_time is NaN' err ||
	fail "NaN is not refused naming file, benchmark and value: $(cat err)"
expect_status 2 "$SERIES" lit/n1.json lit/inf.json > out.txt 2> err
grep -q '^timeit-series: lit/inf.json:[0-9]*: flat: exec_time is -Infinity' err ||
	fail "-Infinity is not refused: $(cat err)"
printf '{"runs": [{"status": 0, "user": Infinity}]}\n' > t.json
expect_status 2 "$SERIES" lit/n1.json t.json > out.txt 2> err
grep -q "^timeit-series: t.json:1: t: user is Infinity" err ||
	fail "Infinity in timeit --json is not refused: $(cat err)"

# A metric no run has (a typo of -m): status 2, the metric named.
# shellcheck disable=SC2086
expect_status 2 "$SERIES" -m exec_tme $nights > out.txt 2> err
grep -q '^timeit-series: -m exec_tme: no run ' err || fail "-m exec_tme: $(cat err)"
# rich_night N: night N in rich/nN.json: d1 .. d4 (a night of 1000 % at
# night 4), zero (0 every night), half0 (0 at night 2), step and \303\274-step
# (UTF-8; both +20 % from night 6).
mkdir rich
rich_night() {
	awk -v n="$1" 'BEGIN {
		split("d1 d2 d3 d4 zero half0 step \303\274-step", b, " ")
		printf "{\"tests\": ["
		for (i = 1; i <= 8; i++) {
			x = sin(n * 12.9898 + i * 78.233) * 43758.5453
			x -= int(x)
			if (x < 0) x += 1
			lvl = 1 + 0.003 * (x - 0.5)
			if (b[i] ~ /^d/ && n == 4) lvl *= 11
			if (b[i] ~ /step/ && n >= 6) lvl *= 1.2
			if (b[i] == "zero" || (b[i] == "half0" && n == 2)) lvl = 0
			printf "%s\n {\"name\": \"s :: %s.test\", \"code\": \"PASS\", \"metrics\": {\"exec_time\": %.5f}}",
				(i > 1 ? "," : ""), b[i], lvl
		}
		print "\n]}"
	}' > "rich/n$1.json"
}
rich=
i=1
while [ "$i" -le 10 ]; do
	rich_night "$i"
	rich="$rich rich/n$i.json"
	i=$((i + 1))
done
# shellcheck disable=SC2086 # $rich: the file names, split on purpose
expect_status 1 "$SERIES" --since 6 $rich > out.txt 2> err
grep -q '^4 disturbed nights left out (a run far off the runs on both sides): d1, d2, d3 and 1 more$' out.txt ||
	fail "the disturbed nights' note does not name its benchmarks: $(cat out.txt)"
grep -q '^zero: all values 0: not analysed$' out.txt ||
	fail "a benchmark of 0 only vanished without a note: $(cat out.txt)"
grep -q '^1 benchmark-run at 0 left out: half0$' out.txt ||
	fail "a night at 0 was dropped without a note: $(cat out.txt)"
jq_ok=false
command -v jq > /dev/null 2>&1 && jq_ok=true
if $jq_ok; then
	# shellcheck disable=SC2086
	"$SERIES" --since 6 --format json $rich > out.json || true
	jq -e '(.benchmarks[] | select(.name == "zero") | .zero_runs == 10 and .runs == 0) and
		(.benchmarks[] | select(.name == "half0") | .zero_runs == 1 and .runs == 9)' out.json > /dev/null ||
		fail "JSON zero_runs: $(cat out.json)"
fi

# UTF-8: the run column starts at the same column in every row, counted in
# characters (the continuation bytes 0x80-0xbf take none).
tr -d '\200-\277' < out.txt | awk '/step / { c[index($0, "n6")]++ }
	END { n = 0; for (k in c) n++; exit n != 1 }' ||
	fail "a UTF-8 name misaligns the table: $(cat out.txt)"

# Singular and plural: one change point, one regression, a window of 1 run.
# shellcheck disable=SC2086
expect_status 1 "$SERIES" --since 6 $nights > out.txt
grep -q '^1 change point at the gate of 1%; 1 regression confirmed in the window$' out.txt ||
	fail "the summary's grammar: $(cat out.txt)"
# shellcheck disable=SC2086
expect_status 0 "$SERIES" --since 1 $nights > out.txt
grep -q '; 2 benchmarks; window: 1 run from ' out.txt || fail "1 run: $(cat out.txt)"
grep -q '0 regressions confirmed in the window' out.txt || fail "0 regressions: $(cat out.txt)"

# --only-recent counts what it lists, and says how many older it left out.
# shellcheck disable=SC2086
expect_status 0 "$SERIES" --since 2 --only-recent $nights > out.txt
grep -q '^step ' out.txt && fail "--only-recent listed an older change: $(cat out.txt)"
grep -q '^0 change points at the gate of 1% (1 older one left out: --only-recent); 0 regressions confirmed in the window$' out.txt ||
	fail "--only-recent's summary counts what it did not list: $(cat out.txt)"

# Labels: a night given by its file is its file's name, without
# directories and .json; where two nights' names are the same, as many
# directories as tell them apart.
# shellcheck disable=SC2086
expect_status 1 "$SERIES" --since 6 $nights > out.txt
grep -q '^step  *n6  *5 ' out.txt || fail "the run is not labelled n6: $(cat out.txt)"
grep -q '^10 runs, n1 \.\. n10; ' out.txt || fail "labels in the notes: $(cat out.txt)"
expect_status 0 "$SERIES" --since run:n3 lit/n1.json lit/n2.json lit/n3.json > /dev/null
mkdir -p night/1 night/2 night/3
for k in 1 2 3; do cp "lit/n$k.json" "night/$k/report.json"; done
expect_status 0 "$SERIES" night/1/report.json night/2/report.json night/3/report.json > out.txt
grep -q '^3 runs, 1/report \.\. 3/report; ' out.txt || fail "same file names: $(cat out.txt)"

# --lnt: a sample row that carries the metric as null is left out and
# counted per benchmark, through a stand-in curl that prints LNT's answers.
mkdir bin
cat > bin/curl <<'EOF2'
#!/bin/sh
for a; do url=$a; done
case $url in
*/machines/*)
	printf '%s' '{"runs": [
	  {"id": 1, "llvm_project_revision": "1", "order_by": "llvm_project_revision"},
	  {"id": 2, "llvm_project_revision": "2", "order_by": "llvm_project_revision"},
	  {"id": 3, "llvm_project_revision": "3", "order_by": "llvm_project_revision"}]}' ;;
*/samples*)
	printf '%s' '{"samples": [
	  {"run_id": 1, "name": "nts.t1", "execution_time": 2.0},
	  {"run_id": 2, "name": "nts.t1", "execution_time": 2.0},
	  {"run_id": 2, "name": "nts.t1", "execution_time": null},
	  {"run_id": 3, "name": "nts.t1", "execution_time": null},
	  {"run_id": 3, "name": "nts.t1", "execution_time": 2.0, "execution_status": null},
	  {"run_id": 1, "name": "nts.t2", "execution_time": 1.0},
	  {"run_id": 2, "name": "nts.t2", "execution_time": 1.0},
	  {"run_id": 3, "name": "nts.t2", "execution_time": 1.0}]}' ;;
esac
printf '\n200'
EOF2
chmod +x bin/curl
PATH=$tmp/bin:$PATH "$SERIES" --lnt http://lnt.example --machine m > out.txt 2> err ||
	fail "--lnt with null samples: status $?: $(cat err)"
grep -q '^t1: 2 null values left out$' out.txt || fail "null samples dropped without a count: $(cat out.txt)"
grep -q '^t2: .*null' out.txt && fail "t2 had no null sample: $(cat out.txt)"
grep -q '^3 runs, 1 \.\. 3; 2 benchmarks; ' out.txt || fail "--lnt with nulls: $(cat out.txt)"

# lit input: a list as a test's metric is a night's samples; a directory
# of lit reports is no run (directories are read for summary files).
sed 's/"exec_time": \([0-9.]*\)}/"exec_time": [\1, \1, \1]}/' lit/n2.json > lit/list.json
grep -q '"exec_time": \[' lit/list.json || fail "no list made of lit/n2.json"
expect_status 0 "$SERIES" lit/n1.json lit/list.json lit/n3.json > out.txt
mkdir litdir
cp lit/n1.json litdir/
expect_status 2 "$SERIES" litdir lit/n2.json > out.txt 2> err
grep -q '^timeit-series: litdir: no \*.time summary files' err || fail "a directory of lit reports: $(cat err)"
# The manual says so.
if ! grep -q 'exec_time' "$top_srcdir/man/timeit-series.1" ||
	! grep -q 'directory of lit' "$top_srcdir/man/timeit-series.1"; then
	fail "timeit-series(1) does not say how lit gives several samples a night"
fi
exit 0
