#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-compare reads every input format: summary files and directories
# written by timeit itself (per-file sample numbers and per-sample
# subdirectories), timeit --json (one run per file, and several runs in
# one file), lit -o JSON and LNT report JSON (format_version 2); samples of
# one benchmark merge across files and paths.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
COMPARE=${COMPARE:-$top_builddir/compare/timeit-compare}

# Summary directories written by timeit: A/<bench>.<i>.time, B/<i>/<bench>.time.
mkdir A B
for i in 1 2 3; do
	"$TIMEIT" --summary "A/burn.$i.time" "$AUX" burn 30
	"$TIMEIT" --summary "A/quick.$i.time" "$AUX" exit 0
	mkdir "B/$i"
	"$TIMEIT" --summary "B/$i/burn.time" "$AUX" burn 30
	"$TIMEIT" --summary "B/$i/quick.time" "$AUX" exit 0
done
"$COMPARE" --format csv A B >out.csv || [ $? -eq 1 ] || fail "compare of summary directories failed"
[ "$(csv_field out.csv burn n_a)" = 3 ] || fail "A/burn.N.time: $(cat out.csv)"
[ "$(csv_field out.csv burn n_b)" = 3 ] || fail "B/N/burn.time: $(cat out.csv)"
[ "$(csv_field out.csv quick n_b)" = 3 ] || fail "quick: $(cat out.csv)"
[ "$(wc -l <out.csv)" -eq 3 ] || fail "expected 2 benchmarks: $(cat out.csv)"
# rusage (a build without perf events) splits the CPU time between user
# and sys by 4 ms tick samples: 5 ms could read 0 user in two runs of
# three (seen in CI); 30 ms of a user-space loop cannot.
in_range "$(csv_field out.csv burn median_a)" 0.001 5 || fail "burn median $(cat out.csv)"

# A single summary file per side, and -a/-b merging several paths.
"$COMPARE" --format csv A/burn.1.time B/1/burn.time >one.csv || [ $? -eq 1 ] || fail "single files"
[ "$(csv_field one.csv burn n_a)" = 1 ] || fail "single summary file: $(cat one.csv)"
"$COMPARE" --format csv -a A/burn.1.time -a A/burn.2.time -b B >two.csv || [ $? -eq 1 ] ||
	fail "-a/-b"
[ "$(csv_field two.csv burn n_a)" = 2 ] || fail "-a twice: $(cat two.csv)"
[ "$(csv_field two.csv quick verdict)" = missing ] || fail "quick only in B: $(cat two.csv)"

# Other metrics from summaries: real, sys, a counter key.
"$COMPARE" -m real --format csv A B >real.csv || [ $? -eq 1 ] || fail "-m real"
[ "$(csv_field real.csv burn n_a)" = 3 ] || fail "-m real: $(cat real.csv)"
if grep -q '^task-clock ' A/burn.1.time; then
	"$COMPARE" -m task-clock --format csv A B >tc.csv || [ $? -eq 1 ] || fail "-m task-clock"
	[ "$(csv_field tc.csv burn n_a)" = 3 ] || fail "-m task-clock: $(cat tc.csv)"
fi

# Lines a later timeit may add, in any form, do not disturb the reader;
# the ones it uses must be numbers (tests/compare-errors.sh).
mkdir F
printf 'exit 0\nreal 1.0\nuser 1.0\nsys 0.0\nnoise-flags 0\nn-runs     5\nfuture-key some words\n' >F/f.time
"$COMPARE" --format csv F F >f.csv || fail "future summary lines"
[ "$(csv_field f.csv f n_a)" = 1 ] || fail "future summary lines: $(cat f.csv)"

# timeit --json: one run per file (burn.1.json, burn.2.json: one benchmark).
for i in 1 2; do
	"$TIMEIT" --json "burn.$i.json" --summary /dev/null "$AUX" burn 30
done
"$COMPARE" --format csv -a burn.1.json -a burn.2.json -b burn.1.json -b burn.2.json >j.csv ||
	fail "timeit --json inputs"
[ "$(csv_field j.csv burn n_a)" = 2 ] || fail "--json merge: $(cat j.csv)"
# The same files on both sides are never a change; unchanged needs the
# equivalence interval, which two samples of a loaded machine may not give.
case $(csv_field j.csv burn verdict) in
unchanged | undecided) ;;
*) fail "identical json: $(cat j.csv)" ;;
esac

