/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict.c: the verdict of each benchmark of an A/B comparison and the
 * suite's geometric mean (verdict.h).  Statistics background:
 * timeit-compare(1), STATISTICS. */
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
	"improved", "regressed", "unchanged", "noisy", "missing", "failed",
};

/* Instruction counts within this relative difference are "the same code":
 * counts of one binary vary by a few hundred instructions (signal
 * delivery, page faults), far below 0.01 % of any benchmark. */
#define SAME_CODE_TOLERANCE 1e-4

/* ln of each sample value into OUT; false when a value is not positive. */
static bool logs(const struct ti_ab_bench *b, double *out)
{
	for (size_t i = 0; i < b->n; i++) {
		if (!(b->s[i].value > 0))
			return false;
		out[i] = log(b->s[i].value);
	}
	return true;
}

/* The helpers below work in SCRATCH, room for the samples of the largest
 * benchmark of both sides (ti_ab_verdict_run allocates it once). */
static double bench_median(const struct ti_ab_bench *b, double *scratch)
{
	for (size_t i = 0; i < b->n; i++)
		scratch[i] = b->s[i].value;
	return ti_stats_median(scratch, b->n);
}

static double bench_spread(const struct ti_ab_bench *b, double med, double *scratch)
{
	for (size_t i = 0; i < b->n; i++)
		scratch[i] = b->s[i].value;
	return b->n > 1 && med != 0 ? ti_stats_mad(scratch, b->n) / fabs(med) : NAN;
}

/* Every sample of B has the same value. */
static bool constant(const struct ti_ab_bench *b)
{
	for (size_t i = 1; i < b->n; i++)
		if (b->s[i].value != b->s[0].value)
			return false;
	return true;
}

/* Median instruction count of a side: valgrind's when VG, else the
 * hardware counter's; NAN when no sample has it. */
static double insn_median(const struct ti_ab_bench *b, bool vg, double *scratch)
{
	size_t k = 0;

	for (size_t i = 0; i < b->n; i++) {
		double x = vg ? b->s[i].vg_insn : b->s[i].insn;
		if (!isnan(x))
			scratch[k++] = x;
	}
	return k ? ti_stats_median(scratch, k) : NAN;
}

static void classify_code(struct ti_ab_row *r, double *scratch)
{
	double ia = insn_median(r->a, true, scratch), ib = insn_median(r->b, true, scratch);

	/* valgrind's count is exact; the hardware one only when both lack it. */
	if (isnan(ia) || isnan(ib)) {
		ia = insn_median(r->a, false, scratch);
		ib = insn_median(r->b, false, scratch);
	}
	if (isnan(ia) || isnan(ib) || ia <= 0)
		return;
	r->insn_change = ib / ia - 1;
	r->code = fabs(r->insn_change) <= SAME_CODE_TOLERANCE ? TI_AB_CODE_SAME : TI_AB_CODE_CHANGED;
}

/* The noise floor of one benchmark from an A/A pair: how far the medians
 * of two runs of the same build moved, and at least the pooled relative
 * spread of their samples, on the ln scale. */
static double noise_floor(const struct ti_ab_bench *x, const struct ti_ab_bench *y, double *v)
{
	size_t n = x->n + y->n;
	double f, spread;

	if (!x->n || !y->n)
		return NAN;
	if (!logs(x, v) || !logs(y, v + x->n))
		return NAN;
	f = fabs(ti_stats_median(v + x->n, y->n) - ti_stats_median(v, x->n));
	spread = n >= 3 ? ti_stats_mad(v, n) : 0;
	return fmax(f, spread);
}

