/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* spawn.c: vfork, exec, wait; timeout and signals to timeit.
 *
 * The child is started with vfork: timeit is suspended until the child has
 * set itself up and executed the command, so there is no page-table copy,
 * no copy-on-write fault and no wake-up handshake, the costs that made a
 * forked and corked child about half a millisecond slower to start.  The
 * counters do not need a cork: they are opened on timeit itself just
 * before, disabled, with inherit and enable_on_exec (lib/measure.c), so
 * the child inherits them at vfork and they start counting when it
 * executes the command.  timeit itself never executes anything, so its
 * own copies never count. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
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
#include "outfile.h"
#include "spawn.h"
#include "util.h"

/* Messages on the child's status pipe (close-on-exec: at exec it closes):
 * limit and ASLR warnings, then at most one failure. */
enum stage { ST_LIMIT, ST_REDIRECT, ST_CHDIR, ST_EXEC, ST_ASLR,
	     ST_START,	/* the exec helper runs: VALUE its pid (the group) */
	     ST_EXIT };	/* fork mode: VALUE the command's wait status, EXTRA ru_maxrss */
struct status_msg {
	int stage;
	int value;	/* errno, or the limit index for ST_LIMIT */
	long long extra;	/* ST_START: the helper's CLOCK_MONOTONIC ns */
};

/* State shared with the signal handlers. */
static volatile sig_atomic_t child_pgid;
static volatile sig_atomic_t timed_out;
static volatile sig_atomic_t stop_signal;

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
		stop_signal = sig;
		if (child_pgid > 0)
			kill(-child_pgid, SIGKILL);
	}
	errno = saved;
}

