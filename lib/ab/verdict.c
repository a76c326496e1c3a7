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

#include "report.h"
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
	c->paired_test = TI_AB_RANK_OR_T;
	c->unpaired_test = TI_AB_WELCH_HSU;
	c->geo = TI_AB_GEO_ROUND;
	c->t_share = 0.8;
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
	/* One sample a side shows nothing about its spread. */
	return m > 1 && n > 1;
}

static bool constant(const double *x, size_t m)
{
	for (size_t i = 1; i < m; i++)
		if (x[i] != x[0])
			return false;
	return true;
}

/* The N log-ratios D all the same, to a part in 1e9. */
static bool same_ratio(const double *d, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (fabs(d[i] - d[0]) > 1e-9)
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
	double *x, *y, *d, *px, *py, *w;
	struct keyed *ka, *kb;
	uint64_t *rk;		/* the rounds of the pairs */
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
		s->rk[k] = s->ka[i].round;
		s->px[k] = s->ka[i].v;
		s->py[k] = s->kb[i].v;
		/* Equal values are a ratio of exactly 1, whatever the precision
		 * log's two results were kept in. */
		s->d[k++] = s->ka[i].v == s->kb[i].v ? 0 : log(s->kb[i].v) - log(s->ka[i].v);
	}
	return k;
}


/* The resolution of the values of a row on the ln scale: the smallest
 * gap between two distinct values, relative to their median (W: scratch
 * of M + N).  Values written with 4 decimals are never closer than 1e-4;
 * the t tests take the sd of a value rounded to it, RES / sqrt(12), as
 * their floor (Sheppard's correction), so that samples that look the
 * same are not a spread of 0. */
static double resolution(const double *x, size_t m, const double *y, size_t n, double *w)
{
	double gap = INFINITY;

	memcpy(w, x, m * sizeof *w);
	memcpy(w + m, y, n * sizeof *w);
	ti_stats_sort(w, m + n);
	for (size_t i = 1; i < m + n; i++)
		if (w[i] > w[i - 1] && w[i] - w[i - 1] < gap)
			gap = w[i] - w[i - 1];
	double med = ti_stats_quantile_sorted(w, m + n, 0.5);
	return isfinite(gap) && med > 0 ? gap / med : 0;
}

/* The other test a row may be decided by (TI_AB_RANK_OR_T): chosen once
 * the number of tests is known. */
struct alt {
	double p, est, lo, hi, level, eq_lo, eq_hi;
	const char *test;
};

/* The test and the two intervals of one row, from S's values; ALT gets
 * the t test where the rule may choose it instead. */
/* The paired test of C on R's NP log-ratios (S->d), its interval H at
 * 1 - ALPHA and EQ at 1 - 2 ALPHA; the rank test's t alternative in ALT. */
static int measure_paired(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha,
			  struct scratch *s, size_t m, size_t n, struct alt *alt,
			  struct ti_stats_hl *hp, struct ti_stats_hl *eqp)
{
	struct ti_stats_mw t;
	struct ti_stats_hl h, eq;
	size_t np = r->n_a;
	int rc;

