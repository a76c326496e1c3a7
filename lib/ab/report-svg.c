/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* report-svg.c: the SVG plot of a comparison (report.h): a dot per
 * benchmark at its change, a bar for its interval, the gate as a band. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-int.h"
#include "report.h"

/* The last K characters of S. */
static const char *last_chars(const char *s, size_t k)
{
	size_t w = ti_ab_report_width(s), skip = w > k ? w - k : 0, n = strlen(s), i = 0;

	while (skip-- > 0 && i < n) {
		size_t l = ti_ab_report_utf8_len((const unsigned char *)s + i, n - i);
		i += l ? l : 1;
	}
	return s + i;
}

/* S as XML character data: markup escaped, control characters (which XML
 * 1.0 forbids, or a text element shows as blanks) as their pictures
 * (U+2400 + the code, U+2421 for DEL: "new\nline" and "newline" look
 * different), bytes that are not UTF-8 (a file name in another encoding)
 * replaced by U+FFFD, so that the document stays well formed. */
static void xml_text(struct ti_buf *o, const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n;) {
		unsigned char ch = (unsigned char)s[i];
		size_t l = ti_ab_report_utf8_len((const unsigned char *)s + i, n - i);

		if (!l) {
			ti_buf_append(o, "\xef\xbf\xbd", 3);
			i++;
			continue;
		}
		switch (ch) {
		case '<': ti_buf_printf(o, "&lt;"); break;
		case '>': ti_buf_printf(o, "&gt;"); break;
		case '&': ti_buf_printf(o, "&amp;"); break;
		case '"': ti_buf_printf(o, "&quot;"); break;
		default:
			if (ch < 0x20 || ch == 0x7f) {
				unsigned pic = ch == 0x7f ? 0x2421 : 0x2400 + ch;
				char u[3] = { (char)(0xe0 | pic >> 12), (char)(0x80 | (pic >> 6 & 0x3f)),
					      (char)(0x80 | (pic & 0x3f)) };
				ti_buf_append(o, u, 3);
			} else {
				ti_buf_append(o, s + i, l);
			}
		}
		i += l;
	}
}

static int cmp_change(const void *x, const void *y)
{
	const struct ti_ab_row *a = *(const struct ti_ab_row *const *)x;
	const struct ti_ab_row *b = *(const struct ti_ab_row *const *)y;
	return (a->est > b->est) - (a->est < b->est);
}

static const char *svg_color(enum ti_ab_verdict v)
{
	switch (v) {
	case TI_AB_REGRESSED: return "#c62828";
	case TI_AB_IMPROVED: return "#2e7d32";
	case TI_AB_UNDECIDED: return "#ef8f00";
	case TI_AB_CHANGED: return "#1565c0";
	default: return "#757575";
	}
}

/* The widest change plotted: +-1e8 %. */
#define SVG_RANGE_MAX 1e6

/* The plot's geometry: where a change V lands on the x axis. */
struct svg_geom {
	double range, step, zero, plot_w, label_w, width, top, bottom, row_h;
	size_t label_chars;
};

static double svg_x(const struct svg_geom *gm, double v)
{
	return gm->zero + (fmax(-gm->range, fmin(gm->range, v)) / gm->range) * (gm->plot_w / 2);
}

/* The gate's band, the grid and the axis labels. */
static void svg_grid(struct ti_buf *o, const struct svg_geom *gm, double gate)
{
	/* The gate: what lies inside the band counts as no change. */
	if (gate > 0)
		ti_buf_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				 "fill=\"#e3f2fd\"/>\n", svg_x(gm, -gate), gm->top - 4,
			      svg_x(gm, gate) - svg_x(gm, -gate), gm->bottom - gm->top + 8);
	for (double v = -floor(gm->range / gm->step) * gm->step; v <= gm->range + 1e-12;
	     v += gm->step) {
		double x = svg_x(gm, v);
		bool axis = fabs(v) < gm->step / 2;
		ti_buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				 "stroke-width=\"%s\"/>\n", x, gm->top - 4, x, gm->bottom + 4,
			      axis ? "#000" : "#ddd", axis ? "1.5" : "1");
		ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			      x, gm->bottom + 20);
		ti_buf_printf(o, axis ? "0%%" : "%+.3g%%", 100 * v);
		ti_buf_printf(o, "</text>\n");
	}
	ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555\">"
			 "faster \u2190   B vs A   \u2192 slower</text>\n", gm->zero, gm->bottom + 40);
}

/* Row I of the plot: the name, the interval, the estimate and its value. */
static void svg_row(struct ti_buf *o, const struct svg_geom *gm, size_t i,
		    const struct ti_ab_row *r)
{
	double y = gm->top + gm->row_h * (double)i + gm->row_h / 2;
	const char *col = svg_color(r->v);
	char t[64];

	if (i % 2)
		ti_buf_printf(o, "<rect x=\"0\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
				 "fill=\"#f4f4f4\" fill-opacity=\"0.6\"/>\n",
			      y - gm->row_h / 2, gm->width, gm->row_h);
	ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", gm->label_w, y + 4);
	if (ti_ab_report_width(r->name) > gm->label_chars) {
		ti_buf_printf(o, "\u2026");
		xml_text(o, last_chars(r->name, gm->label_chars - 1));
	} else {
		xml_text(o, r->name);
	}
	ti_buf_printf(o, "</text>\n");
	if (!isnan(r->lo)) {
		double lo = isinf(r->lo) ? -INFINITY : expm1(r->lo);
		double hi = isinf(r->hi) ? INFINITY : expm1(r->hi);
		ti_buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				 "stroke=\"%s\" stroke-width=\"3\" stroke-opacity=\"0.45\"/>\n",
			      svg_x(gm, lo), y, svg_x(gm, hi), y, col);
		/* An interval cut at the edge ends in an arrowhead. */
		if (lo < -gm->range)
			ti_buf_printf(o, "<path d=\"M%.1f %.1fl6 -4v8z\" fill=\"%s\">"
					 "<title>interval continues</title></path>\n",
				      svg_x(gm, lo), y, col);
		if (hi > gm->range)
			ti_buf_printf(o, "<path d=\"M%.1f %.1fl-6 -4v8z\" fill=\"%s\">"
					 "<title>interval continues</title></path>\n",
				      svg_x(gm, hi), y, col);
	}
	ti_buf_printf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\"><title>",
		      svg_x(gm, ti_ab_report_change(r->est)), y, col);
	ti_ab_report_change_pct(t, sizeof t, r->est);
	xml_text(o, r->name);
	ti_buf_printf(o, ": %s, %s</title></circle>\n", t, ti_ab_verdict_name[r->v]);
	/* The value in a column right of the plot, clear of the bars. */
	ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" text-anchor=\"end\">"
			 "%s</text>\n", gm->width - 8, y + 4, col, t);
}

