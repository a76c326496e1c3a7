/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* stats-shift.c: Hodges-Lehmann estimates and their distribution-free
 * intervals, two-sample (the median of all y_j - x_i, Moses' interval)
 * and one-sample (the median of the Walsh averages (d_i + d_j) / 2,
 * Tukey's interval), without forming the m*n or n(n+1)/2 values: both are
 * order statistics of a matrix whose rows and columns are sorted, found
 * by random pivots whose rank is counted in O(m + n) (the approach of
 * Monahan, ACM TOMS 10, 1984), so O((m + n) log(m + n)) time and
 * O(m + n) memory. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* The implicit matrix: element (i, j) is y[j] - x[i] (two samples) or
 * (x[i] + x[j]) / 2 for j >= i (Walsh averages of x), over ascending x
 * and y.  Each row ascends with j.  Every element is computed by elem()
 * alone, so that comparisons of one element are always consistent. */
struct matrix {
	const double *x, *y;
	size_t rows, cols;
	bool walsh;
	size_t *lo, *hi;	/* the active part of row i: columns lo[i] .. hi[i]-1 */
	size_t *lt, *le;	/* scratch: first column >= pivot, > pivot */
};

static double elem(const struct matrix *a, size_t i, size_t j)
{
	return a->walsh ? (a->x[i] + a->x[j]) / 2 : a->y[j] - a->x[i];
}

static size_t first_col(const struct matrix *a, size_t i)
{
	return a->walsh ? i : 0;
}

/* For every row, the first column whose element is >= P (LT) and > P
 * (LE); returns the counts of elements < P and <= P.  In both matrices
 * these boundaries move monotonically from row to row, so one pointer per
 * boundary sweeps each row once. */
static void rank_of(const struct matrix *a, double p, size_t *n_lt, size_t *n_le)
{
	size_t c_lt = 0, c_le = 0;

	if (!a->walsh) {
		/* y[j] - x[i] falls as i grows: the boundaries move right. */
		size_t jl = 0, je = 0;
		for (size_t i = 0; i < a->rows; i++) {
			while (jl < a->cols && elem(a, i, jl) < p)
				jl++;
			while (je < a->cols && elem(a, i, je) <= p)
				je++;
			a->lt[i] = jl;
			a->le[i] = je;
			c_lt += jl;
			c_le += je;
		}
	} else {
		/* Over a whole (symmetric) row the boundary moves left as i
		 * grows; row i's part is the columns from i on. */
		size_t jl = a->cols, je = a->cols;
		for (size_t i = 0; i < a->rows; i++) {
			while (jl > 0 && elem(a, i, jl - 1) >= p)
				jl--;
			while (je > 0 && elem(a, i, je - 1) > p)
				je--;
			a->lt[i] = jl > i ? jl : i;
			a->le[i] = je > i ? je : i;
			c_lt += a->lt[i] - i;
			c_le += a->le[i] - i;
		}
	}
	*n_lt = c_lt;
	*n_le = c_le;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The K-th smallest element (1-based) of A; K within the element count. */
static int select_kth(struct matrix *a, size_t k, double *out)
{
	struct ti_stats_rng rng;
	size_t below = 0;	/* elements left of every active part */

	ti_stats_rng_seed(&rng, 0x5eed);
	for (size_t i = 0; i < a->rows; i++) {
		a->lo[i] = first_col(a, i);
		a->hi[i] = a->cols;
	}
	for (;;) {
		size_t active = 0;
		for (size_t i = 0; i < a->rows; i++)
			active += a->hi[i] - a->lo[i];
		/* Few enough to sort: the rest is a plain selection. */
		if (active <= 4 * (a->rows + a->cols) || active <= 256) {
			double *v = malloc((active ? active : 1) * sizeof *v);
			size_t n = 0;
			if (!v)
				return -ENOMEM;
			for (size_t i = 0; i < a->rows; i++)
				for (size_t j = a->lo[i]; j < a->hi[i]; j++)
					v[n++] = elem(a, i, j);
			qsort(v, n, sizeof *v, cmp_double);
			*out = v[k - below - 1];
			free(v);
			return 0;
		}
		/* A pivot drawn uniformly from the active elements. */
		size_t r = (size_t)(ti_stats_rng_uniform(&rng) * (double)active), i = 0;
		if (r >= active)
			r = active - 1;
		while (r >= a->hi[i] - a->lo[i]) {
			r -= a->hi[i] - a->lo[i];
			i++;
		}
		double p = elem(a, i, a->lo[i] + r);
		size_t n_lt, n_le;
		rank_of(a, p, &n_lt, &n_le);
		if (k > n_lt && k <= n_le) {
			*out = p;
			return 0;
		}
		for (size_t q = 0; q < a->rows; q++) {
			if (k <= n_lt) {
				if (a->hi[q] > a->lt[q])
					a->hi[q] = a->lt[q];
			} else if (a->lo[q] < a->le[q]) {
				a->lo[q] = a->le[q];
			}
			if (a->lo[q] > a->hi[q])
				a->lo[q] = a->hi[q];
		}
		if (k > n_le)
			below = n_le;
	}
}

static double *sorted_copy(const double *x, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof *c);
	if (c) {
		memcpy(c, x, n * sizeof *c);
		ti_stats_sort(c, n);
	}
	return c;
}

/* The shift estimate (median element) and the interval from the K-th
 * smallest to the K-th largest of A's COUNT elements. */
static int estimate(struct matrix *a, size_t count, size_t k, double level,
		    struct ti_stats_hl *r)
{
	double lo, hi;
	int rc;

	a->lo = malloc(a->rows * sizeof *a->lo);
	a->hi = malloc(a->rows * sizeof *a->hi);
	a->lt = malloc(a->rows * sizeof *a->lt);
	a->le = malloc(a->rows * sizeof *a->le);
	if (!a->lo || !a->hi || !a->lt || !a->le) {
		rc = -ENOMEM;
		goto out;
	}
	/* The median: the middle element, or the mean of the middle two. */
	if ((rc = select_kth(a, (count + 1) / 2, &lo)) < 0)
		goto out;
	hi = lo;
	if (count % 2 == 0 && (rc = select_kth(a, count / 2 + 1, &hi)) < 0)
		goto out;
	r->shift = lo + (hi - lo) / 2;
	if (k == 0 || k > count) {
		r->lo = -INFINITY;
		r->hi = INFINITY;
		r->level = 1;
	} else {
		if ((rc = select_kth(a, k, &r->lo)) < 0 ||
		    (rc = select_kth(a, count - k + 1, &r->hi)) < 0)
			goto out;
		r->level = level;
	}
out:
	free(a->lo);
	free(a->hi);
	free(a->lt);
	free(a->le);
	return rc;
}

int ti_stats_hodges_lehmann(const double *x, size_t m, const double *y, size_t n,
			    double alpha, struct ti_stats_hl *r)
{
	return ti_stats_hodges_lehmann_cached(x, m, y, n, alpha, NULL, r);
}

int ti_stats_hodges_lehmann_cached(const double *x, size_t m, const double *y, size_t n,
				   double alpha, struct ti_stats_cache *cache, struct ti_stats_hl *r)
{
	struct matrix a = { 0 };
	double *sx, *sy, level;
	size_t k;
	int rc;

	if (m == 0 || n == 0 || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	if ((rc = ti_stats_moses_k_cached(m, n, alpha, cache, &k, &level)) < 0)
		return rc;
	sx = sorted_copy(x, m);
	sy = sorted_copy(y, n);
	if (!sx || !sy) {
		free(sx);
		free(sy);
		return -ENOMEM;
	}
	a.x = sx;
	a.y = sy;
	a.rows = m;
	a.cols = n;
	rc = estimate(&a, m * n, k, level, r);
	free(sx);
	free(sy);
	return rc;
}

int ti_stats_walsh(const double *d, size_t n, double alpha, struct ti_stats_hl *r)
{
	struct matrix a = { 0 };
	double *sd, level;
	size_t k;
	int rc;

	if (n == 0 || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	if ((rc = ti_stats_walsh_k(n, alpha, &k, &level)) < 0)
		return rc;
	if (!(sd = sorted_copy(d, n)))
		return -ENOMEM;
	a.x = a.y = sd;
	a.rows = a.cols = n;
	a.walsh = true;
	rc = estimate(&a, n * (n + 1) / 2, k, level, r);
	free(sd);
	return rc;
}
