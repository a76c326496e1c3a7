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

void ti_drive_plan_rounds(struct ti_drive *d, unsigned rounds, double held, double est,
			  double last, double elapsed)
{
	const struct ti_drive_config *c = &d->c;
	double whole = floor(held);
	bool part = held - whole >= TI_DRIVE_PART;
	unsigned n = (double)rounds < whole + part ? rounds : (unsigned)whole + part;

	if (n >= d->min) {
		/* The looks within those rounds (with --max-samples given, the
		 * plan reaches past them). */
		unsigned looks = ti_drive_looks(d->min, n, c->step);
		ti_drive_note(d, "the budget of %g s holds %.3g round%s at round 1's cost (%.1f s): "
			      "%u rounds%s; %u look%s, the first at round %u", c->budget, held,
			      held == 1 ? "" : "s", last, n, part && n == (unsigned)whole + 1 ?
			      ", the last for the tests nearest a verdict" : "", looks,
			      looks == 1 ? "" : "s", d->min);
		return;
	}
	ti_drive_note(d, "the budget of %g s holds %.3g round%s at round 1's cost (%.1f s), fewer "
		      "than the %u of the first look: nothing but byte-identical binaries can be "
		      "decided (a look needs a budget of about %.0f s)", c->budget, held,
		      held == 1 ? "" : "s", last, d->min,
		      ceil(elapsed + est * ((double)d->min - 2 + TI_DRIVE_PART)));
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

/* Each test's ln(B/A) in rounds 1 to R, X[(k - 1) * D->n + i] for test i
 * in round k (NAN: none); NULL when the results cannot be read. */
static double *ratios(struct ti_drive *d, unsigned r)
{
	double *x = malloc((size_t)r * (d->n ? d->n : 1) * sizeof *x);
	bool ok = x != NULL;

	for (unsigned k = 1; k <= r && ok; k++) {
		struct ti_ab_set s[2];
		memset(s, 0, sizeof s);
		ok = d->runner->load(d, 0, k, &s[0]) == 0 && d->runner->load(d, 1, k, &s[1]) == 0;
		for (size_t i = 0; i < d->n && ok; i++) {
			double a = round_value(d, ti_ab_find(&s[0], d->t[i].name), k);
			double b = round_value(d, ti_ab_find(&s[1], d->t[i].name), k);
			x[(k - 1) * d->n + i] = log(b / a);
		}
		ti_ab_set_free(&s[0]);
		ti_ab_set_free(&s[1]);
	}
	/* A load that failed said so in D: not the run's error. */
	d->err[0] = '\0';
	if (!ok) {
		free(x);
		return NULL;
	}
	return x;
}

/* The MAD of the finite values of E (N; reordered), about their median,
 * over 0.6745: a normal's sigma; NAN when fewer than 3. */
static double mad_sigma(double *e, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(e[i]))
			e[k++] = e[i];
	if (k < 3)
		return NAN;
	double mid = ti_stats_median(e, k);
	for (size_t i = 0; i < k; i++)
		e[i] = fabs(e[i] - mid);
	return ti_stats_median(e, k) / 0.6745;
}

/* The noise of one round's ln(B/A) from rounds 1 and 2 of the tests in
 * play: *K of them; NAN when fewer than 3. */
