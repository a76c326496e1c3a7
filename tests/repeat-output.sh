#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# --repeat/--warmup send the program's stdout to /dev/null, as hyperfine
# does; --all-output shows every run's; a redirected stdout holds one
# run's output; a single run keeps its stdout (the drop-in timeit).
. "$top_srcdir/tests/setup"

cat >run.sh <<'EOS'
echo x >>count
echo "out $(wc -l <count)"
echo "err" >&2
EOS

"$TIMEIT" --repeat 3 --warmup 1 sh run.sh >out 2>err || fail "repeat run failed"
[ "$(wc -l <count)" -eq 4 ] || fail "ran $(wc -l <count) times, want 4"
[ ! -s out ] || fail "stdout of a repeated run: '$(cat out)', want none"
# stderr is left to every run: a failing run's message is not hidden.
[ "$(grep -c '^err$' err)" -eq 4 ] || fail "stderr lines: $(grep -c '^err$' err), want 4"

rm -f count
"$TIMEIT" --repeat 3 --all-output sh run.sh >out 2>/dev/null || fail "--all-output run failed"
[ "$(grep -c '^out' out)" -eq 3 ] || fail "--all-output printed '$(cat out)'"

rm -f count
"$TIMEIT" sh run.sh >out 2>/dev/null || fail "a single run failed"
[ "$(cat out)" = "out 1" ] || fail "stdout of a single run: '$(cat out)', want 'out 1'"

# The LLVM test-suite's --redirect-output: the file holds one run's output
# (the last), not N copies.
rm -f count
"$TIMEIT" --repeat 3 --redirect-output o sh run.sh >out 2>/dev/null || fail "redirect run failed"
[ "$(grep -c '^out' o)" -eq 1 ] || fail "redirected file has '$(cat o)'"
grep -q '^out 3$' o || fail "redirected file is not the last run's: '$(cat o)'"
[ ! -s out ] || fail "stdout not empty with --redirect-output: '$(cat out)'"
exit 0
