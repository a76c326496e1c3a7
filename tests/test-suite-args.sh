#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# test-suite: what the suite passes to $(TIMEIT) (lit's arguments, in
# lit's order, --report-maxrss for LNT's mem_bytes, TIMEIT_FLAGS,
# COUNT_INSTRUCTIONS=valgrind), and fpcmp's
# tolerances (numbers within tolerance match, text must match exactly).
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
suite=$top_srcdir/test-suite

# A timeit that logs its arguments, drops the flags under test and runs
# the real one.
cat > fake-timeit <<EOS
#!/bin/sh
printf '%s\n' "\$*" >> "$tmp/args"
for a do
	shift
	case \$a in --count-instructions=*|--fake-flag) ;; *) set -- "\$@" "\$a" ;; esac
done
exec "$TIMEIT" "\$@"
EOS
chmod +x fake-timeit
make -s -f "$suite/Makefile" O="$tmp/o" TIMEIT="$tmp/fake-timeit" CFLAGS=-O2 SIZE=small SAMPLES=2 \
	BENCHMARKS=tak RUNTIMELIMIT=77 TIMEIT_FLAGS='--fake-flag' COUNT_INSTRUCTIONS=valgrind > table
grep -q 'tak  *pass  *2/2' table || fail "tak did not pass twice"
o=$tmp/o
for i in 1 2; do
	want="--timeout 77 --limit-core 0 --limit-cpu 77 --limit-file-size 209715200"
	want="$want --limit-rss-size 838860800 --report-maxrss --fake-flag --count-instructions=valgrind"
	want="$want --redirect-input /dev/null --append-exitstatus --redirect-output $o/Output/tak.$i.out"
	want="$want --summary $o/results/tak.$i.time $o/bin/tak 30"
	grep -qxF -- "$want" args || { cat args; fail "run $i: not lit's arguments"; }
done
# The compiler is whatever CC the suite was given (cc, gcc, clang...).
grep -Eq "^--summary $o/Output/tak.compile.time --redirect-output $o/Output/tak.build.log [^ ]+ -O2 " args ||
	{ cat args; fail "the compile is not timed"; }
[ "$(grep -vcx -- --version args)" -eq 3 ] || fail "expected one compile and two runs"
grep -q '"timeit_flags": "--fake-flag --count-instructions=valgrind"' "$o/report.json" ||
	fail "timeit flags not in the run info"

# Fewer samples than before: the extra summaries are removed, so that a
# comparison of the results directory cannot pick up stale runs.
make -s -f "$suite/Makefile" O="$tmp/o" TIMEIT="$tmp/fake-timeit" CFLAGS=-O2 SIZE=small SAMPLES=1 \
	BENCHMARKS=tak RUNTIMELIMIT=77 TIMEIT_FLAGS='--fake-flag' COUNT_INSTRUCTIONS=valgrind > table
[ -f "$o/results/tak.1.time" ] || fail "tak.1.time removed"
[ ! -f "$o/results/tak.2.time" ] || fail "stale tak.2.time left in the results"
[ "$(grep -vcx -- --version args)" -eq 3 ] || fail "an up-to-date sample was run again"

# RUNTIMELIMIT=0 is no limit: --timeout 0 and no --limit-cpu (a CPU limit
# of 0 s would kill every sample).
: > args
make -s -f "$suite/Makefile" O="$tmp/o0" TIMEIT="$tmp/fake-timeit" SIZE=small SAMPLES=1 \
	BENCHMARKS=tak RUNTIMELIMIT=0 > table0 || { cat table0; fail "RUNTIMELIMIT=0: tak failed"; }
grep -q -- '^--timeout 0 --limit-core 0 --limit-file-size ' args ||
	{ cat args; fail "RUNTIMELIMIT=0: not --timeout 0 without --limit-cpu"; }

# RESULTS=dir: the summaries go there (a relative path is taken from the
# directory make runs in), the reports stay in O, and timeit-compare reads it.
mkdir sub
(cd sub && make -s -f "$suite/Makefile" O="$tmp/o" RESULTS=res TIMEIT="$TIMEIT" SIZE=small \
	SAMPLES=1 BENCHMARKS=tak > table) || fail "RESULTS=res: make failed"
[ -f sub/res/tak.1.time ] || fail "RESULTS=res: no sub/res/tak.1.time"
grep -q '"execution_time": \[' "$o/report.json" || fail "RESULTS=res: report.json not in O"
"$top_builddir/compare/timeit-compare" --format csv sub/res sub/res > res.csv ||
	fail "timeit-compare cannot read RESULTS=res"
grep -q '^tak,1,1,' res.csv || fail "RESULTS=res: $(cat res.csv)"

# fpcmp: a table of STATUS FILE1 FILE2 FLAGS; a failure names its case
# row number (dash has no LINENO).
fpcmp=$o/tools/fpcmp
[ -x "$fpcmp" ] || fail "fpcmp was not built"
row=0
check() {
	row=$((row + 1))
	want=$1 a=$2 b=$3
	shift 3
	printf '%b' "$a" > a.txt
	printf '%b' "$b" > b.txt
	set +e
	"$fpcmp" "$@" a.txt b.txt 2> fpcmp.err
	got=$?
	set -e
	[ "$got" -eq "$want" ] || fail "row $row: fpcmp $* '$a' '$b' exited $got, expected $want"
}
check 0 'x 1.5\nexit 0\n' 'x 1.5\nexit 0\n'
# No tolerance: the files must be identical, as LLVM's fpcmp wants
# ("Files differ without tolerance allowance").
check 1 'x 1.5\n' 'x 1.50\n'
check 1 'x 1.0\n' 'x 1.00\n'
check 1 'x 1e3\n' 'x 1000\n'
check 1 'x 0x10\n' 'x 16\n'
check 1 'x -0\n' 'x 0\n'
check 1 'x 1.5\n' 'x 1.50\n' -r 0 -a 0
grep -q 'a.txt:1 and b.txt:1: files differ without tolerance allowance' fpcmp.err ||
	fail "no message for a difference without tolerance"
check 0 'x 1.5\n' 'x 1.50\n' -r 1e-9
check 0 'x 1e3\n' 'x 1000.0\n' -a 1e-9
check 1 'x 1.5\n' 'x 1.5001\n'
check 0 'x 1.5\n' 'x 1.5001\n' -r 1e-3
check 1 'x 1.5\n' 'x 1.51\n' -r 1e-3
check 0 'x 1.5\n' 'x 1.51\n' -a 0.02
check 1 'x 1.5\n' 'x 1.51\n' -a 0.001
check 0 'x -2.5 y\n' 'x -2.5000001 y\n' -r 1e-6
check 1 'exit 0\n' 'exit 1\n' -r 1e-3
check 1 'abc\n' 'abd\n'
check 1 'abc\n' 'abc\n\n'
check 1 'answer 42\n' 'answer 42 \n'
check 0 'fib(30) 832040\n' 'fib(30) 832040\n'
check 2 'a\n' 'a\n' -r x
check 2 'a\n' 'a\n' -a -1
grep -q "invalid tolerance '-1'" fpcmp.err || fail "no message for a negative tolerance"
check 1 'x 1.5\n' 'x 1.6\n' -a 0.01
grep -q 'a.txt:1 and b.txt:1: 1.5 and 1.6 differ' fpcmp.err || fail "fpcmp does not name the difference"
set +e
"$fpcmp" a.txt no-such-file 2> fpcmp.err
got=$?
set -e
[ "$got" -eq 2 ] || fail "missing file: status $got"
grep -q '^fpcmp: no-such-file: ' fpcmp.err || fail "missing file not named"
exit 0
