/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* series-cpoint.c: the change-point rule of a series (series.h), the one
 * bench/series-sim chose: binary segmentation with the difference of
 * medians over a noise scale from neighbouring values, Bonferroni over
 * the splits of a segment, the gate, and disturbed nights left out. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "stats.h"

/* A night is a change's own evidence: a side needs this many. */
#define MIN_SIDE 2

double ti_series_noise(const double *x, size_t n)
{
	double *d, med, mean = 0;

	if (n < 2)
		return 0;
	if (!(d = malloc((n - 1) * sizeof *d)))
		return NAN;
	for (size_t i = 1; i < n; i++) {
		d[i - 1] = fabs(x[i] - x[i - 1]);
		mean += d[i - 1];
	}
	ti_stats_sort(d, n - 1);
	med = ti_stats_quantile_sorted(d, n - 1, 0.5);
	free(d);
	/* The difference of two values has sqrt(2) times their spread.
	 * Values rounded to a few digits can make most neighbours equal: then
	 * the mean difference (E|d| = 2 sigma / sqrt(pi) for normal d). */
	if (med > 0)
		return TI_STATS_MAD_SCALE * med / M_SQRT2;
	return mean / (double)(n - 1) * sqrt(M_PI) / 2 / M_SQRT2;
}

/* The variance of a median of M normal values, over that of one value
 * divided by M: 1 for one or two (a value, a mean), pi/2 for many. */
static double median_factor(size_t m)
{
	return m <= 2 ? 1.0 : M_PI / 2;
}

static double median_of(const double *x, size_t n, double *tmp)
{
	memcpy(tmp, x, n * sizeof *tmp);
	ti_stats_sort(tmp, n);
	return ti_stats_quantile_sorted(tmp, n, 0.5);
}

int ti_series_split(const double *x, size_t n, size_t k, double sigma, double *d, double *se)
{
	double *tmp = malloc((n ? n : 1) * sizeof *tmp);

	if (!tmp)
		return -ENOMEM;
	*d = median_of(x + k, n - k, tmp) - median_of(x, k, tmp);
	if (se)
		*se = sigma * sqrt(median_factor(k) / (double)k +
				   median_factor(n - k) / (double)(n - k));
	free(tmp);
	return 0;
}

int ti_series_disturbed(const double *x, size_t n, const struct ti_series_config *c, bool *keep,
			bool *pending)
{
	double sigma = ti_series_noise(x, n), tmp[3];
	double thr = fmax(c->outlier * sigma, log1p(c->min_change / 100));
	int marked = 0;

	*pending = false;
	if (isnan(sigma))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		keep[i] = true;
	if (n < 3)
		thr = INFINITY;
	for (size_t i = 0; i < n; i++) {
		size_t b0 = i >= 3 ? i - 3 : 0, a1 = i + 4 < n ? i + 4 : n;
		bool off_before = i > 0 && fabs(x[i] - median_of(x + b0, i - b0, tmp)) > thr;
		bool off_after = i + 1 < n && fabs(x[i] - median_of(x + i + 1, a1 - i - 1, tmp)) > thr;

		if (i + 1 == n) {
			/* The last night has no after: off the one before it
			 * and the ones before that, it may be a change or a bad
			 * night, and only the next night will tell. */
			if (off_before && fabs(x[i] - x[i - 1]) > thr) {
				keep[i] = false;
				*pending = true;
			}
		} else if ((i == 0 || off_before) && off_after) {
			keep[i] = false;
			marked++;
		}
	}
	return marked;
}

/* A running median: a max-heap of the lower half, a min-heap of the upper
 * half, the lower at most one larger. */
struct runmed {
	double *lo, *hi;
	size_t nlo, nhi;
};

