/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* compare.c: timeit-compare, A/B verdicts for two sets of benchmark
 * results.  Reads both sides through lib/readers.c, tests each benchmark
 * with lib/stats.c, and prints a table (text, Markdown, CSV or JSON) and
 * optionally an SVG plot.  Statistics background: spec/statistics.md. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "json.h"
#include "outfile.h"
#include "readers.h"
#include "stats.h"
#include "util.h"

/* Exit statuses (documented in timeit-compare.1). */
enum {
	EXIT_OK = 0,		/* no significant regression */
	EXIT_REGRESSED = 1,	/* at least one regression beyond the gates */
	EXIT_ERROR = 2,		/* usage or input error */
};

enum verdict { V_IMPROVED, V_REGRESSED, V_UNCHANGED, V_NOISY, V_MISSING, V_FAILED, V_COUNT };
static const char *const verdict_name[V_COUNT] = {
	"improved", "regressed", "unchanged", "noisy", "missing", "failed",
};

enum code_state { CODE_UNKNOWN, CODE_SAME, CODE_CHANGED };
enum format { FMT_TEXT, FMT_MD, FMT_CSV, FMT_JSON };

/* Instruction counts within this relative difference are "the same code":
 * counts of one binary vary by a few hundred instructions (signal
 * delivery, page faults), far below 0.01 % of any benchmark. */
#define SAME_CODE_TOLERANCE 1e-4

struct config {
	const char **a, **b;	/* input paths per side */
	size_t na, nb;
	const char *floor_a, *floor_b;	/* --noise-floor A1 A2 */
	const char *metric;
	double alpha, min_change, filter_short;
	enum ti_stats_adjust adjust;
	bool only_changed, color, strict;
	int no_color;
	regex_t pattern;
	bool has_pattern;
	enum format format;
	const char *svg;
	uint64_t seed, reps;
};

struct row {
	const char *name;
	const struct ti_readers_bench *a, *b;
	enum verdict v;
	double med_a, med_b, spread_a, spread_b;	/* spreads: MAD / median */
	double change;		/* ln(median B / median A) */
	double hl, lo, hi;	/* Hodges-Lehmann shift of ln values and its CI */
	double p, p_adj;	/* NAN: no test */
	double floor;		/* ln noise floor from --noise-floor, NAN: none */
	enum code_state code;
	double insn_change;	/* relative instruction count change */
	bool exact;		/* an exact count without spread: compared, not tested */
	bool gating;		/* a regression that sets exit status 1 */
	char note[160];
};

static const struct option_help {
	const char *left, *help;
} help[] = {
	{ "-a PATH", "add PATH to side A (the baseline); repeatable" },
	{ "-b PATH", "add PATH to side B (the candidate); repeatable" },
	{ "-m, --metric NAME", "exec_time (user time, default), real, sys, maxrss, or any key" },
	{ "--alpha P", "significance level (1e-12 to 0.5, default 0.05)" },
	{ "--min-change PCT", "a change |B/A-1| below PCT % is 'unchanged' (0-1000, default 1)" },
	{ "--fdr", "control the false discovery rate (Benjamini-Hochberg), not Holm" },
	{ "--no-adjust", "no multiple-comparison adjustment" },
	{ "--noise-floor A1 A2", "calibrate per-benchmark noise from two runs of one build" },
	{ "--filter-short SECONDS", "leave out benchmarks whose medians are below SECONDS" },
	{ "--only-changed", "list only benchmarks whose verdict is not 'unchanged'" },
	{ "--strict", "exit 1 also when B failed or lost a benchmark, or none is compared" },
	{ "-p, --pattern REGEX", "only benchmarks whose name matches REGEX (POSIX ERE)" },
	{ "--format FMT", "text (default), md, csv or json" },
	{ "--no-color", "no colours even on a terminal" },
	{ "--svg FILE", "also plot the changes with confidence intervals to FILE" },
	{ "--seed N", "bootstrap seed (default 1)" },
	{ "--bootstrap N", "geometric mean's bootstrap resamples (100-10000000, default 10000)" },
	{ "-h, --help", "show this help and exit" },
	{ "--version", "show the version and exit" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: timeit-compare [options] A B\n"
		   "       timeit-compare [options] -a A1 [-a A2 ...] -b B1 [-b B2 ...]\n\n"
		   "Compare two sets of benchmark results (directories of timeit summary files,\n"
		   "timeit --json, lit -o or LNT report JSON) and give a verdict per benchmark.\n\n"
		   "options:\n");
	for (size_t i = 0; i < sizeof help / sizeof help[0]; i++)
		fprintf(f, "  %-26s %s\n", help[i].left, help[i].help);
	fprintf(f, "\nExit status: 0 no significant regression, 1 a significant regression beyond\n"
		   "the gates (with --strict also a failure or a missing benchmark in B), 2 usage\n"
		   "or input error.  See timeit-compare(1).\n");
}

/* stdout after --help or --version: a write that failed is an error, as
 * it is for the table. */
static void exit_written(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "timeit-compare: stdout: %s\n", strerror(errno ? errno : EIO));
		exit(EXIT_ERROR);
	}
	exit(EXIT_OK);
}

__attribute__((format(printf, 1, 2), noreturn))
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("timeit-compare: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'timeit-compare --help'.\n", stderr);
	exit(EXIT_ERROR);
}

/* A number from LO to HI; the range is in the message when S is a number
 * outside it (RANGE: how the man page says it). */
static double number_arg(const char *opt, const char *s, double lo, double hi, const char *range)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || isnan(v) || (errno && errno != ERANGE))
		usage_error("%s: invalid number '%s'", opt, s);
	if (errno || !(v >= lo && v <= hi))
		usage_error("%s: '%s' is out of range (%s)", opt, s, range);
	return v;
}

static void push(const char ***list, size_t *n, const char *path)
{
	const char **l = realloc(*list, (*n + 1) * sizeof *l);
	if (!l) {
		fprintf(stderr, "timeit-compare: %s\n", strerror(ENOMEM));
		exit(EXIT_ERROR);
	}
	l[(*n)++] = path;
	*list = l;
}

