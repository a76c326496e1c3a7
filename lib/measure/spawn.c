/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* spawn.c: vfork, exec, wait; timeout and signals to timeit.
 *
 * The child is started with vfork: timeit is suspended until the child has
 * set itself up and executed the command, so there is no page-table copy,
 * no copy-on-write fault and no wake-up handshake, the costs that made a
 * forked and corked child about half a millisecond slower to start.  The
 * counters do not need a cork: they are opened on timeit itself just
 * before, disabled, with inherit and enable_on_exec (lib/measure/measure.c), so
 * the child inherits them at vfork and they start counting when it
 * executes the command.  timeit itself never executes anything, so its
 * own copies never count. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "os.h"
#include "spawn-int.h"
#include "util.h"

volatile sig_atomic_t ti_spawn_pgid;
volatile sig_atomic_t ti_spawn_alarm;
volatile sig_atomic_t ti_spawn_signal;

/* timeit's pid: a handler that finds itself in another process runs in the
 * child between vfork and exec, which shares timeit's memory. */
static pid_t timeit_pid;

/* In the child the signal does what it would do to the command: the
 * default action, at once.  Only its own disposition and stack are
 * touched (vfork: no CLONE_SIGHAND), so the child need not reset timeit's
 * handlers itself, one system call each on the measured path; exec resets
 * them anyway. */
static bool in_child(int sig)
{
	pid_t me = getpid();

	if (me == timeit_pid)
		return false;
	/* kill, not raise: some libcs' raise aims at the thread id they
	 * cached, which after vfork is timeit's. */
	signal(sig, SIG_DFL);
	kill(me, sig);
	return true;
}

/* The handlers keep errno as they found it (signal-safety(7)): kill may
 * set it under the main flow's feet, between wait4 and its errno check;
 * in the vfork child errno is timeit's too. */
static void on_stop(int sig)
{
	int saved = errno;

	if (!in_child(sig)) {
		ti_spawn_signal = sig;
		if (ti_spawn_pgid > 0)
			kill(-ti_spawn_pgid, SIGKILL);
	}
	errno = saved;
}

static void on_alarm(int sig)
{
	int saved = errno;

	if (!in_child(sig)) {
		ti_spawn_alarm = 1;
		if (ti_spawn_pgid > 0)
			kill(-ti_spawn_pgid, SIGKILL);
	}
	errno = saved;
}

/* Every signal whose default action would end timeit and that another
 * process sends -- a terminal, kill, a batch system's warning (SIGUSR1,
 * SIGXCPU), a real-time signal -- stops the run as SIGTERM does: the
 * command's group is killed, the summary written, status 137, no
 * temporary file left.  Not here: SIGALRM (the timeout), SIGPIPE (ignored:
 * a failed write is reported), SIGKILL and SIGSTOP (cannot be caught), and
 * the faults of timeit itself -- SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
 * SIGTRAP, SIGSYS -- which keep their default (timeit(1), SIGNALS). */
static bool stops(int sig)
{
	switch (sig) {
	case SIGHUP: case SIGINT: case SIGQUIT: case SIGTERM: case SIGUSR1: case SIGUSR2:
	case SIGVTALRM: case SIGPROF: case SIGXCPU: case SIGXFSZ:
#ifdef SIGPOLL
	case SIGPOLL:
#endif
#ifdef SIGPWR
	case SIGPWR:
#endif
#ifdef SIGSTKFLT
	case SIGSTKFLT:
#endif
#ifdef SIGLOST
	case SIGLOST:
#endif
		return true;
	}
#ifdef SIGRTMIN
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		return true;
#endif
	return false;
}

void ti_spawn_stop_set(sigset_t *set)
{
	sigemptyset(set);
	for (int s = 1; s < NSIG; s++)
		if (stops(s))
			sigaddset(set, s);
}

