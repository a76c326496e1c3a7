/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* series-report.c: the reports of a history's change points (series.h):
 * a text table, Markdown, CSV and JSON.  Each format has one owner here;
 * the escapings are the A/B reports' (report-int.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "report-int.h"
#include "series.h"

enum col { C_NAME, C_RUN, C_INDEX, C_BEFORE, C_AFTER, C_CHANGE, C_CI, C_P, C_CAUSE, C_NEW,
	   C_COUNT };

/* A cell holds a whole name, escaped: a path of PATH_MAX (4096) bytes,
 * each at most 4 as an escape (\x7f); a name cut short would be another
 * name (--undecided's lines are the next round's filter). */
#define CELL 16388

static const char *const title[C_COUNT] = {
	"benchmark", "run", "index", "before", "after", "change", "interval", "p", "cause", "window",
};

/* The change is listed under O. */
static bool listed(const struct ti_series_change *ch, const struct ti_series_report_opts *o)
{
	return !o->only_recent || ch->in_window || ch->confirmed;
}

static void pvalue(char *s, size_t len, double p)
{
	if (p < 1e-16)
		snprintf(s, len, "<1e-16");
	else
		snprintf(s, len, "%.2g", p);
}

static void cells(const struct ti_series_history *h, const struct ti_series_row *row,
		  const struct ti_series_change *ch, char cell[C_COUNT][CELL])
{
	char lo[64], hi[64];

	ti_ab_report_cell(cell[C_NAME], CELL, row->b->name);
	ti_ab_report_cell(cell[C_RUN], CELL, h->runs[ch->index].label);
	snprintf(cell[C_INDEX], CELL, "%zu", ch->index);
	ti_ab_report_num(cell[C_BEFORE], CELL, ch->before);
	ti_ab_report_num(cell[C_AFTER], CELL, ch->after);
	ti_ab_report_pct(cell[C_CHANGE], CELL, ch->change);
	ti_ab_report_pct(lo, sizeof lo, ch->lo);
	ti_ab_report_pct(hi, sizeof hi, ch->hi);
	snprintf(cell[C_CI], CELL, "%s..%s", lo, hi);
	pvalue(cell[C_P], CELL, ch->p);
	snprintf(cell[C_CAUSE], CELL, "%s", ti_series_cause_name[ch->cause]);
	snprintf(cell[C_NEW], CELL, "%s", !ch->confirmed ? "" : ch->change > 0 &&
		 ch->cause != TI_SERIES_CAUSE_MACHINE ? "REGRESSED" : "new");
}

