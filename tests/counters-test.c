/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* counters-test: the counter logic through the syscall seam.  Every case
 * scripts what perf_event_open and read return for each event, then checks
 * what ti_counters_* made of it. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "counters.h"
#include "fakeperf.h"
#include "summary.h"
#include "tap.h"

#ifdef HAVE_PERF_EVENTS
/* Events as raw configs 0..n-1 so each has its own script row. */
static void raw_events(struct ti_event_list *l, const char *list)
{
	char bad[64];
	int rc = ti_events_parse(list, l, bad, sizeof bad);
	TAP_OK(rc == 0, "parse %s", list);
}

int main(void)
{
	struct ti_event_list l;
	struct ti_counters c;
	struct ti_record r;
	int n;

	/* Plain counting: value as is, attributes as perf stat sets them. */
	fake_reset();
	raw_events(&l, "r0,r1");
	fake_scripts[0] = (struct fake_script){ .value = 1000, .enabled = 50, .running = 50 };
	fake_scripts[1] = (struct fake_script){ .value = 7, .enabled = 50, .running = 50 };
	n = ti_counters_open(&c, &fake_perf, &l, 42);
	TAP_OK(n == 2, "two counters opened (%d)", n);
	TAP_OK(fake_last_attr[0].disabled && fake_last_attr[0].enable_on_exec, "leader starts at exec");
	TAP_OK(fake_last_attr[0].inherit, "inherit: children are counted");
	TAP_OK(fake_last_attr[0].read_format == (PERF_FORMAT_TOTAL_TIME_ENABLED |
					    PERF_FORMAT_TOTAL_TIME_RUNNING), "read_format");
	TAP_OK(fake_last_attr[0].size == sizeof(struct perf_event_attr), "attr.size set");
	TAP_OK(fake_last_group_fd[1] == -1, "ungrouped events lead themselves");
	ti_counters_read(&c);
	TAP_OK(c.count[0].counted && c.count[0].scaled == 1000.0, "unscaled value");
	ti_counters_close(&c);
	TAP_OK(fake_closes == 2, "every fd closed");

	/* Multiplexed: running < enabled scales by enabled/running. */
	fake_reset();
	raw_events(&l, "r0");
	fake_scripts[0] = (struct fake_script){ .value = 1000, .enabled = 400, .running = 100 };
	ti_counters_open(&c, &fake_perf, &l, 42);
	ti_counters_read(&c);
	TAP_OK(c.count[0].scaled == 4000.0, "multiplexed value scaled x4 (%g)", c.count[0].scaled);
	{
		struct ti_buf b = { 0 };
		struct ti_summary so = { .r = &r };
		memset(&r, 0, sizeof r);
		ti_counters_to_record(&c, &r);
		ti_summary_format(&b, &so);
		TAP_OK(b.data && strstr(b.data, "\nr0         4000\n") != NULL, "summary has the scaled count");
		TAP_OK(b.data && strstr(b.data, "\nr0-running 0.2500\n") != NULL,
		       "summary has the running fraction");
		ti_buf_free(&b);
	}

	/* running == 0: opened but never on the PMU, so not counted. */
	fake_reset();
	raw_events(&l, "r0");
	fake_scripts[0] = (struct fake_script){ .value = 0, .enabled = 100, .running = 0 };
	ti_counters_open(&c, &fake_perf, &l, 42);
	ti_counters_read(&c);
	TAP_OK(c.count[0].opened && !c.count[0].counted, "running == 0 is not counted");
	memset(&r, 0, sizeof r);
	ti_counters_to_record(&c, &r);
	{
		struct ti_buf b = { 0 };
		struct ti_summary so = { .r = &r };
		ti_summary_format(&b, &so);
		TAP_OK(b.data && strstr(b.data, "r0") == NULL, "an uncounted event gets no line");
		ti_buf_free(&b);
	}

	/* ENOENT (no PMU in a VM): skipped, the others go on. */
	fake_reset();
	raw_events(&l, "r0,r1,r2");
	fake_scripts[1].open_errno = ENOENT;
	fake_scripts[0] = fake_scripts[2] = (struct fake_script){ .value = 5, .enabled = 1, .running = 1 };
	n = ti_counters_open(&c, &fake_perf, &l, 42);
	TAP_OK(n == 2, "ENOENT event skipped, two open (%d)", n);
	TAP_OK(c.count[1].err == ENOENT && !c.count[1].opened, "skip reason recorded");
	ti_counters_read(&c);
	TAP_OK(c.count[2].counted && c.count[2].scaled == 5.0, "event after the skipped one counts");

	/* EOPNOTSUPP, ENODEV, ENOSYS, ENXIO: the same skip. */
	static const int unsupported[] = { EOPNOTSUPP, ENODEV, ENOSYS, ENXIO };
	for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++) {
		fake_reset();
		raw_events(&l, "r0,r1");
		fake_scripts[0].open_errno = unsupported[i];
		n = ti_counters_open(&c, &fake_perf, &l, 42);
		TAP_OK(n == 1 && c.count[0].err == unsupported[i], "%s skipped",
		       strerror(unsupported[i]));
	}

	/* EINVAL for exclude_guest: retried without it (perf's evsel.c). */
	fake_reset();
	raw_events(&l, "r0");
	fake_scripts[0].guest_errno = EINVAL;
	n = ti_counters_open(&c, &fake_perf, &l, 42);
	TAP_OK(n == 1 && !fake_last_attr[0].exclude_guest, "EINVAL retried without exclude_guest");

	/* EACCES (perf_event_paranoid): retried user-only. */
	fake_reset();
	raw_events(&l, "r0,r1");
	fake_scripts[0].kernel_errno = EACCES;
	fake_scripts[1].kernel_errno = EPERM;
	n = ti_counters_open(&c, &fake_perf, &l, 42);
	TAP_OK(n == 2, "EACCES/EPERM retried and opened (%d)", n);
	TAP_OK(c.count[0].user_only && fake_last_attr[0].exclude_kernel && fake_last_attr[0].exclude_hv,
	       "retry is user-only");
	TAP_OK(c.count[1].user_only, "EPERM retried user-only too");

	/* EACCES even user-only: skipped, and the errno is kept for the note. */
	fake_reset();
	raw_events(&l, "r0");
	fake_scripts[0].open_errno = EACCES;
	n = ti_counters_open(&c, &fake_perf, &l, 42);
	memset(&r, 0, sizeof r);
	ti_counters_to_record(&c, &r);
	TAP_OK(n == 0 && r.counters_err == EACCES, "nothing opens: EACCES reported");

	/* An event that asked for :u is not retried (it already excludes kernel). */
	fake_reset();
	raw_events(&l, "r0:u");
	fake_scripts[0].open_errno = EACCES;
	ti_counters_open(&c, &fake_perf, &l, 42);
	TAP_OK(fake_last_attr[0].exclude_kernel && !c.count[0].user_only, ":u event not retried");

	/* Nor one that asked for :k: user-only, it would count nothing. */
	fake_reset();
	raw_events(&l, "r0:k");
	fake_scripts[0].open_errno = EACCES;
	n = ti_counters_open(&c, &fake_perf, &l, 42);
	TAP_OK(n == 0 && !fake_last_attr[0].exclude_kernel && !c.count[0].user_only &&
	       c.count[0].err == EACCES, ":k event not retried user-only");

	/* EMFILE: stop opening, every later event marked, the opened ones kept. */
	fake_reset();
	raw_events(&l, "r0,r1,r2,r3");
	fake_scripts[0] = (struct fake_script){ .value = 3, .enabled = 1, .running = 1 };
	fake_scripts[1].open_errno = EMFILE;
	n = ti_counters_open(&c, &fake_perf, &l, 42);
	TAP_OK(n == 1 && c.emfile, "EMFILE stops opening (%d open)", n);
	TAP_OK(c.count[2].err == EMFILE && c.count[3].err == EMFILE, "later events marked EMFILE");
	TAP_OK(fake_opens == 1, "no open attempted after EMFILE");

	/* A short read marks the event not counted. */
	fake_reset();
	raw_events(&l, "r0");
	fake_scripts[0].short_read = 1;
	ti_counters_open(&c, &fake_perf, &l, 42);
	TAP_OK(ti_counters_read(&c) < 0 && !c.count[0].counted, "short read: not counted");

	/* Groups: members follow their leader's fd; a failed leader hands over. */
	fake_reset();
	raw_events(&l, "{r0,r1},r2,{r3,r4}");
	fake_scripts[3].open_errno = ENOENT;
	ti_counters_open(&c, &fake_perf, &l, 42);
	TAP_OK(fake_last_group_fd[1] == 100, "member opened with the leader's fd");
	TAP_OK(!fake_last_attr[1].disabled && !fake_last_attr[1].enable_on_exec, "member follows the leader");
	TAP_OK(fake_last_group_fd[2] == -1, "next event outside the group leads itself");
	TAP_OK(fake_last_group_fd[4] == -1 && fake_last_attr[4].enable_on_exec,
	       "member of a failed leader leads instead");

	/* Nothing opens: the caller falls back to rusage. */
	fake_reset();
	raw_events(&l, "r0,r1");
	fake_scripts[0].open_errno = ENOENT;
	fake_scripts[1].open_errno = ENOENT;
	n = ti_counters_open(&c, &fake_perf, &l, 42);
	memset(&r, 0, sizeof r);
	ti_counters_to_record(&c, &r);
	TAP_OK(n == 0 && r.counters_err == ENOENT, "nothing opens: fallback with the reason");
	return tap_done();
}

#else

int main(void)
{
	struct ti_event_list l;
	struct ti_counters c;

	ti_events_default(&l);
	TAP_OK(ti_counters_open(&c, NULL, &l, 1) == 0, "portable build opens no counter");
	TAP_OK(c.first_err == ENOSYS && c.count[0].err == ENOSYS, "reason: ENOSYS");
	return tap_done();
}

#endif
