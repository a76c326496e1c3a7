/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* bench/series-sim: the seeded simulation that chose timeit-series' rule
 * (docs/series.md).  Histories of nightly runs -- N nights of K samples,
 * a step of 2, 3, 5 or 10 % up or down (or none) somewhere in the middle,
 * under the noise models of bench/ab-sim plus disturbed nights and
 * missing nights -- go to each candidate rule alike:
 *   ours        lib/series' rule (ti_series_cpoints, with its disturbed
 *               nights left out), as timeit-series runs it;
 *   pettitt     binary segmentation with Pettitt's rank statistic (its
 *               approximate p at 0.01) and the same gate;
 *   edivisive   E-divisive means (Matteson & James 2014, alpha 1) with a
 *               permutation test, 100 permutations at p <= 0.05 (MongoDB's
 *               signal-processing defaults; Otava/Hunter's origin);
 *   otava       Apache Otava's default: E-divisive's candidates in windows
 *               of 50 runs, Student's t at 0.01, then the weak points
 *               merged away to p < 0.001 (rule_otava);
 *   perfherder  Mozilla's t-test of the 12 values before against the 12
 *               after each night (linear weights), alert at t > 7 where t
 *               is a local maximum;
 *   lnt         LNT's consecutive-run rule (analysis.py): the night's min
 *               against the nearest sample of the night before, ignored
 *               under 1 %, Mann-Whitney at 0.05 with 4 samples a side,
 *               then beyond 2.576 standard deviations;
 *   catapult    Chromium's dashboard (catapult find_change_points.py, the
 *               step-fitting version): over the last 50 nights, the one
 *               split whose two sides, each less its median, spread
 *               least, kept when each side has 6 nights or more, the
 *               medians differ by 1 % or more and by 2.5 times the
 *               smaller side's sd, and the shape is a step (steppiness,
 *               1 - the RMS distance of the normalised series from its
 *               step fit, 0.5 or more): at most one point a run.
 * Per model, step and rule: detection (a change point within +-1 night of
 * the step), the mean localisation error of those, the delay (nights after
 * the step until the rule, run each night on the history so far, first
 * reports it within +-1 night; of the first DELAYS histories), and false
 * change points (not within +-1 night of a step) per 1000 benchmark-nights.
 *
 * With "shapes" after SAMPLES, histories of several changes instead: a
 * step reverted after 3, 8 or 20 nights, two steps (run_shapes); with
 * "last", the last night's test: its false alarms and how much sooner it
 * speaks (run_last); with "replay", timeit-series --since 1 night after
 * night: how many nights each regression sets exit 1 (run_replay), the
 * missing nights gaps in the runs; with "place [MODEL]", where each of
 * four placements names a step (run_place); with "ours [MODEL]", the first table
 * for our rule alone (on one model), the quick look when tuning it.
 * Models beyond bench/ab-sim's: a ramp (+3 % over 10 nights, whose change
 * points are its own, neither the step's nor false), a weekly pattern
 * (two nights a week 3 % slower) and noise that doubles halfway.
 *
 * usage: series-sim [HISTORIES [SEED [NIGHTS [SAMPLES [shapes [ours]|last [ALPHA]|replay [MODEL]|place [MODEL]|ours [MODEL]]]]]]
 * (default 200 histories a cell, seed 1, 30 nights of 3 samples). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "stats.h"

struct model {
	const char *name, *what;
	double iid;		/* sd of each sample's own ln-noise */
	double night;		/* sd of a night's shared ln-noise (the machine's state) */
	double drift;		/* a ramp over the history */
	double out_p, out_lo, out_hi;	/* outlier samples: probability, ln-slowdown range */
	double bi_p, bi_shift;	/* bimodal samples: slow mode's probability, shift */
	double bad_p;		/* a disturbed night: every sample 10-1000 % slower */
	double miss_p;		/* a missing night */
	double iid2;		/* from the middle night on, this sd instead of IID (0: IID) */
	double ramp;		/* a gradual change of this (ln) over RAMP_NIGHTS nights */
	double weekly;		/* two nights a week (the weekend) this (ln) slower */
};

/* The ramp: over 10 nights, from the night after two thirds of the
 * history (after the steps, which start in the middle third). */
#define RAMP_NIGHTS 10

static const struct model models[] = {
	{ "cv2", "CV 2 %", 0.02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "cv5", "CV 5 %", 0.05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "night", "CV 2 % + 2 % a night", 0.02, 0.02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "outliers", "CV 2 %, 5 % of samples 30-100 % slower", 0.02, 0, 0, 0.05, 0.262, 0.693, 0, 0,
	  0, 0, 0, 0, 0 },
	{ "bimodal", "CV 1 %, half the samples 4 % slower", 0.01, 0, 0, 0, 0, 0, 0.5, 0.04, 0, 0, 0, 0, 0 },
	{ "drift", "CV 2 %, a 3 % ramp over the history", 0.02, 0, 0.03, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "disturbed", "CV 2 %, 5 % of nights 10-1000 % slower", 0.02, 0, 0, 0, 0, 0, 0, 0, 0.05,
	  0, 0, 0, 0 },
	{ "missing", "CV 2 %, 20 % of nights missing", 0.02, 0, 0, 0, 0, 0, 0, 0, 0, 0.2, 0, 0, 0 },
	{ "vm", "this VM: 2 % + 3 % a night + 2 % outliers + 2 % bad nights", 0.02, 0.03, 0, 0.02,
	  0.1, 0.4, 0, 0, 0.02, 0.05, 0, 0, 0 },
	{ "shape", "CV 1 %, then 4 % from the middle night", 0.01, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	  0.04, 0, 0 },
	{ "ramp", "CV 2 %, +3 % over 10 nights from two thirds of the history", 0.02, 0, 0, 0, 0,
	  0, 0, 0, 0, 0, 0, 0.03, 0 },
	{ "weekly", "CV 2 %, two nights a week 3 % slower", 0.02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	  0.03 },
	{ "double", "CV 2 %, then 4 % from the middle night", 0.02, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	  0.04, 0, 0 },
};
#define NMODELS (sizeof models / sizeof models[0])

static const double steps[] = { 0, 0.02, 0.03, 0.05, 0.10, -0.05 };
#define NSTEPS (sizeof steps / sizeof steps[0])

enum rule { R_OURS, R_PETTITT, R_EDIV, R_OTAVA, R_PERF, R_LNT, R_CATAPULT, NRULES };
static const char *const rule_name[NRULES] = { "ours", "pettitt", "edivisive", "otava",
					       "perfherder", "lnt", "catapult" };

#define MAXN 256
#define MAXK 16

/* One history: the nights present, each with K samples, and where (in the
 * nights present) the step starts (0: none); with several changes (a
 * bump, two steps), each of them in TRUTH; each night present's own
 * night (RUN: the nights missing are gaps); the ramp's nights present
 * [RAMP0, RAMP1) (empty: none), whose change points are neither the
 * step's nor false. */
