# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lib/series/: a history of runs and its change points (timeit-series).
# Like lib/, it never exits or prints.
noinst_LIBRARIES += lib/series/libseries.a
lib_series_libseries_a_SOURCES = lib/series/series.h \
	lib/series/series-history.c lib/series/series-cpoint.c lib/series/series-analyze.c \
	lib/series/series-report.c lib/series/series-svg.c lib/series/series-lnt.c
SERIES_LIBS = lib/series/libseries.a $(AB_LIBS)
