/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* stats.h: robust statistics over arrays of doubles, for run sets (timeit
 * --repeat), A/B comparisons (lib/ab/) and histories.  Nothing here prints
 * or exits; functions that allocate return 0 or -ENOMEM / -EINVAL.
 *
 * Which test lives where: stats.c has location and spread (sort,
 * quantiles, median, MAD, summaries) and needs no libm, so timeit itself
 * links only it; stats-infer.c the distributions (normal, Student's t),
 * the multiple-comparison adjustment, the PRNG and the bootstrap;
 * stats-rank.c the rank tests with their exact permutation distributions
 * (Mann-Whitney, Wilcoxon signed rank), the sign test, Spearman's
 * correlation and the order statistics of the rank intervals (Moses' and
 * Tukey's K); stats-shift.c the Hodges-Lehmann estimates and the
 * intervals built on those K; stats-t.c the t family (paired t, Yuen's
 * trimmed t, Welch's t, Yuen's two-sample t) and Brunner-Munzel, whose
 * p-values have no floor set by the sample count. */
#ifndef TI_STATS_H
#define TI_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Scale that makes the median absolute deviation estimate the standard
 * deviation of normal data: 1 / Phi^-1(3/4) (Rousseeuw & Croux 1993). */
#define TI_STATS_MAD_SCALE 1.4826

/* Above this total sample count the Mann-Whitney test (and Moses' K)
 * switch from the exact permutation distribution to the normal
 * approximation; above TI_STATS_SR_EXACT_MAX pairs the signed-rank test
 * (and Tukey's K) do.  Below them the distributions are exact conditional
 * on ties, which the normal approximation is not: with the heavy ties of
 * 4-decimal summaries it can be anti-conservative well above 40. */
#define TI_STATS_EXACT_MAX 100
#define TI_STATS_SR_EXACT_MAX 300

struct ti_stats_summary {
	size_t n;
	double min, max, mean, median;
	double mad;		/* median absolute deviation * TI_STATS_MAD_SCALE */
	double stddev;		/* sample standard deviation (n - 1); 0 when n < 2 */
};

/* Sort X ascending in place (NaNs are not allowed). */
void ti_stats_sort(double *x, size_t n);

/* The Q-quantile (0 <= Q <= 1) of ascending X, linear interpolation between
 * order statistics (Hyndman & Fan type 7); NAN when N is 0. */
double ti_stats_quantile_sorted(const double *x, size_t n, double q);

/* Median of X (left unchanged); NAN when N is 0 or memory runs out. */
double ti_stats_median(const double *x, size_t n);

/* Median absolute deviation from the median, times TI_STATS_MAD_SCALE;
 * NAN when N is 0 or memory runs out. */
double ti_stats_mad(const double *x, size_t n);

/* Fill S with count, min, max, mean, median, scaled MAD and standard
 * deviation of X; returns 0, -EINVAL when N is 0, or -ENOMEM. */
int ti_stats_summarize(const double *x, size_t n, struct ti_stats_summary *s);

/* Standard normal quantile: the z with Phi(z) = P, 0 < P < 1. */
double ti_stats_normal_quantile(double p);

/* Student's t distribution with DF degrees of freedom: P(T <= t), and the
 * t with P(T <= t) = P. */
double ti_stats_t_cdf(double t, double df);
double ti_stats_t_quantile(double p, double df);

/* The digamma and trigamma functions (the first and second derivatives
 * of ln Gamma) at X > 0, NAN elsewhere; ti_stats_trigamma_inverse the
 * X > 0 whose trigamma is Y > 0. */
double ti_stats_digamma(double x);
double ti_stats_trigamma(double x);
double ti_stats_trigamma_inverse(double y);

/* The prior of N sample variances S2 on DF degrees of freedom each, as
 * scaled chi-square draws around a common S0SQ with D0 degrees of
 * freedom (Smyth 2004, the method of moments on ln S2: limma's fitFDist);
 * D0 INFINITY when the variances spread no more than their own degrees
 * of freedom make them.  0, -EINVAL (fewer than 2, a DF not above 0), or
 * -ENOMEM. */
int ti_stats_prior_variance(const double *s2, const double *df, size_t n, double *s0sq,
			    double *d0);

/* A cache of the untied Mann-Whitney distributions (by sample sizes) for
 * a caller that tests many benchmarks of the same sizes; zero it before
 * use, free it with ti_stats_cache_free.  Not for use by two threads. */
#define TI_STATS_CACHE_SLOTS 8
struct ti_stats_cache {
	struct {
		size_t m, n;
		double *counts;
	} slot[TI_STATS_CACHE_SLOTS];
	unsigned next;
};
void ti_stats_cache_free(struct ti_stats_cache *cache);

struct ti_stats_mw {
	double u;		/* Mann-Whitney: pairs (x_i, y_j) with x_i > y_j, ties
				 * counting 1/2; signed rank: the sum of the ranks of
				 * the positive differences */
	double z;		/* normal deviate of U (0 when exact) */
	double p;		/* two-sided p-value */
	bool exact;		/* p from the exact permutation distribution */
};

/* Two-sided Mann-Whitney U (Wilcoxon rank-sum) test of X against Y: exact
 * (conditional on ties) when M + N <= TI_STATS_EXACT_MAX, otherwise the
 * normal approximation with tie and continuity corrections.  Needs M and N
 * >= 1; returns 0, -EINVAL or -ENOMEM. */
int ti_stats_mann_whitney(const double *x, size_t m, const double *y, size_t n,
			  struct ti_stats_mw *r);
/* The same, the untied distributions from CACHE (NULL: none). */
int ti_stats_mann_whitney_cached(const double *x, size_t m, const double *y, size_t n,
				 struct ti_stats_cache *cache, struct ti_stats_mw *r);

/* Two-sided Wilcoxon signed-rank test of the N paired differences D
 * against a centre of 0, zeros ranked and then left out (Pratt 1959):
 * exact (conditional on ties and zeros) when N <= TI_STATS_SR_EXACT_MAX,
 * otherwise the normal approximation with the moments of the ranks
 * present and a continuity correction.  Returns 0, -EINVAL or -ENOMEM. */
int ti_stats_signed_rank(const double *d, size_t n, struct ti_stats_mw *r);

/* The smallest two-sided p-value the exact tests can give: complete
 * separation of M and N samples, 2 / C(M+N, M); N positive differences,
 * 2^(1-N).  0 where the normal approximation takes over. */
double ti_stats_min_p_mann_whitney(size_t m, size_t n);
double ti_stats_min_p_signed_rank(size_t n);

struct ti_stats_hl {
	double shift;		/* median of all y_j - x_i */
	double lo, hi;		/* confidence interval; -inf/+inf when n is too small */
	double level;		/* its exact coverage (>= 1 - alpha); normal approx: nominal */
};

/* Hodges-Lehmann estimate of the shift of Y relative to X with Moses'
 * distribution-free confidence interval at level 1 - ALPHA (pass logarithms
 * to get the shift of log-ratios), in O((m+n) log(m+n)) time and O(m+n)
 * memory.  Returns 0, -EINVAL or -ENOMEM. */
int ti_stats_hodges_lehmann(const double *x, size_t m, const double *y, size_t n,
			    double alpha, struct ti_stats_hl *r);
int ti_stats_hodges_lehmann_cached(const double *x, size_t m, const double *y, size_t n,
				   double alpha, struct ti_stats_cache *cache, struct ti_stats_hl *r);

/* The one-sample Hodges-Lehmann estimate of the centre of the N values
 * D (the median of the Walsh averages (d_i + d_j) / 2, i <= j) with
 * Tukey's distribution-free interval at level 1 - ALPHA, the one the
 * signed-rank test gives; same costs.  Returns 0, -EINVAL or -ENOMEM. */
int ti_stats_walsh(const double *d, size_t n, double alpha, struct ti_stats_hl *r);

/* The alternatives to the signed-rank test for paired differences D,
 * which bench/ab-sim compares: the sign test (exact binomial p, the
 * median of D with its order-statistic interval) and Student's paired t
 * (the mean of D with its t interval).  R->u is the number of positive
 * differences or the t statistic.  Return 0, -EINVAL or -ENOMEM. */
int ti_stats_sign_test(const double *d, size_t n, double alpha, struct ti_stats_mw *r,
		       struct ti_stats_hl *h);
int ti_stats_paired_t(const double *d, size_t n, double alpha, struct ti_stats_mw *r,
		      struct ti_stats_hl *h);
/* Yuen's trimmed-mean t for one sample (Tukey & McLaughlin 1963): the
 * mean of D without the TRIM fraction at each end, its winsorised
 * standard error and a t interval. */
int ti_stats_trimmed_t(const double *d, size_t n, double trim, double alpha, struct ti_stats_mw *r,
		       struct ti_stats_hl *h);

/* The t family with a floor, the tests the verdicts use where the rank
 * tests' p-values cannot go low enough or are not valid (unequal
 * spreads): on one sample D, the mean of D without the TRIM fraction at
 * each end (0: Student's t; 0.2: Yuen's 20 % trimmed t) with its
 * winsorised standard error; on two samples X and Y, the shift of the
 * trimmed mean of Y from that of X (0: Welch's t; above 0: Yuen's
 * two-sample trimmed t) on Welch-Satterthwaite degrees of freedom, or
 * with MIN_DF on the smaller side's kept values less one, which holds
 * alpha whatever the ratio of the spreads (Hsu 1938).  Each
 * sample's (winsorised) sd is taken as at least FLOOR_SD, the resolution
 * of the values, so that samples that all look the same do not give
 * t = inf.  R->u and r->z are t; H gets the estimate and its t interval
 * at level 1 - ALPHA.  Fewer than 2 values kept on a side: p NAN, the
 * interval infinite.  Return 0, -EINVAL or -ENOMEM. */
int ti_stats_t1(const double *d, size_t n, double trim, double floor_sd, double alpha,
		struct ti_stats_mw *r, struct ti_stats_hl *h);
int ti_stats_t2(const double *x, size_t m, const double *y, size_t n, double trim, bool min_df,
		double floor_sd, double alpha, struct ti_stats_mw *r, struct ti_stats_hl *h);

/* Brunner & Munzel's test (2000) of P(X < Y) + P(X = Y) / 2 = 1/2, valid
 * under unequal spreads where Mann-Whitney is not: R->u that estimate,
 * R->z the statistic, R->p the two-sided p on Satterthwaite's degrees of
 * freedom (complete separation: the permutation p 2 / C(M+N, M)); p NAN
 * with fewer than 2 values a side.  Returns 0, -EINVAL or -ENOMEM. */
int ti_stats_brunner_munzel(const double *x, size_t m, const double *y, size_t n,
			    struct ti_stats_mw *r);

/* Spearman's rank correlation of the N pairs (X_i, Y_i), midranks for
 * ties; NAN when N < 2, when either side is constant, or when memory runs
 * out. */
double ti_stats_spearman(const double *x, const double *y, size_t n);

/* The order statistic K (1-based) that bounds the interval at level
 * 1 - ALPHA: Moses' for M and N samples (the K-th smallest and largest of
 * the m*n differences), Tukey's for N differences (of the n(n+1)/2 Walsh
 * averages).  K = 0: no finite interval reaches that level.  *LEVEL gets
 * the exact coverage (the nominal one where the normal approximation is
 * used).  Returns 0 or -ENOMEM. */
int ti_stats_moses_k(size_t m, size_t n, double alpha, size_t *k, double *level);
int ti_stats_moses_k_cached(size_t m, size_t n, double alpha, struct ti_stats_cache *cache,
			    size_t *k, double *level);
int ti_stats_walsh_k(size_t n, double alpha, size_t *k, double *level);

enum ti_stats_adjust {
	TI_STATS_ADJUST_NONE,
	TI_STATS_ADJUST_HOLM,	/* family-wise error rate, Holm 1979 */
	TI_STATS_ADJUST_BH,	/* false discovery rate, Benjamini & Hochberg 1995 */
};

/* Adjust the N p-values P for multiple comparisons into OUT (may equal P);
 * NaN entries (no test) stay NaN and do not count.  Returns 0 or -ENOMEM. */
int ti_stats_adjust(const double *p, size_t n, enum ti_stats_adjust how, double *out);

/* A small seeded PRNG (xoshiro256**, seeded through splitmix64; Blackman &
 * Vigna 2018) so that bootstraps and simulations reproduce everywhere. */
struct ti_stats_rng {
	uint64_t s[4];
};

/* Seed R deterministically from SEED. */
void ti_stats_rng_seed(struct ti_stats_rng *r, uint64_t seed);
/* The next 64 random bits. */
uint64_t ti_stats_rng_next(struct ti_stats_rng *r);
/* Uniform in [0, 1) with 53 random bits. */
double ti_stats_rng_uniform(struct ti_stats_rng *r);
/* Standard normal deviate (Box-Muller). */
double ti_stats_rng_normal(struct ti_stats_rng *r);

/* Percentile bootstrap confidence interval at level LEVEL for the mean of
 * X, from REPS resamples drawn with a PRNG seeded by SEED; N >= 1.
 * Returns 0, -EINVAL or -ENOMEM. */
int ti_stats_bootstrap_mean(const double *x, size_t n, unsigned reps, double level,
			    uint64_t seed, double *lo, double *hi);

#endif
