/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* stats-infer.c: rank tests, shift estimates, multiple-comparison
 * adjustment and a reproducible bootstrap (ti_stats_*, declared in
 * stats.h).  Kept apart from stats.c because it needs libm. */
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

static double normal_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

double ti_stats_normal_quantile(double p)
{
	double lo = -40, hi = 40;

	if (!(p > 0 && p < 1))
		return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
	/* Bisection on erfc: slow by numerics standards, exact to the last
	 * bit, and called a handful of times per comparison. */
	for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
		double mid = 0.5 * (lo + hi);
		if (normal_cdf(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

struct tagged {
	double v;
	int side;		/* 0: x, 1: y */
};

static int cmp_tagged(const void *a, const void *b)
{
	return cmp_double(&((const struct tagged *)a)->v, &((const struct tagged *)b)->v);
}

/* Counts of the size-M subsets of N items with doubled ranks R2 by their
 * doubled rank sum: out[s] for s = 0 .. N(N+1).  This is the permutation
 * distribution of the rank sum conditional on the tie pattern; without ties
 * it is the classical Mann-Whitney distribution.  Dynamic programming over
 * items: ways[k][s] = subsets of size k among the items seen so far. */
static double *rank_sum_counts(const unsigned *r2, size_t n, size_t m, size_t *smax)
{
	size_t stop = n * (n + 1), w = stop + 1;
	double *ways = calloc((m + 1) * w, sizeof *ways);
	double *out;

	if (!ways)
		return NULL;
	ways[0] = 1;
	for (size_t i = 0; i < n; i++) {
		size_t kmax = i + 1 < m ? i + 1 : m;
		for (size_t k = kmax; k >= 1; k--)
			for (size_t s = stop; s >= r2[i]; s--)
				ways[k * w + s] += ways[(k - 1) * w + s - r2[i]];
	}
	out = malloc(w * sizeof *out);
	if (out)
		memcpy(out, ways + m * w, w * sizeof *out);
	free(ways);
	*smax = stop;
	return out;
}

int ti_stats_mann_whitney(const double *x, size_t m, const double *y, size_t n,
			  struct ti_stats_mw *r)
{
	size_t total = m + n, i, j;
	struct tagged *t;
	unsigned *r2;
	double w2 = 0, tie_term = 0;

	if (m == 0 || n == 0)
		return -EINVAL;
	t = malloc(total * sizeof *t);
	r2 = malloc(total * sizeof *r2);
	if (!t || !r2) {
		free(t);
		free(r2);
		return -ENOMEM;
	}
	for (i = 0; i < m; i++)
		t[i] = (struct tagged){ x[i], 0 };
	for (i = 0; i < n; i++)
		t[m + i] = (struct tagged){ y[i], 1 };
	qsort(t, total, sizeof *t, cmp_tagged);
	/* Midranks, doubled so they stay integers: positions i..j-1 (0-based)
	 * share rank ((i+1) + j) / 2. */
	for (i = 0; i < total; i = j) {
		for (j = i + 1; j < total && t[j].v == t[i].v; j++)
			;
		double tl = (double)(j - i);
		tie_term += tl * tl * tl - tl;
		for (size_t k = i; k < j; k++) {
			r2[k] = (unsigned)(i + 1 + j);
			if (t[k].side == 0)
				w2 += r2[k];
		}
	}
	r->u = w2 / 2 - (double)m * (double)(m + 1) / 2;

	if (total <= TI_STATS_EXACT_MAX) {
		size_t smax;
		double *c = rank_sum_counts(r2, total, m, &smax);
		double all = 0, le = 0, ge = 0;

		if (!c) {
			free(t);
			free(r2);
			return -ENOMEM;
		}
		for (size_t s = 0; s <= smax; s++) {
			all += c[s];
			if ((double)s <= w2)
				le += c[s];
			if ((double)s >= w2)
				ge += c[s];
		}
		free(c);
		/* Two-sided: twice the smaller tail, as R's wilcox.test does. */
		r->p = fmin(1.0, 2 * fmin(le, ge) / all);
		r->z = 0;
		r->exact = true;
	} else {
		/* Normal approximation; variance with the tie correction
		 * (Lehmann, Nonparametrics, 1975, eq. 1.45). */
		double mm = (double)m, nn = (double)n, nt = (double)total;
		double mu = mm * nn / 2;
		double var = mm * nn / 12 * ((nt + 1) - tie_term / (nt * (nt - 1)));
		double d = fabs(r->u - mu) - 0.5;

		if (d < 0)
			d = 0;
		r->z = var > 0 ? (r->u - mu) / sqrt(var) : 0;
		r->p = var > 0 ? fmin(1.0, erfc(d / sqrt(var) / M_SQRT2)) : 1.0;
		r->exact = false;
	}
	free(t);
	free(r2);
	return 0;
}

/* Moses' K: the confidence interval is the K-th smallest to the K-th
 * largest pairwise difference, where K - 1 is the largest u with
 * P(U <= u) <= alpha/2 under the untied null distribution.  0 means no
 * finite interval reaches that level.  *LEVEL gets the exact coverage. */
static int moses_k(size_t m, size_t n, double alpha, size_t *k, double *level)
{
	size_t total = m + n;

	if (total <= TI_STATS_EXACT_MAX) {
		unsigned *r2 = malloc(total * sizeof *r2);
		size_t smax, base = m * (m + 1);	/* doubled minimum rank sum */
		double *c, all = 0, cum = 0;

		if (!r2)
			return -ENOMEM;
		for (size_t i = 0; i < total; i++)
			r2[i] = (unsigned)(2 * (i + 1));
		c = rank_sum_counts(r2, total, m, &smax);
		free(r2);
		if (!c)
			return -ENOMEM;
		for (size_t s = 0; s <= smax; s++)
			all += c[s];
		*k = 0;
		*level = 1;
		/* U = (W2 - base) / 2 takes the values 0 .. m*n. */
		for (size_t u = 0; u <= m * n; u++) {
			cum += c[base + 2 * u];
			if (cum / all > alpha / 2)
				break;
			*k = u + 1;
			*level = 1 - 2 * cum / all;
		}
		free(c);
		return 0;
	}
	double mn = (double)m * (double)n;
	double z = ti_stats_normal_quantile(1 - alpha / 2);
	double kk = floor(mn / 2 - z * sqrt(mn * (double)(total + 1) / 12));
	*k = kk < 1 ? 0 : (size_t)kk;
	*level = 1 - alpha;
	return 0;
}

int ti_stats_hodges_lehmann(const double *x, size_t m, const double *y, size_t n,
			    double alpha, struct ti_stats_hl *r)
{
	size_t np = m * n, k;
	double *d, level;
	int rc;

	if (m == 0 || n == 0 || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	if (!(d = malloc(np * sizeof *d)))
		return -ENOMEM;
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			d[i * n + j] = y[j] - x[i];
	ti_stats_sort(d, np);
	r->shift = ti_stats_quantile_sorted(d, np, 0.5);
	if ((rc = moses_k(m, n, alpha, &k, &level)) < 0) {
		free(d);
		return rc;
	}
	if (k == 0 || k > np) {
		r->lo = -INFINITY;
		r->hi = INFINITY;
		r->level = 1;
	} else {
		r->lo = d[k - 1];
		r->hi = d[np - k];
		r->level = level;
	}
	free(d);
	return 0;
}

struct indexed {
	double p;
	size_t i;
};

static int cmp_indexed(const void *a, const void *b)
{
	return cmp_double(&((const struct indexed *)a)->p, &((const struct indexed *)b)->p);
}

int ti_stats_adjust(const double *p, size_t n, enum ti_stats_adjust how, double *out)
{
	struct indexed *s = malloc((n ? n : 1) * sizeof *s);
	size_t m = 0;

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			s[m++] = (struct indexed){ p[i], i };
	qsort(s, m, sizeof *s, cmp_indexed);
	if (out != p)
		for (size_t i = 0; i < n; i++)
			out[i] = p[i];
	if (how == TI_STATS_ADJUST_HOLM) {
		/* Step-down: (m - j) * p_(j), made monotone from the smallest. */
		double run = 0;
		for (size_t j = 0; j < m; j++) {
			double a = fmin(1.0, (double)(m - j) * s[j].p);
			run = fmax(run, a);
			out[s[j].i] = run;
		}
	} else if (how == TI_STATS_ADJUST_BH) {
		/* Step-up: m / rank * p_(rank), made monotone from the largest. */
		double run = 1;
		for (size_t j = m; j-- > 0;) {
			double a = fmin(1.0, (double)m / (double)(j + 1) * s[j].p);
			run = fmin(run, a);
			out[s[j].i] = run;
		}
	}
	free(s);
	return 0;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

void ti_stats_rng_seed(struct ti_stats_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t ti_stats_rng_next(struct ti_stats_rng *r)
{
	uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

double ti_stats_rng_uniform(struct ti_stats_rng *r)
{
	return (double)(ti_stats_rng_next(r) >> 11) * 0x1.0p-53;
}

double ti_stats_rng_normal(struct ti_stats_rng *r)
{
	double u = 1 - ti_stats_rng_uniform(r);	/* (0, 1]: log is finite */
	double v = ti_stats_rng_uniform(r);
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

int ti_stats_bootstrap_mean(const double *x, size_t n, unsigned reps, double level,
			    uint64_t seed, double *lo, double *hi)
{
	struct ti_stats_rng r;
	double *means;

	if (n == 0 || reps == 0 || !(level > 0 && level < 1))
		return -EINVAL;
	if (!(means = malloc(reps * sizeof *means)))
		return -ENOMEM;
	ti_stats_rng_seed(&r, seed);
	for (unsigned b = 0; b < reps; b++) {
		double sum = 0;
		for (size_t i = 0; i < n; i++) {
			size_t k = (size_t)(ti_stats_rng_uniform(&r) * (double)n);
			sum += x[k < n ? k : n - 1];
		}
		means[b] = sum / (double)n;
	}
	ti_stats_sort(means, reps);
	*lo = ti_stats_quantile_sorted(means, reps, (1 - level) / 2);
	*hi = ti_stats_quantile_sorted(means, reps, (1 + level) / 2);
	free(means);
	return 0;
}
