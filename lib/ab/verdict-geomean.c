/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict-geomean.c: the suite's geometric mean of B/A and its interval
 * (verdict-int.h).  By round where the rounds are paired (the default: a
 * round moves every benchmark together, so the rounds are the
 * independent units), else Student's t over the benchmarks' log-ratios
 * or a bootstrap of their mean; bench/ab-sim measured them. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verdict-int.h"
#include "verdict.h"

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

/* The benchmark R counts in the geometric mean: it has a ratio. */
static bool geo_counts(const struct ti_ab_row *r)
{
	return r->v != TI_AB_MISSING && r->v != TI_AB_FAILED && isfinite(r->est) && r->med_a > 0 &&
	       r->med_b > 0;
}

/* The rounds of RES's paired rows, sorted and distinct, into *KEYS; the
 * rows counted into *NROWS.  Their count, or -ENOMEM. */
static ptrdiff_t geo_rounds(const struct ti_ab_result *res, const struct ti_ab_config *c,
			    struct ti_ab_scratch *s, uint64_t **keys, size_t *nrows)
{
	size_t nk = 0, cap = 0;

	*keys = NULL;
	*nrows = 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct ti_ab_row *r = &res->rows[i];
		if (!geo_counts(r))
			continue;
		(*nrows)++;
		if (r->code == TI_AB_CODE_SAME || !r->paired)
			continue;
		size_t np = ti_ab_pair_rounds(r, c, s);
		if (nk + np > cap) {
			cap = 2 * (nk + np) + 16;
			uint64_t *k = realloc(*keys, cap * sizeof *k);
			if (!k)
				return -ENOMEM;
			*keys = k;
		}
		if (np)
			memcpy(*keys + nk, s->rk, np * sizeof **keys);
		nk += np;
	}
	if (nk)
		qsort(*keys, nk, sizeof **keys, cmp_u64);
	size_t nr = 0;
	for (size_t i = 0; i < nk; i++)
		if (!nr || (*keys)[i] != (*keys)[nr - 1])
			(*keys)[nr++] = (*keys)[i];
	return (ptrdiff_t)nr;
}

/* By round: the rounds of an interleaved run move every benchmark
 * together (the machine's state is shared by all the benchmarks of a
 * round), so the benchmarks' log-ratios are not independent changes and a
 * t over them is too narrow (an A/A run of identical builds excluded 0).
 * The suite's change is the mean over the benchmarks of their mean
 * log-ratio, a benchmark with identical binaries counting 0.  Its
 * variance is summed by round, the rounds being the independent units:
 * each benchmark's deviations from its own mean (widened by
 * sqrt(n / (n - 1)), which makes each benchmark's share unbiased), weighted
 * by 1 / (benchmarks x its rounds), added up in their round, and the
 * rounds' sums squared and added (a cluster-robust variance, the
 * clusters being the rounds).  With equal rounds that is Student's t
 * over the round means; with benchmarks stopped at different rounds a
 * round one lacks gets nothing from it: imputing its estimate there, as a
 * constant, made the interval about 10 times too narrow (bench/ab-sim
 * --table geostop).  The degrees of freedom: Satterthwaite's over the
 * rounds, the smaller of two extremes (the benchmarks' own noise alone,
 * each round's weight that of its benchmarks' variances; a noise shared
 * by the round alone, each round's weight its benchmarks' weights
 * squared), less one for the means; the rounds' count less one when they
 * are equal.  A row not paired, or with one pair, counts its estimate
 * and its interval's variance as independent.  Returns 1 when done, 0
 * when the rows do not allow it (fewer than 2 rounds), -ENOMEM. */
static int geo_by_round(const struct ti_ab_result *res, const struct ti_ab_config *c,
			struct ti_ab_scratch *s, double level, struct ti_ab_geomean *g)
{
	size_t nrows;
	uint64_t *keys;
	double *u = NULL, *ai = NULL, *as = NULL;
	int rc = -ENOMEM;
	ptrdiff_t got = geo_rounds(res, c, s, &keys, &nrows);

