/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* compare.c: timeit-compare, A/B verdicts for two sets of benchmark
 * results.  Only the command line: the readers, the verdict model and the
 * reports are lib/ab's (read.h, verdict.h, report.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "outfile.h"
#include "read.h"
#include "report.h"
#include "stats.h"
#include "suggest.h"
#include "util.h"
#include "verdict.h"

/* Exit statuses (documented in timeit-compare.1). */
enum {
	EXIT_OK = 0,		/* no significant regression */
	EXIT_REGRESSED = 1,	/* at least one regression beyond the gates */
	EXIT_ERROR = 2,		/* usage or input error */
};

struct config {
	const char **a, **b;	/* input paths per side */
	size_t na, nb;
	const char *floor_a, *floor_b;	/* --noise-floor A1 A2 */
	struct ti_ab_config ab;	/* what the verdicts depend on */
	struct ti_ab_report_opts report;
	int no_color;
	regex_t pattern;
	bool has_pattern;
	const char *svg;
	const char *bin_a, *bin_b;	/* --binaries DA DB */
	bool undecided;			/* --undecided */
	bool check;			/* --check: the options only */
};

static const struct option_help {
	const char *left, *help;
} help[] = {
	{ "-a PATH", "add PATH to side A (the baseline); one per round" },
	{ "-b PATH", "add PATH to side B (the candidate); one per round" },
	{ "-m, --metric NAME", "exec_time (user time; default), real, sys, maxrss," },
	{ "", "compile_time, link_time, compile_wall, link_wall," },
	{ "", "compile_maxrss, link_maxrss, compile_KEY, link_KEY," },
	{ "", "code_size, any summary key, or hash (compare binary" },
	{ "", "identities only)" },
	{ "--alpha P", "significance level (1e-12 to 0.25; default 0.05)" },
	{ "--min-change PCT", "the gate: a change needs |B/A-1| >= PCT %, and" },
	{ "", "'unchanged' an interval within +-PCT % (default 1)" },
	{ "--fdr", "control the false discovery rate (the default)" },
	{ "--holm", "control the family-wise error rate instead" },
	{ "--no-adjust", "no multiple-comparison adjustment" },
	{ "--paired", "pair the rounds where both sides have the same" },
	{ "", "ones (the default: rounds are pairs by design)" },
	{ "--unpaired", "never pair them: compare all samples" },
	{ "--rank", "rank tests only (signed rank, Mann-Whitney): exact," },
	{ "", "but p has a floor and unpaired assumes equal spreads" },
	{ "--drop-flagged", "leave out samples timeit's noise screen flagged" },
	{ "--looks N", "a sequential driver looks up to N times (alpha/N)" },
	{ "--spent-looks K", "K of those N looks came before this, the run's" },
	{ "", "last analysis: it spends the rest, alpha (N-K)/N" },
	{ "--binaries DA DB", "binary identity from the executables in DA, DB" },
	{ "--noise-floor A1 A2", "per-benchmark noise from two runs of one build" },
	{ "--filter-short S", "leave out benchmarks whose medians are below S" },
	{ "--only-changed", "list only the benchmarks that are not unchanged" },
	{ "--undecided", "print just the names more samples could decide" },
	{ "--check", "check the options, read no input, exit 0 or 2" },
	{ "--strict", "exit 1 also on a failed run, a benchmark B lost," },
	{ "", "or nothing compared" },
	{ "-p, --pattern REGEX", "only benchmarks whose name matches (POSIX ERE)" },
	{ "--format FMT", "text (default), md, csv or json" },
	{ "--no-color", "no colours even on a terminal (also --no-colour," },
	{ "", "or the environment variable NO_COLOR)" },
	{ "--svg FILE", "also plot the changes and intervals to FILE" },
	{ "--bootstrap N", "geometric mean's interval by a bootstrap of N" },
	{ "", "resamples (100-10000000), not by t" },
	{ "--seed N", "the bootstrap's seed (default 1)" },
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
		fprintf(f, "  %-22s %s\n", help[i].left, help[i].help);
	fprintf(f, "\nVerdicts: improved, regressed (significant and beyond the gate), unchanged\n"
		   "(shown within the gate, or the same binary), undecided (neither: the reason\n"
		   "says why), changed (-m hash), missing, failed.\n"
		   "Exit status: 0 no regression, 1 a regression (with --strict also a failed run,\n"
		   "a benchmark B lost, or nothing compared), 2 usage or input error (not 1: that\n"
		   "means a regression to a CI gate).  See timeit-compare(1).\n");
	if (TI_BUG_URL[0])
		fprintf(f, "\nReport bugs to: %s\n", TI_BUG_URL);
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

/* The long options the parser below accepts, for "did you mean". */
static const char *const long_options[] = {
	"--alpha", "--binaries", "--bootstrap", "--drop-flagged", "--fdr", "--filter-short",
	"--format", "--help", "--holm", "--looks", "--metric", "--min-change", "--no-adjust",
	"--no-color", "--no-colour", "--noise-floor", "--only-changed", "--paired",
	"--pattern", "--rank", "--seed", "--strict", "--svg", "--undecided", "--unpaired",
	"--version",
	"--spent-looks",
};

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

/* A path given twice on one side would count every sample twice, as two
 * rounds: refuse it (the same file by two names too). */
static void same_twice(const char *const *paths, size_t n, const char *opt)
{
	for (size_t i = 0; i < n; i++) {
		struct stat si, sj;
		if (stat(paths[i], &si) < 0)
			continue;	/* reported when it is read */
		for (size_t j = 0; j < i; j++)
			if (stat(paths[j], &sj) == 0 && si.st_dev == sj.st_dev &&
			    si.st_ino == sj.st_ino)
				usage_error("%s '%s' and %s '%s' are the same %s: each path is one "
					    "round of samples", opt, paths[j], opt, paths[i],
					    S_ISDIR(si.st_mode) ? "directory" : "file");
	}
}

/* The plot must not replace a result it was made from: an --svg path that
 * is one of the input files, or named as a summary file that a results
 * directory would read (NAME.I.time) -- a typo that would destroy a
 * sample.  Checked before anything is read or written. */
static void svg_not_an_input(const struct config *c)
{
	for (size_t i = 0; i < c->na + c->nb + 2; i++) {
		const char *p = i < c->na ? c->a[i] : i < c->na + c->nb ? c->b[i - c->na]
			      : i == c->na + c->nb ? c->floor_a : c->floor_b;
		if (p && ti_outfile_same(c->svg, p))
			usage_error("--svg '%s' is the input '%s'", c->svg, p);
	}
	if (ti_ab_read_is_summary(c->svg))
		usage_error("--svg '%s' is named like a summary file (*.time), which results "
			    "directories are read for", c->svg);
}

static void parse_args(int argc, char **argv, struct config *c)
{
	const char *pos[2];
	size_t npos = 0;
	bool opts = true;
	long spent = -1;	/* --spent-looks */

	memset(c, 0, sizeof *c);
	ti_ab_config_init(&c->ab);
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
			    IS("--no-colour") || IS("--holm") || IS("--unpaired") || IS("--paired") || IS("--rank") ||
			    IS("--drop-flagged") || IS("--undecided") || IS("--check")))
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
			c->ab.metric = VALUE();
			if (!*c->ab.metric)
				usage_error("%s: empty metric name", name);
		} else if (IS("--alpha")) {
			/* The equivalence interval's level is 1 - 2 alpha. */
			c->ab.alpha = number_arg(name, VALUE(), 1e-12, 0.25, "1e-12 to 0.25");
		} else if (IS("--min-change")) {
			c->ab.min_change = number_arg(name, VALUE(), 0, 1000, "0 to 1000");
		} else if (IS("--filter-short")) {
			c->ab.filter_short = number_arg(name, VALUE(), 0, 1e12, "0 to 1e12");
		} else if (IS("--fdr")) {
			c->ab.adjust = TI_STATS_ADJUST_BH;
		} else if (IS("--holm")) {
			c->ab.adjust = TI_STATS_ADJUST_HOLM;
		} else if (IS("--unpaired")) {
			c->ab.pairing = TI_AB_PAIR_NEVER;
		} else if (IS("--paired")) {
			c->ab.pairing = TI_AB_PAIR_ALWAYS;
		} else if (IS("--rank")) {
			c->ab.paired_test = TI_AB_SIGNED_RANK;
			c->ab.unpaired_test = TI_AB_MANN_WHITNEY;
		} else if (IS("--drop-flagged")) {
			c->ab.drop_flagged = true;
		} else if (IS("--undecided")) {
			c->undecided = true;
		} else if (IS("--check")) {
			c->check = true;
		} else if (IS("--looks")) {
			const char *s = VALUE();
			uint64_t v;
			int rc = ti_parse_u64(s, &v);
			if (rc == -EINVAL)
				usage_error("%s: invalid number '%s'", name, s);
			if (rc < 0 || v < 1 || v > 1000)
				usage_error("%s: '%s' is out of range (1 to 1000)", name, s);
			c->ab.looks = (unsigned)v;
		} else if (IS("--spent-looks")) {
			const char *s = VALUE();
			uint64_t v;
			int rc = ti_parse_u64(s, &v);
			if (rc == -EINVAL)
				usage_error("%s: invalid number '%s'", name, s);
			if (rc < 0 || v > 999)
				usage_error("%s: '%s' is out of range (0 to 999)", name, s);
			spent = (long)v;
		} else if (IS("--binaries")) {
			if (val || i + 2 >= argc)
				usage_error("--binaries: needs two directories, DA DB");
			c->bin_a = argv[++i];
			c->bin_b = argv[++i];
		} else if (IS("--no-adjust")) {
			c->ab.adjust = TI_STATS_ADJUST_NONE;
		} else if (IS("--noise-floor")) {
			if (val || i + 2 >= argc)
				usage_error("--noise-floor: needs two paths, A1 A2");
			c->floor_a = argv[++i];
			c->floor_b = argv[++i];
		} else if (IS("--only-changed")) {
			c->report.only_changed = true;
		} else if (IS("--strict")) {
			c->ab.strict = true;
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
				c->report.format = TI_AB_TEXT;
			else if (strcmp(f, "md") == 0)
				c->report.format = TI_AB_MD;
			else if (strcmp(f, "csv") == 0)
				c->report.format = TI_AB_CSV;
			else if (strcmp(f, "json") == 0)
				c->report.format = TI_AB_JSON;
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
			*(IS("--seed") ? &c->ab.seed : &c->ab.reps) = v;
			if (IS("--bootstrap"))
				c->ab.geo = TI_AB_GEO_BOOTSTRAP;
		} else {
			const char *near = ti_suggest(arg, long_options,
						      sizeof long_options / sizeof long_options[0]);
			if (near)
				usage_error("unknown option '%s' (did you mean %s?)", arg, near);
			usage_error("unknown option '%s'", arg);
		}