# Several runs in one --json file (what --repeat writes), a failed run, and
# unknown keys that later versions may add.
cat >multi.json <<'JSON'
{"timeit_version": "9.9", "command": ["x"], "status": 0, "future_key": {"a": [1, 2]},
 "runs": [
  {"status": 0, "real": 1.1, "user": 1.00, "sys": 0.1, "maxrss": 1000,
   "counters": [{"name": "task-clock", "counted": true, "scaled": 1.0e9},
                {"name": "instructions", "counted": false}]},
  {"status": 0, "real": 1.1, "user": 1.01, "sys": 0.1, "maxrss": 1000, "counters": []},
  {"status": 0, "real": 1.1, "user": 0.99, "sys": 0.1, "maxrss": 1000, "counters": []},
  {"status": 0, "real": 1.1, "user": 1.02, "sys": 0.1, "maxrss": 1000, "counters": []}
 ]}
JSON
cat >slow.json <<'JSON'
{"runs": [{"status": 0, "user": 1.10}, {"status": 0, "user": 1.11}, {"status": 0, "user": 1.09},
          {"status": 0, "user": 1.12}]}
JSON
mkdir jb && cp slow.json jb/multi.json
"$COMPARE" --format csv multi.json jb/multi.json >m.csv && fail "10% slower in 4 runs should exit 1"
[ "$(csv_field m.csv multi n_a)" = 4 ] || fail "runs array: $(cat m.csv)"
[ "$(csv_field m.csv multi verdict)" = regressed ] || fail "10% slower: $(cat m.csv)"
"$COMPARE" --format csv -m task-clock multi.json multi.json >tc.csv
[ "$(csv_field tc.csv multi median_a)" = 1 ] || fail "task-clock from counters, in seconds: $(cat tc.csv)"
[ "$(csv_field tc.csv multi n_a)" = 1 ] || fail "runs without the counter lack the metric: $(cat tc.csv)"
# Counts timeit takes from rusage have a "value" and no "scaled"
# (lib/measure/summary.c ti_json_record): page-faults and context-switches are
# metrics of a --json file like any counter.
cat >rus.json <<'JSON'
{"runs": [
  {"status": 0, "user": 1.0, "counters": [
    {"name": "task-clock", "counted": true, "value": 7, "enabled": 9, "running": 9, "scaled": 9e9},
    {"name": "context-switches", "counted": true, "source": "rusage", "value": 3},
    {"name": "page-faults", "counted": true, "source": "rusage", "value": 51}]},
  {"status": 0, "user": 1.0, "counters": [
    {"name": "page-faults", "counted": true, "source": "rusage", "value": 53}]}]}
JSON
"$COMPARE" --format csv -m page-faults rus.json rus.json >pf.csv || fail "-m page-faults: $(cat pf.csv)"
grep -q '^rus,2,2,[a-z]*,52,52,0,' pf.csv || fail "page-faults from \"value\": $(cat pf.csv)"
"$COMPARE" --format csv -m context-switches rus.json rus.json >cs.csv || fail "-m context-switches"
grep -q '^rus,1,1,no,3,3,0,' cs.csv || fail "context-switches: $(cat cs.csv)"
# "scaled" wins where there is one (a multiplexed perf count).
"$COMPARE" --format csv -m task-clock rus.json rus.json >tc2.csv || fail "-m task-clock"
grep -q '^rus,1,1,no,9,9,0,' tc2.csv || fail "scaled, not value: $(cat tc2.csv)"
# And from a --json file timeit wrote (the default counters, --repeat).
mkdir pa pb
"$TIMEIT" --summary /dev/null --json pa/pf.json --repeat 3 "$AUX" exit 0
"$TIMEIT" --summary /dev/null --json pb/pf.json --repeat 3 "$AUX" exit 0
for m in page-faults context-switches; do
	"$COMPARE" --format csv -m $m pa/pf.json pb/pf.json >real-$m.csv || [ $? -eq 1 ] ||
		fail "-m $m of timeit --json: $(cat real-$m.csv)"
	[ "$(csv_field real-$m.csv pf n_a)" = 3 ] || fail "-m $m of timeit --json: $(cat real-$m.csv)"
done
cat >fail.json <<'JSON'
{"runs": [{"status": 0, "user": 1.0}, {"status": 1, "user": 1.0}]}
JSON
mkdir jf && cp fail.json jf/multi.json
"$COMPARE" --format csv multi.json jf/multi.json >f.csv || fail "a failed run is not an error"
[ "$(csv_field f.csv multi n_b)" = 1 ] || fail "failed run: $(cat f.csv)"
grep -q '1 of 2 runs on B failed (jf/multi.json)' f.csv || fail "failure note: $(cat f.csv)"
printf '{"runs": [{"status": 1, "user": 1.0}]}\n' >jf/multi.json
"$COMPARE" --format csv multi.json jf/multi.json >f2.csv || fail "a failed run is not an error"
[ "$(csv_field f2.csv multi verdict)" = failed ] || fail "every run failed: $(cat f2.csv)"

