/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* stats-test.c: lib/stats/ against hand-computed and published values,
 * plus fixed-seed simulations of the A/B decision (TAP). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "stats.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static bool near(double got, double want, double tol)
{
	if (isnan(want))
		return isnan(got);
	if (isinf(want))
		return got == want;
	return fabs(got - want) <= tol;
}

static void test_location(void)
{
	static const struct {
		int line;
		double x[8];
		size_t n;
		double median, mad;
	} cases[] = {
		{ __LINE__, { 3, 1, 2 }, 3, 2, 1.4826 },
		{ __LINE__, { 4, 1, 3, 2 }, 4, 2.5, 1.4826 },
		/* Deviations from 3: 2 1 0 1 97, median 1: an outlier moves nothing. */
		{ __LINE__, { 1, 2, 3, 4, 100 }, 5, 3, 1.4826 },
		{ __LINE__, { 7 }, 1, 7, 0 },
		{ __LINE__, { 5, 5, 5, 5 }, 4, 5, 0 },
		{ __LINE__, { 0 }, 0, NAN, NAN },
	};

	for (size_t i = 0; i < N(cases); i++) {
		double m = ti_stats_median(cases[i].x, cases[i].n);
		double d = ti_stats_mad(cases[i].x, cases[i].n);
		tap_ok(near(m, cases[i].median, 1e-12), cases[i].line, "median = %g", m);
		tap_ok(near(d, cases[i].mad, 1e-12), cases[i].line, "mad = %g", d);
	}

	/* Wikipedia's standard deviation example: mean 5, population sd 2,
	 * sample sd sqrt(32/7). */
	double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct ti_stats_summary s;
	int rc = ti_stats_summarize(x, N(x), &s);
	TAP_OK(rc == 0 && s.n == 8 && s.min == 2 && s.max == 9 &&
	       s.mean == 5 && s.median == 4.5 && near(s.stddev, sqrt(32.0 / 7), 1e-12),
	       "summarize: n %zu min %g max %g mean %g median %g sd %g", s.n, s.min, s.max,
	       s.mean, s.median, s.stddev);
	TAP_OK(x[0] == 2 && x[7] == 9 && x[1] == 4, "summarize leaves its input alone");
	TAP_OK(ti_stats_summarize(x, 0, &s) == -EINVAL, "summarize of nothing is -EINVAL");

	double q[] = { 1, 2, 3, 4 };
	TAP_OK(ti_stats_quantile_sorted(q, 4, 0.25) == 1.75 && ti_stats_quantile_sorted(q, 4, 0) == 1 &&
	       ti_stats_quantile_sorted(q, 4, 1) == 4, "type-7 quantiles of 1..4");

	TAP_OK(near(ti_stats_normal_quantile(0.975), 1.959963984540054, 1e-9) &&
	       near(ti_stats_normal_quantile(0.5), 0, 1e-12) &&
	       near(ti_stats_normal_quantile(0.025), -1.959963984540054, 1e-9) &&
	       near(ti_stats_normal_quantile(0.995), 2.5758293035489, 1e-9),
	       "normal quantiles 0.975 0.5 0.025 0.995");
}

