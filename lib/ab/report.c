/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* report.c: the text, Markdown, CSV and JSON reports of a comparison
 * (report.h). */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "report-int.h"

enum col { C_NAME, C_NA, C_NB, C_MEDA, C_MEDB, C_CHANGE, C_CI, C_SPA, C_SPB, C_P,
	   C_VERDICT, C_NOTE, C_COUNT };
static const char *const col_title[C_COUNT] = {
	"benchmark", "nA", "nB", "median A", "median B", "change", "CI", "MAD% A", "MAD% B",
	"p", "verdict", "note",
};

void ti_ab_report_pct(char *s, size_t len, double v)
{
	if (isnan(v))
		snprintf(s, len, "-");
	else if (isinf(v))
		snprintf(s, len, "%sinf", v > 0 ? "+" : "-");
	else
		snprintf(s, len, "%+.2f%%", 100 * v);
}

static void num(char *s, size_t len, double v)
{
	if (isnan(v))
		snprintf(s, len, "-");
	else if (fabs(v) >= 1e5 && fabs(v) < 1e18 && v == floor(v))
		snprintf(s, len, "%.0f", v);	/* counts and bytes: all digits */
	else
		snprintf(s, len, "%.6g", v);
}

/* S for a table cell of LEN bytes: a line break in a name (or in a path
 * in a note) would break the row, so control characters become C escapes
 * (\n, \t, \x7f), and a backslash \\ so that no two names look alike. */
static void escaped(char *out, size_t len, const char *s)
{
	size_t o = 0;

	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		char e[8];

		if (ch == '\\')
			snprintf(e, sizeof e, "\\\\");
		else if (ch == '\n')
			snprintf(e, sizeof e, "\\n");
		else if (ch == '\t')
			snprintf(e, sizeof e, "\\t");
		else if (ch == '\r')
			snprintf(e, sizeof e, "\\r");
		else if (ch < 0x20 || ch == 0x7f)
			snprintf(e, sizeof e, "\\x%02x", ch);
		else
			snprintf(e, sizeof e, "%c", ch);
		if (o + strlen(e) >= len)
			break;
		memcpy(out + o, e, strlen(e));
		o += strlen(e);
	}
	out[o] = '\0';
}

/* The cells of one row as text; shared by text and Markdown. */
static void cells(const struct ti_ab_row *r, char cell[C_COUNT][192])
{
	char lo[32], hi[32];

	escaped(cell[C_NAME], 192, r->name);
	snprintf(cell[C_NA], 192, "%zu", r->a ? r->a->n : 0);
	snprintf(cell[C_NB], 192, "%zu", r->b ? r->b->n : 0);
	num(cell[C_MEDA], 192, r->med_a);
	num(cell[C_MEDB], 192, r->med_b);
	ti_ab_report_pct(cell[C_CHANGE], 192, expm1(r->change));
	if (isnan(r->lo) || (isinf(r->lo) && isinf(r->hi))) {
		snprintf(cell[C_CI], 192, "-");
	} else {
		ti_ab_report_pct(lo, sizeof lo, expm1(r->lo));
		ti_ab_report_pct(hi, sizeof hi, expm1(r->hi));
		snprintf(cell[C_CI], 192, "%s..%s", lo, hi);
	}
	if (isnan(r->spread_a))
		snprintf(cell[C_SPA], 192, "-");
	else
		snprintf(cell[C_SPA], 192, "%.2f", 100 * r->spread_a);
	if (isnan(r->spread_b))
		snprintf(cell[C_SPB], 192, "-");
	else
		snprintf(cell[C_SPB], 192, "%.2f", 100 * r->spread_b);
	if (isnan(r->p_adj))
		snprintf(cell[C_P], 192, "-");
	else
		snprintf(cell[C_P], 192, "%.4f", r->p_adj);
	snprintf(cell[C_VERDICT], 192, "%s", ti_ab_verdict_name[r->v]);
	escaped(cell[C_NOTE], 192, r->note);
}

bool ti_ab_report_listed(const struct ti_ab_row *r, const struct ti_ab_report_opts *o)
{
	return !o->only_changed || r->v != TI_AB_UNCHANGED;
}

