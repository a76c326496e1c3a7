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

/* Mean and sum of squared deviations of X, trimmed by TRIM at each end
 * (winsorised for the squares: Yuen 1974).  S is scratch of N; *H gets the
 * count kept after trimming. */
static void trimmed_moments(const double *x, size_t n, double trim, double *s, double *tm,
			    double *ws, size_t *h)
{
	size_t g = (size_t)floor(trim * (double)n);
	double sum = 0, wm = 0, ss = 0;

	memcpy(s, x, n * sizeof *s);
	if (g)
		qsort(s, n, sizeof *s, cmp_double);
	*h = n - 2 * g;
	for (size_t i = g; i < n - g; i++)
		sum += s[i];
	*tm = sum / (double)*h;
	for (size_t i = 0; i < n; i++)
		wm += s[i < g ? g : i >= n - g ? n - g - 1 : i];
	wm /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double w = s[i < g ? g : i >= n - g ? n - g - 1 : i] - wm;
		ss += w * w;
	}
	*ws = ss;
}

/* Fill R and H from an estimate EST with standard error SE on DF degrees
 * of freedom. */
static void t_result(double est, double se, double df, double alpha, struct ti_stats_mw *r,
		     struct ti_stats_hl *h)
{
	double t = est / se, q = ti_stats_t_quantile(1 - alpha / 2, df);

	r->u = r->z = t;
	r->exact = false;
	r->p = fmin(1, 2 * ti_stats_t_cdf(-fabs(t), df));
	h->shift = est;
	h->lo = est - q * se;
	h->hi = est + q * se;
	h->level = 1 - alpha;
}

static void t_none(double est, double alpha, struct ti_stats_mw *r, struct ti_stats_hl *h)
{
	r->u = r->z = 0;
	r->p = NAN;
	r->exact = false;
	h->shift = est;
	h->lo = -INFINITY;
	h->hi = INFINITY;
	h->level = 1 - alpha;
}

int ti_stats_t1(const double *d, size_t n, double trim, double floor_sd, double alpha,
		struct ti_stats_mw *r, struct ti_stats_hl *h)
{
	double *s, tm, ws;
	size_t hn;

	if (n == 0 || !(alpha > 0 && alpha < 1) || !(trim >= 0 && trim < 0.5) || !(floor_sd >= 0))
		return -EINVAL;
	if (!(s = malloc(n * sizeof *s)))
		return -ENOMEM;
	trimmed_moments(d, n, trim, s, &tm, &ws, &hn);
	free(s);
	if (hn < 2) {
		t_none(tm, alpha, r, h);
		return 0;
	}
	/* The winsorised sd, at least the floor (the values' resolution):
	 * rounds that all look the same are not a spread of 0. */
	double sw = fmax(sqrt(ws / (double)(n - 1)), floor_sd);
	if (sw == 0) {
		t_none(tm, alpha, r, h);
		r->p = tm == 0 ? 1 : 0;
		h->lo = h->hi = tm;
		return 0;
	}
	/* Tukey & McLaughlin (1963): se = s_w / ((1 - 2 trim) sqrt n), with
	 * h - 1 degrees of freedom; trim 0 is Student's t. */
	double se = sw / ((double)hn / (double)n * sqrt((double)n));
	t_result(tm, se, (double)(hn - 1), alpha, r, h);
	return 0;
}

int ti_stats_t2(const double *x, size_t m, const double *y, size_t n, double trim, bool min_df,
		double floor_sd, double alpha, struct ti_stats_mw *r, struct ti_stats_hl *h)
{
	double *s, tx, ty, wx, wy;
	size_t hx, hy;

	if (m == 0 || n == 0 || !(alpha > 0 && alpha < 1) || !(trim >= 0 && trim < 0.5) ||
	    !(floor_sd >= 0))
		return -EINVAL;
	if (!(s = malloc((m > n ? m : n) * sizeof *s)))
		return -ENOMEM;
	trimmed_moments(x, m, trim, s, &tx, &wx, &hx);
	trimmed_moments(y, n, trim, s, &ty, &wy, &hy);
	free(s);
	if (hx < 2 || hy < 2) {
		t_none(ty - tx, alpha, r, h);
		return 0;
	}
	/* Yuen (1974): d_j = (n_j - 1) s_wj^2 / (h_j (h_j - 1)), se^2 = d_x +
	 * d_y, Welch-Satterthwaite degrees of freedom (d_x + d_y)^2 /
	 * (d_x^2 / (h_x - 1) + d_y^2 / (h_y - 1)); trim 0 is Welch's t
	 * (Welch 1947).  Each side's sd is at least FLOOR_SD. */
	double sx = fmax(wx / (double)(m - 1), floor_sd * floor_sd);
	double sy = fmax(wy / (double)(n - 1), floor_sd * floor_sd);
	double dx = (double)(m - 1) * sx / ((double)hx * (double)(hx - 1));
	double dy = (double)(n - 1) * sy / ((double)hy * (double)(hy - 1));
	if (dx + dy == 0) {
		t_none(ty - tx, alpha, r, h);
		r->p = ty == tx ? 1 : 0;
		h->lo = h->hi = ty - tx;
		return 0;
	}
	double df = min_df ? (double)(hx < hy ? hx : hy) - 1
			   : (dx + dy) * (dx + dy) /
				     (dx * dx / (double)(hx - 1) + dy * dy / (double)(hy - 1));
	t_result(ty - tx, sqrt(dx + dy), df, alpha, r, h);
	return 0;
}

