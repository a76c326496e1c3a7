/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict-adjust.c: many benchmarks and several looks (verdict-int.h).
 * A sequential driver may look at the samples up to C->looks times:
 * each look's tests run at its share of alpha under the spending
 * function (verdict.h, enum ti_ab_spend; alpha / looks by default), the
 * shares summing to alpha (Bonferroni over the looks), so that the whole
 * run of looks keeps alpha.  Within a look the p-values
 * are adjusted across the benchmarks: the false discovery rate
 * (Benjamini-Hochberg, the default), the family-wise rate (Holm), or
 * none. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "verdict-int.h"
#include "verdict.h"

const char *ti_ab_adjust_name(enum ti_stats_adjust a)
{
	return a == TI_STATS_ADJUST_HOLM ? "holm" : a == TI_STATS_ADJUST_BH ? "bh" : "none";
}

static const char *const spend_names[] = { "even", "pocock", "obf" };

const char *ti_ab_spend_name(enum ti_ab_spend s)
{
	return (unsigned)s < 3 ? spend_names[s] : "even";
}

int ti_ab_spend_parse(const char *s)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(s, spend_names[i]) == 0)
			return i;
	return -1;
}

/* F(T) of SPEND: the share of ALPHA spent by the information fraction T. */
static double spent(double alpha, double t, enum ti_ab_spend spend)
{
	if (t <= 0)
		return 0;
	if (t >= 1)
		return alpha;
	switch (spend) {
	case TI_AB_SPEND_POCOCK:
		return alpha * log1p(expm1(1) * t);
	case TI_AB_SPEND_OBF:
		/* 2 (1 - Phi(x)) = erfc(x / sqrt 2). */
		return erfc(ti_stats_normal_quantile(1 - alpha / 2) / sqrt(2 * t));
	default:
		return alpha * t;
	}
}

double ti_ab_look_alpha(double alpha, unsigned looks, unsigned look, bool last,
			enum ti_ab_spend spend)
{
	double n = looks ? looks : 1;

	if (look > n)
		look = (unsigned)n;
	if (look == 0) {
		/* Unknown: the smallest of the looks' levels. */
		double best = alpha;
		for (unsigned k = 1; k <= (unsigned)n; k++)
			best = fmin(best, ti_ab_look_alpha(alpha, looks, k, false, spend));
		return best;
	}
	if (spend == TI_AB_SPEND_EVEN)	/* exactly alpha / looks, as ever */
		return last ? alpha - alpha * (look - 1) / n : alpha / n;
	double before = spent(alpha, (look - 1) / n, spend);
	return last ? alpha - before : spent(alpha, look / n, spend) - before;
}

double ti_ab_adjust_alpha(const struct ti_ab_config *c)
{
	return ti_ab_look_alpha(c->alpha, c->looks, c->look, c->last, c->spend);
}

/* With few samples no p-value can fall below alpha at all (2 a side:
 * p >= 1/3; 5 pairs: p >= 1/16), whatever the adjustment; Holm's first
 * step compares the smallest p with alpha / tests, which may be out of
 * reach while alpha is not.  Say so in RES, from the N p-values P of its
 * rows, rather than leave every benchmark undecided without a word. */
static void note_reach(struct ti_ab_result *res, const struct ti_ab_config *c, double alpha,
		       const double *p, size_t n)
{
	size_t ntest = 0, best_m = 0;
	double best = 2;
	bool best_paired = false;

	for (size_t i = 0; i < n; i++) {
		if (isnan(p[i]))
			continue;
		ntest++;
		double mp = res->rows[i].min_p;
		if (mp < best) {
			best = mp;
			best_m = res->rows[i].n_a;
			best_paired = res->rows[i].paired;
		}
	}
	if (ntest > 0 && best >= alpha)
		ti_ab_result_note(res, "no test can reach alpha %g with these sample counts, "
				  "whatever the adjustment (smallest possible p %.4g, with %zu %s); "
				  "take more samples", alpha, best, best_m,
				  best_paired ? "pairs" : "and more samples a side");
	else if (c->adjust == TI_STATS_ADJUST_HOLM && ntest > 1 && best * (double)ntest >= alpha)
		ti_ab_result_note(res, "with %zu tests and these sample counts no benchmark can pass "
				  "Holm at alpha %g (smallest possible p %.4g); take more samples, or "
				  "use the default false-discovery-rate control", ntest, alpha, best);
}

int ti_ab_adjust(struct ti_ab_result *res, const struct ti_ab_config *c, double alpha,
		 const bool *pending)
{
	size_t n = res->n;
	double *p = calloc(n ? n : 1, sizeof *p);

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		p[i] = pending[i] ? res->rows[i].p : NAN;
	note_reach(res, c, alpha, p, n);
	if (ti_stats_adjust(p, n, c->adjust, p) < 0) {
		free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (pending[i]) {
			res->rows[i].p_adj = p[i];
			ti_ab_decide(&res->rows[i], c, alpha);
		}
	}
	free(p);
	return 0;
}
