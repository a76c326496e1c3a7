/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* stats-rank.c: rank tests with their exact permutation distributions,
 * conditional on ties (ti_stats_mann_whitney, ti_stats_signed_rank), and
 * the order-statistic indices of the distribution-free intervals they
 * give (Moses' K for two samples, Tukey's for one); the sign test and
 * Spearman's rank correlation. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

struct tagged {
	double v;
	size_t who;		/* two samples: 0 x, 1 y; one sample: the index */
};

static int cmp_tagged(const void *a, const void *b)
{
	return cmp_double(&((const struct tagged *)a)->v, &((const struct tagged *)b)->v);
}

/* Doubled midranks of the sorted T[0..N): positions i..j-1 (0-based) that
 * hold one value share the rank ((i + 1) + j) / 2, doubled so it stays an
 * integer.  Adds sum(t^3 - t) over tie groups to *TIES when not NULL. */
static void midranks(const struct tagged *t, size_t n, unsigned *r2, double *ties)
{
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && t[j].v == t[i].v; j++)
			;
		if (ties) {
			double tl = (double)(j - i);
			*ties += tl * tl * tl - tl;
		}
		for (size_t k = i; k < j; k++)
			r2[k] = (unsigned)(i + 1 + j);
	}
}

/* Counts of the size-M subsets of N items with doubled ranks R2 (in
 * ascending order) by their doubled rank sum: out[s] for s = 0 .. N(N+1).
 * This is the permutation distribution of the rank sum conditional on the
 * tie pattern; without ties it is the classical Mann-Whitney
 * distribution.  Dynamic programming over items: ways[k][s] = subsets of
 * size k among the items seen so far.  Only the reachable states are
 * visited: k no larger than the items seen nor smaller than what the
 * items left can still complete to M, and s between the sums of the k
 * smallest and the k largest ranks seen (prefix sums of the sorted
 * ranks), which makes 100 samples in all cheap enough for a suite. */
static double *rank_sum_counts(const unsigned *r2, size_t n, size_t m, size_t *smax)
{
	size_t stop = n * (n + 1), w = stop + 1;
	double *ways = calloc((m + 1) * w, sizeof *ways);
	size_t *pre = malloc((n + 1) * sizeof *pre);
	double *out = NULL;

	if (!ways || !pre)
		goto out;
	pre[0] = 0;
	for (size_t i = 0; i < n; i++)
		pre[i + 1] = pre[i] + r2[i];
	ways[0] = 1;
	for (size_t i = 0; i < n; i++) {
		size_t seen = i + 1, kmax = seen < m ? seen : m;
		size_t kmin = m > n - seen ? m - (n - seen) : 1;
		if (kmin < 1)
			kmin = 1;
		for (size_t k = kmax; k >= kmin; k--) {
			size_t lo = pre[k], hi = pre[seen] - pre[seen - k];
			if (lo < r2[i])
				lo = r2[i];
			for (size_t s = hi; s >= lo; s--)
				ways[k * w + s] += ways[(k - 1) * w + s - r2[i]];
			if (k == 1)
				break;
		}
	}
	out = malloc(w * sizeof *out);
	if (out)
		memcpy(out, ways + m * w, w * sizeof *out);
out:
	free(ways);
	free(pre);
	*smax = stop;
	return out;
}

/* The untied distribution of M and N samples (doubled ranks 2, 4, ...,
 * their rank sums), from CACHE when it has it; CACHE owns the result when
 * not NULL, the caller otherwise. */
static double *untied_counts(size_t m, size_t n, struct ti_stats_cache *cache, size_t *smax)
{
	size_t total = m + n;
	unsigned *r2;
	double *c;

	for (size_t i = 0; cache && i < TI_STATS_CACHE_SLOTS; i++) {
		if (cache->slot[i].counts && cache->slot[i].m == m && cache->slot[i].n == n) {
			*smax = total * (total + 1);
			return cache->slot[i].counts;
		}
	}
	if (!(r2 = malloc((total ? total : 1) * sizeof *r2)))
		return NULL;
	for (size_t i = 0; i < total; i++)
		r2[i] = (unsigned)(2 * (i + 1));
	c = rank_sum_counts(r2, total, m, smax);
	free(r2);
	if (c && cache) {
		unsigned k = cache->next++ % TI_STATS_CACHE_SLOTS;
		free(cache->slot[k].counts);
		cache->slot[k].m = m;
		cache->slot[k].n = n;
		cache->slot[k].counts = c;
	}
	return c;
}

void ti_stats_cache_free(struct ti_stats_cache *cache)
{
	for (size_t i = 0; i < TI_STATS_CACHE_SLOTS; i++)
		free(cache->slot[i].counts);
	memset(cache, 0, sizeof *cache);
}

int ti_stats_mann_whitney(const double *x, size_t m, const double *y, size_t n,
			  struct ti_stats_mw *r)
{
	return ti_stats_mann_whitney_cached(x, m, y, n, NULL, r);
}

