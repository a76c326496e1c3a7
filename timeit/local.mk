# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit/: timeit, a thin command line over lib/; its option table and
# its stderr report serve timeit-perf too (perfwrap/).
bin_PROGRAMS += timeit/timeit
timeit_timeit_SOURCES = timeit/timeit.c timeit/options.c timeit/options.h
timeit_timeit_LDADD = lib/libtimeit.a $(PFM_LIBS)
timeit_timeit_LDFLAGS = $(AM_LDFLAGS) $(TIMEIT_LDFLAGS)
timeit_timeit_SOURCES += timeit/listing.c timeit/listing.h timeit/runreport.c timeit/runreport.h
