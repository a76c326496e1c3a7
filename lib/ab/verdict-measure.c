/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict-measure.c: the test of a benchmark, its estimate and its two
 * intervals, and their floors (verdict-int.h).  Paired rounds: a rank
 * test on the log-ratios (signed rank, its Walsh-average centre and
 * interval) or Student's t on them, chosen by whether the rank test's
 * smallest p can pass the adjustment; unpaired: Welch's t on the log
 * times with Hsu's degrees of freedom, or a rank test.  The floors: the
 * values' resolution under every t (Sheppard), the rank tests' smallest
 * p, and the noise floor an A/A pair gives. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "verdict-int.h"
#include "verdict.h"

/* The resolution of the values of a row on the ln scale: the smallest
 * gap between two distinct values, relative to their median (W: scratch
 * of M + N).  Values written with 4 decimals are never closer than 1e-4;
 * the t tests take the sd of a value rounded to it, RES / sqrt(12), as
 * their floor (Sheppard's correction), so that samples that look the
 * same are not a spread of 0. */
static double resolution(const double *x, size_t m, const double *y, size_t n, double *w)
{
	double gap = INFINITY;

	memcpy(w, x, m * sizeof *w);
	memcpy(w + m, y, n * sizeof *w);
	ti_stats_sort(w, m + n);
	for (size_t i = 1; i < m + n; i++)
		if (w[i] > w[i - 1] && w[i] - w[i - 1] < gap)
			gap = w[i] - w[i - 1];
	double med = ti_stats_quantile_sorted(w, m + n, 0.5);
	return isfinite(gap) && med > 0 ? gap / med : 0;
}

double ti_ab_t_share(const struct ti_ab_config *c)
{
	return c->t_share > 0 && c->t_share <= 1 ? c->t_share : 1;
}

/* The variance of the first KV pairs of S->d, up to as many as the
 * moderated t takes (verdict-moderate.c), at least their resolution's as
 * the t's own, into ALT (none below 2 pairs): the rounds every benchmark
 * had at the first look, so that a table over benchmarks stopped at
 * different rounds gives the prior that look gave. */
static void first_pairs_var(struct ti_ab_scratch *s, size_t kv, struct ti_ab_alt *alt)
{
	double mean = 0, ss = 0;

	if (kv < 2)
		return;
	for (size_t i = 0; i < kv; i++)
		mean += s->d[i] / (double)kv;
	for (size_t i = 0; i < kv; i++)
		ss += (s->d[i] - mean) * (s->d[i] - mean);
	double flv = resolution(s->px, kv, s->py, kv, s->w) * sqrt(2.0 / 12);
	alt->var = fmax(ss / (double)(kv - 1), flv * flv);
	alt->var_n = kv;
}

/* The paired test of C on R's NP log-ratios (S->d), its interval H at
 * 1 - ALPHA and EQ at 1 - 2 ALPHA; the rank test's t alternative in ALT. */
static int measure_paired(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha,
			  struct ti_ab_scratch *s, size_t m, size_t n, struct ti_ab_alt *alt,
			  struct ti_stats_hl *hp, struct ti_stats_hl *eqp)
{
	struct ti_stats_mw t;
	struct ti_stats_hl h, eq;
	size_t np = r->n_a;
	int rc;

