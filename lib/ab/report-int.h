/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* report-int.h: what the report formatters (report.c, report-svg.c)
 * share. */
#ifndef TI_AB_REPORT_INT_H
#define TI_AB_REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "report.h"

/* Why there is no geometric mean: it takes the benchmarks on both sides
 * whose ratio exists, which a median of 0 has not. */
#define TI_AB_NO_GEOMEAN "no benchmark with medians above 0 on both sides"

/* V as a signed percentage ("+1.23%", "-inf", "-" for NAN) into S. */
void ti_ab_report_pct(char *s, size_t len, double v);

/* The change B/A - 1 of the log-ratio LR as a number: the largest double
 * where it lies beyond a double's range (a denormal baseline). */
double ti_ab_report_change(double lr);

/* R is shown under O (--only-changed hides the unchanged). */
bool ti_ab_report_listed(const struct ti_ab_row *r, const struct ti_ab_report_opts *o);

/* The escapings, shared with the other reports of the project
 * (lib/series): S for a text table cell of LEN bytes (control characters
 * as C escapes), for Markdown, as a CSV field (RFC 4180), as XML
 * character data; V as a table number ("-" for NAN, counts in all digits). */
void ti_ab_report_cell(char *out, size_t len, const char *s);
void ti_ab_report_md(struct ti_buf *o, const char *s);
void ti_ab_report_csv(struct ti_buf *o, const char *s);
void ti_ab_report_xml(struct ti_buf *o, const char *s);
void ti_ab_report_num(char *s, size_t len, double v);

#endif