static void install_handlers(void)
{
	static int hup_ignored = -1;
	struct sigaction sa, was;

	/* Under nohup, a hangup is not a reason to stop: SIGHUP stays
	 * ignored when timeit was started with it ignored (the command still
	 * gets the default, like every other signal). */
	if (hup_ignored < 0)
		hup_ignored = sigaction(SIGHUP, NULL, &was) == 0 && was.sa_handler == SIG_IGN;
	timeit_pid = getpid();
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	for (int s = 1; s < NSIG; s++)
		if (stops(s) && (s != SIGHUP || !hup_ignored))
			sigaction(s, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	/* A write to a closed pipe (a summary on /dev/stdout piped to a
	 * reader that went away) is an error to report, not a death. */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	/* Started with SIGCHLD ignored, the kernel would reap the command
	 * itself and wait4 would find no child (wait(2), NOTES). */
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, NULL);
}

int ti_spawn_stop_signal(void)
{
	return ti_spawn_signal;
}

/* Block the stop signals and SIGALRM until the child's pid is known to the
 * handlers, and make *OLD the mask to run with: the caller's, but with
 * those unblocked even when timeit was started with them blocked (the
 * mask is inherited), else it would ignore its timeout and every
 * SIGINT/SIGTERM/SIGHUP for the whole run. */
void ti_spawn_block(sigset_t *old)
{
	sigset_t block;

	ti_spawn_stop_set(&block);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, old);
	for (int s = 1; s < NSIG; s++)
		if (sigismember(&block, s) == 1)
			sigdelset(old, s);
}

const char ti_spawn_timed_out[] = "timeout";
const char ti_spawn_stopped[] = "stop signal";

/* A redirect may be a FIFO whose open waits for a process at the other
 * end: the timeout and the stop signals reach timeit while it waits there,
 * as they reach the reference's child opening it (its alarm is set before
 * the fork).  Either ends the wait with EINTR (the handlers do not ask for
 * restarts) and the run with F->what ti_spawn_timed_out or
 * ti_spawn_stopped. */
static int open_redirects_waiting(const struct ti_plan *plan, int redir[3], char *created[3],
				  struct ti_failure *f, bool wrapped)
{
	static const struct itimerval off;
	sigset_t wake, old;
	int rc;

	ti_spawn_stop_set(&wake);
	sigaddset(&wake, SIGALRM);
	sigprocmask(SIG_UNBLOCK, &wake, &old);
	if (plan->timeout_s)
		ti_spawn_arm_timeout(plan->timeout_s);
	rc = ti_spawn_open_redirects(plan, redir, created, f, !wrapped);
	if (plan->timeout_s)
		setitimer(ITIMER_REAL, &off, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc < 0 && f->err == EINTR && (ti_spawn_alarm || ti_spawn_signal))
		f->what = ti_spawn_alarm ? ti_spawn_timed_out : ti_spawn_stopped;
	/* The run's own timeout starts at its vfork. */
	ti_spawn_alarm = 0;
	return rc;
}

static int start(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r,
		 struct ti_failure *f, bool wrapped)
{
	char **created = ch->created;
	int st[2];

	ch->pid = -1;
	ch->status_fd = ch->status_wfd = -1;
	ch->pidfd = -1;
	ch->dir.fd = -1;
	for (int i = 0; i < 3; i++)
		ch->redir[i] = -1;
	/* What can be refused first: a bad --cpu or --chdir must fail before
	 * the redirect files are created and truncated. */
	if (ti_spawn_pin(plan, f) < 0 || ti_spawn_open_dir(plan, &ch->dir, f) < 0)
		return -1;
	ti_spawn_pgid = 0;
	ti_spawn_alarm = 0;
	install_handlers();
	ch->wrapped = wrapped;
	if (open_redirects_waiting(plan, ch->redir, created, f, wrapped) < 0) {
		ti_os_dir_close(&ch->dir);
		return -1;
	}
	/* The wrapper's own stdout and stderr are not the command's: the
	 * helper gets timeit's where there is no redirect. */
	ch->trunc = (plan->redirect_stdout ? 1 : 0) | (plan->redirect_stderr ? 2 : 0);
	for (int i = 1; wrapped && i < 3; i++) {
		if (ch->redir[i] < 0 && (ch->redir[i] = fcntl(i, F_DUPFD_CLOEXEC, 3)) < 0) {
			f->what = "dup";
			f->err = errno;
			ti_spawn_undo_redirects(ch->redir, created);
			ti_os_dir_close(&ch->dir);
			return -1;
		}
	}
	if (wrapped ? socketpair(AF_UNIX, SOCK_STREAM, 0, st) < 0 ||
		      fcntl(st[0], F_SETFD, FD_CLOEXEC) < 0 || fcntl(st[1], F_SETFD, FD_CLOEXEC) < 0
		    : ti_pipe_cloexec(st) < 0) {
		f->what = wrapped ? "socketpair" : "pipe";
		f->err = errno;
		ti_spawn_undo_redirects(ch->redir, created);
		ti_os_dir_close(&ch->dir);
		return -1;
	}
	for (int i = 0; !wrapped && i < 3; i++) {
		free(created[i]);
		created[i] = NULL;
	}
	ch->status_fd = st[0];
	ch->status_wfd = st[1];
	ti_spawn_prepare_limits(plan, ch, r);
	ti_spawn_resolve(plan->argv[0], ch);

