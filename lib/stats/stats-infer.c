/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* stats-infer.c: distributions (normal, Student's t), multiple-comparison
 * adjustment, a reproducible PRNG and bootstrap (ti_stats_*, declared in
 * stats.h).  Kept apart from stats.c because it needs libm; stats.h says
 * where the tests are. */
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

/* The regularised incomplete beta function I_x(a, b) by its continued
 * fraction, evaluated with the modified Lentz method (Lentz 1976;
 * Thompson & Barnett 1986), on the side where it converges fast. */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double mm = m, num;
		/* Even step. */
		num = mm * (b - mm) * x / ((a + 2 * mm - 1) * (a + 2 * mm));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		/* Odd step. */
		num = -(a + mm) * (a + b + mm) * x / ((a + 2 * mm) * (a + 2 * mm + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

static double incomplete_beta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double ti_stats_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	if (isinf(df))
		return normal_cdf(t);
	double tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double ti_stats_digamma(double x)
{
	double r = 0;

	if (!(x > 0))
		return NAN;
	/* psi(x) = psi(x + 1) - 1 / x up to 12, then the asymptotic series
	 * (Abramowitz and Stegun 6.3.18). */
	for (; x < 12; x++)
		r -= 1 / x;
	double f = 1 / (x * x);
	return r + log(x) - 0.5 / x -
	       f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

double ti_stats_trigamma(double x)
{
	double r = 0;

	if (!(x > 0))
		return NAN;
	/* psi'(x) = psi'(x + 1) + 1 / x^2 up to 12, then the asymptotic series
	 * (Abramowitz and Stegun 6.4.12). */
	for (; x < 12; x++)
		r += 1 / (x * x);
	double f = 1 / (x * x);
	return r + 1 / x + f / 2 +
	       f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f * (1.0 / 30))));
}

double ti_stats_trigamma_inverse(double y)
{
	if (!(y > 0) || isinf(y))
		return NAN;
	/* trigamma falls from infinity to 0 over x > 0: bisection on ln x. */
	double lo = log(1e-12), hi = log(1e12);
	for (int i = 0; i < 200 && hi - lo > 1e-15 * fmax(1, fabs(lo)); i++) {
		double mid = 0.5 * (lo + hi);
		if (ti_stats_trigamma(exp(mid)) > y)
			lo = mid;
		else
			hi = mid;
	}
	return exp(0.5 * (lo + hi));
}

int ti_stats_prior_variance(const double *s2, const double *df, size_t n, double *s0sq,
			    double *d0)
{
	double mean = 0, var = 0, tri = 0, med;
	double *e, *w;
	size_t k = 0;

	if (n < 2)
		return -EINVAL;
	if (!(e = malloc(2 * n * sizeof *e)))
		return -ENOMEM;
	w = e + n;
	for (size_t i = 0; i < n; i++) {
		if (!(s2[i] >= 0 && df[i] > 0)) {
			free(e);
			return -EINVAL;
		}
		w[i] = s2[i];
	}
	qsort(w, n, sizeof *w, cmp_double);
	med = n % 2 ? w[n / 2] : 0.5 * (w[n / 2 - 1] + w[n / 2]);
	/* A variance of 0 has no logarithm: at least 1e-5 of the median
	 * (limma's fitFDist). */
	for (size_t i = 0; i < n; i++) {
		double x = fmax(s2[i], 1e-5 * med);
		if (!(x > 0))
			continue;
		e[k] = log(x) - ti_stats_digamma(df[i] / 2) + log(df[i] / 2);
		mean += e[k++];
		tri += ti_stats_trigamma(df[i] / 2);
	}
	if (k < 2) {
		free(e);
		return -EINVAL;
	}
	mean /= (double)k;
	tri /= (double)k;
	for (size_t i = 0; i < k; i++)
		var += (e[i] - mean) * (e[i] - mean);
	var = var / (double)(k - 1) - tri;
	free(e);
	if (var > 0) {
		*d0 = 2 * ti_stats_trigamma_inverse(var);
		*s0sq = exp(mean + ti_stats_digamma(*d0 / 2) - log(*d0 / 2));
	} else {
		*d0 = INFINITY;
		*s0sq = exp(mean);
	}
	return 0;
}

/* The last quantiles asked for: a suite's rows ask the same few levels
 * on the same degrees of freedom, and each answer costs some 70 CDFs of
 * the bisection (the t's CDF was a fifth of reading and comparing 100 000
 * benchmarks).  Not for use by two threads, as the library is not. */
#define T_MEMO 16
static struct {
	double p, df, q;
} t_memo[T_MEMO];
static unsigned t_memo_next;

double ti_stats_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6;

	if (!(p > 0 && p < 1) || !(df > 0))
		return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
	if (isinf(df))
		return ti_stats_normal_quantile(p);
	for (unsigned i = 0; i < T_MEMO; i++)
		if (t_memo[i].df == df && t_memo[i].p == p)
			return t_memo[i].q;
	for (int i = 0; i < 400 && hi - lo > 1e-13 * fmax(1, fabs(lo)); i++) {
		double mid = 0.5 * (lo + hi);
		if (ti_stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	unsigned k = t_memo_next++ % T_MEMO;
	t_memo[k].p = p;
	t_memo[k].df = df;
	t_memo[k].q = 0.5 * (lo + hi);
	return t_memo[k].q;
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
