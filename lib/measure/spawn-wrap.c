/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* spawn-wrap.c: runs through a wrapper that starts the command itself
 * (timeit-perf: perf stat): the exec helper that the wrapper runs, and
 * timeit's side of such a run. */
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
#include "spawn-int.h"
#include "util.h"

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
	struct ti_spawn_msg m = { ST_START, (int)pid, start_ns };
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
		     ti_spawn_truncate(i) < 0)) {
			ti_spawn_tell(sock, ST_REDIRECT, errno);
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
		if (h->lim_set[l] && setrlimit(ti_spawn_rlimit[l], &rl) < 0)
			ti_spawn_tell(sock, ST_LIMIT, l);
	}
	if (dir && *dir && (h->fd[4] >= 0 ? fchdir(h->fd[4]) : chdir(dir)) < 0) {
		err = errno;
		ti_spawn_tell(sock, ST_CHDIR, err);
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
	/* The wrapper (perf), whose end before the command's this helper
	 * alone can tell in order: it is reparented then. */
	pid_t wrapper = getppid();
	pid_t pid = fork();

	if (pid == 0) {
		setpgid(0, 0);
		execvp(file, argv);
		ti_spawn_tell(sock, ST_EXEC, errno);
		_exit(errno == ENOENT || errno == ENOTDIR ? TI_STATUS_NOT_FOUND
							  : TI_STATUS_CANNOT_EXEC);
	}
	if (pid < 0) {
		ti_spawn_tell(sock, ST_EXEC, errno);
		return TI_STATUS_INTERNAL;
	}
	/* Both sides set the group, so that it exists before timeit hears
	 * of it, whichever runs first. */
	setpgid(pid, pid);
	tell_start(sock, pid, -1, start_ns);
	while (wait4(pid, &ws, 0, &ru) < 0)
		if (errno != EINTR)
			return TI_STATUS_INTERNAL;
	/* The times too: a wrapper that dies meanwhile (perf killed) takes
	 * its counts with it, and these are what is left. */
	struct ti_spawn_msg m[4] = {
		{ ST_TIMES, 0, (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec },
		{ ST_TIMES, 1, (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec },
		{ ST_ORPHANED, getppid() != wrapper, 0 },
		{ ST_EXIT, ws, ru.ru_maxrss } };
	ssize_t wr = write(sock, m, sizeof m);
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
		ti_spawn_default_signals(NULL);
		if ((rc = helper_setup(&h, dir)) != 0)
			return rc;
		if (h.fd[4] >= 0)
			close(h.fd[4]);
		return helper_fork(sock, file, argv);
	}
	/* The run starts here: its timeout counts from now, and a set-up
	 * failure is the command's, not the wrapper's.  The group first: a
	 * stop signal kills it as soon as timeit knows it. */
	ti_spawn_own_group(NULL);
	int pidfd = flags & HELP_PIDFD ? ti_os_pidfd_self() : -1;
	tell_start(sock, getpid(), pidfd, ti_clock_mono_ns());
	if (pidfd >= 0)
		close(pidfd);
	if ((rc = helper_setup(&h, dir)) != 0)
		return rc;
	if (h.fd[4] >= 0)
		close(h.fd[4]);
	execvp(file, argv);
	ti_spawn_tell(sock, ST_EXEC, errno);
	return errno == ENOENT || errno == ENOTDIR ? TI_STATUS_NOT_FOUND : TI_STATUS_CANNOT_EXEC;
}

void ti_spawn_abort(struct ti_child *ch)
{
	ti_spawn_close_fd(&ch->status_fd);
	ti_spawn_close_fd(&ch->status_wfd);
	ti_spawn_undo_redirects(ch->redir, ch->created);
	ti_os_dir_close(&ch->dir);
}

/* One message from the helper, with the pidfd it may carry into *PIDFD.
 * Returns 1, 0 at the end, -1 on an error (EINTR: a signal came). */
static int recv_status(int fd, struct ti_spawn_msg *m, int *pidfd)
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
	ti_spawn_own_group(&ch->reset);
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
 * The timeout starts again at ST_START; a stop signal before it killed
 * the wrapper's group, and kills the command as soon as its group is
 * known. */
static void read_wrapped(const struct ti_plan *plan, struct ti_child *ch, struct ti_wrap *w,
			 struct ti_record *r, int *cmd_ws, bool *wrapper_gone)
{
	struct ti_spawn_msg m;
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
			ti_spawn_pgid = m.value;
			/* The timeout counts from here (it bounded the
			 * wrapper's start until now). */
			if (plan->timeout_s && !ti_spawn_alarm)
				ti_spawn_arm_timeout(plan->timeout_s);
			if (ti_spawn_signal)
				kill(-m.value, SIGKILL);
			break;
		case ST_TIMES: {
			struct timeval *tv = m.value ? &r->ru.ru_stime : &r->ru.ru_utime;
			tv->tv_sec = (time_t)(m.extra / 1000000);
			tv->tv_usec = (suseconds_t)(m.extra % 1000000);
			break;
		}
		case ST_ORPHANED:
			*wrapper_gone = m.value != 0;
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
			ti_spawn_take_message(&m, r);
		}
	}
	r->end_ns = cmd_end ? cmd_end : ti_clock_mono_ns();
}

