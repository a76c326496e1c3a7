/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-int.h: what the files of lib/drive share: the children
 * (drive-run.c) and the runners (drive-lit.c). */
#ifndef TI_DRIVE_INT_H
#define TI_DRIVE_INT_H

#include <stdbool.h>
#include <sys/types.h>

#include "drive.h"

/* One run of one side: a child. */
struct ti_drive_job {
	int side;		/* 0 A, 1 B */
	size_t unit;		/* the unit (test) it runs, SIZE_MAX: every one left */
	char **argv;
	char *log;		/* its stdout and stderr (NULL: the driver's) */
	char *tmp, *file;	/* lit: the -o file while it runs, and where it goes */
	const struct ti_cpuset *cpus;	/* NULL: not pinned */
	char cpu_text[64];
	pid_t pid;
	int status;		/* waitpid's */
	bool done;
	double t0, t1;		/* start and end, ti_drive_now */
};

/* Install (ON) or restore the stop signals' handlers. */
void ti_drive_signals(bool on);
/* The stop signal received since ti_drive_signals(true), or 0. */
int ti_drive_stopped(void);
double ti_drive_now(void);
/* Start JOBS (N) together: with N > 1 every child waits at the barrier
 * until all are set up.  Returns 0 or -errno (none left running); -EINTR
 * when a stop signal has come (none started). */
int ti_drive_start(struct ti_drive_job **jobs, size_t n);
/* Wait for one of JOBS to end: its index, or -errno. */
int ti_drive_wait_any(struct ti_drive_job **jobs, size_t n);
void ti_drive_wait_job(struct ti_drive_job *j);


#endif