static void test_mann_whitney(void)
{
	/* Exact p-values: the count of rank arrangements at least as extreme,
	 * doubled, over C(m+n, m).  Without ties these match the published
	 * tables (e.g. Mann & Whitney 1947, Table I) and R's wilcox.test. */
	static const struct {
		int line;
		double x[25], y[25];
		size_t m, n;
		double u, p;
	} cases[] = {
		/* Complete separation 3/3: 1/C(6,3) = 1/20 per tail. */
		{ __LINE__, { 1, 2, 3 }, { 4, 5, 6 }, 3, 3, 0, 2.0 / 20 },
		{ __LINE__, { 4, 5, 6 }, { 1, 2, 3 }, 3, 3, 9, 2.0 / 20 },
		/* 4/4: 2/70. */
		{ __LINE__, { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, 4, 4, 0, 2.0 / 70 },
		/* 5/5: 2/252 = 0.007937. */
		{ __LINE__, { 1, 2, 3, 4, 5 }, { 6, 7, 8, 9, 10 }, 5, 5, 0, 2.0 / 252 },
		/* U = 1: P(U <= 1) = 2/252; R wilcox.test gives p = 0.01587. */
		{ __LINE__, { 1, 2, 3, 4, 6 }, { 5, 7, 8, 9, 10 }, 5, 5, 1, 4.0 / 252 },
		/* U = 2: P(U <= 2) = 4/252 (counts 1, 1, 2 for U = 0, 1, 2). */
		{ __LINE__, { 1, 2, 3, 5, 6 }, { 4, 7, 8, 9, 10 }, 5, 5, 2, 8.0 / 252 },
		/* Interleaved: U = 3; the 3/3 counts for U = 0..3 are 1 1 2 3,
		 * so P(U <= 3) = 7/20 and p = 0.7. */
		{ __LINE__, { 1, 3, 5 }, { 2, 4, 6 }, 3, 3, 3, 0.7 },
		{ __LINE__, { 1 }, { 2 }, 1, 1, 0, 1 },
		/* 1 vs 5: the best possible p is 2/6. */
		{ __LINE__, { 1 }, { 2, 3, 4, 5, 6 }, 1, 5, 0, 2.0 / 6 },
		/* Ties, by hand: doubled midranks 2 6 6 | 6 10 12; x sums to 14;
		 * 3 of the 20 subsets sum to <= 14, so p = 2 * 3/20. */
		{ __LINE__, { 1, 2, 2 }, { 2, 3, 4 }, 3, 3, 1, 0.3 },
		/* All equal: nothing to tell apart. */
		{ __LINE__, { 5, 5 }, { 5, 5, 5 }, 2, 3, 3, 1 },
		/* Exact up to 100 samples in all: complete separation 25/25 is
		 * 2 / C(50, 25); the normal approximation would say 1.4e-9. */
		{ __LINE__, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
			      21, 22, 23, 24, 25 },
		  { 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44,
		    45, 46, 47, 48, 49, 50 }, 25, 25, 0, 1.5821457239859791e-14 },
	};

	for (size_t i = 0; i < N(cases); i++) {
		struct ti_stats_mw r;
		int rc = ti_stats_mann_whitney(cases[i].x, cases[i].m, cases[i].y, cases[i].n, &r);
		tap_ok(rc == 0 && r.u == cases[i].u &&
		       near(r.p, cases[i].p, cases[i].p * 1e-9 + 1e-15), cases[i].line,
		       "mann-whitney %zu/%zu: U %g p %.10g (want %.10g)%s", cases[i].m, cases[i].n,
		       r.u, r.p, cases[i].p, r.exact ? " exact" : " normal");
	}

	/* Normal approximation with the tie correction (above 100 samples),
	 * by hand: x = 30 ones, 31 twos; y = 15 ones, 30 twos, 15 threes;
	 * U = 1155, ties 45, 61, 15: var = 3660/12 * (122 - (91080 + 226920 +
	 * 3360) / (121 * 120)), p = erfc((|1155 - 1830| - 0.5) / sqrt(var) /
	 * sqrt 2) = 0.000111211. */
	double x[61], y[60];
	for (int i = 0; i < 61; i++)
		x[i] = i < 30 ? 1 : 2;
	for (int i = 0; i < 60; i++)
		y[i] = i < 15 ? 1 : i < 45 ? 2 : 3;
	struct ti_stats_mw r;
	int rc = ti_stats_mann_whitney(x, 61, y, 60, &r);
	TAP_OK(rc == 0 && !r.exact && r.u == 1155 &&
	       near(r.p, 0.0001112113294924224, 1e-14), "tie-corrected normal approximation p %.10g", r.p);
	/* Heavy ties of 4-decimal summaries above 40 samples (a regression:
	 * the normal approximation said p 0.0451 and exit status 1): A = 12 x
	 * 0.0100 + 11 x 0.0101, B = 6 x 0.0100 + 15 x 0.0101 + 2 x 0.0102;
	 * the exact conditional p (subset enumeration by dynamic programming
	 * over exact fractions) is 0.0646974615. */
	double ha[23], hb[23];
	for (int i = 0; i < 23; i++) {
		ha[i] = i < 12 ? 0.0100 : 0.0101;
		hb[i] = i < 6 ? 0.0100 : i < 21 ? 0.0101 : 0.0102;
	}
	rc = ti_stats_mann_whitney(ha, 23, hb, 23, &r);
	TAP_OK(rc == 0 && r.exact && near(r.p, 0.0646974615398597, 1e-12),
	       "heavy ties, 23 + 23: exact p %.10g (not the normal 0.0451)", r.p);
	TAP_OK(ti_stats_mann_whitney(x, 0, y, 20, &r) == -EINVAL, "an empty side is -EINVAL");
	TAP_OK(near(ti_stats_min_p_mann_whitney(5, 5), 2.0 / 252, 1e-15) &&
	       near(ti_stats_min_p_mann_whitney(2, 2), 1.0 / 3, 1e-15) &&
	       ti_stats_min_p_mann_whitney(60, 60) == 0, "smallest exact p: 2/252, 1/3; 0 above 100");

	/* Without heavy ties (20 + 20) the exact p and the normal
	 * approximation of the same data agree to about 0.01. */
	double a[20], b[20];
	for (int i = 0; i < 20; i++) {
		a[i] = 2 * i;
		b[i] = 2 * i + 9;	/* a_i > b_j when i >= j + 5: U = 120 */
	}
	struct ti_stats_mw e;
	ti_stats_mann_whitney(a, 20, b, 20, &e);
	double var = 400.0 / 12 * 41, z = (fabs(e.u - 200) - 0.5) / sqrt(var);
	double pn = erfc(z / sqrt(2));
	TAP_OK(e.exact && fabs(e.p - pn) < 0.01, "exact p %.4f vs normal %.4f at U %g", e.p, pn, e.u);
}