# valgrind's instruction count of a --json file (top-level "valgrind",
# lib/measure/vgcount.c) classifies the change; equal counts: same code.
for side in a b; do
	mkdir "vg$side"
	u=1.0 ks='1 2 3 4 5'
	[ $side = b ] && u=1.2 ks='5 4 3 2 1'
	# shellcheck disable=SC2086 # one word per sample
	printf '{"runs": [%s], "valgrind": {"tool": "cachegrind", "instructions": 123456789}}\n' \
		"$(for k in $ks; do printf '{"status": 0, "user": %s%s}' "$u" "$k"; [ $k = ${ks##* } ] || printf ','; done)" \
		>"vg$side/v.json"
done
"$COMPARE" --format csv vga/v.json vgb/v.json >vg.csv && fail "valgrind json: equal counts are not the same code"
grep -q '^v,5,5,no,.*,regressed,no,,.*same instruction count"$' vg.csv || fail "valgrind json: $(cat vg.csv)"
# The runs of a timeit --json file (--repeat) ran back to back: not pairs
# with the other side's (nothing interleaved them), and the note says so.
grep -q '^v,5,5,no,.*"unpaired: runs of one input ran back to back, not in rounds;' vg.csv ||
	fail "--repeat runs paired: $(cat vg.csv)"
# One run a file, a file a round: those are pairs (B's rounds 1, 5, 2:
# ratios apart by more than the values' last digit).
for k in 1 2 3; do
	j=$(echo 1 5 2 | cut -d' ' -f$k)
	for side in a b; do
		printf '{"runs": [{"status": 0, "user": %s}]}\n' "$([ $side = a ] && echo 1.0$k || echo 1.2$j)" \
			>"r$side$k.json"
	done
	mkdir -p "ra$k" "rb$k" && mv "ra$k.json" "ra$k/r.json" && mv "rb$k.json" "rb$k/r.json"
done
"$COMPARE" --format csv -a ra1/r.json -a ra2/r.json -a ra3/r.json -b rb1/r.json -b rb2/r.json \
	-b rb3/r.json >rr.csv || :
[ "$(csv_field rr.csv r paired)" = yes ] || fail "a file a round, not paired: $(cat rr.csv)"
# As the metric, valgrind's count is one sample per file (valgrind ran
# once), not one per run, and an exact count: compared, not tested.
"$COMPARE" --format csv -m valgrind-instructions vga/v.json vgb/v.json >vgm.csv ||
	fail "-m valgrind-instructions: $(cat vgm.csv)"
grep -q '^v,1,1,no,123456789,123456789,0,0,0,,,,,unchanged,no,,"exact count, equal",$' vgm.csv ||
	fail "-m valgrind-instructions of a 5-run --json: $(cat vgm.csv)"
sed 's/123456789/133456789/' vgb/v.json >vgb/w.json
cp vga/v.json vga/w.json
"$COMPARE" --format csv -m valgrind-instructions vga/w.json vgb/w.json >vgw.csv &&
	fail "an exact count 8.1 % higher must exit 1: $(cat vgw.csv)"
grep -q '^w,1,1,no,123456789,133456789,0.0810000007,0.0810000007,0.0810000007,,,,,regressed,no,,"exact count, +8.10% beyond the +-1% gate",$' vgw.csv ||
	fail "exact count, changed: $(cat vgw.csv)"
# A failed run of the file is noted; the count still compares.
mkdir vgf
sed 's/"status": 0, "user": 1.23/"status": 1, "user": 1.23/' vgb/w.json >vgf/w.json
"$COMPARE" --format csv -m valgrind-instructions vga/w.json vgf/w.json >vgf.csv &&
	fail "an exact count 8.1 % higher must exit 1: $(cat vgf.csv)"
grep -q '^w,1,1,.*,regressed,no,,.*1 of 2 runs on B failed (vgf/w.json)' vgf.csv ||
	fail "failed run with valgrind: $(cat vgf.csv)"

