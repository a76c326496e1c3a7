/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* record.h: the measurement record, one plain struct per measured run. */
#ifndef TI_RECORD_H
#define TI_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>

#include "plan.h"

#define TI_MAX_EVENTS 32
#define TI_EVENT_NAME_MAX 64

/* The exit statuses timeit gives of its own (timeit(1), EXIT STATUS);
 * otherwise the command's exit status passes through.  One name each, for
 * lib/ and the programs alike. */
enum ti_status {
	TI_STATUS_USAGE = 1,		/* bad arguments, a result path that cannot be written */
	TI_STATUS_INTERNAL = 66,	/* set-up, fork, wait or a result write failed */
	TI_STATUS_CANNOT_EXEC = 126,	/* the command was found but cannot be executed */
	TI_STATUS_NOT_FOUND = 127,	/* the command was not found */
	TI_STATUS_SIGNALED = 128,	/* + S: the command was killed by signal S */
	/* Timeout, --limit-cpu and interrupts: timeit's SIGKILL ended it. */
	TI_STATUS_KILLED = TI_STATUS_SIGNALED + SIGKILL,
};

/* How the child ended. */
enum ti_end {
	TI_END_EXITED,		/* exit_code valid */
	TI_END_SIGNALED,	/* term_signal valid */
	TI_END_TIMEOUT,		/* --timeout reached, group killed */
	TI_END_INTERRUPTED,	/* timeit got SIGINT/SIGTERM/SIGHUP (stop_signal) */
	TI_END_EXEC_FAILED,	/* execvp failed with setup_errno */
	TI_END_SETUP_FAILED,	/* a redirect, chdir, ... failed in the child */
};

/* One counter's outcome.  value/enabled/running are the raw perf read
 * format (PERF_FORMAT_TOTAL_TIME_ENABLED | _RUNNING); scaled is
 * value * enabled / running when running > 0. */
struct ti_count {
	char name[TI_EVENT_NAME_MAX];
	int err;		/* 0 when opened, else the errno that skipped it */
	bool opened;
	bool counted;		/* opened and running > 0 */
	bool user_only;		/* reopened with exclude_kernel after EACCES/EPERM */
	bool from_rusage;	/* not a perf counter: value taken from wait4's rusage */
	bool lost;		/* opened, but detached from the tree at a privilege-
				 * changing exec (ti_record_check_lost): not counted */
	uint64_t value, enabled, running;
	double scaled;
};

/* Where user/sys came from. */
enum ti_source {
	TI_SOURCE_PERF,		/* user = task-clock */
	TI_SOURCE_RUSAGE,	/* user/sys = wait4 rusage */
};

struct ti_record {
	enum ti_end end;
	int exit_code;		/* TI_END_EXITED */
	int term_signal;	/* TI_END_SIGNALED */
	int stop_signal;	/* TI_END_INTERRUPTED */
	int setup_errno;	/* TI_END_EXEC_FAILED / TI_END_SETUP_FAILED */
	const char *setup_what;	/* "execvp", "chdir", ... */
	int status;		/* the exit status timeit reports */
	bool limit_failed[TI_LIMIT_COUNT];	/* setrlimit failed for this limit in the child */
	int no_aslr_errno;		/* --no-aslr: why personality() failed, or 0 */

	pid_t pid;
	bool group_killed;		/* processes of the command's group outlived it
					 * (killed then, as the reference does) */
	int64_t start_ns, end_ns;	/* CLOCK_MONOTONIC, before vfork and after the reap */
	int64_t start_realtime_ns, end_realtime_ns;
	struct rusage ru;		/* from wait4 on the child */
	uint64_t maxrss_bytes;

	double real_s, user_s, sys_s;	/* what the summary reports */
	enum ti_source source;

	bool tsc_valid;
	const char *tsc_kind;		/* "rdtsc", "cntvct_el0", ... */
	uint64_t tsc_ticks;

	size_t ncounts;
	struct ti_count counts[TI_MAX_EVENTS];
	int counters_err;		/* why no counter opened (errno), or 0 */
	/* The CPU time the perf counters saw, as a fraction of rusage's
	 * user + sys for the same processes (-1: no counter opened, or the
	 * command never ran), and whether that says they were lost. */
	double counters_seen;
	bool counters_lost;
};

/* The counter named NAME if it was counted, else NULL. */
const struct ti_count *ti_record_count(const struct ti_record *r, const char *name);

/* A struct timeval (rusage times) in seconds. */
static inline double ti_tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

#endif