static void set_note(struct ti_ab_row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_note(struct ti_ab_row *r, const char *fmt, ...)
{
	size_t used = strlen(r->note);
	va_list ap;

	if (used && used + 2 < sizeof r->note) {
		strcat(r->note, "; ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(r->note + used, sizeof r->note - used, fmt, ap);
	va_end(ap);
}

/* Everything about one benchmark except the adjusted p-value verdict.
 * Returns 0 or -ENOMEM. */
static int measure_row(struct ti_ab_row *r, const struct ti_ab_config *c, double *scratch)
{
	size_t m = r->a->n, n = r->b->n;
	double *x = scratch, *y = scratch + m;
	int rc = 0;

	r->med_a = bench_median(r->a, scratch);
	r->med_b = bench_median(r->b, scratch);
	r->spread_a = bench_spread(r->a, r->med_a, scratch);
	r->spread_b = bench_spread(r->b, r->med_b, scratch);
	classify_code(r, scratch);
	if (!(r->med_a > 0 && r->med_b > 0)) {
		/* A median of 0 (a time below the clock's resolution) has no
		 * ratio; nothing to test.  Equal medians are no change. */
		r->change = r->med_a == r->med_b ? 0 : NAN;
		if (isnan(r->change))
			set_note(r, "values <= 0: no ratio, no test");
		return 0;
	}
	r->change = log(r->med_b / r->med_a);
	/* valgrind's count is exact: when it is the same in every sample of
	 * a side there is no noise to test against, and the change is what
	 * it is (its interval a single point). */
	if (strcmp(c->metric, "valgrind-instructions") == 0 && constant(r->a) && constant(r->b)) {
		r->exact = true;
		r->hl = r->lo = r->hi = r->change;
		return 0;
	}
	if (logs(r->a, x) && logs(r->b, y)) {
		struct ti_stats_hl hl;
		if ((rc = ti_stats_hodges_lehmann(x, m, y, n, c->alpha, &hl)) < 0)
			return rc;
		r->hl = hl.shift;
		r->lo = hl.lo;
		r->hi = hl.hi;
		if (m >= 2 && n >= 2) {
			struct ti_stats_mw mw;
			if ((rc = ti_stats_mann_whitney(x, m, y, n, &mw)) < 0)
				return rc;
			r->p = mw.p;
		}
	}
	return 0;
}

static void decide(struct ti_ab_row *r, const struct ti_ab_config *c)
{
	bool beyond, beyond_min, floor_known = !isnan(r->floor);
	double rel = fabs(expm1(r->change));

	if (isnan(r->change)) {
		r->v = TI_AB_NOISY;
		return;
	}
	/* --min-change gates the change the table shows, |B/A - 1|, so that
	 * -20 % and +20 % are both "20 percent"; the noise floor is a spread
	 * of logarithms and gates the log-ratio. */
	beyond_min = rel > 0 && !(rel < c->min_change / 100);
	beyond = beyond_min && (!floor_known || fabs(r->change) > r->floor);
	if (r->exact) {
		r->v = !beyond ? TI_AB_UNCHANGED : r->change > 0 ? TI_AB_REGRESSED : TI_AB_IMPROVED;
		set_note(r, "exact count%s", rel == 0 || beyond ? ""
			 : beyond_min ? ", within noise floor" : ", below --min-change");
		/* The count is the metric: "same code" or "code changed"
		 * would only repeat the change column. */
		r->gating = r->v == TI_AB_REGRESSED;
		return;
	}
	if (!isnan(r->p)) {
		bool sig = r->p_adj < c->alpha;
		if (sig && beyond)
			r->v = r->change > 0 ? TI_AB_REGRESSED : TI_AB_IMPROVED;
		else if (!sig && beyond)
			r->v = TI_AB_NOISY;
		else
			r->v = TI_AB_UNCHANGED;
		if (sig && !beyond)
			set_note(r, beyond_min ? "significant, within noise floor"
				    : "significant, below --min-change");
	} else {
		/* Enough samples but no test: the log-ratios need values
		 * above 0, which a time below the clock's resolution is not. */
		if (r->a->n >= 2 && r->b->n >= 2)
			set_note(r, "values <= 0: no test");
		else
			set_note(r, "n=%zu/%zu: no test", r->a->n, r->b->n);
		if (beyond && floor_known)
			r->v = r->change > 0 ? TI_AB_REGRESSED : TI_AB_IMPROVED;
		else
			r->v = beyond ? TI_AB_NOISY : TI_AB_UNCHANGED;
		if (beyond && floor_known)
			set_note(r, "beyond noise floor");
	}
	if (r->code == TI_AB_CODE_SAME && (r->v == TI_AB_REGRESSED || r->v == TI_AB_IMPROVED || r->v == TI_AB_NOISY))
		set_note(r, "same code, timing noise");
	else if (r->code == TI_AB_CODE_CHANGED)
		set_note(r, "code changed (instructions %+.2f%%)", 100 * r->insn_change);
	/* Identical instruction counts mean the compiler produced the same
	 * code: a slower run is the machine's doing, not a regression to gate. */
	r->gating = r->v == TI_AB_REGRESSED && r->code != TI_AB_CODE_SAME;
}

/* --strict: B lost what A had.  A benchmark that failed on B, that B does
 * not have, or whose metric B lacks while A has it, would pass a CI gate
 * unseen otherwise. */
static bool strict_gate(const struct ti_ab_row *r)
{
	if (r->b && r->b->failures > 0)
		return true;
	return r->a && (!r->b || (r->a->n > 0 && r->b->n == 0));
}

/* Build the rows: union of both sides' benchmark names, sorted, into
 * R->rows.  Returns 0 or -ENOMEM. */
static int build_rows(const struct ti_ab_config *c, const struct ti_ab_set *sa,
		      const struct ti_ab_set *sb, const struct ti_ab_set *fa,
		      const struct ti_ab_set *fb, double *scratch, struct ti_ab_result *res)
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

		memset(r, 0, sizeof *r);
		r->a = cmp <= 0 ? &sa->b[i++] : NULL;
		r->b = cmp >= 0 ? &sb->b[j++] : NULL;
		r->name = r->a ? r->a->name : r->b->name;
		if (c->keep && !c->keep(r->name, c->keep_arg))
			continue;
		r->med_a = r->med_b = r->change = r->hl = r->lo = r->hi = NAN;
		r->p = r->p_adj = r->floor = r->spread_a = r->spread_b = NAN;
		r->insn_change = NAN;
		n++;
		if (!r->a || !r->b) {
			r->v = TI_AB_MISSING;
			set_note(r, "only in %s", r->a ? "A" : "B");
			if (r->a && r->a->n)
				r->med_a = bench_median(r->a, scratch);
			if (r->b && r->b->n)
				r->med_b = bench_median(r->b, scratch);
			continue;
		}
		if (r->a->failures || r->b->failures) {
			r->v = TI_AB_FAILED;
			if (r->a->failures)
				set_note(r, "A: %zu failed run%s (%s)", r->a->failures,
					 r->a->failures > 1 ? "s" : "", r->a->failed_in);
			if (r->b->failures)
				set_note(r, "B: %zu failed run%s (%s)", r->b->failures,
					 r->b->failures > 1 ? "s" : "", r->b->failed_in);
			continue;
		}
		if (!r->a->n || !r->b->n) {
			r->v = TI_AB_MISSING;
			set_note(r, "no %s in %s", c->metric,
				 !r->a->n && !r->b->n ? "A or B" : !r->a->n ? "A" : "B");
			continue;
		}
		if ((rc = measure_row(r, c, scratch)) < 0)
			return rc;
		if (c->filter_short > 0 && fmax(r->med_a, r->med_b) < c->filter_short) {
			n--;
			continue;
		}
		if (fa && fb) {
			const struct ti_ab_bench *x = ti_ab_find(fa, r->name);
			const struct ti_ab_bench *y = ti_ab_find(fb, r->name);
			if (x && y)
				r->floor = noise_floor(x, y, scratch);
		}
	}
	res->n = n;
	return 0;
}

static int adjust_and_decide(struct ti_ab_result *res, const struct ti_ab_config *c)
{
	struct ti_ab_row *rows = res->rows;
	size_t n = res->n;
	double *p = malloc((n ? n : 1) * sizeof *p), best = 2;
	size_t tested = 0, best_m = 0, best_n = 0;

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		double mp;
		if (rows[i].v == TI_AB_MISSING || rows[i].v == TI_AB_FAILED || isnan(rows[i].p))
			continue;
		tested++;
		if ((mp = ti_stats_min_p_mann_whitney(rows[i].a->n, rows[i].b->n)) < best) {
			best = mp;
			best_m = rows[i].a->n;
			best_n = rows[i].b->n;
		}
	}
	/* With few samples a side no p-value can fall below alpha at all
	 * (2 a side: p >= 1/3), whatever the adjustment.  Holm's first step
	 * compares the smallest p with alpha / tests, which may be out of
	 * reach while alpha is not (5 a side: p >= 2/252, so more than 6
	 * benchmarks); then Benjamini-Hochberg or no adjustment can help.  Say
	 * so rather than report "no change" that could never have been
	 * anything else. */
	if (tested > 0 && best >= c->alpha)
		snprintf(res->note, sizeof res->note, "no test can reach alpha %g with these sample "
			 "counts, whatever the adjustment (smallest possible p %.4g, with %zu and %zu "
			 "samples); take more samples", c->alpha, best, best_m, best_n);
	else if (c->adjust == TI_STATS_ADJUST_HOLM && tested > 1 && best * (double)tested >= c->alpha)
		snprintf(res->note, sizeof res->note, "with %zu tests and these sample counts no "
			 "benchmark can pass Holm at alpha %g (smallest possible p %.4g); take more "
			 "samples, or use --fdr or --no-adjust", tested, c->alpha, best);
	for (size_t i = 0; i < n; i++)
		p[i] = rows[i].v == TI_AB_MISSING || rows[i].v == TI_AB_FAILED ? NAN : rows[i].p;
	if (ti_stats_adjust(p, n, c->adjust, p) < 0) {
		free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (rows[i].v == TI_AB_MISSING || rows[i].v == TI_AB_FAILED)
			continue;
		rows[i].p_adj = p[i];
		decide(&rows[i], c);
	}
	free(p);
	return 0;
}