static void on_alarm(int sig)
{
	int saved = errno;

	if (!in_child(sig)) {
		timed_out = 1;
		if (child_pgid > 0)
			kill(-child_pgid, SIGKILL);
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
	return stop_signal;
}

static const int rlimit_resource[TI_LIMIT_COUNT] = {
	[TI_LIMIT_CPU] = RLIMIT_CPU,	 [TI_LIMIT_STACK] = RLIMIT_STACK,
	[TI_LIMIT_DATA] = RLIMIT_DATA,	 [TI_LIMIT_RSS] = RLIMIT_RSS,
	[TI_LIMIT_FSIZE] = RLIMIT_FSIZE, [TI_LIMIT_CORE] = RLIMIT_CORE,
	[TI_LIMIT_NOFILE] = RLIMIT_NOFILE, [TI_LIMIT_NPROC] = RLIMIT_NPROC,
};

const char *ti_limit_name(enum ti_limit l)
{
	static const char *const names[TI_LIMIT_COUNT] = {
		"cpu", "stack-size", "data-size", "rss-size",
		"file-size", "core", "file-count", "subprocess-count",
	};
	return (unsigned)l < TI_LIMIT_COUNT ? names[l] : "?";
}

static void tell(int fd, int stage, int value)
{
	struct status_msg m = { stage, value, 0 };
	ssize_t rc = write(fd, &m, sizeof m);
	(void)rc;
}

/* A process group of its own, the default disposition for the signals in
 * RESET (NULL: every one) and an empty mask: a vfork child's or the exec
 * helper's start. */
static void default_signals(const sigset_t *reset)
{
	sigset_t none;

	for (int s = 1; s < NSIG; s++)
		if (reset ? sigismember(reset, s) == 1 : s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static void own_group_and_signals(const sigset_t *reset)
{
	setpgid(0, 0);
	default_signals(reset);
}

/* The child between vfork and exec.  It shares timeit's memory while timeit
 * is suspended, so it only makes system calls and writes nothing but its
 * own stack; it never returns. */
static __attribute__((noreturn)) void child(const struct ti_plan *plan,
					    const struct ti_child *ch)
{
	int err;

	/* Default dispositions and an empty mask, whatever timeit inherited.
	 * Only the ignored signals in RESET need it: they survive exec.
	 * timeit's handlers do not (exec resets them), and one that runs here
	 * once the mask is cleared acts as the default would (in_child). */
	own_group_and_signals(&ch->reset);

	/* A shared stdout/stderr file arrives as one fd in both slots. */
	for (int i = 0; i < 3; i++) {
		if (ch->redir[i] >= 0 && dup2(ch->redir[i], i) < 0) {
			tell(ch->status_wfd, ST_REDIRECT, errno);
			_exit(TI_STATUS_INTERNAL);
		}
	}
	/* The values were worked out by ti_spawn_start. */
	for (int l = 0; l < TI_LIMIT_COUNT; l++)
		if (ch->lim_set[l] && setrlimit(rlimit_resource[l], &ch->lim[l]) < 0)
			tell(ch->status_wfd, ST_LIMIT, l);
	/* Opened and checked by ti_spawn_start, so this rarely fails (the
	 * directory's permissions changed since). */
	if (plan->chdir && (err = ti_os_dir_enter(&ch->dir)) != 0) {
		tell(ch->status_wfd, ST_CHDIR, err);
		_exit(TI_STATUS_INTERNAL);
	}
	/* Takes effect at the exec below. */
	if (plan->no_aslr && (err = ti_os_no_aslr()) != 0)
		tell(ch->status_wfd, ST_ASLR, err);
	/* CH->FILE is the command found in PATH already when it could be
	 * (a path with a slash: execvp searches no more, and still runs a
	 * script without #! through /bin/sh). */
	execvp(ch->file, plan->argv);
	tell(ch->status_wfd, ST_EXEC, errno);
	_exit(errno == ENOENT || errno == ENOTDIR ? TI_STATUS_NOT_FOUND : TI_STATUS_CANNOT_EXEC);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Truncate an output file once every redirect has opened: a failing
 * --redirect-stderr must not have emptied the --redirect-stdout file.
 * (O_TRUNC does nothing to a device or FIFO; neither does this.) */
static int truncate_output(int fd)
{
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	return ftruncate(fd, 0);
}

/* Open the output file PATH for writing without truncating it (that is
 * done once every redirect has opened).  A file that did not exist is
 * created and its path left in *CREATED (malloc'd), so that a later
 * failure can remove it again: a failing redirect leaves no file behind.
 * A dangling symlink is followed to the file it names, which is created
 * there (O_EXCL never follows a link). */
static int open_output(const char *path, char **created)
{
	const int flags = O_WRONLY | O_CLOEXEC | O_NOCTTY;
	int fd = open(path, flags), err;
	char *to;
	bool magic;

	*created = NULL;
	if (fd >= 0 || errno != ENOENT)
		return fd;
	to = ti_outfile_resolve(path, &magic);
	if (!to)
		return -1;
	fd = magic ? -1 : open(to, flags | O_CREAT | O_EXCL, 0666);
	if (fd >= 0) {
		*created = to;
		return fd;
	}
	err = errno;
	free(to);
	if (!magic && err != EEXIST) {
		errno = err;
		return -1;
	}
	/* Created meanwhile by another process: not ours to remove. */
	return open(path, flags | O_CREAT, 0666);
}

/* Undo the redirects of a run that will not start: close them, and remove
 * the files they created. */
static void undo_redirects(int redir[3], char *created[3])
{
	for (int i = 0; i < 3; i++) {
		if (redir[i] >= 0)
			close(redir[i]);
		redir[i] = -1;
		if (created[i])
			unlink(created[i]);
		free(created[i]);
		created[i] = NULL;
	}
}

static int open_redirects(const struct ti_plan *plan, int redir[3], char *created[3],
			  struct ti_failure *f, bool truncate)
{
	redir[0] = redir[1] = redir[2] = -1;
	created[0] = created[1] = created[2] = NULL;
	if (plan->redirect_input) {
		redir[0] = open(plan->redirect_input, O_RDONLY | O_CLOEXEC);
		if (redir[0] < 0) {
			f->what = plan->redirect_input;
			goto fail;
		}
	}
	if (plan->redirect_stdout) {
		redir[1] = open_output(plan->redirect_stdout, &created[1]);
		if (redir[1] < 0) {
			f->what = plan->redirect_stdout;
			goto fail;
		}
	}
	if (plan->redirect_stderr) {
		/* Both streams to one path share one fd, so their writes
		 * interleave instead of overwriting each other. */
		if (redir[1] >= 0 && strcmp(plan->redirect_stderr, plan->redirect_stdout) == 0)
			redir[2] = fcntl(redir[1], F_DUPFD_CLOEXEC, 0);
		else
			redir[2] = open_output(plan->redirect_stderr, &created[2]);
		if (redir[2] < 0) {
			f->what = plan->redirect_stderr;
			goto fail;
		}
	}
	/* The same file by another name (./out, a link): one descriptor for
	 * both streams too, or each would overwrite the other's output. */
	if (redir[1] >= 0 && redir[2] >= 0 && redir[2] != redir[1]) {
		struct stat so, se;
		if (fstat(redir[1], &so) == 0 && fstat(redir[2], &se) == 0 &&
		    S_ISREG(so.st_mode) && so.st_dev == se.st_dev && so.st_ino == se.st_ino) {
			int shared = fcntl(redir[1], F_DUPFD_CLOEXEC, 0);
			if (shared < 0) {
				f->what = plan->redirect_stderr;
				goto fail;
			}
			close(redir[2]);
			redir[2] = shared;
			/* One file, created once: removed once. */
			if (!created[1]) {
				created[1] = created[2];
				created[2] = NULL;
			}
		}
	}
	/* Through a wrapper, the exec helper truncates them once the wrapper
	 * is known to run the command (ti_spawn_helper). */
	if (!truncate)
		return 0;
	if (truncate_output(redir[1]) < 0) {
		f->what = plan->redirect_stdout;
		goto fail;
	}
	if (truncate_output(redir[2]) < 0) {
		f->what = plan->redirect_stderr;
		goto fail;
	}
	return 0;
fail:
	f->err = errno;
	undo_redirects(redir, created);
	return -1;
}

/* --cpu: timeit moves onto the CPUs itself, and the child inherits the
 * mask at vfork; it lasts through exec and fork, so the whole tree stays
 * there, and the measured path has no system call for it.  EINVAL: not
 * every CPU of the list is usable (lib/os.h).  F->what is
 * "sched_setaffinity". */
static int pin(const struct ti_plan *plan, struct ti_failure *f)
{
	int rc;

	if (!plan->pin || (rc = ti_os_set_affinity(&plan->cpus)) == 0)
		return 0;
	f->what = "sched_setaffinity";
	f->err = -rc;
	return -1;
}

/* The rlimits the child sets: each given limit as both soft and hard,
 * lowered to the current hard limit (an unprivileged process cannot raise
 * it).  Worked out here so the child makes one system call per limit; a
 * limit whose current value cannot be read is reported as not set. */
static void prepare_limits(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r)
{
	for (int l = 0; l < TI_LIMIT_COUNT; l++) {
		struct rlimit *rl = &ch->lim[l];

		ch->lim_set[l] = false;
		if (!plan->limit_set[l])
			continue;
		if (getrlimit(rlimit_resource[l], rl) < 0) {
			r->limit_failed[l] = true;
			continue;
		}
		rlim_t v = (rlim_t)plan->limit[l];
		if (rl->rlim_max != RLIM_INFINITY && v > rl->rlim_max)
			v = rl->rlim_max;
		rl->rlim_cur = rl->rlim_max = v;
		ch->lim_set[l] = true;
	}
}

/* The command's file, looked up in PATH here instead of by execvp on the
 * measured path (each directory it tries costs a failed execve).  Only
 * absolute PATH entries are tried: at the first relative one (or "", the
 * current directory, which --chdir changes) the child's execvp searches
 * itself, as it does when nothing is found (and then fails with the right
 * errno).  PATH unset means glibc's default, confstr(_CS_PATH). */
static void resolve_command(const char *file, struct ti_child *ch)
{
	const char *p = getenv("PATH");
	size_t flen = strlen(file);

	ch->file = file;
	if (!*file || strchr(file, '/'))
		return;
	if (!p)
		p = "/bin:/usr/bin";
	for (;;) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		struct stat st;

		if (n == 0 || p[0] != '/')
			return;
		if (n + 1 + flen < sizeof ch->path) {
			memcpy(ch->path, p, n);
			ch->path[n] = '/';
			memcpy(ch->path + n + 1, file, flen + 1);
			if (stat(ch->path, &st) == 0 && S_ISREG(st.st_mode) &&
			    access(ch->path, X_OK) == 0) {
				ch->file = ch->path;
				return;
			}
		}
		if (!end)
			return;
		p = end + 1;
	}
}

/* --chdir, resolved before anything runs (lib/os.h: with the permission
 * chdir needs, and no more); the child then only enters it. */
static int open_dir(const struct ti_plan *plan, struct ti_os_dir *dir, struct ti_failure *f)
{
	int rc;

	dir->fd = -1;
	if (!plan->chdir || (rc = ti_os_dir_open(dir, plan->chdir)) == 0)
		return 0;
	f->what = plan->chdir;
	f->err = -rc;
	return -1;
}

static void arm_timeout(uint64_t seconds);

/* Block the stop signals and SIGALRM until the child's pid is known to the
 * handlers, and make *OLD the mask to run with: the caller's, but with
 * those unblocked even when timeit was started with them blocked (the
 * mask is inherited), else it would ignore its timeout and every
 * SIGINT/SIGTERM/SIGHUP for the whole run. */
static void block_until_started(sigset_t *old)
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
		arm_timeout(plan->timeout_s);
	rc = open_redirects(plan, redir, created, f, !wrapped);
	if (plan->timeout_s)
		setitimer(ITIMER_REAL, &off, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc < 0 && f->err == EINTR && (timed_out || stop_signal))
		f->what = timed_out ? ti_spawn_timed_out : ti_spawn_stopped;
	/* The run's own timeout starts at its vfork. */
	timed_out = 0;
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
	if (pin(plan, f) < 0 || open_dir(plan, &ch->dir, f) < 0)
		return -1;
	child_pgid = 0;
	timed_out = 0;
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
			undo_redirects(ch->redir, created);
			ti_os_dir_close(&ch->dir);
			return -1;
		}
	}
	if (wrapped ? socketpair(AF_UNIX, SOCK_STREAM, 0, st) < 0 ||
		      fcntl(st[0], F_SETFD, FD_CLOEXEC) < 0 || fcntl(st[1], F_SETFD, FD_CLOEXEC) < 0
		    : ti_pipe_cloexec(st) < 0) {
		f->what = wrapped ? "socketpair" : "pipe";
		f->err = errno;
		undo_redirects(ch->redir, created);
		ti_os_dir_close(&ch->dir);
		return -1;
	}
	for (int i = 0; !wrapped && i < 3; i++) {
		free(created[i]);
		created[i] = NULL;
	}
	ch->status_fd = st[0];
	ch->status_wfd = st[1];
	prepare_limits(plan, ch, r);
	resolve_command(plan->argv[0], ch);

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

static void arm_timeout(uint64_t seconds)
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
static void take_message(const struct status_msg *m, struct ti_record *r)
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
	struct status_msg m;
	ssize_t got;

	while ((got = read(fd, &m, sizeof m)) == (ssize_t)sizeof m || (got < 0 && errno == EINTR))
		if (got > 0)
			take_message(&m, r);
}