static void test_hodges_lehmann(void)
{
	static const struct {
		int line;
		double x[5], y[5];
		size_t m, n;
		double alpha, shift, lo, hi, level;
	} cases[] = {
		/* Differences 1 2 2 3 3 3 4 4 5: median 3.  P(U = 0) = 1/20 >
		 * 0.025, so no finite 95 % interval exists; at 90 % K = 1. */
		{ __LINE__, { 1, 2, 3 }, { 4, 5, 6 }, 3, 3, 0.05, 3, -INFINITY, INFINITY, 1 },
		{ __LINE__, { 1, 2, 3 }, { 4, 5, 6 }, 3, 3, 0.10, 3, 1, 5, 0.9 },
		/* 5/5, alpha 0.05: K = 3 (P(U <= 2) = 4/252 <= 0.025 <
		 * P(U <= 3) = 7/252); differences 1..9 with multiplicities
		 * 1 2 3 4 5 4 3 2 1: 3rd smallest 2, 3rd largest 8. */
		{ __LINE__, { 1, 2, 3, 4, 5 }, { 6, 7, 8, 9, 10 }, 5, 5, 0.05, 5, 2, 8, 1 - 8.0 / 252 },
		/* Shift of a constant: every difference is 0.5. */
		{ __LINE__, { 1, 1, 1, 1 }, { 1.5, 1.5, 1.5, 1.5 }, 4, 4, 0.05, 0.5, 0.5, 0.5, 1 - 2.0 / 70 },
		/* One sample a side: the estimate is the difference, no interval. */
		{ __LINE__, { 2 }, { 3 }, 1, 1, 0.05, 1, -INFINITY, INFINITY, 1 },
		/* Even number of differences: mean of the middle two. */
		{ __LINE__, { 0, 1 }, { 1 }, 2, 1, 0.05, 0.5, -INFINITY, INFINITY, 1 },
	};

	for (size_t i = 0; i < N(cases); i++) {
		struct ti_stats_hl r;
		int rc = ti_stats_hodges_lehmann(cases[i].x, cases[i].m, cases[i].y, cases[i].n,
						 cases[i].alpha, &r);
		tap_ok(rc == 0 && near(r.shift, cases[i].shift, 1e-12) && near(r.lo, cases[i].lo, 1e-12) &&
		       near(r.hi, cases[i].hi, 1e-12) && near(r.level, cases[i].level, 1e-12),
		       cases[i].line, "hodges-lehmann: shift %g CI %g..%g level %.4f", r.shift,
		       r.lo, r.hi, r.level);
	}
	struct ti_stats_hl r;
	double one = 1;
	TAP_OK(ti_stats_hodges_lehmann(&one, 1, &one, 0, 0.05, &r) == -EINVAL,
	       "hodges-lehmann with an empty side is -EINVAL");
}

