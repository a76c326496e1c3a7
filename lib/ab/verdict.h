/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict.h: the verdict model of an A/B comparison.  Samples of both
 * sides in, one row per benchmark out: its estimate, interval, test and
 * verdict with the reason for it, plus the geometric mean of the suite and
 * notes on the comparison as a whole.  Nothing here prints or exits;
 * errors are returned (-ENOMEM).  The statistics are described in
 * timeit-compare(1), STATISTICS; verdict.c says which file holds each
 * decision. */
#ifndef TI_AB_VERDICT_H
#define TI_AB_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "set.h"
#include "stats.h"

enum ti_ab_verdict {
	TI_AB_IMPROVED,		/* significant, and beyond the gate, faster */
	TI_AB_REGRESSED,	/* significant, and beyond the gate, slower */
	TI_AB_UNCHANGED,	/* shown within the gate (equivalence), or the same binary */
	TI_AB_UNDECIDED,	/* neither shown: the reason says why */
	TI_AB_CHANGED,		/* -m hash: the binaries differ */
	TI_AB_MISSING,		/* on one side only, or without the metric */
	TI_AB_FAILED,		/* every run of a side failed */
	TI_AB_VERDICTS
};

/* The verdict's word in every report: "improved", "regressed", ... */
extern const char *const ti_ab_verdict_name[TI_AB_VERDICTS];

/* Binary identity, from the benchmarks' hashes. */
enum ti_ab_code {
	TI_AB_CODE_UNKNOWN,
	TI_AB_CODE_SAME,	/* identical binaries */
	TI_AB_CODE_CHANGED,	/* different binaries */
};

/* The paired test (interleaved rounds); the library has the others for
 * the simulation that chose the default (bench/ab-sim). */
enum ti_ab_paired_test {
	TI_AB_RANK_OR_T,	/* the default: signed rank where its smallest p, 2^(1-n),
				 * can pass the strictest step of the adjustment
				 * (alpha' / tests), else Student's t on the log-ratios */
	TI_AB_RANK_OR_YUEN,	/* the same with Yuen's 20 % trimmed t */
	TI_AB_SIGNED_RANK,	/* Wilcoxon signed rank, Walsh-average centre and interval */
	TI_AB_SIGN,		/* sign test, median and its order-statistic interval */
	TI_AB_PAIRED_T,		/* Student's t on the log-ratios */
	TI_AB_TRIMMED_T,	/* Yuen's 20 % trimmed-mean t on the log-ratios */
	TI_AB_SIMES,		/* signed rank and Mann-Whitney, combined by Simes */
};

/* The test of unpaired samples (the rounds of A and B differ). */
enum ti_ab_unpaired_test {
	TI_AB_WELCH,		/* Welch's t on the log times (Satterthwaite's degrees of
				 * freedom: 8 % suite A/A at 6 a side when the spreads
				 * differ tenfold, bench/ab-sim --unpaired) */
	TI_AB_WELCH_HSU,	/* the default: Welch's statistic on the smaller side's
				 * n - 1 degrees of freedom (Hsu), within alpha for any
				 * ratio of the spreads */
	TI_AB_YUEN2,		/* Yuen's two-sample 20 % trimmed t on the log times */
	TI_AB_BRUNNER_MUNZEL,	/* Brunner-Munzel, with the Hodges-Lehmann interval */
	TI_AB_MANN_WHITNEY,	/* exact Mann-Whitney (invalid under unequal spreads) */
};

/* Whether interleaved rounds are analysed as pairs.  Rounds are pairs by
 * design (A_i and B_i ran in one round of an interleaved run): AUTO and
 * ALWAYS pair every benchmark whose rounds are the same on both sides,
 * whatever their correlation (noise that slows one run of a round and
 * spares the other makes it negative, and the unpaired tests invalid). */
enum ti_ab_pairing {
	TI_AB_PAIR_AUTO,
	TI_AB_PAIR_ALWAYS,
	TI_AB_PAIR_NEVER,
	TI_AB_PAIR_VOTE,	/* the old rule, for bench/ab-sim: pair when
				 * the median rank correlation reaches TI_AB_PAIR_CORRELATION */
};

/* The median, over the benchmarks with at least TI_AB_PAIR_MIN_ROUNDS
 * shared rounds, of the rank correlation of A_i with B_i: reported, and
 * the old rule's vote (TI_AB_PAIR_VOTE). */
#define TI_AB_PAIR_CORRELATION 0.2
#define TI_AB_PAIR_MIN_ROUNDS 5