struct hist {
	size_t n, k, step_at;
	size_t truth[2], ntruth;
	size_t run[MAXN], ramp0, ramp1;
	double v[MAXN][MAXK];	/* the samples, seconds */
};

static double unif(struct ti_stats_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * ti_stats_rng_uniform(r);
}

/* The shape of a history's changes: one step (today's table), a step
 * reverted after BUMP nights (BUMP > 0), or two steps of STEP a third of
 * the history apart (BUMP < 0). */
static void generate_shaped(struct hist *h, const struct model *m, double step, int bump,
			    size_t nights, size_t k, uint64_t seed)
{
	struct ti_stats_rng r;
	size_t at, end = SIZE_MAX;

	ti_stats_rng_seed(&r, seed);
	/* A bump ends 5 nights before the history does, or earlier. */
	size_t span = nights / 3;
	if (bump > 0 && nights / 3 + span + (size_t)bump + 5 > nights)
		span = nights > nights / 3 + (size_t)bump + 6 ? nights - nights / 3 - (size_t)bump - 5 : 1;
	at = nights / 3 + (size_t)(ti_stats_rng_uniform(&r) * (double)span);
	if (bump > 0)
		end = at + (size_t)bump;
	else if (bump < 0)
		at = nights / 6 + (size_t)(ti_stats_rng_uniform(&r) * (double)(nights / 3)),
		end = at + nights / 3;
	h->n = 0;
	h->k = k;
	h->step_at = 0;
	h->ntruth = 0;
	h->ramp0 = h->ramp1 = 0;
	size_t r0 = 2 * nights / 3 + 1;
	for (size_t i = 0; i < nights; i++) {
		double lvl = (i >= at ? log1p(step) : 0) + m->drift * (double)i / (double)nights;
		if (m->ramp != 0 && i >= r0) {
			lvl += m->ramp * fmin(1, (double)(i - r0 + 1) / RAMP_NIGHTS);
			if (i == r0)
				h->ramp0 = h->n;
			if (i < r0 + RAMP_NIGHTS)
				h->ramp1 = h->n + 1;
		}
		if (i % 7 >= 5)
			lvl += m->weekly;
		if (i >= end)
			lvl += bump > 0 ? -log1p(step) : log1p(step);
		double nightly = m->night * ti_stats_rng_normal(&r);
		bool bad = ti_stats_rng_uniform(&r) < m->bad_p;
		double badness = bad ? log1p(unif(&r, 0.1, 10)) : 0;
		double iid = m->iid2 > 0 && i >= nights / 2 ? m->iid2 : m->iid;
		if (ti_stats_rng_uniform(&r) < m->miss_p && i != at && i != end)
			continue;
		if (i == at && step != 0)
			h->step_at = h->n;
		if ((i == at || i == end) && step != 0)
			h->truth[h->ntruth++] = h->n;
		for (size_t j = 0; j < k; j++) {
			double x = lvl + nightly + badness + iid * ti_stats_rng_normal(&r);
			if (ti_stats_rng_uniform(&r) < m->out_p)
				x += unif(&r, m->out_lo, m->out_hi);
			if (ti_stats_rng_uniform(&r) < m->bi_p)
				x += m->bi_shift;
			h->v[h->n][j] = exp(x);
		}
		h->run[h->n++] = i;
	}
}

static void generate(struct hist *h, const struct model *m, double step, size_t nights,
		     size_t k, uint64_t seed)
{
	generate_shaped(h, m, step, 0, nights, k, seed);
}

static double median(const double *x, size_t n)
{
	double t[MAXN > MAXK ? MAXN : MAXK];
	memcpy(t, x, n * sizeof *t);
	ti_stats_sort(t, n);
	return ti_stats_quantile_sorted(t, n, 0.5);
}

/* The night medians' logarithms of the first N nights. */
static void levels(const struct hist *h, size_t n, double *x)
{
	for (size_t i = 0; i < n; i++)
		x[i] = log(median(h->v[i], h->k));
}

/* Ours, as timeit-series runs it: disturbed nights (and a pending last
 * night) left out, then the rule; change points as night indices. */
static size_t rule_ours(const struct hist *h, size_t n, const struct ti_series_config *c,
			size_t *cp)
{
	double x[MAXN] = { 0 }, kx[MAXN], p[MAXN];
	size_t map[MAXN], m = 0, kc[MAXN];
	bool keep[MAXN], pending;

	levels(h, n, x);
	if (ti_series_disturbed(x, n, c, keep, &pending) < 0)
		exit(2);
	for (size_t i = 0; i < n; i++)
		if (keep[i]) {
			map[m] = i;
			kx[m++] = x[i];
		}
	int k = ti_series_cpoints(kx, NULL, m, c, kc, p, MAXN);
	if (k < 0)
		exit(2);
	for (int j = 0; j < k; j++)
		cp[j] = map[kc[j]];
	return (size_t)k;
}

/* Ours' last-night test on the first N nights of H, as timeit-series
 * runs it: the last night against the kept levels since the last change
 * point.  True when it is a suspect slowdown. */
static bool suspect_ours(const struct hist *h, size_t n, const struct ti_series_config *c)
{
	double x[MAXN] = { 0 }, kx[MAXN], p[MAXN], change, pv;
	size_t m = 0, kc[MAXN];
	bool keep[MAXN], pending;

	levels(h, n, x);
	if (ti_series_disturbed(x, n, c, keep, &pending) < 0)
		exit(2);
	for (size_t i = 0; i < n; i++)
		if (keep[i])
			kx[m++] = x[i];
	int k = ti_series_cpoints(kx, NULL, m, c, kc, p, MAXN);
	if (k < 0)
		exit(2);
	size_t ref = keep[n - 1] ? m - 1 : m, from = k > 0 ? kc[k - 1] : 0;
	return from < ref && ti_series_suspect(kx + from, ref - from, x[n - 1], c, &change, &pv) == 1 &&
	       change > 0;
}

/* Pettitt's statistic over X[s..e): the split with the largest |U|, its
 * approximate p (Pettitt 1979). */
static void pettitt(const double *x, size_t s, size_t e, size_t *at, double *p)
{
	double best = -1, L = (double)(e - s);

	for (size_t k = s + 1; k < e; k++) {
		double u = 0;
		for (size_t i = s; i < k; i++)
			for (size_t j = k; j < e; j++)
				u += (x[j] > x[i]) - (x[j] < x[i]);
		if (fabs(u) > best) {
			best = fabs(u);
			*at = k;
		}
	}
	*p = fmin(1, 2 * exp(-6 * best * best / (L * L * L + L * L)));
}

