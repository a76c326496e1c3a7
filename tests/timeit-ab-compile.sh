#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-ab --compile BUILD_A BUILD_B: the compiles of two build trees
# (their compile_commands.json, one with "command", one with "arguments")
# run again under timeit in rounds.  Two "compilers" wrap cc, one after a
# busy loop: program p's compile_time (the sum of its two units a round)
# regressed, status 1, the trees untouched (outputs and -MF to scratch);
# the same compiler and arguments in two trees: same binary after round 1;
# --per-unit: a row a unit; a unit that fails to compile on a side is a
# failed sample; a unit only one tree compiles makes its program missing;
# a tree without a database is one line and status 2, as is an option
# after the trees (saying where options go).
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compile_sources fast
printf 'int h(int x) { return x - 1; }\n' > src/q.c
# The slow one: a busy loop first (several times a compile of these),
# and q.c refused.
cat > slow <<EOF
#!/bin/sh
case "\$*" in *q.c*) echo "slow: q.c refused" >&2; exit 1 ;; esac
i=0; while [ \$i -lt 150000 ]; do i=\$((i + 1)); done
exec ${CC:-cc} "\$@"
EOF
chmod +x slow

# tree DIR COMPILER [UNITS]: a build tree as CMake lays it out.
tree() {
	mkdir -p "$1/p/CMakeFiles/p.dir" "$1/q/CMakeFiles/q.dir"
	{
		printf '[\n'
		printf '{"directory": "%s/p", "command": "%s -O2 -c -MD -MT CMakeFiles/p.dir/a.c.o -MF CMakeFiles/p.dir/a.c.o.d -o CMakeFiles/p.dir/a.c.o %s/src/a.c", "file": "%s/src/a.c", "output": "CMakeFiles/p.dir/a.c.o"},\n' \
			"$tmp/$1" "$2" "$tmp" "$tmp"
		printf '{"directory": "%s/p", "arguments": ["%s", "-O2", "-c", "-o", "CMakeFiles/p.dir/b.c.o", "src/b.c"], "file": "src/b.c"}' \
			"$tmp/$1" "$2"
		[ "${3:-}" = noq ] || printf ',\n{"directory": "%s/q", "arguments": ["%s", "-c", "-o", "CMakeFiles/q.dir/q.c.o", "%s/src/q.c"], "file": "%s/src/q.c"}' \
			"$tmp/$1" "$2" "$tmp" "$tmp"
		printf '\n]\n'
	} > "$1/compile_commands.json"
	ln -s "$tmp/src" "$1/p/src"
}
tree A "$tmp/fast"
tree B "$tmp/slow"
tree C "$tmp/fast"

# A slower compiler: p regressed, q failed on B, status 1.
expect_status 1 "$ab" -q -o O1 --compile A B > out 2> err || fail "A B: $(cat out err)"
grep -Eq '^p +[0-9]+ +[0-9]+ .* regressed' out || fail "p not regressed: $(cat out)"
grep -Eq '^q .* failed' out || fail "q not failed: $(cat out)"
grep -q '^metric compile_time' out || fail "metric: $(cat out)"
[ -z "$(find A/p/CMakeFiles A/q/CMakeFiles B/p/CMakeFiles -type f)" ] ||
	fail "the trees written: $(find A B -path '*CMakeFiles*' -type f)"
[ -s O1/A/scratch/0.d ] || fail "-MF not to scratch: $(ls O1/A/scratch)"
grep -q 'q.c refused' O1/B/logs/2.1.log || fail "the compiler's log: $(ls O1/B/logs)"
# Each round of p is one sample, the sum of its two units.
a1=$(summary_value O1/A/results/1/CMakeFiles/p.dir/0.o.time user)
b1=$(summary_value O1/A/results/1/CMakeFiles/p.dir/1.o.time user)
"$top_builddir/compare/timeit-compare" --format csv -m compile_time O1/A/results O1/B/results \
	> sum.csv || :
rounds=$(awk -F '\t' '$1 == "p" { print $2 }' O1/stop.tsv)
[ "$(csv_field sum.csv p n_a)" = "$rounds" ] || fail "p: not a sample a round: $(cat sum.csv)"
[ -n "$a1" ] || fail "no summary of a.c"
[ -n "$b1" ] || fail "no summary of b.c"

# The same compiler and arguments in two trees: same binary after round 1.
expect_status 0 "$ab" -q -o O2 --compile A C > out 2> err || fail "A C: $(cat out err)"
grep -Eq '^p +1 +1 .* unchanged +same binary' out || fail "identity: $(cat out)"
grep -Eq '^p +1 +same binary' out || fail "identity, rounds: $(cat out)"

# The other metrics of the compiles, by -C --metric: the summaries keep
# each unit's real and maxrss lines.
expect_status 0 "$ab" -q -o O2w -C --metric=compile_wall --compile A C > out 2> err ||
	fail "compile_wall: $(cat out err)"
grep -q '^metric compile_wall' out || fail "compile_wall: $(cat out)"
grep -Eq '^p +1 +1 .* unchanged +same binary' out || fail "compile_wall identity: $(cat out)"
for k in real maxrss; do
	[ -n "$(summary_value O2w/A/results/1/CMakeFiles/p.dir/0.o.time $k)" ] || fail "no $k line"
done

# A row a unit.
expect_status 0 "$ab" -q -o O3 -n 2 --per-unit --compile A C > out 2> err ||
	fail "--per-unit: $(cat out err)"
for row in 'p:a\.c' 'p:b\.c' 'q:q\.c'; do
	grep -q "^$row " out || fail "--per-unit rows: $(cat out)"
done

# A unit only A compiles: its program is missing, named.
mkdir D && tree D "$tmp/fast" noq
expect_status 0 "$ab" -q -o O4 -n 2 --compile A D > out 2> err || fail "A D: $(cat out err)"
grep -q "^q .*missing: $tmp/src/q.c compiled in A only" out || fail "one-sided unit: $(cat out)"

# Wrong input: one line, status 2, nothing made.
mkdir E
expect_status 2 "$ab" -q -o O5 --compile A E > out 2> err
[ "$(wc -l < err)" -eq 1 ] || fail "no database: not one line: $(cat err)"
grep -q "^timeit-ab: E/compile_commands.json: No such file" err || fail "no database: $(cat err)"
[ ! -e O5 ] || fail "no database: -o made"
echo '{"x": 1}' > E/compile_commands.json
expect_status 2 "$ab" -q -o O6 --compile A E > out 2> err
grep -q "compile_commands.json: an object, not an array of compile commands" err ||
	fail "not a database: $(cat err)"
expect_status 2 "$ab" -q -o O7 --per-unit A C > out 2> err
grep -q '^timeit-ab: --per-unit: only with --compile$' err || fail "--per-unit alone: $(cat err)"
# An option or a tree too many after the trees: where options go, not
# lit's "--".  A line: the word named, then the arguments.
while read -r word args; do
	# shellcheck disable=SC2086 # $args: the words, split on purpose
	expect_status 2 "$ab" -q -o O8 $args > out 2> err < /dev/null
	[ "$(cat err)" = "timeit-ab: '$word': with --compile, options go before --compile BUILD_A BUILD_B, and nothing after them" ] ||
		fail "$args: $(cat err)"
	[ ! -e O8 ] || fail "$args: -o made"
done <<'EOS'
-n --compile A C -n 2
--compile A C --compile
D --compile A C D
EOS
exit 0