# The same from files timeit itself wrote with --count-instructions=valgrind
# (summaries and --json of a --repeat run set): the same binary and work is
# "same", other work "changed".
if valgrind_runs; then
	W=$top_builddir/tests/vgcount-work
	mkdir vsa vsb vja vjb
	for side in a b; do
		for w in same other; do
			n=2000
			[ $side = b ] && [ $w = other ] && n=3000
			"$TIMEIT" --summary "vs$side/$w.time" --count-instructions=valgrind "$W" work $n
			"$TIMEIT" --summary /dev/null --json "vj$side/$w.json" --repeat 3 \
				--count-instructions=valgrind "$W" work $n
		done
	done
	# A directory is read for its summaries; --json files are paths of their own.
	for kind in s j; do
		if [ $kind = s ]; then
			set -- vsa vsb
		else
			set -- -a vja/same.json -a vja/other.json -b vjb/same.json -b vjb/other.json
		fi
		"$COMPARE" --format csv "$@" >vt.csv || [ $? -eq 1 ] ||
			fail "valgrind counts from timeit ($kind)"
		grep -q '^same,.*same instruction count' vt.csv || fail "same work ($kind): $(cat vt.csv)"
		grep -q '^other,.*instructions +' vt.csv || fail "other work ($kind): $(cat vt.csv)"
	done
	[ "$(csv_field vt.csv same n_a)" = 3 ] || fail "--repeat 3 --json: $(cat vt.csv)"
	# The count itself as the metric, from either kind of file.
	"$COMPARE" --format csv -m valgrind-instructions vsa/same.time vja/same.json >vm.csv ||
		fail "-m valgrind-instructions: $(cat vm.csv)"
	[ "$(csv_field vm.csv same n_b)" = 1 ] || fail "-m valgrind-instructions, --json: $(cat vm.csv)"
	[ "$(csv_field vm.csv same change)" = 0 ] || fail "-m valgrind-instructions: $(cat vm.csv)"
	[ "$(csv_field vm.csv same verdict)" = unchanged ] || fail "-m valgrind-instructions: $(cat vm.csv)"
	"$COMPARE" --format csv -m valgrind-instructions vsa/other.time vjb/other.json >vo.csv &&
		fail "-m valgrind-instructions, more work must exit 1: $(cat vo.csv)"
	grep -q '^other,1,1,.*,regressed,no,,"exact count, +' vo.csv ||
		fail "-m valgrind-instructions, more work: $(cat vo.csv)"
fi

# valgrind's estimated cycles (--count-instructions=valgrind-cache): an
# exact metric, shown beside the time verdict, and comparable only between
# runs that simulated the same caches with the same weights.
# geo SIZE: the geometry and weight lines, the LL size SIZE.
geo() {
	printf 'valgrind-i1-size 32768\nvalgrind-i1-assoc 8\nvalgrind-i1-line 64\n'
	printf 'valgrind-d1-size 49152\nvalgrind-d1-assoc 12\nvalgrind-d1-line 64\n'
	printf 'valgrind-ll-size %s\nvalgrind-ll-assoc 16\nvalgrind-ll-line 64\n' "$1"
	printf 'valgrind-weight-l1 10\nvalgrind-weight-ll 200\n'
}
mkdir ca cb cc
for i in 1 2 3 4 5 6; do
	{ printf 'exit 0\nuser 1.0%s\nvalgrind-instructions 1000\nvalgrind-est-cycles 5000\n' $i; geo 8388608; } >"ca/mm.$i.time"
	{ printf 'exit 0\nuser 1.6%s\nvalgrind-instructions 1000\nvalgrind-est-cycles 9000\n' $((7 - i)); geo 8388608; } >"cb/mm.$i.time"
	{ printf 'exit 0\nuser 1.0%s\nvalgrind-instructions 1000\nvalgrind-est-cycles 5000\n' $i; geo 8388608; } >"ca/t.$i.time"
	{ printf 'exit 0\nuser 1.3%s\nvalgrind-instructions 1000\nvalgrind-est-cycles 5000\n' $((7 - i)); geo 8388608; } >"cb/t.$i.time"
	{ printf 'exit 0\nuser 1.6%s\nvalgrind-instructions 1000\nvalgrind-est-cycles 9000\n' $i; geo 4194304; } >"cc/mm.$i.time"
done
"$COMPARE" --format csv ca cb >est.csv && fail "+60 % in time must exit 1"
grep -q '^mm,.*,regressed,.*,est. cycles +80.00%; same instruction count$' est.csv ||
	fail "est. cycles beside the time: $(cat est.csv)"
grep -q '^t,.*,regressed,.*,"time changed, est. cycles unchanged; same instruction count"$' est.csv ||
	fail "a time change the cost does not show: $(cat est.csv)"
"$COMPARE" --format csv -m valgrind-est-cycles ca cb >estm.csv && fail "-m valgrind-est-cycles +80 %"
grep -q '^mm,6,6,.*,regressed,no,,"exact count, +80.00% beyond the +-1% gate",' estm.csv ||
	fail "-m valgrind-est-cycles: $(cat estm.csv)"
