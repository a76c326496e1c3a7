/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* counters.h: perf_event counters attached to a child before it execs. */
#ifndef TI_COUNTERS_H
#define TI_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "events.h"
#include "record.h"

struct perf_event_attr;

/* The syscall seam: tests replace these to inject errors and readings.
 * open follows perf_event_open(2): a new fd, or -1 with errno set. */
struct ti_perf_ops {
	int (*open)(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags);
	ssize_t (*read)(int fd, void *buf, size_t len);
	int (*close)(int fd);
};

/* The real system calls; NULL members of a custom table are not allowed. */
extern const struct ti_perf_ops ti_perf_sys;

struct ti_counters {
	const struct ti_perf_ops *ops;
	size_t n;
	int fd[TI_MAX_EVENTS];
	struct ti_count count[TI_MAX_EVENTS];
	int nopened;
	int first_err;		/* errno of the first failure, for the note */
	bool emfile;		/* stopped opening: too many open files */
};

/* Open EVENTS on PID with inherit and enable_on_exec, disabled: they
 * count from the next exec of PID or of a child it creates afterwards
 * (timeit passes 0, itself, then starts the command with vfork).  Each
 * event that fails is skipped and its errno recorded; EACCES/EPERM is
 * retried user-only.  Returns the number of counters opened (0 means the
 * caller falls back to rusage).  OPS NULL means ti_perf_sys. */
int ti_counters_open(struct ti_counters *c, const struct ti_perf_ops *ops,
		     const struct ti_event_list *events, pid_t pid);

/* Read and scale every opened counter into C->count.  Returns 0 or -errno. */
int ti_counters_read(struct ti_counters *c);

/* Try to open E on the calling process and close it again: 0 when a run
 * could count it (USER_ONLY set when only user-only opened), else -errno.
 * OPS NULL means ti_perf_sys. */
int ti_counters_probe(const struct ti_perf_ops *ops, const struct ti_event *e, bool *user_only);

/* Why an event could not be opened, from perf_event_open's errno ERR, in
 * perf's words where perf has them: "not supported on this machine" for
 * an event this CPU, VM or kernel does not have (perf stat's <not
 * supported>), strerror's otherwise. */
const char *ti_counters_strerror(int err);

/* Close every fd. */
void ti_counters_close(struct ti_counters *c);

/* Copy the outcomes into the record. */
void ti_counters_to_record(const struct ti_counters *c, struct ti_record *r);

#endif
