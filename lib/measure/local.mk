# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lib/measure/: the path of one measured run (timeit, timeit-perf): the
# plan and the record, the child started, released and reaped (spawn),
# the counters and their event names, the summary file (its one owner),
# the noise flags, the instruction counts under valgrind, perf stat's CSV
# and the repeats.  Part of lib/libtimeit.a.
lib_libtimeit_a_SOURCES += \
	lib/measure/plan.h lib/measure/record.h \
	lib/measure/measure.c lib/measure/measure.h \
	lib/measure/spawn.c lib/measure/spawn-child.c lib/measure/spawn-wrap.c \
	lib/measure/spawn.h lib/measure/spawn-int.h \
	lib/measure/counters.c lib/measure/counters.h \
	lib/measure/events.c lib/measure/events.h \
	lib/measure/pfm.c lib/measure/pfm.h \
	lib/measure/summary.c lib/measure/summary.h \
	lib/measure/noise.c lib/measure/noise.h \
	lib/measure/vgcount.c lib/measure/vgcount-parse.c lib/measure/vgcount.h \
	lib/measure/perfcsv.c lib/measure/perfcsv.h \
	lib/measure/repeat.c lib/measure/repeat.h
