# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# perfwrap/: timeit-perf, timeit's contract on top of perf stat: a thin
# program over lib/ and timeit's option table; the perf found by configure
# is its default.
bin_PROGRAMS += perfwrap/timeit-perf
perfwrap_timeit_perf_SOURCES = perfwrap/timeit-perf.c timeit/options.c timeit/options.h \
	timeit/runreport.c timeit/runreport.h
perfwrap_timeit_perf_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/timeit \
	-DTIMEIT_PERF_DEFAULT='"$(PERF)"'
perfwrap_timeit_perf_LDADD = lib/libtimeit.a $(PFM_LIBS)
perfwrap_timeit_perf_LDFLAGS = $(AM_LDFLAGS) $(TIMEIT_LDFLAGS)
