/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict-pair.c: whether the rounds of a benchmark are analysed as pairs
 * (verdict-int.h).  A_i and B_i ran in one round of an interleaved run:
 * they are pairs by design, whatever their correlation, wherever both
 * sides have the same rounds.  A pair whose side failed or was dropped
 * is left out; a benchmark whose ratio is the same in every round is
 * compared unpaired.  The old rule (TI_AB_PAIR_VOTE, kept for
 * bench/ab-sim) paired only when the suite's rounds moved together. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verdict-int.h"
#include "verdict.h"

/* The step of the decimal grid every one of the N values of X and Y
 * sits on (1, 0.1, ... 1e-9: the digits they were written with; 0.0001 s
 * for the summary's times), 0 when they are finer than that. */
static double decimal_step(const double *x, const double *y, size_t n)
{
	double q = 1;

	for (int k = 0; k <= 9; k++, q /= 10) {
		bool on = true;
		for (size_t i = 0; on && i < 2 * n; i++) {
			double v = (i < n ? x[i] : y[i - n]) / q;
			on = fabs(v) <= 1e9 && fabs(v - round(v)) <= 1e-6;
		}
		if (on)
			return q;
	}
	return 0;
}

/* The N log-ratios D of the pairs X, Y all the same, within what the
 * values' resolution can tell apart: each ratio moves by up to
 * step / 2 x (1 / x + 1 / y) when its values are rounded to STEP (the
 * decimal grid they sit on), and one value both rounded ranges can hold
 * is no spread (A 1.0, 2.0001 and B 1.0, 2.0 are one tick apart, not two
 * ratios); else to a part in 1e9.  The resolution counts below
 * TI_AB_PAIR_MIN_ROUNDS pairs: there a tick is all the spread a t would
 * see (p 0.017 for a B/A of 1.05 and a tick, 3 pairs); from 5 on, a ratio
 * the same to the last digit in every round is a change the t finds
 * at its resolution floor (verdict-measure.c). */
static bool same_ratio(const double *d, const double *x, const double *y, size_t n)
{
	double step = n < TI_AB_PAIR_MIN_ROUNDS ? decimal_step(x, y, n) : 0;
	double lo = -INFINITY, hi = INFINITY;

	for (size_t i = 0; i < n; i++) {
		double e = fmax(step / 2 * (1 / x[i] + 1 / y[i]), 5e-10);
		lo = fmax(lo, d[i] - e);
		hi = fmin(hi, d[i] + e);
	}
	return lo <= hi;
}

static int cmp_keyed(const void *x, const void *y)
{
	uint64_t a = ((const struct ti_ab_keyed *)x)->round;
	uint64_t b = ((const struct ti_ab_keyed *)y)->round;

	return (a > b) - (a < b);
}

/* The runs of B by round into OUT; false when two runs share a round
 * (then the rounds cannot be told apart). */
static bool by_round(const struct ti_ab_bench *b, const struct ti_ab_config *c,
		     struct ti_ab_keyed *out)
{
	for (size_t i = 0; i < b->n; i++)
		out[i] = (struct ti_ab_keyed){ b->s[i].round,
					       ti_ab_sample_usable(&b->s[i], c) ? b->s[i].value : NAN };
	qsort(out, b->n, sizeof *out, cmp_keyed);
	for (size_t i = 1; i < b->n; i++)
		if (out[i].round == out[i - 1].round)
			return false;
	return true;
}

/* The values of the rounds both sides of R share into S->px, S->py and
 * their log-ratios ln(B_i / A_i) into S->d; their count, or 0 when the
 * rounds are not the same on both sides (a side with a round the other
 * lacks, or a round twice).  Rounds in which either side failed or was
 * dropped are left out. */
size_t ti_ab_pair_rounds(const struct ti_ab_row *r, const struct ti_ab_config *c,
			 struct ti_ab_scratch *s)
{
	const struct ti_ab_bench *a = r->a, *b = r->b;
	size_t k = 0;

	if (a->n != b->n || !by_round(a, c, s->ka) || !by_round(b, c, s->kb))
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (s->ka[i].round != s->kb[i].round)
			return 0;
	for (size_t i = 0; i < a->n; i++) {
		if (isnan(s->ka[i].v) || isnan(s->kb[i].v))
			continue;
		s->rk[k] = s->ka[i].round;
		s->px[k] = s->ka[i].v;
		s->py[k] = s->kb[i].v;
		/* Equal values are a ratio of exactly 1, whatever the precision
		 * log's two results were kept in. */
		s->d[k++] = s->ka[i].v == s->kb[i].v ? 0 : log(s->kb[i].v) - log(s->ka[i].v);
	}
	return k;
}