grep -q '^t,.*,unchanged,no,,every sample equal,' estm.csv || fail "-m valgrind-est-cycles: $(cat estm.csv)"
"$COMPARE" --format csv -m valgrind-est-cycles ca cc >estg.csv || fail "other caches: not an error"
grep -q '^mm,6,6,no,.*,missing,no,,"cache geometries differ (A: I1=32768,8,64 D1=49152,12,64 LL=8388608,16,64 weights=10,200,?; B: I1=32768,8,64 D1=49152,12,64 LL=4194304,16,64 weights=10,200,?): not comparable",' estg.csv ||
	fail "other caches compared: $(cat estg.csv)"
"$COMPARE" --format csv ca cc >estn.csv || true
grep -q '^mm,.*est. cycles' estn.csv && fail "est. cycles of other caches noted: $(cat estn.csv)"
# The same from timeit --json's "valgrind" object.
for side in a b; do
	e=5000
	[ $side = b ] && e=5150
	printf '{"runs": [{"status": 0, "user": 1.0}], "valgrind": {"instructions": 1000, "cache_sim": true, "est_cycles": %s, "cost_weights": {"l1": 10, "ll": 200}, "caches": {"I1": {"size": 32768, "assoc": 8, "line": 64}, "D1": {"size": 49152, "assoc": 12, "line": 64}, "LL": {"size": 8388608, "assoc": 16, "line": 64}}}}\n' $e >"ce$side.json"
done
mkdir cj && cp ceb.json cj/cea.json
"$COMPARE" --format csv -m valgrind-est-cycles cea.json cj/cea.json >estj.csv && fail "json est +3 %"
grep -q '^cea,1,1,no,5000,5150,0.03,.*,regressed,' estj.csv || fail "est. cycles from --json: $(cat estj.csv)"

# lit -o JSON (llvm/utils/lit/lit/reports.py JSONReport).
cat >lit-a.json <<'JSON'
{
  "__version__": [0, 1, 0],
  "elapsed": 12.5,
  "tests": [
    {"name": "test-suite :: SingleSource/Benchmarks/fib.test", "code": "PASS", "elapsed": 1.2,
     "metrics": {"exec_time": 1.000, "compile_time": 0.31, "hash": "aa11", "size..text": 1200}},
    {"name": "test-suite :: SingleSource/Benchmarks/sort.test", "code": "PASS", "elapsed": 2.4,
     "metrics": {"exec_time": 2.000}},
    {"name": "test-suite :: SingleSource/Benchmarks/broken.test", "code": "FAIL", "elapsed": 0.1},
    {"name": "test-suite :: SingleSource/Benchmarks/skipped.test", "code": "UNSUPPORTED"}
  ]
}
JSON
sed -e 's/"exec_time": 1.000/"exec_time": 1.300/' -e 's/"FAIL"/"PASS", "metrics": {"exec_time": 0.5}/' \
	lit-a.json >lit-b.json
"$COMPARE" --format csv lit-a.json lit-b.json >lit.csv || fail "lit inputs"
# lit's names lose the suite and ".test", as LNT's converter names them.
[ "$(csv_field lit.csv SingleSource/Benchmarks/fib median_b)" = 1.3 ] || fail "lit fib: $(cat lit.csv)"
[ "$(csv_field lit.csv SingleSource/Benchmarks/fib verdict)" = unchanged ] || fail "lit, same hash: $(cat lit.csv)"
[ "$(csv_field lit.csv SingleSource/Benchmarks/fib code)" = same ] || fail "lit hash: $(cat lit.csv)"
[ "$(csv_field lit.csv SingleSource/Benchmarks/broken verdict)" = failed ] || fail "lit FAIL: $(cat lit.csv)"
grep -q skipped lit.csv && fail "UNSUPPORTED tests are not results: $(cat lit.csv)"
"$COMPARE" --format csv -m compile_time lit-a.json lit-a.json >ct.csv || fail "lit -m compile_time"
[ "$(csv_field ct.csv SingleSource/Benchmarks/fib median_a)" = 0.31 ] || fail "compile_time: $(cat ct.csv)"
"$COMPARE" --format csv -m code_size lit-a.json lit-a.json >cs.csv || fail "lit -m code_size"
[ "$(csv_field cs.csv SingleSource/Benchmarks/fib median_a)" = 1200 ] || fail "size..text: $(cat cs.csv)"
# Two lit runs merge into samples; the k-th -a is the k-th -b's round.
cp lit-a.json lit-a2.json
"$COMPARE" --format csv -a lit-a.json -a lit-a2.json -b lit-b.json >lit2.csv || fail "lit merge"
[ "$(csv_field lit2.csv SingleSource/Benchmarks/sort n_a)" = 2 ] || fail "lit merge: $(cat lit2.csv)"
# lit's hash metric is the binary's identity: same hash, same code.
sed 's/"hash": "aa11"/"hash": "bb22"/' lit-b.json >lit-c.json
"$COMPARE" --format csv -m hash lit-a.json lit-b.json >h.csv || fail "-m hash of lit"
[ "$(csv_field h.csv SingleSource/Benchmarks/fib verdict)" = unchanged ] || fail "same hash: $(cat h.csv)"
[ "$(csv_field h.csv SingleSource/Benchmarks/sort verdict)" = missing ] || fail "no hash: $(cat h.csv)"
"$COMPARE" --format csv -m hash lit-a.json lit-c.json >h2.csv || fail "-m hash of lit"
[ "$(csv_field h2.csv SingleSource/Benchmarks/fib verdict)" = changed ] || fail "other hash: $(cat h2.csv)"
# The same names in a summary tree of a lit build (Output/NAME.test.time),
# with its compile (CMakeFiles/NAME.dir/*.o.time) and link (NAME.link.time)
# summaries read as the metrics compile_time and link_time, not as
# benchmarks of their own.
for d in LA LB; do
	mkdir -p "$d/SingleSource/Benchmarks/Output" "$d/SingleSource/Benchmarks/CMakeFiles/fib.dir"
	printf 'exit 0
