/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* series-analyze.c: each benchmark's change points in a history, with the
 * levels around them, the change's interval, its cause and whether it
 * starts in the window (series.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "stats.h"

const char *const ti_series_cause_name[3] = { "unknown", "code", "machine" };

void ti_series_config_init(struct ti_series_config *c, size_t nruns)
{
	/* bench/series-sim (docs/series.md): at alpha 0.01 and 5 noise
	 * scales the rule stays under one false change point per 1000
	 * benchmark-nights on every noise model simulated. */
	c->alpha = 0.01;
	c->outlier = 5;
	c->min_change = 1;	/* timeit-compare's gate */
	c->level = 0.95;
	c->since = nruns > 5 ? nruns - 5 : 0;
	c->machine_factor = false;
	c->last_alpha = TI_SERIES_LAST_ALPHA;
}

/* What one benchmark's analysis works on: its levels with a value, in run
 * order, as logarithms, and which of them the rule sees. */
struct work {
	double *x, *kx, *y, *p, *tmp;	/* Y: KX clipped (ti_series_clip) */
	uint64_t *id;		/* KX's binary identities */
	size_t *idx, *cp;	/* X's point for each KX; the change points, in KX */
	bool *keep;
};

static void work_free(struct work *w)
{
	free(w->x);
	free(w->kx);
	free(w->y);
	free(w->p);
	free(w->tmp);
	free(w->idx);
	free(w->cp);
	free(w->keep);
	free(w->id);
}

static int work_alloc(struct work *w, size_t n)
{
	n = n ? n : 1;
	memset(w, 0, sizeof *w);
	w->x = calloc(n, sizeof *w->x);	/* gcc cannot see that none is read unset */
	w->kx = malloc(n * sizeof *w->kx);
	w->y = malloc(n * sizeof *w->y);
	w->p = malloc(n * sizeof *w->p);
	w->tmp = malloc(n * sizeof *w->tmp);
	w->idx = malloc(n * sizeof *w->idx);
	w->cp = malloc(n * sizeof *w->cp);
	w->keep = malloc(n * sizeof *w->keep);
	w->id = malloc(n * sizeof *w->id);
	if (!w->id || !w->y || !w->x || !w->kx || !w->p || !w->tmp || !w->idx || !w->cp || !w->keep) {
		work_free(w);
		return -ENOMEM;
	}
	return 0;
}

static double median_of(const double *x, size_t n, double *tmp)
{
	memcpy(tmp, x, n * sizeof *tmp);
	ti_stats_sort(tmp, n);
	return ti_stats_quantile_sorted(tmp, n, 0.5);
}

/* Change J of the K points CP over the N kept values KX, whose points are
 * PTS[IDX[i]]. */
static int describe(struct ti_series_change *ch, const struct work *w, size_t n, size_t j,
		    size_t k, const struct ti_series_point *pts,
		    const struct ti_series_config *c)
{
	size_t lo = j ? w->cp[j - 1] : 0, at = w->cp[j], hi = j + 1 < k ? w->cp[j + 1] : n;
	const struct ti_series_point *before = &pts[w->idx[at - 1]], *after = &pts[w->idx[at]];
	double d, se, q;
	int rc;

	if ((rc = ti_series_split(w->y + lo, hi - lo, at - lo, &d, &se)) < 0)
		return rc;
	q = ti_stats_t_quantile(1 - (1 - c->level) / 2, hi - lo > 2 ? (double)(hi - lo - 2) : 1);
	ch->index = after->run;
	ch->prev = before->run;
	ch->before = exp(median_of(w->kx + lo, at - lo, w->tmp));
	ch->after = exp(median_of(w->kx + at, hi - at, w->tmp));
	ch->change = expm1(d);
	ch->lo = expm1(d - q * se);
	ch->hi = expm1(d + q * se);
	ch->p = w->p[j];
	ch->n_before = at - lo;
	ch->n_after = hi - at;
	ch->cause = !before->hash || !after->hash ? TI_SERIES_CAUSE_UNKNOWN
		    : before->hash == after->hash ? TI_SERIES_CAUSE_MACHINE : TI_SERIES_CAUSE_CODE;
	ch->in_window = ch->index >= c->since;
	return 0;
}

/* B's binary never changed, and is known. */
static bool stable(const struct ti_series_bench *b)
{
	uint64_t id = 0;

	for (size_t i = 0; i < b->n; i++) {
		if (!b->p[i].hash || (id && b->p[i].hash != id))
			return false;
		id = b->p[i].hash;
	}
	return id != 0;
}

/* The machine factor of each run of H into F (logs, 0 where fewer than 3
 * stable benchmarks ran); how many benchmarks it came from into *REFS. */
static int machine_factor(const struct ti_series_history *h, double *f, size_t *refs)
{
	size_t *count = calloc(h->nruns + 1, sizeof *count), total = 0;
	size_t most = (h->nb > h->nruns ? h->nb : h->nruns) + 1;
	double *dev = NULL, *tmp = NULL, *vals = NULL;
	int rc = -ENOMEM;

	*refs = 0;
	if (!count)
		return rc;
	for (size_t i = 0; i < h->nb; i++)
		for (size_t j = 0; stable(&h->b[i]) && j < h->b[i].n; j++)
			count[h->b[i].p[j].run + 1] += !isnan(h->b[i].p[j].level);
	for (size_t r = 0; r < h->nruns; r++)
		count[r + 1] += count[r];	/* now offsets */
	total = count[h->nruns];
	if (!(dev = malloc((total ? total : 1) * sizeof *dev)) ||
	    !(tmp = malloc(most * sizeof *tmp)) || !(vals = malloc(most * sizeof *vals)))
		goto out;
	for (size_t i = 0; i < h->nb; i++) {
		const struct ti_series_bench *b = &h->b[i];
		size_t k = 0;
		if (!stable(b))
			continue;
		for (size_t j = 0; j < b->n; j++)
			if (!isnan(b->p[j].level) && b->p[j].level > 0)
				vals[k++] = log(b->p[j].level);
		if (k == 0)
			continue;
		(*refs)++;
		double m = median_of(vals, k, tmp);
		for (size_t j = 0; j < b->n; j++)
			if (!isnan(b->p[j].level))
				dev[count[b->p[j].run]++] = b->p[j].level > 0 ? log(b->p[j].level) - m : 0;
	}
	/* COUNT[r] is now the end of run r's deviations, COUNT[r - 1] its start. */
	for (size_t r = 0; r < h->nruns; r++) {
		size_t from = r ? count[r - 1] : 0, n = count[r] - from;
		f[r] = n >= 3 ? median_of(dev + from, n, tmp) : 0;
	}
	rc = 0;
out:
	free(count);
	free(dev);
	free(tmp);
	free(vals);
	return rc;
}

/* The levels of B into W: every point with one, then the kept ones. */
static int levels(struct ti_series_row *row, struct work *w, const struct ti_series_bench *b,
		  const struct ti_series_config *c, const double *factor, size_t *nx, size_t *nk)
{
	size_t n = 0, m = 0;
	int rc;

	for (size_t i = 0; i < b->n; i++) {
		row->failed += b->p[i].failed;
		row->nulls += b->p[i].nulls;
		if (isnan(b->p[i].level) || b->p[i].level <= 0) {
			row->failed_runs += b->p[i].failed > 0;
			row->zero_runs += !isnan(b->p[i].level);
			continue;
		}
		w->idx[n] = i;
		w->x[n++] = log(b->p[i].level) - (factor ? factor[b->p[i].run] : 0);
	}
	if ((rc = ti_series_disturbed(w->x, n, c, w->keep, &row->pending)) < 0)
		return rc;
	row->disturbed = (size_t)rc;
	for (size_t i = 0; i < n; i++) {
		if (!w->keep[i]) {
			if (i + 1 < n && row->first_disturbed == SIZE_MAX)
				row->first_disturbed = b->p[w->idx[i]].run;
			continue;
		}
		w->idx[m] = w->idx[i];
		w->id[m] = b->p[w->idx[i]].hash;
		w->kx[m++] = w->x[i];
	}
	row->runs = n;
	row->last = n ? b->p[b->n - 1].level : NAN;
	if (row->pending && m > 0) {
		/* The last run against the level it left. */
		size_t from = m > 3 ? m - 3 : 0;
		row->pending_change = expm1(w->x[n - 1] - median_of(w->kx + from, m - from, w->tmp));
	}
	*nx = n;
	*nk = m;
	return 0;
}

static int analyze_bench(struct ti_series_row *row, const struct ti_series_bench *b,
			 const struct ti_series_config *c, const double *factor)
{
	struct work w;
	size_t n, m;
	int rc, k;

	memset(row, 0, sizeof *row);
	row->b = b;
	row->first_disturbed = SIZE_MAX;
	row->pending_change = NAN;
	if ((rc = work_alloc(&w, b->n)) < 0)
		return rc;
	if ((rc = levels(row, &w, b, c, factor, &n, &m)) < 0)
		goto out;
	if (m && (rc = ti_series_clip(w.kx, m, w.y)) < 0)
		goto out;
	if ((k = ti_series_cpoints(w.kx, w.id, m, c, w.cp, w.p, m)) < 0) {
		rc = k;
		goto out;
	}
	if (k > 0 && !(row->ch = calloc((size_t)k, sizeof *row->ch))) {
		rc = -ENOMEM;
		goto out;
	}
	/* The last night against the level since the last change point. */
	if (n > 0 && !isnan(b->p[b->n - 1].level) && b->p[b->n - 1].level > 0) {
		/* The last night, when kept, is not its own reference. */
		size_t ref = m > 0 && w.idx[m - 1] == b->n - 1 ? m - 1 : m;
		size_t from = k > 0 ? w.cp[k - 1] : 0;
		if (from < ref) {
			row->suspect = ti_series_suspect(w.kx + from, ref - from, w.x[n - 1], c,
							 &row->suspect_change, &row->suspect_p) == 1;
			/* The machine's change: the same binary as the level's. */
			row->suspect_machine = b->p[b->n - 1].hash &&
					       b->p[b->n - 1].hash == b->p[w.idx[ref - 1]].hash;
		}
	}
	for (int j = 0; j < k; j++) {
		struct ti_series_change *ch = &row->ch[row->nch];
		if ((rc = describe(ch, &w, m, (size_t)j, (size_t)k, b->p, c)) < 0)
			goto out;
		row->nch++;
	}
	rc = 0;
out:
	work_free(&w);
	return rc;
}

static int analyze_all(const struct ti_series_history *h, const struct ti_series_config *c,
		       struct ti_series_result *r)
{
	memset(r, 0, sizeof *r);
	if (!(c->alpha > 0 && c->alpha < 1) || !(c->min_change >= 0) ||
	    !(c->last_alpha >= 0 && c->last_alpha < 1) ||
	    !(c->level > 0 && c->level < 1) || !(c->outlier > 0))
		return -EINVAL;
	double *factor = NULL;
	if (h->nb && !(r->rows = calloc(h->nb, sizeof *r->rows)))
		return -ENOMEM;
	if (c->machine_factor &&
	    (!(factor = calloc(h->nruns ? h->nruns : 1, sizeof *factor)) ||
	     machine_factor(h, factor, &r->factor_refs) < 0)) {
		free(factor);
		ti_series_result_free(r);
		return -ENOMEM;
	}
	for (size_t i = 0; i < h->nb; i++) {
		struct ti_series_row *row = &r->rows[i];
		int rc = analyze_bench(row, &h->b[i], c, factor);
		r->n = i + 1;
		if (rc < 0) {
			free(factor);
			ti_series_result_free(r);
			return rc;
		}
		r->changes += row->nch;
		r->pending += row->pending;
		r->suspects += row->suspect;
		r->suspect_slower |= row->suspect && !row->suspect_machine &&
				     row->suspect_change >= c->min_change / 100;
	}
	free(factor);
	return 0;
}

/* CUT, the change points of the history before the window, has one of
 * the same direction within TOL runs of CH. */
static bool known(const struct ti_series_row *cut, const struct ti_series_change *ch, size_t tol)
{
	for (size_t j = 0; cut && j < cut->nch; j++) {
		const struct ti_series_change *o = &cut->ch[j];
		size_t d = o->index > ch->index ? o->index - ch->index : ch->index - o->index;
		if (d <= tol && (o->change > 0) == (ch->change > 0))
			return true;
	}
	return false;
}

/* The history H before the run SINCE into CUT (B: its benchmarks, NB of
 * them, sharing H's points). */
static void cut_history(const struct ti_series_history *h, size_t since,
			struct ti_series_history *cut, struct ti_series_bench *b)
{
	memset(cut, 0, sizeof *cut);
	cut->runs = h->runs;
	cut->nruns = since;
	cut->b = b;
	cut->nb = h->nb;
	cut->samples = h->samples;
	for (size_t i = 0; i < h->nb; i++) {
		b[i] = h->b[i];
		b[i].n = 0;
		while (b[i].n < h->b[i].n && h->b[i].p[b[i].n].run < since)
			b[i].n++;
	}
}

/* How many of the nights before the window are replayed for a change
 * the cut does not know: each is one more analysis of its benchmark, so
 * they are bounded; a change found, lost for this many nights and found
 * again is new again. */
#define REPLAY_NIGHTS 32

/* A change of the same direction this many runs from one an earlier
 * night had (the cut's, or a night's before it) is that change, placed
 * again on more nights (bench/series-sim ... replay: within 1 run, a step
 * at CV 2 % set exit 1 on two nights in about 1 history of 100). */
#define REPLAY_TOL 3

/* The machine factors of the first LEN runs of H, as a history alone,
 * into a new array *F. */
static int prefix_factor(const struct ti_series_history *h, size_t len, double **f)
{
	struct ti_series_history cut;
	struct ti_series_bench *b = malloc((h->nb ? h->nb : 1) * sizeof *b);
	size_t refs;
	int rc = -ENOMEM;

	*f = calloc(h->nruns ? h->nruns : 1, sizeof **f);
	if (b && *f) {
		cut_history(h, len, &cut, b);
		rc = machine_factor(&cut, *f, &refs);
	}
	free(b);
	return rc;
}

/* The prefixes of the history before the window, the longest first, back
 * to the change's start (each a history of its first L runs): does one of
 * them, as a night of a replay, already have CH of row I?  FACTOR caches
 * their machine factors (c->machine_factor), one array per prefix. */
static int seen_before(const struct ti_series_history *h, const struct ti_series_config *c,
		       size_t i, const struct ti_series_change *ch, double **factor, bool *seen)
{
	size_t lo = c->since > REPLAY_NIGHTS ? c->since - REPLAY_NIGHTS : 0;

	*seen = false;
	/* A change point needs two nights on its new level, and the same
	 * change may have been placed up to REPLAY_TOL runs before CH on an
	 * earlier night (found at 33 on night 35, lost, found at 34 on night
	 * 38: the prefixes from 36 alone did not have it, and it set exit 1
	 * twice). */
	if (lo + REPLAY_TOL < ch->index + 2)
		lo = ch->index + 2 - REPLAY_TOL;
	for (size_t len = c->since; len-- > lo && !*seen;) {
		struct ti_series_bench b = h->b[i];
		struct ti_series_row row;
		double **f = &factor[c->since - 1 - len];
		int rc;

		b.n = 0;
		while (b.n < h->b[i].n && h->b[i].p[b.n].run < len)
			b.n++;
		if (c->machine_factor && !*f && (rc = prefix_factor(h, len, f)) < 0)
			return rc;
		rc = analyze_bench(&row, &b, c, c->machine_factor ? *f : NULL);
		*seen = rc == 0 && known(&row, ch, REPLAY_TOL);
		free(row.ch);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int ti_series_analyze(const struct ti_series_history *h, const struct ti_series_config *c,
		      struct ti_series_result *r)
{
	double *factor[REPLAY_NIGHTS] = { NULL };
	struct ti_series_result before = { 0 };
	struct ti_series_history cut;
	struct ti_series_bench *b = NULL;
	bool has_cut = c->since > 0 && c->since < h->nruns;
	int rc;

	if ((rc = analyze_all(h, c, r)) < 0)
		return rc;
	if (has_cut) {
		if (!(b = malloc((h->nb ? h->nb : 1) * sizeof *b))) {
			ti_series_result_free(r);
			return -ENOMEM;
		}
		cut_history(h, c->since, &cut, b);
		if ((rc = analyze_all(&cut, c, &before)) < 0) {
			free(b);
			ti_series_result_free(r);
			return rc;
		}
	}
	rc = 0;
	for (size_t i = 0; i < r->n; i++) {
		struct ti_series_row *row = &r->rows[i];
		for (size_t j = 0; j < row->nch; j++) {
			struct ti_series_change *ch = &row->ch[j];
			ch->confirmed = ch->in_window ||
					!known(has_cut ? &before.rows[i] : NULL, ch, REPLAY_TOL);
			/* Nor one of the nights before the cut, back to the
			 * change's start: a change at the edge of significance
			 * is found, lost and found again, and is new once. */
			bool seen = false;
			if (ch->confirmed && !ch->in_window && has_cut &&
			    (rc = seen_before(h, c, i, ch, factor, &seen)) < 0)
				break;
			ch->confirmed = ch->confirmed && !seen;
			/* A slower binary confirmed in the window gates; the
			 * machine's change is said, not gated on (as
			 * timeit-compare's same binary). */
			if (ch->confirmed && ch->change >= c->min_change / 100 &&
			    ch->cause != TI_SERIES_CAUSE_MACHINE) {
				row->regressed = true;
				r->regressions++;
			}
		}
		r->regressed |= row->regressed;
		if (rc < 0)
			break;
	}
	ti_series_result_free(&before);
	free(b);
	for (size_t i = 0; i < REPLAY_NIGHTS; i++)
		free(factor[i]);
	if (rc < 0)
		ti_series_result_free(r);
	return rc < 0 ? rc : 0;
}

void ti_series_result_free(struct ti_series_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->rows[i].ch);
	free(r->rows);
	memset(r, 0, sizeof *r);
}
