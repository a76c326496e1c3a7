# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lib/ab/: the analysis wing, what timeit-compare and timeit-ab decide
# with.  Never linked into timeit itself.  Like lib/, it never exits or
# prints.
noinst_LIBRARIES += lib/ab/libab.a
lib_ab_libab_a_SOURCES = \
	lib/ab/set.c lib/ab/set.h \
	lib/ab/read.c lib/ab/read.h lib/ab/read-int.h lib/ab/read-value.c lib/ab/read-format.c \
	lib/ab/read-summary.c lib/ab/read-timeit.c lib/ab/read-lit.c lib/ab/read-lnt.c \
	lib/ab/verdict.c lib/ab/verdict.h lib/ab/verdict-int.h lib/ab/verdict-run.c \
	lib/ab/verdict-code.c lib/ab/verdict-pair.c lib/ab/verdict-measure.c \
	lib/ab/verdict-adjust.c lib/ab/verdict-moderate.c lib/ab/verdict-decide.c lib/ab/verdict-geomean.c \
	lib/ab/report.c lib/ab/report-svg.c lib/ab/report.h lib/ab/report-int.h \
	lib/ab/report-cell.c lib/ab/report-cell.h
AB_LIBS = lib/ab/libab.a lib/libtimeit.a $(MATH_LIBS)
