# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lib/drive/: the sampling driver of an A/B run (timeit-ab, make ab):
# rounds, schedules, looks through lib/ab's verdicts.  Like lib/, it
# never exits or prints.
noinst_LIBRARIES += lib/drive/libdrive.a
lib_drive_libdrive_a_SOURCES = lib/drive/drive.h lib/drive/drive-int.h \
	lib/drive/drive.c lib/drive/drive-run.c lib/drive/drive-lit.c
DRIVE_LIBS = lib/drive/libdrive.a $(AB_LIBS)
