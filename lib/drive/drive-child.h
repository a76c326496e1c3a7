/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-child.h: the driver's children (drive-child.c): a job is one run
 * of one side, started alone or with its mate at a barrier. */
#ifndef TI_DRIVE_CHILD_H
#define TI_DRIVE_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

#include "drive.h"

/* One run of one side: a child.  The runner that made it fills in what
 * it runs; the schedule, where and when. */
struct ti_drive_job {
	int side;		/* 0 A, 1 B */
	unsigned round;		/* from 1 */
	size_t unit;		/* the unit (test) it runs, SIZE_MAX: every one left */
	const char *what;	/* samples.tsv's test: its unit or benchmark, "*" for all */
	char **argv;		/* NULL in a duet: its side lacks the unit, the mate runs alone */
	char *log;		/* its stdout and stderr (NULL: the driver's) */
	char *tmp, *file;	/* its results file while it runs, and where it goes */
	/* What the child does instead of exec, after the barrier, its return
	 * the child's exit status (async-signal-safe calls only: a request
	 * to a server, drive-lit.c); NULL: exec ARGV.  RUN_ARG is freed
	 * with the job. */
	int (*run)(const struct ti_drive_job *j);
	void *run_arg;
	bool empty;		/* it left no results (the runner's done says) */
	const struct ti_cpuset *cpus;	/* NULL: not pinned */
	char cpu_text[64];
	pid_t pid;
	int status;		/* waitpid's */
	bool done;
	double t0, t1;		/* start and end, ti_drive_now */
};

/* Install (ON) or restore the stop signals' handlers. */
void ti_drive_child_signals(bool on);
/* The stop signal received since ti_drive_child_signals(true), or 0. */
int ti_drive_child_stopped(void);
/* Seconds on the monotonic clock. */
double ti_drive_now(void);
/* Set the deadline AT (ti_drive_now seconds; 0: none, and the one set
 * cleared): once it passes the running children's process groups get
 * SIGKILL and no child starts.  Returns 0 or -errno (setitimer's). */
int ti_drive_child_deadline(double at);
/* Whether the deadline set has passed. */
bool ti_drive_child_expired(void);
/* Start JOBS (N) together: with N > 1 every child waits at the barrier
 * until all are set up.  Returns 0 or -errno (none left running); -EINTR
 * when a stop signal has come or the deadline has passed (none started). */
int ti_drive_child_start(struct ti_drive_job **jobs, size_t n);
/* Wait for one of JOBS to end, and kill what is left of its process
 * group: its index, or -errno. */
int ti_drive_child_wait_any(struct ti_drive_job **jobs, size_t n);
/* Wait for job J to end (at once if it has), and kill what is left of
 * its process group. */
void ti_drive_child_wait(struct ti_drive_job *j);

#endif
