/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* report.c: the text, Markdown, CSV and JSON reports of a comparison and
 * the list of benchmarks more samples could decide (report.h).  Each
 * format is owned here and nowhere else. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "report-int.h"
#include "report-cell.h"
#include "report.h"

enum col { C_NAME, C_NA, C_NB, C_MEDA, C_MEDB, C_CHANGE, C_CI, C_SPA, C_SPB, C_P,
	   C_VERDICT, C_WHY, C_COUNT };

/* A cell holds a whole name, escaped: a path of PATH_MAX (4096) bytes,
 * each at most 4 as an escape (\x7f); a name cut short would be another
 * name (--undecided's lines are the next round's filter). */
#define CELL 16388

/* The interval's level in the column titles: 95% at alpha 0.05 and one
 * look. */
static double level_pct(const struct ti_ab_result *r)
{
	return 100 * (1 - r->alpha_look);
}

/* Column titles that say which p and which interval are shown. */
static void titles(char t[C_COUNT][64], const struct ti_ab_result *r, const struct ti_ab_config *c)
{
	static const char *const fixed[C_COUNT] = {
		"benchmark", "nA", "nB", "median A", "median B", "change", NULL, "MAD% A",
		"MAD% B", NULL, "verdict", "why",
	};
	for (int k = 0; k < C_COUNT; k++)
		if (fixed[k])
			snprintf(t[k], 64, "%s", fixed[k]);
	snprintf(t[C_CI], 64, "%.3g%% CI", level_pct(r));
	if (c->adjust == TI_STATS_ADJUST_NONE)
		snprintf(t[C_P], 64, "p");
	else
		snprintf(t[C_P], 64, "p (%s)", ti_ab_adjust_name(c->adjust));
}

/* The reason and the notes of R, as one text. */
static void why(char *out, size_t len, const struct ti_ab_row *r)
{
	char both[sizeof r->reason + sizeof r->note + 4];

	snprintf(both, sizeof both, "%s%s%s", r->reason, r->reason[0] && r->note[0] ? "; " : "",
		 r->note);
	ti_ab_report_cell(out, len, both);
}

/* The cells of one row as text; shared by text and Markdown. */
static void cells(const struct ti_ab_row *r, char cell[C_COUNT][CELL])
{
	char lo[32], hi[32];

	ti_ab_report_cell(cell[C_NAME], CELL, r->name);
	snprintf(cell[C_NA], CELL, "%zu", r->n_a);
	snprintf(cell[C_NB], CELL, "%zu", r->n_b);
	ti_ab_report_num(cell[C_MEDA], CELL, r->med_a);
	ti_ab_report_num(cell[C_MEDB], CELL, r->med_b);
	ti_ab_report_change_pct(cell[C_CHANGE], CELL, r->est);
	if (isnan(r->lo) || (isinf(r->lo) && isinf(r->hi))) {
		snprintf(cell[C_CI], CELL, "-");
	} else {
		ti_ab_report_change_pct(lo, sizeof lo, r->lo);
		ti_ab_report_change_pct(hi, sizeof hi, r->hi);
		snprintf(cell[C_CI], CELL, "%s..%s", lo, hi);
	}
	if (isnan(r->spread_a))
		snprintf(cell[C_SPA], CELL, "-");
	else
		snprintf(cell[C_SPA], CELL, "%.2f", 100 * r->spread_a);
	if (isnan(r->spread_b))
		snprintf(cell[C_SPB], CELL, "-");
	else
		snprintf(cell[C_SPB], CELL, "%.2f", 100 * r->spread_b);
	if (isnan(r->p_adj))
		snprintf(cell[C_P], CELL, "-");
	else if (r->p_adj < 0.0001)
		snprintf(cell[C_P], CELL, "%.1e", r->p_adj);	/* not "0.0000" */
	else
		snprintf(cell[C_P], CELL, "%.4f", r->p_adj);
	snprintf(cell[C_VERDICT], CELL, "%s", ti_ab_verdict_name[r->v]);
	why(cell[C_WHY], CELL, r);
}

bool ti_ab_report_listed(const struct ti_ab_row *r, const struct ti_ab_report_opts *o)
{
	return !o->only_changed || r->v != TI_AB_UNCHANGED;
}

/* The lines under the table: the geometric mean, the verdicts counted,
 * how they were reached, and the comparison's notes. */