/* The rows plotted (listed, with a finite estimate) into S, sorted by
 * change; their number.  GM gets the range and the label width. */
static size_t svg_rows(const struct ti_ab_result *res, const struct ti_ab_report_opts *opt,
		       const struct ti_ab_row **s, struct svg_geom *gm)
{
	size_t k = 0;

	gm->label_chars = 12;
	for (size_t i = 0; i < res->n; i++) {
		const struct ti_ab_row *r = &res->rows[i];

		if (!ti_ab_report_listed(r, opt) || r->v == TI_AB_MISSING ||
		    r->v == TI_AB_FAILED || !isfinite(r->est))
			continue;
		s[k++] = r;
		/* Beyond SVG_RANGE_MAX (a denormal baseline) the dot sits at
		 * the edge; its text says the change. */
		gm->range = fmax(gm->range, fmin(fabs(ti_ab_report_change(r->est)), SVG_RANGE_MAX));
		if (ti_ab_report_width(r->name) > gm->label_chars)
			gm->label_chars = ti_ab_report_width(r->name);
	}
	qsort(s, k, sizeof *s, cmp_change);
	if (gm->label_chars > 48)
		gm->label_chars = 48;
	return k;
}

void ti_ab_report_svg(struct ti_buf *o, const struct ti_ab_result *res,
		      const struct ti_ab_config *c, const struct ti_ab_report_opts *opt)
{
	const struct ti_ab_geomean *g = &res->geomean;
	const struct ti_ab_row **s = malloc((res->n ? res->n : 1) * sizeof *s);
	double gate = c->min_change / 100;
	struct svg_geom gm = { .range = fmax(0.01, 1.2 * gate) };
	char t[64];

	if (!s) {
		o->failed = true;
		return;
	}
	size_t k = svg_rows(res, opt, s, &gm);
	/* Intervals may be far wider than the changes; show them up to 1.5
	 * times the largest change and mark where one goes on beyond. */
	gm.range *= 1.5;
	/* About three grid lines a side at 1, 2 or 5 times a power of ten. */
	double step = gm.range / 3;
	double mag = pow(10, floor(log10(step))), norm = step / mag;
	gm.step = (norm < 1.5 ? 1 : norm < 3.5 ? 2 : norm < 7.5 ? 5 : 10) * mag;

	gm.row_h = 18;
	gm.top = 48;
	gm.label_w = 7.0 * (double)gm.label_chars + 16;
	gm.plot_w = 480;
	const double left = gm.label_w + 10, right_pad = 76;
	gm.width = left + gm.plot_w + right_pad;
	const double height = gm.top + gm.row_h * (double)(k ? k : 1) + 56;
	gm.zero = left + gm.plot_w / 2;
	gm.bottom = gm.top + gm.row_h * (double)(k ? k : 1);

	ti_buf_printf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
			 "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Arial, sans-serif\" "
			 "font-size=\"12\">\n", gm.width, height, gm.width, height);
	ti_buf_printf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	ti_buf_printf(o, "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">"
			 "Change of ");
	xml_text(o, c->metric);
	ti_buf_printf(o, ", B vs A (Hodges-Lehmann, %.3g%% CI; band: gate \u00b1%g%%)</text>\n",
		      100 * (1 - res->alpha_look), c->min_change);
	ti_buf_printf(o, "<text x=\"10\" y=\"36\" fill=\"#555\">");
	if (g->n) {
		ti_ab_report_change_pct(t, sizeof t, g->log_ratio);
		ti_buf_printf(o, "geometric mean %s over %zu benchmark%s; ", t, g->n,
			      g->n == 1 ? "" : "s");
	}
	ti_buf_printf(o, "<tspan fill=\"%s\">regressed</tspan> <tspan fill=\"%s\">improved</tspan> "
			 "<tspan fill=\"%s\">undecided</tspan> <tspan fill=\"%s\">unchanged</tspan>"
			 "</text>\n", svg_color(TI_AB_REGRESSED), svg_color(TI_AB_IMPROVED),
		      svg_color(TI_AB_UNDECIDED), svg_color(TI_AB_UNCHANGED));
	svg_grid(o, &gm, gate);
	for (size_t i = 0; i < k; i++)
		svg_row(o, &gm, i, s[i]);
	if (!k)
		ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
				 "%s</text>\n", gm.zero, gm.top + gm.row_h / 2 + 4,
			      g->n ? "only unchanged benchmarks (--only-changed)" : TI_AB_NO_GEOMEAN);
	ti_buf_printf(o, "</svg>\n");
	free(s);
}

void ti_ab_report_xml(struct ti_buf *o, const char *s)
{
	xml_text(o, s);
}
