/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* noise.h: the per-run noise screen.  From a run's own counters and rusage,
 * the reasons its times may not be representative, as bits of the
 * "noise-flags" summary line (0 = clean) and as words in --json. */
#ifndef TI_NOISE_H
#define TI_NOISE_H

#include "json.h"
#include "record.h"

/* The bits; their values are part of the summary format (timeit(1)). */
enum {
	TI_NOISE_MIGRATED = 1,		/* cpu-migrations counted > 0 */
	TI_NOISE_PREEMPTED = 2,		/* involuntary context switches above the limit */
	TI_NOISE_MAJOR_FAULTS = 4,	/* major page faults (disk reads) during the run */
	TI_NOISE_SLOW_CLOCK = 8,	/* cycles / task-clock under 90 % of the TSC rate */
	TI_NOISE_MULTIPLEXED = 16,	/* a counter ran part of the time and was scaled */
};
#define TI_NOISE_NBITS 5

/* Involuntary context switches a run may have before it counts as
 * preempted: TI_NOISE_PREEMPT_BASE + TI_NOISE_PREEMPT_PER_S per second of
 * CPU time (user + sys). */
#define TI_NOISE_PREEMPT_BASE 5
#define TI_NOISE_PREEMPT_PER_S 50
/* Effective clock rate below this fraction of the TSC rate is slow. */
#define TI_NOISE_CLOCK_MIN 0.9

struct ti_noise {
	unsigned flags;
	long nivcsw, nivcsw_limit;
	double migrations;		/* -1: not counted */
	long majflt;
	double clock_ghz;		/* cycles / task-clock; 0: not both counted */
	double tsc_ghz;			/* tsc-ticks / real; 0: no invariant TSC */
};

/* Screen the run R into N. */
void ti_noise_screen(const struct ti_record *r, struct ti_noise *n);

/* The word for one bit ("cpu-migrations", "preempted", "major-faults",
 * "slow-clock", "multiplexed"), or NULL for an unknown bit. */
const char *ti_noise_reason(unsigned bit);

/* R's screen as a JSON object: flags, reasons and the figures behind them. */
void ti_noise_json(struct ti_json *j, const char *key, const struct ti_record *r);

#endif