static void pettitt_seg(const double *x, size_t s, size_t e, size_t *cp, size_t *k)
{
	size_t at = 0;
	double p;

	if (e - s < 4)
		return;
	pettitt(x, s, e, &at, &p);
	if (!(p <= 0.01) || at - s < 2 || e - at < 2)
		return;
	cp[(*k)++] = at;
	pettitt_seg(x, s, at, cp, k);
	pettitt_seg(x, at, e, cp, k);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* The gate of ours on another rule's points: merge away, smallest first,
 * those whose neighbouring segments' medians differ by under 1 %. */
static size_t gated(const double *x, size_t n, size_t *cp, size_t k)
{
	qsort(cp, k, sizeof *cp, cmp_size);
	while (k > 0) {
		size_t worst = 0;
		double small = INFINITY;
		for (size_t j = 0; j < k; j++) {
			size_t lo = j ? cp[j - 1] : 0, hi = j + 1 < k ? cp[j + 1] : n;
			double d = fabs(median(x + cp[j], hi - cp[j]) - median(x + lo, cp[j] - lo));
			if (d < small) {
				small = d;
				worst = j;
			}
		}
		if (small >= log1p(0.01))
			break;
		memmove(cp + worst, cp + worst + 1, (k - worst - 1) * sizeof *cp);
		k--;
	}
	return k;
}

static size_t rule_pettitt(const struct hist *h, size_t n, size_t *cp)
{
	double x[MAXN];
	size_t k = 0;

	levels(h, n, x);
	pettitt_seg(x, 0, n, cp, &k);
	return gated(x, n, cp, k);
}

/* The sums of |x_i - x_j| over the pairs i < j of every stretch [a, b)
 * of X[0..L), in W[a][b] (E-divisive's energy at alpha 1): built from
 * the right, W(a, b) = W(a + 1, b) + the distances of x_a to x_(a+1..b-1).
 * Between two adjacent stretches [a, t) and [t, b) the cross sum is
 * W(a, b) - W(a, t) - W(t, b). */
static void pair_sums(const double *x, size_t L, double (*w)[MAXN + 1])
{
	for (size_t a = L + 1; a-- > 0;) {
		double r = 0;
		w[a][a] = 0;
		for (size_t b = a + 1; b <= L; b++) {
			if (b > a + 1)
				r += fabs(x[a] - x[b - 1]);
			w[a][b] = (b > a + 1 ? w[a + 1][b] : 0) + r;
		}
	}
}

/* E-divisive's Q over X[s..e) for every split, alpha 1: the scaled energy
 * distance between the two sides; the best split and its Q. */
static double edq(const double *x, size_t s, size_t e, size_t *at)
{
	size_t L = e - s;
	double best = -INFINITY;
	static double w[MAXN + 1][MAXN + 1];

	pair_sums(x + s, L, w);
	for (size_t t = 2; t + 2 <= L; t++) {
		double left = w[0][t], right = w[t][L], between = w[0][L] - left - right;
		double m = (double)t, n = (double)(L - t);
		double ehat = 2 * between / (m * n) - left / (m * (m - 1) / 2) -
			      right / (n * (n - 1) / 2);
		double q = m * n / (m + n) * ehat;
		if (q > best) {
			best = q;
			*at = s + t;
		}
	}
	return best;
}

static void ediv_seg(const double *x, size_t s, size_t e, size_t *cp, size_t *k,
		     struct ti_stats_rng *r)
{
	size_t at = 0, dummy, ge = 0;
	double q, y[MAXN];

	if (e - s < 4)
		return;
	q = edq(x, s, e, &at);
	/* The permutation test: the best Q of the segment shuffled. */
	for (int p = 0; p < 100; p++) {
		memcpy(y, x, e * sizeof *y);
		for (size_t i = e - 1; i > s; i--) {
			size_t j = s + (size_t)(ti_stats_rng_uniform(r) * (double)(i - s + 1));
			double t = y[i];
			y[i] = y[j];
			y[j] = t;
		}
		/* Ties (a mirrored order has the same Q) count whatever
		 * the last bit of their sums. */
		ge += edq(y, s, e, &dummy) >= q - 1e-9 * fabs(q);
	}
	if ((double)(ge + 1) / 101 > 0.05)
		return;
	cp[(*k)++] = at;
	ediv_seg(x, s, at, cp, k, r);
	ediv_seg(x, at, e, cp, k, r);
}

static size_t rule_ediv(const struct hist *h, size_t n, size_t *cp, uint64_t seed)
{
	double x[MAXN];
	struct ti_stats_rng r;
	size_t k = 0;

	ti_stats_rng_seed(&r, seed);
	levels(h, n, x);
	ediv_seg(x, 0, n, cp, &k, &r);
	qsort(cp, k, sizeof *cp, cmp_size);
	return k;
}

/* Otava's default rule (apache/otava, otava/analysis.py
 * compute_change_points; Fleming et al., "Hunter", ICPE 2023): on the
 * night values themselves (one a run, the night's median here), windows
 * of 50 runs every 25; in each, E-divisive's candidate (the split tau and
 * end kappa of largest Q within a stretch between the points found so
 * far) tested by Student's t of the stretch's two sides, kept at p <=
 * 0.01 ("weak" points), the window done at the first that is not; then,
 * over the union, the weakest point (largest p, each side of it the
 * stretch to its neighbours) removed while its p >= 0.001, the two points
 * after it re-tested as Otava does.  min_magnitude 0: no gate. */
#define OTAVA_WINDOW 50
#define OTAVA_P 0.001

/* Student's t of X[a..t) against X[t..b), each side's spread its
 * population sd (numpy's std), as Otava's TTestSignificanceTester. */
static double otava_p(const double *x, size_t a, size_t t, size_t b, double *magnitude)
{
	double n1 = (double)(t - a), n2 = (double)(b - t), m1 = 0, m2 = 0, v1 = 0, v2 = 0;

	for (size_t i = a; i < t; i++)
		m1 += x[i] / n1;
	for (size_t i = t; i < b; i++)
		m2 += x[i] / n2;
	for (size_t i = a; i < t; i++)
		v1 += (x[i] - m1) * (x[i] - m1) / n1;
	for (size_t i = t; i < b; i++)
		v2 += (x[i] - m2) * (x[i] - m2) / n2;
	if (magnitude)
		*magnitude = fmax(fabs(m2 / m1 - 1), fabs(m1 / m2 - 1));
	if (n1 + n2 <= 2)
		return 1;
	double df = n1 + n2 - 2, sv = ((n1 - 1) * v1 + (n2 - 1) * v2) / df;
	double tt = fabs(m1 - m2) / sqrt(sv * (1 / n1 + 1 / n2));
	return isnan(tt) ? 1 : 2 * (1 - ti_stats_t_cdf(tt, df));
}

/* The points of one window X[0..L), at the first pass's p. */
static size_t otava_window(const double *x, size_t L, double p_max, size_t *cp)
{
	static double w[MAXN + 1][MAXN + 1];
	size_t k = 0;

	pair_sums(x, L, w);
	for (;;) {
		double best = -INFINITY;
		size_t at = 0, lo = 0, hi = 0;
		for (size_t j = 0; j <= k; j++) {
			size_t a = j ? cp[j - 1] : 0, b = j < k ? cp[j] : L;
			for (size_t t = a + 1; t < b; t++)
				for (size_t kap = t + 1; kap <= b; kap++) {
					double n = (double)(t - a), m = (double)(kap - t);
					double cross = w[a][kap] - w[a][t] - w[t][kap];
					double q = 2 / (n + m) * cross -
						   (n > 1 ? 2 * m / ((n + m) * (n - 1)) * w[a][t] : 0) -
						   (m > 1 ? 2 * n / ((n + m) * (m - 1)) * w[t][kap] : 0);
					if (q > best) {
						best = q;
						at = t;
						lo = a;
						hi = b;
					}
				}
		}
		if (best == -INFINITY || !(otava_p(x, lo, at, hi, NULL) <= p_max))
			return k;
		size_t j = k++;
		while (j > 0 && cp[j - 1] > at) {
			cp[j] = cp[j - 1];
			j--;
		}
		cp[j] = at;
	}
}

static size_t rule_otava(const struct hist *h, size_t n, size_t *cp)
{
	double x[MAXN], p[MAXN], mag[MAXN];
	size_t k = 0, local[MAXN];

	levels(h, n, x);
	for (size_t i = 0; i < n; i++)
		x[i] = exp(x[i]);
	for (size_t start = 0; start < n;) {
		size_t end = start + OTAVA_WINDOW < n ? start + OTAVA_WINDOW : n;
		size_t kl = otava_window(x + start, end - start, OTAVA_P * 10, local), last = 0;
		for (size_t j = 0; j < kl; j++) {
			size_t at = start + local[j], i = 0;
			last = at;
			while (i < k && cp[i] != at)
				i++;
			if (i == k)
				cp[k++] = at;
		}
		start = last > start + OTAVA_WINDOW / 2 ? last : start + OTAVA_WINDOW / 2;
	}
	qsort(cp, k, sizeof *cp, cmp_size);
	for (size_t j = 0; j < k; j++)
		p[j] = otava_p(x, j ? cp[j - 1] : 0, cp[j], j + 1 < k ? cp[j + 1] : n, &mag[j]);
	while (k > 0) {
		size_t weak = 0;
		for (size_t j = 1; j < k; j++)
			if (p[j] > p[weak])
				weak = j;
		if (p[weak] < OTAVA_P) {
			for (size_t j = 1; j < k; j++)
				if (mag[j] < mag[weak])
					weak = j;
			if (mag[weak] > 0)
				break;
		}
		memmove(cp + weak, cp + weak + 1, (k - weak - 1) * sizeof *cp);
		memmove(p + weak, p + weak + 1, (k - weak - 1) * sizeof *p);
		memmove(mag + weak, mag + weak + 1, (k - weak - 1) * sizeof *mag);
		k--;
		for (size_t j = weak; j < weak + 2 && j < k; j++)
			p[j] = otava_p(x, j ? cp[j - 1] : 0, cp[j], j + 1 < k ? cp[j + 1] : n, &mag[j]);
	}
	return k;
}

/* Perfherder's weighted mean and variance of nights FROM, FROM+DIR, ...
 * (COUNT of them; the first weighs most). */
static void perf_stats(const struct hist *h, size_t from, int dir, size_t count, double *avg,
		       double *var, size_t *nv)
{
	double ws = 0, sw = 0, ss = 0;
	size_t n = 0;

	for (size_t i = 0; i < count; i++) {
		size_t night = dir > 0 ? from + i : from - i;
		double w = (double)(count - i) / (double)count;
		for (size_t j = 0; j < h->k; j++) {
			ws += h->v[night][j] * w;
			sw += w;
		}
	}
	*avg = ws / sw;
	for (size_t i = 0; i < count; i++) {
		size_t night = dir > 0 ? from + i : from - i;
		for (size_t j = 0; j < h->k; j++, n++)
			ss += (h->v[night][j] - *avg) * (h->v[night][j] - *avg);
	}
	*var = n > 1 ? ss / (double)(n - 1) : 0;
	*nv = n;
}

static size_t rule_perf(const struct hist *h, size_t n, size_t *cp)
{
	double t[MAXN] = { 0 };
	size_t back[MAXN] = { 0 }, fore[MAXN] = { 0 }, k = 0, last_seen = 0;

	for (size_t i = 1; i < n; i++) {
		/* Back: nights until 12 values (at most 24), fore: until 12. */
		size_t nb = 0, nf = 0, vb = 0, vf = 0;
		size_t lim = last_seen > 12 ? (last_seen < 24 ? last_seen : 24) : 12;
		while (vb < 24 && nb < i && nb + 1 <= lim) {
			nb++;
			vb += h->k;
		}
		while (vf < 12 && i + nf < n) {
			nf++;
			vf += h->k;
		}
		double a1, v1, a2, v2;
		size_t n1, n2;
		perf_stats(h, i - 1, -1, nb, &a1, &v1, &n1);
		perf_stats(h, i, 1, nf, &a2, &v2, &n2);
		double d = a2 - a1;
		t[i] = d == 0 ? 0 : v1 == 0 && v2 == 0 ? INFINITY
			: fabs(d / sqrt(v1 / (double)n1 + v2 / (double)n2));
		back[i] = vb;
		fore[i] = vf;
		last_seen = t[i] > 7 ? 0 : last_seen + 1;
	}
	for (size_t i = 1; i < n; i++) {
		if (back[i] < 12 || fore[i] < 12 || t[i] <= 7 || t[i - 1] > t[i] ||
		    (i + 1 < n && t[i + 1] > t[i]))
			continue;
		cp[k++] = i;
	}
	return k;
}

/* LNT's comparison of night I with night I-1 (lnt/server/reporting/
 * analysis.py, ComparisonResult.get_value_status): a change or not. */
static bool lnt_change(const struct hist *h, size_t i)
{
	const double *cur = h->v[i], *prev = h->v[i - 1];
	size_t k = h->k;
	double mn = cur[0], best = INFINITY, pv = 0;

	for (size_t j = 1; j < k; j++)
		mn = fmin(mn, cur[j]);
	for (size_t j = 0; j < k; j++)
		if (fabs(mn - prev[j]) <= best) {
			best = fabs(mn - prev[j]);
			pv = prev[j];
		}
	double delta = mn - pv, pct = delta / pv;
	if (fabs(pct) < 0.01 || fabs(delta) < 0.01 || fabs(delta) <= 2 * 0.0001 * 2.576)
		return false;
	if (k >= 4) {
		struct ti_stats_mw mw;
		if (ti_stats_mann_whitney(cur, k, prev, k, &mw) < 0)
			exit(2);
		if (mw.p > 0.05)
			return false;
	}
	if (k > 1) {
		struct ti_stats_summary s;
		if (ti_stats_summarize(cur, k, &s) < 0)
			exit(2);
		return fabs(delta) > s.stddev * 2.576;
	}
	return fabs(pct) >= 0.002;
}

static size_t rule_lnt(const struct hist *h, size_t n, size_t *cp)
{
	size_t k = 0;

	for (size_t i = 1; i < n; i++)
		if (lnt_change(h, i))
			cp[k++] = i;
	return k;
}

/* The population sd of the N values X (catapult's math_utils). */
static double pop_sd(const double *x, size_t n)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += x[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return n ? sqrt(ss / (double)n) : 0;
}

/* The RMS distance of X[0..n) from its two-mean step fit split at AT. */
static double step_distance(const double *x, size_t n, size_t at)
{
	double ml = 0, mr = 0, ss = 0;

	for (size_t i = 0; i < at; i++)
		ml += x[i] / (double)at;
	for (size_t i = at; i < n; i++)
		mr += x[i] / (double)(n - at);
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - (i < at ? ml : mr)) * (x[i] - (i < at ? ml : mr));
	return sqrt(ss / (double)n);
}

