# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# abrun/: timeit-ab, the adaptive A/B runner of two lit test directories
# and of make ab's rounds: a thin command line over lib/drive.
bin_PROGRAMS += abrun/timeit-ab
abrun_timeit_ab_SOURCES = abrun/timeit-ab.c abrun/timeit-ab.h abrun/ab-cmd.c abrun/ab-compile.c \
	abrun/ab-lit.c abrun/ab-suite.c
abrun_timeit_ab_LDADD = $(DRIVE_LIBS)
abrun_timeit_ab_CPPFLAGS = $(AM_CPPFLAGS) -DTI_PKGDATADIR='"$(pkgdatadir)"' \
	-DTI_SRCDIR='"$(abs_top_srcdir)"' -DTI_BUILDDIR='"$(abs_top_builddir)"'
# The long-lived lit of a duet, run with lit's own Python.
dist_pkgdata_DATA = abrun/lit-server.py