void ti_ab_pair_row(struct ti_ab_row *r, const struct ti_ab_config *c, bool pair,
		    struct ti_ab_scratch *s, size_t m, size_t n)
{
	if (c->pairing == TI_AB_PAIR_NEVER)
		return;
	/* Rounds are pairs by design: A_i and B_i ran in one round of an
	 * interleaved run, whatever their correlation (the old rule,
	 * TI_AB_PAIR_VOTE, paired only when the suite's rounds moved
	 * together, and anti-correlated rounds broke the unpaired test;
	 * bench/ab-sim). */
	size_t np = ti_ab_pair_rounds(r, c, s);
	if (c->pairing == TI_AB_PAIR_VOTE && !pair)
		np = 0;
	/* B/A the same in every round, within the values' resolution, while
	 * the rounds themselves moved (1.0, 1.0001, 1.0345 on both sides; or
	 * 1.0, 2.0001 against 1.0, 2.0): the pairs have no spread to
	 * test against, and a floor at the values' resolution would call any
	 * such row unchanged within a hair.  Compared unpaired, the rounds'
	 * own spread is the evidence.  Sides constant themselves are truly
	 * a point. */
	if (np >= 2 && same_ratio(s->d, s->px, s->py, np) &&
	    !(ti_ab_constant(s->px, np) && ti_ab_constant(s->py, np))) {
		NOTE(r, "unpaired: B/A is the same in every round (within the values' resolution), so the pairs have no spread");
		return;
	}
	if (np >= 2) {
		r->paired = true;
		r->n_a = r->n_b = np;
		ti_ab_row_centre(r, s->px, np, s->py, np);
		if (np >= TI_AB_PAIR_MIN_ROUNDS)
			r->corr = ti_stats_spearman(s->px, s->py, np);
	} else if (np == 0 && (m > 1 || n > 1) && c->pairing != TI_AB_PAIR_VOTE) {
		if (!by_round(r->a, c, s->ka) || !by_round(r->b, c, s->kb))
			NOTE(r, "unpaired: runs of one input ran back to back, not in rounds");
		else
			NOTE(r, "unpaired: the rounds of A and B differ");
	}
}

static int cmp_plain(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The median of the K correlations RHO (sorted here) as RES's. */
static void median_corr(struct ti_ab_result *res, double *rho, size_t k)
{
	if (!k)
		return;
	qsort(rho, k, sizeof *rho, cmp_plain);
	res->pair_corr = ti_stats_quantile_sorted(rho, k, 0.5);
	res->pair_corr_n = k;
}

/* Whether to pair.  The rounds are pairs by design; only the old rule
 * (TI_AB_PAIR_VOTE, kept for bench/ab-sim) voted: the rank correlation of
 * A_i with B_i over the rounds of each benchmark both sides have, its
 * median over those with enough rounds. */
int ti_ab_pair_decide(const struct ti_ab_config *c, const struct ti_ab_set *sa,
		      const struct ti_ab_set *sb, struct ti_ab_scratch *s,
		      struct ti_ab_result *res)
{
	double *rho = malloc((sa->n + 1) * sizeof *rho);
	size_t k = 0, i = 0, j = 0;

	res->pair = c->pairing == TI_AB_PAIR_ALWAYS || c->pairing == TI_AB_PAIR_AUTO;
	res->pair_corr = NAN;
	if (c->pairing != TI_AB_PAIR_VOTE) {
		free(rho);
		return 0;
	}
	if (!rho)
		return -ENOMEM;
	while (i < sa->n && j < sb->n) {
		int cmp = strcmp(sa->b[i].name, sb->b[j].name);
		if (cmp) {
			cmp < 0 ? i++ : j++;
			continue;
		}
		struct ti_ab_row r;
		ti_ab_row_init(&r);
		r.a = &sa->b[i++];
		r.b = &sb->b[j++];
		if (c->keep && !c->keep(r.a->name, c->keep_arg))
			continue;
		size_t np = ti_ab_pair_rounds(&r, c, s);
		if (np >= TI_AB_PAIR_MIN_ROUNDS) {
			double q = ti_stats_spearman(s->px, s->py, np);
			if (!isnan(q))
				rho[k++] = q;
		}
	}
	median_corr(res, rho, k);
	/* Without enough rounds to judge, do not pair: fewer than 5 pairs
	 * cannot reach p 0.05 at all (2^(1-n) >= 1/16), 4 + 4 samples
	 * unpaired can. */
	res->pair = k && res->pair_corr >= TI_AB_PAIR_CORRELATION;
	free(rho);
	return 0;
}

/* The correlation reported: over the rows the table has (a filter's,
 * -p's, missing and failed ones take part in nothing). */
int ti_ab_pair_corr(struct ti_ab_result *res)
{
	double *rho = malloc((res->n + 1) * sizeof *rho);
	size_t k = 0;

	if (!rho)
		return -ENOMEM;
	for (size_t i = 0; i < res->n; i++)
		if (res->rows[i].paired && !isnan(res->rows[i].p) && !isnan(res->rows[i].corr))
			rho[k++] = res->rows[i].corr;
	median_corr(res, rho, k);
	free(rho);
	return 0;
}