static size_t rule_catapult(const struct hist *h, size_t n, size_t *cp)
{
	double all[MAXN], y[MAXN], z[MAXN];
	size_t from = n > 50 ? n - 50 : 0, m = n - from, at = 0;
	double best = INFINITY;

	for (size_t i = 0; i < m; i++)
		all[i] = median(h->v[from + i], h->k);
	for (size_t t = 1; t < m; t++) {
		double ml = median(all, t), mr = median(all + t, m - t);
		for (size_t i = 0; i < m; i++)
			y[i] = all[i] - (i < t ? ml : mr);
		double v = pop_sd(y, m);
		if (v < best) {
			best = v;
			at = t;
		}
	}
	if (at < 6 || m - at < 6)
		return 0;
	double ml = median(all, at), mr = median(all + at, m - at), d = fabs(mr - ml);
	if (d / ml < 0.01 || d < 2.5 * fmin(pop_sd(all, at), pop_sd(all + at, m - at)))
		return 0;
	double mean = 0, s;
	for (size_t i = 0; i < m; i++)
		mean += all[i] / (double)m;
	for (size_t i = 0; i < m; i++)
		z[i] = all[i] - mean;
	s = pop_sd(z, m);
	for (size_t i = 0; i < m && s > 0; i++)
		z[i] /= s;
	if (1 - step_distance(z, m, at) < 0.5)
		return 0;
	cp[0] = from + at;
	return 1;
}

