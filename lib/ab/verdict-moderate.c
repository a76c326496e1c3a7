/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict-moderate.c: Smyth's moderated t for the rows with few pairs
 * (verdict-int.h; Smyth 2004, Stat Appl Genet Mol Biol 3:3).  Two or three
 * pairs give Student's t 1 or 2 degrees of freedom: its p falls as 1 / t
 * or 1 / t^2, and a suite's adjustment (alpha / (looks x tests)) asks for
 * a t in the thousands.  A suite has many benchmarks whose log-ratios'
 * variances, on the same machine, are alike: each row's variance s^2 on d
 * degrees of freedom is shrunk toward the prior s0^2 on d0 that the spread
 * of all the rows' ln s^2 gives (ti_stats_prior_variance),
 *
 *   s~^2 = (d0 s0^2 + d s^2) / (d0 + d),  t = mean / (s~ / sqrt n),
 *
 * on d0 + d degrees of freedom.  The prior comes from the first pairs
 * of every row, as many as a moderated row has at most: the rounds they
 * all had at the first look.  A table over benchmarks stopped at
 * different rounds (timeit-ab's last) then tests a benchmark stopped at
 * round 3 against the prior its look had; from all their pairs, the rows
 * run on to round 30 changed it, and a benchmark at x0.4 decided at
 * round 3 came out undecided in 1 or 2 of 20 suites of fifteenfold
 * spreads.  A row noisier than the suite is shrunk
 * toward a quieter prior, which makes its t too large; the spread of the
 * variances sets d0 low then, and bench/ab-sim --table moderate measured
 * the A/A rate under the unequal and heavy-tailed models.  Only the test
 * and its interval change: the equivalence interval, which says
 * "unchanged", stays Student's. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "verdict-int.h"
#include "verdict.h"

/* Row I of RES takes part: pending, paired, of at least C->moderate_from
 * pairs (2 at least), tested by the t alternative with its variance. */
static bool usable(const struct ti_ab_result *res, const struct ti_ab_config *c,
		   const bool *pending, const struct ti_ab_alt *alts, size_t i)
{
	const struct ti_ab_row *r = &res->rows[i];

	return pending[i] && r->paired && r->n_a >= 2 && r->n_a >= c->moderate_from &&
	       alts[i].test && !isnan(alts[i].var) && !isnan(r->p);
}

int ti_ab_moderate(struct ti_ab_result *res, const struct ti_ab_config *c, double alpha,
		   const bool *pending, struct ti_ab_alt *alts)
{
	size_t n = res->n, k = 0, used = 0;
	double *s2, *df, s0sq, d0;
	int rc;

	if (!c->moderate || n < 2)
		return 0;
	if (!(s2 = malloc(2 * n * sizeof *s2)))
		return -ENOMEM;
	df = s2 + n;
	for (size_t i = 0; i < n; i++) {
		if (!usable(res, c, pending, alts, i))
			continue;
		s2[k] = alts[i].var;
		df[k++] = (double)(alts[i].var_n - 1);
	}
	if (k < c->moderate_min || k < 2) {
		free(s2);
		return 0;
	}
	rc = ti_stats_prior_variance(s2, df, k, &s0sq, &d0);
	free(s2);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0 || !(s0sq > 0))
		return 0;
	double share = ti_ab_t_share(c);
	for (size_t i = 0; i < n; i++) {
		struct ti_ab_row *r = &res->rows[i];
		struct ti_ab_alt *a = &alts[i];
		if (!usable(res, c, pending, alts, i) || r->n_a > c->moderate)
			continue;
		double d = (double)(r->n_a - 1);
		double v = isinf(d0) ? s0sq : (d0 * s0sq + d * a->var) / (d0 + d);
		double dft = d0 + d, se = sqrt(v / (double)r->n_a);
		double t = a->est / se, q = ti_stats_t_quantile(1 - alpha / 2, dft);
		a->p = fmin(1, 2 * ti_stats_t_cdf(-fabs(t), dft) / share);
		a->lo = a->est - q * se;
		a->hi = a->est + q * se;
		a->level = 1 - alpha;
		a->test = "moderated t";
		used++;
	}
	if (used) {
		char dfs[32] = "infinite";
		if (!isinf(d0))
			snprintf(dfs, sizeof dfs, "%.3g", d0);
		ti_ab_result_note(res, "%zu benchmark%s of at most %u pairs tested by the moderated t: "
				  "%zu give their log-ratios a prior sd of %.2f%% on %s degrees of "
				  "freedom", used, used == 1 ? "" : "s", c->moderate, k,
				  100 * sqrt(s0sq), dfs);
	}
	return 0;
}