static void parse_args(int argc, char **argv, struct config *c)
{
	const char *pos[2];
	size_t npos = 0;
	bool opts = true;

	memset(c, 0, sizeof *c);
	c->metric = "exec_time";
	c->alpha = 0.05;
	c->min_change = 1;
	c->adjust = TI_STATS_ADJUST_HOLM;
	c->seed = 1;
	c->reps = 10000;
	for (int i = 1; i < argc; i++) {
		char *arg = argv[i], *val = NULL, *eq;
		char name[64];

		if (!opts || arg[0] != '-' || !arg[1]) {
			if (npos == 2)
				usage_error("too many paths: '%s' (use -a/-b for several per side)", arg);
			pos[npos++] = arg;
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			opts = false;
			continue;
		}
		/* --name=value is the same as --name value. */
		snprintf(name, sizeof name, "%s", arg);
		if (arg[1] == '-' && (eq = strchr(name, '='))) {
			*eq = '\0';
			val = arg + (eq - name) + 1;
		}
#define IS(s) (strcmp(name, s) == 0)
#define VALUE() (val ? val : i + 1 < argc ? argv[++i] : (usage_error("%s: missing argument", name), ""))
		/* A flag given a value ("--fdr=no") is refused: ignoring the
		 * value would do the opposite of what it asks. */
		if (val && (IS("--help") || IS("--version") || IS("--fdr") || IS("--no-adjust") ||
			    IS("--only-changed") || IS("--strict") || IS("--no-color") ||
			    IS("--no-colour")))
			usage_error("%s: takes no value ('%s')", name, arg);
		if (IS("-h") || IS("--help")) {
			usage(stdout);
			exit_written();
		} else if (IS("--version")) {
			printf("timeit-compare %s\n", PACKAGE_VERSION);
			exit_written();
		} else if (IS("-a")) {
			push(&c->a, &c->na, VALUE());
		} else if (IS("-b")) {
			push(&c->b, &c->nb, VALUE());
		} else if (IS("-m") || IS("--metric")) {
			c->metric = VALUE();
			if (!*c->metric)
				usage_error("%s: empty metric name", name);
		} else if (IS("--alpha")) {
			c->alpha = number_arg(name, VALUE(), 1e-12, 0.5, "1e-12 to 0.5");
		} else if (IS("--min-change")) {
			c->min_change = number_arg(name, VALUE(), 0, 1000, "0 to 1000");
		} else if (IS("--filter-short")) {
			c->filter_short = number_arg(name, VALUE(), 0, 1e12, "0 to 1e12");
		} else if (IS("--fdr")) {
			c->adjust = TI_STATS_ADJUST_BH;
		} else if (IS("--no-adjust")) {
			c->adjust = TI_STATS_ADJUST_NONE;
		} else if (IS("--noise-floor")) {
			if (val || i + 2 >= argc)
				usage_error("--noise-floor: needs two paths, A1 A2");
			c->floor_a = argv[++i];
			c->floor_b = argv[++i];
		} else if (IS("--only-changed")) {
			c->only_changed = true;
		} else if (IS("--strict")) {
			c->strict = true;
		} else if (IS("-p") || IS("--pattern")) {
			const char *re = VALUE();
			int rc;
			if (c->has_pattern)
				regfree(&c->pattern);
			if ((rc = regcomp(&c->pattern, re, REG_EXTENDED | REG_NOSUB)) != 0) {
				char msg[128];
				regerror(rc, &c->pattern, msg, sizeof msg);
				usage_error("%s: '%s': %s", name, re, msg);
			}
			c->has_pattern = true;
		} else if (IS("--format")) {
			const char *f = VALUE();
			if (strcmp(f, "text") == 0)
				c->format = FMT_TEXT;
			else if (strcmp(f, "md") == 0)
				c->format = FMT_MD;
			else if (strcmp(f, "csv") == 0)
				c->format = FMT_CSV;
			else if (strcmp(f, "json") == 0)
				c->format = FMT_JSON;
			else
				usage_error("--format: unknown format '%s' (text, md, csv, json)", f);
		} else if (IS("--no-color") || IS("--no-colour")) {
			c->no_color = 1;
		} else if (IS("--svg")) {
			c->svg = VALUE();
		} else if (IS("--seed") || IS("--bootstrap")) {
			const char *s = VALUE();
			uint64_t v;
			int rc = ti_parse_u64(s, &v);
			if (rc == -EINVAL)
				usage_error("%s: invalid number '%s'", name, s);
			if (IS("--bootstrap") && (rc < 0 || v < 100 || v > 10000000))
				usage_error("%s: '%s' is out of range (100 to 10000000)", name, s);
			if (rc < 0)
				usage_error("%s: '%s' is out of range (0 to 2^64-1)", name, s);
			*(IS("--seed") ? &c->seed : &c->reps) = v;
		} else {
			usage_error("unknown option '%s'", arg);
		}
#undef IS
#undef VALUE
	}
	if (npos && (c->na || c->nb))
		usage_error("'%s': give the sides either as A B or with -a/-b, not both", pos[0]);
	if (npos == 2) {
		push(&c->a, &c->na, pos[0]);
		push(&c->b, &c->nb, pos[1]);
	} else if (npos == 1) {
		usage_error("'%s': missing the other side (A B)", pos[0]);
	}
	if (!c->na || !c->nb)
		usage_error("nothing to compare: give A and B");
	c->color = !c->no_color && c->format == FMT_TEXT && isatty(STDOUT_FILENO) &&
		   !getenv("NO_COLOR");
}

/* Load the paths of one side; on error print it and exit 2. */
static void load_side(struct ti_readers_set *set, const char *const *paths, size_t n,
		      const char *metric)
{
	struct ti_readers_error err;
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		int rc = ti_readers_load(set, paths[i], metric, &err);
		if (rc == -ENOMEM) {
			fprintf(stderr, "timeit-compare: %s: %s\n", paths[i], strerror(ENOMEM));
			exit(EXIT_ERROR);
		}
		if (rc < 0) {
			if (err.line > 0)
				fprintf(stderr, "timeit-compare: %s:%d: %s\n", err.path, err.line, err.what);
			else
				fprintf(stderr, "timeit-compare: %s: %s\n", err.path, err.what);
			exit(EXIT_ERROR);
		}
	}
	for (size_t i = 0; i < set->n; i++)
		any |= set->b[i].n > 0 || set->b[i].failures > 0;
	if (!any) {
		fprintf(stderr, "timeit-compare: %s: no run has the metric '%s'\n", paths[0], metric);
		exit(EXIT_ERROR);
	}
	ti_readers_sort(set);
}

static void oom(void)
{
	fprintf(stderr, "timeit-compare: %s\n", strerror(ENOMEM));
	exit(EXIT_ERROR);
}