static size_t run_rule(enum rule r, const struct hist *h, size_t n,
		       const struct ti_series_config *c, size_t *cp, uint64_t seed)
{
	switch (r) {
	case R_OURS: return rule_ours(h, n, c, cp);
	case R_PETTITT: return rule_pettitt(h, n, cp);
	case R_EDIV: return rule_ediv(h, n, cp, seed);
	case R_OTAVA: return rule_otava(h, n, cp);
	case R_PERF: return rule_perf(h, n, cp);
	case R_CATAPULT: return rule_catapult(h, n, cp);
	default: return rule_lnt(h, n, cp);
	}
}

/* CP is within +-1 night of H's ramp: the ramp's own, neither the
 * step's nor false. */
static bool in_ramp(const struct hist *h, size_t cp)
{
	return h->ramp1 > h->ramp0 && cp + 1 >= h->ramp0 && cp <= h->ramp1;
}

struct tally {
	size_t hist, found, nights, false_cp, loc_sum;
	size_t ramp_hist, ramp_cp;	/* histories with a point on the ramp, those points */
	size_t ramp_near;	/* false points within RAMP_NIGHTS of the ramp: it, placed off */
	size_t delay_n, delay_found, delay_sum;
};

/* Score the points CP of H: found within +-1 of the step, the rest false. */
static bool score(const struct hist *h, const size_t *cp, size_t k, struct tally *t)
{
	bool found = false, ramp = false;
	size_t err = 0;

	for (size_t j = 0; j < k; j++) {
		size_t d = cp[j] > h->step_at ? cp[j] - h->step_at : h->step_at - cp[j];
		if (h->step_at && d <= 1 && !found) {
			found = true;
			err = d;
		} else if (in_ramp(h, cp[j])) {
			ramp = true;
			t->ramp_cp++;
		} else {
			t->false_cp++;
			t->ramp_near += h->ramp1 > h->ramp0 && cp[j] + RAMP_NIGHTS >= h->ramp0 &&
					cp[j] < h->ramp1 + RAMP_NIGHTS;
		}
	}
	t->found += found;
	t->loc_sum += err;
	t->ramp_hist += ramp;
	return found;
}

/* The last-night test (series-sim ... last): per model, the suspect
 * slowdowns per 1000 benchmark-nights on histories without a step (run
 * each night from the 8th), and on histories with a step, how often its
 * first night is a suspect and the median first report (suspect or
 * change point), against the change point's alone. */
static void run_last(size_t hists, uint64_t seed, size_t nights, size_t samples,
		     const struct ti_series_config *c)
{
	static struct hist h;
	static const double up[] = { 0.05, 0.10 };
	size_t cp[MAXN], delays = hists < 50 ? hists : 50;

	printf("## The last night's test at alpha %g: %zu histories a cell, %zu nights of %zu "
	       "samples, seed %llu\n\n", c->last_alpha, hists, nights, samples,
	       (unsigned long long)seed);
	printf("Per model: suspect slowdowns per 1000 benchmark-nights without a step (each "
	       "night from the 8th); per step, the step's first night a suspect %% / median "
	       "nights after the step to the first report, suspect or change point / to the "
	       "change point alone (of %zu histories).\n\n| model | false suspects | +5%% | "
	       "+10%% |\n|---|---:|---|---|\n", delays);
	for (size_t mi = 0; mi < NMODELS; mi++) {
		size_t fs = 0, bn = 0;
		printf("| %s |", models[mi].name);
		for (size_t hi = 0; hi < hists; hi++) {
			uint64_t hs = seed * 1000003u + mi * 100003u + hi;
			generate(&h, &models[mi], 0, nights, samples, hs);
			for (size_t len = 8; len <= h.n; len++, bn++)
				fs += suspect_ours(&h, len, c);
		}
		printf(" %.1f |", 1000.0 * (double)fs / (double)bn);
		for (size_t si = 0; si < 2; si++) {
			size_t first = 0, d1[64], d2[64], dn = 0;
			for (size_t hi = 0; hi < delays; hi++) {
				uint64_t hs = seed * 1000003u + mi * 100003u + (si + 3) * 10007u + hi;
				generate(&h, &models[mi], up[si], nights, samples, hs);
				size_t a = 11, b = 11;
				for (size_t len = h.step_at + 1; len <= h.n && len <= h.step_at + 10; len++) {
					struct tally tmp = { 0 };
					size_t k = run_rule(R_OURS, &h, len, c, cp, hs);
					bool found = score(&h, cp, k, &tmp);
					bool sus = suspect_ours(&h, len, c);
					if (len == h.step_at + 1)
						first += sus;
					if ((found || sus) && a > 10)
						a = len - h.step_at;
					if (found) {
						b = len - h.step_at;
						break;
					}
				}
				d1[dn] = a;
				d2[dn++] = b;
			}
			qsort(d1, dn, sizeof *d1, cmp_size);
			qsort(d2, dn, sizeof *d2, cmp_size);
			printf(" %.0f / %zu / %zu |", 100.0 * (double)first / (double)dn, d1[dn / 2],
			       d2[dn / 2]);
		}
		printf("\n");
		fflush(stdout);
	}
}

