#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# --count-instructions=valgrind-cache: cachegrind's cache and branch
# simulations in the extra run.  The miss and mispredict counts,
# valgrind-est-cycles and the geometry and weights they come from are
# summary lines and JSON, identical run after run; the loop-order pair
# (same instructions, other memory walk) differs in cost.
. "$top_srcdir/tests/setup"

valgrind_runs || skip "no valgrind that runs the programs built here (not installed, or a cross build)"

W="$top_builddir/tests/vgcount-work"
: "${CC:=cc}"

# A fixed geometry, so that every machine simulates the same caches.
GEOM="--valgrind-i1 32768,8,64 --valgrind-d1 32768,8,64 --valgrind-ll 8388608,16,64"

# cache OUT ARGS...: timeit --count-instructions=valgrind-cache ARGS, summary
# in OUT, JSON in OUT.json; the command must exit 0 and nothing be said.
cache() {
	_out=$1
	shift
	"$TIMEIT" --summary "$_out" --json "$_out.json" --count-instructions=valgrind-cache \
		"$@" 2>cerr >/dev/null || fail "'$*' exited $?: $(cat cerr)"
	[ ! -s cerr ] || fail "'$*' warned: $(cat cerr)"
}

# The lines, in this order, after every other line.
keys='valgrind-instructions valgrind-i1-misses valgrind-d1-misses valgrind-ll-misses
valgrind-mispredicts valgrind-est-cycles valgrind-i1-size valgrind-i1-assoc valgrind-i1-line
valgrind-d1-size valgrind-d1-assoc valgrind-d1-line valgrind-ll-size valgrind-ll-assoc
valgrind-ll-line valgrind-weight-l1 valgrind-weight-ll valgrind-weight-mispredict'

# Two runs of one program (the machine's own geometry): the same lines.
cache s1 "$W" work 2000
cache s2 "$W" work 2000
grep '^valgrind-' s1 > v1
grep '^valgrind-' s2 > v2
[ "$(cut -d' ' -f1 v1 | tr '\n' ' ')" = "$(echo $keys) " ] ||
	fail "the valgrind lines are not the documented ones: $(cat v1)"
cmp -s v1 v2 || fail "two runs differ: $(diff v1 v2)"
tail -n 18 s1 | cmp -s - v1 || fail "the valgrind lines are not last: $(cat s1)"
grep -v '^[a-z0-9-]* [0-9][0-9]*$' v1 && fail "a value that is not a plain integer"
# The measured lines come first, as without the count.
[ "$(sed -n 1p s1)" = "exit 0" ] || fail "first line: $(sed -n 1p s1)"
lit_user s1 > /dev/null

v() { summary_value "$1" "valgrind-$2"; }

# The instruction count is the one --count-instructions=valgrind makes.
"$TIMEIT" --summary plain --count-instructions=valgrind "$W" work 2000 2>err
[ "$(summary_value plain valgrind-instructions)" = "$(v s1 instructions)" ] ||
	fail "valgrind-cache counted $(v s1 instructions) instructions, valgrind $(summary_value plain valgrind-instructions)"

