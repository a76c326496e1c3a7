/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* report.h: the reports of an A/B comparison (text, Markdown, CSV, JSON
 * and an SVG plot), formatted into a buffer.  Each format has one owner
 * here; nothing prints. */
#ifndef TI_AB_REPORT_H
#define TI_AB_REPORT_H

#include <stdbool.h>

#include "buf.h"
#include "verdict.h"

enum ti_ab_format_kind {
	TI_AB_TEXT,
	TI_AB_MD,
	TI_AB_CSV,
	TI_AB_JSON,
	TI_AB_UNDECIDED_LIST,	/* the names more samples could decide, one a line */
};

struct ti_ab_report_opts {
	enum ti_ab_format_kind format;
	bool only_changed;	/* leave out the rows whose verdict is "unchanged" */
	bool color;		/* ANSI colours for the verdicts (text) */
	bool noise_floor;	/* the rows' floors came from an A/A pair */
	int status;		/* the exit status, for JSON */
};

/* Format R, compared under C, as O says into OUT (OUT->failed on
 * allocation failure). */
void ti_ab_report(struct ti_buf *out, const struct ti_ab_result *r, const struct ti_ab_config *c,
		  const struct ti_ab_report_opts *o);

/* The SVG plot of R: a dot per benchmark at its change, a bar for its
 * interval. */
void ti_ab_report_svg(struct ti_buf *out, const struct ti_ab_result *r,
		      const struct ti_ab_config *c, const struct ti_ab_report_opts *o);

#endif
