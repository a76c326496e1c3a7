#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# test-suite: the bundled suite end to end at small sizes, with the
# deliberately broken SelfTest programs: each failure is reported as what it
# is, the rest still runs, make fails at the end, and the reports hold up
# (JSON well-formed with the LNT fields, CSV columns).
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
# The suite is its own make: keep the harness's make flags out of it.
unset MAKEFLAGS MFLAGS MAKELEVEL
suite=$top_srcdir/test-suite
o=$tmp/o

set +e
make -s -j2 -f "$suite/Makefile" O="$o" TIMEIT="$TIMEIT" CFLAGS=-O2 SIZE=small SAMPLES=1 \
	TEST_DIRS='SingleSource/Benchmarks SingleSource/SelfTest' > table 2> errors
status=$?
set -e
cat table
[ "$status" -ne 0 ] || fail "make succeeded although SelfTest benchmarks fail"

# The table: every bundled benchmark passes, each broken one fails as itself.
benchmarks=$(make -s -f "$suite/Makefile" list O="$o" | grep -c Benchmarks/)
[ "$benchmarks" -ge 10 ] || fail "only $benchmarks bundled benchmarks"
[ "$(grep -c 'Benchmarks/.* pass ' table)" -eq "$benchmarks" ] ||
	fail "not every bundled benchmark passed"
grep -q 'SelfTest/builderr  *FAIL .* fail build$' table || fail "builderr not 'fail build'"
grep -q 'SelfTest/crash  *FAIL .* fail signal 11$' table || fail "crash not 'fail signal 11'"
grep -q 'SelfTest/hang  *FAIL .* fail timeout$' table || fail "hang not 'fail timeout'"
grep -q 'SelfTest/wrongout  *FAIL .* fail output$' table || fail "wrongout not 'fail output'"
grep -q 'SelfTest/fptol  *pass ' table || fail "fptol (within tolerance) did not pass"
total=$((benchmarks + 5))
grep -qx "$total benchmarks, $((total - 4)) passed, 4 failed" table || fail "wrong totals"
grep -q '^crash: fail signal 11' errors || fail "no message for crash on stderr"

# Summaries: lit's format, the failures' own exit status, the wrong
# output's summary set aside.
r=$o/results
for f in "$r"/hash.1.time "$r"/crash.1.time "$r"/hang.1.time; do
	[ -f "$f" ] || fail "$f missing"
	lit_user "$f" > /dev/null
done
[ "$(summary_value "$r/hash.1.time" exit)" = 0 ] || fail "hash: exit not 0"
[ "$(summary_value "$r/crash.1.time" exit)" = 139 ] || fail "crash: exit not 139"
[ "$(summary_value "$r/hang.1.time" exit)" = 137 ] || fail "hang: exit not 137"
[ -f "$r/wrongout.1.time.wrong-output" ] || fail "wrongout's summary not set aside"
[ ! -f "$r/wrongout.1.time" ] || fail "wrongout's summary left for comparisons"
[ ! -f "$r/builderr.1.time" ] || fail "builderr has a summary"
tail -n 1 "$o/Output/hash.1.out" | grep -qx 'exit 0' || fail "output lacks 'exit 0'"
grep -q "files differ without tolerance allowance: '.*42.*' and '.*41.*'" "$o/Output/wrongout.1.diff" ||
	fail "wrongout.1.diff does not name the difference"

# report.json: well-formed JSON, LNT format 2, samples as lists.
j=$o/report.json
awk -f "$suite/tools/jsoncheck.awk" "$j" || fail "report.json is not valid JSON"
grep -q '^  "format_version": "2",$' "$j" || fail "no format_version 2"
for key in name os hardware start_time end_time llvm_project_revision cc_version cflags timeit; do
	grep -q "^    \"$key\": \"" "$j" || fail "report.json lacks $key"
