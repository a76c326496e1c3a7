#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# test-suite "make ab WHAT=compile": each side's compile_commands.json
# (make compdb, exact: the benchmark's source to CMakeFiles/NAME.dir/
# NAME.c.o with the side's CC, CPPFLAGS and CFLAGS, the link left out),
# the compiles run again in rounds by timeit-ab --compile (O/compile-ab),
# the table and CSV in O/ab-compile.txt and O/ab-compile.csv: the same
# flags on both sides are "same binary" after round 1, a "compiler" that
# spins before it compiles regressed (a reported regression fails make ab
# only with AB_GATE=yes); WHAT other than run or compile is refused.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
unset MAKEFLAGS MFLAGS MAKELEVEL
suite=$top_srcdir/test-suite
compare=$top_builddir/compare/timeit-compare
[ -x "$compare" ] || skip "timeit-compare is not built in $top_builddir"
command -v "${CC:-cc}" > /dev/null 2>&1 || skip "no C compiler (${CC:-cc})"
srcdir=$(cd "$suite" && pwd)
run() {
	make -s -f "$suite/Makefile" ab WHAT=compile TIMEIT="$TIMEIT" TIMEIT_COMPARE="$compare" \
		COMPARE_FLAGS=--no-color SCHEDULE=sequential BENCHMARKS='hash tak' "$@"
}

# The same flags on both sides: decided after round 1.
run O="$tmp/same" SAMPLES=auto BASE="CC=${CC:-cc} CFLAGS=-O1" NEW="CFLAGS=-O1 CC=${CC:-cc}" \
	> same.out 2> same.err || fail "same flags: $(cat same.out same.err)"
for b in hash tak; do
	grep -Eq "^$b +1 +1 .* unchanged +same binary" same.out || fail "$b not same: $(cat same.out)"
	grep -q "^$b,1,1,.*,unchanged," "$tmp/same/ab-compile.csv" ||
		fail "$b: ab-compile.csv: $(cat "$tmp/same/ab-compile.csv")"
done
grep -q '^metric compile_time' "$tmp/same/ab-compile.txt" || fail "no table in ab-compile.txt"
[ -d "$tmp/same/compile-ab/A/results/1" ] || fail "timeit-ab's output not in O/compile-ab"
cat > want <<EOS
[
{"directory": "$tmp/same/A", "file": "$srcdir/SingleSource/Benchmarks/hash.c", "output": "CMakeFiles/hash.dir/hash.c.o",
 "arguments": ["${CC:-cc}", "-O1", "-c", "-o", "CMakeFiles/hash.dir/hash.c.o", "$srcdir/SingleSource/Benchmarks/hash.c"]},
{"directory": "$tmp/same/A", "file": "$srcdir/SingleSource/Benchmarks/tak.c", "output": "CMakeFiles/tak.dir/tak.c.o",
 "arguments": ["${CC:-cc}", "-O1", "-c", "-o", "CMakeFiles/tak.dir/tak.c.o", "$srcdir/SingleSource/Benchmarks/tak.c"]}
]
EOS
cmp -s want "$tmp/same/A/compile_commands.json" ||
	fail "compile_commands.json: $(diff want "$tmp/same/A/compile_commands.json")"

# A slower "compiler": a busy loop, then cc.  Regressed; with AB_GATE=no
# make ab still succeeds, with the gate it fails.
cat > spin-cc <<EOS
#!/bin/sh
i=0; while [ \$i -lt 150000 ]; do i=\$((i + 1)); done
exec ${CC:-cc} "\$@"
EOS
chmod +x spin-cc
run O="$tmp/slow" SAMPLES=auto MAX_SAMPLES=12 AB_GATE=no BASE="CC=${CC:-cc} CFLAGS=-O1" \
	NEW="CC=$tmp/spin-cc CFLAGS=-O1" > slow.out 2> slow.err || fail "slow, AB_GATE=no: $(cat slow.out slow.err)"
for b in hash tak; do
	grep -Eq "^$b .* regressed" slow.out || fail "$b not regressed: $(cat slow.out)"
done
expect_status 2 run O="$tmp/gate" SAMPLES=auto MAX_SAMPLES=12 BASE="CC=${CC:-cc} CFLAGS=-O1" \
	NEW="CC=$tmp/spin-cc CFLAGS=-O1" > gate.out 2> gate.err
grep -Eq "^hash .* regressed" gate.out || fail "gate: $(cat gate.out gate.err)"

# WHAT: run or compile.
expect_status 2 make -s -f "$suite/Makefile" ab WHAT=link O="$tmp/bad" TIMEIT="$TIMEIT" \
	TIMEIT_COMPARE="$compare" > bad.out 2> bad.err
grep -q 'WHAT=link: expected run or compile' bad.err || fail "WHAT=link: $(cat bad.err)"
[ ! -e "$tmp/bad" ] || fail "WHAT=link: O made"
exit 0
