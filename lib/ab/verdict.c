/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict.c: the verdict of each benchmark of an A/B comparison and the
 * suite's geometric mean (verdict.h; the method is timeit-compare(1),
 * STATISTICS).  In short: pair the rounds when both sides have the same
 * ones; test the log-ratios (signed rank when paired, Mann-Whitney when
 * not) and estimate them (Hodges-Lehmann) with the interval the test
 * gives; control the false discovery rate across benchmarks; call a
 * change only when it is significant and its estimate beyond the gate,
 * and "unchanged" only when the equivalence interval lies within the
 * gate; identical binaries are the same code whatever the times say. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

const char *const ti_ab_verdict_name[TI_AB_VERDICTS] = {
	"improved", "regressed", "unchanged", "undecided", "changed", "missing", "failed",
};

/* Instruction counts within this relative difference are "the same
 * count": counts of one binary vary by a few hundred instructions (signal
 * delivery, page faults), far below 0.01 % of any benchmark. */
#define SAME_COUNT_TOLERANCE 1e-4

/* Comparisons with the gate allow for the rounding of the ratio itself:
 * 1.01 / 1.00 is 1.0100000000000000089 or 1.00999999999999998 depending
 * on the operands' representation, and a change of exactly the gate must
 * come out the same way every time.  A change counts as at least the gate
 * when it is within this relative margin of it. */
#define GATE_TOLERANCE 1e-9

void ti_ab_config_init(struct ti_ab_config *c)
{
	memset(c, 0, sizeof *c);
	c->metric = "exec_time";
	c->alpha = 0.05;
	c->min_change = 1;
	c->adjust = TI_STATS_ADJUST_BH;
	c->looks = 1;
	c->paired_test = TI_AB_SIGNED_RANK;
	c->geo = TI_AB_GEO_T;
	c->seed = 1;
	c->reps = 10000;
}

const char *ti_ab_adjust_name(enum ti_stats_adjust a)
{
	return a == TI_STATS_ADJUST_HOLM ? "holm" : a == TI_STATS_ADJUST_BH ? "bh" : "none";
}