static const char *adjust_name(enum ti_stats_adjust a)
{
	return a == TI_STATS_ADJUST_HOLM ? "holm" : a == TI_STATS_ADJUST_BH ? "bh" : "none";
}

static void summary_lines(struct ti_buf *o, const struct ti_ab_row *rows, size_t n,
			  const struct ti_ab_geomean *g, const struct ti_ab_config *c,
			  const struct ti_ab_report_opts *opt, const char *prefix)
{
	size_t count[TI_AB_VERDICTS] = { 0 };
	char lo[32], hi[32], mid[32];

	for (size_t i = 0; i < n; i++)
		count[rows[i].v]++;
	if (g->n) {
		ti_ab_report_pct(mid, sizeof mid, g->ratio - 1);
		ti_ab_report_pct(lo, sizeof lo, g->lo - 1);
		ti_ab_report_pct(hi, sizeof hi, g->hi - 1);
		ti_buf_printf(o, "%sgeometric mean of B/A: %s (%.0f%% bootstrap CI %s..%s, %zu benchmark%s)\n",
			      prefix, mid, 100 * (1 - c->alpha), lo, hi, g->n, g->n == 1 ? "" : "s");
	} else {
		ti_buf_printf(o, "%sgeometric mean of B/A: - (%s)\n", prefix, TI_AB_NO_GEOMEAN);
	}
	ti_buf_printf(o, "%s", prefix);
	for (int v = 0; v < TI_AB_VERDICTS; v++)
		ti_buf_printf(o, "%s%zu %s", v ? ", " : "", count[v], ti_ab_verdict_name[v]);
	ti_buf_printf(o, "\n%smetric %s, alpha %g (%s), min change %g%%%s\n", prefix, c->metric,
		      c->alpha, adjust_name(c->adjust), c->min_change,
		      opt->noise_floor ? ", noise floor from A/A" : "");
}

static const char *verdict_color(enum ti_ab_verdict v)
{
	switch (v) {
	case TI_AB_REGRESSED: return "\033[31m";
	case TI_AB_IMPROVED: return "\033[32m";
	case TI_AB_NOISY: return "\033[33m";
	case TI_AB_MISSING: case TI_AB_FAILED: return "\033[35m";
	default: return NULL;
	}
}

static void format_text(struct ti_buf *o, const struct ti_ab_row *rows, size_t n,
			const struct ti_ab_geomean *g, const struct ti_ab_config *c,
			const struct ti_ab_report_opts *opt)
{
	size_t w[C_COUNT];
	char cell[C_COUNT][192];

	for (int k = 0; k < C_COUNT; k++)
		w[k] = strlen(col_title[k]);
	for (size_t i = 0; i < n; i++) {
		if (!ti_ab_report_listed(&rows[i], opt))
			continue;
		cells(&rows[i], cell);
		for (int k = 0; k < C_COUNT; k++)
			if (strlen(cell[k]) > w[k])
				w[k] = strlen(cell[k]);
	}
	for (size_t i = 0; i <= n; i++) {
		if (i > 0 && !ti_ab_report_listed(&rows[i - 1], opt))
			continue;
		if (i == 0)
			for (int k = 0; k < C_COUNT; k++)
				snprintf(cell[k], sizeof cell[k], "%s", col_title[k]);
		else
			cells(&rows[i - 1], cell);
		const char *col = i > 0 && opt->color ? verdict_color(rows[i - 1].v) : NULL;
		for (int k = 0; k < C_COUNT; k++) {
			bool left = k == C_NAME || k == C_VERDICT || k == C_NOTE;
			if (k == C_NOTE && !cell[k][0])
				break;
			if (k)
				ti_buf_append(o, "  ", 2);
			if (k == C_VERDICT && col)
				ti_buf_printf(o, "%s", col);
			ti_buf_printf(o, left ? "%-*s" : "%*s", k == C_NOTE ? 0 : (int)w[k], cell[k]);
			if (k == C_VERDICT && col)
				ti_buf_printf(o, "\033[0m");
		}
		/* Trailing blanks from padding the last printed cell. */
		while (o->len && o->data[o->len - 1] == ' ')
			o->data[--o->len] = '\0';
		ti_buf_append(o, "\n", 1);
	}
	ti_buf_append(o, "\n", 1);
	summary_lines(o, rows, n, g, c, opt, "");
}

