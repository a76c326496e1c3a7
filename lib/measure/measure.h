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

/* F->err of TI_MEASURE_EVENT when the event was lost at a privilege-
 * changing exec (R->counters_lost); not an errno. */
#define TI_MEASURE_LOST (-1)

/* Counters lost: below this fraction of the rusage CPU time seen by the
 * counters, and at least TI_LOST_MIN_NS short of it (ti_record_check_lost). */
#define TI_LOST_SEEN_MAX 0.75
#define TI_LOST_MIN_NS 10000000

/* Decide whether R's perf counters were detached from the command's tree
 * at a privilege-changing exec; if so every perf counter of R is marked
 * lost and not counted, so that the times come from rusage.  Sets
 * R->counters_seen and R->counters_lost; returns R->counters_lost. */
bool ti_record_check_lost(struct ti_record *r);

/* The same with at least MIN_NS short (timeit-perf: perf's own start-up
 * is in rusage's times, never in the counters'). */
bool ti_record_check_lost_min(struct ti_record *r, double min_ns);

/* Run PLAN once and measure it into R.  Returns 0 (R says how the child
 * ended), -1 with F filled in when nothing could be run (a redirect
 * could not be opened, fork failed), or TI_MEASURE_EVENT. */
int ti_measure(const struct ti_plan *plan, const struct ti_measure_opts *o,
	       struct ti_record *r, struct ti_failure *f);

#endif
