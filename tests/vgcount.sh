#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# --count-instructions=valgrind: exact, repeatable counts of the whole
# process tree, from an extra run that leaves the measured run alone.
. "$top_srcdir/tests/setup"

valgrind_runs || skip "no valgrind that runs the programs built here (not installed, or a cross build)"

W="$top_builddir/tests/vgcount-work"

# count ARGS...: the valgrind-instructions of ARGS, which must exit 0.
count() {
	"$TIMEIT" --summary cs --count-instructions=valgrind "$@" 2>cerr ||
		fail "'$*' exited $?: $(cat cerr)"
	[ ! -s cerr ] || fail "'$*' warned: $(cat cerr)"
	v=$(summary_value cs valgrind-instructions)
	[ -n "$v" ] || fail "no valgrind-instructions for '$*'"
	echo "$v"
}

# The same binary, the same count, exactly.
a=$(count "$W" work 2000)
b=$(count "$W" work 2000)
[ "$a" = "$b" ] || fail "two runs counted $a and $b"
echo "work 2000: $a"

# More work, more instructions: 2000 more rounds of 64 iterations.
c=$(count "$W" work 4000)
in_range "$c" "$((a + 1000000))" "$((a + 4000000))" ||
	fail "work 4000 counted $c, work 2000 $a"

# Two builds of one program at -O1 and -O2: different code, different counts.
: "${CC:=cc}"
$CC -O1 -o w1 "$top_srcdir/tests/vgcount-work.c" || fail "$CC -O1 failed"
$CC -O2 -o w2 "$top_srcdir/tests/vgcount-work.c" || fail "$CC -O2 failed"
o1=$(count ./w1 work 2000)
o2=$(count ./w2 work 2000)
[ "$o1" != "$o2" ] || fail "-O1 and -O2 both counted $o1"
[ "$o1" = "$(count ./w1 work 2000)" ] || fail "-O1 build counted differently twice"
echo "-O1: $o1 -O2: $o2"

# And of a bundled benchmark: one round of the test-suite's tak.
tak=$top_srcdir/test-suite/SingleSource/Benchmarks/tak.c
$CC -O1 -o tak1 "$tak" -lm || fail "$CC -O1 tak.c failed"
$CC -O2 -o tak2 "$tak" -lm || fail "$CC -O2 tak.c failed"
t1=$(count --redirect-output /dev/null ./tak1 1)
t2=$(count --redirect-output /dev/null ./tak2 1)
[ "$t1" != "$t2" ] || fail "tak at -O1 and -O2 both counted $t1"
echo "tak 1, -O1: $t1 -O2: $t2"

# Children that exec are counted: two children add two runs of their work
# (plus the parent's fork and wait, a few thousand instructions each).
s0=$(count "$W" spawn 0 2000)
s2=$(count "$W" spawn 2 2000)
one=$(count "$W" work 2000)
extra=$((s2 - s0 - 2 * one))
echo "spawn 0: $s0, spawn 2: $s2, child alone: $one, difference: $extra"
in_range "$extra" 0 20000 || fail "two children added $((s2 - s0)), one alone counts $one"

# A shell script's children too.
sh_two=$(count /bin/sh -c "'$W' work 2000; '$W' work 2000")
in_range "$((sh_two - 2 * one))" 0 2000000 ||
	fail "sh running two children counted $sh_two, one child $one"

# The measured run's output files stay its own: one "hello", the exit
# line, no valgrind text; the count is there.
"$TIMEIT" --summary s --count-instructions=valgrind --redirect-output out \
	--append-exitstatus "$W" print hello exit 3 2>err || fail "timeit failed: $(cat err)"
[ "$(cat out)" = "$(printf 'hello\nexit 3')" ] || fail "output file holds: $(cat out)"
[ ! -s err ] || fail "stderr: $(cat err)"
[ -n "$(summary_value s valgrind-instructions)" ] || fail "no count with --redirect-output"

