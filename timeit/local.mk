# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit/: the programs, thin command lines over lib/.
bin_PROGRAMS += timeit/timeit
timeit_timeit_SOURCES = timeit/timeit.c timeit/options.c timeit/options.h
timeit_timeit_LDADD = lib/libtimeit.a $(PFM_LIBS)
timeit_timeit_LDFLAGS = $(AM_LDFLAGS) $(TIMEIT_LDFLAGS)
timeit_timeit_SOURCES += timeit/listing.c timeit/listing.h timeit/runreport.c timeit/runreport.h
bin_PROGRAMS += timeit/timeit-compare
timeit_timeit_compare_SOURCES = timeit/compare.c
timeit_timeit_compare_LDADD = $(AB_LIBS)
bin_PROGRAMS += timeit/timeit-series
timeit_timeit_series_SOURCES = timeit/series.c
timeit_timeit_series_LDADD = $(SERIES_LIBS)