	/* The log-ratio of two values rounded to RES: sd RES sqrt(2/12). */
	double fl = resolution(s->px, np, s->py, np, s->w) * sqrt(2.0 / 12);
	switch (c->paired_test) {
	case TI_AB_SIGN:
		if ((rc = ti_stats_sign_test(s->d, np, alpha, &t, &h)) < 0 ||
		    (rc = ti_stats_sign_test(s->d, np, 2 * alpha, &t, &eq)) < 0)
			return rc;
		r->test = "sign";
		r->min_p = ti_stats_min_p_signed_rank(np);
		break;
	case TI_AB_PAIRED_T:
	case TI_AB_TRIMMED_T: {
		double trim = c->paired_test == TI_AB_TRIMMED_T ? 0.2 : 0;
		if ((rc = ti_stats_t1(s->d, np, trim, fl, alpha, &t, &h)) < 0 ||
		    (rc = ti_stats_t1(s->d, np, trim, fl, 2 * alpha, &t, &eq)) < 0)
			return rc;
		r->test = trim > 0 ? "Yuen" : "t";
		break;
	}
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
		r->test = "Simes";
		break;
	}
	case TI_AB_RANK_OR_T:
	case TI_AB_RANK_OR_YUEN: {
		double trim = c->paired_test == TI_AB_RANK_OR_YUEN ? 0.2 : 0;
		struct ti_stats_hl ah, aeq;
		struct ti_stats_mw at;
		/* The t's p is exact only for normal log-ratios, and an exact
		 * p under Benjamini-Hochberg spends all of alpha in an A/A
		 * suite (Simes 1986): any skew or light tail at 6-10 pairs
		 * takes it above.  The t spends a share of alpha' (its p
		 * divided by T_SHARE; bench/ab-sim --table aa measured the
		 * share); its intervals stay at the rows' level, the one the
		 * report prints. */
		double k = c->t_share > 0 && c->t_share <= 1 ? c->t_share : 1;
		if ((rc = ti_stats_t1(s->d, np, trim, fl, alpha, &at, &ah)) < 0 ||
		    (rc = ti_stats_t1(s->d, np, trim, fl, 2 * alpha, &at, &aeq)) < 0)
			return rc;
		*alt = (struct alt){ fmin(1, at.p / k), ah.shift, ah.lo, ah.hi, ah.level, aeq.lo, aeq.hi,
				     trim > 0 ? "Yuen" : "t" };
	}
		/* fall through */
	default:
		if ((rc = ti_stats_walsh(s->d, np, alpha, &h)) < 0 ||
		    (rc = ti_stats_walsh(s->d, np, 2 * alpha, &eq)) < 0 ||
		    (rc = ti_stats_signed_rank(s->d, np, &t)) < 0)
			return rc;
		r->test = "signed rank";
		r->min_p = ti_stats_min_p_signed_rank(np);
	}
	r->p = np < 2 ? NAN : t.p;
	*hp = h;
	*eqp = eq;
	return 0;
}

/* The unpaired test of C on R's M and N values (S->x, S->y, made
 * logarithms), its interval H at 1 - ALPHA and EQ at 1 - 2 ALPHA. */
static int measure_unpaired(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha,
			    struct scratch *s, size_t m, size_t n, struct ti_stats_hl *hp,
			    struct ti_stats_hl *eqp)
{
	struct ti_stats_mw t;
	struct ti_stats_hl h, eq;
	int rc;

	double fl = resolution(s->x, m, s->y, n, s->w) / sqrt(12);
	for (size_t i = 0; i < m; i++)
		s->x[i] = log(s->x[i]);
	for (size_t j = 0; j < n; j++)
		s->y[j] = log(s->y[j]);
	if (c->unpaired_test == TI_AB_WELCH || c->unpaired_test == TI_AB_WELCH_HSU ||
	    c->unpaired_test == TI_AB_YUEN2) {
		double trim = c->unpaired_test == TI_AB_YUEN2 ? 0.2 : 0;
		bool hsu = c->unpaired_test == TI_AB_WELCH_HSU;
		if ((rc = ti_stats_t2(s->x, m, s->y, n, trim, hsu, fl, alpha, &t, &h)) < 0 ||
		    (rc = ti_stats_t2(s->x, m, s->y, n, trim, hsu, fl, 2 * alpha, &t, &eq)) < 0)
			return rc;
		r->test = trim > 0 ? "Yuen" : hsu ? "Welch-Hsu" : "Welch";
		r->p = t.p;
	} else {
		if ((rc = ti_stats_hodges_lehmann_cached(s->x, m, s->y, n, alpha, &s->cache, &h)) < 0 ||
		    (rc = ti_stats_hodges_lehmann_cached(s->x, m, s->y, n, 2 * alpha, &s->cache, &eq)) < 0)
			return rc;
		if (m >= 2 && n >= 2) {
			rc = c->unpaired_test == TI_AB_BRUNNER_MUNZEL
				     ? ti_stats_brunner_munzel(s->x, m, s->y, n, &t)
				     : ti_stats_mann_whitney_cached(s->x, m, s->y, n, &s->cache, &t);
			if (rc < 0)
				return rc;
			r->p = t.p;
		}
		r->test = c->unpaired_test == TI_AB_BRUNNER_MUNZEL ? "Brunner-Munzel"
								  : "Mann-Whitney";
		r->min_p = ti_stats_min_p_mann_whitney(m, n);
	}
	*hp = h;
	*eqp = eq;
	return 0;
}