/* The nightly replay (series-sim ... replay): timeit-series --since 1
 * (ti_series_analyze) on each night's history so far, from the 8th
 * night, as a nightly job runs it.  Per model and step: the histories
 * whose step set exit 1 (a confirmed regression within +-1 night of it,
 * as the step is found in the other tables), the share of those where it did so on exactly one night, the
 * most nights one did, the median nights from the step to its first exit
 * 1, and the other exits 1 (false) per 1000 benchmark-nights. */
static void run_replay(size_t hists, uint64_t seed, size_t nights, size_t samples,
		       const struct ti_series_config *c0, const char *only)
{
	static struct hist h;
	static const double up[] = { 0, 0.02, 0.03, 0.05, 0.10 };
	struct ti_series_point pts[MAXN];
	struct ti_series_bench b = { .name = "b", .p = pts };
	struct ti_series_history hist = { .b = &b, .nb = 1 };

	printf("## The nightly replay: %zu histories a cell, %zu nights of %zu samples, seed "
	       "%llu\n\n", hists, nights, samples, (unsigned long long)seed);
	printf("Per cell: the step's regression set exit 1 %% of histories / of those, on "
	       "exactly one night %% / the most nights one did / median nights from the step "
	       "to its first exit 1 / other exits 1 per 1000 benchmark-nights.\n\n| model |");
	for (size_t si = 0; si < sizeof up / sizeof *up; si++)
		printf(" %+.0f%% |", 100 * up[si]);
	printf("\n|---|");
	for (size_t si = 0; si < sizeof up / sizeof *up; si++)
		printf("---|");
	printf("\n");
	for (size_t mi = 0; mi < NMODELS; mi++) {
		if (only && strcmp(only, models[mi].name) != 0)
			continue;
		printf("| %s |", models[mi].name);
		for (size_t si = 0; si < sizeof up / sizeof *up; si++) {
			size_t found = 0, once = 0, most = 0, falses = 0, bn = 0, dn = 0;
			size_t *dl = malloc(hists * sizeof *dl);
			if (!dl)
				exit(2);
			for (size_t hi = 0; hi < hists; hi++) {
				uint64_t hs = seed * 1000003u + mi * 100003u + si * 10007u + hi;
				size_t exits = 0, first = 0;
				generate(&h, &models[mi], up[si], nights, samples, hs);
				for (size_t i = 0; i < h.n; i++) {
					pts[i] = (struct ti_series_point){ .run = (uint32_t)h.run[i],
									   .n = (uint32_t)h.k };
					pts[i].level = median(h.v[i], h.k);
				}
				for (size_t len = 8; len <= h.n; len++, bn++) {
					struct ti_series_config c = *c0;
					struct ti_series_result r;
					bool mine = false, other = false;
					b.n = len;
					hist.nruns = h.run[len - 1] + 1;
					c.since = h.run[len - 1];
					if (ti_series_analyze(&hist, &c, &r) < 0)
						exit(2);
					for (size_t j = 0; j < r.rows[0].nch; j++) {
						const struct ti_series_change *ch = &r.rows[0].ch[j];
						if (!ch->confirmed || ch->change < c.min_change / 100)
							continue;
						size_t at = h.run[h.step_at];
						if (up[si] > 0 && ch->index + 1 >= at && ch->index <= at + 1)
							mine = true;
						else if (!(h.ramp1 > h.ramp0 &&
							   ch->index + 1 >= h.run[h.ramp0] &&
							   ch->index <= h.run[h.ramp1 - 1] + 1))
							other = true;
					}
					ti_series_result_free(&r);
					falses += other;
					if (mine && exits++ == 0)
						first = len - h.step_at;
				}
				if (exits) {
					found++;
					once += exits == 1;
					most = exits > most ? exits : most;
					dl[dn++] = first;
				}
			}
			if (up[si] == 0) {
				printf(" - / - / - / - / %.2f |", 1000.0 * (double)falses / (double)bn);
			} else {
				qsort(dl, dn, sizeof *dl, cmp_size);
				printf(" %.0f / %.1f / %zu / %zu / %.2f |",
				       100.0 * (double)found / (double)hists,
				       found ? 100.0 * (double)once / (double)found : 0, most,
				       dn ? dl[dn / 2] : 0, 1000.0 * (double)falses / (double)bn);
			}
			free(dl);
			fflush(stdout);
		}
		printf("\n");
	}
}

/* Score the points CP of H against every change of it (TRUTH): a point
 * within +-1 night of one not yet matched matches it, the rest are
 * false.  Returns whether the first change (the step, or the bump's
 * start) was matched; *ALL whether every one was. */
static bool score_all(const struct hist *h, const size_t *cp, size_t k, bool *all,
		      size_t *false_cp)
{
	bool hit[2] = { false, false };

	for (size_t j = 0; j < k; j++) {
		size_t t = 0;
		while (t < h->ntruth && (hit[t] || (cp[j] > h->truth[t] ? cp[j] - h->truth[t]
						    : h->truth[t] - cp[j]) > 1))
			t++;
		if (t < h->ntruth)
			hit[t] = true;
		else if (!in_ramp(h, cp[j]))
			(*false_cp)++;
	}
	*all = h->ntruth == 0 || (hit[0] && (h->ntruth < 2 || hit[1]));
	return h->ntruth > 0 && hit[0];
}

/* The histories with more than one change (series-sim ... shapes): a
 * step reverted after 3, 8 or 20 nights (a bump) at +5, +10 and +20 %,
 * two steps, one step, none. */
static const struct {
	const char *name;
	int bump;
	double step;
} shapes[] = {
	{ "none", 0, 0 },		{ "step +5%", 0, 0.05 },
	{ "two steps +5%", -1, 0.05 },	{ "two steps +10%", -1, 0.10 },
	{ "bump 3 +5%", 3, 0.05 },	{ "bump 3 +10%", 3, 0.10 },	{ "bump 3 +20%", 3, 0.20 },
	{ "bump 8 +5%", 8, 0.05 },	{ "bump 8 +10%", 8, 0.10 },	{ "bump 8 +20%", 8, 0.20 },
	{ "bump 20 +5%", 20, 0.05 },	{ "bump 20 +10%", 20, 0.10 },	{ "bump 20 +20%", 20, 0.20 },
};
/* cv2, disturbed, missing, vm, shape, double, ramp, weekly */
static const size_t shape_models[] = { 0, 6, 7, 8, 9, 12, 10, 11 };

