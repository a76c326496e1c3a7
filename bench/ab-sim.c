/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ab-sim: the seeded simulation that chose timeit-compare's statistics
 * (docs/verdicts.md).  It makes synthetic suites (100
 * benchmarks, 10 interleaved rounds a side by default) under noise
 * models seen on shared machines, feeds them to the real timeit-compare
 * binary and, for the variants, to the same verdict library in process,
 * and computes the rules of the harnesses users know (LLVM's compare.py,
 * LNT, Google Benchmark, hyperfine) on the very same data.  It prints one
 * Markdown table per question:
 *
 *   ab-sim [--suites N] [--samples N] [--compare PATH] [--quick]
 *          [--table rules|geomean|sequential|aa|pairing|geostop|mixed|unchanged|looks|moderate|all]
 *          [--aa N]
 *
 * (--table looks, not part of all: timeit-ab's plans of looks, first
 * look, step and spending, on 129 benchmarks at 3 % shared + 2 % own
 * noise: one at x0.4 or x2.7 (--suites N each), A/A (--aa N runs) and
 * +5 % with at most 10 rounds; --plan MIN STEP MAX even|pocock|obf that
 * plan alone, --moderate PAIRS with the moderated t for rows of at most
 * PAIRS pairs, --cut R with the budget ending its runs after round R,
 * --model NAME under that model, one of table moderate's.)
 *
 * (--table moderate, not part of all: the moderated t at the first looks
 * against today's plan, model by model, as --table looks; and the
 * fewest benchmarks its prior needs.)
 *
 * (--table aa, not part of all: the default rule's A/A rate from N A/A
 * suites a model, 5000 by default; --aa-from K starts its suites at seed
 * K, for fresh suites; --model NAME that model alone; --unpaired and
 * --unpaired-test welch|hsu|yuen|bm|mw its rule unpaired, with that test;
 * --same F: the first F of each suite's benchmarks byte-identical on both
 * sides, in every table;
 * --t-share F runs the rules whose share is not fixed with the paired t
 * at F alpha' instead of the library's 0.8.)
 *
 * Every number comes from a fixed seed: two runs print the same tables. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "read.h"
#include "stats.h"
#include "verdict.h"

#define NBENCH 100
#define NSHIFTED 10		/* benchmarks with the effect in a shifted suite */
#define AA_FACTOR 5		/* A/A suites per shifted suite: the rate needs them */

/* A noise model: the ln-time of a run is the benchmark's base plus the
 * sum of these terms. */
struct model {
	const char *name, *what;
	double iid;		/* sd of each run's own noise */
	double shared;		/* sd of a slowdown shared by A_i and B_i (load) */
	double drift;		/* a ramp over the rounds, shared by both sides */
	double out_p, out_lo, out_hi;	/* outliers: probability, ln-slowdown range */
	double bi_p, bi_shift;	/* bimodal: probability of the slow mode, its shift */
	bool short_runs;	/* 10-50 ms, written with the summary's 4 decimals */
	/* The pairing models (0: off; no random draws then, so that the
	 * older models' streams stay as they were): */
	double anti;		/* sd of a term added to A_i and taken from B_i (a round
				 * that slows one run and spares the other) */
	double iid_b;		/* B's own noise where it differs from A's */
	double iid_hi;		/* own noise uniform in iid..iid_hi per benchmark */
	double suite;		/* sd of a slowdown of one side's whole suite in a round
				 * (every benchmark of A_i alike): the machine's state
				 * during one side's pass over the suite */
};

static const struct model models[] = {
	{ "cv0.5", "lognormal, CV 0.5 %", 0.005, 0, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0 },
	{ "cv2", "lognormal, CV 2 %", 0.02, 0, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0 },
	{ "cv5", "lognormal, CV 5 %", 0.05, 0, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0 },
	{ "cv15", "lognormal, CV 15 %", 0.15, 0, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0 },
	{ "outliers", "CV 2 %, 5 % of runs 30-100 % slower", 0.02, 0, 0, 0.05, 0.262, 0.693, 0, 0, false, 0, 0, 0, 0 },
	{ "bimodal", "CV 1 %, half the runs in a mode 4 % slower", 0.01, 0, 0, 0, 0, 0, 0.5, 0.04, false, 0, 0, 0, 0 },
	{ "drift", "CV 1 %, a 6 % ramp over the rounds", 0.01, 0, 0.06, 0, 0, 0, 0, 0, false, 0, 0, 0, 0 },
	{ "load", "CV 1 %, a 5 % load shared by A_i and B_i", 0.01, 0.05, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0 },
	{ "short", "10-50 ms runs, CV 2 %, 4 decimals", 0.02, 0, 0, 0, 0, 0, 0, 0, true, 0, 0, 0, 0 },
	{ "vm", "shared 3 % + own 2 % + 2 % outliers (this VM)", 0.02, 0.03, 0, 0.02, 0.1, 0.4, 0, 0, false, 0, 0, 0, 0 },
	/* Rank correlation of A_i and B_i -0.19, -0.48, -0.87 at CV
	 * 1 % (anti = 0.01 sqrt(r / (1 - r))); equal medians, unequal
	 * spreads; everything at once. */
	{ "anti0.19", "CV 1 %, within-round correlation -0.19", 0.01, 0, 0, 0, 0, 0, 0, 0, false,
	  0.00484, 0, 0, 0 },
	{ "anti0.48", "CV 1 %, within-round correlation -0.48", 0.01, 0, 0, 0, 0, 0, 0, 0, false,
	  0.0096, 0, 0, 0 },
	{ "anti0.87", "CV 1 %, within-round correlation -0.87", 0.01, 0, 0, 0, 0, 0, 0, 0, false,
	  0.0259, 0, 0, 0 },
	{ "spread1", "equal medians, A at CV 3 %, B at CV 1 %", 0.03, 0, 0, 0, 0, 0, 0, 0, false,
	  0, 0.01, 0, 0 },
	{ "spread0.3", "equal medians, A at CV 3 %, B at CV 0.3 %", 0.03, 0, 0, 0, 0, 0, 0, 0, false,
	  0, 0.003, 0, 0 },
	{ "all", "CV 2-5 % per benchmark, 5 % outliers at +30 %, a 6 % drift, 5 % shared load",
	  0.02, 0.05, 0.06, 0.05, 0.262, 0.262, 0, 0, false, 0, 0, 0.05, 0 },
	/* A round's machine state moving a side's whole suite: what the
	 * geometric mean's interval must hold. */
	{ "roundload", "CV 1 %, a 1 % slowdown of one side's whole suite per round", 0.01, 0, 0,
	  0, 0, 0, 0, 0, false, 0, 0, 0, 0.01 },
};
#define NMODELS (sizeof models / sizeof models[0])

static const double shifts[] = { 0, 0.01, 0.03, 0.05, 0.10 };
#define NSHIFTS (sizeof shifts / sizeof shifts[0])

struct suite {
	size_t nb, ns;		/* benchmarks, rounds */
	double *a, *b;		/* [bench * ns + round] */
	bool *shifted;
};

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		perror("ab-sim");
		exit(2);
	}
	return p;
}

/* Room in S for its benchmarks and ROUNDS rounds a side at most. */
static void suite_alloc(struct suite *s, size_t rounds)
{
	s->a = xmalloc(s->nb * rounds * sizeof *s->a);
	s->b = xmalloc(s->nb * rounds * sizeof *s->b);
	s->shifted = xmalloc(s->nb * sizeof *s->shifted);
}

static void suite_free(struct suite *s)
{
	free(s->a);
	free(s->b);
	free(s->shifted);
}

/* Suite SEED of model M: NSHIFTED of its NB benchmarks slowed by SHIFT. */
static void generate(struct suite *s, const struct model *m, double shift, uint64_t seed)
{
	struct ti_stats_rng r;

	double suite[2 * 64] = { 0 };	/* per round and side; rounds beyond 64 share */
	if (m->suite > 0) {
		struct ti_stats_rng q;
		ti_stats_rng_seed(&q, seed ^ 0x5a17e5u);
		for (size_t i = 0; i < 2 * 64; i++)
			suite[i] = m->suite * ti_stats_rng_normal(&q);
	}
	ti_stats_rng_seed(&r, seed);
	for (size_t k = 0; k < s->nb; k++) {
		double base = m->short_runs ? 0.010 + 0.040 * ti_stats_rng_uniform(&r)
					    : exp(log(0.1) + log(20) * ti_stats_rng_uniform(&r));
		double effect = k < NSHIFTED ? log1p(shift) : 0;
		double iid = m->iid_hi > 0 ? m->iid + (m->iid_hi - m->iid) * ti_stats_rng_uniform(&r)
					   : m->iid;
		s->shifted[k] = k < NSHIFTED && shift > 0;
		for (size_t i = 0; i < s->ns; i++) {
			double common = m->shared * ti_stats_rng_normal(&r);
			double anti = m->anti > 0 ? m->anti * ti_stats_rng_normal(&r) : 0;
			if (s->ns > 1)
				common += m->drift * (double)i / (double)(s->ns - 1);
			for (int side = 0; side < 2; side++) {
				double own = side && m->iid_b > 0 ? m->iid_b : iid;
				double l = log(base) + common + (side ? -anti : anti) +
					   suite[2 * (i % 64) + (size_t)side] + own * ti_stats_rng_normal(&r);
				if (m->out_p > 0 && ti_stats_rng_uniform(&r) < m->out_p)
					l += m->out_lo + (m->out_hi - m->out_lo) * ti_stats_rng_uniform(&r);
				if (m->bi_p > 0 && ti_stats_rng_uniform(&r) < m->bi_p)
					l += m->bi_shift;
				if (side)
					l += effect;
				double v = exp(l);
				if (m->short_runs)
					v = round(v * 1e4) / 1e4;
				(side ? s->b : s->a)[k * s->ns + i] = v;
			}
		}
	}
}

enum { V_UNCHANGED, V_REGRESSED, V_IMPROVED, V_UNDECIDED };

/* ---- the timeit rules, through the library ------------------------------ */

/* --same F: the first F of every suite's benchmarks have byte-identical
 * binaries on both sides (the rest differ), as a compiler change leaves
 * many (the geometric mean counts them as no change). */
static double same_share;

static void build_set(struct ti_ab_set *set, const double *v, size_t nb, size_t ns,
		      const size_t *count, int side)
{
	size_t nsame = (size_t)(same_share * (double)nb + 0.5);

	memset(set, 0, sizeof *set);
	set->b = xmalloc(nb * sizeof *set->b);
	set->n = set->cap = nb;
	for (size_t k = 0; k < nb; k++) {
		struct ti_ab_bench *b = &set->b[k];
		size_t n = count ? count[k] : ns;
		memset(b, 0, sizeof *b);
		b->name = xmalloc(32);
		snprintf(b->name, 32, "b%03zu", k);
		b->s = xmalloc(n * sizeof *b->s);
		b->n = b->cap = b->ok = n;
		if (same_share > 0) {
			b->hash = xmalloc(8);
			snprintf(b->hash, 8, "%s", k < nsame ? "same" : side ? "B" : "A");
			b->hash_kind = TI_AB_HASH_REPORTED;
		}
		for (size_t i = 0; i < n; i++) {
			b->s[i] = (struct ti_ab_sample){ .value = v[k * ns + i], .insn = NAN,
							 .vg_insn = NAN, .round = TI_AB_ROUND(1, i + 1) };
		}
	}
}

