/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* series-test: the change-point rule of lib/series and the history it
 * reads, from tables of seeded series (TAP). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "stats.h"
#include "tap.h"

#define N 40

/* A series of N nights: level 1, the change STEP from night AT (0: none),
 * normal noise of SD, night BAD (0: none) BADX times slower. */
struct row {
	int line;
	size_t n, at;
	double step, sd;
	size_t bad;
	double badx;
	int want;		/* change points expected */
	size_t want_at;		/* the first of them, when any */
	bool pending;		/* the last night is off */
	int disturbed;		/* disturbed nights marked */
};

static const struct row rows[] = {
	{ __LINE__, 30, 0, 0, 0.01, 0, 0, 0, 0, false, 0 },
	{ __LINE__, 30, 15, 0.05, 0.01, 0, 0, 1, 15, false, 0 },
	{ __LINE__, 30, 15, -0.05, 0.01, 0, 0, 1, 15, false, 0 },
	{ __LINE__, 30, 10, 0.10, 0.02, 0, 0, 1, 10, false, 0 },
	/* A night 1000 % slower is a disturbed night, not two changes. */
	{ __LINE__, 30, 0, 0, 0.01, 12, 11, 0, 0, false, 1 },
	{ __LINE__, 30, 15, 0.05, 0.01, 7, 11, 1, 15, false, 1 },
	/* A change at the last two nights is found ... */
	{ __LINE__, 20, 18, 0.08, 0.01, 0, 0, 1, 18, false, 0 },
	/* ... at the last night alone it cannot be told from a bad night. */
	{ __LINE__, 20, 19, 0.08, 0.01, 0, 0, 0, 0, true, 0 },
	{ __LINE__, 20, 0, 0, 0.01, 19, 11, 0, 0, true, 0 },
	/* Below the gate (1 %): not listed, however sure. */
	{ __LINE__, 30, 15, 0.005, 0.0005, 0, 0, 0, 0, false, 0 },
	/* Too few nights for a change. */
	{ __LINE__, 3, 0, 0, 0.01, 0, 0, 0, 0, false, 0 },
};

static void make(const struct row *r, double *x, uint64_t seed)
{
	struct ti_stats_rng g;

	ti_stats_rng_seed(&g, seed);
	for (size_t i = 0; i < r->n; i++) {
		x[i] = (r->at && i >= r->at ? log1p(r->step) : 0) + r->sd * ti_stats_rng_normal(&g);
		if (r->bad && i == r->bad)
			x[i] += log(r->badx);
	}
}

static void test_rule(void)
{
	struct ti_series_config c;

	for (size_t t = 0; t < sizeof rows / sizeof rows[0]; t++) {
		const struct row *r = &rows[t];
		double x[N], kx[N], p[N];
		size_t map[N], cp[N], m = 0;
		bool keep[N], pending;

		ti_series_config_init(&c, r->n);
		make(r, x, 1000 + t);
		int d = ti_series_disturbed(x, r->n, &c, keep, &pending);
		TAP_OK(d == r->disturbed, "disturbed nights: %d, expected %d", d, r->disturbed);
		TAP_OK(pending == r->pending, "pending %d, expected %d", pending, r->pending);
		for (size_t i = 0; i < r->n; i++)
			if (keep[i]) {
				map[m] = i;
				kx[m++] = x[i];
			}
		int k = ti_series_cpoints(kx, NULL, m, &c, cp, p, N);
		TAP_OK(k == r->want, "%d change points, expected %d", k, r->want);
		if (k > 0 && r->want > 0)
			TAP_OK(map[cp[0]] == r->want_at && p[0] <= c.alpha,
			       "the change at %zu (p %g), expected %zu", map[cp[0]], p[0], r->want_at);
	}
}

/* A step reverted some nights later is two change points, its start and
 * its end: no single split of the history stands (the bump inflates the
 * spread on both sides of any one), the stretch does; a bump of 3 nights
 * is not a disturbed night. */
/* The change points of 60 nights X with the disturbed nights left out,
 * as timeit-series does: CP gets their indices among the nights kept,
 * MAP each kept night's own, *DISTURBED how many were left out. */
static int kept_cpoints(const double *x, const struct ti_series_config *c, size_t *map,
			size_t *cp, int *disturbed)
{
	double kx[60], p[60];
	bool keep[60], pending;
	size_t m = 0;

	*disturbed = ti_series_disturbed(x, 60, c, keep, &pending);
	for (size_t i = 0; i < 60; i++)
		if (keep[i]) {
			map[m] = i;
			kx[m++] = x[i];
		}
	return ti_series_cpoints(kx, NULL, m, c, cp, p, 60);
}

