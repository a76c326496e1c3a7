/* spawn.h: fork a corked child, release it, wait for it. */
#ifndef TI_SPAWN_H
#define TI_SPAWN_H

#include <sys/types.h>

#include "plan.h"
#include "record.h"

/* What failed in the parent before the child ran: WHAT is a path or an
 * operation name, ERR an errno value. */
struct ti_failure {
	const char *what;
	int err;
};

struct ti_child {
	pid_t pid;
	int go_fd;		/* write end of the cork pipe */
	int status_fd;		/* read end of the child's status pipe */
	int redir[3];		/* fds opened for the child's 0, 1, 2, or -1 */
};

/* Open the redirect files, install the signal handlers, fork.  The child
 * sets itself up (process group, redirects, limits, chdir), tells the
 * parent it is ready and blocks until released.  Returns 0, or -1 with F
 * filled in (no child is left behind).  Limits the child could not set are
 * flagged in R->limit_failed. */
int ti_spawn_start(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r,
		   struct ti_failure *f);

/* Release the child and wait for it: the measured path.  Fills the end,
 * times and rusage of R.  Returns 0, or -1 with F filled in (wait failed). */
int ti_spawn_run(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r,
		 struct ti_failure *f);

/* Give up on a started child before releasing it: it exits without
 * running the command and is reaped. */
void ti_spawn_abort(struct ti_child *ch);

/* Compute R->status, the exit status timeit reports (spec/compat.md). */
void ti_record_set_status(struct ti_record *r);

#endif
