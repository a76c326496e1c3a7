/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* summary.h: the summary file, the stderr report and the JSON document. */
#ifndef TI_SUMMARY_H
#define TI_SUMMARY_H

#include <stdbool.h>

#include "buf.h"
#include "host.h"
#include "json.h"
#include "record.h"

struct ti_summary_opts {
	bool report_maxrss;
};

/* The summary file: the reference's lines (exit, real, user, sys, maxrss)
 * byte for byte, then one "key value" line per counted event. */
void ti_summary_format(struct ti_buf *b, const struct ti_record *r,
		       const struct ti_summary_opts *o);

/* The report on stderr when there is no --summary: the reference's
 * one-line layout, or the POSIX layout with POSIX set. */
void ti_report_format(struct ti_buf *b, const struct ti_record *r, bool posix,
		      const struct ti_summary_opts *o);

/* Everything measured about one run, as a JSON object (KEY NULL at top). */
void ti_json_record(struct ti_json *j, const char *key, const struct ti_record *r);

/* The host facts as a JSON object. */
void ti_json_host(struct ti_json *j, const char *key, const struct ti_host *h);

/* The summary key of an event: its name, prefixed with "ev-" when it would
 * start like a reserved key (user, exit, real, sys, maxrss). */
void ti_summary_key(const char *name, char *out, size_t len);

#endif