	if (got < 0)
		goto out;
	size_t nr = (size_t)got;
	if (nr < 2 || !nrows) {
		rc = 0;
		goto out;
	}
	if (!(u = calloc(nr, sizeof *u)) || !(ai = calloc(nr, sizeof *ai)) ||
	    !(as = calloc(nr, sizeof *as)))
		goto out;
	double K = (double)nrows, mean = 0, vu = 0, vf = 0;
	size_t n0 = 0;
	bool equal = true;	/* every paired row has the same rounds */
	for (size_t i = 0; i < res->n; i++) {
		const struct ti_ab_row *r = &res->rows[i];
		if (!geo_counts(r) || r->code == TI_AB_CODE_SAME)
			continue;
		size_t np = r->paired ? ti_ab_pair_rounds(r, c, s) : 0;
		double z = ti_stats_normal_quantile(1 - (1 - r->level) / 2);
		double sb = (r->hi - r->lo) / (2 * z), vb = isfinite(sb) ? sb * sb : INFINITY;
		if (np < 2) {
			mean += r->est / K;
			vu += vb;
			continue;
		}
		vf += vb;
		equal &= n0 == 0 || np == n0;
		n0 = np;
		double m = 0, ss = 0, n = (double)np, w = 1 / (K * n);
		for (size_t j = 0; j < np; j++)
			m += s->d[j] / n;
		for (size_t j = 0; j < np; j++)
			ss += (s->d[j] - m) * (s->d[j] - m);
		mean += m / K;
		for (size_t j = 0; j < np; j++) {
			size_t k = (size_t)((uint64_t *)bsearch(&s->rk[j], keys, nr, sizeof *keys,
								cmp_u64) - keys);
			u[k] += w * (s->d[j] - m) * sqrt(n / (n - 1));
			ai[k] += w * w * ss / (n - 1);
			as[k] += w;
		}
	}
	double v = 0, si = 0, ssi = 0, ss2 = 0, sss = 0;
	for (size_t k = 0; k < nr; k++) {
		v += u[k] * u[k];
		si += ai[k];
		ssi += ai[k] * ai[k];
		ss2 += as[k] * as[k];
		sss += as[k] * as[k] * as[k] * as[k];
	}
	double df = fmin(ssi > 0 ? si * si / ssi : INFINITY, sss > 0 ? ss2 * ss2 / sss : INFINITY);
	df = equal ? (double)nr - 1 : fmax(1, df - 1);
	/* Rounds whose means agree exactly (a benchmark equal on both sides
	 * in every round) are not an interval of zero width: then what the
	 * benchmarks' own intervals say, as if they were independent.  Only
	 * then: otherwise the rounds' spread already holds the benchmarks'
	 * own noise, and a floor near its expectation would only widen the
	 * interval (bench/ab-sim: 100 % coverage where 95 % is due). */
	if (v == 0)
		v = vf / (K * K);
	double se = sqrt(v + vu / (K * K));
	double q = ti_stats_t_quantile(1 - (1 - level) / 2, isfinite(df) ? df : (double)nr - 1);
	g->n = nrows;
	g->ratio = exp(mean);
	g->log_ratio = mean;
	g->lo = exp(mean - q * se);
	g->hi = exp(mean + q * se);
	g->rounds = nr;
	g->method = "round";
	rc = 1;
out:
	free(keys);
	free(u);
	free(ai);
	free(as);
	return rc;
}

/* The geometric mean of B/A over the benchmarks with a ratio (both sides
 * above 0: one whose samples are all 0 on both sides has none and is
 * left out; identical binaries count as no change), at the rows' level
 * 1 - alpha / looks: by round where the rounds are paired (the default),
 * else Student's t over the benchmarks' log-ratios or a bootstrap of
 * their mean (bench/ab-sim measured them); a single benchmark's own
 * interval. */
int ti_ab_geomean_compute(const struct ti_ab_result *res, const struct ti_ab_config *c,
			  struct ti_ab_scratch *s, struct ti_ab_geomean *out)
{
	struct ti_ab_geomean g = { 0, NAN, NAN, NAN, 1 - res->alpha_look, 0, NULL, NAN };
	size_t n = res->n;
	double *l, sum = 0, ss = 0;
	const struct ti_ab_row *one = NULL;
	int rc;

	bool one_run = true;	/* every benchmark one run a side */
	if (c->geo == TI_AB_GEO_ROUND) {
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			k += geo_counts(&res->rows[i]);
			one_run &= !geo_counts(&res->rows[i]) ||
				   (res->rows[i].n_a <= 1 && res->rows[i].n_b <= 1);
		}
		if (k > 1 && (rc = geo_by_round(res, c, s, g.level, &g)) != 0) {
			*out = g;
			return rc < 0 ? rc : 0;
		}
	} else {
		one_run = false;
	}
	if (!(l = malloc((n ? n : 1) * sizeof *l)))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct ti_ab_row *r = &res->rows[i];
		if (geo_counts(r)) {
			l[g.n++] = r->code == TI_AB_CODE_SAME ? 0 : r->est;
			one = r;
		}
	}
	if (g.n) {
		for (size_t i = 0; i < g.n; i++)
			sum += l[i];
		double mean = sum / (double)g.n;
		g.ratio = exp(mean);
		g.log_ratio = mean;
		if (g.n == 1) {
			g.lo = exp(one->lo);
			g.hi = exp(one->hi);
			g.method = "one benchmark";
		} else if (one_run) {
			/* One run a side: that run's machine state is in every
			 * benchmark, and nothing tells it from a change. */
			g.method = "one run a side";
		} else if (c->geo == TI_AB_GEO_BOOTSTRAP) {
			if (ti_stats_bootstrap_mean(l, g.n, (unsigned)c->reps, g.level, c->seed,
						    &g.lo, &g.hi) < 0) {
				free(l);
				return -ENOMEM;
			}
			g.lo = exp(g.lo);
			g.hi = exp(g.hi);
			g.method = "bootstrap";
		} else {
			bool points = true;
			for (size_t i = 0; i < g.n; i++)
				ss += (l[i] - mean) * (l[i] - mean);
			for (size_t i = 0; i < n; i++)
				if (geo_counts(&res->rows[i]) && res->rows[i].code != TI_AB_CODE_SAME &&
				    !(res->rows[i].lo == res->rows[i].hi))
					points = false;
			double se = sqrt(ss / (double)(g.n - 1) / (double)g.n);
			/* Benchmarks that all moved alike are no interval of zero
			 * width unless each is a point itself (constant sides). */
			if (ss == 0 && !points)
				se = INFINITY;
			double q = ti_stats_t_quantile(1 - (1 - g.level) / 2, (double)(g.n - 1));
			g.lo = exp(mean - q * se);
			g.hi = exp(mean + q * se);
			g.method = "t";
		}
	}
	free(l);
	*out = g;
	return 0;
}