# est-cycles = instructions + 10 x (I1 + D1 misses) + 200 x LL misses + 20 x
# mispredicts, from the lines of the summary itself.
want=$(awk '{ x[$1] = $2 }
	END {
		l1 = x["valgrind-i1-misses"] + x["valgrind-d1-misses"]
		c = x["valgrind-instructions"] + x["valgrind-weight-l1"] * l1
		c += x["valgrind-weight-mispredict"] * x["valgrind-mispredicts"]
		printf "%.0f", c + x["valgrind-weight-ll"] * x["valgrind-ll-misses"]
	}' v1)
[ "$(v s1 est-cycles)" = "$want" ] || fail "est-cycles $(v s1 est-cycles), the formula gives $want"
[ "$(v s1 weight-l1),$(v s1 weight-ll),$(v s1 weight-mispredict)" = "10,200,20" ] ||
	fail "default weights: $(cat v1)"
# Some misses at least: the program's code and data are loaded once.
[ "$(v s1 i1-misses)" -gt 0 ] && [ "$(v s1 d1-misses)" -gt 0 ] && [ "$(v s1 ll-misses)" -gt 0 ] &&
	[ "$(v s1 mispredicts)" -gt 0 ] || fail "no misses: $(cat v1)"

# JSON: the same numbers, cachegrind's events and the caches simulated.
tr -d ' \n' < s1.json > j
for k in instructions i1_misses d1_misses ll_misses mispredicts est_cycles; do
	key=$(echo "$k" | tr _ -)
	grep -q "\"$k\":$(v s1 "$key")[,}]" j || fail "JSON $k is not $(v s1 "$key"): $(cat j)"
done
grep -q '"cache_sim":true' j || fail "JSON cache_sim: $(cat j)"
grep -q '"cost_weights":{"l1":10,"ll":200,"mispredict":20}' j || fail "JSON cost_weights: $(cat j)"
grep -q "\"events\":{\"Ir\":$(v s1 instructions),\"I1mr\":$(v s1 i1-misses),\"ILmr\":[0-9]*,\"Dr\":[0-9]*,\"D1mr\":[0-9]*,\"DLmr\":[0-9]*,\"Dw\":[0-9]*,\"D1mw\":[0-9]*,\"DLmw\":[0-9]*,\"Bc\":[0-9]*,\"Bcm\":[0-9]*,\"Bi\":[0-9]*,\"Bim\":[0-9]*}" j ||
	fail "JSON events: $(cat j)"
for l in i1 d1 ll; do
	L=$(echo "$l" | tr a-z A-Z)
	grep -q "\"$L\":{\"size\":$(v s1 "$l-size"),\"assoc\":$(v s1 "$l-assoc"),\"line\":$(v s1 "$l-line")}" j ||
		fail "JSON caches.$L is not the summary's: $(cat j)"
done

# A geometry given is the geometry simulated and recorded.
# shellcheck disable=SC2086
cache g $GEOM "$W" work 2000
for l in i1 d1; do
	[ "$(v g "$l-size"),$(v g "$l-assoc"),$(v g "$l-line")" = "32768,8,64" ] ||
		fail "$l geometry: $(grep "^valgrind-$l" g)"
done
[ "$(v g ll-size),$(v g ll-assoc),$(v g ll-line)" = "8388608,16,64" ] ||
	fail "LL geometry: $(grep '^valgrind-ll' g)"
[ "$(v g instructions)" = "$(v s1 instructions)" ] || fail "the geometry changed the instructions"

# Other weights: 0,0,0 makes est-cycles the instruction count.
cache w0 --valgrind-cost-weights 0,0,0 "$W" work 2000
[ "$(v w0 est-cycles)" = "$(v w0 instructions)" ] || fail "weights 0,0,0: $(cat w0)"
[ "$(v w0 weight-l1),$(v w0 weight-ll),$(v w0 weight-mispredict)" = "0,0,0" ] ||
	fail "weights 0,0,0 not recorded: $(cat w0)"

# The loop-order pair, built -O1 -fno-tree-vectorize: the same instructions,
# a different walk through memory, a cost that differs by well over 10 %,
# and the same counts on every run.
$CC -O1 -fno-tree-vectorize -o ijk "$top_srcdir/tests/loop-order.c" || fail "$CC ijk failed"
$CC -O1 -fno-tree-vectorize -DJKI -o jki "$top_srcdir/tests/loop-order.c" || fail "$CC jki failed"
# shellcheck disable=SC2086
cache ijk.s $GEOM ./ijk 128
# shellcheck disable=SC2086
cache jki.s $GEOM ./jki 128
# shellcheck disable=SC2086
cache jki2.s $GEOM ./jki 128
[ "$(v ijk.s instructions)" = "$(v jki.s instructions)" ] ||
	fail "ijk ran $(v ijk.s instructions) instructions, jki $(v jki.s instructions)"
grep '^valgrind-' jki.s > j1
grep '^valgrind-' jki2.s > j2
cmp -s j1 j2 || fail "jki counted differently twice: $(diff j1 j2)"
in_range "$(v jki.s est-cycles)" "$(awk -v c="$(v ijk.s est-cycles)" 'BEGIN { printf "%.0f", c * 1.1 }')" 1e30 ||
	fail "est-cycles ijk $(v ijk.s est-cycles), jki $(v jki.s est-cycles): not 10 % apart"
echo "loop order, N=128: $(v ijk.s instructions) instructions each; est-cycles ijk $(v ijk.s est-cycles), jki $(v jki.s est-cycles)"

# A program valgrind cannot run (AVX-512, which valgrind 3.19 does not
# decode: SIGILL under valgrind, a normal exit natively) keeps the summary
# of its measured run, with a warning.
if grep -q '^flags.* avx512f' /proc/cpuinfo 2>/dev/null &&
	printf 'int main(void)\n{\n\t__asm__ volatile("vpxorq %%%%zmm0, %%%%zmm0, %%%%zmm0" ::: "xmm0");\n\treturn 0;\n}\n' > avx.c &&
	$CC -o avx avx.c 2>/dev/null && ./avx; then
	"$TIMEIT" --summary plain ./avx
	expect_status 0 "$TIMEIT" --summary s --count-instructions=valgrind-cache ./avx 2>err
	if grep -q 'ended differently under valgrind' err; then
		grep -q "^timeit: warning: --count-instructions: .*: no valgrind-instructions or cache counts\$" err ||
			fail "AVX-512 program: $(cat err)"
		[ "$(cut -d' ' -f1 s)" = "$(cut -d' ' -f1 plain)" ] || fail "AVX-512 program: $(cat s)"
	else
		echo "this valgrind runs AVX-512 code: $(cat err)"
	fi
else
	echo "no AVX-512 here: a program valgrind cannot run is tested with a stand-in (vgcount-limits.sh)"
fi

# Without --summary the lines end the report on stderr.
"$TIMEIT" --count-instructions=valgrind-cache "$W" work 10 2>rep || fail "report run failed"
grep -q '^valgrind-est-cycles [0-9][0-9]*$' rep || fail "no est-cycles in the report: $(cat rep)"
exit 0