static int verdict_of(enum ti_ab_verdict v)
{
	switch (v) {
	case TI_AB_REGRESSED: return V_REGRESSED;
	case TI_AB_IMPROVED: return V_IMPROVED;
	case TI_AB_UNCHANGED: return V_UNCHANGED;
	default: return V_UNDECIDED;
	}
}

/* The geometric mean of the last run_library. */
static struct ti_ab_geomean last_geo;

/* The verdicts of configuration C on suite S (COUNT: rounds per
 * benchmark, NULL: all); DECIDABLE gets whether more samples could
 * decide, when not NULL. */
static void run_library(const struct ti_ab_config *c, const struct suite *s, const size_t *count,
			int *out, bool *decidable)
{
	struct ti_ab_set a, b;
	struct ti_ab_result r;

	build_set(&a, s->a, s->nb, s->ns, count, 0);
	build_set(&b, s->b, s->nb, s->ns, count, 1);
	if (ti_ab_verdict_run(c, &a, &b, NULL, NULL, &r) < 0) {
		fprintf(stderr, "ab-sim: %s\n", strerror(ENOMEM));
		exit(2);
	}
	for (size_t k = 0; k < s->nb; k++) {
		out[k] = verdict_of(r.rows[k].v);
		if (decidable)
			decidable[k] = r.rows[k].decidable;
	}
	last_geo = r.geomean;
	ti_ab_result_free(&r);
	ti_ab_set_free(&a);
	ti_ab_set_free(&b);
}

/* ---- the real binary ------------------------------------------------------ */

static const char *compare_bin;
static char tmpdir[64];

/* Side V of S as an LNT report (format 2: a list of samples per test,
 * in round order, which timeit-compare pairs by position). */
