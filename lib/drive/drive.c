/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive.c: what an A/B run is asked for (drive.h): its configuration,
 * the plan of its looks, the words of its stop table; and the freeing of
 * what a run leaves.  The rounds themselves are drive-round.c's. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drive.h"
#include "stats.h"

const char *const ti_drive_stop_name[TI_DRIVE_STOPS] = {
	"", "decided", "same binary", "max samples", "fixed", "budget", "missing", "failed",
	"interrupted",
};

unsigned ti_drive_looks(unsigned min, unsigned max, unsigned step)
{
	unsigned n = 0;

	for (unsigned r = min; r <= max; r++)
		n += (r - min) % step == 0 || r == max;
	return n ? n : 1;
}

/* The paired tests whose p has no floor at small n. */
static bool floorless(enum ti_ab_paired_test t)
{
	return t == TI_AB_RANK_OR_T || t == TI_AB_RANK_OR_YUEN || t == TI_AB_PAIRED_T ||
	       t == TI_AB_TRIMMED_T;
}

unsigned ti_drive_first_look(const struct ti_ab_config *ab, unsigned max, unsigned step)
{
	/* The t has no floor, but a suite's adjustment asks a lone change
	 * for p below alpha / (looks * tests), 0.8 * 0.05 / (6 * 129) =
	 * 5.2e-5, and the t's p with few pairs falls slowly with its
	 * statistic t: about 2 / (pi t) on 1 degree of freedom (2 pairs:
	 * t above 12000), 1 / t^2 on 2 (3 pairs: 140), 2.2 / t^3 on 3 (4
	 * pairs: 35).  A benchmark at x0.4 among 129, 2 % own noise a run:
	 * decided at round 2 in no suite, at round 3 in 16 %, at round 4 in
	 * all (bench/ab-sim --table looks, docs/verdicts.md).  A look
	 * before round 4 spends alpha that it cannot use.  The moderated t
	 * (verdict.h) gives 3 pairs the suite's degrees of freedom: the same
	 * benchmark decided at round 3 in all (--table moderate; the
	 * default paired test's t alone is moderated); a suite too small
	 * for its prior is tested by the t there, as before. */
	if (floorless(ab->paired_test)) {
		bool mod = ab->paired_test == TI_AB_RANK_OR_T && ab->moderate &&
			   ab->moderate_from <= TI_DRIVE_FIRST_MODERATED &&
			   ab->moderate >= TI_DRIVE_FIRST_MODERATED;
		unsigned first = mod ? TI_DRIVE_FIRST_MODERATED : TI_DRIVE_FIRST_T;
		return max < first ? max : first;
	}
	for (unsigned m = 2; m < max; m++) {
		double a = ab->alpha / ti_drive_looks(m, max, step);
		if (ti_stats_min_p_mann_whitney(m, m) < a || ti_stats_min_p_signed_rank(m) < a)
			return m;
	}
	return max;
}

void ti_drive_final_look(const struct ti_drive *d, struct ti_ab_config *c)
{
	c->looks = d->c.fixed ? 1 : d->looks;
	c->look = d->c.fixed ? 1 : d->looked;
	c->last = false;
	if (!d->c.fixed && d->rounds > d->look_round && d->looked < d->looks) {
		c->look = d->looked + 1;
		c->last = true;
	}
}

void ti_drive_config_init(struct ti_drive_config *c)
{
	memset(c, 0, sizeof *c);
	c->runner = TI_DRIVE_LIT;
	c->schedule = TI_DRIVE_SEQUENTIAL;
	c->order = TI_DRIVE_ALTERNATE;
	c->seed = 1;
	c->min = 0;
	c->max = 30;
	c->step = 7;
	ti_ab_config_init(&c->ab);
}

int ti_drive_config_check(const struct ti_drive_config *c, char *err, size_t len)
{
	if (c->fixed && (c->samples < 1 || c->samples > TI_DRIVE_ROUNDS_MAX))
		return snprintf(err, len, "--samples: %u is out of range (1 to %u)", c->samples,
				TI_DRIVE_ROUNDS_MAX), -EINVAL;
	if (c->min > TI_DRIVE_ROUNDS_MAX || c->max < 1 ||
	    c->max > TI_DRIVE_ROUNDS_MAX || c->step < 1 || c->step > TI_DRIVE_ROUNDS_MAX)
		return snprintf(err, len, "the rounds are out of range (1 to %u)",
				TI_DRIVE_ROUNDS_MAX), -EINVAL;
	if (!c->fixed && c->min && c->min > c->max)
		return snprintf(err, len, "--min-samples %u is above --max-samples %u", c->min,
				c->max), -EINVAL;
	if (!(c->budget >= 0 && c->budget <= TI_DRIVE_BUDGET_MAX))
		return snprintf(err, len, "--budget: out of range (0 to %.0f seconds)",
				TI_DRIVE_BUDGET_MAX), -EINVAL;
	if (c->jobs > TI_DRIVE_JOBS_MAX)
		return snprintf(err, len, "--jobs: %u is out of range (1 to %u)", c->jobs,
				TI_DRIVE_JOBS_MAX), -EINVAL;
	if (c->jobs > 1 && c->schedule == TI_DRIVE_DUET)
		return snprintf(err, len, "--jobs: only with --schedule sequential (a duet runs "
				"each unit's A and B together)"), -EINVAL;
	if (c->schedule == TI_DRIVE_DUET) {
		if (c->ncpus < 2)
			return snprintf(err, len, "--schedule duet: needs two CPUs, one for A and one "
					"for B (%zu available; give --cpu, or --schedule sequential)",
					c->ncpus), -EINVAL;
		if (c->ncpus % 2)
			return snprintf(err, len, "--schedule duet: an even number of CPU sets is "
					"needed (%zu given)", c->ncpus), -EINVAL;
		for (size_t i = 1; i < c->ncpus; i++)
			if (ti_cpuset_count(&c->cpus[i]) != ti_cpuset_count(&c->cpus[0]))
				return snprintf(err, len, "--schedule duet: the CPU sets differ in "
						"size"), -EINVAL;
	}
	return 0;
}

void ti_drive_free(struct ti_drive *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->t[i].name);
		free(d->t[i].unit);
	}
	free(d->t);
	d->t = NULL;
	d->n = 0;
	for (size_t i = 0; i < d->units.n; i++)
		free(d->units.u[i]);
	free(d->units.u);
	d->units.u = NULL;
	d->units.n = 0;
}