static void summary_lines(struct ti_buf *o, const struct ti_ab_result *r,
			  const struct ti_ab_config *c, const struct ti_ab_report_opts *opt,
			  const char *prefix)
{
	const struct ti_ab_geomean *g = &r->geomean;
	size_t count[TI_AB_VERDICTS] = { 0 }, decidable = 0, paired = 0, tested = 0;
	char lo[32], hi[32], mid[32];
	enum { NTESTS = 8 };
	const char *test_name[NTESTS] = { NULL };
	size_t test_count[NTESTS] = { 0 };

	for (size_t i = 0; i < r->n; i++) {
		count[r->rows[i].v]++;
		decidable += r->rows[i].decidable;
		/* Only the tested rows count as paired: "2 of 1". */
		paired += r->rows[i].paired && !isnan(r->rows[i].p);
		tested += !isnan(r->rows[i].p);
		for (size_t k = 0; k < NTESTS && r->rows[i].test && !isnan(r->rows[i].p); k++)
			if (!test_name[k] || strcmp(test_name[k], r->rows[i].test) == 0) {
				test_name[k] = r->rows[i].test;
				test_count[k]++;
				break;
			}
	}
	if (g->n && !(g->lo > 0 && isfinite(g->hi))) {
		/* Not -100 %..+inf: the one benchmark has no interval, or
		 * one run a side gives none. */
		ti_ab_report_change_pct(mid, sizeof mid, g->log_ratio);
		ti_buf_printf(o, "%sgeometric mean of B/A: %s (no interval: %s)\n", prefix, mid,
			      g->n == 1 ? "the one benchmark's has none"
			      : g->method && strcmp(g->method, "one run a side") == 0
				      ? "one run a side, whose machine state every benchmark shares"
				      : "a benchmark's own has none");
	} else if (g->n) {
		ti_ab_report_change_pct(mid, sizeof mid, g->log_ratio);
		ti_ab_report_pct(lo, sizeof lo, g->lo - 1);
		ti_ab_report_pct(hi, sizeof hi, g->hi - 1);
		/* At the rows' level, 1 - alpha / looks: one level printed and used. */
		if (g->n == 1)
			ti_buf_printf(o, "%sgeometric mean of B/A: %s (%.3g%% CI %s..%s, the one "
				      "benchmark's)\n", prefix, mid, 100 * g->level, lo, hi);
		else if (g->rounds)
			ti_buf_printf(o, "%sgeometric mean of B/A: %s (%.3g%% CI %s..%s, t over %zu "
				      "rounds of %zu benchmarks%s)\n", prefix, mid, 100 * g->level, lo,
				      hi, g->rounds, g->n,
				      r->same_binary ? ", identical binaries as no change" : "");
		else
			ti_buf_printf(o, "%sgeometric mean of B/A: %s (%.3g%% CI %s..%s, %s over %zu "
				      "benchmarks)\n", prefix, mid, 100 * g->level, lo, hi,
				      g->method, g->n);
	} else {
		ti_buf_printf(o, "%sgeometric mean of B/A: - (%s)\n", prefix, TI_AB_NO_GEOMEAN);
	}
	ti_buf_printf(o, "%s", prefix);
	for (int v = 0; v < TI_AB_VERDICTS; v++) {
		if (v == TI_AB_CHANGED && !count[v])
			continue;
		ti_buf_printf(o, "%s%zu %s", v ? ", " : "", count[v], ti_ab_verdict_name[v]);
		if (v == TI_AB_UNDECIDED && count[v])
			ti_buf_printf(o, " (%zu could be decided with more samples)", decidable);
	}
	ti_buf_printf(o, "\n%smetric %s, alpha %g", prefix, c->metric, c->alpha);
	if (c->looks > 1 && c->last)
		ti_buf_printf(o, " over %u looks (%g here, the rest after %u)", c->looks,
			      r->alpha_look, c->look - 1);
	else if (c->looks > 1)
		ti_buf_printf(o, " over %u looks (%g each)", c->looks, r->alpha_look);
	ti_buf_printf(o, ", p adjusted: %s, gate +-%g%%%s\n",
		      c->adjust == TI_STATS_ADJUST_BH ? "Benjamini-Hochberg (false discovery rate)"
		      : c->adjust == TI_STATS_ADJUST_HOLM ? "Holm (family-wise)" : "none",
		      c->min_change, opt->noise_floor ? ", noise floor from A/A" : "");
	if (tested) {
		ti_buf_printf(o, "%schange: %zu of %zu tested benchmarks paired by round; tests:", prefix,
			      paired, tested);
		for (size_t k = 0; k < NTESTS && test_name[k]; k++)
			ti_buf_printf(o, "%s %s %zu", k ? "," : "", test_name[k], test_count[k]);
		ti_buf_printf(o, "; %.3g%% intervals per benchmark, not adjusted\n", level_pct(r));
	}
	if (tested && paired && c->pairing != TI_AB_PAIR_VOTE)
		ti_buf_printf(o, "%srounds paired by design: A_i and B_i ran in one round", prefix);
	if (tested && paired && c->pairing != TI_AB_PAIR_VOTE && !isnan(r->pair_corr))
		ti_buf_printf(o, " (median rank correlation %.2f over %zu benchmark%s)", r->pair_corr,
			      r->pair_corr_n, r->pair_corr_n == 1 ? "" : "s");
	if (tested && paired && c->pairing != TI_AB_PAIR_VOTE)
		ti_buf_printf(o, "; --unpaired compares all samples\n");
	for (size_t i = 0; i < r->nnotes; i++)
		ti_buf_printf(o, "%snote: %s\n", prefix, r->notes[i]);
}

