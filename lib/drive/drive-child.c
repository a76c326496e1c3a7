/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-child.c: the driver's children.  Each runs in a process group of its
 * own, its output to a log file, pinned to its CPUs when it has some; a
 * duet's two wait at a barrier (a pipe they read until the driver closes
 * it) and start together.  A stop signal (SIGINT, SIGTERM, SIGHUP) ends
 * the running children at once: the handler passes SIGTERM on to their
 * process groups.  A job's group ends with it: what the job left running
 * there is killed as it is reaped.  A deadline (the budget) ends them
 * too, with SIGKILL: a hung test may ignore SIGTERM, and nothing of a run
 * cut short is kept. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "drive-child.h"
#include "os.h"
#include "record.h"

/* The children running, for the stop handler to end: a table that grows
 * (with the stop signals blocked) to hold every one, however many CPUs
 * the host has; 0 marks a free slot. */
static volatile pid_t *volatile running;
static volatile size_t nrunning;
static volatile sig_atomic_t stop_sig;
static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction old_act[3];
/* The deadline: passed, and SIGALRM's handler while one is set. */
static volatile sig_atomic_t expired;
static struct sigaction old_alrm;
static bool armed;

static void on_stop(int sig)
{
	int e = errno;

	stop_sig = sig;
	for (size_t i = 0; i < nrunning; i++)
		if (running[i] > 0)
			kill(-running[i], SIGTERM);
	errno = e;
}

static void on_deadline(int sig)
{
	int e = errno;

	(void)sig;
	expired = 1;
	for (size_t i = 0; i < nrunning; i++)
		if (running[i] > 0)
			kill(-running[i], SIGKILL);
	errno = e;
}

int ti_drive_child_deadline(double at)
{
	struct itimerval it = { { 0, 0 }, { 0, 0 } };

	if (armed) {
		setitimer(ITIMER_REAL, &it, NULL);
		sigaction(SIGALRM, &old_alrm, NULL);
		armed = false;
	}
	expired = 0;
	if (!(at > 0))
		return 0;
	double left = at - ti_drive_now();
	if (left <= 0) {
		expired = 1;
		return 0;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_deadline;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old_alrm);	/* no SA_RESTART: waits wake */
	armed = true;
	it.it_value.tv_sec = (time_t)left;
	it.it_value.tv_usec = (suseconds_t)((left - (double)(time_t)left) * 1e6);
	if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
		it.it_value.tv_usec = 1;
	if (setitimer(ITIMER_REAL, &it, NULL) < 0) {
		int rc = -errno;
		sigaction(SIGALRM, &old_alrm, NULL);
		armed = false;
		return rc;
	}
	return 0;
}

bool ti_drive_child_expired(void)
{
	return expired;
}

void ti_drive_child_signals(bool on)
{
	for (size_t i = 0; i < 3; i++) {
		if (on) {
			struct sigaction sa;
			memset(&sa, 0, sizeof sa);
			sa.sa_handler = on_stop;
			sigemptyset(&sa.sa_mask);
			sigaction(stop_sigs[i], &sa, &old_act[i]);	/* no SA_RESTART: waits wake */
		} else {
			sigaction(stop_sigs[i], &old_act[i], NULL);
		}
	}
	if (on)
		stop_sig = 0;
}

int ti_drive_child_stopped(void)
{
	return stop_sig;
}

double ti_drive_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Room in the table for N more children (the stop signals blocked: the
 * handler sees the old table or the new, whole).  Returns 0 or -ENOMEM. */
static int track_room(size_t n)
{
	size_t used = 0;

	for (size_t i = 0; i < nrunning; i++)
		used += running[i] != 0;
	if (used + n <= nrunning)
		return 0;
	size_t cap = nrunning ? nrunning : 16;
	while (cap < used + n)
		cap *= 2;
	pid_t *t = calloc(cap, sizeof *t);
	if (!t)
		return -ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < nrunning; i++)
		if (running[i])
			t[k++] = running[i];
	pid_t *old = (pid_t *)running;
	running = t;
	nrunning = cap;
	free(old);
	return 0;
}

static void track(pid_t pid, bool add)
{
	for (size_t i = 0; i < nrunning; i++) {
		if (add ? running[i] == 0 : running[i] == pid) {
			running[i] = add ? pid : 0;
			return;
		}
	}
}

/* In the child: set up, wait at the barrier, execute.  Only
 * async-signal-safe calls up to exec. */
