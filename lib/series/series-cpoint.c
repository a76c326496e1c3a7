/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* series-cpoint.c: the change-point rule of a series (series.h), the one
 * bench/series-sim chose: binary segmentation with the difference of
 * means over its error (pooled, or the sides' own, or from the nights'
 * local noise scales where the noise changed), Bonferroni over the
 * splits of a segment, the bump, the gate, and disturbed nights left
 * out. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "stats.h"

/* A night is a change's own evidence: a side needs this many. */
#define MIN_SIDE 2

/* A bump is tested at this fraction of alpha: on noise that grows in
 * mid-history a stretch of the noisy half can pass for one
 * (bench/series-sim ... shapes, model "shape"). */
/* The longest bump tried: longer ones are a good part of their segment,
 * where single splits find them, and the stretches tried grow as the
 * square of the history (1000 nights of 500 benchmarks: 13 times the
 * time without the cap). */
#define MAX_BUMP 32

/* A night's local noise scale is that of the nights within this many on
 * either side; where they differ NOISE_RATIO-fold or more in a segment,
 * a split's error is also taken from them (stretch_p). */
#define NOISE_WINDOW 8
#define NOISE_RATIO 3
/* Each side's own spread is an error of the split from this many nights
 * a side: from fewer it is too unsure, and a step 2 nights old would wait
 * for its third (tests/series-confirm.sh). */
#define WELCH_MIN 10

#ifndef BUMP_ALPHA
#define BUMP_ALPHA 0.01
#endif

/* ti_series_noise with D for the N - 1 differences. */
static double noise_in(const double *x, size_t n, double *d)
{
	double med, mean = 0;

	if (n < 2)
		return 0;
	for (size_t i = 1; i < n; i++) {
		d[i - 1] = fabs(x[i] - x[i - 1]);
		mean += d[i - 1];
	}
	if (n - 1 <= 2 * NOISE_WINDOW) {
		/* A night's window, once a night of each benchmark: an
		 * insertion sort, not qsort's calls (series-scale.sh). */
		for (size_t i = 1; i < n - 1; i++) {
			double v = d[i];
			size_t j = i;
			for (; j > 0 && d[j - 1] > v; j--)
				d[j] = d[j - 1];
			d[j] = v;
		}
	} else {
		ti_stats_sort(d, n - 1);
	}
	med = ti_stats_quantile_sorted(d, n - 1, 0.5);
	/* The difference of two values has sqrt(2) times their spread.
	 * Values rounded to a few digits can make most neighbours equal: then
	 * the mean difference (E|d| = 2 sigma / sqrt(pi) for normal d). */
	if (med > 0)
		return TI_STATS_MAD_SCALE * med / M_SQRT2;
	return mean / (double)(n - 1) * sqrt(M_PI) / 2 / M_SQRT2;
}

double ti_series_noise(const double *x, size_t n)
{
	double *d, sigma;

	if (n < 2)
		return 0;
	if (!(d = malloc((n - 1) * sizeof *d)))
		return NAN;
	sigma = noise_in(x, n, d);
	free(d);
	return sigma;
}

static double median_of(const double *x, size_t n, double *tmp)
{
	memcpy(tmp, x, n * sizeof *tmp);
	ti_stats_sort(tmp, n);
	return ti_stats_quantile_sorted(tmp, n, 0.5);
}

int ti_series_split(const double *x, size_t n, size_t k, double *d, double *se)
{
	double mb = 0, ma = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		*(i < k ? &mb : &ma) += x[i];
	mb /= (double)k;
	ma /= (double)(n - k);
	*d = ma - mb;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - (i < k ? mb : ma)) * (x[i] - (i < k ? mb : ma));
	*se = n > 2 ? sqrt(ss / (double)(n - 2)) * sqrt(1 / (double)k + 1 / (double)(n - k))
		    : INFINITY;
	return 0;
}

int ti_series_clip(const double *x, size_t n, double *y)
{
	double sigma = ti_series_noise(x, n), w[5];

	if (isnan(sigma))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t lo = i >= 2 ? i - 2 : 0, hi = i + 3 < n ? i + 3 : n;
		double m = median_of(x + lo, hi - lo, w);
		y[i] = fmax(m - 3 * sigma, fmin(m + 3 * sigma, x[i]));
	}
	return 0;
}

int ti_series_disturbed(const double *x, size_t n, const struct ti_series_config *c, bool *keep,
			bool *pending)
{
	double sigma = ti_series_noise(x, n), tmp[5];
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
		} else if ((i == 0 || off_before) && off_after &&
			   !(i > 0 && fabs(x[i] - x[i - 1]) <= thr && fabs(x[i] - x[i + 1]) <= thr)) {
			/* Not the middle of three nights at one level: that is
			 * a short change (a bump reverted), not a bad night. */
			keep[i] = false;
			marked++;
		}
	}
	return marked;
}