static void test_bump(void)
{
	static const struct {
		size_t len;
		double step;
	} b[] = { { 3, 0.10 }, { 3, 0.20 }, { 8, 0.10 }, { 8, 0.20 }, { 10, 0.20 } };
	struct ti_series_config c;

	ti_series_config_init(&c, 60);
	for (size_t t = 0; t < sizeof b / sizeof b[0]; t++) {
		for (uint64_t seed = 1; seed <= 4; seed++) {
			double x[60];
			size_t map[60], cp[60];
			struct ti_stats_rng g;

			ti_stats_rng_seed(&g, 500 + seed);
			for (size_t i = 0; i < 60; i++)
				x[i] = (i >= 25 && i < 25 + b[t].len ? log1p(b[t].step) : 0) +
				       0.012 * ti_stats_rng_normal(&g);
			int d;
			int k = kept_cpoints(x, &c, map, cp, &d);
			TAP_OK(d == 0 && k == 2 && map[cp[0]] == 25 && map[cp[1]] == 25 + b[t].len,
			       "a bump of %zu nights at %+.0f%% (seed %llu): %d disturbed, %d points "
			       "at %zu, %zu; expected 0, 2 at 25, %zu", b[t].len, 100 * b[t].step,
			       (unsigned long long)seed, d, k, k > 0 ? map[cp[0]] : 0,
			       k > 1 ? map[cp[1]] : 0, 25 + b[t].len);
		}
	}
}

/* Where the binary changed, the split goes there when it stands. */
static void test_identity(void)
{
	struct ti_series_config c;
	double x[30], p[30];
	uint64_t id[30];
	size_t cp[30];
	/* A step whose noise puts the best split at 14; the binary changed at 12. */
	static const double v[30] = { 0, .01, -.01, 0, .005, -.005, .01, 0, -.01, .005, 0, -.005,
				      .012, .015, .06, .05, .055, .045, .05, .06, .05, .045, .055,
				      .05, .06, .05, .045, .05, .055, .05 };

	ti_series_config_init(&c, 30);
	for (size_t i = 0; i < 30; i++) {
		x[i] = v[i];
		id[i] = i < 12 ? 1 : 2;
	}
	int k = ti_series_cpoints(x, NULL, 30, &c, cp, p, 30);
	TAP_OK(k >= 1 && cp[0] == 14, "without identities the split is at %zu, expected 14",
	       k >= 1 ? cp[0] : 0);
	k = ti_series_cpoints(x, id, 30, &c, cp, p, 30);
	TAP_OK(k >= 1 && cp[0] == 12, "with identities the split is at %zu, expected 12",
	       k >= 1 ? cp[0] : 0);
}

static void test_order(void)
{
	static const struct {
		int line;
		const char *a, *b;
		int want;	/* sign */
	} t[] = {
		{ __LINE__, "9", "10", -1 },
		{ __LINE__, "1.2.9", "1.2.10", -1 },
		{ __LINE__, "1.2", "1.2.0", -1 },
		{ __LINE__, "r100", "r99", 1 },
		{ __LINE__, "abc", "abd", -1 },
		{ __LINE__, "12", "12", 0 },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		int c = ti_series_order_cmp(t[i].a, t[i].b);
		tap_ok((c > 0) - (c < 0) == t[i].want, t[i].line, "order '%s' vs '%s': %d", t[i].a,
		       t[i].b, c);
	}
}

/* A set of one run: benchmark NAME with N samples of V (FAILED failed
 * runs), identity HASH. */
/* --order-by time's keys: seconds as numbers, not text; the zone
 * counts; anything else is no time. */