static const char *verdict_color(enum ti_ab_verdict v)
{
	switch (v) {
	case TI_AB_REGRESSED: return "\033[31m";
	case TI_AB_IMPROVED: return "\033[32m";
	case TI_AB_UNDECIDED: return "\033[33m";
	case TI_AB_MISSING: case TI_AB_FAILED: return "\033[35m";
	default: return NULL;
	}
}

static void format_text(struct ti_buf *o, const struct ti_ab_result *res,
			const struct ti_ab_config *c, const struct ti_ab_report_opts *opt)
{
	static char cell[C_COUNT][CELL];
	char title[C_COUNT][64];
	size_t w[C_COUNT];

	titles(title, res, c);
	for (int k = 0; k < C_COUNT; k++)
		w[k] = strlen(title[k]);
	for (size_t i = 0; i < res->n; i++) {
		if (!ti_ab_report_listed(&res->rows[i], opt))
			continue;
		cells(&res->rows[i], cell);
		/* Columns by display width: a UTF-8 name is fewer columns
		 * than bytes. */
		for (int k = 0; k < C_COUNT; k++)
			if (ti_ab_report_width(cell[k]) > w[k])
				w[k] = ti_ab_report_width(cell[k]);
	}
	for (size_t i = 0; i <= res->n; i++) {
		if (i > 0 && !ti_ab_report_listed(&res->rows[i - 1], opt))
			continue;
		if (i == 0)
			for (int k = 0; k < C_COUNT; k++)
				snprintf(cell[k], CELL, "%.63s", title[k]);
		else
			cells(&res->rows[i - 1], cell);
		const char *col = i > 0 && opt->color ? verdict_color(res->rows[i - 1].v) : NULL;
		for (int k = 0; k < C_COUNT; k++) {
			bool left = k == C_NAME || k == C_VERDICT || k == C_WHY;
			if (k == C_WHY && !cell[k][0])
				break;
			if (k)
				ti_buf_append(o, "  ", 2);
			if (k == C_VERDICT && col)
				ti_buf_printf(o, "%s", col);
			ti_ab_report_pad(o, cell[k], k == C_WHY ? 0 : w[k], left);
			if (k == C_VERDICT && col)
				ti_buf_printf(o, "\033[0m");
		}
		/* Trailing blanks from padding the last printed cell. */
		while (o->len && o->data[o->len - 1] == ' ')
			o->data[--o->len] = '\0';
		ti_buf_append(o, "\n", 1);
	}
	ti_buf_append(o, "\n", 1);
	summary_lines(o, res, c, opt, "");
}