/* N's noun: ONE for 1, MANY otherwise ("1 run", "2 runs"). */
static const char *nn(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* How many of ROW's changes O lists. */
static size_t listed_in(const struct ti_series_row *row, const struct ti_series_report_opts *o)
{
	size_t n = 0;

	for (size_t j = 0; j < row->nch; j++)
		n += listed(&row->ch[j], o);
	return n;
}

/* The names of the rows of R that WHICH picks (at least one), into O:
 * the first few, then how many more, so that a note of a thousand
 * benchmarks stays a line. */
#define NAMES_SHOWN 3
static void names(struct ti_buf *o, const struct ti_series_result *r,
		  bool (*which)(const struct ti_series_row *))
{
	size_t n = 0, shown = 0;
	char name[CELL];

	for (size_t i = 0; i < r->n; i++)
		n += which(&r->rows[i]);
	for (size_t i = 0; i < r->n && shown < NAMES_SHOWN; i++) {
		if (!which(&r->rows[i]))
			continue;
		ti_ab_report_cell(name, sizeof name, r->rows[i].b->name);
		shown++;
		ti_buf_printf(o, "%s%s", shown == 1 ? "" : shown == n ? " and " : ", ", name);
	}
	if (n > shown)
		ti_buf_printf(o, " and %zu more", n - shown);
}

static bool has_disturbed(const struct ti_series_row *row)
{
	return row->disturbed > 0;
}

static bool all_zero(const struct ti_series_row *row)
{
	return row->zero_runs > 0 && row->runs == 0;
}

static bool some_zero(const struct ti_series_row *row)
{
	return row->zero_runs > 0 && row->runs > 0;
}

/* The notes of the report, each with PREFIX: the history, the window, and
 * what the rule left out or could not tell yet.  The counts are of what
 * is listed under O. */
static void notes(struct ti_buf *o, const struct ti_series_history *h,
		  const struct ti_series_result *r, const struct ti_series_config *c,
		  const struct ti_series_report_opts *opt, const char *prefix)
{
	char t[64];
	size_t failed = 0, disturbed = 0, zero = 0, shown = 0, all0 = 0;
	size_t win = h->nruns - c->since;

	for (size_t i = 0; i < r->n; i++) {
		shown += listed_in(&r->rows[i], opt);
		failed += r->rows[i].failed_runs;
		disturbed += r->rows[i].disturbed;
		zero += some_zero(&r->rows[i]) ? r->rows[i].zero_runs : 0;
		all0 += all_zero(&r->rows[i]);
	}
	if (h->nruns)
		ti_buf_printf(o, "%s%zu %s, %s .. %s; %zu %s; window: %zu %s from %s (index %zu)\n",
			      prefix, h->nruns, nn(h->nruns, "run", "runs"), h->runs[0].label,
			      h->runs[h->nruns - 1].label, r->n, nn(r->n, "benchmark", "benchmarks"),
			      win, nn(win, "run", "runs"),
			      c->since < h->nruns ? h->runs[c->since].label : "-", c->since);
	if (c->machine_factor)
		ti_buf_printf(o, "%slevels relative to each night's machine factor, from %zu "
			      "%s whose binary never changed%s\n", prefix, r->factor_refs,
			      nn(r->factor_refs, "benchmark", "benchmarks"),
			      r->factor_refs < 3 ? " (fewer than 3: no factor)" : "");
	ti_buf_printf(o, "%s%zu %s at the gate of %g%%", prefix, shown,
		      nn(shown, "change point", "change points"), c->min_change);
	if (r->changes > shown)
		ti_buf_printf(o, " (%zu older %s left out: --only-recent)", r->changes - shown,
			      nn(r->changes - shown, "one", "ones"));
	ti_buf_printf(o, "; %zu %s confirmed in the window\n", r->regressions,
		      nn(r->regressions, "regression", "regressions"));
	for (size_t i = 0; i < r->n; i++) {
		const struct ti_series_row *row = &r->rows[i];
		char name[CELL];

		if (row->suspect) {
			char pv[32];
			ti_ab_report_cell(name, sizeof name, row->b->name);
			ti_ab_report_pct(t, sizeof t, row->suspect_change);
			pvalue(pv, sizeof pv, row->suspect_p);
			ti_buf_printf(o, "%s%s: last night off its level: %s, p=%s, suspect%s\n", prefix,
				      name, t, pv, row->suspect_machine ? " (the same binary)" : "");
			continue;
		}
		if (!row->pending)
			continue;
		ti_ab_report_cell(name, sizeof name, row->b->name);
		ti_ab_report_pct(t, sizeof t, row->pending_change);
		ti_buf_printf(o, "%s%s: the last run is %s off the level: a change there cannot be told "
			      "from a bad night yet (the next run will tell)\n", prefix, name, t);
	}
	if (disturbed) {
		ti_buf_printf(o, "%s%zu disturbed %s left out (a run far off the runs on both "
			      "sides): ", prefix, disturbed, nn(disturbed, "night", "nights"));
		names(o, r, has_disturbed);
		ti_buf_printf(o, "\n");
	}
	for (size_t i = 0; i < r->n; i++) {
		char name[CELL];
		size_t n = r->rows[i].nulls;

		if (!n)
			continue;
		ti_ab_report_cell(name, sizeof name, r->rows[i].b->name);
		ti_buf_printf(o, "%s%s: %zu null %s left out\n", prefix, name, n,
			      nn(n, "value", "values"));
	}
	if (failed)
		ti_buf_printf(o, "%s%zu %s every sample, kept out\n", prefix, failed,
			      nn(failed, "benchmark-run failed", "benchmark-runs failed"));
	/* A level of 0 has no ratio to another: said, never dropped
	 * silently. */
	if (all0) {
		ti_buf_printf(o, "%s", prefix);
		names(o, r, all_zero);
		ti_buf_printf(o, ": all values 0: not analysed\n");
	}
	if (zero) {
		ti_buf_printf(o, "%s%zu %s at 0 left out: ", prefix, zero,
			      nn(zero, "benchmark-run", "benchmark-runs"));
		names(o, r, some_zero);
		ti_buf_printf(o, "\n");
	}
}

static void format_text(struct ti_buf *o, const struct ti_series_history *h,
			const struct ti_series_result *r, const struct ti_series_config *c,
			const struct ti_series_report_opts *opt, bool md)
{
	static char cell[C_COUNT][CELL];
	size_t w[C_COUNT];

	/* Widths in columns, not bytes: a name in UTF-8 would misalign the
	 * rows after it. */
	for (int k = 0; k < C_COUNT; k++)
		w[k] = ti_ab_report_width(title[k]);
	for (int pass = 0; pass < 2; pass++) {
		for (int k = 0; pass == 1 && k < C_COUNT; k++) {
			if (md) {
				ti_buf_printf(o, "%s ", k ? "" : "|");
				ti_ab_report_md(o, title[k]);
				ti_buf_printf(o, " |");
			} else {
				ti_buf_printf(o, "%s", k == C_NAME ? "" : "  ");
				ti_ab_report_pad(o, title[k], w[k], k == C_NAME);
			}
		}
		if (pass == 1) {
			ti_buf_printf(o, "\n");
			for (int k = 0; md && k < C_COUNT; k++)
				ti_buf_printf(o, "%s%s", k ? "" : "|",
					      k == C_NAME || k == C_RUN || k >= C_CAUSE ? ":---|" : "---:|");
			if (md)
				ti_buf_printf(o, "\n");
		}
		for (size_t i = 0; i < r->n; i++) {
			for (size_t j = 0; j < r->rows[i].nch; j++) {
				const struct ti_series_change *ch = &r->rows[i].ch[j];
				if (!listed(ch, opt))
					continue;
				cells(h, &r->rows[i], ch, cell);
				for (int k = 0; k < C_COUNT; k++) {
					size_t cw = ti_ab_report_width(cell[k]);
					if (pass == 0) {
						w[k] = cw > w[k] ? cw : w[k];
					} else if (md) {
						ti_buf_printf(o, "%s ", k ? "" : "|");
						ti_ab_report_md(o, cell[k]);
						ti_buf_printf(o, " |");
					} else {
						ti_buf_printf(o, "%s", k == C_NAME ? "" : "  ");
						ti_ab_report_pad(o, cell[k], w[k], k == C_NAME);
					}
				}
				if (pass == 1)
					ti_buf_printf(o, "\n");
			}
		}
	}
	ti_buf_printf(o, "\n");
	notes(o, h, r, c, opt, md ? "- " : "");
}

static void format_csv(struct ti_buf *o, const struct ti_series_history *h,
		       const struct ti_series_result *r, const struct ti_series_report_opts *opt)
{
	ti_buf_printf(o, "benchmark,run,index,before,after,change,lo,hi,p,cause,in_window\n");
	for (size_t i = 0; i < r->n; i++) {
		for (size_t j = 0; j < r->rows[i].nch; j++) {
			const struct ti_series_change *ch = &r->rows[i].ch[j];
			if (!listed(ch, opt))
				continue;
			ti_ab_report_csv(o, r->rows[i].b->name);
			ti_buf_printf(o, ",");
			ti_ab_report_csv(o, h->runs[ch->index].label);
			ti_buf_printf(o, ",%zu,%.9g,%.9g,%.9g,%.9g,%.9g,%.3g,%s,%d\n", ch->index,
				      ch->before, ch->after, ch->change, ch->lo, ch->hi, ch->p,
				      ti_series_cause_name[ch->cause], ch->in_window);
		}
	}
}

static void json_change(struct ti_json *j, const struct ti_series_history *h,
			const struct ti_series_change *ch)
{
	ti_json_object(j, NULL);
	ti_json_uint(j, "index", ch->index);
	ti_json_string(j, "run", h->runs[ch->index].label);
	ti_json_uint(j, "previous_index", ch->prev);
	ti_json_double(j, "before", ch->before);
	ti_json_double(j, "after", ch->after);
	ti_json_double(j, "change", ch->change);
	ti_json_array(j, "interval");
	ti_json_double(j, NULL, ch->lo);
	ti_json_double(j, NULL, ch->hi);
	ti_json_end(j, ']');
	ti_json_double(j, "p", ch->p);
	ti_json_string(j, "cause", ti_series_cause_name[ch->cause]);
	ti_json_uint(j, "runs_before", ch->n_before);
	ti_json_uint(j, "runs_after", ch->n_after);
	ti_json_bool(j, "in_window", ch->in_window);
	ti_json_bool(j, "confirmed", ch->confirmed);
	ti_json_end(j, '}');
}

static void json_runs(struct ti_json *j, const struct ti_series_history *h)
{
	ti_json_array(j, "runs");
	for (size_t i = 0; i < h->nruns; i++) {
		const struct ti_series_run *run = &h->runs[i];
		ti_json_object(j, NULL);
		ti_json_uint(j, "index", i);
		ti_json_string(j, "label", run->label);
		ti_json_string(j, "path", run->path);
		ti_json_string(j, "machine", run->info.machine[0] ? run->info.machine : NULL);
		ti_json_string(j, "order", run->info.order[0] ? run->info.order : NULL);
		ti_json_string(j, "start_time", run->info.start[0] ? run->info.start : NULL);
		ti_json_end(j, '}');
	}
	ti_json_end(j, ']');
}

static void format_json(struct ti_buf *o, const struct ti_series_history *h,
			const struct ti_series_result *r, const struct ti_series_config *c,
			const struct ti_series_report_opts *opt)
{
	struct ti_json j;

	ti_json_init(&j, o);
	ti_json_object(&j, NULL);
	ti_json_string(&j, "metric", opt->metric);
	ti_json_double(&j, "alpha", c->alpha);
	ti_json_double(&j, "min_change", c->min_change / 100);
	ti_json_double(&j, "interval_level", c->level);
	ti_json_uint(&j, "window_start", c->since);
	if (c->machine_factor)
		ti_json_uint(&j, "machine_factor_benchmarks", r->factor_refs);
	else
		ti_json_string(&j, "machine_factor_benchmarks", NULL);
	json_runs(&j, h);
	ti_json_array(&j, "benchmarks");
	for (size_t i = 0; i < r->n; i++) {
		const struct ti_series_row *row = &r->rows[i];
		ti_json_object(&j, NULL);
		ti_json_string(&j, "name", row->b->name);
		ti_json_uint(&j, "runs", row->runs);
		ti_json_uint(&j, "failed_runs", row->failed_runs);
		ti_json_uint(&j, "failed_samples", row->failed);
		ti_json_uint(&j, "disturbed_runs", row->disturbed);
		ti_json_uint(&j, "zero_runs", row->zero_runs);
		ti_json_uint(&j, "null_values", row->nulls);
		ti_json_bool(&j, "last_run_pending", row->pending);
		ti_json_double(&j, "last_run_change", row->pending_change);
		ti_json_bool(&j, "last_run_suspect", row->suspect);
		ti_json_double(&j, "last_run_suspect_change", row->suspect_change);
		ti_json_double(&j, "last_run_suspect_p", row->suspect ? row->suspect_p : NAN);
		ti_json_array(&j, "changes");
		for (size_t k = 0; k < row->nch; k++)
			if (listed(&row->ch[k], opt))
				json_change(&j, h, &row->ch[k]);
		ti_json_end(&j, ']');
		ti_json_bool(&j, "regressed", row->regressed);
		ti_json_end(&j, '}');
	}
	ti_json_end(&j, ']');
	/* The changes listed, as the text's summary counts them. */
	size_t shown = 0;
	for (size_t i = 0; i < r->n; i++)
		shown += listed_in(&r->rows[i], opt);
	ti_json_uint(&j, "changes", shown);
	ti_json_uint(&j, "changes_left_out", r->changes - shown);
	ti_json_uint(&j, "regressions", r->regressions);
	ti_json_uint(&j, "pending", r->pending);
	ti_json_uint(&j, "suspects", r->suspects);
	ti_json_double(&j, "last_alpha", c->last_alpha);
	ti_json_int(&j, "exit_status", opt->status);
	ti_json_end(&j, '}');
	ti_buf_printf(o, "\n");
}

void ti_series_report(struct ti_buf *out, const struct ti_series_history *h,
		      const struct ti_series_result *r, const struct ti_series_config *c,
		      const struct ti_series_report_opts *o)
{
	switch (o->format) {
	case TI_SERIES_TEXT: format_text(out, h, r, c, o, false); break;
	case TI_SERIES_MD: format_text(out, h, r, c, o, true); break;
	case TI_SERIES_CSV: format_csv(out, h, r, o); break;
	case TI_SERIES_JSON: format_json(out, h, r, c, o); break;
	}
}