int ti_stats_mann_whitney_cached(const double *x, size_t m, const double *y, size_t n,
				 struct ti_stats_cache *cache, struct ti_stats_mw *r)
{
	size_t total = m + n, i;
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
	midranks(t, total, r2, &tie_term);
	for (i = 0; i < total; i++)
		if (t[i].who == 0)
			w2 += r2[i];
	r->u = w2 / 2 - (double)m * (double)(m + 1) / 2;

	if (total <= TI_STATS_EXACT_MAX) {
		size_t smax;
		bool untied = tie_term == 0;
		double *c = untied ? untied_counts(m, n, cache, &smax) : rank_sum_counts(r2, total, m, &smax);
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
		if (!(untied && cache))
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

/* The null distribution of a doubled signed-rank sum: each of the N items
 * with doubled rank R2[i] counts with probability 1/2.  prob[s] for s = 0
 * .. sum(R2); probabilities rather than counts, so that 2^N cannot
 * overflow. */
static double *signed_rank_probs(const unsigned *r2, size_t n, size_t *smax)
{
	size_t total = 0, top = 0;
	double *p;

	for (size_t i = 0; i < n; i++)
		total += r2[i];
	if (!(p = calloc(total + 1, sizeof *p)))
		return NULL;
	p[0] = 1;
	for (size_t i = 0; i < n; i++) {
		size_t r = r2[i];
		top += r;
		for (size_t s = top; s >= r; s--)
			p[s] = 0.5 * (p[s] + p[s - r]);
		for (size_t s = 0; s < r; s++)
			p[s] *= 0.5;
	}
	*smax = total;
	return p;
}

int ti_stats_signed_rank(const double *d, size_t n, struct ti_stats_mw *r)
{
	struct tagged *t;
	unsigned *r2;
	double t2 = 0, tie_term = 0;
	size_t nz = 0;

	if (n == 0)
		return -EINVAL;
	t = malloc(n * sizeof *t);
	r2 = malloc(n * sizeof *r2);
	if (!t || !r2) {
		free(t);
		free(r2);
		return -ENOMEM;
	}
	/* Pratt's treatment of zeros: they take part in the ranking of |d|,
	 * then count for neither sign (Pratt 1959); with no zeros this is
	 * Wilcoxon's test. */
	for (size_t i = 0; i < n; i++)
		t[i] = (struct tagged){ fabs(d[i]), i };
	qsort(t, n, sizeof *t, cmp_tagged);
	midranks(t, n, r2, &tie_term);
	/* Keep the nonzero items' ranks at the front of r2. */
	for (size_t i = 0; i < n; i++) {
		if (t[i].v == 0)
			continue;
		if (d[t[i].who] > 0)
			t2 += r2[i];
		r2[nz++] = r2[i];
	}
	r->u = t2 / 2;
	if (nz == 0) {
		r->p = 1;
		r->z = 0;
		r->exact = true;
	} else if (n <= TI_STATS_SR_EXACT_MAX) {
		size_t smax;
		double *p = signed_rank_probs(r2, nz, &smax), le = 0, ge = 0;

		if (!p) {
			free(t);
			free(r2);
			return -ENOMEM;
		}
		for (size_t s = 0; s <= smax; s++) {
			if ((double)s <= t2)
				le += p[s];
			if ((double)s >= t2)
				ge += p[s];
		}
		free(p);
		r->p = fmin(1.0, 2 * fmin(le, ge));
		r->z = 0;
		r->exact = true;
	} else {
		/* Normal approximation with the permutation moments of the
		 * ranks actually present: E = sum(r) / 2, Var = sum(r^2) / 4. */
		double mu = 0, var = 0;
		for (size_t i = 0; i < nz; i++) {
			mu += r2[i] / 2.0;
			var += (r2[i] / 2.0) * (r2[i] / 2.0);
		}
		mu /= 2;
		var /= 4;
		double dd = fabs(r->u - mu) - 0.5;
		if (dd < 0)
			dd = 0;
		r->z = var > 0 ? (r->u - mu) / sqrt(var) : 0;
		r->p = var > 0 ? fmin(1.0, erfc(dd / sqrt(var) / M_SQRT2)) : 1.0;
		r->exact = false;
	}
	free(t);
	free(r2);
	return 0;
}

int ti_stats_moses_k(size_t m, size_t n, double alpha, size_t *k, double *level)
{
	return ti_stats_moses_k_cached(m, n, alpha, NULL, k, level);
}

int ti_stats_moses_k_cached(size_t m, size_t n, double alpha, struct ti_stats_cache *cache,
			    size_t *k, double *level)
{
	size_t total = m + n;

	if (total <= TI_STATS_EXACT_MAX) {
		size_t smax, base = m * (m + 1);	/* doubled minimum rank sum */
		double *c = untied_counts(m, n, cache, &smax), all = 0, cum = 0;

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
		if (!cache)
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

int ti_stats_walsh_k(size_t n, double alpha, size_t *k, double *level)
{
	if (n <= TI_STATS_SR_EXACT_MAX) {
		unsigned *r2 = malloc((n ? n : 1) * sizeof *r2);
		size_t smax;
		double *p, cum = 0;

		if (!r2)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++)
			r2[i] = (unsigned)(2 * (i + 1));
		p = n ? signed_rank_probs(r2, n, &smax) : NULL;
		free(r2);
		if (n && !p)
			return -ENOMEM;
		*k = 0;
		*level = 1;
		/* T+ = s / 2 takes the values 0 .. n(n+1)/2. */
		for (size_t t = 0; n && t <= n * (n + 1) / 2; t++) {
			cum += p[2 * t];
			if (cum > alpha / 2)
				break;
			*k = t + 1;
			*level = 1 - 2 * cum;
		}
		free(p);
		return 0;
	}
	double nn = (double)n, w = nn * (nn + 1) / 2;
	double z = ti_stats_normal_quantile(1 - alpha / 2);
	double kk = floor(w / 2 - z * sqrt(nn * (nn + 1) * (2 * nn + 1) / 24));
	*k = kk < 1 ? 0 : (size_t)kk;
	*level = 1 - alpha;
	return 0;
}

double ti_stats_min_p_mann_whitney(size_t m, size_t n)
{
	if (m + n > TI_STATS_EXACT_MAX)
		return 0;
	return fmin(1, 2 * exp(lgamma((double)m + 1) + lgamma((double)n + 1) -
			       lgamma((double)(m + n) + 1)));
}

double ti_stats_min_p_signed_rank(size_t n)
{
	if (n > TI_STATS_SR_EXACT_MAX)
		return 0;
	return fmin(1, ldexp(1, 1 - (int)n));
}

/* log C(n, k). */
static double log_choose(size_t n, size_t k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

int ti_stats_sign_test(const double *d, size_t n, double alpha, struct ti_stats_mw *r,
		       struct ti_stats_hl *h)
{
	double *s, le = 0, ge = 0, cum = 0;
	size_t pos = 0, nz = 0, j = 0;

	if (n == 0 || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		pos += d[i] > 0;
		nz += d[i] != 0;
	}
	/* Binomial(nz, 1/2) tails at the number of positive differences. */
	for (size_t k = 0; k <= nz; k++) {
		double pk = exp(log_choose(nz, k) - (double)nz * M_LN2);
		if (k <= pos)
			le += pk;
		if (k >= pos)
			ge += pk;
	}
	r->u = (double)pos;
	r->z = 0;
	r->p = nz ? fmin(1, 2 * fmin(le, ge)) : 1;
	r->exact = true;
	if (!(s = malloc(n * sizeof *s)))
		return -ENOMEM;
	memcpy(s, d, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	h->shift = ti_stats_quantile_sorted(s, n, 0.5);
	/* The interval d_(j) .. d_(n+1-j) covers the median with probability
	 * 1 - 2 P(X < j), X ~ Binomial(n, 1/2). */
	h->level = 1;
	for (size_t k = 0; k < n; k++) {
		cum += exp(log_choose(n, k) - (double)n * M_LN2);
		if (cum > alpha / 2)
			break;
		j = k + 1;
		h->level = 1 - 2 * cum;
	}
	if (j == 0 || j > n - j + 1) {
		h->lo = -INFINITY;
		h->hi = INFINITY;
		h->level = 1;
	} else {
		h->lo = s[j - 1];
		h->hi = s[n - j];
	}
	free(s);
	return 0;
}

double ti_stats_spearman(const double *x, const double *y, size_t n)
{
	struct tagged *t = malloc((n ? n : 1) * sizeof *t);
	unsigned *rx = malloc((n ? n : 1) * sizeof *rx), *ry = malloc((n ? n : 1) * sizeof *ry);
	unsigned *tmp = malloc((n ? n : 1) * sizeof *tmp);
	double mx = 0, sxy = 0, sxx = 0, syy = 0, rho = NAN;

	if (!t || !rx || !ry || !tmp || n < 2)
		goto out;
	for (int side = 0; side < 2; side++) {
		unsigned *r = side ? ry : rx;
		for (size_t i = 0; i < n; i++)
			t[i] = (struct tagged){ side ? y[i] : x[i], i };
		qsort(t, n, sizeof *t, cmp_tagged);
		midranks(t, n, tmp, NULL);
		for (size_t i = 0; i < n; i++)
			r[t[i].who] = tmp[i];
	}
	/* Pearson's correlation of the (doubled) midranks. */
	mx = (double)(n + 1);	/* the mean doubled rank, either side */
	for (size_t i = 0; i < n; i++) {
		double a = rx[i] - mx, b = ry[i] - mx;
		sxy += a * b;
		sxx += a * a;
		syy += b * b;
	}
	rho = sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
out:
	free(t);
	free(rx);
	free(ry);
	free(tmp);
	return rho;
}