static int measure(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha,
		   struct scratch *s, size_t m, size_t n, struct alt *alt)
{
	struct ti_stats_hl h, eq;
	int rc;

	alt->test = NULL;
	r->min_p = 0;
	rc = r->paired ? measure_paired(r, c, alpha, s, m, n, alt, &h, &eq)
		       : measure_unpaired(r, c, alpha, s, m, n, &h, &eq);
	if (rc < 0)
		return rc;
	r->est = h.shift;
	r->lo = h.lo;
	r->hi = h.hi;
	r->level = h.level;
	r->eq_lo = eq.lo;
	r->eq_hi = eq.hi;
	if (isnan(r->p))
		r->test = NULL;
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
/* Count R's failed and flagged runs; when a side has no successful run
 * with the metric, decide R (failed or missing) and return true. */
static bool count_runs(struct ti_ab_row *r, const struct ti_ab_config *c, struct scratch *s)
{
	const struct ti_ab_bench *a = r->a, *b = r->b;

	r->failed_a = a->failures;
	r->failed_b = b->failures;
	for (size_t i = 0; i < a->n; i++)
		r->flagged_a += !a->s[i].failed && !isnan(a->s[i].value) && a->s[i].flags;
	for (size_t i = 0; i < b->n; i++)
		r->flagged_b += !b->s[i].failed && !isnan(b->s[i].value) && b->s[i].flags;
	classify_code(r, s->d);
	if (a->ok && b->ok)
		return false;
	bool fa = a->ok == 0 && a->failures, fb = b->ok == 0 && b->failures;
	r->n_a = a->ok;
	r->n_b = b->ok;
	r->v = fa || fb ? TI_AB_FAILED : TI_AB_MISSING;
	if (fa || fb)
		REASON(r, "every run on %s failed (%s)", fa && fb ? "A and B" : fa ? "A" : "B",
		       fa ? a->failed_in : b->failed_in);
	else
		REASON(r, "no %s in %s", c->metric, !a->ok && !b->ok ? "A or B" : !a->ok ? "A" : "B");
	return true;
}

/* The notes of the runs left out: failed, or without the metric (a
 * summary without its line). */
static void note_left_out(struct ti_ab_row *r, const struct ti_ab_config *c)
{
	const struct ti_ab_bench *a = r->a, *b = r->b;

	if (a->failures)
		NOTE(r, "%zu of %zu runs on A failed (%s)", a->failures, a->n, a->failed_in);
	if (b->failures)
		NOTE(r, "%zu of %zu runs on B failed (%s)", b->failures, b->n, b->failed_in);
	for (int side = 0; side < 2; side++) {
		const struct ti_ab_bench *e = side ? b : a;
		size_t gap = 0;
		for (size_t i = 0; i < e->n; i++)
			gap += !e->s[i].failed && isnan(e->s[i].value);
		if (gap)
			NOTE(r, "no %s in %zu of %zu runs on %s", c->metric, gap, e->n,
			     side ? "B" : "A");
	}
}

/* A cache metric simulated with different geometries: R is missing
 * (true). */
static bool geometry_differs(struct ti_ab_row *r, const struct ti_ab_config *c)
{
	const struct ti_ab_bench *a = r->a, *b = r->b;

	if (!cache_metric(c->metric) || same_geometry(r))
		return false;
	r->v = TI_AB_MISSING;
	r->n_a = a->ok;
	r->n_b = b->ok;
	if (a->geometry_mixed || b->geometry_mixed)
		REASON(r, "the runs of %s simulated different caches: not comparable",
		       a->geometry_mixed ? "A" : "B");
	else
		REASON(r, "cache geometries differ (A: %s; B: %s): not comparable",
		       a->geometry ? a->geometry : "none", b->geometry ? b->geometry : "none");
	return true;
}

/* Every one of the N values of X is above 0 (has a logarithm). */
static bool all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return false;
	return true;
}