/* ln of each sample value into OUT; false when a value is not positive. */
static bool logs(const struct ti_readers_bench *b, double *out)
{
	for (size_t i = 0; i < b->n; i++) {
		if (!(b->s[i].value > 0))
			return false;
		out[i] = log(b->s[i].value);
	}
	return true;
}

static double bench_median(const struct ti_readers_bench *b)
{
	double *v = malloc((b->n ? b->n : 1) * sizeof *v), m;

	if (!v)
		oom();
	for (size_t i = 0; i < b->n; i++)
		v[i] = b->s[i].value;
	m = ti_stats_median(v, b->n);
	free(v);
	return m;
}

static double bench_spread(const struct ti_readers_bench *b, double med)
{
	double *v = malloc((b->n ? b->n : 1) * sizeof *v), m;

	if (!v)
		oom();
	for (size_t i = 0; i < b->n; i++)
		v[i] = b->s[i].value;
	m = b->n > 1 && med != 0 ? ti_stats_mad(v, b->n) / fabs(med) : NAN;
	free(v);
	return m;
}

/* Every sample of B has the same value. */
static bool constant(const struct ti_readers_bench *b)
{
	for (size_t i = 1; i < b->n; i++)
		if (b->s[i].value != b->s[0].value)
			return false;
	return true;
}

/* Median instruction count of a side: valgrind's when VG, else the
 * hardware counter's; NAN when no sample has it. */
static double insn_median(const struct ti_readers_bench *b, bool vg)
{
	double *v = malloc((b->n ? b->n : 1) * sizeof *v), m;
	size_t k = 0;

	if (!v)
		oom();
	for (size_t i = 0; i < b->n; i++) {
		double x = vg ? b->s[i].vg_insn : b->s[i].insn;
		if (!isnan(x))
			v[k++] = x;
	}
	m = k ? ti_stats_median(v, k) : NAN;
	free(v);
	return m;
}

static void classify_code(struct row *r)
{
	double ia = insn_median(r->a, true), ib = insn_median(r->b, true);

	/* valgrind's count is exact; the hardware one only when both lack it. */
	if (isnan(ia) || isnan(ib)) {
		ia = insn_median(r->a, false);
		ib = insn_median(r->b, false);
	}
	if (isnan(ia) || isnan(ib) || ia <= 0)
		return;
	r->insn_change = ib / ia - 1;
	r->code = fabs(r->insn_change) <= SAME_CODE_TOLERANCE ? CODE_SAME : CODE_CHANGED;
}

/* The noise floor of one benchmark from an A/A pair: how far the medians
 * of two runs of the same build moved, and at least the pooled relative
 * spread of their samples, on the ln scale. */
static double noise_floor(const struct ti_readers_bench *x, const struct ti_readers_bench *y)
{
	size_t n = x->n + y->n;
	double *v, f, spread;

	if (!x->n || !y->n)
		return NAN;
	if (!(v = malloc(n * sizeof *v)))
		oom();
	if (!logs(x, v) || !logs(y, v + x->n)) {
		free(v);
		return NAN;
	}
	f = fabs(ti_stats_median(v + x->n, y->n) - ti_stats_median(v, x->n));
	spread = n >= 3 ? ti_stats_mad(v, n) : 0;
	free(v);
	return fmax(f, spread);
}

