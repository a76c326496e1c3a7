/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* report-int.h: what the report formatters (report.c, report-svg.c)
 * share, and the cells and the XML text they lend the other reports of
 * the project (lib/series).  It includes no report.h, so that report.c,
 * whose header that is, stands above it. */
#ifndef TI_AB_REPORT_INT_H
#define TI_AB_REPORT_INT_H

#include <stdbool.h>

#include "buf.h"
#include "report-cell.h"

struct ti_ab_row;
struct ti_ab_report_opts;

/* Why there is no geometric mean: it takes the benchmarks on both sides
 * whose ratio exists, which a median of 0 has not. */
#define TI_AB_NO_GEOMEAN "no benchmark with medians above 0 on both sides"

/* R is shown under O (--only-changed hides the unchanged). */
bool ti_ab_report_listed(const struct ti_ab_row *r, const struct ti_ab_report_opts *o);

/* S into O as XML character data (report-svg.c). */
void ti_ab_report_xml(struct ti_buf *o, const char *s);

#endif