/* Pair R's rounds where C says so (M, N: the samples of each side). */
static void pair_row(struct ti_ab_row *r, const struct ti_ab_config *c, bool pair,
		     struct scratch *s, size_t m, size_t n)
{
	if (c->pairing == TI_AB_PAIR_NEVER)
		return;
	/* Rounds are pairs by design: A_i and B_i ran in one round of an
	 * interleaved run, whatever their correlation (the old rule,
	 * TI_AB_PAIR_VOTE, paired only when the suite's rounds moved
	 * together, and anti-correlated rounds broke the unpaired test;
	 * bench/ab-sim). */
	size_t np = pair_rounds(r, c, s);
	if (c->pairing == TI_AB_PAIR_VOTE && !pair)
		np = 0;
	/* B/A the same in every round while the rounds themselves moved
	 * (1.0, 1.0001, 1.0345 on both sides): the pairs have no spread to
	 * test against, and a floor at the values' resolution would call any
	 * such row unchanged within a hair.  Compared unpaired, the rounds'
	 * own spread is the evidence.  Sides constant themselves are truly
	 * a point. */
	if (np >= 2 && same_ratio(s->d, np) && !(constant(s->px, np) && constant(s->py, np))) {
		NOTE(r, "unpaired: B/A is the same in every round, so the pairs have no spread");
		return;
	}
	if (np >= 2) {
		r->paired = true;
		r->n_a = r->n_b = np;
		centre(r, s->px, np, s->py, np);
		if (np >= TI_AB_PAIR_MIN_ROUNDS)
			r->corr = ti_stats_spearman(s->px, s->py, np);
	} else if (np == 0 && (m > 1 || n > 1) && c->pairing != TI_AB_PAIR_VOTE) {
		NOTE(r, "unpaired: the rounds of A and B differ");
	}
}