	/* The log-ratio of two values rounded to RES: sd RES sqrt(2/12). */
	double fl = resolution(s->px, np, s->py, np, s->w) * sqrt(2.0 / 12);
	/* Pratt's signed rank (and the sign test) give the zeros no sign:
	 * the smallest p is that of the pairs that differ, 2^(1 - nonzero),
	 * and quantised short runs have many equal pairs. */
	size_t nz = np;
	for (size_t i = 0; i < np; i++)
		nz -= s->d[i] == 0;
	switch (c->paired_test) {
	case TI_AB_SIGN:
		if ((rc = ti_stats_sign_test(s->d, np, alpha, &t, &h)) < 0 ||
		    (rc = ti_stats_sign_test(s->d, np, 2 * alpha, &t, &eq)) < 0)
			return rc;
		r->test = "sign";
		r->min_p = ti_stats_min_p_signed_rank(nz);
		break;
	case TI_AB_PAIRED_T:
	case TI_AB_TRIMMED_T: {
		double trim = c->paired_test == TI_AB_TRIMMED_T ? 0.2 : 0;
		if ((rc = ti_stats_t1(s->d, np, trim, fl, alpha, &t, &h)) < 0 ||
		    (rc = ti_stats_t1(s->d, np, trim, fl, 2 * alpha, &t, &eq)) < 0)
			return rc;
		r->test = trim > 0 ? "Yuen" : "t";
		break;
	}
	case TI_AB_SIMES: {
		/* The paired test is exact under any load shared within
		 * a round but cannot go below 2^(1-n); Mann-Whitney on
		 * all values resolves far finer where the rounds share
		 * nothing.  Simes' combination of the two is valid for
		 * positively dependent tests (Sarkar 1998). */
		struct ti_stats_mw u;
		if ((rc = ti_stats_walsh(s->d, np, alpha, &h)) < 0 ||
		    (rc = ti_stats_walsh(s->d, np, 2 * alpha, &eq)) < 0 ||
		    (rc = ti_stats_signed_rank(s->d, np, &t)) < 0)
			return rc;
		for (size_t i = 0; i < m; i++)
			s->x[i] = log(s->x[i]);
		for (size_t j = 0; j < n; j++)
			s->y[j] = log(s->y[j]);
		if ((rc = ti_stats_mann_whitney_cached(s->x, m, s->y, n, &s->cache, &u)) < 0)
			return rc;
		t.p = fmin(1, fmin(2 * fmin(t.p, u.p), fmax(t.p, u.p)));
		r->test = "Simes";
		break;
	}
	case TI_AB_RANK_OR_T:
	case TI_AB_RANK_OR_YUEN: {
		double trim = c->paired_test == TI_AB_RANK_OR_YUEN ? 0.2 : 0;
		struct ti_stats_hl ah, aeq;
		struct ti_stats_mw at;
		/* The t's p is exact only for normal log-ratios, and an exact
		 * p under Benjamini-Hochberg spends all of alpha in an A/A
		 * suite (Simes 1986): any skew or light tail at 6-10 pairs
		 * takes it above.  The t spends a share of alpha' (its p
		 * divided by T_SHARE; bench/ab-sim --table aa measured the
		 * share); its intervals stay at the rows' level, the one the
		 * report prints. */
		double k = ti_ab_t_share(c);
		if ((rc = ti_stats_t1(s->d, np, trim, fl, alpha, &at, &ah)) < 0 ||
		    (rc = ti_stats_t1(s->d, np, trim, fl, 2 * alpha, &at, &aeq)) < 0)
			return rc;
		*alt = (struct ti_ab_alt){ fmin(1, at.p / k), ah.shift, ah.lo, ah.hi, ah.level, aeq.lo, aeq.hi,
				     trim > 0 ? "Yuen" : "t", NAN, 0 };
		if (trim == 0)
			first_pairs_var(s, np < c->moderate ? np : c->moderate, alt);
	}
		/* fall through */
	default:
		if ((rc = ti_stats_walsh(s->d, np, alpha, &h)) < 0 ||
		    (rc = ti_stats_walsh(s->d, np, 2 * alpha, &eq)) < 0 ||
		    (rc = ti_stats_signed_rank(s->d, np, &t)) < 0)
			return rc;
		r->test = "signed rank";
		r->min_p = ti_stats_min_p_signed_rank(nz);
	}
	r->p = np < 2 ? NAN : t.p;
	*hp = h;
	*eqp = eq;
	return 0;
}

/* The unpaired test of C on R's M and N values (S->x, S->y, made
 * logarithms), its interval H at 1 - ALPHA and EQ at 1 - 2 ALPHA. */
static int measure_unpaired(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha,
			    struct ti_ab_scratch *s, size_t m, size_t n, struct ti_stats_hl *hp,
			    struct ti_stats_hl *eqp)
{
	struct ti_stats_mw t;
	struct ti_stats_hl h, eq;
	int rc;