user 1.00
' >"$d/SingleSource/Benchmarks/Output/fib.test.time"
	printf 'exit 0
user 0.40
' >"$d/SingleSource/Benchmarks/CMakeFiles/fib.dir/fib.c.o.time"
	printf 'exit 0
user 0.05
maxrss 1000
' >"$d/SingleSource/Benchmarks/fib.link.time"
done
"$COMPARE" --format csv LA LB >lt.csv || fail "lit build tree"
[ "$(cut -d, -f1 lt.csv | tr '\n' ' ')" = "benchmark SingleSource/Benchmarks/fib " ] ||
	fail "compile and link summaries are not benchmarks: $(cat lt.csv)"
[ "$(csv_field lt.csv SingleSource/Benchmarks/fib median_a)" = 1 ] || fail "exec: $(cat lt.csv)"
"$COMPARE" --format csv -m compile_time LA LB >lc.csv || fail "-m compile_time of a tree"
[ "$(csv_field lc.csv SingleSource/Benchmarks/fib median_a)" = 0.4 ] || fail "compile: $(cat lc.csv)"
"$COMPARE" --format csv -m link_time LA LB >ll.csv || fail "-m link_time of a tree"
[ "$(csv_field ll.csv SingleSource/Benchmarks/fib median_a)" = 0.05 ] || fail "link: $(cat ll.csv)"
"$COMPARE" --format csv -m link_maxrss LA LB >lm.csv || fail "-m link_maxrss of a tree"
[ "$(csv_field lm.csv SingleSource/Benchmarks/fib median_a)" = 1000 ] || fail "link maxrss: $(cat lm.csv)"
# A program of two units (timeit-ab --compile's layout): compile_time and
# compile_wall are the sums of the user and real lines, compile_maxrss the
# largest unit's (they run one after another), compile_KEY any other key.
for d in UA UB; do
	mkdir -p "$d/1/CMakeFiles/p.dir"
	printf 'exit 0\nreal 0.50\nuser 0.40\nmaxrss 1000\nvalgrind-instructions 700\n' \
		>"$d/1/CMakeFiles/p.dir/0.o.time"
	printf 'exit 0\nreal 0.25\nuser 0.10\nmaxrss 3000\nvalgrind-instructions 300\n' \
		>"$d/1/CMakeFiles/p.dir/1.o.time"
done
for m in compile_time=0.5 compile_wall=0.75 compile_maxrss=3000 compile_valgrind-instructions=1000; do
	"$COMPARE" --format csv -m "${m%=*}" UA UB >um.csv || fail "-m ${m%=*} of two units"
	[ "$(csv_field um.csv p median_a)" = "${m#*=}" ] || fail "${m%=*}: $(cat um.csv)"
done

# LNT report, format_version 2 (lnt/testing/__init__.py): sample lists.
cat >lnt-a.json <<'JSON'
{
  "format_version": "2",
  "machine": {"name": "vm", "hardware": "x86_64"},
  "run": {"start_time": "2026-11-30 01:00:00", "end_time": "2026-11-30 02:00:00",
          "llvm_project_revision": "123456"},
  "tests": [
    {"name": "fib", "execution_time": [1.00, 1.01, 0.99, 1.00, 1.02], "compile_time": 0.5,
     "hash": "abc"},
    {"name": "fib-link", "compile_time": 0.07},
    {"name": "nts.sort", "execution_time": 2.5, "mem_bytes": 1048576}
  ]
}
JSON
sed -e 's/\[1.00, 1.01, 0.99, 1.00, 1.02\]/[1.10, 1.11, 1.09, 1.10, 1.12]/' -e 's/"abc"/"abd"/' \
	lnt-a.json >lnt-b.json
