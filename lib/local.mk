# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lib/: the measurement library.  It never exits or prints.
noinst_LIBRARIES += lib/libtimeit.a
lib_libtimeit_a_SOURCES = \
	lib/buf.c lib/buf.h \
	lib/clock.c lib/clock.h \
	lib/counters.c lib/counters.h \
	lib/events.c lib/events.h \
	lib/host.c lib/host.h \
	lib/json.c lib/json.h \
	lib/measure.c lib/measure.h \
	lib/outfile.c lib/outfile.h \
	lib/plan.h lib/record.h \
	lib/spawn.c lib/spawn.h \
	lib/summary.c lib/summary.h \
	lib/util.c lib/util.h
lib_libtimeit_a_SOURCES += lib/pfm.c lib/pfm.h
# lib/stats/: the statistics of repeats (timeit --repeat), the analysis wing
# (lib/ab/) and the series; stats.h says which test lives where.
lib_libtimeit_a_SOURCES += lib/stats/stats.c lib/stats/stats-infer.c lib/stats/stats-rank.c \
	lib/stats/stats-shift.c lib/stats/stats-t.c lib/stats/stats.h
lib_libtimeit_a_SOURCES += lib/jsonread.c lib/jsonread.h
# timeit-perf: perf stat's CSV.
lib_libtimeit_a_SOURCES += lib/perfcsv.c lib/perfcsv.h
lib_libtimeit_a_SOURCES += lib/repeat.c lib/repeat.h
# Issue 8: instruction counts under valgrind.
lib_libtimeit_a_SOURCES += lib/vgcount.c lib/vgcount.h
lib_libtimeit_a_SOURCES += lib/cpuset.c lib/cpuset.h
lib_libtimeit_a_SOURCES += lib/envcheck.c lib/envcheck.h
lib_libtimeit_a_SOURCES += lib/noise.c lib/noise.h
# The platform seam: one header, one file per system (configure chooses).
lib_libtimeit_a_SOURCES += lib/os.h
if PLATFORM_LINUX
lib_libtimeit_a_SOURCES += lib/os-linux.c
else
lib_libtimeit_a_SOURCES += lib/os-posix.c
endif