static void md_escape(struct ti_buf *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			ti_buf_append(o, "\\", 1);
		ti_buf_append(o, s, 1);
	}
}

static void format_md(struct ti_buf *o, const struct ti_ab_row *rows, size_t n,
		      const struct ti_ab_geomean *g, const struct ti_ab_config *c,
		      const struct ti_ab_report_opts *opt)
{
	char cell[C_COUNT][192];

	ti_buf_printf(o, "|");
	for (int k = 0; k < C_COUNT; k++)
		ti_buf_printf(o, " %s |", col_title[k]);
	ti_buf_printf(o, "\n|");
	for (int k = 0; k < C_COUNT; k++)
		ti_buf_printf(o, k == C_NAME || k >= C_VERDICT ? ":---|" : "---:|");
	ti_buf_printf(o, "\n");
	for (size_t i = 0; i < n; i++) {
		if (!ti_ab_report_listed(&rows[i], opt))
			continue;
		cells(&rows[i], cell);
		ti_buf_printf(o, "|");
		for (int k = 0; k < C_COUNT; k++) {
			bool bold = k == C_VERDICT && rows[i].v == TI_AB_REGRESSED;
			ti_buf_printf(o, " %s", bold ? "**" : "");
			md_escape(o, cell[k]);
			ti_buf_printf(o, "%s |", bold ? "**" : "");
		}
		ti_buf_printf(o, "\n");
	}
	ti_buf_printf(o, "\n");
	summary_lines(o, rows, n, g, c, opt, "- ");
}

static void csv_field(struct ti_buf *o, const char *s)
{
	/* RFC 4180: quote fields holding a comma, quote or line break. */
	if (!strpbrk(s, ",\"\r\n")) {
		ti_buf_printf(o, "%s", s);
		return;
	}
	ti_buf_append(o, "\"", 1);
	for (; *s; s++) {
		if (*s == '"')
			ti_buf_append(o, "\"", 1);
		ti_buf_append(o, s, 1);
	}
	ti_buf_append(o, "\"", 1);
}

static void csv_num(struct ti_buf *o, double v)
{
	if (isfinite(v))
		ti_buf_printf(o, ",%.9g", v);
	else if (isinf(v))
		ti_buf_printf(o, ",%s", v > 0 ? "inf" : "-inf");
	else
		ti_buf_printf(o, ",");
}

static void format_csv(struct ti_buf *o, const struct ti_ab_row *rows, size_t n,
		       const struct ti_ab_report_opts *opt)
{
	ti_buf_printf(o, "benchmark,n_a,n_b,median_a,median_b,change,ci_low,ci_high,"
			 "mad_a,mad_b,p,p_adjusted,verdict,code,note\n");
	for (size_t i = 0; i < n; i++) {
		const struct ti_ab_row *r = &rows[i];
		if (!ti_ab_report_listed(r, opt))
			continue;
		csv_field(o, r->name);
		ti_buf_printf(o, ",%zu,%zu", r->a ? r->a->n : 0, r->b ? r->b->n : 0);
		csv_num(o, r->med_a);
		csv_num(o, r->med_b);
		csv_num(o, expm1(r->change));
		csv_num(o, isfinite(r->lo) ? expm1(r->lo) : NAN);
		csv_num(o, isfinite(r->hi) ? expm1(r->hi) : NAN);
		csv_num(o, r->spread_a);
		csv_num(o, r->spread_b);
		csv_num(o, r->p);
		csv_num(o, r->p_adj);
		ti_buf_printf(o, ",%s,%s,", ti_ab_verdict_name[r->v],
			      r->code == TI_AB_CODE_SAME ? "same" : r->code == TI_AB_CODE_CHANGED ? "changed" : "");
		csv_field(o, r->note);
		ti_buf_printf(o, "\n");
	}
}