done
grep -q '"cflags": "-O2"' "$j" || fail "cflags not recorded"
[ "$(grep -c '"name": "SingleSource/' "$j")" -eq "$total" ] || fail "tests missing in report.json"
grep -q '"execution_time": \[[0-9.]*\]' "$j" || fail "execution_time not a list"
grep -q '"compile_time": \[[0-9.]*\]' "$j" || fail "compile_time not a list"
# Exactly the failures carry a status: builderr both, the others execution.
[ "$(grep -c '"compile_status": 1' "$j")" -eq 1 ] || fail "compile_status count"
[ "$(grep -c '"execution_status": 1' "$j")" -eq 4 ] || fail "execution_status count"
awk '/"name": "SingleSource\/Benchmarks\/hash"/ { f = 1 } f && /"execution_time": \[/ { ok = 1 }
	f && /^    }/ { exit !ok }' "$j" || fail "hash has no execution_time"
if command -v jq > /dev/null 2>&1; then
	jq -e '.format_version == "2" and (.tests | length) > 10 and
		all(.tests[]; .name | startswith("SingleSource/"))' "$j" > /dev/null || fail "jq rejects report.json"
fi

# report.csv: header, one row per sample, nineteen columns (the last eight,
# the valgrind counts, empty here: tests/test-suite-cache.sh fills them).
c=$o/report.csv
head -n 1 "$c" | grep -qx 'name,sample,status,exit,user,real,sys,compile_time,hash,maxrss,code_size,valgrind_instructions,valgrind_i1_misses,valgrind_d1_misses,valgrind_ll_misses,valgrind_mispredicts,valgrind_est_cycles,valgrind_caches,valgrind_cost_weights' ||
	fail "CSV header"
[ "$(wc -l < "$c")" -eq $((total + 1)) ] || fail "CSV rows"
awk -F, 'NR > 1 && NF != 19 { exit 1 }' "$c" || fail "CSV row without 19 columns"
grep -q '^SingleSource/SelfTest/crash,1,fail signal 11,139,' "$c" || fail "CSV crash row"

# Nothing is redone when nothing changed; a flag change rebuilds.
make -s -f "$suite/Makefile" O="$o" TIMEIT="$TIMEIT" CFLAGS=-O2 SIZE=small BENCHMARKS=tak > again
if grep -q 'CC\|RUN' again; then
	fail "an up-to-date run was redone"
fi
make -s -f "$suite/Makefile" O="$o" TIMEIT="$TIMEIT" SIZE=small BENCHMARKS=tak \
	CFLAGS='-O1' > again
grep -q 'CC *tak' again || fail "a CFLAGS change did not rebuild"
grep -q '"cflags": "-O1"' "$j" || fail "-O1 not in the new report"

# Bad settings are refused before anything runs.
for bad in SAMPLES=0 SAMPLES=x SIZE=huge SHARD=0/2 SHARD=3/2 SHARD=1 BENCHMARKS=nosuch; do
	if make -s -f "$suite/Makefile" O="$tmp/bad" TIMEIT="$TIMEIT" "$bad" list > /dev/null 2>&1; then
		fail "$bad accepted"
	fi
done
# ... with a message that says what is wrong: an empty BENCHMARKS, a path
# make cannot name a file by (not "multiple target patterns").
for bad in BENCHMARKS= "O=$tmp/a b" "O=$tmp/a=b" "RESULTS=$tmp/r:s"; do
	set +e
	make -s -f "$suite/Makefile" O="$tmp/bad" TIMEIT="$TIMEIT" "$bad" > bad.out 2>&1
	st=$?
	set -e
	[ "$st" -ne 0 ] || fail "$bad accepted"
	grep -q 'BENCHMARKS is empty\|cannot be used by make' bad.out || fail "$bad: $(cat bad.out)"
done

# Backslashes and quotes of flags reach report.json intact and escaped.
# shellcheck disable=SC2016 # $ORIGIN is literal, for the linker
make -s -f "$suite/Makefile" O="$tmp/js" TIMEIT="$TIMEIT" SIZE=small BENCHMARKS=tak \
	'LDFLAGS=-Wl,-rpath,\$$ORIGIN/../lib' 'CPPFLAGS=-DQ=\"v\"' > js.out
awk -f "$suite/tools/jsoncheck.awk" "$tmp/js/report.json" || fail "report.json with backslashes"
# shellcheck disable=SC2016
grep -qF '"ldflags": "-Wl,-rpath,\\$ORIGIN/../lib",' "$tmp/js/report.json" ||
	fail "ldflags: $(grep ldflags "$tmp/js/report.json")"
