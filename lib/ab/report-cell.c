/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* report-cell.c: the written form of a report's cells (report-cell.h). */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-cell.h"

void ti_ab_report_pct(char *s, size_t len, double v)
{
	if (isnan(v))
		snprintf(s, len, "-");
	else if (isinf(v))
		snprintf(s, len, "%sinf", v > 0 ? "+" : "-");
	else if (fabs(v) >= 1000)
		snprintf(s, len, "%+.3g%%", 100 * v);	/* no 14-digit percentages */
	else
		snprintf(s, len, "%+.2f%%", 100 * v);
}

void ti_ab_report_change_pct(char *s, size_t len, double lr)
{
	double e = lr / log(10) + 2;	/* log10 of the percentage */

	if (isfinite(lr) && !isfinite(expm1(lr)))
		snprintf(s, len, "+%.2fe+%.0f%%", pow(10, e - floor(e)), floor(e));
	else
		ti_ab_report_pct(s, len, expm1(lr));
}

double ti_ab_report_change(double lr)
{
	return isfinite(lr) && !isfinite(expm1(lr)) ? DBL_MAX : expm1(lr);
}

void ti_ab_report_num(char *s, size_t len, double v)
{
	if (isnan(v))
		snprintf(s, len, "-");
	else if (fabs(v) >= 1e5 && fabs(v) < 1e18 && v == floor(v))
		snprintf(s, len, "%.0f", v);	/* counts and bytes: all digits */
	else
		snprintf(s, len, "%.6g", v);
}

/* A line break in a name (or in a path in a note) would break the row, so
 * control characters become C escapes (\n, \t, \x7f), and a backslash \\
 * so that no two names look alike. */
void ti_ab_report_cell(char *out, size_t len, const char *s)
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

size_t ti_ab_report_utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

size_t ti_ab_report_width(const char *s)
{
	size_t n = strlen(s), c = 0;

	for (size_t i = 0; i < n; c++) {
		size_t l = ti_ab_report_utf8_len((const unsigned char *)s + i, n - i);
		i += l ? l : 1;
	}
	return c;
}

void ti_ab_report_pad(struct ti_buf *o, const char *s, size_t width, bool left)
{
	size_t w = ti_ab_report_width(s);

	/* printf's %-*s counts bytes: a name in UTF-8 would come out short. */
	if (left)
		ti_buf_printf(o, "%s", s);
	for (; w < width; w++)
		ti_buf_append(o, " ", 1);
	if (!left)
		ti_buf_printf(o, "%s", s);
}

void ti_ab_report_md(struct ti_buf *o, const char *s)
{
	for (; *s; s++) {
		/* Markdown renderers pass HTML on: a name's markup is text
		 * (CommonMark, "Raw HTML"), as entities. */
		if (*s == '<' || *s == '>' || *s == '&') {
			ti_buf_printf(o, "&%s;", *s == '<' ? "lt" : *s == '>' ? "gt" : "amp");
			continue;
		}
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			ti_buf_append(o, "\\", 1);
		ti_buf_append(o, s, 1);
	}
}

/* Whether a spreadsheet would take the text S for a formula: it starts
 * with =, +, - or @ (or a tab or carriage return before one), and is no
 * plain number or lone "-" (OWASP, "CSV Injection"). */
static bool formula(const char *s)
{
	char *end;

	if (!*s || !strchr("=+-@\t\r", *s))
		return false;
	if (strcmp(s, "-") == 0)
		return false;
	(void)strtod(s, &end);
	return end == s || *end;
}

void ti_ab_report_csv(struct ti_buf *o, const char *s)
{
	/* A name that is a formula opens with a quote mark, which shows it as
	 * text in the spreadsheet and runs nothing. */
	bool guard = formula(s);

	/* RFC 4180: quote fields holding a comma, quote or line break. */
	if (!guard && !strpbrk(s, ",\"\r\n")) {
		ti_buf_printf(o, "%s", s);
		return;
	}
	ti_buf_append(o, guard ? "\"'" : "\"", guard ? 2 : 1);
	for (; *s; s++) {
		if (*s == '"')
			ti_buf_append(o, "\"", 1);
		ti_buf_append(o, s, 1);
	}
	ti_buf_append(o, "\"", 1);
}