#undef IS
#undef VALUE
	}
	/* The run's last analysis after SPENT of its looks: look SPENT + 1,
	 * spending the rest of alpha. */
	if (spent >= 0 && (unsigned long)spent >= c->ab.looks)
		usage_error("--spent-looks: %ld is not below --looks %u", spent, c->ab.looks);
	if (spent >= 0) {
		c->ab.look = (unsigned)spent + 1;
		c->ab.last = true;
	}
	/* A driver's options checked before its first round (timeit-ab -C). */
	if (c->check && !npos && !c->na && !c->nb)
		exit(EXIT_OK);
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
	same_twice(c->a, c->na, "-a");
	same_twice(c->b, c->nb, "-b");
	if (c->svg)
		svg_not_an_input(c);
	if (c->check)
		exit(EXIT_OK);
	c->report.color = !c->no_color && c->report.format == TI_AB_TEXT && isatty(STDOUT_FILENO) &&
		   !getenv("NO_COLOR");
}

static void oom(void)
{
	fprintf(stderr, "timeit-compare: %s\n", strerror(ENOMEM));
	exit(EXIT_ERROR);
}

static bool keep(const char *name, void *arg)
{
	const struct config *c = arg;
	return !c->has_pattern || regexec(&c->pattern, name, 0, NULL, 0) == 0;
}