/* The wrapper ended (WSTATUS) while the command it started may still
 * run: perf died, or exited early.  With timeit its reaper (REAPER), the
 * command is timeit's child now: wait for it (the timeout and the stop
 * signals still reach its group), with its rusage, so the run keeps its
 * status and times (W->have_status); else end it.  Returns whether the command outlived
 * the wrapper (*WS its wait status then, if timeit reaped it). */
static bool command_outlived(struct ti_child *ch, struct ti_wrap *w, struct ti_record *r,
			     int wstatus, bool reaper, int *ws)
{
	struct pollfd p = { ch->pidfd, POLLIN, 0 };
	bool signaled = WIFSIGNALED(wstatus);
	pid_t got;

	if (r->pid <= 0)
		return false;
	/* Ended already (its pidfd readable, or gone): the wrapper may have
	 * lived on after it, as perf does to report. */
	if (ch->pidfd >= 0 ? poll(&p, 1, 0) != 0 : kill(r->pid, 0) < 0)
		return signaled;
	if (!reaper)
		return true;
	while ((got = wait4(r->pid, ws, 0, &r->ru)) < 0 && errno == EINTR)
		;
	if (got != r->pid)
		return true;
	r->end_ns = ti_clock_mono_ns();
	w->have_status = w->orphaned = true;
	return true;
}

/* After the wrapper: end what is left of the command's group, close
 * the run's descriptors, and find the command's status (*WS) where the
 * wrapper did not pass it on. */
static void settle_wrapped(struct ti_child *ch, struct ti_wrap *w, struct ti_record *r,
			   bool reaper, int *ws)
{
	/* Reap what is left of the command's group (never pid 0: that
	 * would be timeit's own group). */
	if (r->pid > 0)
		kill(-r->pid, SIGKILL);
	ti_spawn_pgid = 0;
	ti_spawn_close_fd(&ch->status_fd);
	for (int i = 0; i < 3; i++)
		ti_spawn_close_fd(&ch->redir[i]);
	ti_os_dir_close(&ch->dir);
	/* A wrapper that ran nothing leaves them to ti_spawn_abort. */
	for (int i = 0; w->started && i < 3; i++) {
		free(ch->created[i]);
		ch->created[i] = NULL;
	}
	/* The command's status: the helper's word (fork mode), the pidfd's,
	 * or what the wrapper passes on (perf: the exit code, 0 for a
	 * signal). */
	if (!w->have_status && ch->pidfd >= 0)
		w->have_status = ti_os_pidfd_exit(ch->pidfd, ws) == 0;
	/* Not reaped by perf: the command came to us when perf exited (the
	 * group was killed above, so this does not block on a live one). */
	if (!w->have_status && reaper && r->pid > 0) {
		pid_t got;
		int cs;

		while ((got = wait4(r->pid, &cs, 0, &r->ru)) < 0 && errno == EINTR)
			;
		if (got == r->pid) {
			w->have_status = w->orphaned = true;
			*ws = cs;
		}
	}
	if (reaper)
		ti_os_subreaper(false);
	ti_spawn_close_fd(&ch->pidfd);
}

