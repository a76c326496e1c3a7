/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read-int.h: what the readers of lib/ab (read-*.c) share: the format
 * table's row (read-format.c), the errors and files (read.c), the values
 * and their forms (read-value.c); they add runs to a set with set.h.  It
 * includes no read.h, so that read.c, whose header that is, stands above
 * it.  Not for the programs: they use read.h. */
#ifndef TI_AB_READ_INT_H
#define TI_AB_READ_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jsonread.h"
#include "set.h"

struct ti_ab_error;

/* What a reader is given: the file, the benchmark name the file stands
 * for (from its path), its text, and, for a JSON format, its parsed top
 * level object. */
/* The longest name a reader makes of a test or a file's path, with its
 * end: a path's (PATH_MAX on Linux), so that no name is cut short into
 * another. */
#define TI_AB_NAME_MAX 4096

struct ti_ab_input {
	const char *path;
	const char *name;
	const char *data;
	size_t len;
	const struct ti_jsonread_value *top;	/* NULL for a text format */
	const char *metric;
	unsigned pos;		/* the path's position among its side's (read.h) */
	uint32_t sample;	/* the sample number in the file's path, 0: none */
};

/* A row of the format table (read-format.c): JSON says whether the text
 * must parse as a JSON object first; PROBE tells whether IN is this
 * format; LOAD adds its runs to SET and returns how many, or -errno /
 * -EINVAL. */
struct ti_ab_format {
	const char *name;
	bool json;
	bool (*probe)(const struct ti_ab_input *in);
	int (*load)(struct ti_ab_set *set, const struct ti_ab_input *in, struct ti_ab_error *err);
};

/* The readers, one per format (read-*.c). */
bool ti_ab_read_summary_probe(const struct ti_ab_input *in);
int ti_ab_read_summary(struct ti_ab_set *set, const struct ti_ab_input *in,
		       struct ti_ab_error *err);
bool ti_ab_read_timeit_probe(const struct ti_ab_input *in);
int ti_ab_read_timeit(struct ti_ab_set *set, const struct ti_ab_input *in,
		      struct ti_ab_error *err);
bool ti_ab_read_lit_probe(const struct ti_ab_input *in);
int ti_ab_read_lit(struct ti_ab_set *set, const struct ti_ab_input *in, struct ti_ab_error *err);
bool ti_ab_read_lnt_probe(const struct ti_ab_input *in);
int ti_ab_read_lnt(struct ti_ab_set *set, const struct ti_ab_input *in, struct ti_ab_error *err);

/* read.c: errors naming the file, its bytes, its name. */

/* Fill ERR for PATH (LINE 0: the whole file) and return -EINVAL. */
int ti_ab_read_error(struct ti_ab_error *err, const char *path, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Fill ERR for PATH's "tests" list at LINE, which is empty (ERR->empty),
 * and return -EINVAL. */
int ti_ab_read_no_tests(struct ti_ab_error *err, const char *path, int line);
/* Fill ERR with strerror(E) for PATH and return -E. */
int ti_ab_read_sys_error(struct ti_ab_error *err, const char *path, int e);
/* The last component of PATH. */
const char *ti_ab_read_base_name(const char *path);

/* read-value.c: a format's values and statuses as runs. */

/* A run with nothing known yet: every value NAN, round 0, clean. */
struct ti_ab_sample ti_ab_read_sample(void);
/* The one rule of every reader for a benchmark's runs: the passing runs'
 * values are samples, each failed run is counted.  V: a number or a list
 * of numbers (none: one run lacking the metric), in round IN->pos with
 * sample numbers from 1 for a list, 0 for a number; STATUS: NULL (every
 * run passed), one status or a list of them (0 or "PASS" a pass), a list
 * as long as V's one per sample, else the failed runs beyond V's passing
 * ones.  Returns the runs added or an error. */
int ti_ab_read_add_values(struct ti_ab_set *set, const struct ti_ab_input *in, const char *name,
			  const struct ti_jsonread_value *v, const struct ti_jsonread_value *status,
			  struct ti_ab_error *err);
/* How many runs STATUS says failed (0 or "PASS" a pass): each failing
 * entry of a list, one for a failing single status, 0 for NULL. */
size_t ti_ab_read_failures(const struct ti_jsonread_value *status);
/* V is a number that is NaN or infinite (jsonread reads Python's forms). */
bool ti_ab_read_nonfinite(const struct ti_jsonread_value *v);
/* Record run S of NAME as failed because its metric KEY is V, not a
 * finite number, the failure naming PATH and the value; or, when SET
 * refuses such values, fill ERR naming PATH:LINE, NAME, KEY and V.  0,
 * -ENOMEM or -EINVAL. */
int ti_ab_read_add_nonfinite(struct ti_ab_set *set, struct ti_ab_error *err, const char *path,
			     int line, const char *name, struct ti_ab_sample s, const char *key,
			     double v);
/* The error for a negative metric value V of KEY in benchmark NAME. */
int ti_ab_read_negative(struct ti_ab_error *err, const char *path, int line,
			const char *name, const char *key, double v);
/* IN's "tests" array (lit and LNT), or NULL with *RC set to the error
 * (not an array, empty). */
const struct ti_jsonread_value *ti_ab_read_tests(const struct ti_ab_input *in,
						 struct ti_ab_error *err, int *rc);
/* V's number, or NAN when V is missing or not a number. */
double ti_ab_read_number(const struct ti_jsonread_value *v);
/* A plain non-negative decimal number, as a summary line holds it. */
bool ti_ab_read_plain(const char *s, double *out);
/* The summary key a metric is read from (exec_time: the user line). */
const char *ti_ab_read_summary_key(const char *metric);
/* KEY names event EV, possibly with perf modifiers ("instructions:u"). */
bool ti_ab_read_is_event(const char *key, const char *ev);

/* The cache geometry and cost weights of valgrind-est-cycles: I1, D1 and
 * LL size, associativity and line, then the L1, LL and mispredict
 * weights; as one text into OUT (NAN values: "?"), for comparing two
 * sides' geometry. */
#define NGEO 12
void ti_ab_read_geometry(const double *geo, char *out, size_t len);

#endif
