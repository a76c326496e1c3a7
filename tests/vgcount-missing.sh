#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# --count-instructions with no valgrind to run: the documented errors, which
# need no valgrind to check.
. "$top_srcdir/tests/setup"

W="$top_builddir/tests/vgcount-work"

# An explicit count that cannot happen fails before the command runs.
expect_status 1 "$TIMEIT" --count-instructions=valgrind --valgrind "$tmp/no-valgrind" \
	"$W" print ran >out 2>err
grep -q "^timeit: --valgrind: $tmp/no-valgrind: not an executable file\$" err ||
	fail "no --valgrind error: $(cat err)"
[ ! -s out ] || fail "the command ran although valgrind is missing"

# An empty --valgrind is not "look in PATH" (that is leaving it out).
expect_status 1 "$TIMEIT" --count-instructions=valgrind --valgrind '' "$W" print ran >out 2>err
grep -q "^timeit: --valgrind: the path is empty\$" err || fail "--valgrind '': $(cat err)"
[ ! -s out ] || fail "the command ran with an empty --valgrind"

expect_status 1 env PATH=/nonexistent "$TIMEIT" --count-instructions=valgrind \
	"$W" print ran >out 2>err
grep -q "^timeit: --count-instructions=valgrind: valgrind not found in PATH (install the package 'valgrind')\$" err ||
	fail "no missing-valgrind error: $(cat err)"
[ ! -s out ] || fail "the command ran although valgrind is missing"

# auto: no PMU instructions and no valgrind is a warning; the measured run's
# status and summary stand, without a valgrind-instructions line.
expect_status 3 env PATH=/nonexistent "$TIMEIT" --no-perf --count-instructions=auto \
	--summary s "$W" exit 3 2>err
grep -q "^timeit: warning: --count-instructions: valgrind not found (install the package 'valgrind'): no valgrind-instructions\$" err ||
	fail "no auto warning: $(cat err)"
[ "$(summary_value s exit)" = 3 ] || fail "summary exit is not 3"
! grep -q valgrind-instructions s || fail "a count without valgrind"

# no: nothing is looked up.
expect_status 0 env PATH=/nonexistent "$TIMEIT" --count-instructions=no --summary s "$W" 2>err
[ ! -s err ] || fail "--count-instructions=no said: $(cat err)"
! grep -q valgrind-instructions s || fail "a count with --count-instructions=no"

# A bad value names the option and the value.
expect_status 1 "$TIMEIT" --count-instructions=cachegrind "$W" 2>err
grep -q "^timeit: --count-instructions: invalid value 'cachegrind' (no, valgrind, valgrind-cache or auto)\$" err ||
	fail "no invalid-value error: $(cat err)"
exit 0