static void write_lnt(const char *path, const double *v, const struct suite *s)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(2);
	}
	fprintf(f, "{\"format_version\": \"2\", \"machine\": {\"name\": \"ab-sim\"}, "
		   "\"run\": {\"start_time\": \"2026-12-01 00:00:00\"}, \"tests\": [\n");
	for (size_t k = 0; k < s->nb; k++) {
		fprintf(f, "%s{\"name\": \"b%03zu\", \"execution_time\": [", k ? ",\n" : "", k);
		for (size_t i = 0; i < s->ns; i++)
			fprintf(f, "%s%.17g", i ? ", " : "", v[k * s->ns + i]);
		fprintf(f, "]}");
	}
	fprintf(f, "\n]}\n");
	if (fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

static void run_binary(const struct suite *s, int *out)
{
	char pa[128], pb[128], cmd[512], line[4096];
	FILE *p;
	size_t k = 0;

	snprintf(pa, sizeof pa, "%s/a.json", tmpdir);
	snprintf(pb, sizeof pb, "%s/b.json", tmpdir);
	write_lnt(pa, s->a, s);
	write_lnt(pb, s->b, s);
	snprintf(cmd, sizeof cmd, "'%s' --format csv '%s' '%s'", compare_bin, pa, pb);
	if (!(p = popen(cmd, "r"))) {
		perror("popen");
		exit(2);
	}
	/* benchmark,n_a,n_b,paired,...,verdict (field 14),... */
	while (fgets(line, sizeof line, p)) {
		char *f = line;
		if (strncmp(line, "benchmark,", 10) == 0)
			continue;
		for (int i = 1; i < 14 && f; i++)
			f = strchr(f, ',') ? strchr(f, ',') + 1 : NULL;
		if (!f || k >= s->nb)
			continue;
		out[k++] = strncmp(f, "regressed", 9) == 0 ? V_REGRESSED
			   : strncmp(f, "improved", 8) == 0 ? V_IMPROVED
			   : strncmp(f, "unchanged", 9) == 0 ? V_UNCHANGED : V_UNDECIDED;
	}
	int st = pclose(p);
	if (k != s->nb || !WIFEXITED(st) || WEXITSTATUS(st) > 1) {
		fprintf(stderr, "ab-sim: %s: %zu rows, status %d\n", compare_bin, k, st);
		exit(2);
	}
}

/* ---- the anchors' rules, computed here ------------------------------------ */

static double vmin(const double *x, size_t n)
{
	double m = x[0];
	for (size_t i = 1; i < n; i++)
		m = fmin(m, x[i]);
	return m;
}

static double mean(const double *x, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

static double sd(const double *x, size_t n)
{
	double m = mean(x, n), ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

static int direction(double delta)
{
	return delta > 0 ? V_REGRESSED : V_IMPROVED;
}

/* llvm-test-suite utils/compare.py: samples merged by their minimum,
 * diff = new/old - 1, no test; read as "changed" at |diff| >= 1 %. */
static int rule_comparepy(const double *a, const double *b, size_t n)
{
	double d = vmin(b, n) / vmin(a, n) - 1;
	return fabs(d) >= 0.01 ? direction(d) : V_UNCHANGED;
}

/* LNT (lnt/server/reporting/analysis.py, get_value_status): current =
 * min(B), previous = the A sample closest to it; changes under 1 % or
 * 0.01 s are ignored, and under 2 x 0.0001 x 2.576 s; with >= 4 samples a
 * side a Mann-Whitney U at 0.05 must reject; then |delta| > 2.576 sd(B). */
static int rule_lnt(const double *a, const double *b, size_t n)
{
	double cur = vmin(b, n), prev = a[0];
	for (size_t i = 1; i < n; i++)
		if (fabs(cur - a[i]) <= fabs(cur - prev))
			prev = a[i];
	double delta = cur - prev, pct = prev ? delta / prev : 0;
	if (fabs(pct) < 0.01 || fabs(delta) < 0.01 || fabs(delta) <= 2 * 0.0001 * 2.576)
		return V_UNCHANGED;
	if (n >= 4) {
		struct ti_stats_mw mw;
		ti_stats_mann_whitney(b, n, a, n, &mw);
		if (mw.p >= 0.05)
			return V_UNCHANGED;
	}
	if (n > 1)
		return fabs(delta) > sd(b, n) * 2.576 ? direction(delta) : V_UNCHANGED;
	return direction(delta);
}

/* Google Benchmark tools/compare.py: a two-sided Mann-Whitney U at 0.05
 * on the raw times, no gate, no adjustment. */
static int rule_gbench(const double *a, const double *b, size_t n)
{
	struct ti_stats_mw mw;
	ti_stats_mann_whitney(a, n, b, n, &mw);
	return mw.p < 0.05 ? direction(ti_stats_median(b, n) - ti_stats_median(a, n)) : V_UNCHANGED;
}

/* hyperfine scripts/welch_ttest.py: Welch's t-test at 0.05. */
static int rule_hyperfine(const double *a, const double *b, size_t n)
{
	double ma = mean(a, n), mb = mean(b, n), va = sd(a, n), vb = sd(b, n);
	double sa = va * va / (double)n, sb = vb * vb / (double)n;
	if (sa + sb == 0)
		return ma == mb ? V_UNCHANGED : direction(mb - ma);
	double t = (mb - ma) / sqrt(sa + sb);
	double df = (sa + sb) * (sa + sb) / (sa * sa / (double)(n - 1) + sb * sb / (double)(n - 1));
	double p = 2 * ti_stats_t_cdf(-fabs(t), df);
	return p < 0.05 ? direction(mb - ma) : V_UNCHANGED;
}

/* timeit-compare before 0.2: unpaired exact Mann-Whitney with Holm, the
 * gate on the median ratio, "unchanged" whenever not significant
 * (undecided, then "noisy", only when the change is beyond the gate). */
static void rule_old(const struct suite *s, int *out)
{
	double p[NBENCH * 4], adj[NBENCH * 4], ch[NBENCH * 4];
	double *x = xmalloc(s->ns * sizeof *x), *y = xmalloc(s->ns * sizeof *y);

	for (size_t k = 0; k < s->nb; k++) {
		struct ti_stats_mw mw;
		for (size_t i = 0; i < s->ns; i++) {
			x[i] = log(s->a[k * s->ns + i]);
			y[i] = log(s->b[k * s->ns + i]);
		}
		ti_stats_mann_whitney(x, s->ns, y, s->ns, &mw);
		p[k] = mw.p;
		ch[k] = ti_stats_median(s->b + k * s->ns, s->ns) / ti_stats_median(s->a + k * s->ns, s->ns) - 1;
	}
	ti_stats_adjust(p, s->nb, TI_STATS_ADJUST_HOLM, adj);
	for (size_t k = 0; k < s->nb; k++) {
		bool beyond = !(fabs(ch[k]) < 0.01) && ch[k] != 0, sig = adj[k] < 0.05;
		out[k] = sig && beyond ? direction(ch[k]) : beyond ? V_UNDECIDED : V_UNCHANGED;
	}
	free(x);
	free(y);
}

/* ---- the rules table -------------------------------------------------------- */

enum kind { K_BINARY, K_LIBRARY, K_OLD, K_COMPAREPY, K_LNT, K_GBENCH, K_HYPERFINE };

struct rule {
	const char *name;
	enum kind kind;
	enum ti_ab_paired_test test;
	enum ti_stats_adjust adjust;
	enum ti_ab_pairing pairing;
	enum ti_ab_unpaired_test utest;
};

static const struct rule rules[] = {
	{ "**timeit-compare** (default: rounds paired by design; signed rank, or the t "
	  "where its floor cannot pass; Welch-Hsu unpaired; BH; equivalence)", K_BINARY, TI_AB_RANK_OR_T,
	  TI_STATS_ADJUST_BH, TI_AB_PAIR_AUTO, TI_AB_WELCH_HSU },
	{ "  before pairing by design (pairs if the rounds move together; signed rank or Mann-Whitney)",
	  K_LIBRARY, TI_AB_SIGNED_RANK, TI_STATS_ADJUST_BH, TI_AB_PAIR_VOTE, TI_AB_MANN_WHITNEY },
	{ "  signed rank or Yuen's trimmed t", K_LIBRARY, TI_AB_RANK_OR_YUEN, TI_STATS_ADJUST_BH,
	  TI_AB_PAIR_AUTO, TI_AB_WELCH_HSU },
	{ "  always paired, signed rank (--rank)", K_LIBRARY, TI_AB_SIGNED_RANK,
	  TI_STATS_ADJUST_BH, TI_AB_PAIR_ALWAYS, TI_AB_MANN_WHITNEY },
	{ "  always paired, sign test", K_LIBRARY, TI_AB_SIGN, TI_STATS_ADJUST_BH,
	  TI_AB_PAIR_ALWAYS, TI_AB_WELCH_HSU },
	{ "  always paired, t on log-ratios", K_LIBRARY, TI_AB_PAIRED_T, TI_STATS_ADJUST_BH,
	  TI_AB_PAIR_ALWAYS, TI_AB_WELCH_HSU },
	{ "  always paired, 20 % trimmed t (Yuen)", K_LIBRARY, TI_AB_TRIMMED_T,
	  TI_STATS_ADJUST_BH, TI_AB_PAIR_ALWAYS, TI_AB_WELCH_HSU },
	{ "  always paired, signed rank + Mann-Whitney by Simes", K_LIBRARY, TI_AB_SIMES,
	  TI_STATS_ADJUST_BH, TI_AB_PAIR_ALWAYS, TI_AB_WELCH_HSU },
	{ "  never paired, Welch-Hsu (--unpaired)", K_LIBRARY, TI_AB_RANK_OR_T,
	  TI_STATS_ADJUST_BH, TI_AB_PAIR_NEVER, TI_AB_WELCH_HSU },
	{ "  never paired, Welch (Satterthwaite's degrees of freedom)", K_LIBRARY, TI_AB_RANK_OR_T,
	  TI_STATS_ADJUST_BH, TI_AB_PAIR_NEVER, TI_AB_WELCH },
	{ "  never paired, Yuen's two-sample trimmed t", K_LIBRARY, TI_AB_RANK_OR_T,
	  TI_STATS_ADJUST_BH, TI_AB_PAIR_NEVER, TI_AB_YUEN2 },
	{ "  never paired, Brunner-Munzel", K_LIBRARY, TI_AB_RANK_OR_T,
	  TI_STATS_ADJUST_BH, TI_AB_PAIR_NEVER, TI_AB_BRUNNER_MUNZEL },
	{ "  never paired, Mann-Whitney (--unpaired --rank)", K_LIBRARY, TI_AB_SIGNED_RANK,
	  TI_STATS_ADJUST_BH, TI_AB_PAIR_NEVER, TI_AB_MANN_WHITNEY },
	{ "  default with Holm instead of BH (--holm)", K_LIBRARY, TI_AB_RANK_OR_T,
	  TI_STATS_ADJUST_HOLM, TI_AB_PAIR_AUTO, TI_AB_WELCH_HSU },
	{ "  default without adjustment (--no-adjust)", K_LIBRARY, TI_AB_RANK_OR_T,
	  TI_STATS_ADJUST_NONE, TI_AB_PAIR_AUTO, TI_AB_WELCH_HSU },
	{ "timeit-compare 0.1 (unpaired MWU, Holm, no equivalence)", K_OLD, 0, 0, 0, 0 },
	{ "LLVM compare.py (min, no test, read as changed at \\|d\\| >= 1 %)", K_COMPAREPY, 0,
	  0, 0, 0 },
	{ "LNT (min, MWU, 2.576 sd)", K_LNT, 0, 0, 0, 0 },
	{ "Google Benchmark (U test, p < 0.05)", K_GBENCH, 0, 0, 0, 0 },
	{ "hyperfine (Welch t, p < 0.05)", K_HYPERFINE, 0, 0, 0, 0 },
};
#define NRULES (sizeof rules / sizeof rules[0])

static void verdicts(const struct rule *r, const struct suite *s, int *out)
{
	struct ti_ab_config c;

	switch (r->kind) {
	case K_BINARY:
		run_binary(s, out);
		return;
	case K_LIBRARY:
		ti_ab_config_init(&c);
		c.paired_test = r->test;
		c.adjust = r->adjust;
		c.pairing = r->pairing;
		c.unpaired_test = r->utest;
		run_library(&c, s, NULL, out, NULL);
		return;
	case K_OLD:
		rule_old(s, out);
		return;
	default:
		break;
	}
	for (size_t k = 0; k < s->nb; k++) {
		const double *a = s->a + k * s->ns, *b = s->b + k * s->ns;
		out[k] = r->kind == K_COMPAREPY ? rule_comparepy(a, b, s->ns)
			 : r->kind == K_LNT ? rule_lnt(a, b, s->ns)
			 : r->kind == K_GBENCH ? rule_gbench(a, b, s->ns)
			 : rule_hyperfine(a, b, s->ns);
	}
}

struct tally {
	size_t suites_aa, suites_aa_fp;		/* A/A suites, with a false verdict */
	size_t aa_bench, aa_undecided;
	size_t shifted[NSHIFTS], detected[NSHIFTS], unchanged[NSHIFTS];
	size_t others, other_fp;		/* unshifted benchmarks of shifted suites */
};

static uint64_t seed_of(size_t model, size_t shift, size_t suite)
{
	return 0x5eed0000u + model * 1000003u + shift * 10007u + suite;
}

static void table_rules(size_t nsuites, size_t ns)
{
	struct suite s = { NBENCH, ns, NULL, NULL, NULL };
	int *v = xmalloc(NBENCH * sizeof *v);
	size_t disagree = 0;

	suite_alloc(&s, ns);
	printf("## A/B rules under noise models: %zu suites of %d benchmarks, %zu rounds a side\n\n",
	       nsuites, NBENCH, ns);
	printf("A/A: share of %zu A/A suites with any improved/regressed verdict (should be <= 5 %%).  "
	       "Power: share of the %d shifted benchmarks (of %d) called regressed.  "
	       "False unchanged: shifted +3 %% benchmarks called unchanged.  "
	       "Undecided: share of A/A benchmarks left undecided.\n\n", AA_FACTOR * nsuites,
	       NSHIFTED, NBENCH);
	for (size_t mi = 0; mi < NMODELS; mi++) {
		const struct model *m = &models[mi];
		printf("### %s: %s\n\n", m->name, m->what);
		printf("| rule | A/A suites FP | power +1 %% | +3 %% | +5 %% | +10 %% | "
		       "false unchanged +3 %% | undecided A/A |\n");
		printf("|:---|---:|---:|---:|---:|---:|---:|---:|\n");
		for (size_t ri = 0; ri < NRULES; ri++) {
			struct tally t = { 0 };
			int *ref = xmalloc(NBENCH * sizeof *ref);
			for (size_t si = 0; si < NSHIFTS; si++) {
				for (size_t k = 0; k < (si ? nsuites : AA_FACTOR * nsuites); k++) {
					generate(&s, m, shifts[si], seed_of(mi, si, k));
					verdicts(&rules[ri], &s, v);
					/* The binary and the library must agree. */
					if (rules[ri].kind == K_BINARY && k == 0) {
						struct rule lib = rules[ri];
						lib.kind = K_LIBRARY;
						verdicts(&lib, &s, ref);
						for (size_t b = 0; b < NBENCH; b++)
							disagree += ref[b] != v[b];
					}
					bool fp = false;
					for (size_t b = 0; b < NBENCH; b++) {
						bool called = v[b] == V_REGRESSED || v[b] == V_IMPROVED;
						if (si == 0) {
							fp |= called;
							t.aa_bench++;
							t.aa_undecided += v[b] == V_UNDECIDED;
						} else if (s.shifted[b]) {
							t.shifted[si]++;
							t.detected[si] += v[b] == V_REGRESSED;
							t.unchanged[si] += v[b] == V_UNCHANGED;
						}
					}
					if (si == 0) {
						t.suites_aa++;
						t.suites_aa_fp += fp;
					}
				}
			}
			free(ref);
			printf("| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.1f |\n",
			       rules[ri].name, 100.0 * (double)t.suites_aa_fp / (double)t.suites_aa,
			       100.0 * (double)t.detected[1] / (double)t.shifted[1],
			       100.0 * (double)t.detected[2] / (double)t.shifted[2],
			       100.0 * (double)t.detected[3] / (double)t.shifted[3],
			       100.0 * (double)t.detected[4] / (double)t.shifted[4],
			       100.0 * (double)t.unchanged[2] / (double)t.shifted[2],
			       100.0 * (double)t.aa_undecided / (double)t.aa_bench);
			fflush(stdout);
		}
		printf("\n");
	}
	if (disagree)
		printf("WARNING: the binary and the library disagreed on %zu verdicts\n\n", disagree);
	free(v);
	suite_free(&s);
}

/* ---- the geometric mean's interval ---------------------------------------- */

/* Coverage of the geometric mean's interval (t over the benchmarks, or a
 * bootstrap of their mean) of the population's mean change, for suites of
 * K benchmarks whose true changes vary, each measured with the noise of
 * 10 paired rounds at CV 2 %. */
static void table_geomean(size_t reps)
{
	static const size_t ks[] = { 2, 3, 5, 10, 30, 100, 500 };
	static const char *const dist[] = { "normal (mean +1 %, sd 3 %)",
					    "skewed (80 % none, 20 % +5 % sd 2 %)" };
	struct ti_stats_rng r;

	printf("## The geometric mean's 95 %% interval: coverage of the mean change\n\n");
	printf("| changes | benchmarks | t | bootstrap |\n|:---|---:|---:|---:|\n");
	for (int di = 0; di < 2; di++) {
		double mu = di == 0 ? log1p(0.01) : 0.2 * log1p(0.05);
		for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
			size_t k = ks[ki], cov_t = 0, cov_b = 0, nrep = k >= 100 ? reps / 4 : reps;
			double *l = xmalloc(k * sizeof *l);
			ti_stats_rng_seed(&r, 77 + ki + 100 * (size_t)di);
			for (size_t rep = 0; rep < nrep; rep++) {
				double sum = 0, ss = 0, lo, hi;
				for (size_t i = 0; i < k; i++) {
					double truth = di == 0 ? mu + 0.03 * ti_stats_rng_normal(&r)
						       : ti_stats_rng_uniform(&r) < 0.2
							 ? log1p(0.05) + 0.02 * ti_stats_rng_normal(&r) : 0;
					/* 10 pairs at CV 2 %: the estimate's sd is about 0.9 %. */
					l[i] = truth + 0.02 * sqrt(2.0 / 10) * ti_stats_rng_normal(&r);
					sum += l[i];
				}
				double m = sum / (double)k;
				for (size_t i = 0; i < k; i++)
					ss += (l[i] - m) * (l[i] - m);
				double se = sqrt(ss / (double)(k - 1) / (double)k);
				double q = ti_stats_t_quantile(0.975, (double)(k - 1));
				cov_t += m - q * se <= mu && mu <= m + q * se;
				ti_stats_bootstrap_mean(l, k, 2000, 0.95, rep + 1, &lo, &hi);
				cov_b += lo <= mu && mu <= hi;
			}
			printf("| %s | %zu | %.1f %% | %.1f %% |\n", dist[di], k,
			       100.0 * (double)cov_t / (double)nrep, 100.0 * (double)cov_b / (double)nrep);
			free(l);
		}
	}
	printf("\n");
}

/* ---- sequential sampling --------------------------------------------------- */

/* The adaptive rule of make ab SAMPLES=auto and timeit-ab (defaults 6, 6,
 * 30: looks at rounds 6, 12, 18, 24, 30): MIN rounds,
 * then STEP more for the benchmarks still undecided (and decidable), up to
 * MAX; every look analyses all samples so far with --looks L, L the most
 * looks the rule can make. */
static void table_sequential(size_t nsuites, size_t min, size_t step, size_t max)
{
	size_t looks = 1 + (max - min + step - 1) / step;
	struct suite s = { NBENCH, max, NULL, NULL, NULL };
	int *v = xmalloc(NBENCH * sizeof *v);
	bool *more = xmalloc(NBENCH * sizeof *more);
	size_t *count = xmalloc(NBENCH * sizeof *count);

	suite_alloc(&s, max);
	printf("## Sequential sampling: %zu rounds, then %zu more for the undecided, up to %zu "
	       "(%zu looks, alpha / %zu each)\n\n", min, step, max, looks, looks);
	printf("| noise | A/A suites FP | power +3 %% | +5 %% | false unchanged +3 %% | "
	       "undecided A/A | rounds per benchmark (A/A, +3 %%) | fixed %zu rounds: power +3 %% |\n",
	       max);
	printf("|:---|---:|---:|---:|---:|---:|---:|---:|\n");
	for (size_t mi = 0; mi < NMODELS; mi++) {
		const struct model *m = &models[mi];
		size_t fp = 0, det3 = 0, det5 = 0, sh3 = 0, sh5 = 0, un3 = 0, und = 0, aa = 0;
		double rounds_aa = 0, rounds_3 = 0, fixed3 = 0;
		for (size_t si = 0; si < NSHIFTS; si++) {
			if (si != 0 && si != 2 && si != 3)
				continue;
			for (size_t k = 0; k < (si ? nsuites : AA_FACTOR * nsuites); k++) {
				struct ti_ab_config c;
				generate(&s, m, shifts[si], seed_of(mi, si, k));
				ti_ab_config_init(&c);
				c.looks = (unsigned)looks;
				for (size_t b = 0; b < NBENCH; b++)
					count[b] = min;
				for (;;) {
					size_t left = 0;
					run_library(&c, &s, count, v, more);
					for (size_t b = 0; b < NBENCH; b++) {
						if (v[b] == V_UNDECIDED && more[b] && count[b] < max) {
							count[b] = count[b] + step > max ? max : count[b] + step;
							left++;
						}
					}
					if (!left)
						break;
				}
				bool any = false;
				for (size_t b = 0; b < NBENCH; b++) {
					bool called = v[b] == V_REGRESSED || v[b] == V_IMPROVED;
					if (si == 0) {
						any |= called;
						aa++;
						und += v[b] == V_UNDECIDED;
						rounds_aa += (double)count[b];
					} else if (s.shifted[b] && si == 2) {
						sh3++;
						det3 += v[b] == V_REGRESSED;
						un3 += v[b] == V_UNCHANGED;
						rounds_3 += (double)count[b];
					} else if (s.shifted[b]) {
						sh5++;
						det5 += v[b] == V_REGRESSED;
					}
				}
				fp += si == 0 && any;
				if (si == 2) {
					/* The same data, all MAX rounds, one look. */
					ti_ab_config_init(&c);
					run_library(&c, &s, NULL, v, NULL);
					for (size_t b = 0; b < NBENCH; b++)
						fixed3 += s.shifted[b] && v[b] == V_REGRESSED;
				}
			}
		}
		printf("| %s | %.1f | %.1f | %.1f | %.2f | %.1f | %.1f, %.1f | %.1f |\n", m->name,
		       100.0 * (double)fp / (double)(AA_FACTOR * nsuites),
		       100.0 * (double)det3 / (double)sh3,
		       100.0 * (double)det5 / (double)sh5, 100.0 * (double)un3 / (double)sh3,
		       100.0 * (double)und / (double)aa, rounds_aa / (double)aa, rounds_3 / (double)sh3,
		       100.0 * fixed3 / (double)sh3);
		fflush(stdout);
	}
	printf("\n");
	free(v);
	free(more);
	free(count);
	suite_free(&s);
}

/* ---- the A/A rate, closer ------------------------------------------------- */

/* The default rule's suite A/A rate from N A/A suites a model (the first
 * 500 are those of the rules table), with its Wilson 95 % interval: the
 * rules table's 500 leave +-1 point of sampling error at 5 %. */
static const char *only_model;	/* --model NAME: that model alone */
static double t_share = 0;	/* --t-share K: the paired t's share of alpha (0: the default) */
static size_t aa_from = 0;	/* --aa-from K: table aa's suites start at seed K (fresh seeds) */
static bool aa_unpaired;	/* --unpaired: table aa compares all samples (--unpaired) */
static int aa_utest = -1;	/* --unpaired-test NAME: table aa's unpaired test */

/* The index in models[] of the model named NAME, NMODELS if none is. */
static size_t model_index(const char *name)
{
	size_t mi = 0;

	while (mi < NMODELS && strcmp(models[mi].name, name) != 0)
		mi++;
	return mi;
}

static bool skip_model(size_t mi)
{
	return only_model && strcmp(only_model, models[mi].name) != 0;
}

static void table_aa(size_t n, size_t ns)
{
	struct suite s = { NBENCH, ns, NULL, NULL, NULL };
	int *v = xmalloc(NBENCH * sizeof *v);
	struct ti_ab_config c;
	const double z = 1.959964;

	suite_alloc(&s, ns);
	printf("## The default rule's suite A/A rate: %zu A/A suites a model, %d benchmarks, "
	       "%zu rounds a side%s%s\n\n", n, NBENCH, ns, aa_unpaired ? ", unpaired" : "",
	       aa_utest < 0 ? "" : aa_utest == TI_AB_WELCH ? ", Welch" : aa_utest == TI_AB_WELCH_HSU
	       ? ", Welch-Hsu" : aa_utest == TI_AB_YUEN2 ? ", Yuen" : aa_utest == TI_AB_BRUNNER_MUNZEL
	       ? ", Brunner-Munzel" : ", Mann-Whitney");
	printf("| noise | A/A suites with a verdict | rate | Wilson 95 %% interval |\n");
	printf("|:---|---:|---:|---:|\n");
	for (size_t mi = 0; mi < NMODELS; mi++) {
		size_t fp = 0;
		if (skip_model(mi))
			continue;
		for (size_t k = 0; k < n; k++) {
			bool any = false;
			generate(&s, &models[mi], 0, seed_of(mi, 0, aa_from + k));
			ti_ab_config_init(&c);
			if (t_share > 0)
				c.t_share = t_share;
			if (aa_unpaired)
				c.pairing = TI_AB_PAIR_NEVER;
			if (aa_utest >= 0)
				c.unpaired_test = (enum ti_ab_unpaired_test)aa_utest;
			run_library(&c, &s, NULL, v, NULL);
			for (size_t b = 0; b < NBENCH; b++)
				any |= v[b] == V_REGRESSED || v[b] == V_IMPROVED;
			fp += any;
		}
		double p = (double)fp / (double)n, d = 1 + z * z / (double)n;
		double mid = (p + z * z / (2.0 * (double)n)) / d;
		double half = z * sqrt(p * (1 - p) / (double)n + z * z / (4.0 * (double)n * (double)n)) / d;
		printf("| %s | %zu | %.2f %% | %.2f .. %.2f %% |\n", models[mi].name, fp, 100 * p,
		       100 * (mid - half), 100 * (mid + half));
		fflush(stdout);
	}
	printf("\n");
	free(v);
	suite_free(&s);
}

/* ---- pairing by design: the rule before it and now, side by side -------- */

struct rule20 {
	const char *name;
	enum ti_ab_paired_test test;
	enum ti_ab_pairing pairing;
	enum ti_ab_unpaired_test utest;
	enum ti_ab_geo geo;
	double t_share;		/* the paired t's share of alpha' (0: the library's default) */
};

static const struct rule20 rules20[] = {
	{ "before: pairs if the rounds move together, rank tests", TI_AB_SIGNED_RANK, TI_AB_PAIR_VOTE,
	  TI_AB_MANN_WHITNEY, TI_AB_GEO_T , 0 },
	{ "previous: paired by design, signed rank or t at alpha', Welch", TI_AB_RANK_OR_T,
	  TI_AB_PAIR_AUTO, TI_AB_WELCH, TI_AB_GEO_ROUND, 1 },
	{ "**now: paired by design, signed rank or t at 0.8 alpha', Welch-Hsu**", TI_AB_RANK_OR_T,
	  TI_AB_PAIR_AUTO, TI_AB_WELCH_HSU, TI_AB_GEO_ROUND, 0 },
	{ "now, with Yuen's trimmed t", TI_AB_RANK_OR_YUEN, TI_AB_PAIR_AUTO, TI_AB_WELCH_HSU,
	  TI_AB_GEO_ROUND , 0 },
	{ "**unpaired: Welch-Hsu (--unpaired, now)**", TI_AB_RANK_OR_T, TI_AB_PAIR_NEVER,
	  TI_AB_WELCH_HSU, TI_AB_GEO_T , 0 },
	{ "unpaired: Welch (previous)", TI_AB_RANK_OR_T, TI_AB_PAIR_NEVER, TI_AB_WELCH,
	  TI_AB_GEO_T , 0 },
	{ "unpaired: Brunner-Munzel", TI_AB_RANK_OR_T, TI_AB_PAIR_NEVER, TI_AB_BRUNNER_MUNZEL,
	  TI_AB_GEO_T , 0 },
	{ "unpaired: Mann-Whitney (--unpaired --rank, before: --unpaired)", TI_AB_SIGNED_RANK, TI_AB_PAIR_NEVER,
	  TI_AB_MANN_WHITNEY, TI_AB_GEO_T , 0 },
};
#define NRULES20 (sizeof rules20 / sizeof rules20[0])

static const size_t rounds20[] = { 3, 6, 10, 30 };
#define NROUNDS20 (sizeof rounds20 / sizeof rounds20[0])

static void config20(struct ti_ab_config *c, const struct rule20 *r)
{
	ti_ab_config_init(c);
	c->paired_test = r->test;
	c->pairing = r->pairing;
	c->unpaired_test = r->utest;
	c->geo = r->geo;
	if (r->t_share > 0)
		c->t_share = r->t_share;
	else if (t_share > 0)
		c->t_share = t_share;
}

/* Every model, the old rule and the new: the suite A/A rate (NAA A/A
 * suites), power at +3 % and +5 % and false "unchanged" at +3 % (NSHIFT
 * suites each), at 3, 6, 10 and 30 rounds (30: a quarter of the suites);
 * and the A/A coverage of the geometric mean's 95 % interval. */
static void table_pairing(size_t naa, size_t nshift)
{
	size_t maxr = rounds20[NROUNDS20 - 1];
	struct suite s = { NBENCH, 0, NULL, NULL, NULL };
	int *v = xmalloc(NBENCH * sizeof *v);

	suite_alloc(&s, maxr);
	printf("## Pairing by design: the rule before and now under every model, %d benchmarks\n\n", NBENCH);
	printf("A/A: share of A/A suites with any improved/regressed verdict (%zu suites at 3, 6 and "
	       "10 rounds, %zu at 30).  Power: share of the %d shifted benchmarks called regressed "
	       "(%zu suites; %zu at 30).  False unchanged: shifted +3 %% benchmarks called unchanged.  "
	       "Geo cover: share of the A/A suites at 10 rounds whose geometric-mean 95 %% interval "
	       "holds 0.\n\n", naa, naa / 4 ? naa / 4 : 1, NSHIFTED, nshift, nshift / 4 ? nshift / 4 : 1);
	printf("| model | rule | A/A 3 | 6 | 10 | 30 | +3 %% 3 | 6 | 10 | 30 | +5 %% 3 | 6 | 10 | 30 | "
	       "false unch. 3 | 6 | 10 | 30 | geo cover 10 |\n");
	printf("|:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	       "---:|---:|\n");
	for (size_t mi = 0; mi < NMODELS; mi++) {
		if (skip_model(mi))
			continue;
		for (size_t ri = 0; ri < NRULES20; ri++) {
			double aa[NROUNDS20], p3[NROUNDS20], p5[NROUNDS20], fu[NROUNDS20], cover = NAN;
			struct ti_ab_config c;
			config20(&c, &rules20[ri]);
			for (size_t ni = 0; ni < NROUNDS20; ni++) {
				size_t na = ni == NROUNDS20 - 1 ? (naa / 4 ? naa / 4 : 1) : naa;
				size_t nsh = ni == NROUNDS20 - 1 ? (nshift / 4 ? nshift / 4 : 1) : nshift;
				size_t fp = 0, cov = 0, d3 = 0, d5 = 0, u3 = 0, n3 = 0, n5 = 0;
				s.ns = rounds20[ni];
				for (size_t k = 0; k < na; k++) {
					bool any = false;
					generate(&s, &models[mi], 0, seed_of(mi, 0, k));
					run_library(&c, &s, NULL, v, NULL);
					for (size_t b = 0; b < NBENCH; b++)
						any |= v[b] == V_REGRESSED || v[b] == V_IMPROVED;
					fp += any;
					cov += last_geo.lo <= 1 && 1 <= last_geo.hi;
				}
				for (size_t si = 2; si <= 3; si++) {
					for (size_t k = 0; k < nsh; k++) {
						generate(&s, &models[mi], shifts[si], seed_of(mi, si, k));
						run_library(&c, &s, NULL, v, NULL);
						for (size_t b = 0; b < NSHIFTED; b++) {
							if (si == 2) {
								n3++;
								d3 += v[b] == V_REGRESSED;
								u3 += v[b] == V_UNCHANGED;
							} else {
								n5++;
								d5 += v[b] == V_REGRESSED;
							}
						}
					}
				}
				aa[ni] = 100.0 * (double)fp / (double)na;
				p3[ni] = 100.0 * (double)d3 / (double)n3;
				p5[ni] = 100.0 * (double)d5 / (double)n5;
				fu[ni] = 100.0 * (double)u3 / (double)n3;
				if (rounds20[ni] == 10)
					cover = 100.0 * (double)cov / (double)na;
			}
			printf("| %s | %s |", ri ? "" : models[mi].name, rules20[ri].name);
			for (size_t ni = 0; ni < NROUNDS20; ni++)
				printf(" %.1f |", aa[ni]);
			for (size_t ni = 0; ni < NROUNDS20; ni++)
				printf(" %.1f |", p3[ni]);
			for (size_t ni = 0; ni < NROUNDS20; ni++)
				printf(" %.1f |", p5[ni]);
			for (size_t ni = 0; ni < NROUNDS20; ni++)
				printf(" %.2f |", fu[ni]);
			printf(" %.1f |\n", cover);
			fflush(stdout);
		}
	}
	printf("\n");
	free(v);
	suite_free(&s);
}

/* The 129-benchmark target: --looks 5, 6 rounds, 3 % shared
 * load and 2 % own noise; 10 of them at x0.4 in every round.  The share
 * improved at the first look, and the A/A rate of the same setting. */
static void table_target(size_t nsuites)
{
	static const struct model m = { "target", "shared 3 % + own 2 %", 0.02, 0.03, 0, 0, 0, 0, 0,
					0, false, 0, 0, 0, 0 };
	struct suite s = { 129, 6, NULL, NULL, NULL };
	int *v = xmalloc(s.nb * sizeof *v);

	suite_alloc(&s, s.ns);
	printf("## The 129-benchmark target, --looks 5, 6 rounds, 3 %% shared load + 2 %% "
	       "own noise, %zu suites\n\n", nsuites);
	printf("| rule | x0.4 improved at the first look | A/A suites with a verdict |\n");
	printf("|:---|---:|---:|\n");
	for (size_t ri = 0; ri < 3; ri++) {
		struct ti_ab_config c;
		size_t imp = 0, n = 0, fp = 0;
		config20(&c, &rules20[ri]);
		c.looks = 5;
		for (size_t k = 0; k < nsuites; k++) {
			bool any = false;
			generate(&s, &m, 0.4 - 1, 0x7a76e700u + k);
			run_library(&c, &s, NULL, v, NULL);
			for (size_t b = 0; b < NSHIFTED; b++, n++)
				imp += v[b] == V_IMPROVED;
			generate(&s, &m, 0, 0x7a76f700u + k);
			run_library(&c, &s, NULL, v, NULL);
			for (size_t b = 0; b < s.nb; b++)
				any |= v[b] == V_REGRESSED || v[b] == V_IMPROVED;
			fp += any;
		}
		printf("| %s | %.1f %% | %.1f %% |\n", rules20[ri].name, 100.0 * (double)imp / (double)n,
		       100.0 * (double)fp / (double)nsuites);
		fflush(stdout);
	}
	printf("\n");
	free(v);
	suite_free(&s);
}

/* ---- the geometric mean when benchmarks stop at different rounds -------- */

/* The setups of table geostop: the rounds each benchmark has (cycling
 * over the benchmarks) and its own noise (CV, same cycle). */
struct geostop {
	const char *name;
	size_t nstop;
	size_t stop[3];
	double cv[3];
};

static const struct geostop geostops[] = {
	{ "25 at 3 rounds CV 5 %, 25 at 30 CV 0.5 %", 2, { 3, 30, 0 }, { 0.05, 0.005, 0 } },
	{ "3, 8, 30 rounds mixed, CV 5, 2, 0.5 %", 3, { 3, 8, 30 }, { 0.05, 0.02, 0.005 } },
	{ "3, 8, 30 rounds mixed, CV 2 % all", 3, { 3, 8, 30 }, { 0.02, 0.02, 0.02 } },
	{ "10 rounds all, CV 5, 2, 0.5 %", 3, { 10, 10, 10 }, { 0.05, 0.02, 0.005 } },
	{ "3 rounds all, CV 2 %", 1, { 3, 0, 0 }, { 0.02, 0, 0 } },
};

/* The candidates' intervals of the mean over the K benchmarks of their
 * mean ln-ratio, from D (K x NS, benchmark I's first N[I] rounds): the
 * rule before (a round a benchmark lacks: its mean, by round), the
 * rounds every benchmark has, each benchmark's own variance as
 * independent (Satterthwaite), and by round without imputing (the
 * benchmarks' residuals summed by round). */
enum { G_IMPUTE, G_COMMON, G_INDEP, G_CLUSTER, G_N };

static void geostop_candidates(const double *d, size_t k, size_t ns, const size_t *n,
			       double *lo, double *hi)
{
	double *m = xmalloc(k * sizeof *m), *rs = xmalloc(ns * sizeof *rs);
	size_t nmin = ns, nmax = 0;
	double mu = 0, v = 0, dfd = 0;

	for (size_t i = 0; i < k; i++) {
		double ss = 0;
		m[i] = mean(d + i * ns, n[i]);
		for (size_t j = 0; j < n[i]; j++)
			ss += (d[i * ns + j] - m[i]) * (d[i * ns + j] - m[i]);
		double vi = ss / (double)(n[i] - 1) / (double)n[i] / (double)(k * k);
		v += vi;
		dfd += vi * vi / (double)(n[i] - 1);
		mu += m[i] / (double)k;
		nmin = n[i] < nmin ? n[i] : nmin;
		nmax = n[i] > nmax ? n[i] : nmax;
	}
	double q = ti_stats_t_quantile(0.975, v * v / dfd);
	lo[G_INDEP] = mu - q * sqrt(v);
	hi[G_INDEP] = mu + q * sqrt(v);
	/* by round, imputed (the rule before) and over the common rounds */
	for (int g = G_IMPUTE; g <= G_COMMON; g++) {
		size_t nr = g == G_IMPUTE ? nmax : nmin;
		double c = 0, ss = 0;
		for (size_t j = 0; j < nr; j++) {
			rs[j] = 0;
			for (size_t i = 0; i < k; i++)
				rs[j] += (j < n[i] ? d[i * ns + j] : m[i]) / (double)k;
			c += rs[j] / (double)nr;
		}
		for (size_t j = 0; j < nr; j++)
			ss += (rs[j] - c) * (rs[j] - c);
		double se = sqrt(ss / (double)(nr - 1) / (double)nr);
		q = ti_stats_t_quantile(0.975, (double)(nr - 1));
		lo[g] = c - q * se;
		hi[g] = c + q * se;
	}
	lo[G_CLUSTER] = hi[G_CLUSTER] = NAN;	/* the library's: from run_library */
	free(m);
	free(rs);
}

/* A/A coverage of the geometric mean's 95 % interval (it holds 1) with
 * the benchmarks stopping at different rounds, without and with a
 * per-round slowdown of one side's whole suite of sd SHARED; NSUITES
 * suites of 48 benchmarks a setup, seeds from 0x6e05700. */
static void table_geostop(size_t nsuites)
{
	static const double shared[] = { 0, 0.03 };
	static const char *const names[G_N] = { "imputed (before)", "common rounds", "independent",
						"by round, no imputing (now)" };
	const size_t nb = 48, ns = 30;
	struct suite s = { nb, ns, NULL, NULL, NULL };
	size_t *count = xmalloc(nb * sizeof *count);
	int *v = xmalloc(nb * sizeof *v);
	double *d = xmalloc(nb * ns * sizeof *d);
	struct ti_ab_config c;

	suite_alloc(&s, ns);
	printf("## The geometric mean's 95 %% interval when benchmarks stop at different rounds: "
	       "A/A coverage, %zu suites of %zu benchmarks a row\n\n", nsuites, nb);
	printf("| benchmarks | shared per-round noise |");
	for (int g = 0; g < G_N; g++)
		printf(" %s cover | width |", names[g]);
	printf("\n|:---|---:|");
	for (int g = 0; g < G_N; g++)
		printf("---:|---:|");
	printf("\n");
	ti_ab_config_init(&c);
	for (size_t gi = 0; gi < sizeof geostops / sizeof geostops[0]; gi++) {
		const struct geostop *g = &geostops[gi];
		for (size_t hi = 0; hi < 2; hi++) {
			size_t cov[G_N] = { 0 };
			double width[G_N] = { 0 };
			for (size_t k = 0; k < nsuites; k++) {
				struct ti_stats_rng r;
				double lo[G_N], up[G_N];
				ti_stats_rng_seed(&r, 0x6e05700u + 7919u * gi + k);
				double round[2][30];
				for (size_t j = 0; j < ns; j++)
					for (int side = 0; side < 2; side++)
						round[side][j] = shared[hi] * ti_stats_rng_normal(&r);
				for (size_t b = 0; b < nb; b++) {
					double base = exp(log(0.1) + log(20) * ti_stats_rng_uniform(&r));
					double cv = g->cv[b % g->nstop];
					count[b] = g->stop[b % g->nstop];
					s.shifted[b] = false;
					for (size_t j = 0; j < ns; j++) {
						double la = log(base) + round[0][j] + cv * ti_stats_rng_normal(&r);
						double lb = log(base) + round[1][j] + cv * ti_stats_rng_normal(&r);
						s.a[b * ns + j] = exp(la);
						s.b[b * ns + j] = exp(lb);
						d[b * ns + j] = log(s.b[b * ns + j]) - log(s.a[b * ns + j]);
					}
				}
				geostop_candidates(d, nb, ns, count, lo, up);
				run_library(&c, &s, count, v, NULL);
				lo[G_CLUSTER] = log(last_geo.lo);
				up[G_CLUSTER] = log(last_geo.hi);
				for (int m = 0; m < G_N; m++) {
					cov[m] += lo[m] <= 0 && 0 <= up[m];
					width[m] += (exp(up[m] - lo[m]) - 1) / (double)nsuites;
				}
			}
			printf("| %s | %.0f %% |", g->name, 100 * shared[hi]);
			for (int m = 0; m < G_N; m++)
				printf(" %.1f %% | %.2f %% |", 100.0 * (double)cov[m] / (double)nsuites,
				       100 * width[m]);
			printf("\n");
			fflush(stdout);
		}
	}
	printf("\n");
	free(count);
	free(v);
	free(d);
	suite_free(&s);
}

/* ---- suites with some benchmarks really changed -------------------------- */

/* 50 benchmarks, the first 10 slowed by a shift, 10 rounds: the share of
 * suites with a false verdict among the 40 unchanged (the family-wise
 * error rate), the false discovery rate (false calls over all calls, 0
 * where none) and the power, with Benjamini-Hochberg (the default) and
 * with Holm (--holm); NSUITES suites a row, seeds from 0x3e7d000. */
static void table_mixed(size_t nsuites)
{
	static const char *const names[] = { "cv2", "cv5", "vm", "short" };
	static const double sh[] = { 0.03, 0.05, 0.10 };
	struct suite s = { 50, 10, NULL, NULL, NULL };
	int *v = xmalloc(s.nb * sizeof *v);

	suite_alloc(&s, s.ns);
	printf("## 10 of 50 benchmarks changed, 10 rounds: false verdicts among the 40 unchanged, "
	       "%zu suites a row\n\n", nsuites);
	printf("| noise | change | BH: suites with a false verdict | false discovery rate | power | "
	       "Holm: suites with a false verdict | false discovery rate | power |\n");
	printf("|:---|---:|---:|---:|---:|---:|---:|---:|\n");
	for (size_t ni = 0; ni < sizeof names / sizeof names[0]; ni++) {
		size_t mi = model_index(names[ni]);
		if (mi == NMODELS || skip_model(mi))
			continue;
		for (size_t si = 0; si < sizeof sh / sizeof sh[0]; si++) {
			printf("| %s | +%.0f %% |", names[ni], 100 * sh[si]);
			for (int holm = 0; holm < 2; holm++) {
				size_t fw = 0, det = 0;
				double fdr = 0;
				struct ti_ab_config c;
				ti_ab_config_init(&c);
				if (holm)
					c.adjust = TI_STATS_ADJUST_HOLM;
				for (size_t k = 0; k < nsuites; k++) {
					size_t fc = 0, calls = 0;
					generate(&s, &models[mi], sh[si], 0x3e7d000u + 7919u * si + 104729u * mi + k);
					run_library(&c, &s, NULL, v, NULL);
					for (size_t b = 0; b < s.nb; b++) {
						bool called = v[b] == V_REGRESSED || v[b] == V_IMPROVED;
						bool wrong = called && (!s.shifted[b] || v[b] != V_REGRESSED);
						calls += called;
						fc += wrong;
						det += s.shifted[b] && v[b] == V_REGRESSED;
					}
					fw += fc > 0;
					fdr += calls ? (double)fc / (double)calls / (double)nsuites : 0;
				}
				printf(" %.1f %% | %.1f %% | %.1f %% |", 100.0 * (double)fw / (double)nsuites,
				       100 * fdr, 100.0 * (double)det / (double)(NSHIFTED * nsuites));
			}
			printf("\n");
			fflush(stdout);
		}
	}
	printf("\n");
	free(v);
	suite_free(&s);
}

/* ---- the drive's plan of looks --------------------------------------------- */

/* timeit-ab's sequential rule as lib/drive runs it: looks at round MIN,
 * every STEP after it and at MAX; at a look every benchmark still in play
 * is decided or goes on (undecided and decidable), the stopped keep their
 * rounds and stay in the adjustment.  Each look's level comes from the
 * spending SPEND (verdict.h) at that look's index. */
struct plan_sim {
	unsigned min, step, max;
	enum ti_ab_spend spend;
	unsigned cut;		/* the budget ends the run after this round (0: never) */
	unsigned moderate;	/* the moderated t for rows of at most this many pairs
				 * (0: never, the rule before it) */
};

/* The looks of the plan: lib/drive's ti_drive_looks. */
static size_t looks_of(unsigned min, unsigned max, unsigned step)
{
	size_t n = 0;

	for (unsigned r = min; r <= max; r++)
		n += (r - min) % step == 0 || r == max;
	return n ? n : 1;
}

static const struct model *mod_model(const char *name);

/* Suite SEED of 129 benchmarks at 3 % shared (A_i and B_i alike) + 2 %
 * own noise (--model NAME: under that model, table moderate's names
 * too); the first NCHANGED of them B at x FACTOR. */
static void generate_target(struct suite *s, double factor, size_t nchanged, uint64_t seed)
{
	static const struct model m = { "target", "shared 3 % + own 2 %", 0.02, 0.03, 0, 0, 0, 0,
					0, 0, false, 0, 0, 0, 0 };
	const struct model *o = only_model ? mod_model(only_model) : NULL;
	generate(s, o ? o : &m, 0, seed);
	for (size_t k = 0; k < nchanged && k < s->nb; k++) {
		s->shifted[k] = true;
		for (size_t i = 0; i < s->ns; i++)
			s->b[k * s->ns + i] *= factor;
	}
}

/* Run plan P over suite S: STOP gets the round each benchmark stopped at,
 * V its verdict then.  Returns whether any look called a change in a
 * benchmark not in S->shifted (a false positive of the run). */
static bool drive_sim(const struct plan_sim *p, const struct suite *s, size_t *stop, int *v)
{
	size_t nb = s->nb, looks = looks_of(p->min, p->max, p->step), k = 0;
	int *cur = xmalloc(nb * sizeof *cur);
	bool *more = xmalloc(nb * sizeof *more), *active = xmalloc(nb * sizeof *active), fp = false;

	for (size_t b = 0; b < nb; b++) {
		active[b] = true;
		stop[b] = 0;
		v[b] = V_UNDECIDED;
	}
	unsigned end = p->max, last = 0;
	for (unsigned r = p->min; r <= p->max; r++) {
		if (p->cut && r > p->cut) {
			end = p->cut;
			break;
		}
		if ((r - p->min) % p->step != 0 && r != p->max)
			continue;
		struct ti_ab_config c;
		size_t left = 0;
		last = r;
		ti_ab_config_init(&c);
		c.looks = (unsigned)looks;
		c.look = (unsigned)++k;
		c.spend = p->spend;
		c.moderate = p->moderate;
		for (size_t b = 0; b < nb; b++)
			if (active[b])
				stop[b] = r;
		run_library(&c, s, stop, cur, more);
		for (size_t b = 0; b < nb; b++) {
			if (!active[b])
				continue;
			v[b] = cur[b];
			if ((cur[b] == V_REGRESSED || cur[b] == V_IMPROVED) && !s->shifted[b])
				fp = true;
			if (cur[b] != V_UNDECIDED || !more[b])
				active[b] = false;
			left += active[b];
		}
		if (!left) {
			end = r;
			break;
		}
	}
	/* The final table, as timeit-ab makes it (ti_drive_final_look): over
	 * every benchmark's rounds, the last look again, or after a cut
	 * between looks the rest of alpha.  What the user reads. */
	struct ti_ab_config c;
	ti_ab_config_init(&c);
	c.looks = (unsigned)looks;
	c.look = (unsigned)k;
	c.spend = p->spend;
	c.moderate = p->moderate;
	if (end > last) {
		c.look = (unsigned)k + 1;
		c.last = true;
	}
	for (size_t b = 0; b < nb; b++)
		if (active[b] && stop[b] < end)
			stop[b] = end;
	run_library(&c, s, stop, cur, more);
	for (size_t b = 0; b < nb; b++) {
		v[b] = cur[b];
		if ((cur[b] == V_REGRESSED || cur[b] == V_IMPROVED) && !s->shifted[b])
			fp = true;
	}
	free(cur);
	free(more);
	free(active);
	return fp;
}

static void wilson(size_t k, size_t n, double *lo, double *hi)
{
	double z = 1.959964, p = n ? (double)k / (double)n : 0, d = 1 + z * z / (double)n;
	double c = p + z * z / (2 * (double)n), w = z * sqrt(p * (1 - p) / (double)n +
							 z * z / (4 * (double)n * (double)n));
	*lo = (c - w) / d;
	*hi = (c + w) / d;
}

/* The plans against the targets: x0.4 and x2.7 of one benchmark of 129
 * (NSUITES each: the share decided by rounds 2, 3, 4 and 8, the median
 * round), the A/A rate of the whole run over NAA suites (with its Wilson
 * upper bound), and power at +5 % (10 of 129) with MAX 10 rounds. */
static void table_looks(size_t nsuites, size_t naa, const struct plan_sim *plans, size_t np)
{
	struct suite s = { 129, 30, NULL, NULL, NULL };
	size_t *stop = xmalloc(s.nb * sizeof *stop);
	int *v = xmalloc(s.nb * sizeof *v);
	static const char *const spend_name[] = { "even", "pocock", "obf" };

	suite_alloc(&s, 30);
	printf("## The drive's plan of looks: 129 benchmarks, 3 %% shared + 2 %% own noise\n\n");
	printf("| first, step, max | spending | x0.4 by round 2 / 3 / 4 / 8 | x2.7 by round 2 / 3 / 4 / 8 "
	       "| A/A runs with a call (Wilson 95 %% upper) | +5 %% power, max 10 |\n");
	printf("|:---|:---|---:|---:|---:|---:|\n");
	for (size_t pi = 0; pi < np; pi++) {
		const struct plan_sim *p = &plans[pi];
		size_t by[2][4] = { { 0 } }, fp = 0, pw = 0, pn = 0;
		static const size_t at[4] = { 2, 3, 4, 8 };
		static const double fac[2] = { 0.4, 2.7 };
		for (int f = 0; f < 2; f++) {
			for (size_t k = 0; k < nsuites; k++) {
				generate_target(&s, fac[f], 1, 0x100c0000u + 7919u * (size_t)f + k);
				drive_sim(p, &s, stop, v);
				bool ok = v[0] == (f ? V_REGRESSED : V_IMPROVED);
				for (int j = 0; j < 4; j++)
					by[f][j] += ok && stop[0] <= at[j];
			}
		}
		for (size_t k = 0; k < naa; k++) {
			generate_target(&s, 1, 0, 0x100a0000u + k);
			fp += drive_sim(p, &s, stop, v);
		}
		struct plan_sim p10 = *p;
		p10.max = 10;
		if (p10.min > p10.max)
			p10.min = p10.max;
		for (size_t k = 0; k < nsuites; k++) {
			generate_target(&s, 1.05, NSHIFTED, 0x100b0000u + k);
			drive_sim(&p10, &s, stop, v);
			for (size_t b = 0; b < NSHIFTED; b++, pn++)
				pw += v[b] == V_REGRESSED;
		}
		double lo, hi;
		wilson(fp, naa, &lo, &hi);
		if (p->cut)
			printf("| %u, %u, %u, the budget after round %u | %s |", p->min, p->step, p->max,
			       p->cut, spend_name[p->spend]);
		else
			printf("| %u, %u, %u | %s |", p->min, p->step, p->max, spend_name[p->spend]);
		for (int f = 0; f < 2; f++)
			printf(" %.0f / %.0f / %.0f / %.0f %% |", 100.0 * (double)by[f][0] / (double)nsuites,
			       100.0 * (double)by[f][1] / (double)nsuites,
			       100.0 * (double)by[f][2] / (double)nsuites,
			       100.0 * (double)by[f][3] / (double)nsuites);
		printf(" %.1f %% (%.1f %%) | %.1f %% |\n", 100.0 * (double)fp / (double)naa, 100 * hi,
		       100.0 * (double)pw / (double)pn);
		fflush(stdout);
	}
	printf("\n");
	free(stop);
	free(v);
	suite_free(&s);
}

/* ---- the moderated t at the first looks ------------------------------------ */

/* Models for the moderated t beyond the list: the target of the plan of
 * looks, and own noise that differs tenfold between the benchmarks (a
 * noisy benchmark shrunk toward a quiet suite is the moderated t's risk). */
static const struct model mod_extra[] = {
	{ "target", "shared 3 % + own 2 %", 0.02, 0.03, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0 },
	{ "cv0.5-5", "own noise 0.5-5 % per benchmark", 0.005, 0, 0, 0, 0, 0, 0, 0, false, 0, 0,
	  0.05, 0 },
	{ "cv1-15", "own noise 1-15 % per benchmark, 3 % shared", 0.01, 0.03, 0, 0, 0, 0, 0, 0,
	  false, 0, 0, 0.15, 0 },
};
static const char *const mod_models[] = { "target", "cv2", "cv15", "outliers", "bimodal", "drift",
					  "short", "vm", "anti0.87", "spread0.3", "all", "roundload",
					  "cv0.5-5", "cv1-15" };

static const struct model *mod_model(const char *name)
{
	for (size_t i = 0; i < sizeof mod_extra / sizeof mod_extra[0]; i++)
		if (strcmp(mod_extra[i].name, name) == 0)
			return &mod_extra[i];
	for (size_t i = 0; i < NMODELS; i++)
		if (strcmp(models[i].name, name) == 0)
			return &models[i];
	return NULL;
}

/* Suite SEED of S->nb benchmarks under M, the first NCHANGED with B at
 * x FACTOR. */
static void generate_model(struct suite *s, const struct model *m, double factor, size_t nchanged,
			   uint64_t seed)
{
	generate(s, m, 0, seed);
	for (size_t k = 0; k < nchanged && k < s->nb; k++) {
		s->shifted[k] = true;
		for (size_t i = 0; i < s->ns; i++)
			s->b[k * s->ns + i] *= factor;
	}
}

/* Today's plan against the moderated t's, model by model: 129
 * benchmarks, one at x0.4 and one at x2.7 (NSUITES each: the share
 * called right by round 2 and 3, and by the end), the A/A rate of the
 * whole run over NAA suites (Wilson 95 % upper bound), +5 % power (10 of
 * 129, at most 10 rounds). */
static void table_moderate(size_t nsuites, size_t naa)
{
	static const struct plan_sim plans[] = {
		{ 4, 6, 30, TI_AB_SPEND_EVEN, 0, 0 },
		{ 3, 6, 30, TI_AB_SPEND_EVEN, 0, TI_AB_MODERATE_PAIRS },
		{ 3, 7, 30, TI_AB_SPEND_EVEN, 0, TI_AB_MODERATE_PAIRS },
		{ 3, 6, 30, TI_AB_SPEND_EVEN, 0, 30 },
	};
	static const char *const plan_name[] = { "before: 4, 6, 30, t", "3, 6, 30, moderated at 3 pairs",
						 "3, 7, 30, moderated at 3 pairs",
						 "3, 6, 30, moderated at 3-30 pairs" };
	struct suite s = { 129, 30, NULL, NULL, NULL };
	size_t *stop = xmalloc(s.nb * sizeof *stop);
	int *v = xmalloc(s.nb * sizeof *v);

	suite_alloc(&s, 30);
	printf("## The moderated t at the first looks: 129 benchmarks, one at x0.4 and one at "
	       "x2.7 (%zu suites each), %zu A/A suites, +5 %% in 10 (%zu suites, at most 10 "
	       "rounds)\n\n", nsuites, naa, nsuites);
	printf("| model | plan (first, step, max; test) | x0.4 by round 2 / 3 / end | "
	       "x2.7 by round 2 / 3 / end | A/A runs with a call (Wilson 95 %% upper) | "
	       "+5 %% power, max 10 |\n");
	printf("|:---|:---|---:|---:|---:|---:|\n");
	for (size_t mi = 0; mi < sizeof mod_models / sizeof mod_models[0]; mi++) {
		const struct model *m = mod_model(mod_models[mi]);
		if (only_model && strcmp(only_model, m->name) != 0)
			continue;
		for (size_t pi = 0; pi < sizeof plans / sizeof plans[0]; pi++) {
			const struct plan_sim *p = &plans[pi];
			size_t by[2][3] = { { 0 } }, fp = 0, pw = 0, pn = 0;
			static const double fac[2] = { 0.4, 2.7 };
			for (int f = 0; f < 2; f++) {
				for (size_t k = 0; k < nsuites; k++) {
					generate_model(&s, m, fac[f], 1, 0x300c0000u + 7919u * (size_t)f + k);
					drive_sim(p, &s, stop, v);
					bool ok = v[0] == (f ? V_REGRESSED : V_IMPROVED);
					by[f][0] += ok && stop[0] <= 2;
					by[f][1] += ok && stop[0] <= 3;
					by[f][2] += ok;
				}
			}
			for (size_t k = 0; k < naa; k++) {
				generate_model(&s, m, 1, 0, 0x300a0000u + k);
				fp += drive_sim(p, &s, stop, v);
			}
			struct plan_sim p10 = *p;
			p10.max = 10;
			for (size_t k = 0; k < nsuites; k++) {
				generate_model(&s, m, 1.05, NSHIFTED, 0x300b0000u + k);
				drive_sim(&p10, &s, stop, v);
				for (size_t b = 0; b < NSHIFTED; b++, pn++)
					pw += v[b] == V_REGRESSED;
			}
			double lo, hi;
			wilson(fp, naa, &lo, &hi);
			printf("| %s | %s |", m->name, plan_name[pi]);
			for (int f = 0; f < 2; f++)
				printf(" %.0f / %.0f / %.0f %% |", 100.0 * (double)by[f][0] / (double)nsuites,
				       100.0 * (double)by[f][1] / (double)nsuites,
				       100.0 * (double)by[f][2] / (double)nsuites);
			printf(" %.1f %% (%.1f %%) | %.1f %% |\n", 100.0 * (double)fp / (double)naa,
			       100 * hi, 100.0 * (double)pw / (double)pn);
			fflush(stdout);
		}
	}
	printf("\n");
	free(stop);
	free(v);
	suite_free(&s);
}

/* The fewest benchmarks for the prior, and the fewest pairs: one look
 * (the first of 6, alpha 0.05 / 6) at 2 and 3 pairs, suites of 3 to 129
 * benchmarks, every row moderated from 2 pairs; the share of
 * A/A suites with a call under the moderated t and under the t, and of
 * suites whose x0.4 benchmark is called improved (NSUITES each). */
static void table_moderate_min(size_t nsuites)
{
	static const size_t sizes[] = { 3, 5, 10, 20, 40, 129 };
	static const char *const names[] = { "target", "outliers", "vm", "all", "cv1-15" };
	int *v = xmalloc(129 * sizeof *v);

	printf("## The moderated t's prior: suite size at the first look (1 of 6), %zu suites a "
	       "cell\n\n", nsuites);
	printf("| model | benchmarks | pairs | A/A suites with a call: moderated / t | "
	       "x0.4 called: moderated / t |\n");
	printf("|:---|---:|---:|---:|---:|\n");
	for (size_t mi = 0; mi < sizeof names / sizeof names[0]; mi++) {
		const struct model *m = mod_model(names[mi]);
		if (only_model && strcmp(only_model, m->name) != 0)
			continue;
		for (size_t zi = 0; zi < sizeof sizes / sizeof sizes[0]; zi++) {
			for (size_t np = 2; np <= 3; np++) {
				struct suite s = { sizes[zi], np, NULL, NULL, NULL };
				size_t fp[2] = { 0 }, hit[2] = { 0 };
				suite_alloc(&s, np);
				for (int mod = 0; mod < 2; mod++) {
					struct ti_ab_config c;
					ti_ab_config_init(&c);
					c.looks = 6;
					c.look = 1;
					c.moderate = mod ? 0 : TI_AB_MODERATE_PAIRS;
					c.moderate_from = 2;
					c.moderate_min = 2;
					for (size_t k = 0; k < nsuites; k++) {
						bool any = false;
						generate_model(&s, m, 1, 0, 0x310a0000u + k);
						run_library(&c, &s, NULL, v, NULL);
						for (size_t b = 0; b < s.nb; b++)
							any |= v[b] == V_REGRESSED || v[b] == V_IMPROVED;
						fp[mod] += any;
						generate_model(&s, m, 0.4, 1, 0x310c0000u + k);
						run_library(&c, &s, NULL, v, NULL);
						hit[mod] += v[0] == V_IMPROVED;
					}
				}
				printf("| %s | %zu | %zu | %.1f / %.1f %% | %.0f / %.0f %% |\n", m->name,
				       sizes[zi], np, 100.0 * (double)fp[0] / (double)nsuites,
				       100.0 * (double)fp[1] / (double)nsuites,
				       100.0 * (double)hit[0] / (double)nsuites,
				       100.0 * (double)hit[1] / (double)nsuites);
				fflush(stdout);
				suite_free(&s);
			}
		}
	}
	printf("\n");
	free(v);
}

/* ---- "unchanged" from few pairs -------------------------------------------- */

/* The share of benchmarks really slowed by 2 or 3 % called unchanged, by
 * the number of pairs (2-6, 10), the default rule; 100 benchmarks all
 * shifted, NSUITES suites a cell, seeds from 0x0c4a000. */
static void table_unchanged(size_t nsuites)
{
	static const char *const names[] = { "cv0.5", "cv2", "short", "vm" };
	static const size_t pairs[] = { 2, 3, 4, 5, 6, 10 };
	static const double sh[] = { 0.02, 0.03 };
	struct suite s = { NBENCH, 10, NULL, NULL, NULL };
	int *v = xmalloc(NBENCH * sizeof *v);
	struct ti_ab_config c;

	suite_alloc(&s, 10);
	ti_ab_config_init(&c);
	printf("## False \"unchanged\" at +2 and +3 %%, by pairs: the share of slowed benchmarks "
	       "called unchanged, %zu suites of %d a cell\n\n", nsuites, NBENCH);
	printf("| noise | change |");
	for (size_t pi = 0; pi < sizeof pairs / sizeof pairs[0]; pi++)
		printf(" %zu pairs |", pairs[pi]);
	printf("\n|:---|---:|");
	for (size_t pi = 0; pi < sizeof pairs / sizeof pairs[0]; pi++)
		printf("---:|");
	printf("\n");
	for (size_t ni = 0; ni < sizeof names / sizeof names[0]; ni++) {
		size_t mi = model_index(names[ni]);
		if (mi == NMODELS || skip_model(mi))
			continue;
		for (size_t si = 0; si < sizeof sh / sizeof sh[0]; si++) {
			printf("| %s | +%.0f %% |", names[ni], 100 * sh[si]);
			for (size_t pi = 0; pi < sizeof pairs / sizeof pairs[0]; pi++) {
				size_t un = 0;
				s.ns = pairs[pi];
				for (size_t k = 0; k < nsuites; k++) {
					generate(&s, &models[mi], sh[si], 0x0c4a000u + 7919u * si + 104729u * mi + k);
					/* every benchmark slowed, not only the first 10 */
					for (size_t b = NSHIFTED; b < s.nb; b++)
						for (size_t i = 0; i < s.ns; i++)
							s.b[b * s.ns + i] *= 1 + sh[si];
					if (models[mi].short_runs)
						for (size_t i = NSHIFTED * s.ns; i < s.nb * s.ns; i++)
							s.b[i] = round(s.b[i] * 1e4) / 1e4;
					run_library(&c, &s, NULL, v, NULL);
					for (size_t b = 0; b < s.nb; b++)
						un += v[b] == V_UNCHANGED;
				}
				printf(" %.2f %% |", 100.0 * (double)un / (double)(s.nb * nsuites));
			}
			printf("\n");
			fflush(stdout);
		}
	}
	printf("\n");
	free(v);
	suite_free(&s);
}
/* --plan MIN STEP MAX SPEND: table looks for that plan alone. */
static struct plan_sim one_plan;

static size_t number(const char *opt, const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (*end || !v) {
		fprintf(stderr, "ab-sim: %s: bad number '%s'\n", opt, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	size_t suites = 100, samples = 10;
	const char *table = "all";
	size_t smin = 6, sstep = 6, smax = 30, aa = 5000;

	compare_bin = getenv("TIMEIT_COMPARE") ? getenv("TIMEIT_COMPARE") : "timeit-compare";
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--suites") == 0 && i + 1 < argc)
			suites = number(argv[i], argv[i + 1]), i++;
		else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc)
			samples = number(argv[i], argv[i + 1]), i++;
		else if (strcmp(argv[i], "--compare") == 0 && i + 1 < argc)
			compare_bin = argv[++i];
		else if (strcmp(argv[i], "--aa") == 0 && i + 1 < argc)
			aa = number(argv[i], argv[i + 1]), i++;
		else if (strcmp(argv[i], "--t-share") == 0 && i + 1 < argc) {
			t_share = atof(argv[++i]);
			if (!(t_share > 0 && t_share <= 1)) {
				fprintf(stderr, "ab-sim: --t-share: %s is not in (0, 1]\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--aa-from") == 0 && i + 1 < argc)
			aa_from = number(argv[i], argv[i + 1]), i++;
		else if (strcmp(argv[i], "--model") == 0 && i + 1 < argc)
			only_model = argv[++i];
		else if (strcmp(argv[i], "--same") == 0 && i + 1 < argc) {
			same_share = atof(argv[++i]);
			if (!(same_share >= 0 && same_share < 1)) {
				fprintf(stderr, "ab-sim: --same: %s is not in [0, 1)\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--unpaired") == 0)
			aa_unpaired = true;
		else if (strcmp(argv[i], "--unpaired-test") == 0 && i + 1 < argc) {
			static const char *const names[] = { "welch", "hsu", "yuen", "bm", "mw" };
			static const int tests[] = { TI_AB_WELCH, TI_AB_WELCH_HSU, TI_AB_YUEN2,
						     TI_AB_BRUNNER_MUNZEL, TI_AB_MANN_WHITNEY };
			i++;
			for (size_t k = 0; k < 5; k++)
				if (strcmp(argv[i], names[k]) == 0)
					aa_utest = tests[k];
			if (aa_utest < 0) {
				fprintf(stderr, "ab-sim: --unpaired-test: %s is not welch, hsu, yuen, bm "
						"or mw\n", argv[i]);
				return 2;
			}
		}
		else if (strcmp(argv[i], "--table") == 0 && i + 1 < argc)
			table = argv[++i];
		else if (strcmp(argv[i], "--sequential") == 0 && i + 3 < argc) {
			smin = number(argv[i], argv[i + 1]);
			sstep = number(argv[i], argv[i + 2]);
			smax = number(argv[i], argv[i + 3]);
			i += 3;
		} else if (strcmp(argv[i], "--plan") == 0 && i + 4 < argc) {
			int sp = ti_ab_spend_parse(argv[i + 4]);
			one_plan.min = (unsigned)number(argv[i], argv[i + 1]);
			one_plan.step = (unsigned)number(argv[i], argv[i + 2]);
			one_plan.max = (unsigned)number(argv[i], argv[i + 3]);
			if (sp < 0 || one_plan.min > one_plan.max || one_plan.max > 30) {
				fprintf(stderr, "ab-sim: --plan: MIN STEP MAX (at most 30) "
						"even|pocock|obf\n");
				return 2;
			}
			one_plan.spend = (enum ti_ab_spend)sp;
			i += 4;
		} else if (strcmp(argv[i], "--moderate") == 0 && i + 1 < argc) {
			one_plan.moderate = (unsigned)number(argv[i], argv[i + 1]);
			i++;
		} else if (strcmp(argv[i], "--cut") == 0 && i + 1 < argc) {
			one_plan.cut = (unsigned)number(argv[i], argv[i + 1]);
			i++;
		} else if (strcmp(argv[i], "--quick") == 0)
			suites = 20;
		else {
			fprintf(stderr, "usage: ab-sim [--suites N] [--samples N] [--compare PATH] "
					"[--quick] [--table rules|geomean|sequential|aa|pairing|geostop|mixed|unchanged|looks|moderate|all] "
					"[--sequential MIN STEP MAX] [--plan MIN STEP MAX SPEND] [--moderate PAIRS] [--cut R] [--aa N] [--aa-from K] [--model NAME] "
					"[--t-share F] [--unpaired] [--unpaired-test welch|hsu|yuen|bm|mw] "
					"[--same F]\n");
			return 2;
		}
	}
	snprintf(tmpdir, sizeof tmpdir, "/tmp/ab-sim.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	if (strcmp(table, "rules") == 0 || strcmp(table, "all") == 0)
		table_rules(suites, samples);
	if (strcmp(table, "geomean") == 0 || strcmp(table, "all") == 0)
		table_geomean(suites * 20);
	if (strcmp(table, "sequential") == 0 || strcmp(table, "all") == 0)
		table_sequential(suites, smin, sstep, smax);
	if (strcmp(table, "aa") == 0)
		table_aa(aa, samples);
	if (strcmp(table, "geostop") == 0)
		table_geostop(suites * 10);
	if (strcmp(table, "mixed") == 0)
		table_mixed(suites * 5);
	if (strcmp(table, "unchanged") == 0)
		table_unchanged(suites * 5);
	if (strcmp(table, "looks") == 0 && one_plan.max)
		table_looks(suites, aa, &one_plan, 1);
	else if (strcmp(table, "looks") == 0) {
		static const struct plan_sim plans[] = {
			{ 2, 6, 30, TI_AB_SPEND_EVEN, 0, 0 }, { 3, 6, 30, TI_AB_SPEND_EVEN, 0, 0 },
			{ 4, 6, 30, TI_AB_SPEND_EVEN, 0, 0 }, { 2, 6, 30, TI_AB_SPEND_POCOCK, 0, 0 },
			{ 3, 6, 30, TI_AB_SPEND_POCOCK, 0, 0 }, { 4, 6, 30, TI_AB_SPEND_POCOCK, 0, 0 },
			{ 3, 6, 30, TI_AB_SPEND_OBF, 0, 0 },
		};
		table_looks(suites, aa, plans, sizeof plans / sizeof plans[0]);
	}
	if (strcmp(table, "moderate") == 0) {
		table_moderate_min(suites * 5);
		table_moderate(suites, aa);
	}
	if (strcmp(table, "pairing") == 0) {
		table_target(suites);
		table_pairing(suites, suites / 2 ? suites / 2 : 1);
	}
	char path[128];
	snprintf(path, sizeof path, "%s/a.json", tmpdir);
	unlink(path);
	snprintf(path, sizeof path, "%s/b.json", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	return 0;
}
