#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# test-suite and LNT: report.json names tests as LNT does and carries only
# metrics the nts schema stores (hash as lit computes it, compile time,
# code size, mem_bytes); report.csv has the same hash; make submit posts
# the reports as "lnt submit" does to a stand-in submitRun on 127.0.0.1
# (tests/lnt-server.py) and fails loudly on every answer but success.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
suite=$top_srcdir/test-suite
schema=$top_srcdir/tests/lnt/nts-schema.txt
server=$top_srcdir/tests/lnt-server.py
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed: no stand-in LNT server"
command -v jq > /dev/null 2>&1 || skip "jq is not installed"
command -v curl > /dev/null 2>&1 || skip "curl is not installed: make submit cannot post"
o=$tmp/o
run_suite() {
	make -s -f "$suite/Makefile" O="$o" TIMEIT="$TIMEIT" CFLAGS=-O2 SIZE=small SAMPLES=2 \
		TEST_DIRS='SingleSource/Benchmarks SingleSource/SelfTest' "$@"
}
set +e
run_suite BENCHMARKS='tak sieve builderr crash' > table 2> errors
set -e
j=$o/report.json
[ -f "$j" ] || { cat table errors; fail "no report.json"; }

# LNT takes the report (the schema's metrics, its types, the order field).
python3 "$server" "$schema" --check "$j" || fail "report.json is not what LNT's nts suite stores"
# The stand-in refuses what LNT would file apart: the check has teeth.
sed 's|"name": "Single|"name": "nts.Single|' "$j" > nts.json
python3 "$server" "$schema" --check nts.json 2> /dev/null && fail "the check takes nts. names"
sed 's|"code_size"|"compile_maxrss"|' "$j" > maxrss.json
python3 "$server" "$schema" --check maxrss.json 2> /dev/null && fail "the check takes unknown metrics"

# Names: exactly LNT's for the lit names of these benchmarks.
sed -n 's/^test-suite :: [^	]*	//p' "$top_srcdir/tests/lnt/lit-names.txt" | sort > want
jq -r '.tests[].name' "$j" | sort > got
cmp -s want got || fail "test names $(tr '\n' ' ' < got), LNT's are $(tr '\n' ' ' < want)"

# Metrics: the passing benchmarks have two execution times, as many
# mem_bytes (the maxrss), a code size and a hash; the failures a status.
for b in tak sieve; do
	jq -e --arg n "SingleSource/Benchmarks/$b" '.tests[] | select(.name == $n) |
		(.execution_time | length) == 2 and (.mem_bytes | length) == 2 and
		all(.mem_bytes[]; . > 100000) and (.compile_time | length) == 1 and
		(.code_size | type) == "number" and .code_size > 0 and
		(.hash | test("^[0-9a-f]{32}$")) and (has("execution_status") | not)' "$j" > /dev/null ||
		fail "$b: metrics $(jq -c --arg n "SingleSource/Benchmarks/$b" '.tests[] | select(.name == $n)' "$j")"
done
jq -e '.tests[] | select(.name == "SingleSource/SelfTest/builderr") | .compile_status == 1 and
	.execution_status == 1 and (has("hash") | not)' "$j" > /dev/null || fail "builderr's statuses"
jq -e '.tests[] | select(.name == "SingleSource/SelfTest/crash") | .execution_status == 1' \
	"$j" > /dev/null || fail "crash's status"