static void test_time_key(void)
{
	static const struct {
		int line;
		const char *a, *b;
		int want;	/* a's key against b's: -1, 0, 1 */
	} t[] = {
		{ __LINE__, "2026-01-01T00:00:00.9", "2026-01-01T00:00:00.10", 1 },
		{ __LINE__, "2026-01-01T00:00:00.10", "2026-01-01T00:00:00.1", 0 },
		{ __LINE__, "2026-01-01T02:00:00+02:00", "2026-01-01T00:00:00Z", 0 },
		{ __LINE__, "2026-01-01T01:00:00+02:00", "2026-01-01T00:00:00", -1 },
		{ __LINE__, "2026-01-01 00:30:00-0100", "2026-01-01T01:00:00", 1 },
		{ __LINE__, "2025-12-31T23:59:59", "2026-01-01T00:00", -1 },
		{ __LINE__, "1999-12-31T23:59:59", "2000-01-01T00:00:00", -1 },
		{ __LINE__, "2024-02-29T12:00:00", "2024-03-01T00:00:00", -1 },
	};
	static const char *const bad[] = { "", "yesterday", "2026-01-01", "2026-13-01T00:00:00",
					   "2026-01-01T00:00:00+", "2026-01-01T00:00:00.",
					   "2026-01-01T00:00:00 UTC", "2026-01-01T00:00:00Zx" };
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char ka[32], kb[32];
		int ra = ti_series_time_key(t[i].a, ka, sizeof ka);
		int rb = ti_series_time_key(t[i].b, kb, sizeof kb);
		int c = ra || rb ? 2 : ti_series_order_cmp(ka, kb);
		tap_ok((c > 0) - (c < 0) == t[i].want && c != 2, t[i].line, "time '%s' vs '%s': %d",
		       t[i].a, t[i].b, c);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char k[32];
		TAP_OK(ti_series_time_key(bad[i], k, sizeof k) == -EINVAL, "no time: '%s'", bad[i]);
	}
}

static void set_add(struct ti_ab_set *s, const char *name, size_t n, double v, size_t failed,
		    const char *hash)
{
	struct ti_ab_bench *b;

	s->b = realloc(s->b, (s->n + 1) * sizeof *s->b);
	b = &s->b[s->n++];
	memset(b, 0, sizeof *b);
	b->name = strdup(name);
	b->s = calloc(n + failed + 1, sizeof *b->s);
	for (size_t i = 0; i < n + failed; i++) {
		b->s[i].value = i < n ? v * (1 + 0.001 * (double)i) : NAN;
		b->s[i].failed = i >= n;
	}
	b->n = n + failed;
	b->ok = n;
	b->failures = failed;
	b->hash = hash ? strdup(hash) : NULL;
}

static void test_history(void)
{
	struct ti_series_history h = { 0 };
	struct ti_series_config c;
	struct ti_series_result r;
	const char *keys[24];
	char label[24][8];

	/* 24 nights: "a" steps +10 % at night 12 with a new binary; "b" steps
	 * +10 % at night 12 on the same binary; "c" is added at night 6 and
	 * fails every sample at night 20; "d" is there until night 10. */
	for (size_t i = 0; i < 24; i++) {
		struct ti_ab_set s = { 0 };
		double noise = 0.004 * (double)((i * 7) % 5) - 0.008;
		set_add(&s, "a", 3, (i >= 12 ? 1.1 : 1.0) * (1 + noise), 0, i >= 12 ? "a2" : "a1");
		set_add(&s, "b", 3, (i >= 12 ? 2.2 : 2.0) * (1 + noise), 0, "b1");
		if (i >= 6)
			set_add(&s, "c", i == 20 ? 0 : 3, 3 * (1 + noise), i == 20 ? 3 : 0, NULL);
		if (i < 10)
			set_add(&s, "d", 1, 4 * (1 + noise), 0, NULL);
		snprintf(label[i], sizeof label[i], "%zu", 100 - i);
		TAP_OK(ti_series_add(&h, &s, "path", label[i]) == 0, "night %zu added", i);
		ti_ab_set_free(&s);
	}
	TAP_OK(h.nruns == 24 && h.nb == 4, "%zu runs, %zu benchmarks", h.nruns, h.nb);
	TAP_OK(h.b[2].n == 18 && h.b[3].n == 10, "c in %zu runs, d in %zu", h.b[2].n, h.b[3].n);
	ti_series_config_init(&c, h.nruns);
	TAP_OK(ti_series_analyze(&h, &c, &r) == 0, "analysed");
	TAP_OK(r.rows[0].nch == 1 && r.rows[0].ch[0].index == 12 &&
	       r.rows[0].ch[0].cause == TI_SERIES_CAUSE_CODE, "a: the code's change at 12");
	TAP_OK(r.rows[0].nch == 1 && fabs(r.rows[0].ch[0].change - 0.10) < 0.01 &&
	       r.rows[0].ch[0].lo < 0.10 && r.rows[0].ch[0].hi > 0.10,
	       "a: +10 %% within its interval");
	TAP_OK(r.rows[1].nch == 1 && r.rows[1].ch[0].cause == TI_SERIES_CAUSE_MACHINE,
	       "b: the machine's change");
	TAP_OK(r.rows[2].nch == 0 && r.rows[2].failed_runs == 1 && r.rows[2].failed == 3,
	       "c: the failed night kept out and counted (%zu runs, %zu samples)",
	       r.rows[2].failed_runs, r.rows[2].failed);
	TAP_OK(r.rows[3].nch == 0 && r.rows[3].runs == 10, "d: removed after 10 nights");
	TAP_OK(!r.regressed, "nothing in the window of the last 5");
	ti_series_result_free(&r);
	c.since = 10;
	TAP_OK(ti_series_analyze(&h, &c, &r) == 0, "analysed from 10");
	TAP_OK(r.regressed && r.regressions == 1,
	       "a regresses in a window from 10, b is the machine's (%zu)", r.regressions);
	ti_series_result_free(&r);
	/* Ordered by the labels (100 .. 77): the history reversed. */
	for (size_t i = 0; i < 24; i++)
		keys[i] = label[i];
	TAP_OK(ti_series_sort_runs(&h, keys) == 0, "sorted");
	TAP_OK(strcmp(h.runs[0].label, "77") == 0 && h.b[3].p[0].run == 14,
	       "sorted by order: first %s, d from run %u", h.runs[0].label, h.b[3].p[0].run);
	ti_series_free(&h);
}

