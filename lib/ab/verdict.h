/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict.h: the verdict model of an A/B comparison.  Samples of both
 * sides in, one row per benchmark out: its estimate, interval, test and
 * verdict with the reasons for it, plus the geometric mean of the suite.
 * Nothing here prints or exits; errors are returned (-ENOMEM). */
#ifndef TI_AB_VERDICT_H
#define TI_AB_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read.h"
#include "stats.h"

enum ti_ab_verdict {
	TI_AB_IMPROVED,
	TI_AB_REGRESSED,
	TI_AB_UNCHANGED,
	TI_AB_NOISY,
	TI_AB_MISSING,
	TI_AB_FAILED,
	TI_AB_VERDICTS
};

/* The verdict's word in every report: "improved", "regressed", ... */
extern const char *const ti_ab_verdict_name[TI_AB_VERDICTS];

enum ti_ab_code { TI_AB_CODE_UNKNOWN, TI_AB_CODE_SAME, TI_AB_CODE_CHANGED };

struct ti_ab_config {
	const char *metric;
	double alpha;		/* significance level */
	double min_change;	/* the gate, in percent */
	double filter_short;	/* leave out benchmarks whose medians are below (s) */
	enum ti_stats_adjust adjust;
	bool strict;		/* failures and losses on B gate too */
	uint64_t seed, reps;	/* the geometric mean's bootstrap */
	/* Which benchmarks to compare (NULL: all). */
	bool (*keep)(const char *name, void *arg);
	void *keep_arg;
};

struct ti_ab_row {
	const char *name;
	const struct ti_ab_bench *a, *b;
	enum ti_ab_verdict v;
	double med_a, med_b, spread_a, spread_b;	/* spreads: MAD / median */
	double change;		/* ln(median B / median A) */
	double hl, lo, hi;	/* Hodges-Lehmann shift of ln values and its CI */
	double p, p_adj;	/* NAN: no test */
	double floor;		/* ln noise floor from an A/A pair, NAN: none */
	enum ti_ab_code code;
	double insn_change;	/* relative instruction count change */
	bool exact;		/* an exact count without spread: compared, not tested */
	bool gating;		/* a regression that sets exit status 1 */
	char note[160];
};

struct ti_ab_geomean {
	size_t n;
	double ratio, lo, hi;	/* NAN when n == 0 */
};

struct ti_ab_result {
	struct ti_ab_row *rows;
	size_t n;
	struct ti_ab_geomean geomean;
	bool regressed;		/* a row gates: exit status 1 */
	char note[320];		/* about the whole comparison, or empty */
};

/* Compare the sorted sets A and B (and, when FA and FB are not NULL, take
 * each benchmark's noise floor from the A/A pair FA, FB) under C into R
 * (free with ti_ab_result_free).  Returns 0 or -ENOMEM. */
int ti_ab_verdict_run(const struct ti_ab_config *c, const struct ti_ab_set *a,
		      const struct ti_ab_set *b, const struct ti_ab_set *fa,
		      const struct ti_ab_set *fb, struct ti_ab_result *r);

/* Free what R owns. */
void ti_ab_result_free(struct ti_ab_result *r);

#endif
