#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-ab --compile over commands that carry a launcher, as the LLVM
# test-suite's own trees do ("TREE/tools/timeit --summary F.o.time
# COMPILER ...", from its RULE_LAUNCH_COMPILE) and as ccache users' do:
# the launcher is dropped, so what runs and is timed is the compiler, the
# launcher writes nothing into the tree, and two trees of one compiler
# are the same binary after round 1 (each tree's launcher is its own
# file).  A launcher's --chdir moves the compile.  --no-identity samples
# the two trees anyway.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compile_sources cc

# tree DIR: a tree whose launchers (its own timeit, a ccache) leave a
# mark in the tree when they run.
tree() {
	mkdir -p "$1/tools" "$1/p/CMakeFiles/p.dir" "$1/sub"
	cat > "$1/tools/timeit" <<EOF
#!/bin/sh
echo ran > "$tmp/$1/launcher-ran"
while [ "\$1" != "${CC:-cc}" ] && [ "\$1" != "$tmp/cc" ]; do shift; done
exec "\$@"
EOF
	cat > "$1/tools/ccache" <<EOF
#!/bin/sh
echo ran > "$tmp/$1/ccache-ran"
exec "\$@"
EOF
	chmod +x "$1/tools/timeit" "$1/tools/ccache"
	cat > "$1/compile_commands.json" <<EOF
[
{"directory": "$tmp/$1", "command": "$tmp/$1/tools/timeit --summary p/CMakeFiles/p.dir/a.c.o.time $tmp/cc -O2 -o p/CMakeFiles/p.dir/a.c.o -c $tmp/src/a.c", "file": "$tmp/src/a.c"},
{"directory": "$tmp/$1", "arguments": ["$tmp/$1/tools/ccache", "$tmp/$1/tools/timeit", "--report-maxrss", "-c", "p", "--summary", "x.time", "--", "$tmp/cc", "-O2", "-o", "CMakeFiles/p.dir/b.c.o", "-c", "$tmp/src/b.c"], "file": "$tmp/src/b.c"}
]
EOF
}
tree A
tree B

expect_status 0 "$ab" -q -o O --compile A B > out 2> err || fail "A B: $(cat out err)"
grep -Eq '^p +1 +1 .* unchanged +same binary' out || fail "identity through launchers: $(cat out)"
for f in A/launcher-ran A/ccache-ran B/launcher-ran A/p/CMakeFiles/p.dir/a.c.o.time A/p/x.time; do
	[ ! -e "$f" ] || fail "a launcher ran: $f"
done
# What was timed is the compiler, run from the launcher's --chdir.
grep -q 'chdir' O/A/bin/p 2> /dev/null && fail "the launcher in the identity: $(cat O/A/bin/p)"
[ -s O/A/results/1/CMakeFiles/p.dir/1.o.time ] ||
	fail "b.c (under --chdir p) not compiled: $(find O/A/results) $(cat O/A/logs/* 2> /dev/null)"

# --no-identity: the same trees sampled anyway, nothing decided by identity.
expect_status 0 "$ab" -q -o N -n 2 --no-identity --compile A B > out 2> err ||
	fail "--no-identity: $(cat out err)"
grep -Eq '^p +2 +2 ' out || fail "--no-identity: not 2 rounds a side: $(cat out)"
grep -q 'same binary' out && fail "--no-identity: identity used: $(cat out)"
[ -z "$(ls N/A/bin)" ] || fail "--no-identity: identity written: $(ls N/A/bin)"
exit 0