static int measure_row(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha,
		       bool pair, struct scratch *s, struct alt *alt)
{
	size_t m = values(r->a, c, s->x), n = values(r->b, c, s->y);

	if (count_runs(r, c, s))
		return 0;
	note_left_out(r, c);
	if (geometry_differs(r, c))
		return 0;
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
	if (!all_positive(s->x, m) || !all_positive(s->y, n)) {
		/* A time of 0 (below the clock's resolution) has no logarithm. */
		r->v = TI_AB_UNDECIDED;
		REASON(r, "values <= 0: no ratio, no test");
		return 0;
	}
	/* valgrind's count is exact: when it is the same in every sample of
	 * a side there is no noise to test against, and the change is what
	 * it is (its interval a single point). */
	if (strncmp(c->metric, "valgrind-", 9) == 0 && constant(s->x, m) && constant(s->y, n)) {
		r->exact = true;
		r->est = r->lo = r->hi = r->eq_lo = r->eq_hi = log(s->y[0] / s->x[0]);
		r->level = 1;
		return 1;
	}
	pair_row(r, c, pair, s, m, n);
	int rc = measure(r, c, alpha, s, m, n, alt);
	return rc < 0 ? rc : 1;
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

/* The verdict of a row whose test (if any) has its adjusted p-value. */
static void decide(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha)
{
	double g = c->min_change / 100;
	bool floor_known = !isnan(r->floor);
	char e[32], lo[32], hi[32];

	ti_ab_report_change_pct(e, sizeof e, r->est);
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
		ti_ab_report_change_pct(lo, sizeof lo, r->eq_lo);
		ti_ab_report_change_pct(hi, sizeof hi, r->eq_hi);
		REASON(r, "equivalent: %.0f%% interval %s..%s within +-%g%%",
		       100 * (1 - 2 * alpha), lo, hi, c->min_change);
		if (sig)
			REASON(r, "significant, below the gate");
		return;
	}
	r->v = TI_AB_UNDECIDED;
	r->decidable = true;
	double best = r->min_p;
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
		ti_ab_report_change_pct(lo, sizeof lo, r->eq_lo);
		ti_ab_report_change_pct(hi, sizeof hi, r->eq_hi);
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
	r->insn_change = r->est_change = r->corr = NAN;
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
		      bool *pending, struct alt *alts, struct ti_ab_result *res)
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
		if ((rc = measure_row(r, c, alpha, res->pair, s, &alts[n - 1])) < 0)
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
			     const bool *pending, const struct alt *alts)
{
	struct ti_ab_row *rows = res->rows;
	size_t n = res->n, ntest = 0, best_m = 0;
	double *p = malloc((n ? n : 1) * sizeof *p), best = 2;
	bool best_paired = false;

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		ntest += pending[i] && !isnan(rows[i].p);
	/* The signed-rank test cannot give p below 2^(1-n); where that cannot
	 * pass the adjustment's strictest step, alpha' / tests (the first
	 * step of both Holm and Benjamini-Hochberg), however large the
	 * change, the row is tested by the t on its log-ratios instead, whose
	 * p has no floor.  The choice rests on the counts alone, never on
	 * the data, so each test keeps its level (bench/ab-sim measured it). */
	for (size_t i = 0; i < n; i++) {
		struct ti_ab_row *r = &rows[i];
		const struct alt *t = &alts[i];
		if (!pending[i] || !t->test || isnan(r->p) ||
		    !(r->min_p * (double)(c->adjust == TI_STATS_ADJUST_NONE ? 1 : ntest) > alpha))
			continue;
		r->p = t->p;
		r->est = t->est;
		r->lo = t->lo;
		r->hi = t->hi;
		r->level = t->level;
		r->eq_lo = t->eq_lo;
		r->eq_hi = t->eq_hi;
		r->test = t->test;
		r->min_p = 0;
	}
	ntest = 0;
	for (size_t i = 0; i < n; i++) {
		p[i] = pending[i] ? rows[i].p : NAN;
		if (isnan(p[i]))
			continue;
		ntest++;
		double mp = rows[i].min_p;
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

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

/* The benchmark R counts in the geometric mean: it has a ratio. */
static bool geo_counts(const struct ti_ab_row *r)
{
	return r->v != TI_AB_MISSING && r->v != TI_AB_FAILED && isfinite(r->est) && r->med_a > 0 &&
	       r->med_b > 0;
}

/* By round: the rounds of an interleaved run move every benchmark
 * together (the machine's state is shared by all the benchmarks of a
 * round), so the benchmarks' log-ratios are not independent changes and a
 * t over them is too narrow (an A/A run of identical builds excluded 0).
 * The suite's change in round k is the mean over the benchmarks of their
 * log-ratio in it (a round a benchmark lacks: its estimate), a benchmark
 * with identical binaries counting 0; the interval is Student's t over
 * those round means, the rounds being the independent units.  Returns 1
 * when done, 0 when the rows do not allow it (fewer
 * than 2 rounds), -ENOMEM. */
static int geo_by_round(const struct ti_ab_result *res, const struct ti_ab_config *c,
			struct scratch *s, double level, struct ti_ab_geomean *g)
{
	size_t nk = 0, cap = 0, nrows = 0;
	uint64_t *keys = NULL;
	double *sum = NULL, *row = NULL;
	int rc = -ENOMEM;

	for (size_t i = 0; i < res->n; i++) {
		const struct ti_ab_row *r = &res->rows[i];
		if (!geo_counts(r))
			continue;
		nrows++;
		if (r->code == TI_AB_CODE_SAME || !r->paired)
			continue;
		size_t np = pair_rounds(r, c, s);
		if (nk + np > cap) {
			cap = 2 * (nk + np) + 16;
			uint64_t *k = realloc(keys, cap * sizeof *k);
			if (!k)
				goto out;
			keys = k;
		}
		if (np)
			memcpy(keys + nk, s->rk, np * sizeof *keys);
		nk += np;
	}
	if (nk)
		qsort(keys, nk, sizeof *keys, cmp_u64);
	size_t nr = 0;
	for (size_t i = 0; i < nk; i++)
		if (!nr || keys[i] != keys[nr - 1])
			keys[nr++] = keys[i];
	if (nr < 2 || !nrows) {
		rc = 0;
		goto out;
	}
	if (!(sum = calloc(nr, sizeof *sum)) || !(row = malloc(nr * sizeof *row)))
		goto out;
	/* A row not paired (its rounds differ) counts its estimate in every
	 * round and its own variance on top: that of its interval. */
	double vu = 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct ti_ab_row *r = &res->rows[i];
		if (!geo_counts(r) || r->code == TI_AB_CODE_SAME)
			continue;
		for (size_t k = 0; k < nr; k++)
			row[k] = r->est;
		if (!r->paired) {
			double z = ti_stats_normal_quantile(1 - (1 - r->level) / 2);
			double sb = (r->hi - r->lo) / (2 * z);
			vu += isfinite(sb) ? sb * sb : INFINITY;
		}
		size_t np = r->paired ? pair_rounds(r, c, s) : 0;
		for (size_t j = 0; j < np; j++) {
			uint64_t *at = bsearch(&s->rk[j], keys, nr, sizeof *keys, cmp_u64);
			row[at - keys] = s->d[j];
		}
		for (size_t k = 0; k < nr; k++)
			sum[k] += row[k];
	}
	double mean = 0, ss = 0;
	for (size_t k = 0; k < nr; k++)
		mean += (sum[k] /= (double)nrows);
	mean /= (double)nr;
	for (size_t k = 0; k < nr; k++)
		ss += (sum[k] - mean) * (sum[k] - mean);
	double se = sqrt(ss / (double)(nr - 1) / (double)nr), vf = 0;
	/* Rounds whose means agree exactly (a benchmark equal on both sides
	 * in every round) are not an interval of zero width: then what the
	 * benchmarks' own intervals say, as if they were independent.  Only
	 * then: otherwise the rounds' spread already holds the benchmarks'
	 * own noise, and a floor near its expectation would only widen the
	 * interval (bench/ab-sim: 100 % coverage where 95 % is due). */
	for (size_t i = 0; ss == 0 && i < res->n; i++) {
		const struct ti_ab_row *r = &res->rows[i];
		if (!geo_counts(r) || r->code == TI_AB_CODE_SAME || !r->paired)
			continue;
		double z = ti_stats_normal_quantile(1 - (1 - r->level) / 2);
		double sb = (r->hi - r->lo) / (2 * z);
		vf += isfinite(sb) ? sb * sb : INFINITY;
	}
	se = fmax(se, sqrt(vf) / (double)nrows);
	se = sqrt(se * se + vu / ((double)nrows * (double)nrows));
	double q = ti_stats_t_quantile(1 - (1 - level) / 2, (double)(nr - 1));
	g->n = nrows;
	g->ratio = exp(mean);
	g->log_ratio = mean;
	g->lo = exp(mean - q * se);
	g->hi = exp(mean + q * se);
	g->rounds = nr;
	g->method = "round";
	rc = 1;
out:
	free(keys);
	free(sum);
	free(row);
	return rc;
}

/* The geometric mean of B/A over the benchmarks with a ratio (both sides
 * above 0: one whose samples are all 0 on both sides has none and is
 * left out; identical binaries count as no change), at the rows' level
 * 1 - alpha / looks: by round where the rounds are paired (the default),
 * else Student's t over the benchmarks' log-ratios or a bootstrap of
 * their mean (bench/ab-sim measured them); a single benchmark's own
 * interval. */
static int geomean(const struct ti_ab_result *res, const struct ti_ab_config *c,
		   struct scratch *s, struct ti_ab_geomean *out)
{
	struct ti_ab_geomean g = { 0, NAN, NAN, NAN, 1 - res->alpha_look, 0, NULL, NAN };
	size_t n = res->n;
	double *l, sum = 0, ss = 0;
	const struct ti_ab_row *one = NULL;
	int rc;

	bool one_run = true;	/* every benchmark one run a side */
	if (c->geo == TI_AB_GEO_ROUND) {
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			k += geo_counts(&res->rows[i]);
			one_run &= !geo_counts(&res->rows[i]) ||
				   (res->rows[i].n_a <= 1 && res->rows[i].n_b <= 1);
		}
		if (k > 1 && (rc = geo_by_round(res, c, s, g.level, &g)) != 0) {
			*out = g;
			return rc < 0 ? rc : 0;
		}
	} else {
		one_run = false;
	}
	if (!(l = malloc((n ? n : 1) * sizeof *l)))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct ti_ab_row *r = &res->rows[i];
		if (geo_counts(r)) {
			l[g.n++] = r->code == TI_AB_CODE_SAME ? 0 : r->est;
			one = r;
		}
	}
	if (g.n) {
		for (size_t i = 0; i < g.n; i++)
			sum += l[i];
		double mean = sum / (double)g.n;
		g.ratio = exp(mean);
		g.log_ratio = mean;
		if (g.n == 1) {
			g.lo = exp(one->lo);
			g.hi = exp(one->hi);
			g.method = "one benchmark";
		} else if (one_run) {
			/* One run a side: that run's machine state is in every
			 * benchmark, and nothing tells it from a change. */
			g.method = "one run a side";
		} else if (c->geo == TI_AB_GEO_BOOTSTRAP) {
			if (ti_stats_bootstrap_mean(l, g.n, (unsigned)c->reps, g.level, c->seed,
						    &g.lo, &g.hi) < 0) {
				free(l);
				return -ENOMEM;
			}
			g.lo = exp(g.lo);
			g.hi = exp(g.hi);
			g.method = "bootstrap";
		} else {
			bool points = true;
			for (size_t i = 0; i < g.n; i++)
				ss += (l[i] - mean) * (l[i] - mean);
			for (size_t i = 0; i < n; i++)
				if (geo_counts(&res->rows[i]) && res->rows[i].code != TI_AB_CODE_SAME &&
				    !(res->rows[i].lo == res->rows[i].hi))
					points = false;
			double se = sqrt(ss / (double)(g.n - 1) / (double)g.n);
			/* Benchmarks that all moved alike are no interval of zero
			 * width unless each is a point itself (constant sides). */
			if (ss == 0 && !points)
				se = INFINITY;
			double q = ti_stats_t_quantile(1 - (1 - g.level) / 2, (double)(g.n - 1));
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

/* Whether to pair.  The rounds are pairs by design; only the old rule
 * (TI_AB_PAIR_VOTE, kept for bench/ab-sim) voted: the rank correlation of
 * A_i with B_i over the rounds of each benchmark both sides have, its
 * median over those with enough rounds. */
static int decide_pairing(const struct ti_ab_config *c, const struct ti_ab_set *sa,
			  const struct ti_ab_set *sb, struct scratch *s, struct ti_ab_result *res)
{
	double *rho = malloc((sa->n + 1) * sizeof *rho);
	size_t k = 0, i = 0, j = 0;

	res->pair = c->pairing == TI_AB_PAIR_ALWAYS || c->pairing == TI_AB_PAIR_AUTO;
	res->pair_corr = NAN;
	if (c->pairing != TI_AB_PAIR_VOTE) {
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
	struct alt *alts = malloc((a->n + b->n + 1) * sizeof *alts);
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
	s.w = malloc(2 * room * sizeof *s.w);
	s.rk = malloc(room * sizeof *s.rk);
	if (s.x && s.y && s.d && s.px && s.py && s.ka && s.kb && s.w && s.rk && pending && alts &&
	    (rc = decide_pairing(c, a, b, &s, r)) == 0)
		rc = build_rows(c, a, b, fa, fb, alpha, &s, pending, alts, r);
	if (rc == 0 && c->pairing != TI_AB_PAIR_VOTE) {
		/* The correlation reported: over the rows the table has (a
		 * filter's, -p's, missing and failed ones take part in
		 * nothing). */
		size_t k = 0;
		double *rho = malloc((r->n + 1) * sizeof *rho);
		if (!rho)
			rc = -ENOMEM;
		for (size_t i = 0; rho && i < r->n; i++)
			if (r->rows[i].paired && !isnan(r->rows[i].p) && !isnan(r->rows[i].corr))
				rho[k++] = r->rows[i].corr;
		if (k) {
			qsort(rho, k, sizeof *rho, cmp_plain);
			r->pair_corr = ti_stats_quantile_sorted(rho, k, 0.5);
			r->pair_corr_n = k;
		}
		free(rho);
	}
	if (rc == 0)
		rc = adjust_and_decide(r, c, alpha, pending, alts);
	if (rc == 0)
		rc = geomean(r, c, &s, &r->geomean);
	free(s.x);
	free(s.y);
	free(s.d);
	free(s.px);
	free(s.py);
	free(s.ka);
	free(s.kb);
	free(s.w);
	free(s.rk);
	ti_stats_cache_free(&s.cache);
	free(pending);
	free(alts);
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
