/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* spawn-int.h: what the files of a run's start share: the child's
 * messages on its status channel, the state the signal handlers share,
 * and the steps of the set-up (spawn-child.c) that the plain run
 * (spawn.c) and the wrapped run (spawn-wrap.c) both take. */
#ifndef TI_SPAWN_INT_H
#define TI_SPAWN_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "spawn.h"

/* Messages on the child's status pipe (close-on-exec: at exec it closes):
 * limit and ASLR warnings, then at most one failure. */
enum ti_spawn_stage { ST_LIMIT, ST_REDIRECT, ST_CHDIR, ST_EXEC, ST_ASLR,
	     ST_START,	/* the exec helper runs: VALUE its pid (the group) */
	     ST_TIMES,	/* fork mode: the command's rusage, VALUE 0 user, 1 system,
			 * EXTRA microseconds */
	     ST_ORPHANED,	/* fork mode: the helper's parent (the wrapper) ended
				 * before the command did */
	     ST_EXIT };	/* fork mode: VALUE the command's wait status, EXTRA ru_maxrss */
struct ti_spawn_msg {
	int stage;
	int value;	/* errno, or the limit index for ST_LIMIT */
	long long extra;	/* ST_START: the helper's CLOCK_MONOTONIC ns */
};

/* State shared with the signal handlers (spawn.c): the command's group
 * once it runs (0 before), the timeout's alarm, the stop signal. */
extern volatile sig_atomic_t ti_spawn_pgid;
extern volatile sig_atomic_t ti_spawn_alarm;
extern volatile sig_atomic_t ti_spawn_signal;

/* ---- spawn-child.c: the child's set-up before exec ---- */

/* Each enum ti_limit's RLIMIT_ resource. */
extern const int ti_spawn_rlimit[TI_LIMIT_COUNT];
/* Send STAGE and VALUE on the status channel FD (async-signal-safe). */
void ti_spawn_tell(int fd, int stage, int value);
/* The default disposition for the signals in RESET (NULL: every one) and
 * an empty mask. */
void ti_spawn_default_signals(const sigset_t *reset);
/* A process group of its own, then ti_spawn_default_signals(RESET). */
void ti_spawn_own_group(const sigset_t *reset);
/* The vfork child: set up from CH and execute PLAN's command; never returns. */
__attribute__((noreturn)) void ti_spawn_child(const struct ti_plan *plan, const struct ti_child *ch);
/* Close *FD if open and set it to -1. */
void ti_spawn_close_fd(int *fd);
/* Empty FD if it is a regular file (0, or -1 with errno). */
int ti_spawn_truncate(int fd);
/* Close REDIR and remove the files CREATED names (then freed). */
void ti_spawn_undo_redirects(int redir[3], char *created[3]);
/* Open PLAN's redirects into REDIR (-1: none), the files created into
 * CREATED, truncated when TRUNCATE.  Returns 0, or -1 with F filled in and
 * nothing left behind. */
int ti_spawn_open_redirects(const struct ti_plan *plan, int redir[3], char *created[3],
			    struct ti_failure *f, bool truncate);
/* Move timeit onto PLAN's --cpu CPUs.  Returns 0, or -1 with F filled in. */
int ti_spawn_pin(const struct ti_plan *plan, struct ti_failure *f);
/* Work out the rlimits CH's child sets; a limit not readable is marked
 * failed in R. */
void ti_spawn_prepare_limits(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r);
/* CH->file: FILE looked up in PATH's absolute entries, or FILE. */
void ti_spawn_resolve(const char *file, struct ti_child *ch);
/* Open PLAN's --chdir directory into DIR.  Returns 0, or -1 with F. */
int ti_spawn_open_dir(const struct ti_plan *plan, struct ti_os_dir *dir, struct ti_failure *f);

/* ---- spawn.c: start, wait, status ---- */

/* Block the stop signals and SIGALRM; *OLD the mask to run with. */
void ti_spawn_block(sigset_t *old);
/* Arm the timeout of SECONDS (none beyond 68 years). */
void ti_spawn_arm_timeout(uint64_t seconds);
/* One of the child's messages M into R. */
void ti_spawn_take_message(const struct ti_spawn_msg *m, struct ti_record *r);
/* R's end and status from the wait status WS (HAVE: WS is known). */
void ti_spawn_set_end(struct ti_record *r, bool have, int ws);

#endif
