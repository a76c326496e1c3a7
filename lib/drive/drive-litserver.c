/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-litserver.c: one long-lived lit a side of a duet (drive-util.h),
 * abrun/lit-server.py: started before round 1 with the user's lit
 * arguments, it loads Python, lit and the suite once and runs each test
 * asked for in a worker that it forks.  A duet's job is then a client,
 * the driver's own child, pinned and released at the barrier as a lit
 * process would be, that hands the server its request over a Unix socket
 * in the output directory and exits with lit's status; the worker joins
 * the client's process group and takes its CPUs, so that a stop or the
 * budget ends it with its client.  A lit process a run costs Python's and
 * lit's start, about 0.17 s on this project's VM, twice a test and round
 * (docs/LLVM-TEST-SUITE.md). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "drive-util.h"
#include "record.h"

static const char side_name[2] = { 'A', 'B' };

/* How long a server may take to load lit and discover the tests. */
#define READY_SECONDS 600

/* A job's request: its bytes (the length of the rest, then log, test and
 * argv, each ended by a NUL), then the directory and the socket's name
 * in it. */
struct request {
	size_t len, dir_off, sock_off;
	char data[];
};

static void say(const char *what)
{
	static const char head[] = "timeit-ab: lit server: ";
	(void)!write(2, head, sizeof head - 1);
	(void)!write(2, what, strlen(what));
	(void)!write(2, "\n", 1);
}

static bool write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/* In the child, after the barrier: the request, and lit's status back.
 * Async-signal-safe calls only. */
static int client(const struct ti_drive_job *j)
{
	const struct request *q = j->run_arg;
	const char *sock = q->data + q->sock_off;
	struct sockaddr_un sa;
	char pid[24], reply[16];
	size_t np = sizeof pid, nr = 0;
	int fd;

	pid[--np] = '\0';
	for (unsigned long v = (unsigned long)getpid(); np == sizeof pid - 1 || v; v /= 10)
		pid[--np] = (char)('0' + v % 10);
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	if (strlen(sock) >= sizeof sa.sun_path || chdir(q->data + q->dir_off) < 0) {
		say("cannot reach the socket");
		return TI_STATUS_CANNOT_EXEC;
	}
	memcpy(sa.sun_path, sock, strlen(sock));
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 ||
	    connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		say("cannot connect: the server is gone");
		return TI_STATUS_CANNOT_EXEC;
	}
	if (!write_all(fd, pid + np, sizeof pid - np) || !write_all(fd, q->data, q->len) ||
	    shutdown(fd, SHUT_WR) < 0) {
		say("cannot send the request");
		return TI_STATUS_CANNOT_EXEC;
	}
	for (ssize_t r; nr < sizeof reply - 1;) {
		if ((r = read(fd, reply + nr, sizeof reply - 1 - nr)) < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		nr += (size_t)r;
	}
	int st = 0;
	size_t k = nr > 0 && reply[0] == 's';	/* the worker took the run */
	for (; k < nr && reply[k] >= '0' && reply[k] <= '9' && st < 256; k++)
		st = st * 10 + (reply[k] - '0');
	if (k == (nr > 0 && reply[0] == 's') || k >= nr || reply[k] != '\n' || st > 255) {
		say("no status from the server's worker");
		return TI_STATUS_CANNOT_EXEC;
	}
	return st;
}