int ti_series_suspect(const double *x, size_t m, double last, const struct ti_series_config *c,
		      double *change, double *p)
{
	double mean = 0, ss = 0;

	*change = NAN;
	*p = 1;
	if (m < 3 || !(c->last_alpha > 0))
		return 0;
	for (size_t i = 0; i < m; i++)
		mean += x[i] / (double)m;
	for (size_t i = 0; i < m; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	double se = sqrt(ss / (double)(m - 1)) * sqrt(1 + 1 / (double)m);
	double d = last - mean, t = se > 0 ? fabs(d) / se : d != 0 ? INFINITY : 0;
	*change = expm1(d);
	*p = isinf(t) ? 0 : fmin(1, 2 * ti_stats_t_cdf(-t, (double)(m - 1)));
	return *p <= c->last_alpha && fabs(d) >= log1p(c->min_change / 100);
}

struct bs {
	const struct ti_series_config *c;
	const uint64_t *id;	/* the values' binary identities, 0 unknown; NULL: none */
	double *sum;		/* prefix sums of the values of the segment */
	double *sig;		/* each value's local noise scale (NOISE_WINDOW) */
	size_t *cp;
	double *p;
	size_t n, max;
};

/* How far apart the sides of the split at K of the segment of LEN are,
 * over the error of a difference of their means at one spread: the
 * statistic that places the split. */
static double tstat(const struct bs *w, size_t k, size_t len)
{
	double d = (w->sum[len] - w->sum[k]) / (double)(len - k) - w->sum[k] / (double)k;
	return fabs(d) / sqrt(1 / (double)k + 1 / (double)(len - k));
}

static void segment(struct bs *w, const double *x, size_t s, size_t e);

/* The p-value of the stretch X[a..b) of X[0..len) against the rest (a
 * split at K is the stretch [K, len)), Student's t on n - 2 degrees of
 * freedom, its error the largest of three: the spread around the two
 * means (pooled), each side's own (Welch's), and, where the local noise
 * scales SIG of the nights differ NOISE_RATIO-fold or more, the error of
 * the two means from those.  On noise that grows in mid-history
 * (bench/series-sim, model "shape": CV 1 % then 4 %) a stretch of the
 * noisy part against a rest that is mostly quiet passed for a change at
 * the pooled spread; the side's own spread, from a few nights clipped to
 * their neighbourhood, is too small as often, the local scale from 16
 * nights is not. */
static double stretch_p(const double *x, const double *sig, size_t len, size_t a, size_t b)
{
	double n1 = (double)(b - a), n2 = (double)len - n1, m1 = 0, m2 = 0, s1 = 0, s2 = 0;
	double v1 = 0, v2 = 0, smax = 0, smin = INFINITY;

	for (size_t i = 0; i < len; i++) {
		bool in = i >= a && i < b;
		*(in ? &m1 : &m2) += x[i];
		*(in ? &v1 : &v2) += sig[i] * sig[i];
		smax = fmax(smax, sig[i]);
		smin = fmin(smin, sig[i]);
	}
	m1 /= n1;
	m2 /= n2;
	for (size_t i = 0; i < len; i++) {
		double r = x[i] - (i >= a && i < b ? m1 : m2);
		*(i >= a && i < b ? &s1 : &s2) += r * r;
	}
	double d = fabs(m1 - m2), df = (double)len - 2;
	double se = sqrt((s1 + s2) / df) * sqrt(1 / n1 + 1 / n2);
	if (n1 >= WELCH_MIN && n2 >= WELCH_MIN)
		se = fmax(se, sqrt(s1 / (n1 - 1) / n1 + s2 / (n2 - 1) / n2));
	if (smax >= NOISE_RATIO * smin)
		se = fmax(se, sqrt(v1 / (n1 * n1) + v2 / (n2 * n2)));
	double t = se > 0 ? d / se : d != 0 ? INFINITY : 0;
	return isinf(t) ? 0 : 2 * ti_stats_t_cdf(-t, df);
}

/* The best bump of X[s..e) (W->sum its prefix sums): the stretch [a, b),
 * with MIN_SIDE to MAX_BUMP nights inside and MIN_SIDE or more on either
 * side, whose mean
 * differs most from that of the rest for their sizes.  A change that is
 * reverted inflates the spread on both sides of any one split, so that
 * no single split stands; it is tested as one, Student's t on the spread
 * around the two means, Bonferroni over the stretches.  When it stands,
 * both its ends are points and the three pieces are searched again. */
static void bump(struct bs *w, const double *x, size_t s, size_t e)
{
	size_t len = e - s, a = 0, b = 0, tried = 0;
	double tbest = -1;

	if (len < 3 * MIN_SIDE || w->n + 2 > w->max)
		return;
	for (size_t i = MIN_SIDE; i + 2 * MIN_SIDE <= len; i++) {
		for (size_t j = i + MIN_SIDE; j + MIN_SIDE <= len && j - i <= MAX_BUMP; j++) {
			double m = (double)(j - i), in = w->sum[j] - w->sum[i];
			double d = in / m - (w->sum[len] - in) / ((double)len - m);
			double t = fabs(d) / sqrt(1 / m + 1 / ((double)len - m));
			tried++;
			if (t > tbest) {
				tbest = t;
				a = i;
				b = j;
			}
		}
	}
	double p = fmin(1, stretch_p(x + s, w->sig + s, len, a, b) * (double)tried);
	if (!(p <= w->c->alpha * BUMP_ALPHA))
		return;
	w->cp[w->n] = s + a;
	w->p[w->n++] = p;
	w->cp[w->n] = s + b;
	w->p[w->n++] = p;
	segment(w, x, s, s + a);
	segment(w, x, s + a, s + b);
	segment(w, x, s + b, e);
}

/* The best split of X[s..e), recursively. */
static void segment(struct bs *w, const double *x, size_t s, size_t e)
{
	size_t len = e - s, best = 0, splits;
	double p = INFINITY;

	if (len < 2 * MIN_SIDE || w->n == w->max)
		return;
	w->sum[0] = 0;
	for (size_t i = 0; i < len; i++)
		w->sum[i + 1] = w->sum[i] + x[s + i];
	/* Where the binary changed, the code may have: the best of those
	 * splits is tested first, Bonferroni over them alone (where the
	 * identity changed does not depend on the times), then the best of
	 * all over all; with both, each at alpha / 2 (its p doubled). */
	size_t ids = 0;
	for (size_t k = MIN_SIDE; w->id && k + MIN_SIDE <= len; k++)
		ids += w->id[s + k] && w->id[s + k - 1] && w->id[s + k] != w->id[s + k - 1];
	for (int pass = ids ? 0 : 1; pass < 2 && !(p <= w->c->alpha); pass++) {
		double tbest = -1;
		splits = pass == 0 ? ids : len - 2 * MIN_SIDE + 1;
		for (size_t k = MIN_SIDE; k + MIN_SIDE <= len; k++) {
			if (pass == 0 && (!w->id[s + k] || !w->id[s + k - 1] ||
					  w->id[s + k] == w->id[s + k - 1]))
				continue;
			double t = tstat(w, k, len);
			if (t > tbest) {
				tbest = t;
				best = k;
			}
		}
		/* Its test (stretch_p), Bonferroni over the splits the
		 * location was chosen from. */
		p = fmin(1, stretch_p(x + s, w->sig + s, len, best, len) * (double)splits *
				    (ids ? 2 : 1));
	}
	if (!(p <= w->c->alpha)) {
		bump(w, x, s, e);
		return;
	}
	w->cp[w->n] = s + best;
	w->p[w->n++] = p;
	segment(w, x, s, s + best);
	segment(w, x, s + best, e);
}

/* Merge away, smallest first, the points whose sides (up to their
 * neighbours) differ by less than the gate. */
static int gate(const double *x, size_t n, double gate_log, size_t *cp, double *p, size_t k)
{
	while (k > 0) {
		size_t worst = 0;
		double small = INFINITY;
		for (size_t j = 0; j < k; j++) {
			size_t lo = j ? cp[j - 1] : 0, hi = j + 1 < k ? cp[j + 1] : n;
			double d, se;
			ti_series_split(x + lo, hi - lo, cp[j] - lo, &d, &se);
			d = fabs(d);
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
	return (int)k;
}

int ti_series_cpoints(const double *x, const uint64_t *id, size_t n,
		      const struct ti_series_config *c, size_t *cp, double *p, size_t max)
{
	struct bs w = { .c = c, .id = id, .cp = cp, .p = p, .max = max };
	double *y = malloc((n ? n : 1) * sizeof *y);
	int rc;

	w.sum = malloc((n + 1) * sizeof *w.sum);
	w.sig = malloc((n ? n : 1) * sizeof *w.sig);
	if (!y || !w.sum || !w.sig || (n && ti_series_clip(x, n, y) < 0)) {
		rc = -ENOMEM;
		goto out;
	}
	if (n < 2 * MIN_SIDE || max == 0) {
		rc = 0;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		size_t lo = i >= NOISE_WINDOW ? i - NOISE_WINDOW : 0;
		size_t hi = i + NOISE_WINDOW + 1 < n ? i + NOISE_WINDOW + 1 : n;
		double d[2 * NOISE_WINDOW];
		w.sig[i] = noise_in(y + lo, hi - lo, d);
	}
	segment(&w, y, 0, n);
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
	rc = gate(y, n, log1p(c->min_change / 100), cp, p, w.n);
out:
	free(y);
	free(w.sum);
	free(w.sig);
	return rc;
}
