/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict-test.c: the verdict model of lib/ab/verdict.c from a table:
 * each row gives both sides' samples of one benchmark and the verdict,
 * the start of its reason, pairing and decidability it must get (TAP;
 * a failure names the row's line).  Then the cases a table cannot hold:
 * the equivalence interval against values computed by hand, the gate at
 * its edge, failures, identity, --looks and the geometric mean. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "read.h"
#include "stats.h"
#include "tap.h"
#include "verdict.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MAXS 24
#define Z (-2.0)		/* a value of 0 in a list that 0 ends */

/* One benchmark: the samples of each side (0 ends a list, -1 is a failed
 * run, Z a value of 0), in rounds 1, 2, ... */
struct bench {
	double a[MAXS], b[MAXS];
	unsigned flags;		/* noise flags of every run */
	const char *hash_a, *hash_b;
	double insn_a, insn_b;
	const char *geometry;	/* the caches both sides simulated */
};

static size_t count(const double *v)
{
	size_t n = 0;
	while (n < MAXS && v[n] != 0)
		n++;
	return n;
}

static void side(struct ti_ab_set *set, const char *name, const double *v, unsigned flags,
		 const char *hash, double insn, const char *geometry)
{
	struct ti_ab_bench *b;
	size_t n = count(v);

	set->b = realloc(set->b, (set->n + 1) * sizeof *set->b);
	b = &set->b[set->n++];
	memset(b, 0, sizeof *b);
	b->name = strdup(name);
	b->s = calloc(n ? n : 1, sizeof *b->s);
	b->n = b->cap = n;
	for (size_t i = 0; i < n; i++) {
		struct ti_ab_sample *s = &b->s[i];
		s->round = TI_AB_ROUND(1, i + 1);
		s->failed = v[i] == -1;
		s->value = v[i] == -1 ? NAN : v[i] == Z ? 0 : v[i];
		s->insn = NAN;
		s->vg_insn = insn > 0 ? insn : NAN;
		s->flags = flags;
		if (s->failed) {
			b->failures++;
			if (!b->failed_in)
				b->failed_in = strdup("here");
		} else {
			b->ok++;
			b->flagged += flags != 0;
		}
	}
	if (hash) {
		b->hash = strdup(hash);
		b->hash_kind = TI_AB_HASH_FILE;
	}
	if (geometry)
		b->geometry = strdup(geometry);
}

/* Compare one benchmark under C; R's row 0 is it. */
static int run(const struct bench *x, const struct ti_ab_config *c, struct ti_ab_result *r)
{
	struct ti_ab_set a = { 0 }, b = { 0 };
	int rc;

	side(&a, "x", x->a, x->flags, x->hash_a, x->insn_a, x->geometry);
	side(&b, "x", x->b, x->flags, x->hash_b, x->insn_b, x->geometry);
	rc = ti_ab_verdict_run(c, &a, &b, NULL, NULL, r);
	ti_ab_set_free(&a);
	ti_ab_set_free(&b);
	return rc;
}


static void test_table(void)
{
	static const struct {
		int line;
		struct bench x;
		const char *metric;
		enum ti_ab_pairing pairing;
		enum ti_ab_verdict v;
		const char *reason;	/* the start of the reason */
		bool paired, decidable;
		bool rank;		/* the rank tests only (timeit-compare --rank) */
	} rows[] = {
		/* 10 rounds, B 10 % slower in every one: a regression. */
		{ __LINE__, { .a = { 1.00, 1.01, 0.99, 1.02, 1.00, 0.98, 1.01, 1.00, 0.99, 1.02 },
			      .b = { 1.10, 1.11, 1.09, 1.12, 1.10, 1.08, 1.11, 1.10, 1.09, 1.12 } },
		  "exec_time", TI_AB_PAIR_AUTO, TI_AB_REGRESSED, "significant, +10.00% beyond", true, false, false },
		{ __LINE__, { .a = { 1.10, 1.11, 1.09, 1.12, 1.10, 1.08, 1.11, 1.10, 1.09, 1.12 },
			      .b = { 1.00, 1.01, 0.99, 1.02, 1.00, 0.98, 1.01, 1.00, 0.99, 1.02 } },
		  "exec_time", TI_AB_PAIR_AUTO, TI_AB_IMPROVED, "significant, -9.09% beyond", true, false, false },
		/* The same values in other rounds: the rounds do not move
		 * together, but they are pairs by design: paired,
		 * found. */
		{ __LINE__, { .a = { 1.00, 1.01, 0.99, 1.02, 1.00, 0.98, 1.01, 1.00, 0.99, 1.02 },
			      .b = { 1.12, 1.08, 1.10, 1.09, 1.11, 1.12, 1.10, 1.09, 1.11, 1.10 } },
		  "exec_time", TI_AB_PAIR_AUTO, TI_AB_REGRESSED, "significant", true, false, false },
		/* ... and --unpaired: Welch finds it too. */
		{ __LINE__, { .a = { 1.00, 1.01, 0.99, 1.02, 1.00, 0.98, 1.01, 1.00, 0.99, 1.02 },
			      .b = { 1.12, 1.08, 1.10, 1.09, 1.11, 1.12, 1.10, 1.09, 1.11, 1.10 } },
		  "exec_time", TI_AB_PAIR_NEVER, TI_AB_REGRESSED, "significant", false, false, false },
		/* Tiny noise, no change: shown within the gate. */
		{ __LINE__, { .a = { 1.000, 1.001, 0.999, 1.000, 1.001, 0.999, 1.000, 1.001 },
			      .b = { 1.001, 1.000, 1.000, 0.999, 1.000, 1.001, 0.999, 1.000 } },
		  "exec_time", TI_AB_PAIR_AUTO, TI_AB_UNCHANGED, "equivalent: 90% interval", true, false, false },
		/* 3 % noise, no change, 8 rounds: neither shown. */
		{ __LINE__, { .a = { 1.00, 1.03, 0.97, 1.02, 0.98, 1.04, 0.96, 1.01 },
			      .b = { 0.99, 1.04, 0.98, 0.97, 1.03, 1.00, 1.02, 0.97 } },
		  "exec_time", TI_AB_PAIR_AUTO, TI_AB_UNDECIDED, "spread larger than the change", true, true, false },
		/* Significant, +0.5 %, shown within +-1 %: unchanged, noted. */
		{ __LINE__, { .a = { 1.000, 1.001, 0.999, 1.000, 1.001, 0.999, 1.000, 1.001, 1.000, 0.999 },
			      .b = { 1.005, 1.006, 1.004, 1.005, 1.006, 1.004, 1.005, 1.006, 1.005, 1.004 } },
		  "exec_time", TI_AB_PAIR_AUTO, TI_AB_UNCHANGED, "equivalent", true, false, false },
		/* Every sample equal: both sides truly constant. */
		{ __LINE__, { .a = { 2, 2, 2 }, .b = { 2, 2, 2 } }, "exec_time", TI_AB_PAIR_AUTO, TI_AB_UNCHANGED,
		  "every sample equal", false, false, false },
		/* Every round equal on both sides, but the rounds
		 * 3.45 % apart, was "unchanged" with an interval of zero width
		 * (the same samples in the other round order: undecided).  The
		 * pairs have no spread: compared unpaired, undecided. */
		{ __LINE__, { .a = { 1.0, 1.0345 }, .b = { 1.0, 1.0345 } }, "exec_time", TI_AB_PAIR_AUTO,
		  TI_AB_UNDECIDED, "spread larger than the change", false, true, false },
		{ __LINE__, { .a = { 2, 3, 4 }, .b = { 2, 3, 4 } }, "exec_time", TI_AB_PAIR_AUTO, TI_AB_UNDECIDED,
		  "spread larger than the change", false, true, false },
		/* ... even when two rounds happen to lie close (the t's floor
		 * was the smallest gap between any two values). */
		{ __LINE__, { .a = { 1.0, 1.0001, 1.0345 }, .b = { 1.0, 1.0001, 1.0345 } }, "exec_time",
		  TI_AB_PAIR_AUTO, TI_AB_UNDECIDED, "spread larger than the change", false, true, false },
		/* One sample a side: no test, even when equal ("one
		 * surviving run of ten" was "every round equal"). */
		{ __LINE__, { .a = { 1.0 }, .b = { 1.2 } }, "exec_time", TI_AB_PAIR_AUTO, TI_AB_UNDECIDED,
		  "n=1/1: too few samples for a test", false, true, false },
		{ __LINE__, { .a = { 1.0 }, .b = { 1.0 } }, "exec_time", TI_AB_PAIR_AUTO, TI_AB_UNDECIDED,
		  "n=1/1: too few samples for a test", false, true, false },
		{ __LINE__, { .a = { -1, -1, -1, -1, 1.0, -1, -1, -1, -1, -1 },
			      .b = { -1, -1, -1, -1, 1.0, -1, -1, -1, -1, -1 } }, "exec_time", TI_AB_PAIR_AUTO,
		  TI_AB_UNDECIDED, "n=1/1: too few samples for a test", false, true, false },
		/* 2 + 2 with the rank tests: no p can be below 1/3 unpaired,
		 * 1/2 paired. */
		{ __LINE__, { .a = { 1.0, 1.1 }, .b = { 2.0, 2.1 } }, "exec_time", TI_AB_PAIR_NEVER, TI_AB_UNDECIDED,
		  "too few samples: 2 + 2 samples cannot reach p 0.05", false, true, true },
		/* 5 pairs: the signed rank cannot reach 0.05 (1/16)... */
		{ __LINE__, { .a = { 1.0, 1.1, 1.2, 1.3, 1.4 }, .b = { 2.0, 2.1, 2.2, 2.3, 2.4 } }, "exec_time",
		  TI_AB_PAIR_ALWAYS, TI_AB_UNDECIDED, "too few samples: 5 pairs cannot reach", true, true, true },
		/* ... the t on the log-ratios, the default there, can. */
		{ __LINE__, { .a = { 1.0, 1.1, 1.2, 1.3, 1.4 }, .b = { 2.0, 2.1, 2.2, 2.3, 2.4 } }, "exec_time",
		  TI_AB_PAIR_AUTO, TI_AB_REGRESSED, "significant", true, false, false },
		/* Ratios one tick (the values' last digit) apart are no spread:
		 * unpaired, and 2 or 3 rounds that moved show nothing. */
		{ __LINE__, { .a = { 1.0, 2.0001 }, .b = { 1.0, 2.0 } }, "exec_time", TI_AB_PAIR_AUTO,
		  TI_AB_UNDECIDED, "", false, true, false },
		{ __LINE__, { .a = { 1.0, 2.0 }, .b = { 1.05, 2.1001 } }, "exec_time", TI_AB_PAIR_AUTO,
		  TI_AB_UNDECIDED, "", false, true, false },
		{ __LINE__, { .a = { 1.0, 2.0, 3.0 }, .b = { 1.0, 2.0001, 3.0 } }, "exec_time",
		  TI_AB_PAIR_AUTO, TI_AB_UNDECIDED, "", false, true, false },
		/* B/A exactly 1.05 but for a tick in round 3: was regressed
		 * (p 0.017 by the t on 3 pairs). */
		{ __LINE__, { .a = { 1.0, 2.0, 3.0 }, .b = { 1.05, 2.1, 3.1501 } }, "exec_time",
		  TI_AB_PAIR_AUTO, TI_AB_UNDECIDED, "", false, true, false },
		/* 2 pairs with a spread (B/A 1.002 and 1): the equivalence test's
		 * 90 % interval -0.53 %..+0.73 % is within 1 %, but on one
		 * degree of freedom: undecided. */
		{ __LINE__, { .a = { 1.0, 2.0 }, .b = { 1.002, 2.0 } }, "exec_time", TI_AB_PAIR_AUTO,
		  TI_AB_UNDECIDED, "too few samples: 2 pairs cannot show a change within", true, true, false },
		/* A time of 0: no ratio; more samples cannot help. */
		{ __LINE__, { .a = { Z, Z, Z }, .b = { 0.0001, 0.0001, Z } }, "exec_time", TI_AB_PAIR_AUTO,
		  TI_AB_UNDECIDED, "values <= 0: no ratio, no test", false, false, false },
		/* valgrind's counts, constant on each side: exact. */
		{ __LINE__, { .a = { 1000, 1000, 1000 }, .b = { 1020, 1020, 1020 } }, "valgrind-instructions",
		  TI_AB_PAIR_AUTO, TI_AB_REGRESSED, "exact count, +2.00% beyond", false, false, false },
		{ __LINE__, { .a = { 1000, 1000 }, .b = { 1005, 1005 }, .geometry = "g" }, "valgrind-est-cycles",
		  TI_AB_PAIR_AUTO,
		  TI_AB_UNCHANGED, "exact count, +0.50% within", false, false, false },
		/* Estimated cycles of other caches are not compared. */
		{ __LINE__, { .a = { 1000, 1000 }, .b = { 1005, 1005 } }, "valgrind-est-cycles",
		  TI_AB_PAIR_AUTO, TI_AB_MISSING, "cache geometries differ", false, false, false },
		/* Failed runs: compared on the rest; every run failed: failed. */
		{ __LINE__, { .a = { 1.00, 1.01, -1, 1.02, 1.00, 0.98, 1.01, 1.00, 0.99, 1.02 },
			      .b = { 1.50, 1.51, 1.49, 1.52, 1.50, 1.48, 1.51, 1.50, 1.49, 1.52 } },
		  "exec_time", TI_AB_PAIR_AUTO, TI_AB_REGRESSED, "significant", true, false, false },
		{ __LINE__, { .a = { -1, -1 }, .b = { 1, 1 } }, "exec_time", TI_AB_PAIR_AUTO, TI_AB_FAILED,
		  "every run on A failed", false, false, false },
		/* The same binary whatever the times; a different one with the
		 * same count keeps its time verdict. */
		{ __LINE__, { .a = { 1.00, 1.01, 0.99, 1.02, 1.00, 0.98, 1.01, 1.00, 0.99, 1.02 },
			      .b = { 1.30, 1.31, 1.29, 1.32, 1.30, 1.28, 1.31, 1.30, 1.29, 1.32 }, .hash_a = "h", .hash_b = "h" },
		  "exec_time", TI_AB_PAIR_AUTO, TI_AB_UNCHANGED, "same binary: the difference is the machine's",
		  true, false, false },
		/* Every sample flagged and dropped. */
		{ __LINE__, { .a = { 1.0, 1.1, 1.2 }, .b = { 1.0, 1.1, 1.3 }, .flags = 2 }, "exec_time", TI_AB_PAIR_AUTO,
		  TI_AB_UNDECIDED, "every sample on A and B flagged and dropped", false, true, false },
	};

	for (size_t i = 0; i < N(rows); i++) {
		struct ti_ab_config c;
		struct ti_ab_result r;
		ti_ab_config_init(&c);
		c.metric = rows[i].metric;
		c.pairing = rows[i].pairing;
		c.drop_flagged = rows[i].x.flags != 0;
		if (rows[i].rank) {
			c.paired_test = TI_AB_SIGNED_RANK;
			c.unpaired_test = TI_AB_MANN_WHITNEY;
		}
		if (run(&rows[i].x, &c, &r) < 0) {
			tap_ok(false, rows[i].line, "verdict_run failed");
			continue;
		}
		const struct ti_ab_row *x = &r.rows[0];
		tap_ok(r.n == 1 && x->v == rows[i].v &&
		       strncmp(x->reason, rows[i].reason, strlen(rows[i].reason)) == 0 &&
		       x->paired == rows[i].paired && x->decidable == rows[i].decidable,
		       rows[i].line, "%s (%s), paired %d, decidable %d", ti_ab_verdict_name[x->v],
		       x->reason, x->paired, x->decidable);
		ti_ab_result_free(&r);
	}
}

/* The equivalence interval is Tukey's at 1 - 2 alpha: for these 10
 * log-ratios the 90 % interval is the 11th smallest and largest of the
 * 55 Walsh averages (K from the exact null of T+; computed by enumerating
 * the averages by hand): 0.001 .. 0.0055; the 95 % one (K = 9) 0.001 ..
 * 0.006; the centre 0.0035. */
static void test_equivalence(void)
{
	static const double d[] = { 0.004, -0.002, 0.006, 0.001, 0.008,
				    0.003, -0.001, 0.005, 0.002, 0.007 };
	struct bench x = { .flags = 0 };
	struct ti_ab_config c;
	struct ti_ab_result r;

	for (size_t i = 0; i < N(d); i++) {
		x.a[i] = 1 + 0.1 * (double)i;	/* rounds that move together */
		x.b[i] = x.a[i] * exp(d[i]);
	}
	ti_ab_config_init(&c);
	c.pairing = TI_AB_PAIR_ALWAYS;
	run(&x, &c, &r);
	const struct ti_ab_row *w = &r.rows[0];
	TAP_OK(fabs(w->eq_lo - 0.001) < 1e-12 && fabs(w->eq_hi - 0.0055) < 1e-12 &&
	       fabs(w->lo - 0.001) < 1e-12 && fabs(w->hi - 0.006) < 1e-12 &&
	       fabs(w->est - 0.0035) < 1e-12 && w->v == TI_AB_UNCHANGED,
	       "equivalence interval %.6g..%.6g, interval %.6g..%.6g, centre %.6g: %s", w->eq_lo,
	       w->eq_hi, w->lo, w->hi, w->est, ti_ab_verdict_name[w->v]);
	ti_ab_result_free(&r);
	/* A gate of 0.5 % no longer holds 0.0055 (+0.55 %): undecided. */
	c.min_change = 0.5;
	run(&x, &c, &r);
	TAP_OK(r.rows[0].v == TI_AB_UNDECIDED, "gate 0.5 %%: %s (%s)",
	       ti_ab_verdict_name[r.rows[0].v], r.rows[0].reason);
	ti_ab_result_free(&r);
	/* --looks 2: the tests at alpha / 2, the intervals wider. */
	c.min_change = 1;
	c.looks = 2;
	run(&x, &c, &r);
	TAP_OK(fabs(r.alpha_look - 0.025) < 1e-15 && r.rows[0].eq_lo <= 0.001 + 1e-12 &&
	       r.rows[0].eq_hi >= 0.0055 - 1e-12,
	       "--looks 2: alpha %g, interval %g..%g", r.alpha_look, r.rows[0].eq_lo,
	       r.rows[0].eq_hi);
	ti_ab_result_free(&r);
}

/* Many benchmarks at once: the adjustment, the geometric mean and the
 * pairing decision of the suite. */
static void test_suite(void)
{
	struct ti_ab_set a = { 0 }, b = { 0 };
	struct ti_ab_config c;
	struct ti_ab_result r;
	char name[16];

	for (int k = 0; k < 40; k++) {
		double va[MAXS] = { 0 }, vb[MAXS] = { 0 };
		for (int i = 0; i < 10; i++) {
			/* A load per round shared by both sides; B 5 % slower
			 * in the first 5 benchmarks. */
			double load = 1 + 0.2 * sin(7.0 * k + 3.0 * i);
			va[i] = load * (1 + 0.002 * cos(5.0 * i + k));
			vb[i] = load * (1 + 0.002 * sin(3.0 * i + k)) * (k < 5 ? 1.05 : 1);
		}
		snprintf(name, sizeof name, "b%02d", k);
		side(&a, name, va, 0, NULL, 0, NULL);
		side(&b, name, vb, 0, NULL, 0, NULL);
	}
	ti_ab_config_init(&c);
	ti_ab_verdict_run(&c, &a, &b, NULL, NULL, &r);
	size_t regressed = 0, unchanged = 0;
	for (size_t i = 0; i < r.n; i++) {
		regressed += r.rows[i].v == TI_AB_REGRESSED && i < 5;
		unchanged += r.rows[i].v == TI_AB_UNCHANGED && i >= 5;
	}
	TAP_OK(r.pair && r.pair_corr > 0.9 && regressed == 5 && unchanged == 35 && r.regressed,
	       "a shared load: paired (correlation %.2f), %zu regressed, %zu unchanged", r.pair_corr,
	       regressed, unchanged);
	/* Geometric mean: 5 of 40 at +5 %, t over the 10 rounds' means (the
	 * load moves every benchmark of a round together). */
	TAP_OK(r.geomean.n == 40 && fabs(r.geomean.ratio - pow(1.05, 5.0 / 40)) < 0.002 &&
	       r.geomean.lo < r.geomean.ratio && r.geomean.ratio < r.geomean.hi &&
	       strcmp(r.geomean.method, "round") == 0 && r.geomean.rounds == 10 &&
	       fabs(r.geomean.level - 0.95) < 1e-12,
	       "geometric mean %.4f (%.4f..%.4f, %s)", r.geomean.ratio, r.geomean.lo, r.geomean.hi,
	       r.geomean.method);
	ti_ab_result_free(&r);
	/* Holm with the signed rank cannot pass 10 pairs over 40 benchmarks
	 * (p >= 1/512 > 0.05/40): a note says so.  The default rule tests
	 * them by the t on the log-ratios instead, and finds the 5. */
	c.adjust = TI_STATS_ADJUST_HOLM;
	c.paired_test = TI_AB_SIGNED_RANK;
	ti_ab_verdict_run(&c, &a, &b, NULL, NULL, &r);
	TAP_OK(!r.regressed && r.nnotes > 0 && strstr(r.notes[0], "Holm"),
	       "Holm over 40 with 10 pairs, signed rank: %s", r.nnotes ? r.notes[0] : "no note");
	ti_ab_result_free(&r);
	c.paired_test = TI_AB_RANK_OR_T;
	ti_ab_verdict_run(&c, &a, &b, NULL, NULL, &r);
	regressed = 0;
	for (size_t i = 0; i < r.n; i++)
		regressed += r.rows[i].v == TI_AB_REGRESSED && strcmp(r.rows[i].test, "t") == 0;
	TAP_OK(regressed == 5 && r.nnotes == 0, "Holm over 40 with 10 pairs, signed rank or t: %zu "
	       "regressed by the t", regressed);
	ti_ab_result_free(&r);
	/* Unpaired, the load hides the change. */
	c.adjust = TI_STATS_ADJUST_BH;
	c.pairing = TI_AB_PAIR_NEVER;
	ti_ab_verdict_run(&c, &a, &b, NULL, NULL, &r);
	TAP_OK(!r.pair && !r.regressed, "unpaired under the load: nothing found");
	ti_ab_result_free(&r);
	ti_ab_set_free(&a);
	ti_ab_set_free(&b);
}

/* The paired t spends 0.8 of alpha' (bench/ab-sim --table aa):
 * its p is Student's divided by 0.8, its interval stays at the rows'
 * level.  Two benchmarks of 6 pairs: 2^-5 x 2 > 0.05, so the t tests
 * both.  Reference p from mpmath (regularised incomplete beta, 30
 * digits): row 0 t = 13.37698482693694, p = 4.1769055734322911e-05; row 1
 * t = 0.30696034767839176, p = 0.77124624285861662. */
static void test_t_share(void)
{
	static const double a0[] = { 1.00, 1.01, 0.99, 1.02, 1.00, 0.98, 0 };
	static const double b0[] = { 1.05, 1.07, 1.03, 1.08, 1.04, 1.04, 0 };
	static const double a1[] = { 2.00, 2.02, 1.98, 2.01, 1.99, 2.00, 0 };
	static const double b1[] = { 2.01, 2.00, 1.99, 2.02, 1.98, 2.01, 0 };
	struct ti_ab_set a = { 0 }, b = { 0 };
	struct ti_ab_config c;
	struct ti_ab_result r;

	side(&a, "x0", a0, 0, NULL, 0, NULL);
	side(&b, "x0", b0, 0, NULL, 0, NULL);
	side(&a, "x1", a1, 0, NULL, 0, NULL);
	side(&b, "x1", b1, 0, NULL, 0, NULL);
	ti_ab_config_init(&c);
	TAP_OK(fabs(c.t_share - 0.8) < 1e-12, "the t's share of alpha by default: %g", c.t_share);
	ti_ab_verdict_run(&c, &a, &b, NULL, NULL, &r);
	TAP_OK(r.n == 2 && strcmp(r.rows[0].test, "t") == 0 && strcmp(r.rows[1].test, "t") == 0 &&
	       fabs(r.rows[0].p / (4.1769055734322911e-05 / 0.8) - 1) < 1e-9 &&
	       fabs(r.rows[1].p / (0.77124624285861662 / 0.8) - 1) < 1e-9 &&
	       r.rows[0].v == TI_AB_REGRESSED && fabs(r.rows[0].level - 0.95) < 1e-12,
	       "t at 0.8 alpha: p %.10g and %.10g, level %g", r.rows[0].p, r.rows[1].p,
	       r.rows[0].level);
	double lo = r.rows[0].lo, hi = r.rows[0].hi;
	ti_ab_result_free(&r);
	/* A share of 1 is the t of the previous rule: Student's p itself, the
	 * same interval. */
	c.t_share = 1;
	ti_ab_verdict_run(&c, &a, &b, NULL, NULL, &r);
	TAP_OK(fabs(r.rows[0].p / 4.1769055734322911e-05 - 1) < 1e-9 && r.rows[0].lo == lo &&
	       r.rows[0].hi == hi && fabs(r.rows[1].p / 0.77124624285861662 - 1) < 1e-9,
	       "t at alpha: p %.10g, the same interval", r.rows[0].p);
	ti_ab_result_free(&r);
	ti_ab_set_free(&a);
	ti_ab_set_free(&b);
}

/* Benchmarks stopped at different rounds: the geometric mean's variance
 * sums each benchmark's deviations from its own mean by round, none
 * imputed in the rounds it lacks.  P: log-ratios 0.01, 0.03, 0.02 (3
 * rounds), Q: 0, 0.004, -0.004, 0.002, -0.002 (5 rounds); by hand, with
 * a = sqrt(3/2) / 6 and b = sqrt(5/4) / 10 (the widening over the
 * weight 1 / (2 benchmarks x rounds)): round 1 (-0.01 a)^2, round 2
 * (0.01 a + 0.004 b)^2, round 3 (-0.004 b)^2, rounds 4 and 5
 * (0.002 b)^2, which add to 1.0659075191683882e-05; the degrees of
 * freedom Satterthwaite's of the benchmarks' variances by round
 * (2.8778e-6 in rounds 1-3, 1e-7 in 4-5): 3.138079988083713, less 1.
 * Imputing P's mean in rounds 4 and 5 gave t over 5 round means. */
static void test_geo_stops(void)
{
	static const double dp[] = { 0.01, 0.03, 0.02 }, dq[] = { 0, 0.004, -0.004, 0.002, -0.002 };
	struct ti_ab_set a = { 0 }, b = { 0 };
	struct ti_ab_config c;
	struct ti_ab_result r;
	double va[MAXS] = { 0 }, vb[MAXS] = { 0 };

	for (size_t i = 0; i < N(dp); i++) {
		va[i] = 1 + 0.1 * (double)i;
		vb[i] = va[i] * exp(dp[i]);
	}
	side(&a, "p", va, 0, NULL, 0, NULL);
	side(&b, "p", vb, 0, NULL, 0, NULL);
	for (size_t i = 0; i < N(dq); i++) {
		va[i] = 2 + 0.1 * (double)i;
		vb[i] = va[i] * exp(dq[i]);
	}
	side(&a, "q", va, 0, NULL, 0, NULL);
	side(&b, "q", vb, 0, NULL, 0, NULL);
	ti_ab_config_init(&c);
	ti_ab_verdict_run(&c, &a, &b, NULL, NULL, &r);
	double q = ti_stats_t_quantile(0.975, 3.138079988083713 - 1);
	double half = q * sqrt(1.0659075191683882e-05);
	TAP_OK(strcmp(r.geomean.method, "round") == 0 && r.geomean.rounds == 5 &&
	       fabs(r.geomean.log_ratio - 0.01) < 1e-12 &&
	       fabs(log(r.geomean.hi) - 0.01 - half) < 1e-9 &&
	       fabs(0.01 - log(r.geomean.lo) - half) < 1e-9,
	       "stops at 3 and 5 rounds: ln %.6g, interval %.6g..%.6g (due +-%.6g)",
	       r.geomean.log_ratio, log(r.geomean.lo), log(r.geomean.hi), half);
	ti_ab_result_free(&r);
	ti_ab_set_free(&a);
	ti_ab_set_free(&b);
}

/* Pratt's signed rank gives the zeros no sign: 8 pairs of which 3 are
 * equal can reach no p below 2^(1-5) = 1/16 > 0.05, so the default rule
 * tests them by the t (counting all 8, the rank test was kept and could
 * not pass). */
static void test_rank_zeros(void)
{
	struct bench x = { .a = { 1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07 },
			   .b = { 1.00, 1.01, 1.02, 1.14, 1.15, 1.17, 1.18, 1.19 } };
	struct ti_ab_config c;
	struct ti_ab_result r;

	ti_ab_config_init(&c);
	run(&x, &c, &r);
	const struct ti_ab_row *w = &r.rows[0];
	TAP_OK(w->paired && w->test && strcmp(w->test, "t") == 0, "3 zeros of 8 pairs: %s, %s (%s)",
	       w->test ? w->test : "no test", ti_ab_verdict_name[w->v], w->reason);
	ti_ab_result_free(&r);
	c.paired_test = TI_AB_SIGNED_RANK;
	run(&x, &c, &r);
	w = &r.rows[0];
	TAP_OK(fabs(w->min_p - 1.0 / 16) < 1e-15 && w->v == TI_AB_UNDECIDED,
	       "--rank: smallest p %g, %s (%s)", w->min_p, ti_ab_verdict_name[w->v], w->reason);
	ti_ab_result_free(&r);
}

/* The level of each look (verdict.h, enum ti_ab_spend): the values of
 * the spending functions at 6 looks computed apart (Python's math.log1p,
 * math.erfc and NormalDist), the levels summing to alpha, and the rest of
 * alpha after K looks, the run's last analysis when it ends between
 * looks: the total stays alpha. */
/* Equal to the last bits or so: on i386 the x87 keeps intermediates in
 * 80 bits, so a level computed twice may differ in its last bit. */
static bool near(double x, double y)
{
	return fabs(x - y) <= 1e-12 * fabs(y);
}

static void test_looks(void)
{
	static const enum ti_ab_spend sp[] = { TI_AB_SPEND_EVEN, TI_AB_SPEND_POCOCK,
					       TI_AB_SPEND_OBF };
	struct ti_ab_config c;

	TAP_OK(near(ti_ab_look_alpha(0.05, 6, 3, false, TI_AB_SPEND_EVEN), 0.05 / 6) &&
	       near(ti_ab_look_alpha(0.05, 6, 0, false, TI_AB_SPEND_EVEN), 0.05 / 6) &&
	       near(ti_ab_look_alpha(0.05, 1, 1, false, TI_AB_SPEND_EVEN), 0.05),
	       "even: alpha / looks at every look, known or not");
	TAP_OK(near(ti_ab_look_alpha(0.05, 6, 3, true, TI_AB_SPEND_EVEN), 0.05 - 0.05 * 2 / 6) &&
	       near(ti_ab_look_alpha(0.05, 6, 1, true, TI_AB_SPEND_EVEN), 0.05),
	       "even, the last analysis after 2 looks: 4 alpha / 6; after none: alpha");
	TAP_OK(fabs(ti_ab_look_alpha(0.05, 6, 1, false, TI_AB_SPEND_POCOCK) /
		    0.012591615447890132 - 1) < 1e-12 &&
	       fabs(ti_ab_look_alpha(0.05, 6, 2, false, TI_AB_SPEND_POCOCK) /
		    0.010050005815306937 - 1) < 1e-12 &&
	       fabs(ti_ab_look_alpha(0.05, 6, 6, false, TI_AB_SPEND_POCOCK) /
		    0.0055663264304521703 - 1) < 1e-12 &&
	       fabs(ti_ab_look_alpha(0.05, 6, 0, false, TI_AB_SPEND_POCOCK) /
		    0.0055663264304521703 - 1) < 1e-12,
	       "Pocock-type: 0.01259, 0.01005, ..., 0.005566; unknown: the smallest");
	TAP_OK(fabs(ti_ab_look_alpha(0.05, 6, 1, false, TI_AB_SPEND_OBF) /
		    1.5794492402395646e-06 - 1) < 1e-6 &&
	       fabs(ti_ab_look_alpha(0.05, 6, 2, false, TI_AB_SPEND_OBF) /
		    0.00068531541898380179 - 1) < 1e-6 &&
	       fabs(ti_ab_look_alpha(0.05, 6, 6, false, TI_AB_SPEND_OBF) /
		    0.018209343281038841 - 1) < 1e-6,
	       "O'Brien-Fleming-type: 1.58e-6, 6.85e-4, ..., 0.01821");
	for (size_t s = 0; s < N(sp); s++) {
		for (unsigned k = 0; k < 6; k++) {
			double sum = 0;
			for (unsigned j = 1; j <= k; j++)
				sum += ti_ab_look_alpha(0.05, 6, j, false, sp[s]);
			sum += ti_ab_look_alpha(0.05, 6, k + 1, true, sp[s]);
			TAP_OK(fabs(sum - 0.05) < 1e-12, "%s: %u looks, then the rest: %.17g in all",
			       ti_ab_spend_name(sp[s]), k, sum);
		}
		double all = 0;
		for (unsigned j = 1; j <= 6; j++)
			all += ti_ab_look_alpha(0.05, 6, j, false, sp[s]);
		TAP_OK(fabs(all - 0.05) < 1e-12, "%s: the 6 looks spend %.17g",
		       ti_ab_spend_name(sp[s]), all);
	}
	ti_ab_config_init(&c);
	c.looks = 6;
	c.look = 3;
	c.last = true;
	TAP_OK(ti_ab_spend_parse("pocock") == TI_AB_SPEND_POCOCK && ti_ab_spend_parse("x") == -1 &&
	       c.spend == TI_AB_SPEND_EVEN, "the names; even by default");
	{
		static const double a0[] = { 1.00, 1.01, 0.99, 1.02, 0 };
		static const double b0[] = { 1.05, 1.07, 1.03, 1.08, 0 };
		struct ti_ab_set a = { 0 }, b = { 0 };
		struct ti_ab_result r;
		side(&a, "x0", a0, 0, NULL, 0, NULL);
		side(&b, "x0", b0, 0, NULL, 0, NULL);
		ti_ab_verdict_run(&c, &a, &b, NULL, NULL, &r);
		TAP_OK(near(r.alpha_look, 0.05 - 0.05 * 2 / 6) &&
		       fabs(r.rows[0].level - (1 - r.alpha_look)) < 1e-12,
		       "the verdicts of look 3 of 6, the last: at %g", r.alpha_look);
		ti_ab_result_free(&r);
		c.last = false;
		ti_ab_verdict_run(&c, &a, &b, NULL, NULL, &r);
		TAP_OK(near(r.alpha_look, 0.05 / 6), "look 3 of 6: at %g", r.alpha_look);
		ti_ab_result_free(&r);
		ti_ab_set_free(&a);
		ti_ab_set_free(&b);
	}
}

/* Smyth's moderated t (verdict-moderate.c).  Reference values from
 * mpmath at 30 digits (limma's fitFDist and the moderated t written out
 * anew: digamma, trigamma, its inverse by bisection, the regularised
 * incomplete beta).  Four variances 0.5, 1, 2, 4 on 9 degrees of
 * freedom: s0^2 1.2527836115644573, d0 4.5352215806153883; 1e-4, 4e-4,
 * 9e-4 on 1, 2, 3: their spread is no more than their degrees of freedom
 * make it, d0 infinite and s0^2 6.9126808389031524e-4, their geometric
 * mean after the bias of ln s^2.  Three benchmarks of 3 pairs:
 *   x0: A 1.00 1.02 0.99, B 0.61 0.64 0.59 (x0.61)
 *   x1: A 2.00 2.04 1.98, B 2.01 2.03 2.00
 *   x2: A 0.50 0.51 0.495, B 0.60 0.45 0.55
 * log-ratio variances 6.6489e-4, 5.7934e-5, 0.025602 give s0^2
 * 3.1910068863896594e-4 on d0 0.77190996253583059; x0's moderated t
 * -35.785097197771375 on 2.7719099625358306 degrees of freedom, p
 * 8.8726106213022699e-05 (spent at 0.8: 1.1090763276627837e-04); x1 p
 * 0.64703342519767831.  Student's t on x0 alone: 2 degrees of freedom. */
/* The rows x0 and x1 above into A and B, and x2 from A2 and B2. */
static void moderate_sides(struct ti_ab_set *a, struct ti_ab_set *b, const double *a2,
			   const double *b2)
{
	static const double a0[] = { 1.00, 1.02, 0.99, 0 }, b0[] = { 0.61, 0.64, 0.59, 0 };
	static const double a1[] = { 2.00, 2.04, 1.98, 0 }, b1[] = { 2.01, 2.03, 2.00, 0 };

	side(a, "x0", a0, 0, NULL, 0, NULL);
	side(b, "x0", b0, 0, NULL, 0, NULL);
	side(a, "x1", a1, 0, NULL, 0, NULL);
	side(b, "x1", b1, 0, NULL, 0, NULL);
	side(a, "x2", a2, 0, NULL, 0, NULL);
	side(b, "x2", b2, 0, NULL, 0, NULL);
}

static void test_moderate(void)
{
	static const double v0[] = { 0.5, 1, 2, 4 }, f0[] = { 9, 9, 9, 9 };
	static const double v1[] = { 1e-4, 4e-4, 9e-4 }, f1[] = { 1, 2, 3 };
	static const double a2[] = { 0.50, 0.51, 0.495, 0 }, b2[] = { 0.60, 0.45, 0.55, 0 };
	struct ti_ab_set a = { 0 }, b = { 0 };
	struct ti_ab_config c;
	struct ti_ab_result r;
	double s0sq = 0, d0 = 0;

	TAP_OK(fabs(ti_stats_digamma(0.5) + 1.9635100260214235) < 1e-12 &&
	       fabs(ti_stats_digamma(7.25) - 1.9104535268837360) < 1e-12 &&
	       fabs(ti_stats_trigamma(0.5) - 4.9348022005446793) < 1e-12 &&
	       fabs(ti_stats_trigamma(7.25) - 0.14787923315893217) < 1e-12 &&
	       fabs(ti_stats_trigamma_inverse(ti_stats_trigamma(2.5)) / 2.5 - 1) < 1e-9 &&
	       isnan(ti_stats_digamma(0)),
	       "digamma, trigamma and its inverse");
	int rc = ti_stats_prior_variance(v0, f0, 4, &s0sq, &d0);
	TAP_OK(rc == 0 && fabs(s0sq / 1.2527836115644573 - 1) < 1e-9 &&
	       fabs(d0 / 4.5352215806153883 - 1) < 1e-9,
	       "the prior of 0.5, 1, 2, 4 on 9: s0^2 %.17g on %.17g", s0sq, d0);
	rc = ti_stats_prior_variance(v1, f1, 3, &s0sq, &d0);
	TAP_OK(rc == 0 && isinf(d0) && fabs(s0sq / 6.9126808389031524e-4 - 1) < 1e-9 &&
	       ti_stats_prior_variance(v1, f1, 1, &s0sq, &d0) == -EINVAL,
	       "variances as alike as their degrees of freedom: d0 infinite, s0^2 %.17g", s0sq);
	moderate_sides(&a, &b, a2, b2);
	ti_ab_config_init(&c);
	TAP_OK(c.moderate_from == 3 && c.moderate == 3 && c.moderate_min == 40,
	       "moderated at 3 pairs, from 40 benchmarks, by default");
	/* Below the fewest benchmarks (40): Student's t, as before. */
	ti_ab_verdict_run(&c, &a, &b, NULL, NULL, &r);
	TAP_OK(r.n == 3 && strcmp(r.rows[0].test, "t") == 0 && strcmp(r.rows[1].test, "t") == 0 &&
	       r.rows[0].p > 1.1090763276627837e-04 * 10 && r.nnotes == 0,
	       "3 benchmarks, under 40: the t (p %.6g)", r.rows[0].p);
	double eq_lo = r.rows[0].eq_lo, eq_hi = r.rows[0].eq_hi;
	ti_ab_result_free(&r);
	c.moderate_min = 3;
	ti_ab_verdict_run(&c, &a, &b, NULL, NULL, &r);
	TAP_OK(r.n == 3 && strcmp(r.rows[0].test, "moderated t") == 0 &&
	       fabs(r.rows[0].p / 1.1090763276627837e-04 - 1) < 1e-9 &&
	       fabs(r.rows[1].p / (0.64703342519767831 / 0.8) - 1) < 1e-9 &&
	       r.rows[0].v == TI_AB_IMPROVED && r.rows[0].eq_lo == eq_lo &&
	       r.rows[0].eq_hi == eq_hi && r.nnotes == 1 && strstr(r.notes[0], "moderated t"),
	       "the fewest lowered to 3: the moderated t, p %.17g and %.17g; its equivalence "
	       "interval Student's", r.rows[0].p, r.rows[1].p);
	double q = ti_stats_t_quantile(0.975, 2.7719099625358306);
	double se = 0.49265615265608327 / 35.785097197771375;
	TAP_OK(fabs(r.rows[0].lo - (-0.49265615265608327 - q * se)) < 1e-12 &&
	       fabs(r.rows[0].hi - (-0.49265615265608327 + q * se)) < 1e-12,
	       "its interval on d0 + 2 degrees of freedom: %.6f..%.6f", r.rows[0].lo, r.rows[0].hi);
	ti_ab_result_free(&r);
	/* x2 run on to 5 pairs, the last two far off: the prior is from the
	 * first 3 pairs of every row, the rounds they all had at the first
	 * look, so x0's test is the same. */
	{
		static const double a2x[] = { 0.50, 0.51, 0.495, 0.50, 0.50, 0 };
		static const double b2x[] = { 0.60, 0.45, 0.55, 0.90, 0.30, 0 };
		struct ti_ab_set a5 = { 0 }, b5 = { 0 };
		moderate_sides(&a5, &b5, a2x, b2x);
		ti_ab_verdict_run(&c, &a5, &b5, NULL, NULL, &r);
		TAP_OK(strcmp(r.rows[0].test, "moderated t") == 0 &&
		       fabs(r.rows[0].p / 1.1090763276627837e-04 - 1) < 1e-9 &&
		       strcmp(r.rows[2].test, "t") == 0 && r.rows[2].n_a == 5,
		       "a row of 5 pairs lends its first 3 to the prior: p %.17g", r.rows[0].p);
		ti_ab_result_free(&r);
		ti_ab_set_free(&a5);
		ti_ab_set_free(&b5);
	}
	/* 2 pairs are not moderated (from 3), nor are rows beyond 3 pairs. */
	c.moderate_from = 4;
	ti_ab_verdict_run(&c, &a, &b, NULL, NULL, &r);
	TAP_OK(strcmp(r.rows[0].test, "t") == 0 && r.nnotes == 0, "3 pairs, moderated from 4: the t");
	ti_ab_result_free(&r);
	c.moderate_from = 3;
	c.moderate = 2;
	ti_ab_verdict_run(&c, &a, &b, NULL, NULL, &r);
	TAP_OK(strcmp(r.rows[0].test, "t") == 0 && r.nnotes == 0, "3 pairs, moderated up to 2: the t");
	ti_ab_result_free(&r);
	ti_ab_set_free(&a);
	ti_ab_set_free(&b);
}

int main(void)
{
	test_table();
	test_equivalence();
	test_suite();
	test_t_share();
	test_geo_stops();
	test_rank_zeros();
	test_looks();
	test_moderate();
	return tap_done();
}
