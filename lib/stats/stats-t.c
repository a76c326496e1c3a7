/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* stats-t.c: the t family on one sample of differences (ti_stats_paired_t,
 * ti_stats_trimmed_t): tests whose p-value is not bounded below by the
 * number of orderings of the samples, as the rank tests' are. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int ti_stats_paired_t(const double *d, size_t n, double alpha, struct ti_stats_mw *r,
		      struct ti_stats_hl *h)
{
	double mean = 0, ss = 0;

	if (n == 0 || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		mean += d[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (d[i] - mean) * (d[i] - mean);
	h->shift = mean;
	h->level = 1 - alpha;
	r->exact = false;
	if (n < 2 || ss == 0) {
		r->u = r->z = 0;
		r->p = n < 2 || mean == 0 ? 1 : 0;
		h->lo = n < 2 ? -INFINITY : mean;
		h->hi = n < 2 ? INFINITY : mean;
		return 0;
	}
	double se = sqrt(ss / (double)(n - 1) / (double)n), t = mean / se, df = (double)(n - 1);
	double q = ti_stats_t_quantile(1 - alpha / 2, df);
	r->u = t;
	r->z = t;
	r->p = fmin(1, 2 * ti_stats_t_cdf(-fabs(t), df));
	h->lo = mean - q * se;
	h->hi = mean + q * se;
	return 0;
}

int ti_stats_trimmed_t(const double *d, size_t n, double trim, double alpha, struct ti_stats_mw *r,
		       struct ti_stats_hl *h)
{
	double *s, tm = 0, wm = 0, ws = 0;
	size_t g, h_n;

	if (n == 0 || !(alpha > 0 && alpha < 1) || !(trim >= 0 && trim < 0.5))
		return -EINVAL;
	if (!(s = malloc(n * sizeof *s)))
		return -ENOMEM;
	memcpy(s, d, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	g = (size_t)floor(trim * (double)n);
	h_n = n - 2 * g;
	for (size_t i = g; i < n - g; i++)
		tm += s[i];
	tm /= (double)h_n;
	/* Winsorised: the g smallest become s[g], the g largest s[n-g-1]. */
	for (size_t i = 0; i < n; i++)
		wm += s[i < g ? g : i >= n - g ? n - g - 1 : i];
	wm /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double w = s[i < g ? g : i >= n - g ? n - g - 1 : i] - wm;
		ws += w * w;
	}
	free(s);
	h->shift = tm;
	h->level = 1 - alpha;
	r->exact = false;
	if (h_n < 2 || ws == 0) {
		r->u = r->z = 0;
		r->p = h_n < 2 || tm == 0 ? 1 : 0;
		h->lo = h_n < 2 ? -INFINITY : tm;
		h->hi = h_n < 2 ? INFINITY : tm;
		return 0;
	}
	/* Tukey & McLaughlin (1963): se = s_w / ((1 - 2 trim) sqrt n), with
	 * n - 2g - 1 degrees of freedom. */
	double se = sqrt(ws / (double)(n - 1)) / ((double)h_n / (double)n * sqrt((double)n));
	double df = (double)(h_n - 1), t = tm / se, q = ti_stats_t_quantile(1 - alpha / 2, df);
	r->u = r->z = t;
	r->p = fmin(1, 2 * ti_stats_t_cdf(-fabs(t), df));
	h->lo = tm - q * se;
	h->hi = tm + q * se;
	return 0;
}
