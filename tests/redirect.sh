#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# --redirect-input/-output/-stdout/-stderr and --chdir: where the command's
# streams go and where it runs.  Relative paths are timeit's, not the
# command's after --chdir.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"

# check FILE LINES...: FILE holds exactly LINES.
check() {
	c_file=$1
	shift
	printf '%s\n' "$@" | cmp -s - "$c_file" || fail "$c_file is '$(cat "$c_file")', expected '$*'"
}

# --redirect-output: stdout and stderr share one fd, so their writes stay in
# order; the file is truncated first.
echo "old content that is longer than the new" >both
expect_status 0 "$TIMEIT" --summary s --redirect-output both \
	"$AUX" print 1 eprint 2 print 3 eprint 4 >out 2>err
check both 1 2 3 4
[ ! -s out ] || fail "--redirect-output: stdout got '$(cat out)'"
[ ! -s err ] || fail "--redirect-output: stderr got '$(cat err)'"

# Separate files.
expect_status 0 "$TIMEIT" --summary s --redirect-stdout o1 --redirect-stderr e1 \
	"$AUX" print 1 eprint 2 print 3 eprint 4 >out 2>err
check o1 1 3
check e1 2 4
[ ! -s out ] || fail "separate redirects: stdout got '$(cat out)'"
[ ! -s err ] || fail "separate redirects: stderr got '$(cat err)'"

# Both naming the same path share one fd (no overwriting each other).
expect_status 0 "$TIMEIT" --summary s --redirect-stdout same --redirect-stderr same \
	"$AUX" print 1 eprint 2 print 3 eprint 4
check same 1 2 3 4
# So do two spellings of the same file (./same, a symlink), which the
# reference opens twice, each stream overwriting the other.
expect_status 0 "$TIMEIT" --summary s --redirect-stdout same --redirect-stderr ./same \
	"$AUX" print 1 eprint 2 print 3 eprint 4
check same 1 2 3 4
ln -s same same.link
expect_status 0 "$TIMEIT" --summary s --redirect-stdout same.link --redirect-stderr same \
	"$AUX" print 1 eprint 2 print 3 eprint 4
check same 1 2 3 4

# --redirect-stderr alone works (DECISION: it crashes the reference) and
# leaves stdout alone; likewise --redirect-stdout alone.
expect_status 0 "$TIMEIT" --summary s --redirect-stderr e2 "$AUX" print 1 eprint 2 >out 2>err
check e2 2
check out 1
[ ! -s err ] || fail "--redirect-stderr alone: stderr got '$(cat err)'"
expect_status 0 "$TIMEIT" --summary s --redirect-stdout o2 "$AUX" print 1 eprint 2 >out 2>err
check o2 1
check err 2
[ ! -s out ] || fail "--redirect-stdout alone: stdout got '$(cat out)'"
# --redirect-output with a separate --redirect-stderr: stderr goes there.
expect_status 0 "$TIMEIT" --summary s --redirect-output o3 --redirect-stderr e3 \
	"$AUX" print 1 eprint 2
check o3 1
check e3 2

# --redirect-input feeds stdin, byte for byte.
printf 'line one\n\ttabbed\nno newline at end' >in
expect_status 0 "$TIMEIT" --summary s --redirect-input in "$AUX" cat >out
cmp -s in out || fail "--redirect-input: the command read '$(cat out)'"
expect_status 0 "$TIMEIT" --summary s --redirect-input /dev/null "$AUX" cat >out
[ ! -s out ] || fail "--redirect-input /dev/null: the command read '$(cat out)'"
# Without --redirect-input the command reads timeit's stdin.
printf 'piped\n' | "$TIMEIT" --summary s "$AUX" cat >out
check out piped
# All three at once, as lit's RUN lines use them.
expect_status 0 "$TIMEIT" --summary s --redirect-input in --redirect-output all \
	"$AUX" cat eprint end
printf '\n' >>in
check all "line one" "	tabbed" "no newline at endend"

# The command gets no file descriptor that timeit did not inherit (the
# summary's temporary file, timeit's pipes and counters are close-on-exec).
# What the test itself inherited (make's jobserver...) is passed on.
"$AUX" fds >fds.direct
expect_status 0 "$TIMEIT" --summary s --json j --redirect-input in --redirect-output fds \
	-q -e task-clock,page-faults "$AUX" fds
cmp -s fds.direct fds || fail "the command got extra fds: $(cat fds), without timeit: $(cat fds.direct)"
expect_status 0 "$TIMEIT" --summary s "$AUX" fds >fds.plain
cmp -s fds.direct fds.plain || fail "the command got extra fds: $(cat fds.plain)"

# --chdir runs the command there; relative redirect, summary and JSON paths
# are relative to timeit's working directory, not the command's.
mkdir -p work/sub
printf 'input\n' >rel-in
expect_status 0 "$TIMEIT" --chdir work/sub --summary rel.time --json rel.json \
	--redirect-input rel-in --redirect-output rel.out "$AUX" pwd cat
check rel.out "$(cd work/sub && pwd -P)" input
[ -s rel.time ] || fail "--summary with --chdir was not written relative to timeit's cwd"
[ -s rel.json ] || fail "--json with --chdir was not written relative to timeit's cwd"
for f in rel.time rel.json rel.out; do
	[ ! -e "work/sub/$f" ] || fail "$f was written in the --chdir directory"
done
# The command itself is looked up as given: a relative command path is
# relative to the new directory (execvp runs after chdir).
cp "$AUX" work/sub/aux-copy
expect_status 0 "$TIMEIT" --chdir work/sub --summary s ./aux-copy pwd >out
check out "$(cd work/sub && pwd -P)"

# A redirect into a directory that does not exist: 66, nothing run, and
# the error names the path.
rm -f pf
expect_status 66 "$TIMEIT" --summary s --redirect-stdout nodir/o "$AUX" pidfile pf 2>err
[ ! -e pf ] || fail "the command ran without its output file"
grep -q 'nodir/o' err || fail "a failed --redirect-stdout is not named: $(cat err)"
exit 0
