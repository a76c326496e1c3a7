#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The readers of timeit-compare under one rule: NaN and
# Infinity as Python's json (lit -o) writes them; the passing samples of
# a benchmark kept and its failed ones counted, whatever the format; one
# benchmark name whatever the format; distinct suites kept distinct and
# a duplicate within one file said; summary lines the reader does not
# use, of any form and length, accepted.  Each part fails on the readers
# as they were before they shared that rule.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
COMPARE=${COMPARE:-$top_builddir/compare/timeit-compare}

# NaN and Infinity in a metric not compared do not make the file
# unreadable; a non-finite compared metric is a failed sample, said.
cat >nan-a.json <<'X'
{"tests": [{"name": "s :: x.test", "code": "PASS", "metrics": {"exec_time": 1.0, "score": NaN}},
 {"name": "s :: y.test", "code": "PASS", "metrics": {"exec_time": 2.0, "score": -Infinity}}]}
X
cat >nan-b.json <<'X'
{"tests": [{"name": "s :: x.test", "code": "PASS", "metrics": {"exec_time": 1.0, "score": Infinity}},
 {"name": "s :: y.test", "code": "PASS", "metrics": {"exec_time": NaN}}]}
X
expect_status 0 "$COMPARE" --format csv nan-a.json nan-b.json >nan.csv 2>err
# x is read on both sides (one sample a side is undecided).
[ "$(csv_field nan.csv x n_a)" = 1 ] && [ "$(csv_field nan.csv x n_b)" = 1 ] ||
	fail "NaN in another metric: $(cat nan.csv err)"
[ "$(csv_field nan.csv y verdict)" = failed ] || fail "exec_time NaN: $(cat nan.csv)"
grep -q '^y,.*nan-b.json: exec_time is NaN' nan.csv || fail "the NaN is not said: $(cat nan.csv)"
# LNT format 2 lists the samples: an Infinity among them is one failed run.
cat >nan-lnt.json <<'X'
{"format_version": "2", "machine": {"name": "m"}, "run": {},
 "tests": [{"name": "x", "execution_time": [1.0, Infinity, 1.0]}]}
X
"$COMPARE" --format csv nan-a.json nan-lnt.json >lnt.csv 2>err || [ $? -eq 1 ] || fail "$(cat err)"
[ "$(csv_field lnt.csv x n_b)" = 2 ] || fail "LNT Infinity sample: $(cat lnt.csv)"
grep -q '^x,.*1 of 3 runs on B failed (nan-lnt.json: exec_time is Infinity)' lnt.csv ||
	fail "the Infinity is not said: $(cat lnt.csv)"

# A partial failure: the suite's report.json lists the passing samples and
# marks the test failed; a results directory has the failed run's
# NAME.I.time.wrong-output.  Both read as 5 samples and 1 failure, under
# one name (the directory's tak is the report's SingleSource/.../tak).
mkdir res-a res-b
for i in 1 2 3 4 5 6; do
	printf 'exit 0\nuser 1.00%s\n' "$i" >"res-a/tak.$i.time"
	printf 'exit 0\nuser 2.00%s\n' "$i" >"res-b/tak.$i.time"
done
mv res-b/tak.2.time res-b/tak.2.time.wrong-output
cat >rep-b.json <<'X'
{"format_version": "2", "machine": {"name": "m"}, "run": {},
 "tests": [{"name": "SingleSource/Benchmarks/tak",
   "execution_time": [2.001, 2.003, 2.004, 2.005, 2.006], "execution_status": 1}]}
X
expect_status 1 "$COMPARE" --format csv res-a res-b >dir.csv
expect_status 1 "$COMPARE" --format csv res-a rep-b.json >rep.csv
[ "$(csv_field dir.csv tak verdict)" = regressed ] || fail "directories: $(cat dir.csv)"
n=SingleSource/Benchmarks/tak
[ "$(csv_field rep.csv $n verdict)" = regressed ] || fail "report: $(cat rep.csv)"
[ "$(csv_field rep.csv $n n_b)" = 5 ] || fail "report's passing samples: $(cat rep.csv)"
grep -q '1 of 6 runs on B failed' rep.csv || fail "report's failure not counted: $(cat rep.csv)"
[ "$(wc -l <rep.csv)" -eq 2 ] || fail "directory and report names differ: $(cat rep.csv)"
# A status per sample pairs with the samples.
cat >rep-p.json <<'X'
{"format_version": "2", "machine": {"name": "m"}, "run": {},
 "tests": [{"name": "SingleSource/Benchmarks/tak",
   "execution_time": [2.001, 9.9, 2.003, 2.004, 2.005, 2.006],
   "execution_status": [0, 1, 0, 0, 0, 0]}]}