/* A load shared by a night's benchmarks hides a +3 % step of one of
 * them; the machine factor takes it out, and the binary places it. */
static void test_factor(void)
{
	struct ti_series_history h = { 0 };
	struct ti_series_config c;
	struct ti_series_result r;
	struct ti_stats_rng g;
	char name[12][8];

	ti_stats_rng_seed(&g, 7);
	for (size_t i = 0; i < 20; i++) {
		struct ti_ab_set s = { 0 };
		double night = 0.06 * ti_stats_rng_normal(&g);
		for (int b = 0; b < 12; b++) {
			double v = exp(night + 0.005 * ti_stats_rng_normal(&g)) *
				   (b == 0 && i >= 11 ? 1.03 : 1);
			snprintf(name[b], sizeof name[b], "b%02d", b);
			set_add(&s, name[b], 1, v, 0, b == 0 && i >= 11 ? "new" : name[b]);
		}
		TAP_OK(ti_series_add(&h, &s, "path", NULL) == 0, "night %zu added", i);
		ti_ab_set_free(&s);
	}
	ti_series_config_init(&c, h.nruns);
	TAP_OK(ti_series_analyze(&h, &c, &r) == 0, "analysed");
	TAP_OK(r.changes == 0, "without the factor: %zu changes", r.changes);
	ti_series_result_free(&r);
	c.machine_factor = true;
	TAP_OK(ti_series_analyze(&h, &c, &r) == 0, "analysed with the factor");
	TAP_OK(r.factor_refs == 11, "the factor from %zu benchmarks, expected 11", r.factor_refs);
	TAP_OK(r.changes == 1 && r.rows[0].nch == 1 && r.rows[0].ch[0].index == 11 &&
	       r.rows[0].ch[0].cause == TI_SERIES_CAUSE_CODE,
	       "with the factor: %zu changes, b00's at %zu", r.changes,
	       r.rows[0].nch ? r.rows[0].ch[0].index : 0);
	ti_series_result_free(&r);
	ti_series_free(&h);
}

/* Runs labelled by their paths, and the labels ti_series_short_labels
 * gives them: the fewest trailing components that tell all apart. */
static void test_labels(void)
{
	static const struct {
		int line;
		const char *path[3], *label[3];	/* a NULL label: the run's order "7" */
	} cases[] = {
		{ __LINE__, { "lit/n1.json", "lit/n2.json", "n3.json" }, { "n1", "n2", "n3" } },
		{ __LINE__, { "a/7/report.json", "a/8/report.json", "b/9/report.json" },
		  { "7/report", "8/report", "9/report" } },
		{ __LINE__, { "x/r.json", "y/r.json", "d6/" }, { "x/r", "y/r", "d6" } },
		{ __LINE__, { "n1.json", "n2.json", "lnt.json" }, { "n1", "n2", NULL } },
		/* A name that is another run's order at every depth: the paths. */
		{ __LINE__, { "7.json", "8.json", "lnt.json" }, { "7.json", "8.json", NULL } },
		{ __LINE__, { "/", "./7", "7.json" }, { "/", "./7", "7" } },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ti_series_history h = { 0 };
		bool ok = true;

		for (size_t k = 0; k < 3; k++) {
			struct ti_ab_set s = { 0 };
			if (!cases[i].label[k])
				snprintf(s.run.order, sizeof s.run.order, "7");
			ok &= ti_series_add(&h, &s, cases[i].path[k], NULL) == 0;
		}
		ok &= ti_series_short_labels(&h) == 0;
		for (size_t k = 0; ok && k < 3; k++)
			ok = strcmp(h.runs[k].label, cases[i].label[k] ? cases[i].label[k] : "7") == 0;
		TAP_OK(ok, "labels %s, %s, %s (row of line %d)", h.runs[0].label, h.runs[1].label,
		       h.runs[2].label, cases[i].line);
		ti_series_free(&h);
	}
}