static void test_signed_rank(void)
{
	/* Exact p-values by enumerating all 2^n sign patterns of the nonzero
	 * differences (Pratt's ranks: zeros ranked, then left out). */
	static const struct {
		int line;
		double d[12];
		size_t n;
		double t, p;
	} cases[] = {
		/* All positive, n = 10: 2 / 1024. */
		{ __LINE__, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, 10, 55, 1.0 / 512 },
		{ __LINE__, { -1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, 10, 54, 1.0 / 256 },
		{ __LINE__, { -1, -2, -3, 4, 5, 6, 7, 8, 9, 10 }, 10, 49, 7.0 / 256 },
		/* Zeros and ties: ranks 1.5 1.5 4 4 4 7 7 7 9 10, zeros out. */
		{ __LINE__, { 0, 0, 1, 1, -1, 2, 2, 2, -3, 4 }, 10, 39, 25.0 / 128 },
		{ __LINE__, { 1, -2, 3, -4, 5, -6, 7, -8 }, 8, 16, 27.0 / 32 },
		/* All tied and positive: 2 / 64. */
		{ __LINE__, { 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 }, 6, 21, 1.0 / 32 },
		/* Nothing but zeros: no evidence either way. */
		{ __LINE__, { 0, 0, 0 }, 3, 0, 1 },
		{ __LINE__, { 3 }, 1, 1, 1 },
	};

	for (size_t i = 0; i < N(cases); i++) {
		struct ti_stats_mw r;
		int rc = ti_stats_signed_rank(cases[i].d, cases[i].n, &r);
		tap_ok(rc == 0 && r.exact && r.u == cases[i].t && near(r.p, cases[i].p, 1e-15),
		       cases[i].line, "signed rank n %zu: T+ %g p %.10g (want %.10g)", cases[i].n,
		       r.u, r.p, cases[i].p);
	}
	/* Above TI_STATS_SR_EXACT_MAX: the normal approximation with the
	 * permutation moments.  400 differences 1..400, the first 180
	 * negative: T+ = sum(181..400) = 63910, E = 40100, Var = sum(r^2)/4,
	 * p = erfc((|T+ - E| - 0.5) / sd / sqrt 2). */
	static double d[400];
	double var = 0;
	for (int i = 0; i < 400; i++) {
		d[i] = i < 180 ? -(i + 1) : i + 1;
		var += (double)(i + 1) * (i + 1) / 4;
	}
	struct ti_stats_mw r;
	double want = erfc((fabs(63910.0 - 40100) - 0.5) / sqrt(var) / sqrt(2));
	int rc = ti_stats_signed_rank(d, 400, &r);
	TAP_OK(rc == 0 && !r.exact && r.u == 63910 && near(r.p, want, want * 1e-9),
	       "signed rank n 400, normal approximation: p %.6g (want %.6g)", r.p, want);
	TAP_OK(ti_stats_signed_rank(d, 0, &r) == -EINVAL, "signed rank of nothing is -EINVAL");
	TAP_OK(near(ti_stats_min_p_signed_rank(10), 1.0 / 512, 1e-18) &&
	       ti_stats_min_p_signed_rank(1) == 1, "smallest exact signed-rank p: 2^(1-n)");
}

static void test_walsh(void)
{
	/* Tukey's K from the untied signed-rank null: the published two-sided
	 * 0.05 critical values T = 8 (n 10) and 52 (n 20) are K - 1. */
	static const struct {
		int line;
		size_t n;
		double alpha;
		size_t k;
		double level;
	} ks[] = {
		{ __LINE__, 5, 0.05, 0, 1 },
		{ __LINE__, 6, 0.05, 1, 0.96875 },
		{ __LINE__, 8, 0.05, 4, 0.9609375 },
		{ __LINE__, 10, 0.05, 9, 0.951171875 },
		{ __LINE__, 20, 0.05, 53, 0.9515590667724609 },
	};
	for (size_t i = 0; i < N(ks); i++) {
		size_t k;
		double level;
		int rc = ti_stats_walsh_k(ks[i].n, ks[i].alpha, &k, &level);
		tap_ok(rc == 0 && k == ks[i].k && near(level, ks[i].level, 1e-12), ks[i].line,
		       "walsh K n %zu: %zu level %.6f", ks[i].n, k, level);
	}
	/* Walsh averages by hand (brute force over all 55 of them). */
	double d[] = { 0.3, -0.1, 0.5, 0.2, 0.9, 0.4, -0.2, 0.6, 0.1, 0.7 };
	struct ti_stats_hl h;
	int rc = ti_stats_walsh(d, N(d), 0.05, &h);
	TAP_OK(rc == 0 && near(h.shift, 0.35, 1e-12) && near(h.lo, 0.1, 1e-12) &&
	       near(h.hi, 0.6, 1e-12) && near(h.level, 0.951171875, 1e-12),
	       "walsh: centre %g CI %g..%g level %g", h.shift, h.lo, h.hi, h.level);
	double d2[] = { 1, 2, 2, 3, 5, 8 };
	rc = ti_stats_walsh(d2, N(d2), 0.10, &h);
	TAP_OK(rc == 0 && near(h.shift, 3, 1e-12) && near(h.lo, 1.5, 1e-12) && near(h.hi, 5.5, 1e-12),
	       "walsh with ties: centre %g CI %g..%g", h.shift, h.lo, h.hi);
	rc = ti_stats_walsh(d2, 1, 0.05, &h);
	TAP_OK(rc == 0 && h.shift == 1 && isinf(h.lo) && isinf(h.hi), "walsh of one value: itself, no interval");
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The order-statistic selection of stats-shift.c against sorting every
 * difference and Walsh average, on random samples with and without heavy
 * ties, for many sizes. */
static void test_shift_selection(void)
{
	struct ti_stats_rng r;
	size_t bad = 0, runs = 0;

	ti_stats_rng_seed(&r, 12);
	for (int trial = 0; trial < 300; trial++) {
		size_t m = 1 + (size_t)(ti_stats_rng_uniform(&r) * 70);
		size_t n = 1 + (size_t)(ti_stats_rng_uniform(&r) * 70);
		bool ties = trial % 2;
		double x[70], y[70], *all = malloc(m * n * sizeof *all), *w;
		struct ti_stats_hl h;
		size_t k, nw = 0;
		double level;

		for (size_t i = 0; i < m; i++)
			x[i] = ties ? floor(ti_stats_rng_uniform(&r) * 5) : ti_stats_rng_normal(&r);
		for (size_t j = 0; j < n; j++)
			y[j] = ties ? floor(ti_stats_rng_uniform(&r) * 5) : ti_stats_rng_normal(&r) + 0.3;
		for (size_t i = 0; i < m; i++)
			for (size_t j = 0; j < n; j++)
				all[i * n + j] = y[j] - x[i];
		qsort(all, m * n, sizeof *all, cmp_d);
		ti_stats_hodges_lehmann(x, m, y, n, 0.05, &h);
		ti_stats_moses_k(m, n, 0.05, &k, &level);
		double med = all[(m * n - 1) / 2] + (all[m * n / 2] - all[(m * n - 1) / 2]) / 2;
		runs++;
		if (h.shift != med || (k && (h.lo != all[k - 1] || h.hi != all[m * n - k])))
			bad++;
		/* Walsh averages of x. */
		w = malloc(m * (m + 1) / 2 * sizeof *w);
		double sx[70];
		memcpy(sx, x, m * sizeof *sx);
		qsort(sx, m, sizeof *sx, cmp_d);
		for (size_t i = 0; i < m; i++)
			for (size_t j = i; j < m; j++)
				w[nw++] = (sx[i] + sx[j]) / 2;
		qsort(w, nw, sizeof *w, cmp_d);
		ti_stats_walsh(x, m, 0.05, &h);
		ti_stats_walsh_k(m, 0.05, &k, &level);
		med = w[(nw - 1) / 2] + (w[nw / 2] - w[(nw - 1) / 2]) / 2;
		runs++;
		if (h.shift != med || (k && (h.lo != w[k - 1] || h.hi != w[nw - k])))
			bad++;
		free(all);
		free(w);
	}
	TAP_OK(bad == 0, "selection = sorting all values: %zu of %zu differ", bad, runs);
}

static void test_t(void)
{
	/* Student's t quantiles (tables: Fisher & Yates): 0.975 at 1, 2, 10,
	 * 30 degrees of freedom; the CDF at 0 is 1/2. */
	TAP_OK(near(ti_stats_t_quantile(0.975, 1), 12.706204736, 1e-6) &&
	       near(ti_stats_t_quantile(0.975, 2), 4.302652730, 1e-7) &&
	       near(ti_stats_t_quantile(0.975, 10), 2.228138852, 1e-7) &&
	       near(ti_stats_t_quantile(0.975, 30), 2.042272456, 1e-7) &&
	       near(ti_stats_t_quantile(0.025, 30), -2.042272456, 1e-7) &&
	       near(ti_stats_t_cdf(0, 5), 0.5, 1e-15) && near(ti_stats_t_cdf(1, 1), 0.75, 1e-12),
	       "t quantiles %.9g %.9g %.9g %.9g", ti_stats_t_quantile(0.975, 1),
	       ti_stats_t_quantile(0.975, 2), ti_stats_t_quantile(0.975, 10),
	       ti_stats_t_quantile(0.975, 30));
}

/* The t family with a floor and Brunner-Munzel.  Reference values from
 * the formulas evaluated independently in Python with mpmath 1.3.0
 * (the t distribution through its regularized incomplete beta function,
 * 30 digits); Brunner-Munzel against the example of scipy.stats.brunnermunzel's
 * documentation (statistic 3.1374674823029505, p 0.0057862086661515377). */
static void test_t_family(void)
{
	struct ti_stats_mw r = { 0 };
	struct ti_stats_hl h = { 0 };
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2.5, 4, 6.5, 8, 10, 30 };
	double x2[] = { 3.1, 2.9, 3.0, 3.3, 2.8, 3.05, 9.0, 3.2, 2.95, 3.0 };
	double y2[] = { 3.4, 3.6, 3.5, 3.3, 3.45, 0.1, 3.55, 3.5 };
	double d[] = { 0.01, 0.03, -0.02, 0.05, 0.02, 0.04 }, z[] = { 0, 0, 0, 0 };

	TAP_OK(ti_stats_t2(x, N(x), y, N(y), 0, false, 0, 0.05, &r, &h) == 0 &&
	       near(r.u, 1.7158868016053876, 1e-9) && near(r.p, 0.14357930060906211, 1e-7) &&
	       near(h.lo, -3.3930670410513135, 1e-6) && near(h.hi, 17.726400374384647, 1e-6),
	       "Welch: t %.10g p %.10g interval %.8g..%.8g", r.u, r.p, h.lo, h.hi);
	/* Hsu's degrees of freedom, min(m, n) - 1 = 4 (mpmath, 30 digits). */
	TAP_OK(ti_stats_t2(x, N(x), y, N(y), 0, true, 0, 0.05, &r, &h) == 0 &&
	       near(r.u, 1.7158868016053874, 1e-9) && near(r.p, 0.16132489941423619, 1e-7) &&
	       near(h.lo, -4.4295858184240603, 1e-6) && near(h.hi, 18.762919151757392, 1e-6),
	       "Welch-Hsu: t %.10g p %.10g interval %.8g..%.8g", r.u, r.p, h.lo, h.hi);
	TAP_OK(ti_stats_t2(x2, N(x2), y2, N(y2), 0.2, false, 0, 0.05, &r, &h) == 0 &&
	       near(r.u, 5.2195501186344095, 1e-9) && near(r.p, 0.00043313072817251771, 1e-9) &&
	       near(h.lo, 0.2284890707686149, 1e-7) && near(h.hi, 0.57151092923138493, 1e-7),
	       "Yuen two-sample: t %.10g p %.10g interval %.8g..%.8g", r.u, r.p, h.lo, h.hi);
	TAP_OK(ti_stats_t1(d, N(d), 0, 0, 0.1, &r, &h) == 0 && near(r.u, 2.1371868349696447, 1e-9) &&
	       near(r.p, 0.085621605279712838, 1e-8) && near(h.lo, 0.0012382320965858433, 1e-8) &&
	       near(h.hi, 0.042095101236747491, 1e-8),
	       "one-sample t: t %.10g p %.10g interval %.8g..%.8g", r.u, r.p, h.lo, h.hi);
	TAP_OK(ti_stats_t1(d, N(d), 0.2, 0, 0.1, &r, &h) == 0 && near(r.u, 2.9617443887954618, 1e-9) &&
	       near(r.p, 0.059460630041378572, 1e-8) && near(h.lo, 0.0051353262987109663, 1e-8) &&
	       near(h.hi, 0.044864673701289034, 1e-8),
	       "one-sample Yuen: t %.10g p %.10g interval %.8g..%.8g", r.u, r.p, h.lo, h.hi);
	/* Four equal log-ratios: the floor is the spread, not 0 (t = inf). */
	TAP_OK(ti_stats_t1(z, N(z), 0, 0.01, 0.05, &r, &h) == 0 && r.p == 1 &&
	       near(h.lo, -0.015912231526418542, 1e-9) && near(h.hi, 0.015912231526418542, 1e-9),
	       "floored t: p %g interval %.8g..%.8g", r.p, h.lo, h.hi);
	TAP_OK(ti_stats_t1(z, 1, 0, 0.01, 0.05, &r, &h) == 0 && isnan(r.p) && isinf(h.lo),
	       "one value: no test, p %g", r.p);
	TAP_OK(ti_stats_t2(x, 1, y, N(y), 0, false, 0.01, 0.05, &r, &h) == 0 && isnan(r.p) && isinf(h.hi),
	       "one value a side: no test, p %g", r.p);
	TAP_OK(ti_stats_t1(z, 0, 0, 0, 0.05, &r, &h) == -EINVAL, "t of nothing is -EINVAL");

	double bx[] = { 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 1, 1 };
	double by[] = { 3, 3, 4, 3, 1, 2, 3, 1, 1, 5, 4 };
	TAP_OK(ti_stats_brunner_munzel(bx, N(bx), by, N(by), &r) == 0 &&
	       near(r.z, 3.1374674823029505, 1e-9) && near(r.p, 0.0057862086661515377, 1e-9),
	       "Brunner-Munzel: W %.12g p %.12g", r.z, r.p);
	/* Complete separation: the permutation p, 2 / C(6, 3) = 0.1. */
	double sx[] = { 1, 2, 3 }, sy[] = { 4, 5, 6 };
	TAP_OK(ti_stats_brunner_munzel(sx, 3, sy, 3, &r) == 0 && near(r.p, 0.1, 1e-12),
	       "Brunner-Munzel at separation: p %g", r.p);
}

static void test_adjust(void)
{
	static const struct {
		int line;
		enum ti_stats_adjust how;
		double p[5], want[5];
		size_t n;
	} cases[] = {
		/* Holm: (m - j + 1) p_(j), running maximum. */
		{ __LINE__, TI_STATS_ADJUST_HOLM, { 0.01, 0.02, 0.03, 0.04, 0.05 },
		  { 0.05, 0.08, 0.09, 0.09, 0.09 }, 5 },
		/* BH: m / j p_(j), running minimum from the top. */
		{ __LINE__, TI_STATS_ADJUST_BH, { 0.01, 0.02, 0.03, 0.04, 0.05 },
		  { 0.05, 0.05, 0.05, 0.05, 0.05 }, 5 },
		/* Unsorted input keeps its order. */
		{ __LINE__, TI_STATS_ADJUST_HOLM, { 0.01, 0.04, 0.03, 0.005 }, { 0.03, 0.06, 0.06, 0.02 }, 4 },
		{ __LINE__, TI_STATS_ADJUST_BH, { 0.01, 0.04, 0.03, 0.005 }, { 0.02, 0.04, 0.04, 0.02 }, 4 },
		/* NaN (no test) is skipped and does not count toward m. */
		{ __LINE__, TI_STATS_ADJUST_HOLM, { 0.01, NAN, 0.04 }, { 0.02, NAN, 0.04 }, 3 },
		{ __LINE__, TI_STATS_ADJUST_HOLM, { 0.5, 0.9 }, { 1, 1 }, 2 },
		{ __LINE__, TI_STATS_ADJUST_NONE, { 0.5, 0.01 }, { 0.5, 0.01 }, 2 },
	};

	for (size_t i = 0; i < N(cases); i++) {
		double out[5];
		bool ok = ti_stats_adjust(cases[i].p, cases[i].n, cases[i].how, out) == 0;
		for (size_t k = 0; k < cases[i].n; k++)
			ok = ok && near(out[k], cases[i].want[k], 1e-12);
		tap_ok(ok, cases[i].line, "adjust %d: %g %g %g ...", (int)cases[i].how, out[0], out[1],
		       out[2]);
	}
}

static void test_rng(void)
{
	struct ti_stats_rng a, b;
	bool same = true, in_range = true;
	double sum = 0, ss = 0;
	const int n = 200000;

	/* splitmix64's first output from seed 0 (Vigna's reference code). */
	ti_stats_rng_seed(&a, 0);
	TAP_OK(a.s[0] == 0xe220a8397b1dcdafu, "splitmix64 seeding: %#llx",
	       (unsigned long long)a.s[0]);
	ti_stats_rng_seed(&a, 42);
	ti_stats_rng_seed(&b, 42);
	for (int i = 0; i < 1000; i++)
		same = same && ti_stats_rng_next(&a) == ti_stats_rng_next(&b);
	TAP_OK(same, "the same seed gives the same sequence");
	ti_stats_rng_seed(&b, 43);
	TAP_OK(ti_stats_rng_next(&a) != ti_stats_rng_next(&b), "another seed, another sequence");
	for (int i = 0; i < n; i++) {
		double u = ti_stats_rng_uniform(&a);
		in_range = in_range && u >= 0 && u < 1;
		double z = ti_stats_rng_normal(&a);
		sum += z;
		ss += z * z;
	}
	/* 200000 deviates: the mean's sd is 0.0022, the variance's 0.0032. */
	TAP_OK(in_range, "uniform stays in [0, 1)");
	TAP_OK(fabs(sum / n) < 0.015 && fabs(ss / n - 1) < 0.02, "normal: mean %.4f variance %.4f",
	       sum / n, ss / n);

	double c[] = { 3, 3, 3 }, lo, hi, lo2, hi2;
	int rc = ti_stats_bootstrap_mean(c, 3, 1000, 0.95, 1, &lo, &hi);
	TAP_OK(rc == 0 && lo == 3 && hi == 3,
	       "bootstrap of a constant: %g..%g", lo, hi);
	double x[] = { 0, 1, 0, 1, 0, 1, 0, 1 };
	ti_stats_bootstrap_mean(x, 8, 2000, 0.95, 7, &lo, &hi);
	ti_stats_bootstrap_mean(x, 8, 2000, 0.95, 7, &lo2, &hi2);
	TAP_OK(lo == lo2 && hi == hi2 && lo > 0 && lo < 0.5 && hi > 0.5 && hi < 1,
	       "bootstrap is reproducible and covers the mean: %g..%g", lo, hi);
	TAP_OK(ti_stats_bootstrap_mean(x, 0, 2000, 0.95, 7, &lo, &hi) == -EINVAL,
	       "bootstrap of nothing is -EINVAL");
}

/* One simulated benchmark: M and N lognormal samples with relative noise
 * SIGMA, B shifted by SHIFT; returns the Mann-Whitney p-value. */
static double sim_p(struct ti_stats_rng *r, size_t m, size_t n, double sigma, double shift)
{
	double x[32], y[32];
	struct ti_stats_mw mw;

	for (size_t i = 0; i < m; i++)
		x[i] = log(1.0) + sigma * ti_stats_rng_normal(r);
	for (size_t i = 0; i < n; i++)
		y[i] = log1p(shift) + sigma * ti_stats_rng_normal(r);
	ti_stats_mann_whitney(x, m, y, n, &mw);
	return mw.p;
}

static void test_simulation(void)
{
	enum { BENCH = 2000 };
	static double p[BENCH], adj[BENCH];
	struct ti_stats_rng r;
	size_t raw = 0, holm = 0, bh = 0, large = 0, hit = 0;

	/* A/A: identical distributions on both sides, 5 samples each, 1 %
	 * noise.  The exact test at 0.05 can only reject at p <= 8/252, so the
	 * expected rate is 3.2 %; Holm and BH should reject nothing. */
	ti_stats_rng_seed(&r, 20261130);
	for (int i = 0; i < BENCH; i++)
		p[i] = sim_p(&r, 5, 5, 0.01, 0);
	for (int i = 0; i < BENCH; i++)
		raw += p[i] < 0.05;
	ti_stats_adjust(p, BENCH, TI_STATS_ADJUST_HOLM, adj);
	for (int i = 0; i < BENCH; i++)
		holm += adj[i] < 0.05;
	ti_stats_adjust(p, BENCH, TI_STATS_ADJUST_BH, adj);
	for (int i = 0; i < BENCH; i++)
		bh += adj[i] < 0.05;
	TAP_OK((double)raw / BENCH <= 0.05, "A/A 5 vs 5: false-positive rate %.2f%% <= 5%%",
	       100.0 * (double)raw / BENCH);
	TAP_OK(holm == 0 && bh == 0, "A/A with Holm: %zu, with BH: %zu false positives", holm, bh);

	/* Large samples take the normal approximation; it must hold the level too. */
	/* 2000 trials: the rate's sd is 0.5 %, so 6.5 % is three sd out. */
	for (int i = 0; i < 2000; i++)
		large += sim_p(&r, 20, 25, 0.01, 0) < 0.05;
	TAP_OK(large / 2000.0 <= 0.065, "A/A 20 vs 25 (normal approx.): rate %.2f%%", large / 20.0);

	/* A 3 % shift, 5 samples a side, 1 % noise: detected by the raw test
	 * in nearly every trial, and the fixed-seed first one for sure. */
	ti_stats_rng_seed(&r, 3);
	double first = sim_p(&r, 5, 5, 0.01, 0.03);
	hit = first < 0.05;
	for (int i = 1; i < 1000; i++)
		hit += sim_p(&r, 5, 5, 0.01, 0.03) < 0.05;
	TAP_OK(first < 0.05, "3%% shift, 5 vs 5, 1%% noise: p = %.4f", first);
	TAP_OK(hit >= 900, "3%% shift detected in %zu of 1000 trials", hit);
}

int main(void)
{
	test_location();
	test_mann_whitney();
	test_hodges_lehmann();
	test_signed_rank();
	test_walsh();
	test_shift_selection();
	test_t();
	test_t_family();
	test_adjust();
	test_rng();
	test_simulation();
	return tap_done();
}