static double noise(struct ti_drive *d, size_t *k)
{
	double *x = ratios(d, 2), *e = calloc(d->n ? d->n : 1, sizeof *e), sigma = NAN;

	*k = 0;
	for (size_t i = 0; x && e && i < d->n; i++) {
		double v = x[d->n + i] - x[i];
		if (d->t[i].stop == TI_DRIVE_ACTIVE && isfinite(v))
			e[(*k)++] = v;
	}
	if (x && e)
		sigma = mad_sigma(e, *k) / sqrt(2);
	free(x);
	free(e);
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

/* A test in play's claim on the last round: how near a verdict it is. */
struct claim {
	size_t i;
	double m, s;		/* the mean of its ln(B/A), their spread */
	double score, cost;	/* max(|m|, g - |m|) / s; its cost in a round */
	bool kept;
};

static int by_score(const void *a, const void *b)
{
	const struct claim *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The budget's time left, after round R, is too short for a round of
 * every test in play.  Its tests nearest a verdict run it: by the mean m
 * of their ln(B/A) so far against their noise s (their own spread over
 * the rounds, at least the median of the tests' spreads), max(|m|,
 * g - |m|) / s with g the gate, changed or unchanged, in that order, as
 * many as their costs in round R (scaled to round R's wall) fit in
 * TI_DRIVE_PART_FILL of the time left.  The choice looks at rounds 1 to
 * R, but each test's verdict at the look after it is its own, at the
 * level planned, among all the tests (those left out keep their R pairs
 * in the suite's adjustment): a test left out only loses its chance. */
#define TI_DRIVE_PART_FILL 0.85

size_t ti_drive_plan_part(struct ti_drive *d, unsigned r, double left, double last,
			  size_t last_n)
{
	const double g = log1p(d->c.ab.min_change / 100);
	struct claim *cl = calloc(d->n ? d->n : 1, sizeof *cl);
	double *sd = calloc(d->n ? d->n : 1, sizeof *sd), *x = ratios(d, r);
	double known = 0, share = last_n ? last / (double)last_n : last;
	size_t nc = 0, ns = 0, ran = 0, keep = 0;

	if (!cl || !sd || !x || r < 2 || !(left > 0))
		goto out;
	for (size_t i = 0; i < d->n; i++) {
		const struct ti_drive_test *t = &d->t[i];
		if (t->rounds == r && t->cost > 0) {
			known += t->cost;
			ran++;
		}
		if (t->stop != TI_DRIVE_ACTIVE)
			continue;
		double sum = 0, sq = 0;
		size_t k = 0;
		for (unsigned j = 0; j < r; j++) {
			double v = x[j * d->n + i];
			if (isfinite(v)) {
				sum += v;
				sq += v * v;
				k++;
			}
		}
		double m = k ? sum / (double)k : NAN;
		double s = k > 1 ? sqrt(fmax(0, (sq - sum * m) / (double)(k - 1))) : NAN;
		cl[nc++] = (struct claim){ .i = i, .m = m, .s = s };
		if (isfinite(s))
			sd[ns++] = s;
	}
	/* Round R's wall over the costs known: what a test's cost is in a
	 * round (the gaps between runs, or two runs at once). */
	double scale = known > 0 ? last * (double)ran / (double)(last_n ? last_n : 1) / known : 1;
	double pool = ns ? ti_stats_median(sd, ns) : NAN;
	for (size_t k = 0; k < nc; k++) {
		const struct ti_drive_test *t = &d->t[cl[k].i];
		double m = fabs(cl[k].m), s = fmax(cl[k].s, pool);
		if (!(s > 0))
			s = isfinite(pool) && pool > 0 ? pool : 1e-3;
		cl[k].score = isfinite(m) ? fmax(m, g - m) / s : -1;
		cl[k].cost = t->cost > 0 ? t->cost * scale : share;
	}
	qsort(cl, nc, sizeof *cl, by_score);
	double used = 0, room = TI_DRIVE_PART_FILL * left;
	for (size_t k = 0; k < nc; k++) {
		if (cl[k].score >= 0 && used + cl[k].cost <= room) {
			used += cl[k].cost;
			keep++;
			cl[k].kept = true;
		}
	}
	if (keep == 0)
		goto out;
	for (size_t k = 0; k < nc; k++) {
		struct ti_drive_test *t = &d->t[cl[k].i];
		if (cl[k].kept)
			continue;
		t->stop = TI_DRIVE_BUDGET;
		snprintf(t->why, sizeof t->why, "left out of round %u, which the budget held for "
			 "%zu of the %zu tests in play", r + 1, keep, nc);
	}
	ti_drive_note(d, "round %u: the budget's %.0f s left hold %zu of the %zu tests in play, "
		      "those nearest a verdict; the rest stop at the budget", r + 1, left, keep, nc);
out:
	free(cl);
	free(sd);
	free(x);
	return keep;
}
