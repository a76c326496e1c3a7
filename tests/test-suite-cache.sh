#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# test-suite and COUNT_INSTRUCTIONS=valgrind-cache: the flag reaches timeit,
# report.json and report.csv carry the counts of every passing sample and
# the geometry and weights they depend on, make submit posts an nts-clean
# report to nts, and a bad COUNT_INSTRUCTIONS stops make before any run.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
suite=$top_srcdir/test-suite

# A timeit that runs the real one without the count and appends the lines
# a valgrind-cache count writes (fixed numbers: quick, and exact to check).
cat > fake-timeit <<EOS
#!/bin/sh
printf '%s\n' "\$*" >> "$tmp/args"
sum=
prev=
for a do
	shift
	[ "\$prev" = --summary ] && sum=\$a
	prev=\$a
	case \$a in --count-instructions=*) ;; *) set -- "\$@" "\$a" ;; esac
done
"$TIMEIT" "\$@"
st=\$?
if [ -n "\$sum" ] && [ -f "\$sum" ] && grep -q '^exit 0' "\$sum"; then
	cat >> "\$sum" <<EOF
valgrind-instructions 1000
valgrind-i1-misses 10
valgrind-d1-misses 20
valgrind-ll-misses 5
valgrind-mispredicts 7
valgrind-est-cycles 2440
valgrind-i1-size 32768
valgrind-i1-assoc 8
valgrind-i1-line 64
valgrind-d1-size 49152
valgrind-d1-assoc 12
valgrind-d1-line 64
valgrind-ll-size 8388608
valgrind-ll-assoc 16
valgrind-ll-line 64
valgrind-weight-l1 10
valgrind-weight-ll 200
valgrind-weight-mispredict 20
EOF
fi
exit \$st
EOS
chmod +x fake-timeit

o=$tmp/o
make -s -f "$suite/Makefile" O="$o" TIMEIT="$tmp/fake-timeit" SIZE=small SAMPLES=2 \
	BENCHMARKS=tak COUNT_INSTRUCTIONS=valgrind-cache > table || { cat table; fail "the suite failed"; }
grep -q 'tak  *pass  *2/2' table || fail "tak did not pass twice: $(cat table)"
[ "$(grep -c -- ' --count-instructions=valgrind-cache ' args)" -eq 2 ] ||
	fail "--count-instructions=valgrind-cache not passed to both samples: $(cat args)"

# report.json: the counts of both samples; the run's geometry and weights.
j=$o/report.json
tr -d ' \n' < "$j" > jj
grep -q '"valgrind_instructions":\[1000,1000\],"valgrind_i1_misses":\[10,10\],"valgrind_d1_misses":\[20,20\],"valgrind_ll_misses":\[5,5\],"valgrind_mispredicts":\[7,7\],"valgrind_est_cycles":\[2440,2440\]' jj ||
	fail "report.json counts: $(cat "$j")"
grep -q '"valgrind_caches": "--I1=32768,8,64 --D1=49152,12,64 --LL=8388608,16,64",' "$j" ||
	fail "report.json geometry: $(cat "$j")"
grep -q '"valgrind_cost_weights": "10,200,20"$' "$j" || fail "report.json weights: $(cat "$j")"
if command -v python3 > /dev/null 2>&1; then
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$j" || fail "report.json is not JSON"
fi

# report.csv: the same, one row per sample.
c=$o/report.csv
head -n 1 "$c" | grep -q ',code_size,valgrind_instructions,valgrind_i1_misses,valgrind_d1_misses,valgrind_ll_misses,valgrind_mispredicts,valgrind_est_cycles,valgrind_caches,valgrind_cost_weights$' ||
	fail "report.csv header: $(head -n 1 "$c")"
for i in 1 2; do
	grep -q "^SingleSource/Benchmarks/tak,$i,pass,.*,1000,10,20,5,7,2440,\"--I1=32768,8,64 --D1=49152,12,64 --LL=8388608,16,64\",\"10,200,20\"\$" "$c" ||
		fail "report.csv row $i: $(cat "$c")"
done

# Without the counts: no valgrind metric, empty CSV fields.
make -s -f "$suite/Makefile" O="$tmp/plain" TIMEIT="$TIMEIT" SIZE=small SAMPLES=1 \
	BENCHMARKS=tak > table || { cat table; fail "the plain suite failed"; }
! grep -q valgrind "$tmp/plain/report.json" || fail "valgrind metrics without counts"
grep -q '^SingleSource/Benchmarks/tak,1,pass,.*,,,,,,,,$' "$tmp/plain/report.csv" ||
	fail "plain report.csv row: $(cat "$tmp/plain/report.csv")"

# make submit to nts: LNT's nts suite has no valgrind metrics, so they are
# left out of what is posted (the stand-in refuses unknown metrics).
if command -v python3 > /dev/null 2>&1 && command -v curl > /dev/null 2>&1; then
	schema=$top_srcdir/tests/lnt/nts-schema.txt
	python3 "$top_srcdir/tests/lnt-server.py" "$schema" --check "$j" 2> /dev/null &&
		fail "the stand-in takes valgrind metrics: the check below has no teeth"
	mkdir logs
	python3 "$top_srcdir/tests/lnt-server.py" "$schema" port logs --max 1 &
	spid=$!
	wait_for_file port
	LNT_ANSWER=$top_builddir/test-suite/tools/lnt-answer; export LNT_ANSWER
	expect_status 0 sh "$suite/tools/submit.sh" \
		"http://127.0.0.1:$(cat port)/db_default/v4/nts/submitRun" "$j" > out 2> err
	wait_status "$spid"
	grep -q "^submit: $j: LNT's nts suite stores no valgrind metrics: posted without them\$" out ||
		fail "no note: $(cat out err)"
	grep -q "^submit: $j: stored" out || fail "not stored: $(cat out err)"
	grep -q valgrind "$j" || fail "the report itself lost its counts"
else
	echo "python3 or curl missing: the nts submission is not checked"
fi

# A bad COUNT_INSTRUCTIONS: make says so and runs nothing.
: > args
expect_status 2 make -s -f "$suite/Makefile" O="$tmp/bad" TIMEIT="$tmp/fake-timeit" \
	SIZE=small BENCHMARKS=tak COUNT_INSTRUCTIONS=cache > out 2> err
grep -q 'COUNT_INSTRUCTIONS=cache: expected valgrind, valgrind-cache, auto or no' err ||
	fail "no COUNT_INSTRUCTIONS error: $(cat err)"
[ ! -s args ] || fail "something ran: $(cat args)"

# The real thing, when valgrind is here: the counts of qsort (one of the
# quickest at SIZE=small) in the report are the summary's.
if valgrind_runs; then
	make -s -f "$suite/Makefile" O="$tmp/real" TIMEIT="$TIMEIT" SIZE=small SAMPLES=1 \
		BENCHMARKS=qsort COUNT_INSTRUCTIONS=valgrind-cache > table ||
		{ cat table; fail "the valgrind-cache suite failed"; }
	est=$(summary_value "$tmp/real/results/qsort.1.time" valgrind-est-cycles)
	[ -n "$est" ] || fail "no est-cycles in qsort.1.time: $(cat "$tmp/real/results/qsort.1.time")"
	grep -q "\"valgrind_est_cycles\": \[$est\]" "$tmp/real/report.json" ||
		fail "report.json est-cycles is not $est: $(cat "$tmp/real/report.json")"
else
	echo "no valgrind that runs the programs built here: the real valgrind-cache run is not checked"
fi
exit 0
