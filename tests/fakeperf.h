/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* fakeperf: a scripted perf_event_open behind lib/measure/counters.h's seam, for
 * the unit tests.  Each event is a raw config 0..FAKE_EVENTS-1 (parse
 * "r0,r1,..."), which picks its script row; an opened event's fd is
 * 100 + config. */
#ifndef TI_TESTS_FAKEPERF_H
#define TI_TESTS_FAKEPERF_H

#include <stdint.h>
#include <sys/types.h>

#include "counters.h"

#ifdef HAVE_PERF_EVENTS
#include <linux/perf_event.h>

#define FAKE_EVENTS 16

struct fake_script {
	int open_errno;		/* every open fails with this (0: succeeds) */
	int kernel_errno;	/* fails only while exclude_kernel == 0 (paranoid 2) */
	int guest_errno;	/* fails only while exclude_guest == 1 */
	uint64_t value, enabled, running;	/* what read returns */
	int short_read;		/* read returns 8 bytes only */
};

extern struct fake_script fake_scripts[FAKE_EVENTS];
/* What the last open of each config was given, and of any event. */
extern struct perf_event_attr fake_last_attr[FAKE_EVENTS];
extern int fake_last_group_fd[FAKE_EVENTS];
extern pid_t fake_last_pid;
/* Successful opens and closes since fake_reset. */
extern int fake_opens, fake_closes;

extern const struct ti_perf_ops fake_perf;

/* Every script row succeeding and reading zeros; counts cleared. */
void fake_reset(void);

#endif
#endif
