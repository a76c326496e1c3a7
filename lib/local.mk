# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lib/: the library every program links.  It never exits or prints.  At
# its top, the ground floor every room stands on: buffers and strings,
# JSON written and read, CPU sets, the host's name, the clocks, result
# files written atomically, the environment's noise checks, and the
# platform seam.  The rooms above: lib/measure/ (one measured run),
# lib/stats/, lib/ab/, lib/series/, lib/drive/.
noinst_LIBRARIES += lib/libtimeit.a
lib_libtimeit_a_SOURCES = \
	lib/buf.c lib/buf.h \
	lib/clock.c lib/clock.h \
	lib/cpuset.c lib/cpuset.h \
	lib/envcheck.c lib/envcheck.h \
	lib/host.c lib/host.h \
	lib/json.c lib/json.h \
	lib/jsonread.c lib/jsonread.h \
	lib/outfile.c lib/outfile.h \
	lib/suggest.c lib/suggest.h \
	lib/util.c lib/util.h
# lib/stats/: the statistics of repeats (timeit --repeat), the analysis wing
# (lib/ab/) and the series; stats.h says which test lives where.
lib_libtimeit_a_SOURCES += lib/stats/stats.c lib/stats/stats-infer.c lib/stats/stats-rank.c \
	lib/stats/stats-shift.c lib/stats/stats-t.c lib/stats/stats.h
# The platform seam: one header, one file per system (configure chooses).
lib_libtimeit_a_SOURCES += lib/os.h
if PLATFORM_LINUX
lib_libtimeit_a_SOURCES += lib/os-linux.c lib/os-linux-env.c lib/os-linux.h
else
lib_libtimeit_a_SOURCES += lib/os-posix.c
endif