static void child(struct ti_drive_job *j, int ready_w, int gate_r, int gate_w)
{
	int fd;
	char c = 0;
	sigset_t none;

	setpgid(0, 0);
	for (size_t i = 0; i < 3; i++)
		signal(stop_sigs[i], SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (j->cpus && ti_os_set_affinity(j->cpus) < 0)
		_exit(TI_STATUS_CANNOT_EXEC);
	if ((fd = open("/dev/null", O_RDONLY)) >= 0 && fd != 0) {
		dup2(fd, 0);
		close(fd);
	}
	if (j->log) {
		if ((fd = open(j->log, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
			_exit(TI_STATUS_CANNOT_EXEC);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	if (gate_w >= 0)
		close(gate_w);
	if (ready_w >= 0) {
		(void)!write(ready_w, &c, 1);
		close(ready_w);
	}
	if (gate_r >= 0) {
		while (read(gate_r, &c, 1) < 0 && errno == EINTR)
			;
		close(gate_r);
	}
	if (j->run)
		_exit(j->run(j));
	execvp(j->argv[0], j->argv);
	_exit(TI_STATUS_NOT_FOUND);
}

int ti_drive_child_start(struct ti_drive_job **jobs, size_t n)
{
	int ready[2] = { -1, -1 }, gate[2] = { -1, -1 };
	sigset_t block, old;
	size_t started = 0;
	int rc = 0;

	if (n > 1 && (pipe(ready) < 0 || pipe(gate) < 0)) {
		rc = -errno;
		goto out;
	}
	/* No stop signal nor the deadline between fork and track: the
	 * handlers must see every child they have to end. */
	sigemptyset(&block);
	for (size_t i = 0; i < 3; i++)
		sigaddset(&block, stop_sigs[i]);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, &old);
	/* A stop that came before, or the deadline passed: nothing starts. */
	if (stop_sig || expired)
		rc = -EINTR;
	else
		rc = track_room(n);
	for (size_t i = 0; i < n && rc == 0; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			rc = -errno;
			break;
		}
		if (pid == 0) {
			if (ready[0] >= 0)
				close(ready[0]);
			child(jobs[i], ready[1], gate[0], gate[1]);
		}
		setpgid(pid, pid);
		jobs[i]->pid = pid;
		jobs[i]->done = false;
		track(pid, true);
		started++;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (ready[1] >= 0) {
		close(ready[1]);
		ready[1] = -1;
	}
	/* Every child set up (or gone): release them together. */
	for (size_t k = 0; k < started && ready[0] >= 0; k++) {
		char c;
		ssize_t r = read(ready[0], &c, 1);
		if (r < 0 && errno == EINTR) {
			k--;
			continue;
		}
		if (r <= 0)
			break;
	}
	double t = ti_drive_now();
	for (size_t i = 0; i < started; i++)
		jobs[i]->t0 = t;
out:
	for (size_t i = 0; i < 2; i++) {
		if (ready[i] >= 0)
			close(ready[i]);
		if (gate[i] >= 0)
			close(gate[i]);
	}
	if (rc < 0) {
		for (size_t i = 0; i < started; i++) {
			kill(-jobs[i]->pid, SIGTERM);
			ti_drive_child_wait(jobs[i]);
		}
	}
	return rc;
}

/* Wait for a child, WHICH or (-1) any, to end, and when MINE says it is
 * one of the jobs (its own process group), kill what is left of that
 * group before reaping it: a process the job left behind (a test's
 * "sleep 1000 &") would live on, pinned to the duet's CPU, beside the
 * runs that come after.  The group is killed while its leader is a zombie
 * (waitid's WNOWAIT), whose pid, and so the group's id, cannot have been
 * given to another process yet.  Returns the child's pid with *ST its
 * status, or -1 with errno. */
static pid_t reap(pid_t which, bool (*mine)(pid_t, void *), void *arg, int *st)
{
	siginfo_t si;
	pid_t pid;

	memset(&si, 0, sizeof si);
	while (waitid(which < 0 ? P_ALL : P_PID, which < 0 ? 0 : (id_t)which, &si,
		      WEXITED | WNOWAIT) < 0)
		if (errno != EINTR)
			return -1;
	if (mine(si.si_pid, arg))
		kill(-si.si_pid, SIGKILL);
	while ((pid = waitpid(si.si_pid, st, 0)) < 0)
		if (errno != EINTR)
			return -1;
	return pid;
}

struct jobs {
	struct ti_drive_job **j;
	size_t n;
};

static bool in_jobs(pid_t pid, void *arg)
{
	const struct jobs *js = arg;

	for (size_t i = 0; i < js->n; i++)
		if (js->j[i]->pid == pid && !js->j[i]->done)
			return true;
	return false;
}

int ti_drive_child_wait_any(struct ti_drive_job **jobs, size_t n)
{
	struct jobs js = { jobs, n };

	for (;;) {
		int st;
		pid_t pid = reap(-1, in_jobs, &js, &st);
		if (pid < 0)
			return -errno;
		for (size_t i = 0; i < n; i++) {
			if (jobs[i]->pid == pid && !jobs[i]->done) {
				jobs[i]->t1 = ti_drive_now();
				jobs[i]->status = st;
				jobs[i]->done = true;
				track(pid, false);
				return (int)i;
			}
		}
	}
}

static bool is_job(pid_t pid, void *arg)
{
	return ((const struct ti_drive_job *)arg)->pid == pid;
}

void ti_drive_child_wait(struct ti_drive_job *j)
{
	int st;

	if (j->done)
		return;
	if (reap(j->pid, is_job, j, &st) == j->pid) {
		j->t1 = ti_drive_now();
		j->status = st;
	} else {
		j->status = -1;
	}
	j->done = true;
	track(j->pid, false);
}
