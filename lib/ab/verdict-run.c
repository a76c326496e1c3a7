/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict-run.c: a comparison from its two sets to its verdicts
 * (ti_ab_verdict_run, verdict.h): a row for each benchmark of either
 * side, taken through the steps of the verdict in their order
 * (verdict-int.h): its runs counted and its code classified; the rows
 * that cannot be tested decided at once (failed, missing, every sample
 * equal); the others paired and tested, their p-values adjusted across
 * the benchmarks, and decided; then what the code says of each, the
 * suite's geometric mean and the notes on the comparison as a whole. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "verdict-int.h"
#include "verdict.h"

/* Everything about one benchmark found on both sides, but for the
 * decision that needs the adjusted p-values.  Returns 1 when that
 * decision is still to be made, 0 when the row is decided, or -ENOMEM. */
static int measure_row(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha,
		       bool pair, struct ti_ab_scratch *s, struct ti_ab_alt *alt)
{
	size_t m = ti_ab_bench_values(r->a, c, s->x), n = ti_ab_bench_values(r->b, c, s->y);

	ti_ab_code_classify(r, s->d);
	if (ti_ab_row_runs(r, c))
		return 0;
	ti_ab_row_left_out(r, c);
	if (ti_ab_code_geometry(r, c))
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
	ti_ab_row_centre(r, s->x, m, s->y, n);
	if (ti_ab_all_equal(s->x, m, s->y, n)) {
		/* Nothing moved at all: a counter, or a time at the clock's
		 * resolution, that is the same in every run. */
		r->v = TI_AB_UNCHANGED;
		r->est = r->lo = r->hi = r->eq_lo = r->eq_hi = 0;
		REASON(r, "every sample equal");
		return 0;
	}
	if (!ti_ab_all_positive(s->x, m) || !ti_ab_all_positive(s->y, n)) {
		/* A time of 0 (below the clock's resolution) has no logarithm. */
		r->v = TI_AB_UNDECIDED;
		REASON(r, "values <= 0: no ratio, no test");
		return 0;
	}
	/* valgrind's count is exact: when it is the same in every sample of
	 * a side there is no noise to test against, and the change is what
	 * it is (its interval a single point). */
	if (strncmp(c->metric, "valgrind-", 9) == 0 && ti_ab_constant(s->x, m) &&
	    ti_ab_constant(s->y, n)) {
		r->exact = true;
		r->est = r->lo = r->hi = r->eq_lo = r->eq_hi = log(s->y[0] / s->x[0]);
		r->level = 1;
		return 1;
	}
	ti_ab_pair_row(r, c, pair, s, m, n);
	int rc = ti_ab_measure(r, c, alpha, s, m, n, alt);
	return rc < 0 ? rc : 1;
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

static bool is_hash(const struct ti_ab_config *c)
{
	return strcmp(c->metric, "hash") == 0;
}

/* Build the rows: union of both sides' benchmark names, sorted, into
 * RES->rows.  Returns 0 or -ENOMEM. */
static int build_rows(const struct ti_ab_config *c, const struct ti_ab_set *sa,
		      const struct ti_ab_set *sb, const struct ti_ab_set *fa,
		      const struct ti_ab_set *fb, double alpha, struct ti_ab_scratch *s,
		      bool *pending, struct ti_ab_alt *alts, struct ti_ab_result *res)
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

		ti_ab_row_init(r);
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
			if (ti_ab_bench_values(only, c, s->x)) {
				double med = ti_stats_median(s->x, ti_ab_bench_values(only, c, s->x));
				*(r->a ? &r->med_a : &r->med_b) = med;
			}
			continue;
		}
		if (is_hash(c)) {
			ti_ab_code_identity(r);
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
				r->floor = ti_ab_measure_floor(x, y, c, s);
		}
	}
	res->n = n;
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

/* Scratch room in S for rows of at most ROOM runs a side; false without
 * the memory (scratch_close frees what was had). */
static bool scratch_open(struct ti_ab_scratch *s, size_t room)
{
	*s = (struct ti_ab_scratch){
		.x = malloc(room * sizeof *s->x),
		.y = malloc(room * sizeof *s->y),
		.d = malloc(room * sizeof *s->d),
		.px = malloc(room * sizeof *s->px),
		.py = malloc(room * sizeof *s->py),
		.w = malloc(2 * room * sizeof *s->w),
		.ka = malloc(room * sizeof *s->ka),
		.kb = malloc(room * sizeof *s->kb),
		.rk = malloc(room * sizeof *s->rk),
	};
	return s->x && s->y && s->d && s->px && s->py && s->ka && s->kb && s->w && s->rk;
}

