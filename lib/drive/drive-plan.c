/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-plan.c: what a budget can decide, said as soon as it is known
 * (drive-util.h).  After round 1, its cost: how many rounds the budget
 * holds, and whether a look is among them.  After round 2, the rounds'
 * noise: each test's log-ratio ln(B/A) in round 1 and in round 2 differ
 * by the noise alone (its change, whatever it is, cancels), so the MAD
 * of d2 - d1 over the tests (about their median: a shift common to all,
 * the CPUs swapped or round 1 cold, is no noise of a pair), over 0.6745
 * (the normal's MAD) and sqrt 2, is the noise of one round's log-ratio
 * on this machine, this day, for these tests; and from it the smallest
 * change the rounds planned decide half the time: the paired t at the
 * last look, at its share of alpha (t_{n-1} sigma / sqrt n), with the
 * suite's adjustment at its mildest (every test changed: the look's
 * alpha) and at its strictest (a lone change: alpha over the tests).
 * Below the gate (min_change) nothing is decided either. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drive-runner.h"
#include "drive-util.h"
#include "stats.h"

void ti_drive_plan_rounds(struct ti_drive *d, unsigned rounds, double last, size_t last_n,
			  size_t next, double elapsed)
{
	const struct ti_drive_config *c = &d->c;

	if (c->fixed || !(c->budget > 0) || next == 0 || last_n == 0)
		return;
	double est = last * (double)next / (double)last_n;
	double fit = est > 0 ? 1 + floor((c->budget - elapsed) / est) : (double)rounds;
	if (!(fit >= 1))
		fit = 1;	/* round 1 ran, whatever it cost */
	if (fit >= (double)d->min) {
		unsigned n = fit < (double)rounds ? (unsigned)fit : rounds;
		/* The looks within those rounds (with --max-samples given, the
		 * plan reaches past them). */
		unsigned looks = ti_drive_looks(d->min, n, c->step);
		ti_drive_note(d, "the budget of %g s holds %u rounds at round 1's cost (%.1f s); "
			      "%u look%s, the first at round %u", c->budget, n, last, looks,
			      looks == 1 ? "" : "s", d->min);
		return;
	}
	ti_drive_note(d, "the budget of %g s holds %.0f round%s at round 1's cost (%.1f s), fewer "
		      "than the %u of the first look: nothing but byte-identical binaries can be "
		      "decided (a look needs a budget of about %.0f s)", c->budget, fit,
		      fit == 1 ? "" : "s", last, d->min, ceil(elapsed + est * (d->min - 1)));
}

/* The median of a test's values on one side in round R (NAN: none). */
static double round_value(const struct ti_drive *d, const struct ti_ab_bench *b, unsigned r)
{
	double v[64];
	size_t n = 0;

	for (size_t i = 0; b && i < b->n && n < sizeof v / sizeof v[0]; i++) {
		if (d->runner->keyed && (uint32_t)b->s[i].round != r)
			continue;
		if (!b->s[i].failed && isfinite(b->s[i].value) && b->s[i].value > 0)
			v[n++] = b->s[i].value;
	}
	return n ? ti_stats_median(v, n) : NAN;
}

/* The noise of one round's ln(B/A) from rounds 1 and 2 of the tests in
 * play: *K of them; NAN when fewer than 3. */
static double noise(struct ti_drive *d, size_t *k)
{
	struct ti_ab_set s[2][2];
	double *e = calloc(d->n ? d->n : 1, sizeof *e), sigma = NAN;
	bool ok = e != NULL;

	*k = 0;
	memset(s, 0, sizeof s);
	for (unsigned r = 0; r < 2 && ok; r++)
		for (int side = 0; side < 2 && ok; side++)
			ok = d->runner->load(d, side, r + 1, &s[r][side]) == 0;
	for (size_t i = 0; i < d->n && ok; i++) {
		const char *name = d->t[i].name;
		if (d->t[i].stop != TI_DRIVE_ACTIVE)
			continue;
		double a1 = round_value(d, ti_ab_find(&s[0][0], name), 1);
		double b1 = round_value(d, ti_ab_find(&s[0][1], name), 1);
		double a2 = round_value(d, ti_ab_find(&s[1][0], name), 2);
		double b2 = round_value(d, ti_ab_find(&s[1][1], name), 2);
		double x = log(b2 / a2) - log(b1 / a1);
		if (isfinite(x))
			e[(*k)++] = x;
	}
	if (ok && *k >= 3) {
		double mid = ti_stats_median(e, *k);
		for (size_t i = 0; i < *k; i++)
			e[i] = fabs(e[i] - mid);
		sigma = ti_stats_median(e, *k) / 0.6745 / sqrt(2);
	}
	for (unsigned r = 0; r < 2; r++)
		for (int side = 0; side < 2; side++)
			ti_ab_set_free(&s[r][side]);
	free(e);
	/* A load that failed said so in D: not the run's error. */
	d->err[0] = '\0';
	return sigma;
}

/* The smallest change, in percent, that N pairs with noise SIGMA decide
 * half the time at level ALPHA, two-sided (its mean at the t's critical
 * value); at least the gate. */
static double smallest(double sigma, unsigned n, double alpha, double gate)
{
	double t = ti_stats_t_quantile(1 - alpha / 2, (double)(n - 1));
	double pct = 100 * (exp(t * sigma / sqrt((double)n)) - 1);
	return pct > gate ? pct : gate;
}

void ti_drive_plan_noise(struct ti_drive *d, unsigned rounds)
{
	const struct ti_ab_config *ab = &d->c.ab;
	size_t k, m = d->n;

	if (d->c.fixed || rounds < 2 || ti_drive_active(d) == 0)
		return;
	double sigma = noise(d, &k);
	if (!isfinite(sigma))
		return;
	double a = ti_ab_look_alpha(ab->alpha, d->looks, d->looks, true, ab->spend);
	a *= ti_ab_t_share(ab);
	double many = smallest(sigma, rounds, a, ab->min_change);
	double lone = smallest(sigma, rounds, ab->adjust == TI_STATS_ADJUST_NONE ? a : a / (double)m,
			       ab->min_change);
	ti_drive_note(d, "rounds 1-2: the noise of ln(B/A) is %.1f %% a round (from %zu "
		      "tests); in the %u rounds planned, a change of about %.1f %% is decided half "
		      "the time where many tests change, %.1f %% where one alone does; a "
		      "smaller one seldom",
		      100 * sigma, k, rounds, many, lone);
}