/* Print the reader's error and exit 2. */
__attribute__((noreturn))
static void input_error(const char *path, int rc, const struct ti_ab_error *err)
{
	if (rc == -ENOMEM)
		fprintf(stderr, "timeit-compare: %s: %s\n", path, strerror(ENOMEM));
	else if (err->line > 0)
		fprintf(stderr, "timeit-compare: %s:%d: %s\n", err->path, err->line, err->what);
	else
		fprintf(stderr, "timeit-compare: %s: %s\n", err->path, err->what);
	exit(EXIT_ERROR);
}

/* Load the paths of one side (the K-th path is round K's); on error print
 * it and exit 2. */
static void load_side(struct ti_ab_set *set, const char *const *paths, size_t n,
		      const char *metric, const char *side)
{
	struct ti_ab_error err;
	bool any = false;
	/* -m hash compares identities, which every reader takes along with
	 * the runs of the default metric. */
	const char *read = strcmp(metric, "hash") == 0 ? "exec_time" : metric;

	for (size_t i = 0; i < n; i++) {
		int rc = ti_ab_read(set, paths[i], read, (unsigned)(i + 1), &err);
		if (rc < 0)
			input_error(paths[i], rc, &err);
	}
	if (set->skipped)
		fprintf(stderr, "timeit-compare: warning: %s: left out %zu unreadable director%s "
			"(%s)\n", side, set->skipped, set->skipped == 1 ? "y" : "ies",
			set->skipped_first);
	for (size_t i = 0; i < set->n; i++)
		any |= set->b[i].ok > 0 || set->b[i].failures > 0;
	if (!any) {
		fprintf(stderr, "timeit-compare: %s: no run has the metric '%s'\n", paths[0], metric);
		exit(EXIT_ERROR);
	}
	ti_ab_sort(set);
}