int ti_drive_litserver_job(const struct ti_drive_litserver *s, struct ti_drive_job *j,
			   const char *test)
{
	struct ti_buf b = { 0 };
	struct request *q;
	size_t n = strlen(j->log) + strlen(test) + 2;

	/* The length of the fields first: a request cut short is refused. */
	for (char **a = j->argv; *a; a++)
		n += strlen(*a) + 1;
	ti_buf_printf(&b, "%zu", n);
	ti_buf_append(&b, "", 1);
	ti_buf_append(&b, j->log, strlen(j->log) + 1);
	ti_buf_append(&b, test, strlen(test) + 1);
	for (char **a = j->argv; *a; a++)
		ti_buf_append(&b, *a, strlen(*a) + 1);
	size_t len = b.len;
	size_t dir_off = b.len;
	ti_buf_append(&b, s->dir, strlen(s->dir) + 1);
	size_t sock_off = b.len;
	ti_buf_append(&b, s->sock, strlen(s->sock) + 1);
	if (b.failed || !(q = malloc(sizeof *q + b.len))) {
		ti_buf_free(&b);
		return -ENOMEM;
	}
	q->len = len;
	q->dir_off = dir_off;
	q->sock_off = sock_off;
	memcpy(q->data, b.data, b.len);
	ti_buf_free(&b);
	free(j->run_arg);
	j->run_arg = q;
	j->run = client;
	return 0;
}

/* Wait for the server's "ready PID N" on FD: its pid, or -1. */
static pid_t ready(int fd)
{
	char line[64];
	size_t n = 0;
	double end = ti_drive_now() + READY_SECONDS;

	while (n < sizeof line - 1 && ti_drive_now() < end && !ti_drive_child_stopped()) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int rc = poll(&p, 1, 1000);
		if (rc < 0 && errno != EINTR)
			return -1;
		if (rc <= 0)
			continue;
		ssize_t r = read(fd, line + n, sizeof line - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		n += (size_t)r;
		line[n] = '\0';
		if (strchr(line, '\n')) {
			long pid = 0;
			return sscanf(line, "ready %ld", &pid) == 1 && pid > 1 ? (pid_t)pid : -1;
		}
	}
	return -1;
}

/* In the child: start the server as a grandchild, in a process group of
 * its own, its input ALIVE (timeit-ab's end holds it open), its output
 * READY, its errors LOG; then go, so that the server is no child of
 * timeit-ab's, which reaps every child of its own as a job. */
static void launch(char **argv, int alive, int ready_w, const char *log)
{
	pid_t pid = fork();

	if (pid != 0)
		_exit(pid < 0 ? 1 : 0);
	setpgid(0, 0);
	dup2(alive, 0);
	dup2(ready_w, 1);
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd >= 0 && fd != 2) {
		dup2(fd, 2);
		close(fd);
	}
	execvp(argv[0], argv);
	_exit(TI_STATUS_NOT_FOUND);
}

int ti_drive_litserver_start(struct ti_drive *d, int side, struct ti_drive_litserver *s)
{
	const struct ti_drive_config *c = &d->c;
	struct ti_drive_argv a = { 0 };
	int rc = 0, p[2] = { -1, -1 }, alive[2] = { -1, -1 };

	memset(s, 0, sizeof *s);
	s->pid = -1;
	s->alive = s->out = -1;
	s->dir = ti_drive_strdup(c->out);
	s->sock = ti_drive_fmt("lit.%c.sock", side_name[side]);
	s->log = ti_drive_fmt("%s/lit-server.%c.log", c->out, side_name[side]);
	for (char *const *w = c->lit_server; *w; w++)
		rc |= ti_drive_arg(&a, ti_drive_strdup(*w));
	rc |= ti_drive_arg(&a, ti_drive_strdup(c->out));
	rc |= ti_drive_arg(&a, s->sock ? ti_drive_strdup(s->sock) : NULL);
	rc |= ti_drive_arg(&a, ti_drive_strdup(c->lit));
	for (size_t i = 0; i < c->nlit_args; i++)
		rc |= ti_drive_arg(&a, ti_drive_strdup(c->lit_args[i]));
	rc |= ti_drive_arg(&a, ti_drive_strdup(c->side_dir[side]));
	if (rc || !s->dir || !s->sock || !s->log) {
		ti_drive_argv_free(a.v);
		return -ENOMEM;
	}
	char *path = ti_drive_fmt("%s/%s", s->dir, s->sock);
	if (path)
		remove(path);
	free(path);
	if (pipe(p) < 0 || pipe(alive) < 0) {
		rc = -errno;
		for (int k = 0; k < 2; k++) {
			if (p[k] >= 0)
				close(p[k]);
		}
		ti_drive_argv_free(a.v);
		return rc;
	}
	/* timeit-ab's ends: no child it execs holds them. */
	fcntl(alive[1], F_SETFD, FD_CLOEXEC);
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	pid_t mid = fork();
	if (mid == 0) {
		close(p[0]);
		close(alive[1]);
		launch(a.v, alive[0], p[1], s->log);
	}
	rc = mid < 0 ? -errno : 0;
	ti_drive_argv_free(a.v);
	close(p[1]);
	close(alive[0]);
	while (mid > 0 && waitpid(mid, NULL, 0) < 0 && errno == EINTR)
		;
	s->alive = alive[1];
	if (rc == 0)
		s->pid = ready(p[0]);
	/* Kept: its end of file is the server's end (the server and its
	 * spare hold the other end, a worker lets it go). */
	s->out = p[0];
	s->up = s->pid > 0;
	if (!s->up)
		ti_drive_litserver_stop(s);
	if (rc < 0)
		return rc;
	return ti_drive_child_stopped() ? -EINTR : 0;
}

