/* spawn.c: fork, cork, exec, wait; timeout and signals to timeit. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "spawn.h"

/* Messages on the child's status pipe: a ready byte after set-up, or a
 * failure; limit warnings come before either. */
enum stage { ST_READY, ST_LIMIT, ST_REDIRECT, ST_CHDIR, ST_EXEC };
struct status_msg {
	int stage;
	int value;	/* errno, or the limit index for ST_LIMIT */
};

/* State shared with the signal handlers. */
static volatile sig_atomic_t child_pgid;
static volatile sig_atomic_t timed_out;
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
	if (child_pgid > 0)
		kill(-child_pgid, SIGKILL);
}

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
	if (child_pgid > 0)
		kill(-child_pgid, SIGKILL);
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
		sigaction(stop_signals[i], &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	/* A child that dies before it is released must not kill timeit
	 * through the cork pipe. */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
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
	struct status_msg m = { stage, value };
	ssize_t rc = write(fd, &m, sizeof m);
	(void)rc;
}

/* The child between fork and exec: async-signal-safe calls only. */
static void child(const struct ti_plan *plan, int go_fd, int status_fd, const int redir[3])
{
	sigset_t none;
	char byte;

	setpgid(0, 0);
	/* Default dispositions and an empty mask, whatever timeit inherited. */
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	/* A shared stdout/stderr file arrives as one fd in both slots. */
	for (int i = 0; i < 3; i++) {
		if (redir[i] >= 0 && dup2(redir[i], i) < 0) {
			tell(status_fd, ST_REDIRECT, errno);
			_exit(66);
		}
	}
	for (int l = 0; l < TI_LIMIT_COUNT; l++) {
		struct rlimit rl;

		if (!plan->limit_set[l])
			continue;
		if (getrlimit(rlimit_resource[l], &rl) == 0) {
			rlim_t v = (rlim_t)plan->limit[l];
			if (rl.rlim_max != RLIM_INFINITY && v > rl.rlim_max)
				v = rl.rlim_max;
			rl.rlim_cur = rl.rlim_max = v;
			if (setrlimit(rlimit_resource[l], &rl) == 0)
				continue;
		}
		tell(status_fd, ST_LIMIT, l);
	}
	if (plan->chdir && chdir(plan->chdir) < 0) {
		tell(status_fd, ST_CHDIR, errno);
		_exit(66);
	}
	tell(status_fd, ST_READY, 0);
	/* Block until released; EOF means the parent gave up. */
	if (read(go_fd, &byte, 1) != 1)
		_exit(66);
	execvp(plan->argv[0], plan->argv);
	tell(status_fd, ST_EXEC, errno);
	_exit(errno == ENOENT || errno == ENOTDIR ? 127 : 126);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int open_redirects(const struct ti_plan *plan, int redir[3], struct ti_failure *f)
{
	const int wflags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;

	redir[0] = redir[1] = redir[2] = -1;
	if (plan->redirect_input) {
		redir[0] = open(plan->redirect_input, O_RDONLY | O_CLOEXEC);
		if (redir[0] < 0) {
			f->what = plan->redirect_input;
			goto fail;
		}
	}
	if (plan->redirect_stdout) {
		redir[1] = open(plan->redirect_stdout, wflags, 0666);
		if (redir[1] < 0) {
			f->what = plan->redirect_stdout;
			goto fail;
		}
	}
	if (plan->redirect_stderr) {
		/* Both streams to one path share one fd, so their writes
		 * interleave instead of overwriting each other. */
		if (redir[1] >= 0 && strcmp(plan->redirect_stderr, plan->redirect_stdout) == 0)
			redir[2] = dup(redir[1]);
		else
			redir[2] = open(plan->redirect_stderr, wflags, 0666);
		if (redir[2] < 0) {
			f->what = plan->redirect_stderr;
			goto fail;
		}
		if (fcntl(redir[2], F_SETFD, FD_CLOEXEC) < 0) {
			f->what = plan->redirect_stderr;
			goto fail;
		}
	}
	return 0;
fail:
	f->err = errno;
	for (int i = 0; i < 3; i++)
		close_fd(&redir[i]);
	return -1;
}

int ti_spawn_start(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r,
		   struct ti_failure *f)
{
	int go[2], st[2];
	sigset_t block, old;
	struct status_msg m;
	ssize_t got;

	ch->pid = -1;
	ch->go_fd = ch->status_fd = -1;
	if (open_redirects(plan, ch->redir, f) < 0)
		return -1;
	if (pipe2(go, O_CLOEXEC) < 0) {
		f->what = "pipe";
		f->err = errno;
		goto fail;
	}
	if (pipe2(st, O_CLOEXEC) < 0) {
		f->what = "pipe";
		f->err = errno;
		close(go[0]);
		close(go[1]);
		goto fail;
	}
	child_pgid = 0;
	timed_out = 0;
	install_handlers();

	/* Signals wait until the child's pid is known to the handlers. */
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
		sigaddset(&block, stop_signals[i]);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, &old);
	ch->pid = fork();
	if (ch->pid == 0) {
		close(go[1]);
		close(st[0]);
		child(plan, go[0], st[1], ch->redir);
	}
	f->err = errno;
	close(go[0]);
	close(st[1]);
	if (ch->pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		f->what = "fork";
		close(go[1]);
		close(st[0]);
		goto fail;
	}
	/* Both sides set the group, so a kill right after fork finds it. */
	setpgid(ch->pid, ch->pid);
	child_pgid = ch->pid;
	if (stop_signal)
		kill(-ch->pid, SIGKILL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	ch->go_fd = go[1];
	ch->status_fd = st[0];
	for (int i = 0; i < 3; i++)
		close_fd(&ch->redir[i]);

	/* Wait until the child is set up (or failed, or was killed). */
	while ((got = read(ch->status_fd, &m, sizeof m)) == (ssize_t)sizeof m || (got < 0 && errno == EINTR)) {
		if (got < 0)
			continue;
		if (m.stage == ST_READY)
			break;
		if (m.stage == ST_LIMIT && m.value >= 0 && m.value < TI_LIMIT_COUNT)
			r->limit_failed[m.value] = true;
		else if (m.stage == ST_REDIRECT || m.stage == ST_CHDIR) {
			r->end = TI_END_SETUP_FAILED;
			r->setup_errno = m.value;
			r->setup_what = m.stage == ST_CHDIR ? "chdir" : "redirect";
		}
	}
	return 0;
fail:
	for (int i = 0; i < 3; i++)
		close_fd(&ch->redir[i]);
	return -1;
}

static void arm_timeout(uint64_t seconds)
{
	struct itimerval it;

	memset(&it, 0, sizeof it);
	/* A timeout too large for time_t is no timeout at all. */
	if (seconds > (uint64_t)INT32_MAX * 16)
		return;
	it.it_value.tv_sec = (time_t)seconds;
	setitimer(ITIMER_REAL, &it, NULL);
}

int ti_spawn_run(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r,
		 struct ti_failure *f)
{
	static const struct itimerval off;
	int wstatus = 0;
	pid_t got;
	struct status_msg m;
	uint64_t tsc0, tsc1;

	if (plan->timeout_s)
		arm_timeout(plan->timeout_s);
	r->start_realtime_ns = ti_clock_real_ns();

	/* The measured path: nothing but the release, the wait and clocks. */
	r->start_ns = ti_clock_mono_ns();
	tsc0 = ti_tsc_read();
	if (write(ch->go_fd, "x", 1) < 0) {
		/* The child is already gone: reaped below. */
	}
	while ((got = wait4(ch->pid, &wstatus, 0, &r->ru)) < 0 && errno == EINTR)
		;
	tsc1 = ti_tsc_read();
	r->end_ns = ti_clock_mono_ns();

	r->end_realtime_ns = ti_clock_real_ns();
	setitimer(ITIMER_REAL, &off, NULL);
	close_fd(&ch->go_fd);
	if (got < 0) {
		f->what = "wait4";
		f->err = errno;
		kill(-ch->pid, SIGKILL);
		close_fd(&ch->status_fd);
		return -1;
	}
	/* Reap what is left of the group (the reference does the same). */
	kill(-ch->pid, SIGKILL);
	child_pgid = 0;

	r->pid = ch->pid;
	r->tsc_kind = ti_tsc_kind();
	r->tsc_valid = r->tsc_kind != NULL && ti_tsc_invariant();
	r->tsc_ticks = r->tsc_valid ? tsc1 - tsc0 : 0;
	/* ru_maxrss is in KiB on Linux. */
	r->maxrss_bytes = (uint64_t)r->ru.ru_maxrss * 1024;
	r->real_s = (double)(r->end_ns - r->start_ns) / 1e9;

	/* After exec the status pipe is closed; anything on it is a failure. */
	if (r->end != TI_END_SETUP_FAILED) {
		ssize_t n;
		while ((n = read(ch->status_fd, &m, sizeof m)) < 0 && errno == EINTR)
			;
		if (n == (ssize_t)sizeof m && m.stage == ST_EXEC) {
			r->end = TI_END_EXEC_FAILED;
			r->setup_errno = m.value;
			r->setup_what = "execvp";
		}
	}
	close_fd(&ch->status_fd);

	if (r->end == TI_END_SETUP_FAILED || r->end == TI_END_EXEC_FAILED) {
		/* keep it */
	} else if (timed_out) {
		r->end = TI_END_TIMEOUT;
	} else if (stop_signal) {
		r->end = TI_END_INTERRUPTED;
		r->stop_signal = stop_signal;
	} else if (WIFSIGNALED(wstatus)) {
		r->end = TI_END_SIGNALED;
		r->term_signal = WTERMSIG(wstatus);
	} else {
		r->end = TI_END_EXITED;
		r->exit_code = WEXITSTATUS(wstatus);
	}
	ti_record_set_status(r);
	return 0;
}

void ti_spawn_abort(struct ti_child *ch)
{
	/* EOF on the cork pipe makes a waiting child exit without exec; the
	 * kill covers one that is not waiting any more. */
	close_fd(&ch->go_fd);
	if (ch->pid > 0) {
		kill(-ch->pid, SIGKILL);
		while (waitpid(ch->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	child_pgid = 0;
	close_fd(&ch->status_fd);
}

void ti_record_set_status(struct ti_record *r)
{
	switch (r->end) {
	case TI_END_EXITED:
		r->status = r->exit_code;
		break;
	case TI_END_SIGNALED:
		r->status = 128 + r->term_signal;
		break;
	case TI_END_TIMEOUT:
	case TI_END_INTERRUPTED:
		r->status = 128 + SIGKILL;
		break;
	case TI_END_EXEC_FAILED:
		r->status = r->setup_errno == ENOENT || r->setup_errno == ENOTDIR ? 127 : 126;
		break;
	case TI_END_SETUP_FAILED:
		r->status = 66;
		break;
	}
}