/* Smyth's moderated t (Smyth 2004; verdict-moderate.c): with 2 or 3
 * pairs the t has 1 or 2 degrees of freedom and cannot pass a suite's
 * adjustment but for a change far beyond the noise; the variance of each
 * benchmark's log-ratios is shrunk toward the suite's, estimated from the
 * spread of the benchmarks' variances, and the t gains its degrees of
 * freedom.  Rows of TI_AB_MODERATE_FROM to TI_AB_MODERATE_PAIRS pairs,
 * when at least TI_AB_MODERATE_MIN of them give the prior (bench/ab-sim
 * --table moderate chose them, docs/verdicts.md); the t alone otherwise.
 * Not at 2 pairs: one degree of freedom of its own leaves a row with an
 * outlier in one pair shrunk toward the quiet suite (at one look of
 * alpha / 6, A/A suites with a call: 4-10 % under 5 % outliers, up to 71 %
 * under this VM's noise).  At 3 pairs, 0-1 % from 40 benchmarks on in
 * every model, up to 3 % at 20 and 6 % below. */
#define TI_AB_MODERATE_FROM 3u
#define TI_AB_MODERATE_PAIRS 3u
#define TI_AB_MODERATE_MIN 40u

/* The geometric mean's interval. */
enum ti_ab_geo {
	TI_AB_GEO_ROUND,	/* the default: Student's t over the rounds' suite means
				 * (a round moves every benchmark together); t over the
				 * benchmarks when the rounds are not paired */
	TI_AB_GEO_T,		/* Student's t over the benchmarks' log-ratios */
	TI_AB_GEO_BOOTSTRAP,	/* percentile bootstrap of their mean */
};

/* How alpha is spent over the looks of a sequential run (Lan and DeMets
 * 1983): F(t) of alpha spent by the information fraction t = k / looks at
 * look k, each look's tests at F(k / looks) - F((k - 1) / looks).  The
 * levels sum to alpha whatever the looks' correlation (Bonferroni over
 * the looks), so the whole run keeps alpha. */
enum ti_ab_spend {
	TI_AB_SPEND_EVEN,	/* the default: F(t) = alpha t, alpha / looks each */
	TI_AB_SPEND_POCOCK,	/* Pocock-type: F(t) = alpha ln(1 + (e - 1) t), more early */
	TI_AB_SPEND_OBF,	/* O'Brien-Fleming-type: F(t) = 2 - 2 Phi(z(1 - alpha/2) / sqrt t),
				 * almost nothing early */
};

struct ti_ab_config {
	const char *metric;
	double alpha;		/* significance level, of the whole run of looks */
	double min_change;	/* the gate, in percent */
	double filter_short;	/* leave out benchmarks whose medians are below (s) */
	enum ti_stats_adjust adjust;	/* across benchmarks */
	enum ti_ab_pairing pairing;
	bool drop_flagged;	/* leave out samples with noise flags */
	bool strict;		/* any failure, and losses on B, gate too */
	unsigned looks;		/* analyses a sequential driver may make (>= 1) */
	unsigned look;		/* which of them this is (1..looks); 0: not known, the
				 * smallest level of any look, valid whichever it is */
	bool last;		/* the run's last analysis, before look LOOK (which will
				 * not come: the budget ended the run), spends the rest:
				 * alpha - F((look - 1) / looks) */
	enum ti_ab_spend spend;
	enum ti_ab_paired_test paired_test;
	enum ti_ab_unpaired_test unpaired_test;
	enum ti_ab_geo geo;
	double t_share;		/* the share of alpha' a paired t spends (0 < t_share <= 1):
				 * its p-value is divided by it */
	unsigned moderate_from, moderate;	/* rows of MODERATE_FROM (at least 2) to
						 * MODERATE pairs are tested by Smyth's moderated t
						 * where they would be by the t (MODERATE 0: never) */
	size_t moderate_min;	/* ... when at least this many rows of MODERATE_FROM
				 * pairs or more give the prior */
	uint64_t seed, reps;	/* the geometric mean's bootstrap */
	/* Which benchmarks to compare (NULL: all). */
	bool (*keep)(const char *name, void *arg);
	void *keep_arg;
};

/* Set C to the defaults of timeit-compare: alpha 0.05, gate 1 %,
 * Benjamini-Hochberg, paired where the rounds allow (signed rank or t),
 * Welch-Hsu where not, one look, the geometric mean's interval by round. */
void ti_ab_config_init(struct ti_ab_config *c);

