/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict-int.h: what the files of the verdict share.  verdict-run.c takes
 * a row through them in this order: its runs counted (verdict.c) and
 * its code classified (verdict-code.c), its rounds paired
 * (verdict-pair.c), its test and intervals (verdict-measure.c; with few
 * pairs, the suite's moderated t: verdict-moderate.c), the
 * adjustment across the benchmarks (verdict-adjust.c), its verdict
 * (verdict-decide.c); then the suite's geometric mean
 * (verdict-geomean.c).  verdict.c holds what they all use.  This header
 * includes no verdict.h, so that verdict.c, whose header that is, stands
 * above it.  Not for the programs: they use verdict.h. */
#ifndef TI_AB_VERDICT_INT_H
#define TI_AB_VERDICT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

struct ti_ab_bench;
struct ti_ab_config;
struct ti_ab_geomean;
struct ti_ab_result;
struct ti_ab_row;
struct ti_ab_sample;
struct ti_ab_set;

/* A run's round and its value (NAN: failed, lacking or dropped). */
struct ti_ab_keyed {
	uint64_t round;
	double v;
};

/* Scratch room for one row: the values of both sides, their rounds, the
 * paired values and their log-ratios. */
struct ti_ab_scratch {
	double *x, *y, *d, *px, *py, *w;
	struct ti_ab_keyed *ka, *kb;
	uint64_t *rk;		/* the rounds of the pairs */
	struct ti_stats_cache cache;	/* the untied distributions, by sizes */
};

/* The other test a row may be decided by (TI_AB_RANK_OR_T): chosen once
 * the number of tests is known (ti_ab_measure_choose). */
struct ti_ab_alt {
	double p, est, lo, hi, level, eq_lo, eq_hi;
	const char *test;
	double var;		/* Student's t: the variance of the log-ratios of the
				 * first VAR_N pairs (at least their resolution's), on
				 * VAR_N - 1 degrees of freedom; NAN: other */
	size_t var_n;		/* the pairs, up to C->moderate */
};

/* verdict.c: a row and its words. */

/* R with nothing known: every number NAN, no verdict of the times. */
void ti_ab_row_init(struct ti_ab_row *r);
/* Append the clause FMT to BUF (LEN bytes), after "; " when BUF has one. */
void ti_ab_row_add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define NOTE(r, ...) ti_ab_row_add((r)->note, sizeof (r)->note, __VA_ARGS__)
#define REASON(r, ...) ti_ab_row_add((r)->reason, sizeof (r)->reason, __VA_ARGS__)
/* Add a note about the whole comparison to RES (the first TI_AB_NOTES). */
void ti_ab_result_note(struct ti_ab_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* S takes part: it succeeded, has the metric, and is not dropped for its
 * noise flags. */
bool ti_ab_sample_usable(const struct ti_ab_sample *s, const struct ti_ab_config *c);
/* The usable values of B into OUT; their count. */
size_t ti_ab_bench_values(const struct ti_ab_bench *b, const struct ti_ab_config *c,
			  double *out);
/* The M values of X are all one value. */
bool ti_ab_constant(const double *x, size_t m);
/* The M values of X and the N of Y are all one value, and each side has
 * more than one (one sample a side shows nothing about its spread). */
bool ti_ab_all_equal(const double *x, size_t m, const double *y, size_t n);
/* Every one of the N values of X is above 0 (has a logarithm). */
bool ti_ab_all_positive(const double *x, size_t n);
/* R's medians and relative spreads from the samples its test uses: X of
 * A, Y of B (with pairing, only the rounds both sides have). */
void ti_ab_row_centre(struct ti_ab_row *r, const double *x, size_t m, const double *y, size_t n);
/* Count R's failed and flagged runs; when a side has no successful run
 * with the metric, decide R (failed or missing) and return true. */
bool ti_ab_row_runs(struct ti_ab_row *r, const struct ti_ab_config *c);
/* Note R's runs left out: failed, or without the metric. */
void ti_ab_row_left_out(struct ti_ab_row *r, const struct ti_ab_config *c);

/* verdict-code.c: what the code says, beside the times. */

/* R's binary identity and the change of its instruction count and of its
 * simulated cycles (SCRATCH: room for a side's samples). */
void ti_ab_code_classify(struct ti_ab_row *r, double *scratch);
/* A cache metric simulated with different geometries: R is missing
 * (true). */
bool ti_ab_code_geometry(struct ti_ab_row *r, const struct ti_ab_config *c);
/* The notes of R after its verdict (counts, cycles, flags), and the
 * verdict of identical binaries, counted in RES: unchanged. */
void ti_ab_code_annotate(struct ti_ab_row *r, const struct ti_ab_config *c,
			 struct ti_ab_result *res);
/* -m hash: R's verdict from its binaries' identities alone. */
void ti_ab_code_identity(struct ti_ab_row *r);

/* verdict-pair.c: whether the rounds are analysed as pairs. */

/* The rounds both sides of R share: values into S->px, S->py, log-ratios
 * into S->d, rounds into S->rk; their count, 0 when the rounds differ. */
size_t ti_ab_pair_rounds(const struct ti_ab_row *r, const struct ti_ab_config *c,
			 struct ti_ab_scratch *s);
/* Pair R's rounds where C (and, for the old rule, the suite's vote PAIR)
 * says so; M, N: the samples of each side. */
void ti_ab_pair_row(struct ti_ab_row *r, const struct ti_ab_config *c, bool pair,
		    struct ti_ab_scratch *s, size_t m, size_t n);
/* Whether the suite's rounds are paired (RES->pair, and the old rule's
 * correlation); 0 or -ENOMEM. */
int ti_ab_pair_decide(const struct ti_ab_config *c, const struct ti_ab_set *sa,
		      const struct ti_ab_set *sb, struct ti_ab_scratch *s,
		      struct ti_ab_result *res);
/* The median rank correlation of RES's tested paired rows, reported;
 * 0 or -ENOMEM. */
int ti_ab_pair_corr(struct ti_ab_result *res);

/* verdict-measure.c: the tests, their intervals and their floors. */

/* The test of C on R's samples (S; M and N of each side) at ALPHA, its
 * interval and its equivalence interval; the rank test's t alternative
 * in ALT.  0 or -ENOMEM. */
int ti_ab_measure(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha,
		  struct ti_ab_scratch *s, size_t m, size_t n, struct ti_ab_alt *alt);
/* Decide each PENDING row of RES by its ALTS' t where its rank test's
 * smallest p cannot pass the adjustment's strictest step. */
void ti_ab_measure_choose(struct ti_ab_result *res, const struct ti_ab_config *c, double alpha,
			  const bool *pending, const struct ti_ab_alt *alts);
/* The ln noise floor of one benchmark from its A/A pair X, Y; NAN when a
 * side has no positive value. */
double ti_ab_measure_floor(const struct ti_ab_bench *x, const struct ti_ab_bench *y,
			   const struct ti_ab_config *c, struct ti_ab_scratch *s);

/* verdict-moderate.c: few pairs, many benchmarks. */

/* Replace the t alternative (ALTS) of each PENDING row of RES with
 * C->moderate_from to C->moderate pairs by Smyth's moderated t at ALPHA,
 * when at least C->moderate_min such rows give the prior of the
 * variances.  0 or -ENOMEM. */
int ti_ab_moderate(struct ti_ab_result *res, const struct ti_ab_config *c, double alpha,
		   const bool *pending, struct ti_ab_alt *alts);

/* verdict-decide.c: significance, the gate and equivalence. */

/* The verdict of R, whose test (if any) has its adjusted p-value, at
 * ALPHA, with its reason. */
void ti_ab_decide(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha);

/* verdict-adjust.c: many benchmarks, several looks. */

/* The level of each test of one look: alpha over the planned looks. */
double ti_ab_adjust_alpha(const struct ti_ab_config *c);
/* Adjust the p-values of RES's PENDING rows across the benchmarks and
 * decide them.  0 or -ENOMEM. */
int ti_ab_adjust(struct ti_ab_result *res, const struct ti_ab_config *c, double alpha,
		 const bool *pending);

/* verdict-geomean.c: the suite's geometric mean. */

/* The geometric mean of B/A over RES's rows into OUT.  0 or -ENOMEM. */
int ti_ab_geomean_compute(const struct ti_ab_result *res, const struct ti_ab_config *c,
			  struct ti_ab_scratch *s, struct ti_ab_geomean *out);

#endif
