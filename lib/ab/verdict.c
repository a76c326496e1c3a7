/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict.c: the verdict of each benchmark of an A/B comparison and the
 * suite's geometric mean (verdict.h; the method is timeit-compare(1),
 * STATISTICS).  In short: pair the rounds when both sides have the same
 * ones (verdict-pair.c); test the log-ratios and estimate them with the
 * interval the test gives (verdict-measure.c), with 3 pairs the t
 * moderated by the suite's variances (verdict-moderate.c); control the false
 * discovery rate across benchmarks (verdict-adjust.c); call a change only
 * when it is significant and its estimate beyond the gate, and
 * "unchanged" only when the equivalence interval lies within the gate
 * (verdict-decide.c); identical binaries are the same code whatever the
 * times say (verdict-code.c); then the suite's geometric mean
 * (verdict-geomean.c).  verdict-run.c takes each row through these steps.
 * This file holds the verdict's words and defaults and what every step
 * uses (verdict-int.h): a row, its notes and reasons, its usable samples,
 * its runs counted. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict-int.h"
#include "verdict.h"

const char *const ti_ab_verdict_name[TI_AB_VERDICTS] = {
	"improved", "regressed", "unchanged", "undecided", "changed", "missing", "failed",
};

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
	c->moderate_from = TI_AB_MODERATE_FROM;
	c->moderate = TI_AB_MODERATE_PAIRS;
	c->moderate_min = TI_AB_MODERATE_MIN;
	c->seed = 1;
	c->reps = 10000;
}

void ti_ab_result_free(struct ti_ab_result *r)
{
	free(r->rows);
	memset(r, 0, sizeof *r);
}

void ti_ab_row_init(struct ti_ab_row *r)
{
	memset(r, 0, sizeof *r);
	r->med_a = r->med_b = r->est = r->lo = r->hi = r->eq_lo = r->eq_hi = NAN;
	r->p = r->p_adj = r->floor = r->spread_a = r->spread_b = r->level = NAN;
	r->insn_change = r->est_change = r->corr = NAN;
	r->time_v = TI_AB_VERDICTS;
}

void ti_ab_row_add(char *buf, size_t len, const char *fmt, ...)
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

void ti_ab_result_note(struct ti_ab_result *res, const char *fmt, ...)
{
	va_list ap;

	if (res->nnotes == TI_AB_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(res->notes[res->nnotes++], sizeof res->notes[0], fmt, ap);
	va_end(ap);
}

bool ti_ab_sample_usable(const struct ti_ab_sample *s, const struct ti_ab_config *c)
{
	return !s->failed && !isnan(s->value) && !(c->drop_flagged && s->flags);
}

size_t ti_ab_bench_values(const struct ti_ab_bench *b, const struct ti_ab_config *c,
			  double *out)
{
	size_t k = 0;

	for (size_t i = 0; i < b->n; i++)
		if (ti_ab_sample_usable(&b->s[i], c))
			out[k++] = b->s[i].value;
	return k;
}

bool ti_ab_constant(const double *x, size_t m)
{
	for (size_t i = 1; i < m; i++)
		if (x[i] != x[0])
			return false;
	return true;
}

bool ti_ab_all_equal(const double *x, size_t m, const double *y, size_t n)
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

bool ti_ab_all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return false;
	return true;
}

void ti_ab_row_centre(struct ti_ab_row *r, const double *x, size_t m, const double *y,
		      size_t n)
{
	r->med_a = ti_stats_median(x, m);
	r->med_b = ti_stats_median(y, n);
	r->spread_a = m > 1 && r->med_a != 0 ? ti_stats_mad(x, m) / fabs(r->med_a) : NAN;
	r->spread_b = n > 1 && r->med_b != 0 ? ti_stats_mad(y, n) / fabs(r->med_b) : NAN;
}

bool ti_ab_row_runs(struct ti_ab_row *r, const struct ti_ab_config *c)
{
	const struct ti_ab_bench *a = r->a, *b = r->b;

	r->failed_a = a->failures;
	r->failed_b = b->failures;
	for (size_t i = 0; i < a->n; i++)
		r->flagged_a += !a->s[i].failed && !isnan(a->s[i].value) && a->s[i].flags;
	for (size_t i = 0; i < b->n; i++)
		r->flagged_b += !b->s[i].failed && !isnan(b->s[i].value) && b->s[i].flags;
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

void ti_ab_row_left_out(struct ti_ab_row *r, const struct ti_ab_config *c)
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
