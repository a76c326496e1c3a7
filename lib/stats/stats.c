/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* stats.c: location and spread of a run set.  No libm here: timeit itself
 * links this file for --repeat and starts faster without loading libm
 * (stats-infer.c holds the tests and estimates that need it). */
#include "config.h"

#include <errno.h>
#include <math.h>	/* NAN, fabs: compiler built-ins */
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void ti_stats_sort(double *x, size_t n)
{
	if (n > 1)
		qsort(x, n, sizeof *x, cmp_double);
}

double ti_stats_quantile_sorted(const double *x, size_t n, double q)
{
	if (n == 0)
		return NAN;
	if (q <= 0)
		return x[0];
	if (q >= 1)
		return x[n - 1];
	double h = (double)(n - 1) * q;
	size_t i = (size_t)h;
	double f = h - (double)i;
	return i + 1 < n ? x[i] + f * (x[i + 1] - x[i]) : x[i];
}

static double median_sorted(const double *x, size_t n)
{
	return ti_stats_quantile_sorted(x, n, 0.5);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof *c);
	if (!c)
		return NULL;
	memcpy(c, x, n * sizeof *c);
	ti_stats_sort(c, n);
	return c;
}

double ti_stats_median(const double *x, size_t n)
{
	double *c, m;

	if (n == 0 || !(c = sorted_copy(x, n)))
		return NAN;
	m = median_sorted(c, n);
	free(c);
	return m;
}

/* MAD of ascending X around its median M, using SCRATCH (n doubles). */
static double mad_sorted(const double *x, size_t n, double m, double *scratch)
{
	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(x[i] - m);
	ti_stats_sort(scratch, n);
	return TI_STATS_MAD_SCALE * median_sorted(scratch, n);
}

double ti_stats_mad(const double *x, size_t n)
{
	struct ti_stats_summary s;
	return ti_stats_summarize(x, n, &s) < 0 ? NAN : s.mad;
}

/* Square root by Newton's iteration (quadratic convergence from above),
 * so that this file needs nothing from libm. */
static double root(double v)
{
	double r = v > 1 ? v : 1, prev;

	if (!(v > 0))
		return 0;
	do {
		prev = r;
		r = 0.5 * (r + v / r);
	} while (r < prev);
	return prev;
}

int ti_stats_summarize(const double *x, size_t n, struct ti_stats_summary *s)
{
	double *c, *d, sum = 0, ss = 0;

	if (n == 0)
		return -EINVAL;
	if (!(c = sorted_copy(x, n)))
		return -ENOMEM;
	if (!(d = malloc(n * sizeof *d))) {
		free(c);
		return -ENOMEM;
	}
	s->n = n;
	s->min = c[0];
	s->max = c[n - 1];
	s->median = median_sorted(c, n);
	s->mad = mad_sorted(c, n, s->median, d);
	for (size_t i = 0; i < n; i++)
		sum += c[i];
	s->mean = sum / (double)n;
	/* Two-pass variance: accurate for the tightly clustered values that
	 * repeated timings are. */
	for (size_t i = 0; i < n; i++)
		ss += (c[i] - s->mean) * (c[i] - s->mean);
	s->stddev = n > 1 ? root(ss / (double)(n - 1)) : 0;
	free(c);
	free(d);
	return 0;
}

