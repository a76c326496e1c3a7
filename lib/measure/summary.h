/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* summary.h: the summary file, the stderr report and the JSON document. */
#ifndef TI_SUMMARY_H
#define TI_SUMMARY_H

#include <stdbool.h>

#include "buf.h"
#include "host.h"
#include "json.h"
#include "record.h"

/* The summary file's keys (timeit(1), SUMMARY FILE), written by
 * ti_summary_format alone and looked up by these names by its readers
 * (timeit-compare).  A new line is one row in lib/measure/summary.c and its name
 * here. */
#define TI_KEY_EXIT "exit"
#define TI_KEY_REAL "real"
#define TI_KEY_USER "user"
#define TI_KEY_SYS "sys"
#define TI_KEY_MAXRSS "maxrss"
#define TI_KEY_TSC_TICKS "tsc-ticks"
#define TI_KEY_N_RUNS "n-runs"
#define TI_KEY_NOISE_FLAGS "noise-flags"
#define TI_KEY_VALGRIND_INSTRUCTIONS "valgrind-instructions"
/* --count-instructions=valgrind-cache (timeit(1), CACHE SIMULATION): the
 * misses as cachegrind's summary counts them (I1: instruction fetches,
 * D1: data reads and writes, LL: instruction and data misses of the last
 * level), the mispredicted branches (conditional and indirect), the
 * estimated cycles, then what they depend on: the geometry simulated
 * (bytes, ways, line bytes of each cache) and the weights.  Values of two
 * runs compare only when all of the latter are equal. */
#define TI_KEY_VALGRIND_I1_MISSES "valgrind-i1-misses"
#define TI_KEY_VALGRIND_D1_MISSES "valgrind-d1-misses"
#define TI_KEY_VALGRIND_LL_MISSES "valgrind-ll-misses"
#define TI_KEY_VALGRIND_MISPREDICTS "valgrind-mispredicts"
#define TI_KEY_VALGRIND_EST_CYCLES "valgrind-est-cycles"
#define TI_KEY_VALGRIND_I1_SIZE "valgrind-i1-size"
#define TI_KEY_VALGRIND_I1_ASSOC "valgrind-i1-assoc"
#define TI_KEY_VALGRIND_I1_LINE "valgrind-i1-line"
#define TI_KEY_VALGRIND_D1_SIZE "valgrind-d1-size"
#define TI_KEY_VALGRIND_D1_ASSOC "valgrind-d1-assoc"
#define TI_KEY_VALGRIND_D1_LINE "valgrind-d1-line"
#define TI_KEY_VALGRIND_LL_SIZE "valgrind-ll-size"
#define TI_KEY_VALGRIND_LL_ASSOC "valgrind-ll-assoc"
#define TI_KEY_VALGRIND_LL_LINE "valgrind-ll-line"
#define TI_KEY_VALGRIND_WEIGHT_L1 "valgrind-weight-l1"
#define TI_KEY_VALGRIND_WEIGHT_LL "valgrind-weight-ll"
#define TI_KEY_VALGRIND_WEIGHT_MISPREDICT "valgrind-weight-mispredict"
/* Event keys: the event's name, escaped with TI_KEY_EVENT_ESCAPE when it
 * would start like a reserved key; a multiplexed one gets a second line,
 * KEY TI_KEY_RUNNING_SUFFIX.  With --repeat every metric M (real, user,
 * sys, maxrss, an event's key) has TI_KEY_MIN_PREFIX M and
 * TI_KEY_MAD_PREFIX M lines. */
#define TI_KEY_EVENT_ESCAPE "ev-"
#define TI_KEY_RUNNING_SUFFIX "-running"
#define TI_KEY_MIN_PREFIX "min-"
#define TI_KEY_MAD_PREFIX "mad-"

/* The reference's keys, in file order: lit keeps every line starting with
 * "user" and requires exactly one, old Makefiles grep ^exit, ^real and
 * ^user, so no other key starts like one of these (timeit(1), SUMMARY
 * FILE). */
#define TI_KEY_NRESERVED 5
extern const char *const ti_summary_reserved[TI_KEY_NRESERVED];

struct ti_repeat_agg;
struct ti_vgcount_result;

/* Everything one summary says: the run (with --repeat the medians), the
 * statistics of the runs, the noise screen and the valgrind count. */
struct ti_summary {
	const struct ti_record *r;		/* the run, or the medians of the runs */
	const struct ti_repeat_agg *repeat;	/* --repeat/--warmup statistics, or NULL */
	unsigned noise_flags;			/* TI_NOISE_* of every run (lib/measure/noise.h) */
	const struct ti_vgcount_result *vg;	/* the --count-instructions run, or NULL */
	bool report_maxrss;
	bool no_noise_screen;			/* no noise-flags line (timeit-perf has none) */
};

/* The summary file: the reference's lines (exit, real, user, sys, maxrss)
 * byte for byte, then one "key value" line per counted event, the
 * timestamp counter, the --repeat statistics, noise-flags and the valgrind
 * count (when it succeeded). */
void ti_summary_format(struct ti_buf *b, const struct ti_summary *s);

/* The report on stderr when there is no --summary: the reference's
 * one-line layout, or the POSIX layout with POSIX set; then (not with
 * POSIX) the --repeat statistics, and the valgrind count. */
void ti_report_format(struct ti_buf *b, const struct ti_summary *s, bool posix);

/* Everything measured about one run, as a JSON object (KEY NULL at top). */
void ti_json_record(struct ti_json *j, const char *key, const struct ti_record *r);

/* The host facts as a JSON object. */
void ti_json_host(struct ti_json *j, const char *key, const struct ti_host *h);

/* The summary key of an event: its name, prefixed with TI_KEY_EVENT_ESCAPE
 * when it would start like a reserved key, every byte that is not
 * printable ASCII or is a blank as '_' (one word a line). */
void ti_summary_key(const char *name, char *out, size_t len);

#endif