static void scratch_close(struct ti_ab_scratch *s)
{
	void *room[] = { s->x, s->y, s->d, s->px, s->py, s->ka, s->kb, s->w, s->rk };

	for (size_t i = 0; i < sizeof room / sizeof room[0]; i++)
		free(room[i]);
	ti_stats_cache_free(&s->cache);
}

/* What the code says about each row of R compared on both sides, once
 * its verdict is known. */
static void annotate_rows(struct ti_ab_result *r, const struct ti_ab_config *c)
{
	for (size_t i = 0; i < r->n; i++) {
		struct ti_ab_row *row = &r->rows[i];
		if (row->a && row->b && row->v != TI_AB_MISSING && row->v != TI_AB_FAILED &&
		    !is_hash(c))
			ti_ab_code_annotate(row, c, r);
	}
}

/* The comparison R as a whole: the samples it used, the rows that set
 * the exit status, and its notes. */
static void finish(struct ti_ab_result *r, const struct ti_ab_config *c)
{
	for (size_t i = 0; i < r->n; i++) {
		struct ti_ab_row *row = &r->rows[i];
		if (row->v == TI_AB_MISSING || row->v == TI_AB_FAILED)
			continue;
		r->used += row->n_a + row->n_b;
		r->flagged += row->flagged_a + row->flagged_b;
	}
	for (size_t i = 0; i < r->n; i++) {
		struct ti_ab_row *row = &r->rows[i];
		row->gating = row->v == TI_AB_REGRESSED || (c->strict && strict_gate(row));
		r->regressed |= row->gating;
		if (c->drop_flagged && row->a && row->b && (row->flagged_a || row->flagged_b) &&
		    row->v != TI_AB_MISSING && row->v != TI_AB_FAILED)
			NOTE(row, "--drop-flagged left %zu of %zu and %zu of %zu samples", row->n_a,
			     row->a->ok, row->n_b, row->b->ok);
	}
	if (r->flagged && !c->drop_flagged && 2 * r->flagged > r->used)
		ti_ab_result_note(r, "verdicts rest mostly on flagged samples: timeit's noise "
				  "screen flagged %zu of %zu (--drop-flagged leaves them out)",
				  r->flagged, r->used);
	if (r->same_binary && r->same_binary_sig)
		ti_ab_result_note(r, "%zu benchmark%s identical binaries on both sides; the times "
				  "alone would call %zu of them improved or regressed: this "
				  "machine's noise, not the code's", r->same_binary,
				  r->same_binary == 1 ? " has" : "s have", r->same_binary_sig);
	else if (r->same_binary)
		ti_ab_result_note(r, "%zu benchmark%s identical binaries on both sides; the times "
				  "alone would call none of them improved or regressed",
				  r->same_binary, r->same_binary == 1 ? " has" : "s have");
}

int ti_ab_verdict_run(const struct ti_ab_config *c, const struct ti_ab_set *a,
		      const struct ti_ab_set *b, const struct ti_ab_set *fa,
		      const struct ti_ab_set *fb, struct ti_ab_result *r)
{
	size_t room = most(a) + most(b) + most(fa) + most(fb) + 1;
	double alpha = ti_ab_adjust_alpha(c);
	struct ti_ab_scratch s = { 0 };
	bool *pending = malloc((a->n + b->n + 1) * sizeof *pending);
	struct ti_ab_alt *alts = malloc((a->n + b->n + 1) * sizeof *alts);
	int rc = -ENOMEM;

	memset(r, 0, sizeof *r);
	r->alpha_look = alpha;
	if (scratch_open(&s, room) && pending && alts &&
	    (rc = ti_ab_pair_decide(c, a, b, &s, r)) == 0)
		rc = build_rows(c, a, b, fa, fb, alpha, &s, pending, alts, r);
	if (rc == 0 && c->pairing != TI_AB_PAIR_VOTE)
		rc = ti_ab_pair_corr(r);
	if (rc == 0)
		rc = ti_ab_moderate(r, c, alpha, pending, alts);
	if (rc == 0) {
		ti_ab_measure_choose(r, c, alpha, pending, alts);
		rc = ti_ab_adjust(r, c, alpha, pending);
	}
	if (rc == 0) {
		annotate_rows(r, c);
		rc = ti_ab_geomean_compute(r, c, &s, &r->geomean);
	}
	scratch_close(&s);
	free(pending);
	free(alts);
	if (rc == 0)
		finish(r, c);
	else
		ti_ab_result_free(r);
	return rc;
}