static void set_note(struct row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_note(struct row *r, const char *fmt, ...)
{
	size_t used = strlen(r->note);
	va_list ap;

	if (used && used + 2 < sizeof r->note) {
		strcat(r->note, "; ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(r->note + used, sizeof r->note - used, fmt, ap);
	va_end(ap);
}

/* Everything about one benchmark except the adjusted p-value verdict. */
static void measure_row(struct row *r, const struct config *c)
{
	size_t m = r->a->n, n = r->b->n;
	double *x, *y;

	r->med_a = bench_median(r->a);
	r->med_b = bench_median(r->b);
	r->spread_a = bench_spread(r->a, r->med_a);
	r->spread_b = bench_spread(r->b, r->med_b);
	classify_code(r);
	if (!(r->med_a > 0 && r->med_b > 0)) {
		/* A median of 0 (a time below the clock's resolution) has no
		 * ratio; nothing to test.  Equal medians are no change. */
		r->change = r->med_a == r->med_b ? 0 : NAN;
		if (isnan(r->change))
			set_note(r, "values <= 0: no ratio, no test");
		return;
	}
	r->change = log(r->med_b / r->med_a);
	/* valgrind's count is exact: when it is the same in every sample of
	 * a side there is no noise to test against, and the change is what
	 * it is (its interval a single point). */
	if (strcmp(c->metric, "valgrind-instructions") == 0 && constant(r->a) && constant(r->b)) {
		r->exact = true;
		r->hl = r->lo = r->hi = r->change;
		return;
	}
	x = malloc(m * sizeof *x);
	y = malloc(n * sizeof *y);
	if (!x || !y)
		oom();
	if (logs(r->a, x) && logs(r->b, y)) {
		struct ti_stats_hl hl;
		if (ti_stats_hodges_lehmann(x, m, y, n, c->alpha, &hl) < 0)
			oom();
		r->hl = hl.shift;
		r->lo = hl.lo;
		r->hi = hl.hi;
		if (m >= 2 && n >= 2) {
			struct ti_stats_mw mw;
			if (ti_stats_mann_whitney(x, m, y, n, &mw) < 0)
				oom();
			r->p = mw.p;
		}
	}
	free(x);
	free(y);
}

static void decide(struct row *r, const struct config *c)
{
	bool beyond, beyond_min, floor_known = !isnan(r->floor);
	double rel = fabs(expm1(r->change));

	if (isnan(r->change)) {
		r->v = V_NOISY;
		return;
	}
	/* --min-change gates the change the table shows, |B/A - 1|, so that
	 * -20 % and +20 % are both "20 percent"; the noise floor is a spread
	 * of logarithms and gates the log-ratio. */
	beyond_min = rel > 0 && !(rel < c->min_change / 100);
	beyond = beyond_min && (!floor_known || fabs(r->change) > r->floor);
	if (r->exact) {
		r->v = !beyond ? V_UNCHANGED : r->change > 0 ? V_REGRESSED : V_IMPROVED;
		set_note(r, "exact count%s", rel == 0 || beyond ? ""
			 : beyond_min ? ", within noise floor" : ", below --min-change");
		/* The count is the metric: "same code" or "code changed"
		 * would only repeat the change column. */
		r->gating = r->v == V_REGRESSED;
		return;
	}
	if (!isnan(r->p)) {
		bool sig = r->p_adj < c->alpha;
		if (sig && beyond)
			r->v = r->change > 0 ? V_REGRESSED : V_IMPROVED;
		else if (!sig && beyond)
			r->v = V_NOISY;
		else
			r->v = V_UNCHANGED;
		if (sig && !beyond)
			set_note(r, beyond_min ? "significant, within noise floor"
				    : "significant, below --min-change");
	} else {
		/* Enough samples but no test: the log-ratios need values
		 * above 0, which a time below the clock's resolution is not. */
		if (r->a->n >= 2 && r->b->n >= 2)
			set_note(r, "values <= 0: no test");
		else
			set_note(r, "n=%zu/%zu: no test", r->a->n, r->b->n);
		if (beyond && floor_known)
			r->v = r->change > 0 ? V_REGRESSED : V_IMPROVED;
		else
			r->v = beyond ? V_NOISY : V_UNCHANGED;
		if (beyond && floor_known)
			set_note(r, "beyond noise floor");
	}
	if (r->code == CODE_SAME && (r->v == V_REGRESSED || r->v == V_IMPROVED || r->v == V_NOISY))
		set_note(r, "same code, timing noise");
	else if (r->code == CODE_CHANGED)
		set_note(r, "code changed (instructions %+.2f%%)", 100 * r->insn_change);
	/* Identical instruction counts mean the compiler produced the same
	 * code: a slower run is the machine's doing, not a regression to gate. */
	r->gating = r->v == V_REGRESSED && r->code != CODE_SAME;
}

/* --strict: B lost what A had.  A benchmark that failed on B, that B does
 * not have, or whose metric B lacks while A has it, would pass a CI gate
 * unseen otherwise. */
static bool strict_gate(const struct row *r)
{
	if (r->b && r->b->failures > 0)
		return true;
	return r->a && (!r->b || (r->a->n > 0 && r->b->n == 0));
}

static bool keep(const struct config *c, const char *name)
{
	return !c->has_pattern || regexec(&c->pattern, name, 0, NULL, 0) == 0;
}

/* Build the rows: union of both sides' benchmark names, sorted. */
static struct row *build_rows(const struct config *c, const struct ti_readers_set *sa,
			      const struct ti_readers_set *sb, const struct ti_readers_set *fa,
			      const struct ti_readers_set *fb, size_t *nrows)
{
	struct row *rows = calloc(sa->n + sb->n + 1, sizeof *rows);
	size_t n = 0, i = 0, j = 0;

	if (!rows)
		oom();
	while (i < sa->n || j < sb->n) {
		int cmp = i >= sa->n ? 1 : j >= sb->n ? -1 : strcmp(sa->b[i].name, sb->b[j].name);
		struct row *r = &rows[n];

		memset(r, 0, sizeof *r);
		r->a = cmp <= 0 ? &sa->b[i++] : NULL;
		r->b = cmp >= 0 ? &sb->b[j++] : NULL;
		r->name = r->a ? r->a->name : r->b->name;
		if (!keep(c, r->name))
			continue;
		r->med_a = r->med_b = r->change = r->hl = r->lo = r->hi = NAN;
		r->p = r->p_adj = r->floor = r->spread_a = r->spread_b = NAN;
		r->insn_change = NAN;
		n++;
		if (!r->a || !r->b) {
			r->v = V_MISSING;
			set_note(r, "only in %s", r->a ? "A" : "B");
			if (r->a && r->a->n)
				r->med_a = bench_median(r->a);
			if (r->b && r->b->n)
				r->med_b = bench_median(r->b);
			continue;
		}
		if (r->a->failures || r->b->failures) {
			r->v = V_FAILED;
			if (r->a->failures)
				set_note(r, "A: %zu failed run%s (%s)", r->a->failures,
					 r->a->failures > 1 ? "s" : "", r->a->failed_in);
			if (r->b->failures)
				set_note(r, "B: %zu failed run%s (%s)", r->b->failures,
					 r->b->failures > 1 ? "s" : "", r->b->failed_in);
			continue;
		}
		if (!r->a->n || !r->b->n) {
			r->v = V_MISSING;
			set_note(r, "no %s in %s", c->metric,
				 !r->a->n && !r->b->n ? "A or B" : !r->a->n ? "A" : "B");
			continue;
		}
		measure_row(r, c);
		if (c->filter_short > 0 && fmax(r->med_a, r->med_b) < c->filter_short) {
			n--;
			continue;
		}
		if (fa && fb) {
			const struct ti_readers_bench *x = ti_readers_find(fa, r->name);
			const struct ti_readers_bench *y = ti_readers_find(fb, r->name);
			if (x && y)
				r->floor = noise_floor(x, y);
		}
	}
	*nrows = n;
	return rows;
}

/* The smallest two-sided p-value the exact test can reach for sample
 * sizes M and N: complete separation, 2 / C(M+N, M). */
static double min_p(size_t m, size_t n)
{
	if (m + n > TI_STATS_EXACT_MAX)
		return 0;
	return fmin(1, 2 * exp(lgamma((double)m + 1) + lgamma((double)n + 1) -
			       lgamma((double)(m + n) + 1)));
}

static void adjust_and_decide(struct row *rows, size_t n, const struct config *c)
{
	double *p = malloc((n ? n : 1) * sizeof *p), best = 2;
	size_t tested = 0, best_m = 0, best_n = 0;

	if (!p)
		oom();
	for (size_t i = 0; i < n; i++) {
		double mp;
		if (rows[i].v == V_MISSING || rows[i].v == V_FAILED || isnan(rows[i].p))
			continue;
		tested++;
		if ((mp = min_p(rows[i].a->n, rows[i].b->n)) < best) {
			best = mp;
			best_m = rows[i].a->n;
			best_n = rows[i].b->n;
		}
	}
	/* With few samples a side no p-value can fall below alpha at all
	 * (2 a side: p >= 1/3), whatever the adjustment.  Holm's first step
	 * compares the smallest p with alpha / tests, which may be out of
	 * reach while alpha is not (5 a side: p >= 2/252, so more than 6
	 * benchmarks); then Benjamini-Hochberg or no adjustment can help.  Say
	 * so rather than report "no change" that could never have been
	 * anything else. */
	if (tested > 0 && best >= c->alpha)
		fprintf(stderr, "timeit-compare: note: no test can reach alpha %g with these sample "
			"counts, whatever the adjustment (smallest possible p %.4g, with %zu and %zu "
			"samples); take more samples\n", c->alpha, best, best_m, best_n);
	else if (c->adjust == TI_STATS_ADJUST_HOLM && tested > 1 && best * (double)tested >= c->alpha)
		fprintf(stderr, "timeit-compare: note: with %zu tests and these sample counts no "
			"benchmark can pass Holm at alpha %g (smallest possible p %.4g); take more "
			"samples, or use --fdr or --no-adjust\n", tested, c->alpha, best);
	for (size_t i = 0; i < n; i++)
		p[i] = rows[i].v == V_MISSING || rows[i].v == V_FAILED ? NAN : rows[i].p;
	if (ti_stats_adjust(p, n, c->adjust, p) < 0)
		oom();
	for (size_t i = 0; i < n; i++) {
		if (rows[i].v == V_MISSING || rows[i].v == V_FAILED)
			continue;
		rows[i].p_adj = p[i];
		decide(&rows[i], c);
	}
	free(p);
}

/* Why there is no geometric mean: it takes the benchmarks on both sides
 * whose ratio exists, which a median of 0 has not. */
#define NO_GEOMEAN "no benchmark with medians above 0 on both sides"

struct geomean {
	size_t n;
	double ratio, lo, hi;	/* NAN when n == 0 */
};

static struct geomean geomean(const struct row *rows, size_t n, const struct config *c)
{
	struct geomean g = { 0, NAN, NAN, NAN };
	double *l = malloc((n ? n : 1) * sizeof *l), sum = 0;

	if (!l)
		oom();
	for (size_t i = 0; i < n; i++)
		if (rows[i].v != V_MISSING && rows[i].v != V_FAILED && isfinite(rows[i].change))
			l[g.n++] = rows[i].change;
	if (g.n) {
		for (size_t i = 0; i < g.n; i++)
			sum += l[i];
		g.ratio = exp(sum / (double)g.n);
		if (ti_stats_bootstrap_mean(l, g.n, (unsigned)c->reps, 1 - c->alpha, c->seed,
					    &g.lo, &g.hi) < 0)
			oom();
		g.lo = exp(g.lo);
		g.hi = exp(g.hi);
	}
	free(l);
	return g;
}

/* ---- output ---------------------------------------------------------- */

enum col { C_NAME, C_NA, C_NB, C_MEDA, C_MEDB, C_CHANGE, C_CI, C_SPA, C_SPB, C_P,
	   C_VERDICT, C_NOTE, C_COUNT };
static const char *const col_title[C_COUNT] = {
	"benchmark", "nA", "nB", "median A", "median B", "change", "CI", "MAD% A", "MAD% B",
	"p", "verdict", "note",
};

static void pct(char *s, size_t len, double v)
{
	if (isnan(v))
		snprintf(s, len, "-");
	else if (isinf(v))
		snprintf(s, len, "%sinf", v > 0 ? "+" : "-");
	else
		snprintf(s, len, "%+.2f%%", 100 * v);
}

static void num(char *s, size_t len, double v)
{
	if (isnan(v))
		snprintf(s, len, "-");
	else if (fabs(v) >= 1e5 && fabs(v) < 1e18 && v == floor(v))
		snprintf(s, len, "%.0f", v);	/* counts and bytes: all digits */
	else
		snprintf(s, len, "%.6g", v);
}

/* S for a table cell of LEN bytes: a line break in a name (or in a path
 * in a note) would break the row, so control characters become C escapes
 * (\n, \t, \x7f), and a backslash \\ so that no two names look alike. */
static void escaped(char *out, size_t len, const char *s)
{
	size_t o = 0;

	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		char e[8];

		if (ch == '\\')
			snprintf(e, sizeof e, "\\\\");
		else if (ch == '\n')
			snprintf(e, sizeof e, "\\n");
		else if (ch == '\t')
			snprintf(e, sizeof e, "\\t");
		else if (ch == '\r')
			snprintf(e, sizeof e, "\\r");
		else if (ch < 0x20 || ch == 0x7f)
			snprintf(e, sizeof e, "\\x%02x", ch);
		else
			snprintf(e, sizeof e, "%c", ch);
		if (o + strlen(e) >= len)
			break;
		memcpy(out + o, e, strlen(e));
		o += strlen(e);
	}
	out[o] = '\0';
}

/* The cells of one row as text; shared by text and Markdown. */
static void cells(const struct row *r, char cell[C_COUNT][192])
{
	char lo[32], hi[32];

	escaped(cell[C_NAME], 192, r->name);
	snprintf(cell[C_NA], 192, "%zu", r->a ? r->a->n : 0);
	snprintf(cell[C_NB], 192, "%zu", r->b ? r->b->n : 0);
	num(cell[C_MEDA], 192, r->med_a);
	num(cell[C_MEDB], 192, r->med_b);
	pct(cell[C_CHANGE], 192, expm1(r->change));
	if (isnan(r->lo) || (isinf(r->lo) && isinf(r->hi))) {
		snprintf(cell[C_CI], 192, "-");
	} else {
		pct(lo, sizeof lo, expm1(r->lo));
		pct(hi, sizeof hi, expm1(r->hi));
		snprintf(cell[C_CI], 192, "%s..%s", lo, hi);
	}
	if (isnan(r->spread_a))
		snprintf(cell[C_SPA], 192, "-");
	else
		snprintf(cell[C_SPA], 192, "%.2f", 100 * r->spread_a);
	if (isnan(r->spread_b))
		snprintf(cell[C_SPB], 192, "-");
	else
		snprintf(cell[C_SPB], 192, "%.2f", 100 * r->spread_b);
	if (isnan(r->p_adj))
		snprintf(cell[C_P], 192, "-");
	else
		snprintf(cell[C_P], 192, "%.4f", r->p_adj);
	snprintf(cell[C_VERDICT], 192, "%s", verdict_name[r->v]);
	escaped(cell[C_NOTE], 192, r->note);
}

static bool listed(const struct row *r, const struct config *c)
{
	return !c->only_changed || r->v != V_UNCHANGED;
}

static const char *adjust_name(enum ti_stats_adjust a)
{
	return a == TI_STATS_ADJUST_HOLM ? "holm" : a == TI_STATS_ADJUST_BH ? "bh" : "none";
}

static void summary_lines(struct ti_buf *o, const struct row *rows, size_t n,
			  const struct geomean *g, const struct config *c, const char *prefix)
{
	size_t count[V_COUNT] = { 0 };
	char lo[32], hi[32], mid[32];

	for (size_t i = 0; i < n; i++)
		count[rows[i].v]++;
	if (g->n) {
		pct(mid, sizeof mid, g->ratio - 1);
		pct(lo, sizeof lo, g->lo - 1);
		pct(hi, sizeof hi, g->hi - 1);
		ti_buf_printf(o, "%sgeometric mean of B/A: %s (%.0f%% bootstrap CI %s..%s, %zu benchmark%s)\n",
			      prefix, mid, 100 * (1 - c->alpha), lo, hi, g->n, g->n == 1 ? "" : "s");
	} else {
		ti_buf_printf(o, "%sgeometric mean of B/A: - (%s)\n", prefix, NO_GEOMEAN);
	}
	ti_buf_printf(o, "%s", prefix);
	for (int v = 0; v < V_COUNT; v++)
		ti_buf_printf(o, "%s%zu %s", v ? ", " : "", count[v], verdict_name[v]);
	ti_buf_printf(o, "\n%smetric %s, alpha %g (%s), min change %g%%%s\n", prefix, c->metric,
		      c->alpha, adjust_name(c->adjust), c->min_change,
		      c->floor_a ? ", noise floor from A/A" : "");
}

static const char *verdict_color(enum verdict v)
{
	switch (v) {
	case V_REGRESSED: return "\033[31m";
	case V_IMPROVED: return "\033[32m";
	case V_NOISY: return "\033[33m";
	case V_MISSING: case V_FAILED: return "\033[35m";
	default: return NULL;
	}
}

static void format_text(struct ti_buf *o, const struct row *rows, size_t n,
			const struct geomean *g, const struct config *c)
{
	size_t w[C_COUNT];
	char cell[C_COUNT][192];

	for (int k = 0; k < C_COUNT; k++)
		w[k] = strlen(col_title[k]);
	for (size_t i = 0; i < n; i++) {
		if (!listed(&rows[i], c))
			continue;
		cells(&rows[i], cell);
		for (int k = 0; k < C_COUNT; k++)
			if (strlen(cell[k]) > w[k])
				w[k] = strlen(cell[k]);
	}
	for (size_t i = 0; i <= n; i++) {
		if (i > 0 && !listed(&rows[i - 1], c))
			continue;
		if (i == 0)
			for (int k = 0; k < C_COUNT; k++)
				snprintf(cell[k], sizeof cell[k], "%s", col_title[k]);
		else
			cells(&rows[i - 1], cell);
		const char *col = i > 0 && c->color ? verdict_color(rows[i - 1].v) : NULL;
		for (int k = 0; k < C_COUNT; k++) {
			bool left = k == C_NAME || k == C_VERDICT || k == C_NOTE;
			if (k == C_NOTE && !cell[k][0])
				break;
			if (k)
				ti_buf_append(o, "  ", 2);
			if (k == C_VERDICT && col)
				ti_buf_printf(o, "%s", col);
			ti_buf_printf(o, left ? "%-*s" : "%*s", k == C_NOTE ? 0 : (int)w[k], cell[k]);
			if (k == C_VERDICT && col)
				ti_buf_printf(o, "\033[0m");
		}
		/* Trailing blanks from padding the last printed cell. */
		while (o->len && o->data[o->len - 1] == ' ')
			o->data[--o->len] = '\0';
		ti_buf_append(o, "\n", 1);
	}
	ti_buf_append(o, "\n", 1);
	summary_lines(o, rows, n, g, c, "");
}

static void md_escape(struct ti_buf *o, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			ti_buf_append(o, "\\", 1);
		ti_buf_append(o, s, 1);
	}
}

static void format_md(struct ti_buf *o, const struct row *rows, size_t n,
		      const struct geomean *g, const struct config *c)
{
	char cell[C_COUNT][192];

	ti_buf_printf(o, "|");
	for (int k = 0; k < C_COUNT; k++)
		ti_buf_printf(o, " %s |", col_title[k]);
	ti_buf_printf(o, "\n|");
	for (int k = 0; k < C_COUNT; k++)
		ti_buf_printf(o, k == C_NAME || k >= C_VERDICT ? ":---|" : "---:|");
	ti_buf_printf(o, "\n");
	for (size_t i = 0; i < n; i++) {
		if (!listed(&rows[i], c))
			continue;
		cells(&rows[i], cell);
		ti_buf_printf(o, "|");
		for (int k = 0; k < C_COUNT; k++) {
			bool bold = k == C_VERDICT && rows[i].v == V_REGRESSED;
			ti_buf_printf(o, " %s", bold ? "**" : "");
			md_escape(o, cell[k]);
			ti_buf_printf(o, "%s |", bold ? "**" : "");
		}
		ti_buf_printf(o, "\n");
	}
	ti_buf_printf(o, "\n");
	summary_lines(o, rows, n, g, c, "- ");
}

static void csv_field(struct ti_buf *o, const char *s)
{
	/* RFC 4180: quote fields holding a comma, quote or line break. */
	if (!strpbrk(s, ",\"\r\n")) {
		ti_buf_printf(o, "%s", s);
		return;
	}
	ti_buf_append(o, "\"", 1);
	for (; *s; s++) {
		if (*s == '"')
			ti_buf_append(o, "\"", 1);
		ti_buf_append(o, s, 1);
	}
	ti_buf_append(o, "\"", 1);
}

static void csv_num(struct ti_buf *o, double v)
{
	if (isfinite(v))
		ti_buf_printf(o, ",%.9g", v);
	else if (isinf(v))
		ti_buf_printf(o, ",%s", v > 0 ? "inf" : "-inf");
	else
		ti_buf_printf(o, ",");
}

static void format_csv(struct ti_buf *o, const struct row *rows, size_t n, const struct config *c)
{
	ti_buf_printf(o, "benchmark,n_a,n_b,median_a,median_b,change,ci_low,ci_high,"
			 "mad_a,mad_b,p,p_adjusted,verdict,code,note\n");
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		if (!listed(r, c))
			continue;
		csv_field(o, r->name);
		ti_buf_printf(o, ",%zu,%zu", r->a ? r->a->n : 0, r->b ? r->b->n : 0);
		csv_num(o, r->med_a);
		csv_num(o, r->med_b);
		csv_num(o, expm1(r->change));
		csv_num(o, isfinite(r->lo) ? expm1(r->lo) : NAN);
		csv_num(o, isfinite(r->hi) ? expm1(r->hi) : NAN);
		csv_num(o, r->spread_a);
		csv_num(o, r->spread_b);
		csv_num(o, r->p);
		csv_num(o, r->p_adj);
		ti_buf_printf(o, ",%s,%s,", verdict_name[r->v],
			      r->code == CODE_SAME ? "same" : r->code == CODE_CHANGED ? "changed" : "");
		csv_field(o, r->note);
		ti_buf_printf(o, "\n");
	}
}