static void run_shapes(size_t hists, uint64_t seed, size_t nights, size_t samples,
		       const struct ti_series_config *c, int nrules)
{
	static struct hist h;
	size_t cp[MAXN], delays = hists < 50 ? hists : 50;

	printf("## Histories of several changes: %zu histories a cell, %zu nights of %zu "
	       "samples, seed %llu\n\n", hists, nights, samples, (unsigned long long)seed);
	printf("Per cell: the first change found within +-1 night %% / every change found %% / "
	       "false change points per 1000 benchmark-nights; ours also the median delay "
	       "(nights after the first change until it is reported, of %zu histories; '-': "
	       "not within 10).\n\n| model | history |", delays);
	for (int r = 0; r < nrules; r++)
		printf(" %s |", rule_name[r]);
	printf("\n|---|---|");
	for (int r = 0; r < nrules; r++)
		printf("---|");
	printf("\n");
	for (size_t mj = 0; mj < sizeof shape_models / sizeof *shape_models; mj++) {
		size_t mi = shape_models[mj];
		for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++) {
			size_t found[NRULES] = { 0 }, every[NRULES] = { 0 }, fcp[NRULES] = { 0 };
			size_t tn = 0, dn = 0, dl[64];
			printf("| %s | %s |", models[mi].name, shapes[si].name);
			for (size_t hi = 0; hi < hists; hi++) {
				uint64_t hs = seed * 1000003u + mi * 100003u + si * 10007u + hi + 7;
				generate_shaped(&h, &models[mi], shapes[si].step, shapes[si].bump,
						nights, samples, hs);
				tn += h.n;
				for (int r = 0; r < nrules; r++) {
					bool all;
					size_t k = run_rule((enum rule)r, &h, h.n, c, cp, hs);
					found[r] += score_all(&h, cp, k, &all, &fcp[r]);
					every[r] += all;
				}
				if (!h.ntruth || hi >= delays)
					continue;
				size_t d = 11;
				for (size_t len = h.step_at + 1; len <= h.n && len <= h.step_at + 10; len++) {
					bool all;
					size_t f = 0, kk = run_rule(R_OURS, &h, len, c, cp, hs);
					if (score_all(&h, cp, kk, &all, &f)) {
						d = len - h.step_at;
						break;
					}
				}
				dl[dn++] = d;
			}
			for (int r = 0; r < nrules; r++) {
				if (shapes[si].step)
					printf(" %.0f / %.0f / %.1f", 100.0 * (double)found[r] / (double)hists,
					       100.0 * (double)every[r] / (double)hists,
					       1000.0 * (double)fcp[r] / (double)tn);
				else
					printf(" %.1f", 1000.0 * (double)fcp[r] / (double)tn);
				if (r == 0 && dn) {
					qsort(dl, dn, sizeof *dl, cmp_size);
					if (dl[dn / 2] > 10)
						printf(" / -");
					else
						printf(" / %zu", dl[dn / 2]);
				}
				printf(" |");
			}
			printf("\n");
			fflush(stdout);
		}
	}
}

/* Where a step is placed (series-sim ... place): on the histories of
 * the first table (model MODEL, default cv2), the night each placement
 * names, within +-1 night of the step %% / exactly on it %%: our rule's
 * point; the split of largest statistic of the levels (what our rule
 * places); the middle of the three splits of most likelihood (each
 * split's exp((T^2 - T_max^2) / 2 s^2), s^2 the spread around the best
 * split's means), which trades the exact night for +-1; and an oracle that
 * knows the step's size and names the most likely night.
 * Histories where our rule finds no change count for it as misses; the
 * others place a step in every history. */