/* -m hash: some benchmark of each side must have an identity. */
static void need_hashes(const struct ti_ab_set *a, const struct ti_ab_set *b)
{
	for (int side = 0; side < 2; side++) {
		const struct ti_ab_set *s = side ? b : a;
		bool any = false;
		for (size_t i = 0; i < s->n; i++)
			any |= s->b[i].hash != NULL;
		if (!any) {
			fprintf(stderr, "timeit-compare: -m hash: no benchmark of side %s has a binary "
				"identity (give --binaries, or lit or LNT results with a hash)\n",
				side ? "B" : "A");
			exit(EXIT_ERROR);
		}
	}
}

/* --binaries: identities from the executables. */
static void load_binaries(struct ti_ab_set *set, const char *dir)
{
	struct ti_ab_error err;
	int rc = ti_ab_read_binaries(set, dir, &err);

	if (rc < 0)
		input_error(dir, rc, &err);
	if (rc == 0)
		fprintf(stderr, "timeit-compare: warning: --binaries: %s: no benchmark's binary "
			"found there\n", dir);
}

/* Hold off the signals that would end the program while a result file
 * is half made: its temporary file is either put in place or removed,
 * and the signal acts after (BLOCK false restores the mask). */
static void hold_signals(bool block)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
				    SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPIPE };
	static sigset_t old;
	sigset_t set;

	if (!block) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return;
	}
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
}

static void write_svg(const struct config *c, const struct ti_ab_result *r)
{
	struct ti_outfile of;
	struct ti_buf o = { 0 };
	int rc;

	hold_signals(true);
	if ((rc = ti_outfile_prepare(&of, c->svg)) < 0) {
		fprintf(stderr, "timeit-compare: --svg: %s: %s\n", c->svg, strerror(-rc));
		exit(EXIT_ERROR);
	}
	ti_ab_report_svg(&o, r, &c->ab, &c->report);
	rc = o.failed ? -ENOMEM : ti_outfile_commit(&of, o.data, o.len);
	if (rc < 0) {
		if (o.failed)
			ti_outfile_abort(&of);
		fprintf(stderr, "timeit-compare: --svg: %s: %s\n", c->svg, strerror(-rc));
		exit(EXIT_ERROR);
	}
	hold_signals(false);
	ti_buf_free(&o);
}