grep -qF '"cppflags": "-DQ=\\\"v\\\"",' "$tmp/js/report.json" ||
	fail "cppflags: $(grep cppflags "$tmp/js/report.json")"
if command -v python3 > /dev/null 2>&1; then
	python3 -m json.tool "$tmp/js/report.json" > /dev/null || fail "python3 rejects report.json"
fi

# A copy of the suite's sources, to edit a bench.mk.
mkdir src
cp -R "$suite/Makefile" "$suite/Makefile.config" "$suite/TEST.nightly.Makefile" \
	"$suite/RunSafely.sh" "$suite/tools" "$suite/SingleSource" src/
chmod -R u+w src
sm() {
	make -s -f "$tmp/src/Makefile" SIZE=small BENCHMARKS='tak hash' "$@"
}
sm O="$tmp/e" TIMEIT="$TIMEIT" > e.out
sm O="$tmp/e" TIMEIT="$TIMEIT" > e.out
! grep -q RUN e.out || fail "an up-to-date run was redone"
# A benchmark's run settings in bench.mk re-run its samples, only its own.
echo 'tak_FP_TOLERANCE := 0.001' >> src/SingleSource/Benchmarks/bench.mk
sm O="$tmp/e" TIMEIT="$TIMEIT" > e.out
grep -q 'RUN *tak' e.out || fail "a bench.mk change of tak did not re-run tak"
! grep -q 'RUN *hash' e.out || fail "a bench.mk change of tak re-ran hash"

# A TIMEIT path with a space works for compiles as for runs.
mkdir 't dir'
ln -s "$TIMEIT" 't dir/timeit'
sm O="$tmp/sp" TIMEIT="$tmp/t dir/timeit" > sp.out 2>&1 || { cat sp.out; fail "TIMEIT with a space"; }
grep -qx '2 benchmarks, 2 passed, 0 failed' sp.out || fail "TIMEIT with a space: $(cat sp.out)"

# A failed build is tried again by the next make, same configuration.
cat > flaky-cc <<EOS
#!/bin/sh
[ "\$*" = --version ] && exec cc --version
[ ! -f "$tmp/broken" ] || { echo 'flaky-cc: broken' >&2; exit 1; }
exec cc "\$@"
EOS
chmod +x flaky-cc
touch broken
if sm O="$tmp/fl" TIMEIT="$TIMEIT" CC="$tmp/flaky-cc" > fl.out 2>&1; then
	fail "make succeeded with a broken compiler"
fi
rm broken
sm O="$tmp/fl" TIMEIT="$TIMEIT" CC="$tmp/flaky-cc" > fl.out 2>&1 ||
	{ cat fl.out; fail "the failed build was not tried again"; }

# clean removes the suite's files by name: other files in O and RESULTS stay.
mkdir keep
echo mine > keep/notes.txt
sm O="$tmp/c" RESULTS="$tmp/keep" TIMEIT="$TIMEIT" > c.out
echo mine > "$tmp/c/bin/mytool"
echo mine > "$tmp/c/mine.txt"
[ -f keep/tak.1.time ] || fail "no tak.1.time in RESULTS"
make -s -f "$suite/Makefile" clean O="$tmp/c" RESULTS="$tmp/keep"
[ -f keep/notes.txt ] || fail "make clean removed a file of the user's in RESULTS"
[ -f "$tmp/c/bin/mytool" ] || fail "make clean removed a file of the user's in O/bin"
[ -f "$tmp/c/mine.txt" ] || fail "make clean removed a file of the user's in O"
[ ! -f keep/tak.1.time ] || fail "make clean left tak.1.time"
if [ -e "$tmp/c/bin/tak" ] || [ -e "$tmp/c/Output" ] || [ -e "$tmp/c/report.json" ]; then
	fail "make clean left the suite's files: $(find "$tmp/c")"
fi
make -s -f "$suite/Makefile" clean O="$tmp/e"
[ ! -e "$tmp/e" ] || [ -z "$(find "$tmp/e" -type f)" ] || fail "make clean left: $(find "$tmp/e" -type f)"
exit 0
