# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Deliberately broken programs that check the suite's own failure handling
# (tests/test-suite.sh adds this directory to TEST_DIRS; a nightly never
# runs it).  Each must be reported as described and must not stop the rest.
BENCH_NAMES := builderr crash fptol hang wrongout

builderr_SIZE := 1
builderr_SIZE_small := 1
crash_SIZE := 1
crash_SIZE_small := 1
# fptol's output differs from its reference only within this tolerance.
fptol_SIZE := 1
fptol_SIZE_small := 1
fptol_FP_TOLERANCE := 1e-6
hang_SIZE := 1
hang_SIZE_small := 1
# hang is killed after 2 s rather than RUNTIMELIMIT.
wrongout_SIZE := 1
wrongout_SIZE_small := 1
hang_RUNTIMELIMIT := 2
