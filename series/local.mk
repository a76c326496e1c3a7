# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# series/: timeit-series, the change points of a nightly history: a thin
# command line over lib/series.
bin_PROGRAMS += series/timeit-series
series_timeit_series_SOURCES = series/timeit-series.c
series_timeit_series_LDADD = $(SERIES_LIBS)