/* Midranks of X (N values) into RK; IDX is scratch of N. */
static const double *rank_base;	/* for cmp_index; not for use by two threads */
static int cmp_index(const void *a, const void *b)
{
	double x = rank_base[*(const size_t *)a], y = rank_base[*(const size_t *)b];
	return (x > y) - (x < y);
}

static void midranks(const double *x, size_t n, size_t *idx, double *rk)
{
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	rank_base = x;
	qsort(idx, n, sizeof *idx, cmp_index);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && x[idx[j + 1]] == x[idx[i]])
			j++;
		for (size_t k = i; k <= j; k++)
			rk[idx[k]] = (double)(i + j + 2) / 2;
		i = j + 1;
	}
}

int ti_stats_brunner_munzel(const double *x, size_t m, const double *y, size_t n,
			    struct ti_stats_mw *r)
{
	size_t N = m + n;
	double *all, *rk, *ro;
	size_t *idx;

	if (m == 0 || n == 0)
		return -EINVAL;
	all = malloc(N * sizeof *all);
	rk = malloc(N * sizeof *rk);
	ro = malloc(N * sizeof *ro);
	idx = malloc(N * sizeof *idx);
	if (!all || !rk || !ro || !idx) {
		free(all), free(rk), free(ro), free(idx);
		return -ENOMEM;
	}
	memcpy(all, x, m * sizeof *x);
	memcpy(all + m, y, n * sizeof *y);
	midranks(all, N, idx, rk);
	midranks(x, m, idx, ro);
	midranks(y, n, idx, ro + m);
	double rx = 0, ry = 0, vx = 0, vy = 0;
	for (size_t i = 0; i < m; i++)
		rx += rk[i];
	for (size_t j = 0; j < n; j++)
		ry += rk[m + j];
	rx /= (double)m;
	ry /= (double)n;
	/* Brunner & Munzel (2000): the placements R_i - R_i(own sample),
	 * their variances S_x^2, S_y^2, the statistic
	 * W = m n (R_y - R_x) / (N sqrt(m S_x^2 + n S_y^2)) on
	 * Satterthwaite's degrees of freedom. */
	for (size_t i = 0; i < m; i++) {
		double e = rk[i] - ro[i] - rx + ((double)m + 1) / 2;
		vx += e * e;
	}
	for (size_t j = 0; j < n; j++) {
		double e = rk[m + j] - ro[m + j] - ry + ((double)n + 1) / 2;
		vy += e * e;
	}
	free(all), free(rk), free(ro), free(idx);
	r->exact = false;
	r->u = (ry - rx) / (double)N + 0.5;	/* the estimate of P(X < Y) + P(X = Y) / 2 */
	if (m < 2 || n < 2) {
		r->z = 0;
		r->p = NAN;
		return 0;
	}
	vx /= (double)(m - 1);
	vy /= (double)(n - 1);
	double v = (double)m * vx + (double)n * vy;
	if (v == 0) {
		/* Complete separation (or every value equal): no variance to
		 * studentize by.  The permutation version of the test
		 * (Neubert & Brunner 2007) gives separation its permutation
		 * p-value, 2 / C(N, m): only the two extreme orderings are as
		 * far apart. */
		r->z = 0;
		r->p = rx == ry ? 1 : fmin(1, 2 * exp(lgamma((double)m + 1) + lgamma((double)n + 1) -
						      lgamma((double)N + 1)));
		return 0;
	}
	double w = (double)m * (double)n * (ry - rx) / ((double)N * sqrt(v));
	double df = v * v / (((double)m * vx) * ((double)m * vx) / (double)(m - 1) +
			     ((double)n * vy) * ((double)n * vy) / (double)(n - 1));
	r->z = w;
	r->p = fmin(1, 2 * ti_stats_t_cdf(-fabs(w), df));
	return 0;
}