/* JSON numbers: NaN and infinities become null (ti_json_double). */
static void format_json(struct ti_buf *o, const struct ti_ab_row *rows, size_t n,
			const struct ti_ab_geomean *g, const struct ti_ab_config *c,
			const struct ti_ab_report_opts *opt)
{
	struct ti_json j;
	size_t count[TI_AB_VERDICTS] = { 0 };

	ti_json_init(&j, o);
	ti_json_object(&j, NULL);
	ti_json_string(&j, "metric", c->metric);
	ti_json_double(&j, "alpha", c->alpha);
	ti_json_string(&j, "adjust", adjust_name(c->adjust));
	ti_json_double(&j, "min_change", c->min_change / 100);
	ti_json_bool(&j, "noise_floor", opt->noise_floor);
	ti_json_array(&j, "benchmarks");
	for (size_t i = 0; i < n; i++) {
		const struct ti_ab_row *r = &rows[i];
		count[r->v]++;
		if (!ti_ab_report_listed(r, opt))
			continue;
		ti_json_object(&j, NULL);
		ti_json_string(&j, "name", r->name);
		ti_json_uint(&j, "n_a", r->a ? r->a->n : 0);
		ti_json_uint(&j, "n_b", r->b ? r->b->n : 0);
		ti_json_uint(&j, "failures_a", r->a ? r->a->failures : 0);
		ti_json_uint(&j, "failures_b", r->b ? r->b->failures : 0);
		ti_json_double(&j, "median_a", r->med_a);
		ti_json_double(&j, "median_b", r->med_b);
		ti_json_double(&j, "mad_a", r->spread_a);
		ti_json_double(&j, "mad_b", r->spread_b);
		ti_json_double(&j, "change", expm1(r->change));
		ti_json_double(&j, "hl_change", expm1(r->hl));
		ti_json_double(&j, "ci_low", isfinite(r->lo) ? expm1(r->lo) : NAN);
		ti_json_double(&j, "ci_high", isfinite(r->hi) ? expm1(r->hi) : NAN);
		ti_json_double(&j, "p", r->p);
		ti_json_double(&j, "p_adjusted", r->p_adj);
		ti_json_double(&j, "noise_floor", expm1(r->floor));
		ti_json_string(&j, "code", r->code == TI_AB_CODE_SAME ? "same"
				 : r->code == TI_AB_CODE_CHANGED ? "changed" : NULL);
		ti_json_double(&j, "instructions_change", r->insn_change);
		ti_json_string(&j, "verdict", ti_ab_verdict_name[r->v]);
		ti_json_bool(&j, "gating", r->gating);
		ti_json_string(&j, "note", r->note);
		ti_json_end(&j, '}');
	}
	ti_json_end(&j, ']');
	ti_json_object(&j, "geomean");
	ti_json_uint(&j, "n", g->n);
	ti_json_double(&j, "ratio", g->ratio);
	ti_json_double(&j, "ci_low", g->lo);
	ti_json_double(&j, "ci_high", g->hi);
	ti_json_uint(&j, "seed", c->seed);
	ti_json_uint(&j, "resamples", c->reps);
	ti_json_end(&j, '}');
	ti_json_object(&j, "counts");
	for (int v = 0; v < TI_AB_VERDICTS; v++)
		ti_json_uint(&j, ti_ab_verdict_name[v], count[v]);
	ti_json_end(&j, '}');
	ti_json_int(&j, "status", opt->status);
	ti_json_end(&j, '}');
	ti_buf_append(o, "\n", 1);
}


void ti_ab_report(struct ti_buf *out, const struct ti_ab_result *r, const struct ti_ab_config *c,
		  const struct ti_ab_report_opts *o)
{
	switch (o->format) {
	case TI_AB_TEXT: format_text(out, r->rows, r->n, &r->geomean, c, o); break;
	case TI_AB_MD: format_md(out, r->rows, r->n, &r->geomean, c, o); break;
	case TI_AB_CSV: format_csv(out, r->rows, r->n, o); break;
	case TI_AB_JSON: format_json(out, r->rows, r->n, &r->geomean, c, o); break;
	}
}