static void run_place(size_t hists, uint64_t seed, size_t nights, size_t samples,
		      const struct ti_series_config *c, const char *only)
{
	static struct hist h;
	static const size_t sis[] = { 2, 3, 4 };	/* +3, +5, +10 % */
	size_t mi = 0, cp[MAXN];

	while (only && mi + 1 < NMODELS && strcmp(models[mi].name, only) != 0)
		mi++;
	printf("## Where a step is placed: model %s, %zu histories a cell, %zu nights of %zu "
	       "samples, seed %llu\n\nPer cell: within +-1 night of the step %% / on its night "
	       "%%.\n\n| step | ours | largest statistic | 3 nights of most likelihood | "
	       "oracle (the size known) |\n|---|---|---|---|---|\n", models[mi].name, hists,
	       nights, samples, (unsigned long long)seed);
	for (size_t q = 0; q < sizeof sis / sizeof *sis; q++) {
		size_t si = sis[q], near[4] = { 0 }, on[4] = { 0 };
		for (size_t hi = 0; hi < hists; hi++) {
			uint64_t hs = seed * 1000003u + mi * 100003u + si * 10007u + hi;
			double x[MAXN], sum[MAXN + 1], t2[MAXN] = { 0 }, best = -1, like[MAXN] = { 0 };
			size_t at[4] = { 0 }, n, k = 0, j;
			generate(&h, &models[mi], steps[si], nights, samples, hs);
			n = h.n;
			levels(&h, n, x);
			/* Ours: the point nearest the step. */
			size_t kk = run_rule(R_OURS, &h, n, c, cp, hs);
			at[0] = SIZE_MAX;
			for (j = 0; j < kk; j++)
				if (at[0] == SIZE_MAX || (cp[j] > h.step_at ? cp[j] - h.step_at : h.step_at - cp[j]) <
				    (at[0] > h.step_at ? at[0] - h.step_at : h.step_at - at[0]))
					at[0] = cp[j];
			sum[0] = 0;
			for (j = 0; j < n; j++)
				sum[j + 1] = sum[j] + x[j];
			for (j = 2; j + 2 <= n; j++) {
				double d = (sum[n] - sum[j]) / (double)(n - j) - sum[j] / (double)j;
				t2[j] = d * d / (1 / (double)j + 1 / (double)(n - j));
				if (t2[j] > best) {
					best = t2[j];
					k = j;
				}
			}
			at[1] = k;
			double mb = sum[k] / (double)k, ma = (sum[n] - sum[k]) / (double)(n - k), ss = 0;
			for (j = 0; j < n; j++)
				ss += (x[j] - (j < k ? mb : ma)) * (x[j] - (j < k ? mb : ma));
			double s2 = ss / (double)(n - 2), most = -1;
			for (j = 2; j + 2 <= n; j++)
				like[j] = exp((t2[j] - best) / (2 * s2));
			for (j = 2; j + 2 <= n; j++) {
				double m = like[j - 1] + like[j] + like[j + 1];
				if (m > most) {
					most = m;
					at[2] = j;
				}
			}
			/* The oracle: the most likely night of a step of the
			 * size it is from a level of 0, the log-likelihood of a
			 * start at j being the sum from j on of (x - D / 2) D over
			 * the noise's variance, whose scale does not move it. */
			double dl = log1p(steps[si]), lbest = -INFINITY, l = 0;
			for (j = n; j-- > 1;) {
				l += (x[j] - dl / 2) * dl;
				if (l > lbest) {
					lbest = l;
					at[3] = j;
				}
			}
			for (int r = 0; r < 4; r++) {
				if (at[r] == SIZE_MAX)
					continue;
				size_t e = at[r] > h.step_at ? at[r] - h.step_at : h.step_at - at[r];
				near[r] += e <= 1;
				on[r] += e == 0;
			}
		}
		printf("| %+.0f%% |", 100 * steps[si]);
		for (int r = 0; r < 4; r++)
			printf(" %.1f / %.1f |", 100.0 * (double)near[r] / (double)hists,
			       100.0 * (double)on[r] / (double)hists);
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	size_t hists = argc > 1 ? strtoul(argv[1], NULL, 10) : 200;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	size_t nights = argc > 3 ? strtoul(argv[3], NULL, 10) : 30;
	size_t samples = argc > 4 ? strtoul(argv[4], NULL, 10) : 3;
	size_t delays = hists < 50 ? hists : 50;
	struct ti_series_config c;
	static struct hist h;
	size_t cp[MAXN];

	if (hists < 1 || nights < 8 || nights > MAXN || samples < 1 || samples > MAXK) {
		fprintf(stderr, "usage: series-sim [HISTORIES [SEED [NIGHTS(8-%d) [SAMPLES(1-%d) "
			"[shapes [ours]|last [ALPHA]|replay [MODEL]|place [MODEL]|ours [MODEL]]]]]]\n",
			MAXN, MAXK);
		return 2;
	}
	ti_series_config_init(&c, nights);
	if (argc > 5 && strcmp(argv[5], "shapes") == 0) {
		/* "shapes ours": our rule alone */
		run_shapes(hists, seed, nights, samples, &c,
			   argc > 6 && strcmp(argv[6], "ours") == 0 ? 1 : NRULES);
		return 0;
	}
	if (argc > 5 && strcmp(argv[5], "place") == 0) {
		run_place(hists, seed, nights, samples, &c, argc > 6 ? argv[6] : NULL);
		return 0;
	}
	if (argc > 5 && strcmp(argv[5], "replay") == 0) {
		run_replay(hists, seed, nights, samples, &c, argc > 6 ? argv[6] : NULL);
		return 0;
	}
	if (argc > 5 && strcmp(argv[5], "last") == 0) {
		if (argc > 6)
			c.last_alpha = strtod(argv[6], NULL);
		run_last(hists, seed, nights, samples, &c);
		return 0;
	}
	/* "ours [MODEL]": our rule alone (the others' cost is E-divisive's
	 * permutations), on one model or all: the quick look when tuning. */
	int nrules = NRULES;
	const char *only = NULL;
	if (argc > 5 && strcmp(argv[5], "ours") == 0) {
		nrules = 1;
		only = argc > 6 ? argv[6] : NULL;
	} else if (argc > 5) {
		fprintf(stderr, "series-sim: unknown mode '%s'\n", argv[5]);
		return 2;
	}
	printf("## Change-point rules: %zu histories a cell, %zu nights of %zu samples, seed %llu\n\n",
	       hists, nights, samples, (unsigned long long)seed);
	printf("Per cell: found within +-1 night %% / mean localisation error (nights) / median "
	       "delay (nights after the step, of %zu histories; '-': not within 10) / false change "
	       "points per 1000 benchmark-nights.\n\n| model | step |", delays);
	for (int r = 0; r < nrules; r++)
		printf(" %s |", rule_name[r]);
	printf("\n|---|---:|");
	for (int r = 0; r < nrules; r++)
		printf("---|");
	printf("\n");
	for (size_t mi = 0; mi < NMODELS; mi++) {
		if (only && strcmp(only, models[mi].name) != 0)
			continue;
		for (size_t si = 0; si < NSTEPS; si++) {
			struct tally t[NRULES] = { 0 };
			size_t dl[NRULES][64];
			printf("| %s | %+.0f%% |", models[mi].name, 100 * steps[si]);
			for (size_t hi = 0; hi < hists; hi++) {
				uint64_t hs = seed * 1000003u + mi * 100003u + si * 10007u + hi;
				generate(&h, &models[mi], steps[si], nights, samples, hs);
				for (int r = 0; r < nrules; r++) {
					size_t k = run_rule((enum rule)r, &h, h.n, &c, cp, hs);
					t[r].hist++;
					t[r].nights += h.n;
					score(&h, cp, k, &t[r]);
					/* The delay: the rule each night on the history so far. */
					if (!steps[si] || hi >= delays)
						continue;
					size_t d = 11;
					for (size_t len = h.step_at + 1; len <= h.n && len <= h.step_at + 10;
					     len++) {
						struct tally tmp = { 0 };
						size_t kk = run_rule((enum rule)r, &h, len, &c, cp, hs);
						if (score(&h, cp, kk, &tmp)) {
							d = len - h.step_at;
							break;
						}
					}
					dl[r][t[r].delay_n++] = d;
				}
			}
			for (int r = 0; r < nrules; r++) {
				char delay[16] = "";
				if (steps[si]) {
					qsort(dl[r], t[r].delay_n, sizeof dl[r][0], cmp_size);
					size_t md = dl[r][t[r].delay_n / 2];
					snprintf(delay, sizeof delay, md > 10 ? "-" : "%zu", md);
				}
				if (steps[si])
					printf(" %.0f / %.2f / %s / %.1f |",
					       100.0 * (double)t[r].found / (double)t[r].hist,
					       t[r].found ? (double)t[r].loc_sum / (double)t[r].found : 0,
					       delay, 1000.0 * (double)t[r].false_cp / (double)t[r].nights);
				else if (models[mi].ramp != 0)
					printf(" %.1f (ramp %.0f %% / %.2f; %.1f near it) |",
					       1000.0 * (double)t[r].false_cp / (double)t[r].nights,
					       100.0 * (double)t[r].ramp_hist / (double)t[r].hist,
					       (double)t[r].ramp_cp / (double)t[r].hist,
					       1000.0 * (double)t[r].ramp_near / (double)t[r].nights);
				else
					printf(" %.1f |", 1000.0 * (double)t[r].false_cp / (double)t[r].nights);
			}
			printf("\n");
			fflush(stdout);
		}
	}
	return 0;
}
