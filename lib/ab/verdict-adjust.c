/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict-adjust.c: many benchmarks and several looks (verdict-int.h).
 * A sequential driver may look at the samples up to C->looks times:
 * each look's tests run at alpha / looks (Bonferroni over the looks), so
 * that the whole run of looks keeps alpha.  Within a look the p-values
 * are adjusted across the benchmarks: the false discovery rate
 * (Benjamini-Hochberg, the default), the family-wise rate (Holm), or
 * none. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "verdict-int.h"
#include "verdict.h"

const char *ti_ab_adjust_name(enum ti_stats_adjust a)
{
	return a == TI_STATS_ADJUST_HOLM ? "holm" : a == TI_STATS_ADJUST_BH ? "bh" : "none";
}

double ti_ab_adjust_alpha(const struct ti_ab_config *c)
{
	return c->alpha / (c->looks ? c->looks : 1);
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