struct ti_ab_row {
	const char *name;
	const struct ti_ab_bench *a, *b;
	enum ti_ab_verdict v;
	char reason[192];	/* why V */
	char note[256];		/* other facts: failures, flags, instructions, pairing */
	bool decidable;		/* undecided, and more samples could decide it */
	bool paired;		/* tested on the within-round log-ratios */
	const char *test;	/* the test used: "signed rank", "t", "Welch", ...; NULL: none */
	double min_p;		/* the smallest p that test can give (0: none) */
	double corr;		/* paired: rank correlation of A_i and B_i, NAN: none */
	size_t n_a, n_b;	/* samples compared (paired: pairs on both) */
	size_t failed_a, failed_b, flagged_a, flagged_b;	/* of the runs read */
	double med_a, med_b, spread_a, spread_b;	/* spreads: MAD / median */
	double est;		/* ln B/A: the Hodges-Lehmann shift (paired: centre) */
	double lo, hi;		/* its 1 - alpha' interval (alpha' = alpha / looks) */
	double level;		/* the interval's exact coverage */
	double eq_lo, eq_hi;	/* the 1 - 2 alpha' interval of the equivalence test */
	double p, p_adj;	/* NAN: no test */
	double floor;		/* ln noise floor from an A/A pair, NAN: none */
	enum ti_ab_code code;
	double insn_change;	/* relative instruction count change, NAN: unknown */
	double est_change;	/* relative change of valgrind's est. cycles, NAN: unknown */
	bool exact;		/* an exact count without spread: compared, not tested */
	bool gating;		/* sets exit status 1 */
	enum ti_ab_verdict time_v;	/* same binary: what the times alone said */
};

struct ti_ab_geomean {
	size_t n;
	double ratio, lo, hi;	/* NAN when n == 0 */
	double level;		/* lo..hi's level: 1 - alpha / looks, as the rows' */
	size_t rounds;		/* by round: over how many */
	const char *method;	/* how lo..hi was found: "round", "t", "bootstrap", "one benchmark" */
	double log_ratio;	/* ln ratio, finite where ratio overflows; NAN when n == 0 */
};

#define TI_AB_NOTES 6

struct ti_ab_result {
	struct ti_ab_row *rows;
	size_t n;
	struct ti_ab_geomean geomean;
	bool regressed;		/* a row gates: exit status 1 */
	double alpha_look;	/* alpha / looks: each test's level */
	bool pair;		/* the rounds were paired where both sides had them */
	double pair_corr;	/* the median correlation of the rows paired, NAN: none */
	size_t pair_corr_n;	/* over how many benchmarks */
	size_t used, flagged;	/* samples compared, of them flagged */
	size_t same_binary, same_binary_sig;	/* identical binaries; of them, time differed */
	char notes[TI_AB_NOTES][320];	/* about the whole comparison */
	size_t nnotes;
};

/* Compare the sorted sets A and B (and, when FA and FB are not NULL, take
 * each benchmark's noise floor from the A/A pair FA, FB) under C into R
 * (free with ti_ab_result_free).  Returns 0, -ENOMEM, or -EINVAL for a
 * configuration the statistics cannot serve (an alpha of 0.5 or more
 * leaves no equivalence interval). */
int ti_ab_verdict_run(const struct ti_ab_config *c, const struct ti_ab_set *a,
		      const struct ti_ab_set *b, const struct ti_ab_set *fa,
		      const struct ti_ab_set *fb, struct ti_ab_result *r);

/* Free what R owns. */
void ti_ab_result_free(struct ti_ab_result *r);

/* The level of the tests of look LOOK (1..LOOKS; 0: the smallest of any
 * look) of LOOKS under SPEND, the whole run at ALPHA; LAST: the rest of
 * alpha before look LOOK (what the looks before it left). */
double ti_ab_look_alpha(double alpha, unsigned looks, unsigned look, bool last,
			enum ti_ab_spend spend);

/* verdict-measure.c: the share of alpha the t alternative's p spends
 * (C->t_share where it is in (0, 1], else all): its p is divided by it. */
double ti_ab_t_share(const struct ti_ab_config *c);

/* The spending's name in reports and options: "even", "pocock", "obf";
 * ti_ab_spend_parse the reverse (-1: none of them). */
const char *ti_ab_spend_name(enum ti_ab_spend s);
int ti_ab_spend_parse(const char *s);

/* The adjustment's name in reports: "bh", "holm", "none". */
const char *ti_ab_adjust_name(enum ti_stats_adjust a);

#endif