expect_status 1 "$COMPARE" lnt-a.json lnt-b.json
# The same binary (the "hash" LNT stores) is no regression, whatever the times.
sed 's/"abd"/"abc"/' lnt-b.json >lnt-s.json
expect_status 0 "$COMPARE" lnt-a.json lnt-s.json >/dev/null
"$COMPARE" --format csv lnt-a.json lnt-b.json >lnt.csv || [ $? -eq 1 ] || fail "LNT inputs"
[ "$(csv_field lnt.csv fib n_a)" = 5 ] || fail "LNT sample list: $(cat lnt.csv)"
[ "$(csv_field lnt.csv fib verdict)" = regressed ] || fail "LNT +10%: $(cat lnt.csv)"
# The "nts." prefix timeit's suite wrote before 0.2 is dropped; a
# NAME-link test is NAME's link time, not a benchmark.
[ "$(cut -d, -f1 lnt.csv | tr '\n' ' ')" = "benchmark fib sort " ] || fail "LNT names: $(cat lnt.csv)"
"$COMPARE" --format csv -m link_time lnt-a.json lnt-a.json >lk.csv || fail "LNT -link"
[ "$(csv_field lk.csv fib median_a)" = 0.07 ] || fail "LNT link time: $(cat lk.csv)"
"$COMPARE" --format csv -m maxrss lnt-a.json lnt-a.json >rss.csv || fail "LNT mem_bytes"
[ "$(csv_field rss.csv sort median_a)" = 1048576 ] || fail "maxrss = mem_bytes: $(cat rss.csv)"
# LNT format 1, what LNT's lit conversion writes: "TAG.NAME.METRIC" names,
# statuses as their own tests; names match format 2's and lit's.
cat >lnt1.json <<'JSON'
{"Machine": {"Name": "vm", "Info": {}},
 "Run": {"Start Time": "2026-11-30 01:00:00", "End Time": "2026-11-30 02:00:00",
         "Info": {"tag": "nts", "run_order": "1", "__report_version__": "1"}},
 "Tests": [
  {"Name": "nts.fib.exec", "Info": {}, "Data": [1.20, 1.21, 1.19, 1.20, 1.22]},
  {"Name": "nts.fib.hash", "Info": {}, "Data": ["abe"]},
  {"Name": "nts.fib-link.compile", "Info": {}, "Data": [0.08]},
  {"Name": "nts.sort.exec", "Info": {}, "Data": [2.5]},
  {"Name": "nts.bad.exec", "Info": {}, "Data": [1.0]},
  {"Name": "nts.bad.exec.status", "Info": {}, "Data": [1]}]}
JSON
"$COMPARE" --format csv lnt-a.json lnt1.json >v1.csv && fail "LNT 1: +20 % must exit 1"
[ "$(csv_field v1.csv fib verdict)" = regressed ] || fail "LNT 1 vs 2: $(cat v1.csv)"
[ "$(csv_field v1.csv bad verdict)" = missing ] || fail "LNT 1 only in B: $(cat v1.csv)"
"$COMPARE" --format csv lnt1.json lnt1.json >v11.csv || fail "LNT 1 vs 1"
[ "$(csv_field v11.csv bad verdict)" = failed ] || fail "LNT 1 status: $(cat v11.csv)"
"$COMPARE" --format csv -m link_time lnt1.json lnt-a.json >v1l.csv || fail "LNT 1 link"
[ "$(csv_field v1l.csv fib median_a)" = 0.08 ] || fail "LNT 1 link time: $(cat v1l.csv)"
"$COMPARE" --format csv -m hash lnt1.json lnt-a.json >v1h.csv || fail "LNT 1 hash"
[ "$(csv_field v1h.csv fib verdict)" = changed ] || fail "LNT 1 hash: $(cat v1h.csv)"
# A lit result and an LNT report of one suite name their tests alike.
printf '{"tests": [{"name": "s :: fib.test", "code": "PASS", "metrics": {"exec_time": 1.0}}]}\n' >litf.json
"$COMPARE" --format csv litf.json lnt-a.json >ln.csv || true
[ "$(csv_field ln.csv fib n_a)" = 1 ] && [ "$(csv_field ln.csv fib n_b)" = 5 ] || fail "lit vs LNT: $(cat ln.csv)"
# An empty sample list: the test is there without the metric, not dropped.
printf '{"format_version": "2", "tests": [{"name": "e", "execution_time": []},\n %s]}\n' \
	'{"name": "f", "execution_time": []}, {"name": "g", "execution_time": [1]}' >lnt-e.json
