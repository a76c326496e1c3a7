/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* report-cell.h: the written form of a report's cells, one of each kind:
 * a change in percent, a number, a name escaped for a text table, for
 * Markdown and for CSV.  The ground floor of the reports: it knows no
 * verdict, so that the verdict's reasons (verdict-decide.c) and every
 * report of the project (lib/ab, lib/series) write a change alike. */
#ifndef TI_AB_REPORT_CELL_H
#define TI_AB_REPORT_CELL_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

/* V as a signed percentage ("+1.23%", "-inf", "-" for NAN) into S. */
void ti_ab_report_pct(char *s, size_t len, double v);

/* The change B/A - 1 of the log-ratio LR as a signed percentage into S
 * (LEN bytes), the one form of every report and verdict reason: beyond a
 * double's range (a denormal baseline), in powers of ten from the
 * logarithm ("+3.95e+321%"), not "+inf". */
void ti_ab_report_change_pct(char *s, size_t len, double lr);

/* The change B/A - 1 of the log-ratio LR as a number: the largest double
 * where it lies beyond a double's range (a denormal baseline). */
double ti_ab_report_change(double lr);

/* V as a table number into S ("-" for NAN, counts and bytes in all
 * digits). */
void ti_ab_report_num(char *s, size_t len, double v);

/* S for a text table cell of OUT's LEN bytes: control characters as C
 * escapes, so that a line break in a name cannot break a row. */
void ti_ab_report_cell(char *out, size_t len, const char *s);

/* The length of the UTF-8 sequence starting at S (of at most N bytes),
 * or 0 when it is not a valid one (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF). */
size_t ti_ab_report_utf8_len(const unsigned char *s, size_t n);

/* The columns S takes on a terminal: one per valid UTF-8 sequence, and
 * one per byte that is not part of one (shown as U+FFFD). */
size_t ti_ab_report_width(const char *s);

/* S into O padded with spaces to WIDTH columns (ti_ab_report_width),
 * LEFT-aligned or right-aligned. */
void ti_ab_report_pad(struct ti_buf *o, const char *s, size_t width, bool left);

/* S into O for Markdown, its markup characters escaped. */
void ti_ab_report_md(struct ti_buf *o, const char *s);

/* S into O as a CSV field (RFC 4180). */
void ti_ab_report_csv(struct ti_buf *o, const char *s);

#endif
