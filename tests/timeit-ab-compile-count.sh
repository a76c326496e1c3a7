#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-ab --compile --count valgrind: from round 2 on, each unit whose
# round-1 compiles took under --count-under seconds (real) on both sides
# runs under timeit --count-instructions=valgrind too: its summaries of
# rounds 2 and later have a valgrind-instructions line, round 1's none,
# and timeit-compare -m compile_valgrind-instructions compares them; a
# limit no compile is under counts nothing.  Wrong use (the count as the
# driver's metric among them): one line, status 2.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
command -v "${CC:-cc}" > /dev/null 2>&1 || skip "no C compiler (${CC:-cc})"
command -v valgrind > /dev/null 2>&1 || skip "no valgrind in PATH"

mkdir src
printf 'int f(int x) { return x * 2; }\n' > src/a.c
# Two compilers alike but for their paths: not the same binary, so round
# 2 runs.
for c in one two; do
	printf '#!/bin/sh\nexec %s "$@"\n' "${CC:-cc}" > "$c"
	chmod +x "$c"
done
tree() {
	mkdir -p "$1/p/CMakeFiles/p.dir"
	printf '[{"directory": "%s/p", "arguments": ["%s", "-O0", "-c", "-o", "CMakeFiles/p.dir/a.c.o", "%s/src/a.c"], "file": "%s/src/a.c"}]\n' \
		"$tmp/$1" "$2" "$tmp" "$tmp" > "$1/compile_commands.json"
}
tree A "$tmp/one"
tree B "$tmp/two"

expect_status 0 "$ab" -q -o O1 -n 2 -C --min-change=1000 --count valgrind --count-under 1000 \
	--compile A B > out 2> err || fail "--count valgrind: $(cat out err)"
for s in A B; do
	[ -z "$(summary_value "O1/$s/results/1/CMakeFiles/p.dir/0.o.time" valgrind-instructions)" ] ||
		fail "$s: round 1 counted"
	n=$(summary_value "O1/$s/results/2/CMakeFiles/p.dir/0.o.time" valgrind-instructions)
	[ "${n:-0}" -gt 0 ] || fail "$s: round 2 not counted: $(cat "O1/$s/results/2/CMakeFiles/p.dir/0.o.time")"
done
"$top_builddir/compare/timeit-compare" -m compile_valgrind-instructions O1/A/results O1/B/results \
	> out 2> err || fail "the count compared: $(cat out err)"
grep -Eq '^p +1 +1 ' out || fail "one counted round a side: $(cat out)"

# A limit under every compile: nothing counted.
expect_status 0 "$ab" -q -o O2 -n 2 -C --min-change=1000 --count valgrind --count-under 0.001 \
	--compile A B > out 2> err || fail "--count-under 0.001: $(cat out err)"
[ -z "$(summary_value O2/A/results/2/CMakeFiles/p.dir/0.o.time valgrind-instructions)" ] ||
	fail "a unit over the limit counted"

# Wrong use: one line, status 2.
expect_status 2 "$ab" -q -o O7 --count valgrind -C --metric=compile_valgrind-instructions \
	--compile A B > out 2> err
grep -q '^timeit-ab: --metric compile_valgrind-instructions: round 1 is not counted' err ||
	fail "the count as the driver's metric: $(cat err)"
expect_status 2 "$ab" -q -o O3 --count perf --compile A B > out 2> err
grep -q "^timeit-ab: --count: expected valgrind, not 'perf'$" err || fail "--count perf: $(cat err)"
expect_status 2 "$ab" -q -o O4 --count valgrind --cmd true --cmd true > out 2> err
grep -q '^timeit-ab: --count: only with --compile$' err || fail "--count alone: $(cat err)"
expect_status 2 "$ab" -q -o O5 --count-under 3 --compile A B > out 2> err
grep -q '^timeit-ab: --count-under: only with --count valgrind$' err || fail "--count-under alone: $(cat err)"
expect_status 2 "$ab" -q -o O6 --count valgrind --count-under x --compile A B > out 2> err
grep -q "^timeit-ab: --count-under: expected a number, not 'x'$" err || fail "--count-under x: $(cat err)"
exit 0