/* How the command ended, from its wait status WS (HAVE: known).  A
 * timeout or a stop signal is what ended it only when the SIGKILL it sent
 * did: one that came after the command exited on its own (while wait4
 * returned) leaves the command's own status. */
static void set_end(struct ti_record *r, bool have, int ws)
{
	/* Without its status the command's group was killed (fork mode:
	 * the helper with it) or it is the wrapper's exit status. */
	bool killed = have ? WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL : timed_out || stop_signal;

	if (r->end == TI_END_SETUP_FAILED || r->end == TI_END_EXEC_FAILED) {
		/* keep it */
	} else if (timed_out && killed) {
		r->end = TI_END_TIMEOUT;
	} else if (stop_signal && killed) {
		r->end = TI_END_INTERRUPTED;
		r->stop_signal = stop_signal;
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

	block_until_started(&old);
	if (plan->timeout_s)
		arm_timeout(plan->timeout_s);
	r->start_realtime_ns = ti_clock_real_ns();

	/* The measured path: clocks, vfork, the child's set-up and exec, the
	 * wait, clocks.  timeit runs again once the command is executing. */
	r->start_ns = ti_clock_mono_ns();
	tsc0 = ti_tsc_read();
	ch->pid = vfork();
	if (ch->pid == 0)
		child(plan, ch);
	err = errno;
	if (ch->pid > 0) {
		/* vfork: the child has set its group and executed by now, so
		 * no kill of the group can miss it. */
		child_pgid = ch->pid;
		if (stop_signal)
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
	close_fd(&ch->status_wfd);
	for (int i = 0; i < 3; i++)
		close_fd(&ch->redir[i]);
	ti_os_dir_close(&ch->dir);
	if (got < 0) {
		f->what = ch->pid < 0 ? "vfork" : "wait4";
		f->err = err;
		if (ch->pid > 0)
			kill(-ch->pid, SIGKILL);
		child_pgid = 0;
		close_fd(&ch->status_fd);
		return -1;
	}
	/* Kill what is left of the group (the reference does the same). */
	r->group_killed = kill(-ch->pid, SIGKILL) == 0;
	child_pgid = 0;

	r->pid = ch->pid;
	/* Raw ticks; lib/measure.c decides whether they are reported. */
	/* An invariant TSC is synchronised across CPUs, but if timeit moved
	 * to one that is behind, the difference would wrap: no ticks then. */
	r->tsc_kind = tsc1 >= tsc0 ? ti_tsc_kind() : NULL;
	r->tsc_ticks = tsc1 >= tsc0 ? tsc1 - tsc0 : 0;
	r->maxrss_bytes = ti_os_maxrss_bytes(r->ru.ru_maxrss);
	r->real_s = (double)(r->end_ns - r->start_ns) / 1e9;

	read_status(ch->status_fd, r);
	close_fd(&ch->status_fd);

	set_end(r, true, wstatus);
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

/* ---- runs through a wrapper: the exec helper and its parent ---- */

/* The helper's flags in its spec. */
enum { HELP_TRUNC_OUT = 1, HELP_TRUNC_ERR = 2, HELP_FORK = 4, HELP_PIDFD = 8 };

int ti_spawn_helper_spec(const struct ti_child *ch, bool fork_mode, char *out, size_t len)
{
	int flags = (ch->trunc & 1 ? HELP_TRUNC_OUT : 0) | (ch->trunc & 2 ? HELP_TRUNC_ERR : 0);
	size_t n;

	if (fork_mode)
		flags |= HELP_FORK;
	else if (ti_os_has(TI_OS_PIDFD_EXIT))
		flags |= HELP_PIDFD;
	n = (size_t)snprintf(out, len, "ti1:%d:%d:%d:%d:%d:%d", ch->status_wfd, ch->redir[0],
			     ch->redir[1], ch->redir[2], ch->dir.fd, flags);
	for (int l = 0; l < TI_LIMIT_COUNT && n < len; l++) {
		if (ch->lim_set[l])
			n += (size_t)snprintf(out + n, len - n, ":%llu",
					      (unsigned long long)ch->lim[l].rlim_max);
		else
			n += (size_t)snprintf(out + n, len - n, ":-");
	}
	return n < len ? 0 : -ENAMETOOLONG;
}

/* The spec's numbers: 6 descriptors and flags, then the limits. */
struct helper_spec {
	int fd[6];		/* channel, stdin, stdout, stderr, directory; flags */
	bool lim_set[TI_LIMIT_COUNT];
	rlim_t lim[TI_LIMIT_COUNT];
};

static int parse_spec(const char *s, struct helper_spec *h)
{
	char *end;

	if (strncmp(s, "ti1:", 4) != 0)
		return -1;
	s += 4;
	for (int i = 0; i < 6; i++) {
		long v = strtol(s, &end, 10);
		if (end == s || *end != ':' || v < -1 || v > 1 << 20)
			return -1;
		h->fd[i] = (int)v;
		s = end + 1;
	}
	for (int l = 0; l < TI_LIMIT_COUNT; l++) {
		h->lim_set[l] = *s != '-';
		if (h->lim_set[l]) {
			h->lim[l] = (rlim_t)strtoull(s, &end, 10);
			if (end == s)
				return -1;
			s = end;
		} else {
			s++;
		}
		if (*s != (l + 1 < TI_LIMIT_COUNT ? ':' : '\0'))
			return -1;
		s += *s == ':';
	}
	return h->fd[0] >= 0 ? 0 : -1;
}

/* ST_START for the command PID (its group), with its pidfd (fd -1: none)
 * attached. */
static void tell_start(int sock, pid_t pid, int pidfd, int64_t start_ns)
{
	struct status_msg m = { ST_START, (int)pid, start_ns };
	struct iovec io = { &m, sizeof m };
	union { struct cmsghdr h; char b[CMSG_SPACE(sizeof(int))]; } cb;
	struct msghdr mh;

	memset(&mh, 0, sizeof mh);
	memset(&cb, 0, sizeof cb);
	mh.msg_iov = &io;
	mh.msg_iovlen = 1;
	if (pidfd >= 0) {
		mh.msg_control = cb.b;
		mh.msg_controllen = sizeof cb.b;
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &pidfd, sizeof pidfd);
	}
	while (sendmsg(sock, &mh, 0) < 0 && errno == EINTR)
		;
}

/* The helper's set-up, in ti_spawn_run's child's order: its own group,
 * default signals, the redirects (truncated now that the wrapper runs),
 * the limits, the directory.  Returns 0 or the status to exit with. */
static int helper_setup(const struct helper_spec *h, const char *dir)
{
	const int sock = h->fd[0], flags = h->fd[5];
	int err;
	for (int i = 0; i < 3; i++) {
		int fd = h->fd[1 + i];
		if (fd < 0)
			continue;
		if (dup2(fd, i) < 0 ||
		    (i > 0 && (flags & (i == 1 ? HELP_TRUNC_OUT : HELP_TRUNC_ERR)) &&
		     truncate_output(i) < 0)) {
			tell(sock, ST_REDIRECT, errno);
			return TI_STATUS_INTERNAL;
		}
	}
	for (int i = 1; i <= 3; i++) {
		bool again = false;
		for (int j = 1; j < i; j++)
			again |= h->fd[j] == h->fd[i];
		if (h->fd[i] > 2 && !again)
			close(h->fd[i]);
	}
	for (int l = 0; l < TI_LIMIT_COUNT; l++) {
		struct rlimit rl = { h->lim[l], h->lim[l] };
		if (h->lim_set[l] && setrlimit(rlimit_resource[l], &rl) < 0)
			tell(sock, ST_LIMIT, l);
	}
	if (dir && *dir && (h->fd[4] >= 0 ? fchdir(h->fd[4]) : chdir(dir)) < 0) {
		err = errno;
		tell(sock, ST_CHDIR, err);
		return TI_STATUS_INTERNAL;
	}
	return 0;
}

/* Fork mode: the command is the helper's child, in a group of its own,
 * whose status and rusage the helper tells. */
static int helper_fork(int sock, const char *file, char *const argv[])
{
	struct rusage ru;
	int ws = 0;
	int64_t start_ns = ti_clock_mono_ns();
	pid_t pid = fork();

	if (pid == 0) {
		setpgid(0, 0);
		execvp(file, argv);
		tell(sock, ST_EXEC, errno);
		_exit(errno == ENOENT || errno == ENOTDIR ? TI_STATUS_NOT_FOUND
							  : TI_STATUS_CANNOT_EXEC);
	}
	if (pid < 0) {
		tell(sock, ST_EXEC, errno);
		return TI_STATUS_INTERNAL;
	}
	/* Both sides set the group, so that it exists before timeit hears
	 * of it, whichever runs first. */
	setpgid(pid, pid);
	tell_start(sock, pid, -1, start_ns);
	while (wait4(pid, &ws, 0, &ru) < 0)
		if (errno != EINTR)
			return TI_STATUS_INTERNAL;
	struct status_msg m = { ST_EXIT, ws, ru.ru_maxrss };
	ssize_t wr = write(sock, &m, sizeof m);
	(void)wr;
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : TI_STATUS_SIGNALED + WTERMSIG(ws);
}

int ti_spawn_helper(const char *spec, const char *dir, const char *file, char *const argv[])
{
	struct helper_spec h;
	int rc, sock, flags;

	if (parse_spec(spec, &h) < 0)
		return -1;
	sock = h.fd[0];
	flags = h.fd[5];
	if (h.fd[4] >= 0)
		fcntl(h.fd[4], F_SETFD, FD_CLOEXEC);
	fcntl(sock, F_SETFD, FD_CLOEXEC);
	if (flags & HELP_FORK) {
		/* Signals and set-up are inherited by the command; the group
		 * is its own. */
		default_signals(NULL);
		if ((rc = helper_setup(&h, dir)) != 0)
			return rc;
		if (h.fd[4] >= 0)
			close(h.fd[4]);
		return helper_fork(sock, file, argv);
	}
	/* The run starts here: its timeout counts from now, and a set-up
	 * failure is the command's, not the wrapper's.  The group first: a
	 * stop signal kills it as soon as timeit knows it. */
	own_group_and_signals(NULL);
	int pidfd = flags & HELP_PIDFD ? ti_os_pidfd_self() : -1;
	tell_start(sock, getpid(), pidfd, ti_clock_mono_ns());
	if (pidfd >= 0)
		close(pidfd);
	if ((rc = helper_setup(&h, dir)) != 0)
		return rc;
	if (h.fd[4] >= 0)
		close(h.fd[4]);
	execvp(file, argv);
	tell(sock, ST_EXEC, errno);
	return errno == ENOENT || errno == ENOTDIR ? TI_STATUS_NOT_FOUND : TI_STATUS_CANNOT_EXEC;
}

void ti_spawn_abort(struct ti_child *ch)
{
	close_fd(&ch->status_fd);
	close_fd(&ch->status_wfd);
	undo_redirects(ch->redir, ch->created);
	ti_os_dir_close(&ch->dir);
}

/* One message from the helper, with the pidfd it may carry into *PIDFD.
 * Returns 1, 0 at the end, -1 on an error (EINTR: a signal came). */
static int recv_status(int fd, struct status_msg *m, int *pidfd)
{
	union { struct cmsghdr h; char b[CMSG_SPACE(sizeof(int))]; } cb;
	struct iovec io = { m, sizeof *m };
	struct msghdr mh;
	ssize_t got;

	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &io;
	mh.msg_iovlen = 1;
	mh.msg_control = cb.b;
	mh.msg_controllen = sizeof cb.b;
	got = recvmsg(fd, &mh, MSG_WAITALL | MSG_CMSG_CLOEXEC);
	if (got <= 0)
		return got < 0 ? -1 : 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(pidfd, CMSG_DATA(c), sizeof *pidfd);
	return got == (ssize_t)sizeof *m ? 1 : 0;
}

/* The vfork child that becomes the wrapper: a group of its own (a
 * terminal's ^C is timeit's to handle), the helper's descriptors kept
 * across exec, the wrapper's stderr.  *EXEC_ERRNO tells a failed exec
 * (vfork: the parent's memory). */
static __attribute__((noreturn)) void wrapper_child(const struct ti_child *ch,
						    const struct ti_wrap *w,
						    volatile int *exec_errno)
{
	own_group_and_signals(&ch->reset);
	if (w->out_fd >= 0)
		dup2(w->out_fd, STDOUT_FILENO);
	if (w->err_fd >= 0)
		dup2(w->err_fd, STDERR_FILENO);
	fcntl(ch->status_wfd, F_SETFD, 0);
	for (int i = 0; i < 3; i++)
		if (ch->redir[i] >= 0)
			fcntl(ch->redir[i], F_SETFD, 0);
	if (ch->dir.fd >= 0)
		fcntl(ch->dir.fd, F_SETFD, 0);
	execve(w->argv[0], w->argv, w->envp);
	*exec_errno = errno;
	_exit(TI_STATUS_NOT_FOUND);
}

/* Read the helper's messages until the wrapper and the helper are gone.
 * The timeout starts at ST_START; a stop signal before it kills the
 * command as soon as its group is known. */
static void read_wrapped(const struct ti_plan *plan, struct ti_child *ch, struct ti_wrap *w,
			 struct ti_record *r, int *cmd_ws)
{
	struct status_msg m;
	int64_t cmd_end = 0;
	int rc;

	for (;;) {
		/* The command's end as its pidfd tells it (readable once it
		 * has exited, reaped or not): the wrapper may live on. */
		struct pollfd p[2] = { { ch->status_fd, POLLIN, 0 }, { ch->pidfd, POLLIN, 0 } };
		if (poll(p, ch->pidfd >= 0 && !cmd_end ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents && !cmd_end)
			cmd_end = ti_clock_mono_ns();
		if (!p[0].revents)
			continue;
		if ((rc = recv_status(ch->status_fd, &m, &ch->pidfd)) == 0)
			break;
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		/* Any word from the helper: perf ran it. */
		if (!w->started)
			r->start_ns = ti_clock_mono_ns();
		w->started = true;
		switch (m.stage) {
		case ST_START:
			if (m.value <= 0 || r->pid > 0)
				break;
			/* The helper's own clock: timeit may run long after. */
			if (m.extra > 0 && m.extra <= r->start_ns)
				r->start_ns = m.extra;
			r->pid = m.value;
			child_pgid = m.value;
			if (plan->timeout_s)
				arm_timeout(plan->timeout_s);
			if (stop_signal)
				kill(-m.value, SIGKILL);
			break;
		case ST_EXIT:
			/* Fork mode: the helper tells the end as it reaps. */
			if (!cmd_end)
				cmd_end = ti_clock_mono_ns();
			w->have_status = true;
			*cmd_ws = m.value;
			r->ru.ru_maxrss = m.extra;
			break;
		default:
			take_message(&m, r);
		}
	}
	r->end_ns = cmd_end ? cmd_end : ti_clock_mono_ns();
}


int ti_spawn_run_wrapped(const struct ti_plan *plan, struct ti_child *ch, struct ti_wrap *w,
			 struct ti_record *r, struct ti_failure *f)
{
	static const struct itimerval off;
	static volatile int exec_errno;
	sigset_t old;
	int wstatus = 0, ws = 0;
	pid_t pid, got;

	w->started = w->have_status = w->orphaned = false;
	w->exec_errno = 0;
	ch->pidfd = -1;
	block_until_started(&old);
	/* perf stat's SIGCHLD handler forgets its child (child_pid = -1), so
	 * a command that ends before perf reaches wait4 is never waited for:
	 * perf exits 0 and the command's zombie goes to its reaper.  Be that
	 * reaper, so that the status is not lost (the pidfd's exit status
	 * exists only once someone reaps the zombie). */
	bool reaper = ti_os_subreaper(true) == 0;
	r->start_realtime_ns = ti_clock_real_ns();
	exec_errno = 0;
	pid = vfork();
	if (pid == 0)
		wrapper_child(ch, w, &exec_errno);
	if (pid < 0) {
		f->what = "vfork";
		f->err = errno;
		if (reaper)
			ti_os_subreaper(false);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	close_fd(&ch->status_wfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	read_wrapped(plan, ch, w, r, &ws);
	while ((got = wait4(pid, &wstatus, 0, NULL)) < 0 && errno == EINTR)
		;
	r->end_realtime_ns = ti_clock_real_ns();
	setitimer(ITIMER_REAL, &off, NULL);
	/* Reap what is left of the command's group (never pid 0: that
	 * would be timeit's own group). */
	if (r->pid > 0)
		kill(-r->pid, SIGKILL);
	child_pgid = 0;
	close_fd(&ch->status_fd);
	for (int i = 0; i < 3; i++)
		close_fd(&ch->redir[i]);
	ti_os_dir_close(&ch->dir);
	/* A wrapper that ran nothing leaves them to ti_spawn_abort. */
	for (int i = 0; w->started && i < 3; i++) {
		free(ch->created[i]);
		ch->created[i] = NULL;
	}
	w->exec_errno = exec_errno;
	w->wstatus = got == pid ? wstatus : 0;
	/* The command's status: the helper's word (fork mode), the pidfd's,
	 * or what the wrapper passes on (perf: the exit code, 0 for a
	 * signal). */
	if (!w->have_status && ch->pidfd >= 0)
		w->have_status = ti_os_pidfd_exit(ch->pidfd, &ws) == 0;
	/* Not reaped by perf: the command came to us when perf exited (the
	 * group was killed above, so this does not block on a live one). */
	if (!w->have_status && reaper && r->pid > 0) {
		int cs;
		while ((got = waitpid(r->pid, &cs, 0)) < 0 && errno == EINTR)
			;
		if (got == r->pid) {
			w->have_status = w->orphaned = true;
			ws = cs;
		}
	}
	if (reaper)
		ti_os_subreaper(false);
	close_fd(&ch->pidfd);
	if (!w->started)
		return 0;
	if (!w->have_status)
		ws = (WIFEXITED(w->wstatus) ? WEXITSTATUS(w->wstatus) : 0) << 8;
	r->maxrss_bytes = ti_os_maxrss_bytes(r->ru.ru_maxrss);
	r->real_s = (double)(r->end_ns - r->start_ns) / 1e9;
	set_end(r, w->have_status, ws);
	return 0;
}