	/* The signals the child must reset, found here rather than by the
	 * child on the measured path: the ignored ones (SIGPIPE by timeit,
	 * others inherited), which exec would keep. */
	sigemptyset(&ch->reset);
	for (int s = 1; s < NSIG; s++) {
		struct sigaction sa;

		if (s == SIGKILL || s == SIGSTOP || sigaction(s, NULL, &sa) < 0)
			continue;
		if (sa.sa_handler == SIG_IGN)
			sigaddset(&ch->reset, s);
	}
	return 0;
}

int ti_spawn_start(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r,
		   struct ti_failure *f)
{
	return start(plan, ch, r, f, false);
}

int ti_spawn_start_wrapped(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r,
			   struct ti_failure *f)
{
	return start(plan, ch, r, f, true);
}

void ti_spawn_arm_timeout(uint64_t seconds)
{
	struct itimerval it;

	memset(&it, 0, sizeof it);
	/* A timeout too large for time_t (32 bits on some systems) is no
	 * timeout at all: 68 years and more. */
	if (seconds > (uint64_t)INT32_MAX)
		return;
	it.it_value.tv_sec = (time_t)seconds;
	setitimer(ITIMER_REAL, &it, NULL);
}

/* One of the child's messages into R: a limit or ASLR warning, a set-up
 * or exec failure. */
void ti_spawn_take_message(const struct ti_spawn_msg *m, struct ti_record *r)
{
	switch (m->stage) {
	case ST_LIMIT:
		if (m->value >= 0 && m->value < TI_LIMIT_COUNT)
			r->limit_failed[m->value] = true;
		break;
	case ST_ASLR:
		r->no_aslr_errno = m->value;
		break;
	case ST_EXEC:
		r->end = TI_END_EXEC_FAILED;
		r->setup_errno = m->value;
		r->setup_what = "execvp";
		break;
	default:
		r->end = TI_END_SETUP_FAILED;
		r->setup_errno = m->value;
		r->setup_what = m->stage == ST_CHDIR ? "chdir" : "redirect";
	}
}

/* Read the child's messages: limit warnings, then a set-up or exec failure. */
static void read_status(int fd, struct ti_record *r)
{
	struct ti_spawn_msg m;
	ssize_t got;

	while ((got = read(fd, &m, sizeof m)) == (ssize_t)sizeof m || (got < 0 && errno == EINTR))
		if (got > 0)
			ti_spawn_take_message(&m, r);
}

/* How the command ended, from its wait status WS (HAVE: known).  A
 * timeout or a stop signal is what ended it only when the SIGKILL it sent
 * did: one that came after the command exited on its own (while wait4
 * returned) leaves the command's own status. */
void ti_spawn_set_end(struct ti_record *r, bool have, int ws)
{
	/* Without its status the command's group was killed (fork mode:
	 * the helper with it) or it is the wrapper's exit status. */
	bool killed = have ? WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL : ti_spawn_alarm || ti_spawn_signal;

	if (r->end == TI_END_SETUP_FAILED || r->end == TI_END_EXEC_FAILED) {
		/* keep it */
	} else if (ti_spawn_alarm && killed) {
		r->end = TI_END_TIMEOUT;
	} else if (ti_spawn_signal && killed) {
		r->end = TI_END_INTERRUPTED;
		r->stop_signal = ti_spawn_signal;
	} else if (have && WIFSIGNALED(ws)) {
		r->end = TI_END_SIGNALED;
		r->term_signal = WTERMSIG(ws);
	} else {
		r->end = TI_END_EXITED;
		r->exit_code = WEXITSTATUS(ws);
	}
	ti_record_set_status(r);
}

