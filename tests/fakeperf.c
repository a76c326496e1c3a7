/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* fakeperf: see fakeperf.h. */
#include "config.h"

#include "fakeperf.h"

#ifdef HAVE_PERF_EVENTS
#include <errno.h>
#include <string.h>

struct fake_script fake_scripts[FAKE_EVENTS];
struct perf_event_attr fake_last_attr[FAKE_EVENTS];
int fake_last_group_fd[FAKE_EVENTS];
pid_t fake_last_pid;
int fake_opens, fake_closes;

static int fake_open(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd,
		     unsigned long flags)
{
	const struct fake_script *s;

	(void)cpu;
	(void)flags;
	if (a->config >= FAKE_EVENTS) {
		errno = ENOENT;
		return -1;
	}
	s = &fake_scripts[a->config];
	fake_last_attr[a->config] = *a;
	fake_last_group_fd[a->config] = group_fd;
	fake_last_pid = pid;
	if (s->open_errno) {
		errno = s->open_errno;
		return -1;
	}
	if (s->kernel_errno && !a->exclude_kernel) {
		errno = s->kernel_errno;
		return -1;
	}
	if (s->guest_errno && a->exclude_guest) {
		errno = s->guest_errno;
		return -1;
	}
	fake_opens++;
	return 100 + (int)a->config;
}

static ssize_t fake_read(int fd, void *buf, size_t len)
{
	const struct fake_script *s = &fake_scripts[fd - 100];
	uint64_t v[3] = { s->value, s->enabled, s->running };
	size_t n = len < sizeof v ? len : sizeof v;

	if (s->short_read)
		return 8;
	memcpy(buf, v, n);
	return (ssize_t)n;
}

static int fake_close(int fd)
{
	(void)fd;
	fake_closes++;
	return 0;
}

const struct ti_perf_ops fake_perf = { fake_open, fake_read, fake_close };

void fake_reset(void)
{
	memset(fake_scripts, 0, sizeof fake_scripts);
	memset(fake_last_attr, 0, sizeof fake_last_attr);
	memset(fake_last_group_fd, 0, sizeof fake_last_group_fd);
	fake_last_pid = -1;
	fake_opens = fake_closes = 0;
}
#endif
