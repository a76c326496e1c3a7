#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The readers of timeit-compare under one rule (issue 22): NaN and
# Infinity as Python's json (lit -o) writes them; the passing samples of
# a benchmark kept and its failed ones counted, whatever the format; one
# benchmark name whatever the format; distinct suites kept distinct and
# a duplicate within one file said; summary lines the reader does not
# use, of any form and length, accepted.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
COMPARE=${COMPARE:-$top_builddir/timeit/timeit-compare}

# csv_field CSV NAME COLUMN: the named column of benchmark NAME's row.
csv_field() {
	awk -F, -v n="$2" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == n { print $col[c]; exit }' "$1"
}

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
[ "$(csv_field nan.csv x verdict)" = unchanged ] || fail "NaN in another metric: $(cat nan.csv err)"
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

exit 0
