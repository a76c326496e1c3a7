# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lib/drive/: the sampling driver of an A/B run (timeit-ab, make ab):
# the configuration (drive.c), the rounds and looks (drive-round.c), the
# schedules (drive-schedule.c), what a budget can decide (drive-plan.c), the runners behind one interface
# (drive-runner.h: drive-lit.c, drive-suite.c, drive-cmd.c; drive-run.c
# picks one), the
# children (drive-child.c).  Like lib/, it never exits or prints.
noinst_LIBRARIES += lib/drive/libdrive.a
lib_drive_libdrive_a_SOURCES = lib/drive/drive.h lib/drive/drive.c \
	lib/drive/drive-run.c lib/drive/drive-round.c \
	lib/drive/drive-schedule.h lib/drive/drive-schedule.c \
	lib/drive/drive-runner.h lib/drive/drive-lit.c lib/drive/drive-suite.c \
	lib/drive/drive-cmd.c \
	lib/drive/drive-compile.c lib/drive/compdb.h lib/drive/compdb.c \
	lib/drive/drive-child.h lib/drive/drive-child.c \
	lib/drive/drive-util.h lib/drive/drive-util.c \
	lib/drive/drive-resume.c lib/drive/drive-plan.c \
	lib/drive/drive-litserver.c
DRIVE_LIBS = lib/drive/libdrive.a $(AB_LIBS)
