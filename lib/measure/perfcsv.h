/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* perfcsv.h: perf stat's -x output read into a measurement record, for
 * timeit-perf.  The one reader of that format. */
#ifndef TI_PERFCSV_H
#define TI_PERFCSV_H

#include <stddef.h>

#include "record.h"

/* perf's tool events (perf-stat(1), "duration_time", "user_time",
 * "system_time"), in seconds, -1 where the CSV had none; and the largest
 * time a counter was enabled (ns), -1 without any: the CPU time the
 * counters saw (lib/measure/measure.c, ti_record_check_lost). */
struct ti_perfcsv_times {
	double duration_s, user_s, sys_s;
	double seen_ns;
};

/* Read TEXT (LEN bytes, perf stat -x SEP: value, unit, event, run time,
 * percentage running, metric...) into R's counts, one per event line: a
 * value is counted (task-clock and cpu-clock in ms, kept as ns), "<not
 * counted>" opened but never scheduled, "<not supported>" skipped with
 * ENOENT.  Blank and '#' lines are skipped; a line of fewer than three
 * fields too.  The ":u" that an unprivileged perf appends to a name is
 * taken off unless ASKED (the -e list) holds it.  The tool events go to T.
 * Returns the number of event lines read. */
size_t ti_perfcsv_read(const char *text, size_t len, char sep, const char *asked,
		       struct ti_record *r, struct ti_perfcsv_times *t);

#endif