/* JSON numbers: NaN and infinities become null (ti_json_double). */
static void format_json(struct ti_buf *o, const struct row *rows, size_t n,
			const struct geomean *g, const struct config *c, int status)
{
	struct ti_json j;
	size_t count[V_COUNT] = { 0 };

	ti_json_init(&j, o);
	ti_json_object(&j, NULL);
	ti_json_string(&j, "metric", c->metric);
	ti_json_double(&j, "alpha", c->alpha);
	ti_json_string(&j, "adjust", adjust_name(c->adjust));
	ti_json_double(&j, "min_change", c->min_change / 100);
	ti_json_bool(&j, "noise_floor", c->floor_a != NULL);
	ti_json_array(&j, "benchmarks");
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		count[r->v]++;
		if (!listed(r, c))
			continue;
		ti_json_object(&j, NULL);
		ti_json_string(&j, "name", r->name);
		ti_json_uint(&j, "n_a", r->a ? r->a->n : 0);
		ti_json_uint(&j, "n_b", r->b ? r->b->n : 0);
		ti_json_uint(&j, "failures_a", r->a ? r->a->failures : 0);
		ti_json_uint(&j, "failures_b", r->b ? r->b->failures : 0);
		ti_json_double(&j, "median_a", r->med_a);
		ti_json_double(&j, "median_b", r->med_b);
		ti_json_double(&j, "mad_a", r->spread_a);
		ti_json_double(&j, "mad_b", r->spread_b);
		ti_json_double(&j, "change", expm1(r->change));
		ti_json_double(&j, "hl_change", expm1(r->hl));
		ti_json_double(&j, "ci_low", isfinite(r->lo) ? expm1(r->lo) : NAN);
		ti_json_double(&j, "ci_high", isfinite(r->hi) ? expm1(r->hi) : NAN);
		ti_json_double(&j, "p", r->p);
		ti_json_double(&j, "p_adjusted", r->p_adj);
		ti_json_double(&j, "noise_floor", expm1(r->floor));
		ti_json_string(&j, "code", r->code == CODE_SAME ? "same"
				 : r->code == CODE_CHANGED ? "changed" : NULL);
		ti_json_double(&j, "instructions_change", r->insn_change);
		ti_json_string(&j, "verdict", verdict_name[r->v]);
		ti_json_bool(&j, "gating", r->gating);
		ti_json_string(&j, "note", r->note);
		ti_json_end(&j, '}');
	}
	ti_json_end(&j, ']');
	ti_json_object(&j, "geomean");
	ti_json_uint(&j, "n", g->n);
	ti_json_double(&j, "ratio", g->ratio);
	ti_json_double(&j, "ci_low", g->lo);
	ti_json_double(&j, "ci_high", g->hi);
	ti_json_uint(&j, "seed", c->seed);
	ti_json_uint(&j, "resamples", c->reps);
	ti_json_end(&j, '}');
	ti_json_object(&j, "counts");
	for (int v = 0; v < V_COUNT; v++)
		ti_json_uint(&j, verdict_name[v], count[v]);
	ti_json_end(&j, '}');
	ti_json_int(&j, "status", status);
	ti_json_end(&j, '}');
	ti_buf_append(o, "\n", 1);
}

