# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# man/: manual pages.
dist_man_MANS += man/timeit.1
dist_man_MANS += man/timeit-compare.1
dist_man_MANS += man/timeit-perf.1
dist_man_MANS += man/timeit-ab.1
dist_man_MANS += man/timeit-series.1
