/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* series-svg.c: the SVG plot of a history's change points (series.h): a
 * panel per benchmark with a change listed, its level run by run, a line
 * at each change point and the levels before and after it. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report-int.h"
#include "series.h"

#define PANEL_W 640.0
#define PANEL_H 150.0
#define LEFT 70.0
#define GAP 46.0

static bool has_listed(const struct ti_series_row *row, const struct ti_series_report_opts *o)
{
	for (size_t j = 0; j < row->nch; j++)
		if (!o->only_recent || row->ch[j].in_window || row->ch[j].confirmed)
			return true;
	return false;
}

struct frame {
	double top, lo, hi;	/* the panel's top, its level range */
	size_t nruns;
};

static double fx(const struct frame *f, double run)
{
	return LEFT + (f->nruns > 1 ? run / (double)(f->nruns - 1) : 0.5) * PANEL_W;
}

static double fy(const struct frame *f, double v)
{
	double r = f->hi > f->lo ? (v - f->lo) / (f->hi - f->lo) : 0.5;
	return f->top + PANEL_H - fmax(0, fmin(1, r)) * PANEL_H;
}

/* The level range of ROW, from the 2nd to the 98th percentile of its
 * runs' spread around the levels of its changes (a 1000 % night must not
 * flatten the rest). */
static void range(const struct ti_series_row *row, struct frame *f)
{
	const struct ti_series_bench *b = row->b;
	double lo = INFINITY, hi = -INFINITY;

	for (size_t j = 0; j < row->nch; j++) {
		lo = fmin(lo, fmin(row->ch[j].before, row->ch[j].after));
		hi = fmax(hi, fmax(row->ch[j].before, row->ch[j].after));
	}
	double span = fmax(hi - lo, 0.02 * hi);
	for (size_t i = 0; i < b->n; i++) {
		double v = b->p[i].level;
		if (!isnan(v) && v >= lo - 2 * span && v <= hi + 2 * span) {
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
	}
	f->lo = lo - 0.05 * (hi - lo);
	f->hi = hi + 0.05 * (hi - lo);
}

static void panel(struct ti_buf *o, const struct ti_series_history *h,
		  const struct ti_series_row *row, const struct ti_series_report_opts *opt,
		  double top)
{
	struct frame f = { .top = top, .nruns = h->nruns };
	const struct ti_series_bench *b = row->b;
	char t[64];

	range(row, &f);
	ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">", LEFT, top - 8);
	ti_ab_report_xml(o, b->name);
	ti_buf_printf(o, "</text>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			 "fill=\"none\" stroke=\"#999\"/>\n", LEFT, top, PANEL_W, PANEL_H);
	ti_ab_report_num(t, sizeof t, f.hi);
	ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%s</text>\n",
		      LEFT - 4, top + 10, t);
	ti_ab_report_num(t, sizeof t, f.lo);
	ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%s</text>\n",
		      LEFT - 4, top + PANEL_H, t);
	for (size_t j = 0; j < row->nch; j++) {
		const struct ti_series_change *ch = &row->ch[j];
		double from = j ? (double)row->ch[j - 1].index : 0;
		double to = j + 1 < row->nch ? (double)row->ch[j + 1].index : (double)h->nruns - 1;
		const char *col = ch->change > 0 ? "#c62828" : "#2e7d32";

		if (opt->only_recent && !ch->in_window && !ch->confirmed)
			continue;
		ti_buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				 "stroke-dasharray=\"4 3\"/>\n", fx(&f, (double)ch->index - 0.5), top,
			      fx(&f, (double)ch->index - 0.5), top + PANEL_H, col);
		ti_buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1565c0\" "
				 "stroke-width=\"2\"/>\n", fx(&f, from), fy(&f, ch->before),
			      fx(&f, (double)ch->index - 0.5), fy(&f, ch->before));
		ti_buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1565c0\" "
				 "stroke-width=\"2\"/>\n", fx(&f, (double)ch->index - 0.5),
			      fy(&f, ch->after), fx(&f, to), fy(&f, ch->after));
		ti_ab_report_pct(t, sizeof t, ch->change);
		ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s at ",
			      fx(&f, (double)ch->index) + 2, top + 12 + 12 * (double)(j % 3), col, t);
		ti_ab_report_xml(o, h->runs[ch->index].label);
		ti_buf_printf(o, " (%s)</text>\n", ti_series_cause_name[ch->cause]);
	}
	for (size_t i = 0; i < b->n; i++) {
		double v = b->p[i].level;
		if (isnan(v))
			continue;
		ti_buf_printf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#333\"><title>",
			      fx(&f, b->p[i].run), fy(&f, v));
		ti_ab_report_xml(o, h->runs[b->p[i].run].label);
		ti_ab_report_num(t, sizeof t, v);
		ti_buf_printf(o, ": %s</title></circle>\n", t);
	}
}

void ti_series_report_svg(struct ti_buf *o, const struct ti_series_history *h,
			  const struct ti_series_result *r, const struct ti_series_config *c,
			  const struct ti_series_report_opts *opt)
{
	size_t k = 0;

	for (size_t i = 0; i < r->n; i++)
		k += has_listed(&r->rows[i], opt);
	double width = LEFT + PANEL_W + 20, height = 40 + (PANEL_H + GAP) * (double)(k ? k : 1);
	ti_buf_printf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
			 "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Arial, sans-serif\" "
			 "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		      width, height, width, height);
	ti_buf_printf(o, "<text x=\"%.1f\" y=\"20\" font-size=\"14\" font-weight=\"bold\">", LEFT);
	ti_ab_report_xml(o, opt->metric ? opt->metric : "level");
	ti_buf_printf(o, " run by run (%zu runs); dashed: a change point (gate %g%%), blue: the "
			 "levels</text>\n", h->nruns, c->min_change);
	double top = 40 + GAP - 10;
	for (size_t i = 0; i < r->n; i++) {
		if (!has_listed(&r->rows[i], opt))
			continue;
		panel(o, h, &r->rows[i], opt, top);
		top += PANEL_H + GAP;
	}
	if (!k)
		ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\">no change point%s</text>\n", LEFT,
			      top + 10, opt->only_recent ? " in the window" : "");
	ti_buf_printf(o, "</svg>\n");
}
