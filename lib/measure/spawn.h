/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* spawn.h: start a child with vfork, wait for it, and say how it ended. */
#ifndef TI_SPAWN_H
#define TI_SPAWN_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "os.h"
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
	int status_fd;		/* read end of the child's status pipe */
	int status_wfd;		/* its write end, for the child */
	int redir[3];		/* fds opened for the child's 0, 1, 2, or -1 */
	struct ti_os_dir dir;	/* the --chdir directory (fd -1: none) */
	sigset_t reset;		/* signals the child resets to SIG_DFL */
	struct rlimit lim[TI_LIMIT_COUNT];	/* what the child sets, */
	bool lim_set[TI_LIMIT_COUNT];		/* for these limits */
	const char *file;	/* what the child executes: PATH or argv[0] */
	char path[PATH_MAX];	/* the command found in PATH */
	bool wrapped;		/* ti_spawn_start_wrapped */
	char *created[3];	/* wrapped: the redirect files it created */
	int pidfd;		/* wrapped: the helper's pidfd, or -1 */
	int trunc;		/* wrapped: 1 stdout, 2 stderr are redirect files */
};

/* Prepare a run: move timeit onto the --cpu CPUs (the child inherits
 * them), open the --chdir directory, the redirect files and the child's
 * status pipe, install the signal handlers.  Nothing is started yet.
 * Returns 0, or -1 with F filled in: F->what is the plan's own path
 * string when the directory or a redirect file was the cause, the string
 * "sched_setaffinity" for the CPUs.  A bad --cpu or --chdir is found
 * before any redirect file is created or truncated. */
int ti_spawn_start(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r,
		   struct ti_failure *f);

/* Start the child and wait for it: the measured path.  The child sets
 * itself up (process group, signals, redirects, limits, directory) and
 * executes the command while timeit is suspended (vfork).  Fills the end,
 * times, rusage and set-up warnings of R.  Returns 0, or -1 with F filled
 * in (vfork or wait failed). */
int ti_spawn_run(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r,
		 struct ti_failure *f);

/* Runs through a wrapper that starts the command itself (timeit-perf:
 * perf stat), with an exec helper as the wrapper's command: the helper
 * (ti_spawn_helper, in a process the wrapper started) sets itself up as
 * ti_spawn_run's child does, then executes the command in its own place,
 * so the wrapper's workload is one process.
 *
 * ti_spawn_start_wrapped prepares as ti_spawn_start does, but the redirect
 * files are not truncated yet (the helper does it: a wrapper that cannot
 * run leaves them as they were) and the channel is a socket. */
int ti_spawn_start_wrapped(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r,
			   struct ti_failure *f);

/* The helper's instructions for CH (one word, for the wrapper's command
 * line) into OUT; FORK_MODE: the helper forks the command and waits for
 * it, to send its wait status and peak RSS (where the system cannot tell
 * a non-child's status, or for --report-maxrss).  Returns 0, or -ENAMETOOLONG. */
int ti_spawn_helper_spec(const struct ti_child *ch, bool fork_mode, char *out, size_t len);

/* In the helper: follow SPEC (ti_spawn_helper_spec; DIR the --chdir path,
 * or NULL) and execute FILE with ARGV.  Returns only when that failed,
 * with the status to exit with (it was told on the channel), or, fork
 * mode, when the command ended, with its status; -1 when SPEC is not one. */
int ti_spawn_helper(const char *spec, const char *dir, const char *file, char *const argv[]);

/* The seconds a wrapper may take to start the command beyond the
 * timeout (perf stat: under 1 s on a loaded 2-CPU VM). */
#define TI_SPAWN_WRAPPER_START_S 10

/* The wrapper's side of a run. */
struct ti_wrap {
	char *const *argv;	/* the wrapper's command line (execvp), the helper in it */
	char *const *envp;	/* its environment */
	int out_fd, err_fd;	/* its stdout and stderr, or -1: timeit's */
	bool started;		/* out: the helper ran (the wrapper could start it) */
	bool have_status;	/* out: R's end is the command's, not guessed */
	int wstatus;		/* out: the wrapper's wait status */
	int exec_errno;		/* out: the wrapper could not be executed (errno), or 0 */
	bool orphaned;		/* out: the wrapper left the command unreaped (timeit
				 * reaped it): the wrapper's own times are wrong */
	bool cut;		/* out: the timeout or a stop signal ended the wrapper
				 * before it started the command: R's end says which */
	bool early;		/* out: the wrapper died (a signal) or exited while the
				 * command ran: its counts are lost; R's times are
				 * timeit's (its clock, the command's rusage when
				 * timeit could reap it: have_status) */
};

/* Start W's wrapper and wait for it: the timeout counts from the helper's
 * start, and the stop signals and the timeout kill the command's group
 * (the wrapper lives on to report); before the helper starts, a stop
 * signal, or the timeout plus TI_SPAWN_WRAPPER_START_S, kills the
 * wrapper's group (a wrapper that never starts the command cannot hold
 * timeit; one slow to start still gives the command its whole timeout),
 * and W->cut says so.  Fills R's end (R->status), real_s
 * (the helper's clock just before its exec, or its fork in fork mode, to
 * the command's end as the pidfd or the helper tells it, else the
 * wrapper's end), ru_maxrss in fork mode, and W.  Returns
 * 0, or -1 with F filled in; when W->started is false nothing ran and the
 * redirect files are as they were (ti_spawn_abort undoes them). */
int ti_spawn_run_wrapped(const struct ti_plan *plan, struct ti_child *ch, struct ti_wrap *w,
			 struct ti_record *r, struct ti_failure *f);

/* A wrapped start that ran nothing: close CH's descriptors and remove
 * the redirect files it created. */
void ti_spawn_abort(struct ti_child *ch);

/* F->what of ti_spawn_start when the timeout or a stop signal came while
 * it waited to open a redirect (a FIFO): the command never ran. */
extern const char ti_spawn_timed_out[];
extern const char ti_spawn_stopped[];

/* The signals that stop a run like SIGTERM (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGUSR1, ..., the real-time ones: every one whose default would
 * end timeit, but for its own faults) into SET.  A program blocks them
 * until its first run is prepared, so that none ends it with result files
 * half made. */
void ti_spawn_stop_set(sigset_t *set);

/* The stop signal timeit has received since its first run was prepared,
 * or 0.  A series of runs stops there. */
int ti_spawn_stop_signal(void);

/* Compute R->status, the exit status timeit reports from R->end and its
 * details (enum ti_status; timeit(1), EXIT STATUS). */
void ti_record_set_status(struct ti_record *r);

#endif