/* ---- SVG ------------------------------------------------------------- */

static void xml_text(struct ti_buf *o, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': ti_buf_printf(o, "&lt;"); break;
		case '>': ti_buf_printf(o, "&gt;"); break;
		case '&': ti_buf_printf(o, "&amp;"); break;
		case '"': ti_buf_printf(o, "&quot;"); break;
		default:
			/* XML 1.0 forbids most control characters even escaped. */
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				ti_buf_append(o, s, 1);
		}
	}
}

static int cmp_change(const void *x, const void *y)
{
	const struct row *a = *(const struct row *const *)x, *b = *(const struct row *const *)y;
	return (a->change > b->change) - (a->change < b->change);
}

static const char *svg_color(enum verdict v)
{
	switch (v) {
	case V_REGRESSED: return "#c62828";
	case V_IMPROVED: return "#2e7d32";
	case V_NOISY: return "#ef8f00";
	default: return "#757575";
	}
}

/* A dot per benchmark at its change, a bar for its confidence interval,
 * sorted from the largest improvement to the largest regression. */
static void format_svg(struct ti_buf *o, const struct row *rows, size_t n, const struct geomean *g,
		       const struct config *c)
{
	const struct row **s = malloc((n ? n : 1) * sizeof *s);
	size_t k = 0, label_chars = 12;
	double range = 0.01, step;
	char t[64];

	if (!s)
		oom();
	for (size_t i = 0; i < n; i++) {
		if (!listed(&rows[i], c) || rows[i].v == V_MISSING || rows[i].v == V_FAILED ||
		    !isfinite(rows[i].change))
			continue;
		s[k++] = &rows[i];
		range = fmax(range, fabs(expm1(rows[i].change)));
		if (strlen(rows[i].name) > label_chars)
			label_chars = strlen(rows[i].name);
	}
	qsort(s, k, sizeof *s, cmp_change);
	if (label_chars > 48)
		label_chars = 48;
	/* Confidence intervals may be far wider than the changes; show them
	 * up to 1.5 times the largest change and clip the rest at the edge. */
	range *= 1.5;
	/* About three grid lines a side at 1, 2 or 5 times a power of ten. */
	step = range / 3;
	double mag = pow(10, floor(log10(step))), norm = step / mag;
	step = (norm < 1.5 ? 1 : norm < 3.5 ? 2 : norm < 7.5 ? 5 : 10) * mag;

	const double row_h = 18, top = 48, label_w = 7.0 * (double)label_chars + 16;
	const double plot_w = 480, left = label_w + 10, right_pad = 76;
	const double width = left + plot_w + right_pad;
	const double height = top + row_h * (double)(k ? k : 1) + 56;
	double zero = left + plot_w / 2;
#define X(v) (zero + (fmax(-range, fmin(range, (v))) / range) * (plot_w / 2))

	ti_buf_printf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
			 "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Arial, sans-serif\" "
			 "font-size=\"12\">\n", width, height, width, height);
	ti_buf_printf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	ti_buf_printf(o, "<text x=\"%.1f\" y=\"20\" font-size=\"14\" font-weight=\"bold\">"
			 "Change of ", left);
	xml_text(o, c->metric);
	ti_buf_printf(o, ", B vs A (median, %.0f%% CI)</text>\n", 100 * (1 - c->alpha));
	ti_buf_printf(o, "<text x=\"%.1f\" y=\"36\" fill=\"#555\">", left);
	if (g->n) {
		pct(t, sizeof t, g->ratio - 1);
		ti_buf_printf(o, "geometric mean %s over %zu benchmarks; ", t, g->n);
	}
	ti_buf_printf(o, "<tspan fill=\"%s\">regressed</tspan> <tspan fill=\"%s\">improved</tspan> "
			 "<tspan fill=\"%s\">noisy</tspan> <tspan fill=\"%s\">unchanged</tspan></text>\n",
		      svg_color(V_REGRESSED), svg_color(V_IMPROVED), svg_color(V_NOISY),
		      svg_color(V_UNCHANGED));
	/* Grid and axis labels. */
	double bottom = top + row_h * (double)(k ? k : 1);
	for (double v = -floor(range / step) * step; v <= range + 1e-12; v += step) {
		double x = X(v);
		bool axis = fabs(v) < step / 2;
		ti_buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				 "stroke-width=\"%s\"/>\n", x, top - 4, x, bottom + 4,
			      axis ? "#000" : "#ddd", axis ? "1.5" : "1");
		ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			      x, bottom + 20);
		ti_buf_printf(o, axis ? "0%%" : "%+.3g%%", 100 * v);
		ti_buf_printf(o, "</text>\n");
	}
	ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555\">"
			 "faster \u2190   B vs A   \u2192 slower</text>\n", zero, bottom + 40);
	for (size_t i = 0; i < k; i++) {
		const struct row *r = s[i];
		double y = top + row_h * (double)i + row_h / 2;
		const char *col = svg_color(r->v);
		char name[64];

		if (i % 2)
			ti_buf_printf(o, "<rect x=\"0\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
					 "fill=\"#f4f4f4\"/>\n", y - row_h / 2, width, row_h);
		snprintf(name, sizeof name, "%s", r->name);
		if (strlen(r->name) > label_chars)
			snprintf(name, sizeof name, "\u2026%s", r->name + strlen(r->name) - label_chars + 1);
		ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", label_w, y + 4);
		xml_text(o, name);
		ti_buf_printf(o, "</text>\n");
		if (!isnan(r->lo)) {
			double x1 = X(isinf(r->lo) ? -range : expm1(r->lo));
			double x2 = X(isinf(r->hi) ? range : expm1(r->hi));
			ti_buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
					 "stroke=\"%s\" stroke-width=\"3\" stroke-opacity=\"0.45\"/>\n",
				      x1, y, x2, y, col);
		}
		ti_buf_printf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\"><title>",
			      X(expm1(r->change)), y, col);
		pct(t, sizeof t, expm1(r->change));
		xml_text(o, r->name);
		ti_buf_printf(o, ": %s, %s</title></circle>\n", t, verdict_name[r->v]);
		/* The value in a column right of the plot, clear of the bars. */
		ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" text-anchor=\"end\">"
				 "%s</text>\n", width - 8, y + 4, col, t);
	}
	if (!k)
		ti_buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
				 "%s</text>\n", zero, top + row_h / 2 + 4,
			      g->n ? "only unchanged benchmarks (--only-changed)" : NO_GEOMEAN);
	ti_buf_printf(o, "</svg>\n");