__attribute__((format(printf, 3, 4)))
static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used && used + 2 < len) {
		strcat(buf, "; ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

#define NOTE(r, ...) add((r)->note, sizeof (r)->note, __VA_ARGS__)
#define REASON(r, ...) add((r)->reason, sizeof (r)->reason, __VA_ARGS__)

static void result_note(struct ti_ab_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void result_note(struct ti_ab_result *res, const char *fmt, ...)
{
	va_list ap;

	if (res->nnotes == TI_AB_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(res->notes[res->nnotes++], sizeof res->notes[0], fmt, ap);
	va_end(ap);
}

/* A sample takes part: it succeeded, has the metric, and is not dropped
 * for its noise flags. */
static bool usable(const struct ti_ab_sample *s, const struct ti_ab_config *c)
{
	return !s->failed && !isnan(s->value) && !(c->drop_flagged && s->flags);
}

/* The usable values of B into OUT; their count. */
static size_t values(const struct ti_ab_bench *b, const struct ti_ab_config *c, double *out)
{
	size_t k = 0;

	for (size_t i = 0; i < b->n; i++)
		if (usable(&b->s[i], c))
			out[k++] = b->s[i].value;
	return k;
}

/* Median instruction count of a side: valgrind's when VG, else the
 * hardware counter's; NAN when no sample has it. */
static double insn_median(const struct ti_ab_bench *b, bool vg, double *scratch)
{
	size_t k = 0;

	for (size_t i = 0; i < b->n; i++) {
		double x = vg ? b->s[i].vg_insn : b->s[i].insn;
		if (!b->s[i].failed && !isnan(x))
			scratch[k++] = x;
	}
	return k ? ti_stats_median(scratch, k) : NAN;
}

/* Median estimated cycles of a side, NAN when no sample has them. */
static double est_median(const struct ti_ab_bench *b, double *scratch)
{
	size_t k = 0;

	for (size_t i = 0; i < b->n; i++)
		if (!b->s[i].failed && !isnan(b->s[i].est_cycles))
			scratch[k++] = b->s[i].est_cycles;
	return k ? ti_stats_median(scratch, k) : NAN;
}

/* valgrind's cache-simulation metrics: comparable only between runs that
 * simulated the same caches with the same weights. */
static bool cache_metric(const char *metric)
{
	return strcmp(metric, "valgrind-est-cycles") == 0 || strcmp(metric, "valgrind-i1-misses") == 0 ||
	       strcmp(metric, "valgrind-d1-misses") == 0 || strcmp(metric, "valgrind-ll-misses") == 0 ||
	       strcmp(metric, "valgrind-mispredicts") == 0;
}

/* The two sides of R simulated the same caches. */
static bool same_geometry(const struct ti_ab_row *r)
{
	return r->a->geometry && r->b->geometry && !r->a->geometry_mixed && !r->b->geometry_mixed &&
	       strcmp(r->a->geometry, r->b->geometry) == 0;
}

/* Instruction counts and binary identity: facts about the code, noted
 * beside the time verdict (equal counts are not the same code: loop
 * order, layout and vector width change time at an equal count). */
static void classify_code(struct ti_ab_row *r, double *scratch)
{
	const struct ti_ab_bench *a = r->a, *b = r->b;
	double ia = insn_median(a, true, scratch), ib = insn_median(b, true, scratch);

	if (a->hash && b->hash && a->hash_kind == b->hash_kind && !a->hash_mixed &&
	    !b->hash_mixed)
		r->code = strcmp(a->hash, b->hash) == 0 ? TI_AB_CODE_SAME : TI_AB_CODE_CHANGED;
	/* valgrind's count is exact; the hardware one only when both lack it. */
	if (isnan(ia) || isnan(ib)) {
		ia = insn_median(a, false, scratch);
		ib = insn_median(b, false, scratch);
	}
	if (!isnan(ia) && !isnan(ib) && ia > 0)
		r->insn_change = ib / ia - 1;
	double ea = est_median(a, scratch), eb = est_median(b, scratch);
	if (!isnan(ea) && !isnan(eb) && ea > 0 && same_geometry(r))
		r->est_change = eb / ea - 1;
}

/* Every usable sample of both sides has one and the same value. */
static bool all_equal(const double *x, size_t m, const double *y, size_t n)
{
	for (size_t i = 0; i < m; i++)
		if (x[i] != x[0])
			return false;
	for (size_t j = 0; j < n; j++)
		if (y[j] != x[0])
			return false;
	return m > 0;
}

static bool constant(const double *x, size_t m)
{
	for (size_t i = 1; i < m; i++)
		if (x[i] != x[0])
			return false;
	return true;
}

/* A run's round and its value (NAN: failed, lacking or dropped). */
struct keyed {
	uint64_t round;
	double v;
};

static int cmp_keyed(const void *x, const void *y)
{
	uint64_t a = ((const struct keyed *)x)->round, b = ((const struct keyed *)y)->round;
	return (a > b) - (a < b);
}

/* The runs of B by round into OUT; false when two runs share a round
 * (then the rounds cannot be told apart). */
static bool by_round(const struct ti_ab_bench *b, const struct ti_ab_config *c, struct keyed *out)
{
	for (size_t i = 0; i < b->n; i++)
		out[i] = (struct keyed){ b->s[i].round, usable(&b->s[i], c) ? b->s[i].value : NAN };
	qsort(out, b->n, sizeof *out, cmp_keyed);
	for (size_t i = 1; i < b->n; i++)
		if (out[i].round == out[i - 1].round)
			return false;
	return true;
}

/* Scratch room for one row: the values of both sides, their rounds, the
 * paired values and their log-ratios. */
struct scratch {
	double *x, *y, *d, *px, *py;
	struct keyed *ka, *kb;
	struct ti_stats_cache cache;	/* the untied distributions, by sizes */
};

/* The values of the rounds both sides of R share into S->px, S->py and
 * their log-ratios ln(B_i / A_i) into S->d; their count, or 0 when the
 * rounds are not the same on both sides (a side with a round the other
 * lacks, or a round twice).  Rounds in which either side failed or was
 * dropped are left out. */
static size_t pair_rounds(const struct ti_ab_row *r, const struct ti_ab_config *c,
			  struct scratch *s)
{
	const struct ti_ab_bench *a = r->a, *b = r->b;
	size_t k = 0;

	if (a->n != b->n || !by_round(a, c, s->ka) || !by_round(b, c, s->kb))
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (s->ka[i].round != s->kb[i].round)
			return 0;
	for (size_t i = 0; i < a->n; i++) {
		if (isnan(s->ka[i].v) || isnan(s->kb[i].v))
			continue;
		s->px[k] = s->ka[i].v;
		s->py[k] = s->kb[i].v;
		/* Equal values are a ratio of exactly 1, whatever the precision
		 * log's two results were kept in. */
		s->d[k++] = s->ka[i].v == s->kb[i].v ? 0 : log(s->kb[i].v) - log(s->ka[i].v);
	}
	return k;
}


/* The test and the two intervals of one row, from S's values. */
static int measure(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha,
		   struct scratch *s, size_t m, size_t n)
{
	struct ti_stats_mw t;
	struct ti_stats_hl h, eq;
	size_t np = r->paired ? r->n_a : 0;
	int rc;

	if (r->paired) {
		switch (c->paired_test) {
		case TI_AB_SIGN:
			if ((rc = ti_stats_sign_test(s->d, np, alpha, &t, &h)) < 0 ||
			    (rc = ti_stats_sign_test(s->d, np, 2 * alpha, &t, &eq)) < 0)
				return rc;
			break;
		case TI_AB_PAIRED_T:
			if ((rc = ti_stats_paired_t(s->d, np, alpha, &t, &h)) < 0 ||
			    (rc = ti_stats_paired_t(s->d, np, 2 * alpha, &t, &eq)) < 0)
				return rc;
			break;
		case TI_AB_TRIMMED_T:
			if ((rc = ti_stats_trimmed_t(s->d, np, 0.2, alpha, &t, &h)) < 0 ||
			    (rc = ti_stats_trimmed_t(s->d, np, 0.2, 2 * alpha, &t, &eq)) < 0)
				return rc;
			break;
		case TI_AB_SIMES: {
			/* The paired test is exact under any load shared within
			 * a round but cannot go below 2^(1-n); Mann-Whitney on
			 * all values resolves far finer where the rounds share
			 * nothing.  Simes' combination of the two is valid for
			 * positively dependent tests (Sarkar 1998). */
			struct ti_stats_mw u;
			if ((rc = ti_stats_walsh(s->d, np, alpha, &h)) < 0 ||
			    (rc = ti_stats_walsh(s->d, np, 2 * alpha, &eq)) < 0 ||
			    (rc = ti_stats_signed_rank(s->d, np, &t)) < 0)
				return rc;
			for (size_t i = 0; i < m; i++)
				s->x[i] = log(s->x[i]);
			for (size_t j = 0; j < n; j++)
				s->y[j] = log(s->y[j]);
			if ((rc = ti_stats_mann_whitney_cached(s->x, m, s->y, n, &s->cache, &u)) < 0)
				return rc;
			t.p = fmin(1, fmin(2 * fmin(t.p, u.p), fmax(t.p, u.p)));
			break;
		}
		default:
			if ((rc = ti_stats_walsh(s->d, np, alpha, &h)) < 0 ||
			    (rc = ti_stats_walsh(s->d, np, 2 * alpha, &eq)) < 0 ||
			    (rc = ti_stats_signed_rank(s->d, np, &t)) < 0)
				return rc;
		}
		if (np >= 2)
			r->p = t.p;
	} else {
		for (size_t i = 0; i < m; i++)
			s->x[i] = log(s->x[i]);
		for (size_t j = 0; j < n; j++)
			s->y[j] = log(s->y[j]);
		if ((rc = ti_stats_hodges_lehmann_cached(s->x, m, s->y, n, alpha, &s->cache, &h)) < 0 ||
		    (rc = ti_stats_hodges_lehmann_cached(s->x, m, s->y, n, 2 * alpha, &s->cache, &eq)) < 0)
			return rc;
		if (m >= 2 && n >= 2) {
			if ((rc = ti_stats_mann_whitney_cached(s->x, m, s->y, n, &s->cache, &t)) < 0)
				return rc;
			r->p = t.p;
		}
	}
	r->est = h.shift;
	r->lo = h.lo;
	r->hi = h.hi;
	r->level = h.level;
	r->eq_lo = eq.lo;
	r->eq_hi = eq.hi;
	return 0;
}

/* R's medians and relative spreads from the samples its test uses: X of
 * A, Y of B (with pairing, only the rounds both sides have). */
static void centre(struct ti_ab_row *r, const double *x, size_t m, const double *y, size_t n)
{
	r->med_a = ti_stats_median(x, m);
	r->med_b = ti_stats_median(y, n);
	r->spread_a = m > 1 && r->med_a != 0 ? ti_stats_mad(x, m) / fabs(r->med_a) : NAN;
	r->spread_b = n > 1 && r->med_b != 0 ? ti_stats_mad(y, n) / fabs(r->med_b) : NAN;
}

/* Everything about one benchmark found on both sides, but for the
 * decision that needs the adjusted p-values.  Returns 1 when that
 * decision is still to be made, 0 when the row is decided, or -ENOMEM. */
static int measure_row(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha,
		       bool pair, struct scratch *s)
{
	const struct ti_ab_bench *a = r->a, *b = r->b;
	size_t m = values(a, c, s->x), n = values(b, c, s->y);

	r->failed_a = a->failures;
	r->failed_b = b->failures;
	for (size_t i = 0; i < a->n; i++)
		r->flagged_a += !a->s[i].failed && !isnan(a->s[i].value) && a->s[i].flags;
	for (size_t i = 0; i < b->n; i++)
		r->flagged_b += !b->s[i].failed && !isnan(b->s[i].value) && b->s[i].flags;
	classify_code(r, s->d);
	if (a->ok == 0 || b->ok == 0) {
		bool fa = a->ok == 0 && a->failures, fb = b->ok == 0 && b->failures;
		r->n_a = a->ok;
		r->n_b = b->ok;
		r->v = fa || fb ? TI_AB_FAILED : TI_AB_MISSING;
		if (fa || fb)
			REASON(r, "every run on %s failed (%s)", fa && fb ? "A and B" : fa ? "A" : "B",
			       fa ? a->failed_in : b->failed_in);
		else
			REASON(r, "no %s in %s", c->metric, !a->ok && !b->ok ? "A or B" : !a->ok ? "A" : "B");
		return 0;
	}
	if (a->failures)
		NOTE(r, "%zu of %zu runs on A failed (%s)", a->failures, a->n, a->failed_in);
	if (b->failures)
		NOTE(r, "%zu of %zu runs on B failed (%s)", b->failures, b->n, b->failed_in);
	/* A run that succeeded but lacks the metric (a summary without its
	 * line) is left out, and said. */
	for (int side = 0; side < 2; side++) {
		const struct ti_ab_bench *e = side ? b : a;
		size_t gap = 0;
		for (size_t i = 0; i < e->n; i++)
			gap += !e->s[i].failed && isnan(e->s[i].value);
		if (gap)
			NOTE(r, "no %s in %zu of %zu runs on %s", c->metric, gap, e->n,
			     side ? "B" : "A");
	}
	if (cache_metric(c->metric) && !same_geometry(r)) {
		r->v = TI_AB_MISSING;
		r->n_a = a->ok;
		r->n_b = b->ok;
		if (a->geometry_mixed || b->geometry_mixed)
			REASON(r, "the runs of %s simulated different caches: not comparable",
			       a->geometry_mixed ? "A" : "B");
		else
			REASON(r, "cache geometries differ (A: %s; B: %s): not comparable",
			       a->geometry ? a->geometry : "none", b->geometry ? b->geometry : "none");
		return 0;
	}
	r->n_a = m;
	r->n_b = n;
	if (m == 0 || n == 0) {
		r->v = TI_AB_UNDECIDED;
		r->decidable = true;
		REASON(r, "every sample on %s flagged and dropped (--drop-flagged)",
		       !m && !n ? "A and B" : !m ? "A" : "B");
		return 0;
	}
	centre(r, s->x, m, s->y, n);
	if (all_equal(s->x, m, s->y, n)) {
		/* Nothing moved at all: a counter, or a time at the clock's
		 * resolution, that is the same in every run. */
		r->v = TI_AB_UNCHANGED;
		r->est = r->lo = r->hi = r->eq_lo = r->eq_hi = 0;
		REASON(r, "every sample equal");
		return 0;
	}
	for (size_t i = 0; i < m; i++)
		if (!(s->x[i] > 0))
			goto no_ratio;
	for (size_t j = 0; j < n; j++)
		if (!(s->y[j] > 0))
			goto no_ratio;
	/* valgrind's count is exact: when it is the same in every sample of
	 * a side there is no noise to test against, and the change is what
	 * it is (its interval a single point). */
	if (strncmp(c->metric, "valgrind-", 9) == 0 && constant(s->x, m) && constant(s->y, n)) {
		r->exact = true;
		r->est = r->lo = r->hi = r->eq_lo = r->eq_hi = log(s->y[0] / s->x[0]);
		r->level = 1;
		return 1;
	}
	if (c->pairing != TI_AB_PAIR_NEVER) {
		size_t np = pair_rounds(r, c, s), zero = 0;
		for (size_t i = 0; i < np; i++)
			zero += s->d[i] == 0;
		if (np > 0 && zero == np) {
			/* Both sides measured exactly the same in every round. */
			r->paired = true;
			r->n_a = r->n_b = np;
			centre(r, s->px, np, s->py, np);
			r->v = TI_AB_UNCHANGED;
			r->est = r->lo = r->hi = r->eq_lo = r->eq_hi = 0;
			REASON(r, "every round equal on both sides");
			return 0;
		}
		/* Pairs only where their test can reach alpha at all: 5
		 * pairs cannot (p >= 1/16), 5 + 5 samples unpaired can. */
		bool reach = ti_stats_min_p_signed_rank(np) < alpha ||
			     c->pairing == TI_AB_PAIR_ALWAYS;
		if (pair && np > 0 && reach) {
			r->paired = true;
			r->n_a = r->n_b = np;
			centre(r, s->px, np, s->py, np);
		} else if (pair && np > 1) {
			NOTE(r, "unpaired: %zu pairs cannot reach p %g", np, alpha);
		} else if (pair && (m > 1 || n > 1)) {
			NOTE(r, "unpaired: the rounds of A and B differ");
		}
	}
	int rc = measure(r, c, alpha, s, m, n);
	return rc < 0 ? rc : 1;
no_ratio:
	/* A time of 0 (below the clock's resolution) has no logarithm. */
	r->v = TI_AB_UNDECIDED;
	REASON(r, "values <= 0: no ratio, no test");
	return 0;
}

/* The noise floor of one benchmark from an A/A pair: how far the medians
 * of two runs of the same build moved, and at least the pooled relative
 * spread of their samples, on the ln scale. */
static double noise_floor(const struct ti_ab_bench *x, const struct ti_ab_bench *y,
			  const struct ti_ab_config *c, struct scratch *s)
{
	size_t m = values(x, c, s->x), n = values(y, c, s->y);
	double f, spread;

	if (!m || !n)
		return NAN;
	for (size_t i = 0; i < m + n; i++) {
		double v = i < m ? s->x[i] : s->y[i - m];
		if (!(v > 0))
			return NAN;
		s->d[i] = log(v);
	}
	f = fabs(ti_stats_median(s->d + m, n) - ti_stats_median(s->d, m));
	spread = m + n >= 3 ? ti_stats_mad(s->d, m + n) : 0;
	return fmax(f, spread);
}

/* |expm1(L)| reaches the gate G (a fraction). */
static bool beyond_gate(double l, double g)
{
	double e = fabs(expm1(l));
	return g > 0 ? e >= g * (1 - GATE_TOLERANCE) : e > 0;
}

/* The interval LO..HI (ln) lies within +-G. */
static bool within_gate(double lo, double hi, double g)
{
	double tol = g * (1 - GATE_TOLERANCE);
	return isfinite(lo) && isfinite(hi) && expm1(lo) > -tol && expm1(hi) < tol;
}

static void pct(char *s, size_t len, double l)
{
	snprintf(s, len, "%+.2f%%", 100 * expm1(l));
}

/* The verdict of a row whose test (if any) has its adjusted p-value. */
static void decide(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha)
{
	double g = c->min_change / 100;
	bool floor_known = !isnan(r->floor);
	char e[32], lo[32], hi[32];

	pct(e, sizeof e, r->est);
	if (r->exact) {
		bool beyond = beyond_gate(r->est, g);
		r->v = !beyond ? TI_AB_UNCHANGED : r->est > 0 ? TI_AB_REGRESSED : TI_AB_IMPROVED;
		if (r->est == 0)
			REASON(r, "exact count, equal");
		else
			REASON(r, "exact count, %s %s the +-%g%% gate", e, beyond ? "beyond" : "within",
			       c->min_change);
		return;
	}
	if (isnan(r->p)) {
		if (floor_known) {
			/* One sample a side: the A/A noise floor stands in for
			 * the spread a test would measure. */
			char f[32];
			snprintf(f, sizeof f, "%.2f%%", 100 * expm1(r->floor));
			if (beyond_gate(r->est, g) && fabs(r->est) > r->floor) {
				r->v = r->est > 0 ? TI_AB_REGRESSED : TI_AB_IMPROVED;
				REASON(r, "n=%zu/%zu: %s, beyond the A/A noise floor %s", r->n_a, r->n_b,
				       e, f);
			} else if (within_gate(r->est - r->floor, r->est + r->floor, g)) {
				r->v = TI_AB_UNCHANGED;
				REASON(r, "n=%zu/%zu: %s and the A/A noise floor %s within +-%g%%",
				       r->n_a, r->n_b, e, f, c->min_change);
			} else {
				r->v = TI_AB_UNDECIDED;
				r->decidable = true;
				REASON(r, "n=%zu/%zu: %s within the A/A noise floor %s", r->n_a, r->n_b,
				       e, f);
			}
			return;
		}
		r->v = TI_AB_UNDECIDED;
		r->decidable = true;
		REASON(r, "n=%zu/%zu: too few samples for a test", r->n_a, r->n_b);
		return;
	}
	bool sig = r->p_adj < alpha, beyond = beyond_gate(r->est, g);
	bool floor_ok = !floor_known || fabs(r->est) > r->floor;
	if (sig && beyond && floor_ok) {
		r->v = r->est > 0 ? TI_AB_REGRESSED : TI_AB_IMPROVED;
		REASON(r, "significant, %s beyond the +-%g%% gate", e, c->min_change);
		return;
	}
	if (within_gate(r->eq_lo, r->eq_hi, g)) {
		r->v = TI_AB_UNCHANGED;
		pct(lo, sizeof lo, r->eq_lo);
		pct(hi, sizeof hi, r->eq_hi);
		REASON(r, "equivalent: %.0f%% interval %s..%s within +-%g%%",
		       100 * (1 - 2 * alpha), lo, hi, c->min_change);
		if (sig)
			REASON(r, "significant, below the gate");
		return;
	}
	r->v = TI_AB_UNDECIDED;
	r->decidable = true;
	double best = r->paired ? ti_stats_min_p_signed_rank(r->n_a)
				: ti_stats_min_p_mann_whitney(r->n_a, r->n_b);
	if (sig && beyond && !floor_ok) {
		char f[32];
		snprintf(f, sizeof f, "%.2f%%", 100 * expm1(r->floor));
		REASON(r, "significant, but %s within the A/A noise floor %s", e, f);
	} else if (best >= alpha) {
		char nn[64];
		if (r->paired)
			snprintf(nn, sizeof nn, "%zu pairs", r->n_a);
		else
			snprintf(nn, sizeof nn, "%zu + %zu samples", r->n_a, r->n_b);
		REASON(r, "too few samples: %s cannot reach p %.3g (smallest possible p %.3g)", nn,
		       alpha, best);
	} else if (sig) {
		REASON(r, "significant, but %s below the +-%g%% gate and not shown within it", e,
		       c->min_change);
	} else if (!isfinite(r->eq_lo) || !isfinite(r->eq_hi)) {
		REASON(r, "too few samples for an interval");
	} else {
		pct(lo, sizeof lo, r->eq_lo);
		pct(hi, sizeof hi, r->eq_hi);
		if ((r->eq_lo > 0 && beyond_gate(r->eq_lo, g)) || (r->eq_hi < 0 && beyond_gate(r->eq_hi, g)))
			REASON(r, "%.0f%% interval %s..%s beyond the gate, but not significant after "
			       "adjustment (p %.3g)", 100 * (1 - 2 * alpha), lo, hi, r->p_adj);
		else
			REASON(r, "spread larger than the change: %.0f%% interval %s..%s crosses +-%g%%",
			       100 * (1 - 2 * alpha), lo, hi, c->min_change);
	}
}

/* Facts about the code and the samples, after the verdict. */
static void annotate(struct ti_ab_row *r, const struct ti_ab_config *c, struct ti_ab_result *res)
{
	bool same_count = !isnan(r->insn_change) && fabs(r->insn_change) <= SAME_COUNT_TOLERANCE;

	/* With the count as the metric the change says it all. */
	if (strstr(c->metric, "instructions"))
		r->insn_change = NAN, same_count = false;
	if (cache_metric(c->metric))
		r->est_change = NAN;
	/* The simulated cost beside the time: a time change the cost does
	 * not show is labelled as such. */
	if (!isnan(r->est_change)) {
		bool est_same = fabs(r->est_change) <= SAME_COUNT_TOLERANCE;
		if (est_same && (r->v == TI_AB_IMPROVED || r->v == TI_AB_REGRESSED))
			NOTE(r, "time changed, est. cycles unchanged");
		else if (est_same)
			NOTE(r, "est. cycles unchanged");
		else
			NOTE(r, "est. cycles %+.2f%%", 100 * r->est_change);
	}

	if (r->code == TI_AB_CODE_SAME) {
		res->same_binary++;
		r->time_v = r->v;
		if (r->v == TI_AB_IMPROVED || r->v == TI_AB_REGRESSED || r->v == TI_AB_UNDECIDED) {
			res->same_binary_sig += r->v != TI_AB_UNDECIDED;
			char was[sizeof r->reason];
			snprintf(was, sizeof was, "%s", r->reason);
			r->reason[0] = '\0';
			REASON(r, "same binary: the difference is the machine's (times alone: %s, %s)",
			       ti_ab_verdict_name[r->v], was);
			r->v = TI_AB_UNCHANGED;
			r->decidable = false;
		} else if (r->v == TI_AB_UNCHANGED) {
			char was[sizeof r->reason];
			snprintf(was, sizeof was, "%s", r->reason);
			r->reason[0] = '\0';
			REASON(r, "same binary; %s", was);
		}
	} else if (r->code == TI_AB_CODE_CHANGED && same_count) {
		NOTE(r, "code changed, same instruction count");
	} else if (same_count) {
		NOTE(r, "same instruction count");
	} else if (!isnan(r->insn_change)) {
		NOTE(r, "instructions %+.2f%%", 100 * r->insn_change);
	}
	if (r->flagged_a + r->flagged_b)
		NOTE(r, "%zu of %zu samples flagged", r->flagged_a + r->flagged_b,
		     r->a->ok + r->b->ok);
}

/* -m hash: the identity is the comparison. */
static void decide_identity(struct ti_ab_row *r)
{
	const struct ti_ab_bench *a = r->a, *b = r->b;

	if (!a->hash || !b->hash || a->hash_kind != b->hash_kind) {
		r->v = TI_AB_MISSING;
		REASON(r, "no comparable hash on %s", !a->hash ? "A" : !b->hash ? "B" : "both sides");
	} else if (a->hash_mixed || b->hash_mixed) {
		r->v = TI_AB_UNDECIDED;
		REASON(r, "the runs of %s report different binaries", a->hash_mixed ? "A" : "B");
	} else if (strcmp(a->hash, b->hash) == 0) {
		r->v = TI_AB_UNCHANGED;
		r->code = TI_AB_CODE_SAME;
		REASON(r, "same binary");
	} else {
		r->v = TI_AB_CHANGED;
		r->code = TI_AB_CODE_CHANGED;
		REASON(r, "binaries differ");
	}
}

/* --strict: any failure, or B lost what A had: a benchmark that B does
 * not have, or whose metric B lacks while A has it, would pass a CI gate
 * unseen otherwise. */
static bool strict_gate(const struct ti_ab_row *r)
{
	if ((r->a && r->a->failures) || (r->b && r->b->failures))
		return true;
	return r->a && (!r->b || (r->a->ok > 0 && r->b->ok == 0));
}

static void init_row(struct ti_ab_row *r)
{
	memset(r, 0, sizeof *r);
	r->med_a = r->med_b = r->est = r->lo = r->hi = r->eq_lo = r->eq_hi = NAN;
	r->p = r->p_adj = r->floor = r->spread_a = r->spread_b = r->level = NAN;
	r->insn_change = r->est_change = NAN;
	r->time_v = TI_AB_VERDICTS;
}

static bool is_hash(const struct ti_ab_config *c)
{
	return strcmp(c->metric, "hash") == 0;
}

/* Build the rows: union of both sides' benchmark names, sorted, into
 * RES->rows.  Returns 0 or -ENOMEM. */
static int build_rows(const struct ti_ab_config *c, const struct ti_ab_set *sa,
		      const struct ti_ab_set *sb, const struct ti_ab_set *fa,
		      const struct ti_ab_set *fb, double alpha, struct scratch *s,
		      bool *pending, struct ti_ab_result *res)
{
	struct ti_ab_row *rows = calloc(sa->n + sb->n + 1, sizeof *rows);
	size_t n = 0, i = 0, j = 0;
	int rc;

	if (!rows)
		return -ENOMEM;
	res->rows = rows;
	while (i < sa->n || j < sb->n) {
		int cmp = i >= sa->n ? 1 : j >= sb->n ? -1 : strcmp(sa->b[i].name, sb->b[j].name);
		struct ti_ab_row *r = &rows[n];

		init_row(r);
		pending[n] = false;
		r->a = cmp <= 0 ? &sa->b[i++] : NULL;
		r->b = cmp >= 0 ? &sb->b[j++] : NULL;
		r->name = r->a ? r->a->name : r->b->name;
		if (c->keep && !c->keep(r->name, c->keep_arg))
			continue;
		n++;
		if (!r->a || !r->b) {
			const struct ti_ab_bench *only = r->a ? r->a : r->b;
			r->v = TI_AB_MISSING;
			r->n_a = r->a ? r->a->ok : 0;
			r->n_b = r->b ? r->b->ok : 0;
			REASON(r, "only in %s", r->a ? "A" : "B");
			if (values(only, c, s->x)) {
				double med = ti_stats_median(s->x, values(only, c, s->x));
				*(r->a ? &r->med_a : &r->med_b) = med;
			}
			continue;
		}
		if (is_hash(c)) {
			decide_identity(r);
			continue;
		}
		if ((rc = measure_row(r, c, alpha, res->pair, s)) < 0)
			return rc;
		pending[n - 1] = rc == 1;
		if (c->filter_short > 0 && !isnan(r->med_a) &&
		    fmax(r->med_a, r->med_b) < c->filter_short) {
			n--;
			continue;
		}
		if (fa && fb) {
			const struct ti_ab_bench *x = ti_ab_find(fa, r->name);
			const struct ti_ab_bench *y = ti_ab_find(fb, r->name);
			if (x && y)
				r->floor = noise_floor(x, y, c, s);
		}
	}
	res->n = n;
	return 0;
}

/* Adjust the p-values of the PENDING rows across benchmarks, decide
 * them, and note the facts of every row found on both sides. */
static int adjust_and_decide(struct ti_ab_result *res, const struct ti_ab_config *c, double alpha,
			     const bool *pending)
{
	struct ti_ab_row *rows = res->rows;
	size_t n = res->n, ntest = 0, best_m = 0;
	double *p = malloc((n ? n : 1) * sizeof *p), best = 2;
	bool best_paired = false;

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		p[i] = pending[i] ? rows[i].p : NAN;
		if (isnan(p[i]))
			continue;
		ntest++;
		double mp = rows[i].paired ? ti_stats_min_p_signed_rank(rows[i].n_a)
					   : ti_stats_min_p_mann_whitney(rows[i].n_a, rows[i].n_b);
		if (mp < best) {
			best = mp;
			best_m = rows[i].n_a;
			best_paired = rows[i].paired;
		}
	}
	/* With few samples no p-value can fall below alpha at all (2 a side:
	 * p >= 1/3; 5 pairs: p >= 1/16), whatever the adjustment; Holm's
	 * first step compares the smallest p with alpha / tests, which may
	 * be out of reach while alpha is not.  Say so rather than leave every
	 * benchmark undecided without a word. */
	if (ntest > 0 && best >= alpha)
		result_note(res, "no test can reach alpha %g with these sample counts, whatever the "
			    "adjustment (smallest possible p %.4g, with %zu %s); take more samples",
			    alpha, best, best_m, best_paired ? "pairs" : "and more samples a side");
	else if (c->adjust == TI_STATS_ADJUST_HOLM && ntest > 1 && best * (double)ntest >= alpha)
		result_note(res, "with %zu tests and these sample counts no benchmark can pass Holm "
			    "at alpha %g (smallest possible p %.4g); take more samples, or use the "
			    "default false-discovery-rate control", ntest, alpha, best);
	if (ti_stats_adjust(p, n, c->adjust, p) < 0) {
		free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (pending[i]) {
			rows[i].p_adj = p[i];
			decide(&rows[i], c, alpha);
		}
		if (rows[i].a && rows[i].b && rows[i].v != TI_AB_MISSING &&
		    rows[i].v != TI_AB_FAILED && !is_hash(c))
			annotate(&rows[i], c, res);
	}
	free(p);
	return 0;
}

/* The geometric mean of B/A over the benchmarks with a ratio (both sides
 * above 0: one whose samples are all 0 on both sides has none and is
 * left out), with an interval: Student's t over the benchmarks'
 * log-ratios, or a bootstrap of their mean (bench/ab-sim measured both);
 * a single benchmark's own interval. */
static int geomean(const struct ti_ab_result *res, const struct ti_ab_config *c,
		   struct ti_ab_geomean *out)
{
	struct ti_ab_geomean g = { 0, NAN, NAN, NAN, NULL };
	size_t n = res->n;
	double *l = malloc((n ? n : 1) * sizeof *l), sum = 0, ss = 0;
	const struct ti_ab_row *one = NULL;

	if (!l)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct ti_ab_row *r = &res->rows[i];
		if (r->v != TI_AB_MISSING && r->v != TI_AB_FAILED && isfinite(r->est) &&
		    r->med_a > 0 && r->med_b > 0) {
			l[g.n++] = r->est;
			one = r;
		}
	}
	if (g.n) {
		for (size_t i = 0; i < g.n; i++)
			sum += l[i];
		double mean = sum / (double)g.n;
		g.ratio = exp(mean);
		if (g.n == 1) {
			g.lo = exp(one->lo);
			g.hi = exp(one->hi);
			g.method = "one benchmark";
		} else if (c->geo == TI_AB_GEO_BOOTSTRAP) {
			if (ti_stats_bootstrap_mean(l, g.n, (unsigned)c->reps, 1 - c->alpha, c->seed,
						    &g.lo, &g.hi) < 0) {
				free(l);
				return -ENOMEM;
			}
			g.lo = exp(g.lo);
			g.hi = exp(g.hi);
			g.method = "bootstrap";
		} else {
			for (size_t i = 0; i < g.n; i++)
				ss += (l[i] - mean) * (l[i] - mean);
			double se = sqrt(ss / (double)(g.n - 1) / (double)g.n);
			double q = ti_stats_t_quantile(1 - c->alpha / 2, (double)(g.n - 1));
			g.lo = exp(mean - q * se);
			g.hi = exp(mean + q * se);
			g.method = "t";
		}
	}
	free(l);
	*out = g;
	return 0;
}

static int cmp_plain(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* Whether to pair: the rank correlation of A_i with B_i over the rounds
 * of each benchmark both sides have, its median over those with enough
 * rounds (timeit-compare(1), STATISTICS).  Pairing removes the machine's
 * state that A_i and B_i share; where they share none it only coarsens
 * the exact p-values (2^(1-n) at best), and Mann-Whitney on all samples
 * decides sooner.  bench/ab-sim measured both under ten noise models. */
static int decide_pairing(const struct ti_ab_config *c, const struct ti_ab_set *sa,
			  const struct ti_ab_set *sb, struct scratch *s, struct ti_ab_result *res)
{
	double *rho = malloc((sa->n + 1) * sizeof *rho);
	size_t k = 0, i = 0, j = 0;

	res->pair = c->pairing == TI_AB_PAIR_ALWAYS;
	res->pair_corr = NAN;
	if (c->pairing == TI_AB_PAIR_NEVER) {
		free(rho);
		return 0;
	}
	if (!rho)
		return -ENOMEM;
	while (i < sa->n && j < sb->n) {
		int cmp = strcmp(sa->b[i].name, sb->b[j].name);
		if (cmp) {
			cmp < 0 ? i++ : j++;
			continue;
		}
		struct ti_ab_row r;
		init_row(&r);
		r.a = &sa->b[i++];
		r.b = &sb->b[j++];
		if (c->keep && !c->keep(r.a->name, c->keep_arg))
			continue;
		size_t np = pair_rounds(&r, c, s);
		if (np >= TI_AB_PAIR_MIN_ROUNDS) {
			double q = ti_stats_spearman(s->px, s->py, np);
			if (!isnan(q))
				rho[k++] = q;
		}
	}
	if (k) {
		qsort(rho, k, sizeof *rho, cmp_plain);
		res->pair_corr = ti_stats_quantile_sorted(rho, k, 0.5);
		res->pair_corr_n = k;
	}
	/* Without enough rounds to judge, do not pair: fewer than 5 pairs
	 * cannot reach p 0.05 at all (2^(1-n) >= 1/16), 4 + 4 samples
	 * unpaired can. */
	if (c->pairing == TI_AB_PAIR_AUTO)
		res->pair = k && res->pair_corr >= TI_AB_PAIR_CORRELATION;
	free(rho);
	return 0;
}

/* The most runs of one benchmark in SET. */
static size_t most(const struct ti_ab_set *set)
{
	size_t m = 0;

	for (size_t i = 0; set && i < set->n; i++)
		if (set->b[i].n > m)
			m = set->b[i].n;
	return m;
}

int ti_ab_verdict_run(const struct ti_ab_config *c, const struct ti_ab_set *a,
		      const struct ti_ab_set *b, const struct ti_ab_set *fa,
		      const struct ti_ab_set *fb, struct ti_ab_result *r)
{
	size_t room = most(a) + most(b) + most(fa) + most(fb) + 1;
	double alpha = c->alpha / (c->looks ? c->looks : 1);
	struct scratch s = { 0 };
	bool *pending = malloc((a->n + b->n + 1) * sizeof *pending);
	int rc = -ENOMEM;

	memset(r, 0, sizeof *r);
	r->alpha_look = alpha;
	s.x = malloc(room * sizeof *s.x);
	s.y = malloc(room * sizeof *s.y);
	s.d = malloc(room * sizeof *s.d);
	s.px = malloc(room * sizeof *s.px);
	s.py = malloc(room * sizeof *s.py);
	s.ka = malloc(room * sizeof *s.ka);
	s.kb = malloc(room * sizeof *s.kb);
	if (s.x && s.y && s.d && s.px && s.py && s.ka && s.kb && pending &&
	    (rc = decide_pairing(c, a, b, &s, r)) == 0)
		rc = build_rows(c, a, b, fa, fb, alpha, &s, pending, r);
	free(s.x);
	free(s.y);
	free(s.d);
	free(s.px);
	free(s.py);
	free(s.ka);
	free(s.kb);
	ti_stats_cache_free(&s.cache);
	if (rc == 0)
		rc = adjust_and_decide(r, c, alpha, pending);
	free(pending);
	if (rc == 0)
		rc = geomean(r, c, &r->geomean);
	for (size_t i = 0; rc == 0 && i < r->n; i++) {
		struct ti_ab_row *row = &r->rows[i];
		if (row->v == TI_AB_MISSING || row->v == TI_AB_FAILED)
			continue;
		r->used += row->n_a + row->n_b;
		r->flagged += row->flagged_a + row->flagged_b;
	}
	for (size_t i = 0; rc == 0 && i < r->n; i++) {
		struct ti_ab_row *row = &r->rows[i];
		row->gating = row->v == TI_AB_REGRESSED || (c->strict && strict_gate(row));
		r->regressed |= row->gating;
		if (c->drop_flagged && row->a && row->b && (row->flagged_a || row->flagged_b) &&
		    row->v != TI_AB_MISSING && row->v != TI_AB_FAILED)
			NOTE(row, "--drop-flagged left %zu of %zu and %zu of %zu samples", row->n_a,
			     row->a->ok, row->n_b, row->b->ok);
	}
	if (rc == 0 && r->flagged && !c->drop_flagged && 2 * r->flagged > r->used)
		result_note(r, "verdicts rest mostly on flagged samples: timeit's noise screen "
			    "flagged %zu of %zu (--drop-flagged leaves them out)", r->flagged, r->used);
	if (rc == 0 && r->same_binary && r->same_binary_sig)
		result_note(r, "%zu benchmark%s identical binaries on both sides; the times alone "
			    "would call %zu of them improved or regressed: this machine's noise, not "
			    "the code's", r->same_binary, r->same_binary == 1 ? " has" : "s have",
			    r->same_binary_sig);
	else if (rc == 0 && r->same_binary)
		result_note(r, "%zu benchmark%s identical binaries on both sides; the times alone "
			    "would call none of them improved or regressed", r->same_binary,
			    r->same_binary == 1 ? " has" : "s have");
	if (rc < 0)
		ti_ab_result_free(r);
	return rc;
}

void ti_ab_result_free(struct ti_ab_result *r)
{
	free(r->rows);
	memset(r, 0, sizeof *r);
}