# The measured status stands, and the count is made, when the command
# fails the same way under valgrind.
expect_status 3 "$TIMEIT" --summary s --count-instructions=valgrind "$W" exit 3 2>err
[ -n "$(summary_value s valgrind-instructions)" ] || fail "no count for a run that exits 3"

# A command that ends differently under valgrind: a warning, no line, the
# measured status.
expect_status 0 "$TIMEIT" --summary s --json j --count-instructions=valgrind \
	"$W" if-valgrind exit 5 2>err
grep -q "^timeit: warning: --count-instructions: the command ended differently under valgrind (exit status 5 under valgrind, 0 in the measured run): no valgrind-instructions\$" err ||
	fail "no status warning: $(cat err)"
! grep -q valgrind-instructions s || fail "a count from a different run"
grep -q '"instructions": *null' j || fail "JSON has a count: $(cat j)"
grep -q '"error": *"the command ended differently' j || fail "JSON has no error: $(cat j)"

# The extra run's own time limit.
expect_status 0 "$TIMEIT" --summary s --count-instructions=valgrind --valgrind-timeout 1 \
	"$W" if-valgrind sleep 30000 2>err
grep -q "^timeit: warning: --count-instructions: the run under valgrind timed out (after 1 s; see --valgrind-timeout): no valgrind-instructions\$" err ||
	fail "no timeout warning: $(cat err)"

# A fork without exec would count the parent twice: refused, not wrong.
expect_status 0 "$TIMEIT" --summary s --count-instructions=valgrind "$W" fork 1 10 2>err
grep -q "forked without exec" err || fail "no fork warning: $(cat err)"
! grep -q valgrind-instructions s || fail "a count for a fork without exec"

# A process killed with the group when the command returned never wrote
# its count: the sum would lack it, so there is none.
expect_status 0 "$TIMEIT" --summary s --count-instructions=valgrind "$W" orphan 30000 2>err
grep -q "^timeit: warning: --count-instructions: a process under valgrind was killed before it could write its count: no valgrind-instructions\$" err ||
	fail "no incomplete warning: $(cat err)"
! grep -q valgrind-instructions s || fail "a count that lacks a process"

# JSON: the count, the tool, valgrind's version, the extra run's time.
"$TIMEIT" --summary s --json j --count-instructions=valgrind "$W" work 2000 2>err
v=$(valgrind --version | sed 's/^valgrind-//')
tr -d ' \n' <j >jj
grep -q "\"valgrind\":{\"tool\":\"cachegrind\",\"valgrind\":\"/[^\"]*\",\"version\":\"$v\",\"cache_sim\":false,\"instructions\":$one,\"processes\":1,\"real\":[0-9.e-]*,\"timeout\":0}" jj ||
	fail "JSON valgrind object: $(cat j)"

# The extra run's time limit is the measured run's --timeout (never a
# multiple of it); --valgrind-timeout sets another.
# (60 s: valgrind starts in well under that even on a loaded machine.)
"$TIMEIT" --summary s --json j --timeout 60 --count-instructions=valgrind "$W" work 10 2>err
tr -d ' \n' <j | grep -q '"valgrind":{[^}]*"timeout":60[,}]' || fail "--timeout 60: $(cat j)"
"$TIMEIT" --summary s --json j --timeout 3 --valgrind-timeout 0 --count-instructions=valgrind \
	"$W" work 10 2>err
tr -d ' \n' <j | grep -q '"valgrind":{[^}]*"timeout":0}' || fail "--valgrind-timeout 0: $(cat j)"

# auto: without a PMU counting instructions, valgrind.
"$TIMEIT" --summary s --count-instructions=auto "$W" work 2000 2>err
if grep -q '^instructions ' s; then
	! grep -q valgrind-instructions s || fail "auto ran valgrind although perf counted"
else
	[ "$(summary_value s valgrind-instructions)" = "$one" ] || fail "auto: $(cat s)"
fi
exit 0