	double fl = resolution(s->x, m, s->y, n, s->w) / sqrt(12);
	for (size_t i = 0; i < m; i++)
		s->x[i] = log(s->x[i]);
	for (size_t j = 0; j < n; j++)
		s->y[j] = log(s->y[j]);
	if (c->unpaired_test == TI_AB_WELCH || c->unpaired_test == TI_AB_WELCH_HSU ||
	    c->unpaired_test == TI_AB_YUEN2) {
		double trim = c->unpaired_test == TI_AB_YUEN2 ? 0.2 : 0;
		bool hsu = c->unpaired_test == TI_AB_WELCH_HSU;
		if ((rc = ti_stats_t2(s->x, m, s->y, n, trim, hsu, fl, alpha, &t, &h)) < 0 ||
		    (rc = ti_stats_t2(s->x, m, s->y, n, trim, hsu, fl, 2 * alpha, &t, &eq)) < 0)
			return rc;
		r->test = trim > 0 ? "Yuen" : hsu ? "Welch-Hsu" : "Welch";
		r->p = t.p;
	} else {
		if ((rc = ti_stats_hodges_lehmann_cached(s->x, m, s->y, n, alpha, &s->cache, &h)) < 0 ||
		    (rc = ti_stats_hodges_lehmann_cached(s->x, m, s->y, n, 2 * alpha, &s->cache, &eq)) < 0)
			return rc;
		if (m >= 2 && n >= 2) {
			rc = c->unpaired_test == TI_AB_BRUNNER_MUNZEL
				     ? ti_stats_brunner_munzel(s->x, m, s->y, n, &t)
				     : ti_stats_mann_whitney_cached(s->x, m, s->y, n, &s->cache, &t);
			if (rc < 0)
				return rc;
			r->p = t.p;
		}
		r->test = c->unpaired_test == TI_AB_BRUNNER_MUNZEL ? "Brunner-Munzel"
								  : "Mann-Whitney";
		r->min_p = ti_stats_min_p_mann_whitney(m, n);
	}
	*hp = h;
	*eqp = eq;
	return 0;
}

int ti_ab_measure(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha,
		  struct ti_ab_scratch *s, size_t m, size_t n, struct ti_ab_alt *alt)
{
	struct ti_stats_hl h, eq;
	int rc;

	alt->test = NULL;
	r->min_p = 0;
	rc = r->paired ? measure_paired(r, c, alpha, s, m, n, alt, &h, &eq)
		       : measure_unpaired(r, c, alpha, s, m, n, &h, &eq);
	if (rc < 0)
		return rc;
	r->est = h.shift;
	r->lo = h.lo;
	r->hi = h.hi;
	r->level = h.level;
	r->eq_lo = eq.lo;
	r->eq_hi = eq.hi;
	if (isnan(r->p))
		r->test = NULL;
	return 0;
}

/* The noise floor of one benchmark from an A/A pair: how far the medians
 * of two runs of the same build moved, and at least the pooled relative
 * spread of their samples, on the ln scale. */
double ti_ab_measure_floor(const struct ti_ab_bench *x, const struct ti_ab_bench *y,
			   const struct ti_ab_config *c, struct ti_ab_scratch *s)
{
	size_t m = ti_ab_bench_values(x, c, s->x), n = ti_ab_bench_values(y, c, s->y);
	double f, spread;

	if (!m || !n)
		return NAN;
	for (size_t i = 0; i < m + n; i++) {
		double v = i < m ? s->x[i] : s->y[i - m];
		if (!(v > 0))
			return NAN;
		s->d[i] = log(v);
	}
	f = fabs(ti_stats_median(s->d + m, n) - ti_stats_median(s->d, m));
	spread = m + n >= 3 ? ti_stats_mad(s->d, m + n) : 0;
	return fmax(f, spread);
}

/* The signed-rank test cannot give p below 2^(1-n); where that cannot
 * pass the adjustment's strictest step, alpha' / tests (the first step of
 * both Holm and Benjamini-Hochberg), however large the change, the row is
 * tested by the t on its log-ratios instead, whose p has no floor.  The
 * choice rests on the counts alone, never on the data, so each test keeps
 * its level (bench/ab-sim measured it). */
void ti_ab_measure_choose(struct ti_ab_result *res, const struct ti_ab_config *c, double alpha,
			  const bool *pending, const struct ti_ab_alt *alts)
{
	struct ti_ab_row *rows = res->rows;
	size_t n = res->n, ntest = 0;

	for (size_t i = 0; i < n; i++)
		ntest += pending[i] && !isnan(rows[i].p);
	for (size_t i = 0; i < n; i++) {
		struct ti_ab_row *r = &rows[i];
		const struct ti_ab_alt *t = &alts[i];
		if (!pending[i] || !t->test || isnan(r->p) ||
		    !(r->min_p * (double)(c->adjust == TI_STATS_ADJUST_NONE ? 1 : ntest) > alpha))
			continue;
		r->p = t->p;
		r->est = t->est;
		r->lo = t->lo;
		r->hi = t->hi;
		r->level = t->level;
		r->eq_lo = t->eq_lo;
		r->eq_hi = t->eq_hi;
		r->test = t->test;
		r->min_p = 0;
	}
}