int ti_spawn_run_wrapped(const struct ti_plan *plan, struct ti_child *ch, struct ti_wrap *w,
			 struct ti_record *r, struct ti_failure *f)
{
	static const struct itimerval off;
	static volatile int exec_errno;
	sigset_t old;
	int wstatus = 0, ws = 0;
	pid_t pid, got;

	w->started = w->have_status = w->orphaned = w->early = w->cut = false;
	w->exec_errno = 0;
	ch->pidfd = -1;
	ti_spawn_block(&old);
	/* perf stat's SIGCHLD handler forgets its child (child_pid = -1), so
	 * a command that ends before perf reaches wait4 is never waited for:
	 * perf exits 0 and the command's zombie goes to its reaper.  Be that
	 * reaper, so that the status is not lost (the pidfd's exit status
	 * exists only once someone reaps the zombie). */
	bool reaper = ti_os_subreaper(true) == 0;
	r->start_realtime_ns = ti_clock_real_ns();
	exec_errno = 0;
	int64_t t_wrap = ti_clock_mono_ns();
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
	ti_spawn_close_fd(&ch->status_wfd);
	/* Until the helper starts, the timeout and the stop signals end the
	 * wrapper: one that never starts the command (a hung perf) must not
	 * hold timeit, nor live on after it. */
	ti_spawn_pgid = pid;
	if (plan->timeout_s)
		ti_spawn_arm_timeout(plan->timeout_s > UINT64_MAX - TI_SPAWN_WRAPPER_START_S
				     ? plan->timeout_s : plan->timeout_s + TI_SPAWN_WRAPPER_START_S);
	if (ti_spawn_signal)
		kill(-pid, SIGKILL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	bool gone = false;
	read_wrapped(plan, ch, w, r, &ws, &gone);
	while ((got = wait4(pid, &wstatus, 0, NULL)) < 0 && errno == EINTR)
		;
	if (w->started && !w->have_status)
		w->early = command_outlived(ch, w, r, got == pid ? wstatus : 0, reaper, &ws);
	else if (w->started)
		w->early = gone || (got == pid && WIFSIGNALED(wstatus));
	/* Gone first in fork mode: the helper told the command's rusage. */
	w->orphaned |= gone;
	r->end_realtime_ns = ti_clock_real_ns();
	setitimer(ITIMER_REAL, &off, NULL);
	w->exec_errno = exec_errno;
	w->wstatus = got == pid ? wstatus : 0;
	settle_wrapped(ch, w, r, reaper, &ws);
	/* Stopped, or timed out, before the command started: the run ends
	 * as timeit's would (status 137), with the time it took. */
	w->cut = !w->started && (ti_spawn_alarm || ti_spawn_signal);
	if (w->cut) {
		r->start_ns = t_wrap;
		r->end_ns = ti_clock_mono_ns();
		r->real_s = (double)(r->end_ns - r->start_ns) / 1e9;
		ti_spawn_set_end(r, false, 0);
	}
	if (!w->started)
		return 0;
	if (!w->have_status)
		ws = (WIFEXITED(w->wstatus) ? WEXITSTATUS(w->wstatus) : 0) << 8;
	r->maxrss_bytes = ti_os_maxrss_bytes(r->ru.ru_maxrss);
	r->real_s = (double)(r->end_ns - r->start_ns) / 1e9;
	ti_spawn_set_end(r, w->have_status, ws);
	return 0;
}