X
expect_status 1 "$COMPARE" --format csv res-a rep-p.json >rep.csv
[ "$(csv_field rep.csv $n n_b)" = 5 ] || fail "status per sample: $(cat rep.csv)"
grep -q '1 of 6 runs on B failed' rep.csv || fail "status per sample: $(cat rep.csv)"
# Distinct paths are never merged into one bare name.
mkdir res-c
printf 'exit 0\nuser 1\n' >res-c/x.time
cat >two.json <<'X'
{"format_version": "2", "machine": {"name": "m"}, "run": {},
 "tests": [{"name": "s1/x", "execution_time": [1.0]}, {"name": "s2/x", "execution_time": [1.0]}]}
X
expect_status 2 "$COMPARE" --format csv res-c two.json >two.csv 2>err
grep -q "no benchmark in common: A (res-c) has 1, e.g. 'x'" err ||
	fail "a bare x merged with one of two paths: $(cat two.csv err)"

# Two suites' x.test in one lit file stay two benchmarks, named with their
# suites; the same test twice in one file is an error naming it.
cat >suites.json <<'X'
{"tests": [{"name": "s1 :: x.test", "code": "PASS", "metrics": {"exec_time": 1.0}},
 {"name": "s2 :: x.test", "code": "PASS", "metrics": {"exec_time": 5.0}},
 {"name": "s1 :: y.test", "code": "PASS", "metrics": {"exec_time": 2.0}}]}
X
"$COMPARE" --format csv suites.json suites.json >suites.csv || [ $? -eq 1 ] || fail "two suites"
[ "$(csv_field suites.csv 's1 :: x' n_a)" = 1 ] && [ "$(csv_field suites.csv 's2 :: x' n_a)" = 1 ] &&
	[ "$(csv_field suites.csv y n_a)" = 1 ] || fail "two suites' x: $(cat suites.csv)"
cat >dup.json <<'X'
{"tests": [{"name": "s1 :: x.test", "code": "PASS", "metrics": {"exec_time": 1.0}},
 {"name": "s1 :: x.test", "code": "PASS", "metrics": {"exec_time": 5.0}}]}
X
expect_status 2 "$COMPARE" dup.json suites.json 2>err
grep -q 'dup.json:2: s1 :: x.test: a second test of this name (the first is line 1)' err ||
	fail "lit duplicate: $(cat err)"
cat >dup2.json <<'X'
{"format_version": "2", "machine": {"name": "m"}, "run": {},
 "tests": [{"name": "x", "execution_time": [1.0]},
  {"name": "x", "execution_time": [5.0]}]}
X
expect_status 2 "$COMPARE" dup2.json suites.json 2>err
grep -q 'dup2.json:3: x: a second entry of this test (the first is line 2)' err ||
	fail "LNT duplicate: $(cat err)"
cat >dup1.json <<'X'
{"Machine": {"Name": "m"}, "Run": {"Info": {"tag": "nts"}},
 "Tests": [{"Name": "nts.x.exec", "Data": [1.0]},
  {"Name": "nts.x.exec", "Data": [5.0]}]}
X
expect_status 2 "$COMPARE" dup1.json suites.json 2>err
grep -q 'dup1.json:3: x: a second entry of this test (the first is line 2)' err ||
	fail "LNT format 1 duplicate: $(cat err)"

# Summary lines the reader does not use may take any form and length (a
# one-word line, a line of 600 bytes); the lines it uses keep their limits.
mkdir sum-a sum-b
long=$(awk 'BEGIN { for (i = 0; i < 600; i++) printf "x" }')
printf 'exit 0\nuser 1.0\nnote\nlabel %s\n' "$long" >sum-a/s.time
printf 'exit 0\nuser 1.0\n%s\n' "$long" >sum-b/s.time
expect_status 0 "$COMPARE" --format csv sum-a sum-b >sum.csv
[ "$(csv_field sum.csv s n_a)" = 1 ] && [ "$(csv_field sum.csv s n_b)" = 1 ] ||
	fail "unused summary lines: $(cat sum.csv)"
printf 'exit 0\nuser 1.0%s\n' "$(awk 'BEGIN { for (i = 0; i < 600; i++) printf "0" }')" >long.time
expect_status 2 "$COMPARE" long.time sum-b 2>err
grep -q 'long.time:2: line too long' err || fail "a used line of 600 bytes: $(cat err)"
printf 'exit 0\nuser\n' >short.time
expect_status 2 "$COMPARE" short.time sum-b 2>err
grep -q "short.time:2: expected 'key value'" err || fail "a used key without a value: $(cat err)"

exit 0
