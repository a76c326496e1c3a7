# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# compare/: timeit-compare, the verdicts of two sets of result files: a
# thin command line over lib/ab.
bin_PROGRAMS += compare/timeit-compare
compare_timeit_compare_SOURCES = compare/timeit-compare.c
compare_timeit_compare_LDADD = $(AB_LIBS)