#undef X
	free(s);
}

static void write_svg(const struct config *c, const struct row *rows, size_t n,
		      const struct geomean *g)
{
	struct ti_outfile of;
	struct ti_buf o = { 0 };
	int rc;

	if ((rc = ti_outfile_prepare(&of, c->svg)) < 0) {
		fprintf(stderr, "timeit-compare: --svg: %s: %s\n", c->svg, strerror(-rc));
		exit(EXIT_ERROR);
	}
	format_svg(&o, rows, n, g, c);
	rc = o.failed ? -ENOMEM : ti_outfile_commit(&of, o.data, o.len);
	if (rc < 0) {
		if (o.failed)
			ti_outfile_abort(&of);
		fprintf(stderr, "timeit-compare: --svg: %s: %s\n", c->svg, strerror(-rc));
		exit(EXIT_ERROR);
	}
	ti_buf_free(&o);
}

int main(int argc, char **argv)
{
	struct config c;
	struct ti_readers_set sa = { 0 }, sb = { 0 }, fa = { 0 }, fb = { 0 };
	struct ti_buf out = { 0 };
	struct row *rows;
	struct geomean g;
	size_t n;
	int status = EXIT_OK;

	parse_args(argc, argv, &c);
	load_side(&sa, c.a, c.na, c.metric);
	load_side(&sb, c.b, c.nb, c.metric);
	if (c.floor_a) {
		load_side(&fa, &c.floor_a, 1, c.metric);
		load_side(&fb, &c.floor_b, 1, c.metric);
	}
	rows = build_rows(&c, &sa, &sb, c.floor_a ? &fa : NULL, c.floor_b ? &fb : NULL, &n);
	adjust_and_decide(rows, n, &c);
	g = geomean(rows, n, &c);
	for (size_t i = 0; i < n; i++) {
		if (c.strict && strict_gate(&rows[i]))
			rows[i].gating = true;
		if (rows[i].gating)
			status = EXIT_REGRESSED;
	}
	if (c.strict && n == 0) {
		fprintf(stderr, "timeit-compare: --strict: no benchmark to compare\n");
		status = EXIT_REGRESSED;
	}

	switch (c.format) {
	case FMT_TEXT: format_text(&out, rows, n, &g, &c); break;
	case FMT_MD: format_md(&out, rows, n, &g, &c); break;
	case FMT_CSV: format_csv(&out, rows, n, &c); break;
	case FMT_JSON: format_json(&out, rows, n, &g, &c, status); break;
	}
	if (out.failed)
		oom();
	if (c.svg)
		write_svg(&c, rows, n, &g);
	if (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
		fprintf(stderr, "timeit-compare: stdout: %s\n", strerror(errno));
		status = EXIT_ERROR;
	}
	ti_buf_free(&out);
	free(rows);
	ti_readers_free(&sa);
	ti_readers_free(&sb);
	ti_readers_free(&fa);
	ti_readers_free(&fb);
	free(c.a);
	free(c.b);
	if (c.has_pattern)
		regfree(&c.pattern);
	return status;
}