bool ti_drive_litserver_alive(const struct ti_drive_litserver *s)
{
	char buf[256];
	struct pollfd p = { .fd = s->out, .events = POLLIN };

	/* Not its process group: killed, it may linger as zombies until
	 * whoever adopted it reaps them. */
	if (!s->up || s->out < 0)
		return false;
	while (poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP))) {
		ssize_t r = read(s->out, buf, sizeof buf);
		if (r == 0)
			return false;
		if (r < 0 && errno != EINTR)
			return false;
	}
	return true;
}

/* How long a server has to go once told, before SIGKILL. */
#define STOP_SECONDS 5

/* Wait up to SECS for the end of file on FD (what is read before it
 * dropped): whether it came. */
static bool wait_end(int fd, double secs)
{
	char buf[256];
	double end = ti_drive_now() + secs;

	for (double now = ti_drive_now(); now < end; now = ti_drive_now()) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int rc = poll(&p, 1, (int)((end - now) * 1000) + 1);
		if (rc < 0 && errno != EINTR)
			return false;
		if (rc <= 0)
			continue;
		ssize_t r = read(fd, buf, sizeof buf);
		if (r == 0)
			return true;
		if (r < 0 && errno != EINTR)
			return false;
	}
	return false;
}

void ti_drive_litserver_stop(struct ti_drive_litserver *s)
{
	/* The end of its input tells it to go, with its spare worker; the
	 * group's SIGTERM too, should it not read; SIGKILL at last.  Gone
	 * when the pipe it said "ready" on ends (it and its spare hold it),
	 * not when its group does: that lingers as zombies until whoever
	 * adopted them reaps them (seen here: 2 s). */
	if (s->alive >= 0)
		close(s->alive);
	s->alive = -1;
	if (s->pid > 0 && kill(-s->pid, SIGTERM) == 0 && !(s->out >= 0 && wait_end(s->out, STOP_SECONDS)))
		kill(-s->pid, SIGKILL);
	if (s->out >= 0)
		close(s->out);
	s->out = -1;
	s->pid = -1;
	if (s->dir && s->sock) {
		char *path = ti_drive_fmt("%s/%s", s->dir, s->sock);
		if (path)
			remove(path);
		free(path);
	}
	s->up = false;
}

void ti_drive_litserver_free(struct ti_drive_litserver *s)
{
	ti_drive_litserver_stop(s);
	free(s->dir);
	free(s->sock);
	free(s->log);
	memset(s, 0, sizeof *s);
	s->alive = s->out = -1;
}