# The hash is lit's (litsupport/modules/hash.py, its strip arguments as
# one list, no shell), not the MD5 of the unstripped binary.  STRIP: the
# target's (a cross build's tests/local.mk passes it, as to the suite).
for b in tak sieve; do
	lit=$(python3 -c '
import hashlib, subprocess, sys
e = sys.argv[1]
subprocess.check_call([sys.argv[2], "--remove-section=.comment", "--remove-section=\x27.note*\x27",
                       "-o", e + ".s", e])
print(hashlib.md5(open(e + ".s", "rb").read()).hexdigest())' "$o/bin/$b" "${STRIP:-strip}")
	rm -f "$o/bin/$b.s"
	got=$(jq -r --arg n "SingleSource/Benchmarks/$b" '.tests[] | select(.name == $n) | .hash' "$j")
	[ "$got" = "$lit" ] || fail "$b: hash $got, lit's is $lit"
	[ "$got" != "$(md5sum < "$o/bin/$b" | cut -d' ' -f1)" ] || fail "$b: hash of the unstripped binary"
	# report.csv: the same hash in its hash column on every sample row.
	awk -F, -v n="SingleSource/Benchmarks/$b" -v h="$got" 'NR == 1 {
		for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == n { rows++; if ($col["hash"] != h || $col["maxrss"] !~ /^[0-9]+$/ ||
			$col["code_size"] !~ /^[0-9]+$/) bad = 1 }
		END { exit bad || rows != 2 }' "$o/report.csv" || fail "$b: report.csv hash/maxrss/code_size"
done
ls "$o"/bin/*.stripped > /dev/null 2>&1 && fail "stripped copies left in $o/bin"

# --- make submit -------------------------------------------------------
# start_server [--answer KIND]: a stand-in LNT on 127.0.0.1; sets $port, $log.
n_server=0
start_server() {
	n_server=$((n_server + 1))
	log=$tmp/log$n_server
	mkdir "$log"
	python3 "$server" "$schema" "$tmp/port$n_server" "$log" --max 4 "$@" &
	server_pid=$!
	wait_for_file "$tmp/port$n_server"
	port=$(cat "$tmp/port$n_server")
}
stop_server() {
	kill "$server_pid" 2> /dev/null || true
	wait "$server_pid" 2> /dev/null || true
}
trap 'stop_server; rm -rf "$tmp"' EXIT
submit() {
	set +e
	make -s -f "$suite/Makefile" O="$o" submit "$@" > sub.out 2> sub.err
	st=$?
	set -e
}

start_server
url=http://127.0.0.1:$port/db_default/v4/nts/submitRun
submit LNT_URL="$url"
[ "$st" -eq 0 ] || fail "make submit: status $st: $(cat sub.err)"
grep -qx "submit: $j: stored as http://127.0.0.1:$port/db_default/v4/nts/1" sub.out ||
	fail "make submit did not say where the run is: $(cat sub.out)"
# The request, as LNT's submitRun reads it.
r=$log/1.json
jq -e '.method == "POST" and .path == "/db_default/v4/nts/submitRun" and
	(.headers["Content-Type"] | startswith("application/x-www-form-urlencoded")) and
	.headers.Accept == "application/json" and .form.commit == "1" and
	.form.merge == "replace" and .form.select_machine == "match"' "$r" > /dev/null ||
	fail "not lnt submit's request: $(cat "$r")"
jq -r '.form.input_data' "$r" > posted
# (jq -r ends the string with a newline of its own.)
{ cat "$j"; echo; } > want.json
cmp -s posted want.json || fail "input_data is not report.json as it is"

# A second submission of the same machine and order: with merge=reject
# LNT refuses it, and make submit fails saying why.
submit LNT_URL="$url" LNT_MERGE=reject
[ "$st" -ne 0 ] || fail "a refused submission succeeded"
grep -q "refused by $url (HTTP 400): import failure: Duplicate submission for" sub.err ||
	fail "the refusal is not named: $(cat sub.err)"
# An unknown suite in the URL.
submit LNT_URL="http://127.0.0.1:$port/db_default/v4/nope/submitRun"
[ "$st" -ne 0 ] || fail "an unknown suite succeeded"
grep -q "Unknown test suite 'nope'" sub.err || fail "unknown suite: $(cat sub.err)"
stop_server

# make ab: each side its own LNT order, so that a server stores both
# (with merge=reject nothing is replaced either).  Given revisions are
# used; without, two compilers give their version numbers.
compare=$top_builddir/compare/timeit-compare
ab() {
	make -s -f "$suite/Makefile" ab O="$tmp/ab" TIMEIT="$TIMEIT" TIMEIT_COMPARE="$compare" \
		SIZE=small SAMPLES=1 BENCHMARKS=tak AB_GATE=no "$@"
}
revision() {
	jq -r .run.llvm_project_revision "$tmp/ab/$1/report.json"
}
ab BASE='CFLAGS=-O1' NEW='CFLAGS=-O2' BASE_REVISION=r100 NEW_REVISION=r101 > ab.out 2>&1 ||
	fail "make ab: $(cat ab.out)"
[ "$(revision A) $(revision B)" = "r100 r101" ] ||
	fail "revisions $(revision A) $(revision B), given r100 r101"
start_server
submit LNT_URL="http://127.0.0.1:$port/db_default/v4/nts/submitRun" LNT_MERGE=reject O="$tmp/ab"
[ "$st" -eq 0 ] || fail "the sides of make ab were not both stored: $(cat sub.err)"
[ "$(grep -c ': stored as ' sub.out)" -eq 2 ] || fail "make submit after make ab: $(cat sub.out)"
stop_server
for v in 11.1.0 12.0.1; do
	# shellcheck disable=SC2016 # the script's own $1 and $@
	printf '#!/bin/sh\n[ "$1" = --version ] && { echo "fakecc version %s (x)"; exit 0; }\nexec cc "$@"\n' \
		"$v" > "cc-$v"
	chmod +x "cc-$v"
done
ab BASE="CC=$tmp/cc-11.1.0" NEW="CC=$tmp/cc-12.0.1" > ab.out 2>&1 || fail "make ab: $(cat ab.out)"
[ "$(revision A) $(revision B)" = "11.1.0 12.0.1" ] ||
	fail "revisions $(revision A) $(revision B), compilers 11.1.0 and 12.0.1"
# The same revision twice is refused before anything runs.
rm -rf "$tmp/ab"
if ab BASE='CFLAGS=-O1' NEW='CFLAGS=-O2' BASE_REVISION=7 NEW_REVISION=7 > ab.out 2>&1; then
	fail "make ab took one revision for both sides"
fi
grep -q "BASE_REVISION and NEW_REVISION are both '7'" ab.out || fail "same revisions: $(cat ab.out)"
[ ! -d "$tmp/ab/A" ] || fail "make ab with equal revisions built side A"

# Answers that are not LNT's success: an HTML page with status 200 (what
# LNT shows a form without data) and a server error.
for kind in html 500; do
	start_server --answer "$kind"
	submit LNT_URL="http://127.0.0.1:$port/db_default/v4/nts/submitRun"
	[ "$st" -ne 0 ] || fail "an answer '$kind' counted as stored"
	grep -q "answered HTTP [0-9]* without LNT's success" sub.err || fail "$kind: $(cat sub.err)"
	stop_server
done
# A success cut short, and one nested under a failure, are no success:
# the answer is read as JSON.
for kind in truncated nested; do
	start_server --answer "$kind"
	submit LNT_URL="http://127.0.0.1:$port/db_default/v4/nts/submitRun"
	[ "$st" -ne 0 ] || fail "an answer '$kind' counted as stored: $(cat sub.out)"
	grep -q "answered HTTP 200 without LNT's success" sub.err || fail "$kind: $(cat sub.err)"
	stop_server
done
grep -q 'not JSON' sub.err && fail "nested: $(cat sub.err)"
# A server that takes the request and never answers: SUBMIT_TIMEOUT.
start_server --answer hang
t0=$(date +%s)
submit LNT_URL="http://127.0.0.1:$port/db_default/v4/nts/submitRun" SUBMIT_TIMEOUT=2
[ "$st" -ne 0 ] || fail "a server that never answered counted as stored"
grep -q "no answer from .* within SUBMIT_TIMEOUT=2 s" sub.err || fail "hang: $(cat sub.err)"
[ $(($(date +%s) - t0)) -lt 25 ] || fail "SUBMIT_TIMEOUT=2 did not bound the wait"
stop_server
submit LNT_URL="$url" SUBMIT_TIMEOUT=soon
[ "$st" -eq 2 ] || fail "SUBMIT_TIMEOUT=soon: status $st"
grep -q 'SUBMIT_TIMEOUT=soon: expected a positive number of seconds' sub.err || fail "$(cat sub.err)"
# A report older than its run's samples (a run stopped before its
# report) is refused, nothing posted.
touch -t 200001010000 "$j"
submit LNT_URL="$url"
[ "$st" -ne 0 ] || fail "a stale report was posted"
grep -q "older than its run's results" sub.err || fail "stale report: $(cat sub.err)"
touch "$j"
# A run removes the report it will rewrite before its first sample.
[ -f "$o/report.json" ] || fail "no report to remove"
cp "$j" saved.json
run_suite BENCHMARKS=tak RUNTIMELIMIT=77 run > run.out 2>&1 || fail "make run: $(cat run.out)"
[ ! -f "$j" ] && [ ! -f "$o/report.csv" ] || fail "a run left the earlier run's report"
cp saved.json "$j"

# Nobody listening (the last server's port is closed now).
submit LNT_URL="http://127.0.0.1:$port/db_default/v4/nts/submitRun"
[ "$st" -ne 0 ] || fail "a submission to a closed port succeeded"
grep -q "no answer from" sub.err || fail "closed port: $(cat sub.err)"

# Usage: no URL, no report, a URL that is not http.
submit
[ "$st" -ne 0 ] || fail "submit without LNT_URL succeeded"
grep -q 'give LNT_URL=' sub.err || fail "no LNT_URL: $(cat sub.err)"
make -s -f "$suite/Makefile" O="$tmp/empty" submit LNT_URL="$url" > /dev/null 2> sub.err && fail "submit without a report"
grep -q 'no report under' sub.err || fail "no report: $(cat sub.err)"
submit LNT_URL=localhost:8000
[ "$st" -ne 0 ] || fail "submit to localhost:8000 succeeded"
grep -q 'expected http://' sub.err || fail "bad URL: $(cat sub.err)"
