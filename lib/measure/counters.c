/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* counters.c: open, read and scale perf_event counters on a child. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "counters.h"

#ifdef HAVE_PERF_EVENTS
#include <linux/perf_event.h>
#include <sys/syscall.h>

static int sys_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

const struct ti_perf_ops ti_perf_sys = { sys_open, read, close };

static void fill_attr(struct perf_event_attr *a, const struct ti_event *e, bool leader)
{
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = e->type;
	a->config = e->config;
	a->config1 = e->config1;
	a->config2 = e->config2;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* Children of the child count too (driver -> cc1 -> ld).  Inherited
	 * counts are folded into ours when each descendant exits. */
	a->inherit = 1;
	/* A leader starts counting at exec, not at fork: the child's set-up
	 * (redirects, rlimits, chdir) is not measured.  Members follow it. */
	a->disabled = leader;
	a->enable_on_exec = leader;
	a->exclude_user = e->exclude_user;
	a->exclude_kernel = e->exclude_kernel;
	a->exclude_hv = e->exclude_hv;
	/* perf stat sets exclude_guest and drops it on EINVAL (evsel.c). */
	a->exclude_guest = 1;
}

/* Open one event, retrying the way perf stat does: without exclude_guest
 * on EINVAL, user-only on EACCES/EPERM (perf_event_paranoid >= 2, no
 * CAP_PERFMON).  Returns the fd or -errno. */
static int open_one(const struct ti_perf_ops *ops, const struct ti_event *e, pid_t pid,
		    int group_fd, bool *user_only)
{
	struct perf_event_attr a;
	int fd;

	fill_attr(&a, e, group_fd < 0);
	*user_only = false;
	fd = ops->open(&a, pid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EINVAL) {
		a.exclude_guest = 0;
		fd = ops->open(&a, pid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
	}
	/* Only an event that counts user mode has a user-only form: a :k
	 * event would be left counting nothing. */
	if (fd < 0 && (errno == EACCES || errno == EPERM) && !a.exclude_kernel && !a.exclude_user) {
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		fd = ops->open(&a, pid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
		*user_only = fd >= 0;
	}
	return fd < 0 ? -errno : fd;
}

int ti_counters_open(struct ti_counters *c, const struct ti_perf_ops *ops,
		     const struct ti_event_list *events, pid_t pid)
{
	int leader_fd = -1, leader_group = 0;

	memset(c, 0, sizeof *c);
	c->ops = ops ? ops : &ti_perf_sys;
	c->n = events->n;
	for (size_t i = 0; i < events->n; i++) {
		const struct ti_event *e = &events->ev[i];
		struct ti_count *k = &c->count[i];
		bool user_only;
		int fd;

		c->fd[i] = -1;
		memcpy(k->name, e->name, sizeof k->name);
		if (c->emfile) {
			k->err = EMFILE;
			continue;
		}
		/* A group whose leader failed: its next member leads instead. */
		if (e->group != leader_group)
			leader_fd = -1;
		fd = open_one(c->ops, e, pid, leader_fd, &user_only);
		if (fd < 0) {
			k->err = -fd;
			if (!c->first_err)
				c->first_err = -fd;
			if (-fd == EMFILE || -fd == ENFILE)
				c->emfile = true;
			continue;
		}
		if (leader_fd < 0) {
			leader_fd = fd;
			leader_group = e->group;
		}
		c->fd[i] = fd;
		k->opened = true;
		k->user_only = user_only;
		c->nopened++;
	}
	return c->nopened;
}

int ti_counters_read(struct ti_counters *c)
{
	int rc = 0;

	for (size_t i = 0; i < c->n; i++) {
		struct ti_count *k = &c->count[i];
		/* read_format TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING without
		 * PERF_FORMAT_GROUP: v[0] value, v[1] enabled, v[2] running. */
		uint64_t v[3];
		ssize_t got;

		if (c->fd[i] < 0)
			continue;
		got = c->ops->read(c->fd[i], v, sizeof v);
		if (got != (ssize_t)sizeof v) {
			k->err = got < 0 ? errno : EIO;
			k->counted = false;
			rc = -k->err;
			continue;
		}
		k->value = v[0];
		k->enabled = v[1];
		k->running = v[2];
		/* running == 0: never scheduled on the PMU, so nothing counted. */
		k->counted = v[2] > 0;
		if (!k->counted)
			k->scaled = 0;
		else if (v[2] >= v[1])
			k->scaled = (double)v[0];
		else
			k->scaled = (double)v[0] * ((double)v[1] / (double)v[2]);
	}
	return rc;
}

int ti_counters_probe(const struct ti_perf_ops *ops, const struct ti_event *e, bool *user_only)
{
	bool uo;
	int fd;

	if (!ops)
		ops = &ti_perf_sys;
	/* On timeit itself (pid 0, any CPU), alone, with the same retries as
	 * a real run, so "available" means a run would count it. */
	fd = open_one(ops, e, 0, -1, &uo);
	if (fd < 0)
		return fd;
	ops->close(fd);
	if (user_only)
		*user_only = uo;
	return 0;
}

void ti_counters_close(struct ti_counters *c)
{
	for (size_t i = 0; i < c->n; i++) {
		if (c->fd[i] >= 0)
			c->ops->close(c->fd[i]);
		c->fd[i] = -1;
	}
}

#else /* !HAVE_PERF_EVENTS: the portable build counts nothing. */

const struct ti_perf_ops ti_perf_sys = { NULL, NULL, NULL };

int ti_counters_open(struct ti_counters *c, const struct ti_perf_ops *ops,
		     const struct ti_event_list *events, pid_t pid)
{
	(void)ops;
	(void)pid;
	memset(c, 0, sizeof *c);
	c->n = events->n;
	c->first_err = ENOSYS;
	for (size_t i = 0; i < events->n; i++) {
		c->fd[i] = -1;
		memcpy(c->count[i].name, events->ev[i].name, sizeof c->count[i].name);
		c->count[i].err = ENOSYS;
	}
	return 0;
}

int ti_counters_read(struct ti_counters *c)
{
	(void)c;
	return 0;
}

void ti_counters_close(struct ti_counters *c)
{
	(void)c;
}

int ti_counters_probe(const struct ti_perf_ops *ops, const struct ti_event *e, bool *user_only)
{
	(void)ops;
	(void)e;
	(void)user_only;
	return -ENOSYS;
}

#endif

void ti_counters_to_record(const struct ti_counters *c, struct ti_record *r)
{
	r->ncounts = c->n;
	memcpy(r->counts, c->count, c->n * sizeof c->count[0]);
	r->counters_err = c->nopened ? 0 : c->first_err;
}

const char *ti_counters_strerror(int err)
{
	/* The errnos perf stat prints as <not supported> (tools/perf,
	 * evsel__open_strerror and the counter's "supported" flag). */
	if (err == ENOENT || err == ENODEV || err == ENXIO || err == EOPNOTSUPP)
		return "not supported on this machine";
	return strerror(err);
}