/* Two sides with benchmarks but none in common are two different suites
 * (or names that did not align), not a comparison: every row would be
 * "missing".  An error naming a benchmark of each. */
static void no_common(const struct ti_ab_set *a, const struct ti_ab_set *b, const struct config *c)
{
	if (a->n == 0 || b->n == 0)
		return;
	for (size_t i = 0; i < a->n; i++)
		if (ti_ab_find(b, a->b[i].name))
			return;
	fprintf(stderr, "timeit-compare: no benchmark in common: A (%s%s) has %zu, e.g. '%s'; "
		"B (%s%s) has %zu, e.g. '%s'\n", c->a[0], c->na > 1 ? ", ..." : "", a->n,
		a->b[0].name, c->b[0], c->nb > 1 ? ", ..." : "", b->n, b->b[0].name);
	exit(EXIT_ERROR);
}

int main(int argc, char **argv)
{
	struct config c;
	struct ti_ab_set sa = { 0 }, sb = { 0 }, fa = { 0 }, fb = { 0 };
	struct ti_buf out = { 0 };
	struct ti_ab_result r;
	int status = EXIT_OK;

	parse_args(argc, argv, &c);
	load_side(&sa, c.a, c.na, c.ab.metric, "A");
	load_side(&sb, c.b, c.nb, c.ab.metric, "B");
	/* A results directory's tak is its report's SingleSource/.../tak. */
	if (ti_ab_align(&sa, &sb) < 0) {
		fprintf(stderr, "timeit-compare: %s\n", strerror(ENOMEM));
		return EXIT_ERROR;
	}
	no_common(&sa, &sb, &c);
	if (c.floor_a) {
		load_side(&fa, &c.floor_a, 1, c.ab.metric, "noise floor A1");
		load_side(&fb, &c.floor_b, 1, c.ab.metric, "noise floor A2");
	}
	if (c.bin_a) {
		load_binaries(&sa, c.bin_a);
		load_binaries(&sb, c.bin_b);
	}
	if (strcmp(c.ab.metric, "hash") == 0)
		need_hashes(&sa, &sb);
	c.ab.keep = keep;
	c.ab.keep_arg = &c;
	int rc = ti_ab_verdict_run(&c.ab, &sa, &sb, c.floor_a ? &fa : NULL,
				   c.floor_b ? &fb : NULL, &r);
	if (rc == -ENOMEM)
		oom();
	if (rc < 0) {
		fprintf(stderr, "timeit-compare: the verdicts failed: %s\n", strerror(-rc));
		exit(EXIT_ERROR);
	}
	if (r.regressed)
		status = EXIT_REGRESSED;
	if (c.ab.strict && r.n == 0) {
		fprintf(stderr, "timeit-compare: --strict: no benchmark to compare\n");
		status = EXIT_REGRESSED;
	}
	c.report.noise_floor = c.floor_a != NULL;
	c.report.status = status;
	/* A driver asking what to sample next gets the list and status 0. */
	if (c.undecided) {
		c.report.format = TI_AB_UNDECIDED_LIST;
		status = EXIT_OK;
	}
	ti_ab_report(&out, &r, &c.ab, &c.report);
	if (out.failed)
		oom();
	if (c.svg)
		write_svg(&c, &r);
	if (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
		fprintf(stderr, "timeit-compare: stdout: %s\n", strerror(errno));
		status = EXIT_ERROR;
	}
	ti_buf_free(&out);
	ti_ab_result_free(&r);
	ti_ab_set_free(&sa);
	ti_ab_set_free(&sb);
	ti_ab_set_free(&fa);
	ti_ab_set_free(&fb);
	free(c.a);
	free(c.b);
	if (c.has_pattern)
		regfree(&c.pattern);
	return status;
}
