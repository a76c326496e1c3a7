/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* measure.h: one measured run, from fork to a filled-in record. */
#ifndef TI_MEASURE_H
#define TI_MEASURE_H

#include <stdbool.h>

#include "counters.h"
#include "events.h"
#include "plan.h"
#include "record.h"
#include "spawn.h"

struct ti_measure_opts {
	const struct ti_event_list *events;	/* NULL or empty: rusage only */
	const struct ti_perf_ops *ops;		/* NULL: the real system calls */
	bool rusage_times;			/* user/sys from rusage even with task-clock */
	bool strict_events;			/* an event not counted fails the run */
	bool rusage_counts;			/* context-switches, page-faults from rusage
						 * unless counted (the default events) */
};

/* ti_measure's result when strict_events is set and an event could not be
 * opened (the command did not run) or was never scheduled (it ran):
 * F->what is the event's name, F->err its errno (0: never scheduled). */
#define TI_MEASURE_EVENT (-2)

/* Run PLAN once and measure it into R.  Returns 0 (R says how the child
 * ended), -1 with F filled in when nothing could be run (a redirect
 * could not be opened, fork failed), or TI_MEASURE_EVENT. */
int ti_measure(const struct ti_plan *plan, const struct ti_measure_opts *o,
	       struct ti_record *r, struct ti_failure *f);

#endif