static int geomean(const struct ti_ab_row *rows, size_t n, const struct ti_ab_config *c,
		   struct ti_ab_geomean *out)
{
	struct ti_ab_geomean g = { 0, NAN, NAN, NAN };
	double *l = malloc((n ? n : 1) * sizeof *l), sum = 0;

	if (!l)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (rows[i].v != TI_AB_MISSING && rows[i].v != TI_AB_FAILED && isfinite(rows[i].change))
			l[g.n++] = rows[i].change;
	if (g.n) {
		for (size_t i = 0; i < g.n; i++)
			sum += l[i];
		g.ratio = exp(sum / (double)g.n);
		if (ti_stats_bootstrap_mean(l, g.n, (unsigned)c->reps, 1 - c->alpha, c->seed,
					    &g.lo, &g.hi) < 0) {
			free(l);
			return -ENOMEM;
		}
		g.lo = exp(g.lo);
		g.hi = exp(g.hi);
	}
	free(l);
	*out = g;
	return 0;
}

/* The most samples of one benchmark in SET. */
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
	size_t room = most(a) + most(b);
	double *scratch;
	int rc;

	memset(r, 0, sizeof *r);
	if (most(fa) + most(fb) > room)
		room = most(fa) + most(fb);
	if (!(scratch = malloc((room ? room : 1) * sizeof *scratch)))
		return -ENOMEM;
	rc = build_rows(c, a, b, fa, fb, scratch, r);
	free(scratch);
	if (rc == 0)
		rc = adjust_and_decide(r, c);
	if (rc == 0)
		rc = geomean(r->rows, r->n, c, &r->geomean);
	for (size_t i = 0; rc == 0 && i < r->n; i++) {
		if (c->strict && strict_gate(&r->rows[i]))
			r->rows[i].gating = true;
		if (r->rows[i].gating)
			r->regressed = true;
	}
	if (rc < 0)
		ti_ab_result_free(r);
	return rc;
}

void ti_ab_result_free(struct ti_ab_result *r)
{
	free(r->rows);
	memset(r, 0, sizeof *r);
}