sed 's/"e", "execution_time": \[\]/"e", "execution_time": [2]/' lnt-e.json >lnt-f.json
"$COMPARE" --format csv lnt-e.json lnt-f.json >e.csv || fail "LNT empty sample lists: $(cat e.csv)"
grep -q '^e,0,1,no,.*,missing,no,,no exec_time in A,$' e.csv || fail "empty list in A: $(cat e.csv)"
grep -q '^f,0,0,no,.*,missing,no,,no exec_time in A or B,$' e.csv || fail "empty list on both sides: $(cat e.csv)"

# The test-suite's results directory: RESULTS/<bench>.<i>.time beside an
# LNT report.json; the directory reads the summaries, the report reads alone.
mkdir RESULTS
for i in 1 2 3; do
	printf 'exit 0\nreal 1.0\nuser 1.0%s\nsys 0.0\n' "$i" >"RESULTS/fib.$i.time"
done
cp lnt-a.json RESULTS/report.json
"$COMPARE" --format csv RESULTS RESULTS >r.csv || fail "RESULTS directory"
[ "$(csv_field r.csv fib n_a)" = 3 ] || fail "RESULTS/*.time: $(cat r.csv)"
grep -q '^sort,' r.csv && fail "report.json must not be read with the directory"
"$COMPARE" --format csv RESULTS/report.json RESULTS/report.json >rr.csv || fail "report.json"
[ "$(csv_field rr.csv fib n_a)" = 5 ] || fail "RESULTS/report.json: $(cat rr.csv)"
# A run with wrong output leaves RESULTS/<bench>.<i>.time.wrong-output
# (test-suite/RunSafely.sh): a failed run, on either side, not a lost row.
mkdir R2
cp RESULTS/fib.*.time R2/
printf 'exit 0\nreal 1.0\nuser 1.0\nsys 0.0\n' >RESULTS/wrong.1.time
mv R2/fib.2.time R2/fib.2.time.wrong-output
printf 'exit 0\nreal 1.0\nuser 1.0\nsys 0.0\n' >R2/wrong.1.time.wrong-output
cp R2/wrong.1.time.wrong-output RESULTS/both.1.time.wrong-output
cp R2/wrong.1.time.wrong-output R2/both.1.time.wrong-output
"$COMPARE" --format csv RESULTS R2 >w.csv || fail "wrong-output summaries"
grep -q '^fib,[0-9],2,[a-z]*,.*,"*1 of 3 runs on B failed (R2/fib.2.time.wrong-output)' w.csv || fail "fib note: $(cat w.csv)"
[ "$(csv_field w.csv wrong verdict)" = failed ] || fail "wrong output in B only: $(cat w.csv)"
[ "$(csv_field w.csv both verdict)" = failed ] || fail "wrong output on both sides: $(cat w.csv)"
mkdir R3
cp R2/both.1.time.wrong-output R3/
"$COMPARE" --format csv R3 R3 >w3.csv || fail "a directory of wrong outputs only"
[ "$(csv_field w3.csv both verdict)" = failed ] || fail "only wrong outputs: $(cat w3.csv)"
# A program's compile time is the sum of its units' (lit's compiletime
# module sums a test's *.o.time files), one sample a round: CMake's
# CMakeFiles/NAME.dir/, with sample directories 1/ and 2/.
for side in A B; do
	for r in 1 2; do
		d=ct$side/$r/p/CMakeFiles/p.dir
		mkdir -p "$d"
		printf 'exit 0\nreal 1\nuser 1.0\nsys 0\n' > "$d/a.c.o.time"
		printf 'exit 0\nreal 1\nuser %s\nsys 0\n' "$([ $side = A ] && echo 2.0 || echo 3.0)" > "$d/b.c.o.time"
	done
done
"$COMPARE" --format csv -m compile_time ctA ctB > ct.csv || :
[ "$(csv_field ct.csv p/p n_a)" = 2 ] || fail "units as samples: $(cat ct.csv)"
[ "$(csv_field ct.csv p/p median_a)" = 3 ] || fail "compile time not summed: $(cat ct.csv)"
[ "$(csv_field ct.csv p/p median_b)" = 4 ] || fail "compile time not summed: $(cat ct.csv)"
# A failed unit fails its program's round.
printf 'exit 1\nreal 1\nuser 1.0\nsys 0\n' > ctB/2/p/CMakeFiles/p.dir/a.c.o.time
"$COMPARE" --format csv -m compile_time ctA ctB > ct2.csv || :
[ "$(csv_field ct2.csv p/p n_b)" = 1 ] || fail "a failed unit: $(cat ct2.csv)"

exit 0