/* Noise that grows in mid-history (1 % for 30 nights, then 4 %): no
 * change point in the noisy half, whose short stretches passed for
 * changes against a pooled spread that the quiet half kept small (in 6
 * of these 40 histories); a +15 % step in the noisy half is the one
 * change point (in 22 of 40 before, most of the rest with false ones beside). */
static void test_shape(void)
{
	struct ti_series_config c;
	int quiet = 0, step = 0;

	ti_series_config_init(&c, 60);
	for (int with_step = 0; with_step < 2; with_step++) {
		for (uint64_t seed = 1; seed <= 40; seed++) {
			double x[60];
			size_t map[60], cp[60];
			struct ti_stats_rng g;

			ti_stats_rng_seed(&g, 900 + seed);
			for (size_t i = 0; i < 60; i++)
				x[i] = (with_step && i >= 42 ? log1p(0.15) : 0) +
				       (i < 30 ? 0.01 : 0.04) * ti_stats_rng_normal(&g);
			int d;
			int k = kept_cpoints(x, &c, map, cp, &d);
			if (!with_step)
				quiet += k == 0;
			else
				step += k == 1 && map[cp[0]] >= 41 && map[cp[0]] <= 43;
		}
	}
	TAP_OK(quiet >= 37, "noise that grows: %d of 40 histories without a change point, "
	       "expected 37 or more", quiet);
	TAP_OK(step >= 28, "a step where the noise grew: found alone in %d of 40, expected 28 or "
	       "more", step);
}

/* A nightly replay (timeit-series --since 1 night after night) of a
 * history of bench/series-sim's (cv2, +10 % from night 33, one sample a
 * night; ... 500 1 60 1 replay, its 207th): the step is placed at 33 on
 * night 35, lost on 36 and 37, and placed at 34 on night 38; the nights
 * before 38 that had it are looked at back to 3 runs before 34, and it
 * exits 1 on night 35 alone (on 35 and 38 when they started at 36). */
static void test_replay_tol(void)
{
	static const double lvl[] = {
		1.0005779948245719, 0.98317224884865284, 1.0055093259811299, 0.98703345804467424,
		1.024928521125269, 0.97389701859992339, 0.98300084353195527, 1.0179121613213649,
		1.0106261427106709, 0.98754690179036297, 1.0463840769827495, 1.0001877401275081,
		1.0022386509496219, 0.94625156143143296, 1.0342743749662275, 0.98723682352778752,
		0.99269363935554178, 1.0188403760929068, 1.0065147957802438, 1.0012595662461239,
		0.99313454803752976, 0.98553572902723841, 1.0146990415055834, 1.0022460666911666,
		0.96617607749560286, 0.99716082371759485, 0.99706106810070005, 1.0031145020371548,
		0.98708559260095208, 1.0329285247762123, 0.97998523142567673, 0.96573547495583256,
		0.99102313713941703, 1.0393683253546719, 1.1372121434460978, 1.082862257774863,
		1.0803153522726707, 1.1184540127117597, 1.1158142791159136, 1.1067828806535385,
	};
	enum { NL = sizeof lvl / sizeof lvl[0] };
	struct ti_series_point pts[NL];
	struct ti_series_bench b = { .name = "b", .p = pts };
	struct ti_series_history h = { .b = &b, .nb = 1 };
	struct ti_series_config c;
	size_t exits = 0, first = 0;

	for (size_t i = 0; i < NL; i++)
		pts[i] = (struct ti_series_point){ .run = (uint32_t)i, .n = 1, .level = lvl[i] };
	for (size_t len = 8; len <= NL; len++) {
		struct ti_series_result r;
		ti_series_config_init(&c, len);
		c.since = len - 1;
		b.n = h.nruns = len;
		if (ti_series_analyze(&h, &c, &r) < 0)
			break;
		if (r.regressed && exits++ == 0)
			first = len;
		ti_series_result_free(&r);
	}
	TAP_OK(exits == 1 && first == 35, "a step placed again a run later after two nights "
	       "without it: exit 1 on %zu nights, the first %zu; expected 1, 35", exits, first);
}

int main(void)
{
	test_rule();
	test_bump();
	test_shape();
	test_replay_tol();
	test_identity();
	test_order();
	test_time_key();
	test_history();
	test_factor();
	test_labels();
	return tap_done();
}