int ti_spawn_run(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r,
		 struct ti_failure *f)
{
	static const struct itimerval off;
	sigset_t old;
	int wstatus = 0, err;
	pid_t got;
	uint64_t tsc0, tsc1;

	ti_spawn_block(&old);
	if (plan->timeout_s)
		ti_spawn_arm_timeout(plan->timeout_s);
	r->start_realtime_ns = ti_clock_real_ns();

	/* The measured path: clocks, vfork, the child's set-up and exec, the
	 * wait, clocks.  timeit runs again once the command is executing. */
	r->start_ns = ti_clock_mono_ns();
	tsc0 = ti_tsc_read();
	ch->pid = vfork();
	if (ch->pid == 0)
		ti_spawn_child(plan, ch);
	err = errno;
	if (ch->pid > 0) {
		/* vfork: the child has set its group and executed by now, so
		 * no kill of the group can miss it. */
		ti_spawn_pgid = ch->pid;
		if (ti_spawn_signal)
			kill(-ch->pid, SIGKILL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		while ((got = wait4(ch->pid, &wstatus, 0, &r->ru)) < 0 && errno == EINTR)
			;
		err = errno;
	} else {
		got = -1;
	}
	tsc1 = ti_tsc_read();
	r->end_ns = ti_clock_mono_ns();

	r->end_realtime_ns = ti_clock_real_ns();
	setitimer(ITIMER_REAL, &off, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	ti_spawn_close_fd(&ch->status_wfd);
	for (int i = 0; i < 3; i++)
		ti_spawn_close_fd(&ch->redir[i]);
	ti_os_dir_close(&ch->dir);
	if (got < 0) {
		f->what = ch->pid < 0 ? "vfork" : "wait4";
		f->err = err;
		if (ch->pid > 0)
			kill(-ch->pid, SIGKILL);
		ti_spawn_pgid = 0;
		ti_spawn_close_fd(&ch->status_fd);
		return -1;
	}
	/* Kill what is left of the group (the reference does the same). */
	r->group_killed = kill(-ch->pid, SIGKILL) == 0;
	ti_spawn_pgid = 0;

	r->pid = ch->pid;
	/* Raw ticks; lib/measure/measure.c decides whether they are reported. */
	/* An invariant TSC is synchronised across CPUs, but if timeit moved
	 * to one that is behind, the difference would wrap: no ticks then. */
	r->tsc_kind = tsc1 >= tsc0 ? ti_tsc_kind() : NULL;
	r->tsc_ticks = tsc1 >= tsc0 ? tsc1 - tsc0 : 0;
	r->maxrss_bytes = ti_os_maxrss_bytes(r->ru.ru_maxrss);
	r->real_s = (double)(r->end_ns - r->start_ns) / 1e9;

	read_status(ch->status_fd, r);
	ti_spawn_close_fd(&ch->status_fd);

	ti_spawn_set_end(r, true, wstatus);
	return 0;
}

void ti_record_set_status(struct ti_record *r)
{
	switch (r->end) {
	case TI_END_EXITED:
		r->status = r->exit_code;
		break;
	case TI_END_SIGNALED:
		r->status = TI_STATUS_SIGNALED + r->term_signal;
		break;
	case TI_END_TIMEOUT:
	case TI_END_INTERRUPTED:
		r->status = TI_STATUS_KILLED;
		break;
	case TI_END_EXEC_FAILED:
		r->status = r->setup_errno == ENOENT || r->setup_errno == ENOTDIR
			    ? TI_STATUS_NOT_FOUND : TI_STATUS_CANNOT_EXEC;
		break;
	case TI_END_SETUP_FAILED:
		r->status = TI_STATUS_INTERNAL;
		break;
	}
}
