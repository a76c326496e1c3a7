/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* report-svg.c: the SVG plot of a comparison (report.h). */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-int.h"

/* ---- SVG ------------------------------------------------------------- */

static void xml_text(struct ti_buf *o, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': ti_buf_printf(o, "&lt;"); break;
		case '>': ti_buf_printf(o, "&gt;"); break;
		case '&': ti_buf_printf(o, "&amp;"); break;
		case '"': ti_buf_printf(o, "&quot;"); break;
		default:
			/* XML 1.0 forbids most control characters even escaped. */
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				ti_buf_append(o, s, 1);
		}
	}
}

static int cmp_change(const void *x, const void *y)
{
	const struct ti_ab_row *a = *(const struct ti_ab_row *const *)x, *b = *(const struct ti_ab_row *const *)y;
	return (a->change > b->change) - (a->change < b->change);
}

static const char *svg_color(enum ti_ab_verdict v)
{
	switch (v) {
	case TI_AB_REGRESSED: return "#c62828";
	case TI_AB_IMPROVED: return "#2e7d32";
	case TI_AB_NOISY: return "#ef8f00";
	default: return "#757575";
	}
}

/* A dot per benchmark at its change, a bar for its confidence interval,
 * sorted from the largest improvement to the largest regression. */
void ti_ab_report_svg(struct ti_buf *o, const struct ti_ab_result *res,
		      const struct ti_ab_config *c, const struct ti_ab_report_opts *opt)
{
	const struct ti_ab_row *rows = res->rows;
	const struct ti_ab_geomean *g = &res->geomean;
	size_t n = res->n;
	const struct ti_ab_row **s = malloc((n ? n : 1) * sizeof *s);
	size_t k = 0, label_chars = 12;
	double range = 0.01, step;
	char t[64];

	if (!s) {
		o->failed = true;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (!ti_ab_report_listed(&rows[i], opt) || rows[i].v == TI_AB_MISSING || rows[i].v == TI_AB_FAILED ||
		    !isfinite(rows[i].change))
			continue;
		s[k++] = &rows[i];
		range = fmax(range, fabs(expm1(rows[i].change)));
		if (strlen(rows[i].name) > label_chars)
			label_chars = strlen(rows[i].name);
	}
	qsort(s, k, sizeof *s, cmp_change);
	if (label_chars > 48)
		label_chars = 48;
	/* Confidence intervals may be far wider than the changes; show them
	 * up to 1.5 times the largest change and clip the rest at the edge. */
	range *= 1.5;
	/* About three grid lines a side at 1, 2 or 5 times a power of ten. */
	step = range / 3;
	double mag = pow(10, floor(log10(step))), norm = step / mag;
	step = (norm < 1.5 ? 1 : norm < 3.5 ? 2 : norm < 7.5 ? 5 : 10) * mag;

	const double row_h = 18, top = 48, label_w = 7.0 * (double)label_chars + 16;
	const double plot_w = 480, left = label_w + 10, right_pad = 76;
	const double width = left + plot_w + right_pad;
	const double height = top + row_h * (double)(k ? k : 1) + 56;
	double zero = left + plot_w / 2;
#define X(v) (zero + (fmax(-range, fmin(range, (v))) / range) * (plot_w / 2))

	ti_buf_printf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
			 "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Arial, sans-serif\" "
			 "font-size=\"12\">\n", width, height, width, height);
	ti_buf_printf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	ti_buf_printf(o, "<text x=\"%.1f\" y=\"20\" font-size=\"14\" font-weight=\"bold\">"
			 "Change of ", left);
	xml_text(o, c->metric);
	ti_buf_printf(o, ", B vs A (median, %.0f%% CI)</text>\n", 100 * (1 - c->alpha));
	ti_buf_printf(o, "<text x=\"%.1f\" y=\"36\" fill=\"#555\">", left);
	if (g->n) {
		ti_ab_report_pct(t, sizeof t, g->ratio - 1);
		ti_buf_printf(o, "geometric mean %s over %zu benchmarks; ", t, g->n);
	}
	ti_buf_printf(o, "<tspan fill=\"%s\">regressed</tspan> <tspan fill=\"%s\">improved</tspan> "
			 "<tspan fill=\"%s\">noisy</tspan> <tspan fill=\"%s\">unchanged</tspan></text>\n",
		      svg_color(TI_AB_REGRESSED), svg_color(TI_AB_IMPROVED), svg_color(TI_AB_NOISY),
		      svg_color(TI_AB_UNCHANGED));
	/* Grid and axis labels. */
	double bottom = top + row_h * (double)(k ? k : 1);
	for (double v = -floor(range / step) * step; v <= range + 1e-12; v += step) {
		double x = X(v);
		bool axis = fabs(v) < step / 2;
		ti_buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				 "stroke-width=\"%s\"/>\n", x, top - 4, x, bottom + 4,
			      axis ? "#000" : "#ddd", axis ? "1.5" : "1");
		ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			      x, bottom + 20);
		ti_buf_printf(o, axis ? "0%%" : "%+.3g%%", 100 * v);
		ti_buf_printf(o, "</text>\n");
	}
	ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555\">"
			 "faster \u2190   B vs A   \u2192 slower</text>\n", zero, bottom + 40);
	for (size_t i = 0; i < k; i++) {
		const struct ti_ab_row *r = s[i];
		double y = top + row_h * (double)i + row_h / 2;
		const char *col = svg_color(r->v);
		char name[64];

		if (i % 2)
			ti_buf_printf(o, "<rect x=\"0\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
					 "fill=\"#f4f4f4\"/>\n", y - row_h / 2, width, row_h);
		snprintf(name, sizeof name, "%s", r->name);
		if (strlen(r->name) > label_chars)
			snprintf(name, sizeof name, "\u2026%s", r->name + strlen(r->name) - label_chars + 1);
		ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", label_w, y + 4);
		xml_text(o, name);
		ti_buf_printf(o, "</text>\n");
		if (!isnan(r->lo)) {
			double x1 = X(isinf(r->lo) ? -range : expm1(r->lo));
			double x2 = X(isinf(r->hi) ? range : expm1(r->hi));
			ti_buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
					 "stroke=\"%s\" stroke-width=\"3\" stroke-opacity=\"0.45\"/>\n",
				      x1, y, x2, y, col);
		}
		ti_buf_printf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\"><title>",
			      X(expm1(r->change)), y, col);
		ti_ab_report_pct(t, sizeof t, expm1(r->change));
		xml_text(o, r->name);
		ti_buf_printf(o, ": %s, %s</title></circle>\n", t, ti_ab_verdict_name[r->v]);
		/* The value in a column right of the plot, clear of the bars. */
		ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" text-anchor=\"end\">"
				 "%s</text>\n", width - 8, y + 4, col, t);
	}
	if (!k)
		ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
				 "%s</text>\n", zero, top + row_h / 2 + 4,
			      g->n ? "only unchanged benchmarks (--only-changed)" : TI_AB_NO_GEOMEAN);
	ti_buf_printf(o, "</svg>\n");
#undef X
	free(s);
}