static void heap_push(double *h, size_t *n, double v, int sign)
{
	size_t i = (*n)++;

	while (i > 0 && sign * (v - h[(i - 1) / 2]) > 0) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static double heap_pop(double *h, size_t *n, int sign)
{
	double top = h[0], v = h[--*n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && sign * (h[c + 1] - h[c]) > 0)
			c++;
		if (sign * (h[c] - v) <= 0)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = v;
	return top;
}

static void runmed_add(struct runmed *m, double v)
{
	if (m->nlo == 0 || v <= m->lo[0])
		heap_push(m->lo, &m->nlo, v, 1);
	else
		heap_push(m->hi, &m->nhi, v, -1);
	if (m->nlo > m->nhi + 1)
		heap_push(m->hi, &m->nhi, heap_pop(m->lo, &m->nlo, 1), -1);
	else if (m->nhi > m->nlo)
		heap_push(m->lo, &m->nlo, heap_pop(m->hi, &m->nhi, -1), 1);
}

static double runmed_get(const struct runmed *m)
{
	return m->nlo > m->nhi ? m->lo[0] : (m->lo[0] + m->hi[0]) / 2;
}

/* The medians of X[0..k) into PRE[k] and of X[k..N) into SUF[k], for every
 * k from 1 to N - 1, in O(N log N); HEAP has room for N values. */
static void side_medians(const double *x, size_t n, double *pre, double *suf, double *heap)
{
	struct runmed m = { heap, heap + n / 2 + 1, 0, 0 };

	for (size_t k = 1; k < n; k++) {
		runmed_add(&m, x[k - 1]);
		pre[k] = runmed_get(&m);
	}
	m.nlo = m.nhi = 0;
	for (size_t k = n - 1; k >= 1; k--) {
		runmed_add(&m, x[k]);
		suf[k] = runmed_get(&m);
	}
}

struct bs {
	const struct ti_series_config *c;
	double sigma, df;
	double *pre, *suf, *heap;
	size_t *cp;
	double *p;
	size_t n, max;
};

/* The best split of X[s..e), recursively. */
static void segment(struct bs *w, const double *x, size_t s, size_t e)
{
	size_t len = e - s, best = 0, splits;
	double tbest = -1;

	if (len < 2 * MIN_SIDE || w->n == w->max)
		return;
	side_medians(x + s, len, w->pre, w->suf, w->heap);
	for (size_t k = MIN_SIDE; k + MIN_SIDE <= len; k++) {
		double d = w->suf[k] - w->pre[k];
		double se = w->sigma * sqrt(median_factor(k) / (double)k +
					    median_factor(len - k) / (double)(len - k));
		double t = se > 0 ? fabs(d) / se : d != 0 ? INFINITY : 0;
		if (t > tbest) {
			tbest = t;
			best = k;
		}
	}
	splits = len - 2 * MIN_SIDE + 1;
	double p = isinf(tbest) ? 0 : fmin(1, 2 * ti_stats_t_cdf(-tbest, w->df) * (double)splits);
	if (!(p <= w->c->alpha))
		return;
	w->cp[w->n] = s + best;
	w->p[w->n++] = p;
	segment(w, x, s, s + best);
	segment(w, x, s + best, e);
}

/* Merge away, smallest first, the points whose sides (up to their
 * neighbours) differ by less than the gate. */
static int gate(const double *x, size_t n, double gate_log, size_t *cp, double *p, size_t k)
{
	double *tmp = malloc((n ? n : 1) * sizeof *tmp);

	if (!tmp)
		return -ENOMEM;
	while (k > 0) {
		size_t worst = 0;
		double small = INFINITY;
		for (size_t j = 0; j < k; j++) {
			size_t lo = j ? cp[j - 1] : 0, hi = j + 1 < k ? cp[j + 1] : n;
			double d = fabs(median_of(x + cp[j], hi - cp[j], tmp) -
					median_of(x + lo, cp[j] - lo, tmp));
			if (d < small) {
				small = d;
				worst = j;
			}
		}
		if (small >= gate_log)
			break;
		memmove(cp + worst, cp + worst + 1, (k - worst - 1) * sizeof *cp);
		memmove(p + worst, p + worst + 1, (k - worst - 1) * sizeof *p);
		k--;
	}
	free(tmp);
	return (int)k;
}

int ti_series_cpoints(const double *x, size_t n, const struct ti_series_config *c,
		      size_t *cp, double *p, size_t max)
{
	struct bs w = { .c = c, .cp = cp, .p = p, .max = max };
	int rc;

	if (n < 2 * MIN_SIDE || max == 0)
		return 0;
	w.sigma = ti_series_noise(x, n);
	/* The scale is a median of differences: about 37 % as efficient
	 * as a standard deviation (its degrees of freedom shrink alike). */
	w.df = fmax(1, 0.37 * (double)(n - 1));
	w.pre = malloc(n * sizeof *w.pre);
	w.suf = malloc(n * sizeof *w.suf);
	w.heap = malloc((n + 2) * sizeof *w.heap);
	if (isnan(w.sigma) || !w.pre || !w.suf || !w.heap) {
		rc = -ENOMEM;
		goto out;
	}
	segment(&w, x, 0, n);
	/* Sort the points, keeping each one's p. */
	for (size_t i = 0; i < w.n; i++) {
		for (size_t j = i + 1; j < w.n; j++) {
			if (cp[j] < cp[i]) {
				size_t t = cp[i];
				double tp = p[i];
				cp[i] = cp[j];
				p[i] = p[j];
				cp[j] = t;
				p[j] = tp;
			}
		}
	}
	rc = gate(x, n, log1p(c->min_change / 100), cp, p, w.n);
out:
	free(w.pre);
	free(w.suf);
	free(w.heap);
	return rc;
}
