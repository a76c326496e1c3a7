/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* repeat.h: --repeat and --warmup.  Runs a plan several times and folds the
 * measured runs into one record of medians plus n, min and MAD per metric.
 * The aggregation is a pure function over records, so tests can feed it. */
#ifndef TI_REPEAT_H
#define TI_REPEAT_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "json.h"
#include "measure.h"
#include "record.h"

/* Largest --repeat (and --warmup) accepted: every measured record is kept
 * in memory for --json (about 5 KiB each). */
#define TI_REPEAT_MAX 10000

/* One metric over the measured runs.  MAD is the median absolute deviation
 * from the median times 1.4826, an estimate of the standard deviation that
 * one wild run cannot move (timeit(1), REPEATED RUNS).  The summary's
 * min- and mad- lines are written by lib/measure/summary.c. */
struct ti_repeat_metric {
	char key[TI_EVENT_NAME_MAX + 8];	/* summary key: real, user, sys, maxrss, an event's */
	bool is_time;				/* seconds (printed %.4f / %.6f), else a count */
	size_t n;				/* runs that had a value */
	double median, min, mad;
};

struct ti_repeat_agg {
	size_t n;				/* measured runs */
	/* The summary's record: the medians of real, user, sys, maxrss, the
	 * timestamp counter and every counted event; how it ended (status,
	 * signal, ...) from the first run with a non-zero status, else from
	 * the last run.  A counter's running/enabled are those of the run
	 * where it ran the smallest fraction of the time. */
	struct ti_record median;
	size_t nmetrics;
	struct ti_repeat_metric metric[4 + TI_MAX_EVENTS];
	unsigned noise_flags;			/* TI_NOISE_* of any run (lib/measure/noise.h) */
};

/* Fold the N >= 1 measured RUNS (all of the same plan and events) into A.
 * Returns 0, -EINVAL when N is 0, or -ENOMEM. */
int ti_repeat_aggregate(const struct ti_record *runs, size_t n, struct ti_repeat_agg *a);

/* A is written as a JSON object: n and, per metric, median/min/mad. */
void ti_repeat_json(struct ti_json *j, const char *key, const struct ti_repeat_agg *a);

/* What the progress callback sees after each run. */
struct ti_repeat_progress {
	unsigned done, total;		/* runs finished / planned, warmups included */
	bool warmup;			/* the run just finished was a warmup */
	double median_real;		/* median real time of the measured runs so far (NAN: none) */
	double eta_s;			/* estimated seconds left */
};

struct ti_repeat_opts {
	unsigned warmup;		/* runs not counted, before the measured ones */
	unsigned repeat;		/* measured runs, >= 1 */
	bool keep_going;		/* go on after a run with a non-zero status */
	/* Called between runs (never inside the measured path); may be NULL. */
	void (*progress)(void *arg, const struct ti_repeat_progress *p);
	void *arg;
	bool all_output;		/* stdout of every run shown, not the first only */
};

/* Run PLAN O->warmup times unmeasured, then O->repeat times into RUNS
 * (stdout of the runs after the first goes to /dev/null unless redirected
 * or O->all_output)
 * (room for O->repeat records), setting *NRUNS.  Stops after a run whose
 * status is non-zero unless O->keep_going (an interrupt always stops); a
 * warmup run that stops the series is returned as the only run.  A stop
 * signal that came between runs (ti_spawn_stop_signal) starts no further
 * run: TI_REPEAT_STOPPED is returned with the runs so far (a warmup as the
 * only run when no measured run was done).  Returns 0, TI_REPEAT_STOPPED,
 * or ti_measure's negative result with F filled in. */
#define TI_REPEAT_STOPPED 1

int ti_repeat_run(const struct ti_plan *plan, const struct ti_measure_opts *mo,
		  const struct ti_repeat_opts *o, struct ti_record *runs, size_t *nruns,
		  struct ti_failure *f);

#endif
