# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lib/ab/: the analysis wing, what timeit-compare and timeit-ab decide
# with.  Never linked into timeit itself.  Like lib/, it never exits or
# prints.
noinst_LIBRARIES += lib/ab/libab.a
lib_ab_libab_a_SOURCES = \
	lib/ab/read.c lib/ab/read.h lib/ab/read-int.h \
	lib/ab/read-summary.c lib/ab/read-timeit.c lib/ab/read-lit.c lib/ab/read-lnt.c \
	lib/ab/verdict.c lib/ab/verdict.h \
	lib/ab/report.c lib/ab/report-svg.c lib/ab/report.h lib/ab/report-int.h
AB_LIBS = lib/ab/libab.a lib/libtimeit.a $(MATH_LIBS)