static void format_md(struct ti_buf *o, const struct ti_ab_result *res,
		      const struct ti_ab_config *c, const struct ti_ab_report_opts *opt)
{
	static char cell[C_COUNT][CELL];
	char title[C_COUNT][64];

	titles(title, res, c);
	ti_buf_printf(o, "|");
	for (int k = 0; k < C_COUNT; k++) {
		ti_buf_printf(o, " ");
		ti_ab_report_md(o, title[k]);
		ti_buf_printf(o, " |");
	}
	ti_buf_printf(o, "\n|");
	for (int k = 0; k < C_COUNT; k++)
		ti_buf_printf(o, k == C_NAME || k >= C_VERDICT ? ":---|" : "---:|");
	ti_buf_printf(o, "\n");
	for (size_t i = 0; i < res->n; i++) {
		if (!ti_ab_report_listed(&res->rows[i], opt))
			continue;
		cells(&res->rows[i], cell);
		ti_buf_printf(o, "|");
		for (int k = 0; k < C_COUNT; k++) {
			bool bold = k == C_VERDICT && res->rows[i].v == TI_AB_REGRESSED;
			ti_buf_printf(o, " %s", bold ? "**" : "");
			ti_ab_report_md(o, cell[k]);
			ti_buf_printf(o, "%s |", bold ? "**" : "");
		}
		ti_buf_printf(o, "\n");
	}
	ti_buf_printf(o, "\n");
	summary_lines(o, res, c, opt, "- ");
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

static const char *code_name(enum ti_ab_code code)
{
	return code == TI_AB_CODE_SAME ? "same" : code == TI_AB_CODE_CHANGED ? "changed" : NULL;
}

static void format_csv(struct ti_buf *o, const struct ti_ab_result *res,
		       const struct ti_ab_report_opts *opt)
{
	ti_buf_printf(o, "benchmark,n_a,n_b,paired,median_a,median_b,change,ci_low,ci_high,"
			 "mad_a,mad_b,p,p_adjusted,verdict,decidable,code,reason,note\n");
	for (size_t i = 0; i < res->n; i++) {
		const struct ti_ab_row *r = &res->rows[i];
		const char *code = code_name(r->code);
		if (!ti_ab_report_listed(r, opt))
			continue;
		ti_ab_report_csv(o, r->name);
		ti_buf_printf(o, ",%zu,%zu,%s", r->n_a, r->n_b, r->paired ? "yes" : "no");
		csv_num(o, r->med_a);
		csv_num(o, r->med_b);
		csv_num(o, expm1(r->est));
		csv_num(o, isfinite(r->lo) ? expm1(r->lo) : NAN);
		csv_num(o, isfinite(r->hi) ? expm1(r->hi) : NAN);
		csv_num(o, r->spread_a);
		csv_num(o, r->spread_b);
		csv_num(o, r->p);
		csv_num(o, r->p_adj);
		ti_buf_printf(o, ",%s,%s,%s,", ti_ab_verdict_name[r->v], r->decidable ? "yes" : "no",
			      code ? code : "");
		ti_ab_report_csv(o, r->reason);
		ti_buf_printf(o, ",");
		ti_ab_report_csv(o, r->note);
		ti_buf_printf(o, "\n");
	}
}

/* JSON numbers: NaN and infinities become null (ti_json_double). */
static void format_json(struct ti_buf *o, const struct ti_ab_result *res,
			const struct ti_ab_config *c, const struct ti_ab_report_opts *opt)
{
	const struct ti_ab_geomean *g = &res->geomean;
	size_t count[TI_AB_VERDICTS] = { 0 };
	struct ti_json j;

	ti_json_init(&j, o);
	ti_json_object(&j, NULL);
	ti_json_string(&j, "metric", c->metric);
	ti_json_double(&j, "alpha", c->alpha);
	ti_json_uint(&j, "looks", c->looks);
	ti_json_double(&j, "alpha_per_look", res->alpha_look);
	ti_json_string(&j, "adjust", ti_ab_adjust_name(c->adjust));
	ti_json_double(&j, "min_change", c->min_change / 100);
	ti_json_double(&j, "ci_level", 1 - res->alpha_look);
	ti_json_bool(&j, "noise_floor", opt->noise_floor);
	ti_json_bool(&j, "drop_flagged", c->drop_flagged);
	ti_json_object(&j, "pairing");
	ti_json_string(&j, "mode", c->pairing == TI_AB_PAIR_AUTO ? "auto"
			 : c->pairing == TI_AB_PAIR_ALWAYS ? "always" : "never");
	ti_json_bool(&j, "paired", res->pair);
	ti_json_double(&j, "correlation", res->pair_corr);
	ti_json_uint(&j, "benchmarks", res->pair_corr_n);
	ti_json_end(&j, '}');
	ti_json_array(&j, "benchmarks");
	for (size_t i = 0; i < res->n; i++) {
		const struct ti_ab_row *r = &res->rows[i];
		count[r->v]++;
		if (!ti_ab_report_listed(r, opt))
			continue;
		ti_json_object(&j, NULL);
		ti_json_string(&j, "name", r->name);
		ti_json_string(&j, "verdict", ti_ab_verdict_name[r->v]);
		ti_json_string(&j, "reason", r->reason);
		ti_json_bool(&j, "decidable", r->decidable);
		ti_json_uint(&j, "n_a", r->n_a);
		ti_json_uint(&j, "n_b", r->n_b);
		ti_json_bool(&j, "paired", r->paired);
		ti_json_uint(&j, "runs_a", r->a ? r->a->n : 0);
		ti_json_uint(&j, "runs_b", r->b ? r->b->n : 0);
		ti_json_uint(&j, "failures_a", r->failed_a);
		ti_json_uint(&j, "failures_b", r->failed_b);
		ti_json_uint(&j, "flagged_a", r->flagged_a);
		ti_json_uint(&j, "flagged_b", r->flagged_b);
		ti_json_double(&j, "median_a", r->med_a);
		ti_json_double(&j, "median_b", r->med_b);
		ti_json_double(&j, "mad_a", r->spread_a);
		ti_json_double(&j, "mad_b", r->spread_b);
		ti_json_double(&j, "change", ti_ab_report_change(r->est));
		ti_json_double(&j, "ci_low", isfinite(r->lo) ? ti_ab_report_change(r->lo) : NAN);
		ti_json_double(&j, "ci_high", isfinite(r->hi) ? ti_ab_report_change(r->hi) : NAN);
		ti_json_double(&j, "ci_coverage", r->level);
		ti_json_double(&j, "equivalence_low", isfinite(r->eq_lo) ? expm1(r->eq_lo) : NAN);
		ti_json_double(&j, "equivalence_high", isfinite(r->eq_hi) ? expm1(r->eq_hi) : NAN);
		ti_json_string(&j, "test", r->test);
		ti_json_double(&j, "p", r->p);
		ti_json_double(&j, "p_adjusted", r->p_adj);
		ti_json_double(&j, "noise_floor", expm1(r->floor));
		ti_json_string(&j, "code", code_name(r->code));
		ti_json_string(&j, "time_verdict", r->time_v < TI_AB_VERDICTS
				 ? ti_ab_verdict_name[r->time_v] : NULL);
		ti_json_double(&j, "instructions_change", r->insn_change);
		ti_json_double(&j, "est_cycles_change", r->est_change);
		ti_json_bool(&j, "exact", r->exact);
		ti_json_bool(&j, "gating", r->gating);
		ti_json_string(&j, "note", r->note);
		ti_json_end(&j, '}');
	}
	ti_json_end(&j, ']');
	ti_json_object(&j, "geomean");
	ti_json_uint(&j, "n", g->n);
	ti_json_double(&j, "ratio", g->ratio);
	/* No interval (one benchmark without one): null, not 0 and null. */
	bool gci = g->lo > 0 && isfinite(g->hi);
	ti_json_double(&j, "ci_low", gci ? g->lo : NAN);
	ti_json_double(&j, "ci_high", gci ? g->hi : NAN);
	ti_json_string(&j, "method", g->method);
	ti_json_double(&j, "level", g->level);
	ti_json_uint(&j, "rounds", g->rounds);
	ti_json_end(&j, '}');
	ti_json_object(&j, "counts");
	for (int v = 0; v < TI_AB_VERDICTS; v++)
		ti_json_uint(&j, ti_ab_verdict_name[v], count[v]);
	ti_json_end(&j, '}');
	ti_json_uint(&j, "samples", res->used);
	ti_json_uint(&j, "flagged", res->flagged);
	ti_json_uint(&j, "same_binary", res->same_binary);
	ti_json_uint(&j, "same_binary_differed", res->same_binary_sig);
	ti_json_array(&j, "notes");
	for (size_t i = 0; i < res->nnotes; i++)
		ti_json_string(&j, NULL, res->notes[i]);
	ti_json_end(&j, ']');
	ti_json_int(&j, "status", opt->status);
	ti_json_end(&j, '}');
	ti_buf_append(o, "\n", 1);
}

/* --undecided: the names more samples could decide, one a line, as the
 * table names them (a driver's next round runs exactly these). */
static void format_undecided(struct ti_buf *o, const struct ti_ab_result *res)
{
	char name[CELL];

	for (size_t i = 0; i < res->n; i++) {
		if (res->rows[i].v == TI_AB_UNDECIDED && res->rows[i].decidable) {
			ti_ab_report_cell(name, sizeof name, res->rows[i].name);
			ti_buf_printf(o, "%s\n", name);
		}
	}
}

void ti_ab_report(struct ti_buf *out, const struct ti_ab_result *r, const struct ti_ab_config *c,
		  const struct ti_ab_report_opts *o)
{
	switch (o->format) {
	case TI_AB_TEXT: format_text(out, r, c, o); break;
	case TI_AB_MD: format_md(out, r, c, o); break;
	case TI_AB_CSV: format_csv(out, r, o); break;
	case TI_AB_JSON: format_json(out, r, c, o); break;
	case TI_AB_UNDECIDED_LIST: format_undecided(out, r); break;
	}
}
