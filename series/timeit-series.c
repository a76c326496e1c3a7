/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* series.c: timeit-series, the change points of a history of nightly
 * runs.  Only the command line: the readers are lib/ab's (read.h), the
 * history, the rule and the reports lib/series's (series.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "outfile.h"
#include "read.h"
#include "series.h"
#include "suggest.h"
#include "util.h"

/* Exit statuses (timeit-series.1), timeit-compare's. */
enum {
	EXIT_OK = 0,		/* no regression is confirmed in the window */
	EXIT_REGRESSED = 1,	/* a regression beyond the gate is confirmed in the window */
	EXIT_ERROR = 2,		/* usage or input error */
	EXIT_SUSPECT = 3,	/* --suspect-exit: the last night is a suspect
				 * slowdown, nothing confirmed */
};

enum order_by { ORDER_INPUT, ORDER_REVISION, ORDER_TIME };

struct config {
	const char **paths;
	size_t npaths;
	const char *metric, *machine, *lnt, *since, *svg;
	enum order_by order;
	double timeout, lnt_max_mb;
	struct ti_series_config sc;
	bool alpha_set, gate_set, suspect_exit;
	struct ti_series_report_opts report;
};

static const struct {
	const char *left, *help;
} help[] = {
	{ "-m, --metric NAME", "exec_time (user time; default), real, maxrss, ..." },
	{ "", "as timeit-compare reads them" },
	{ "--order-by KEY", "input (as given; default), revision (the reports'" },
	{ "", "run order, compared as LNT does) or time (start)" },
	{ "--lnt URL", "read the history from an LNT server (REST API v4):" },
	{ "", "http://HOST:PORT[/db_DB/v4/SUITE]; needs --machine" },
	{ "--machine NAME", "the machine whose runs are read (required when" },
	{ "", "inputs name different machines)" },
	{ "--timeout S", "--lnt: seconds a request may take (default 30)" },
	{ "--lnt-max MB", "--lnt: the most one answer may hold (default 256)" },
	{ "--since N|REV", "the window: the last N runs (default 5), or from" },
	{ "", "the run labelled REV (run:REV for a label of digits)" },
	{ "--min-change PCT", "the gate: smaller changes are not listed (default 1)" },
	{ "--alpha P", "a change point's significance (default 0.01)" },
	{ "--last-alpha P", "the last night's own test (default 1e-4; 0: none)" },
	{ "--suspect-exit", "exit 3 when the last night is a suspect slowdown" },
	{ "", "and no regression is confirmed" },
	{ "--machine-factor", "levels relative to each night's machine factor (the" },
	{ "", "median of the benchmarks whose binary never changed)" },
	{ "--only-recent", "list only the changes that start or are confirmed" },
	{ "", "in the window" },
	{ "--format FMT", "text (default), md, csv or json" },
	{ "--svg FILE", "also plot each changed benchmark's series to FILE" },
	{ "-h, --help", "show this help and exit" },
	{ "--version", "show the version and exit" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: timeit-series [options] RUN...\n"
		   "       timeit-series [options] --lnt URL --machine NAME\n\n"
		   "Find the change points in a history of benchmark runs, oldest first (results\n"
		   "directories, timeit --json, lit -o or LNT report JSON, one a run): for each\n"
		   "benchmark, the first run at a new level, the levels before and after, the\n"
		   "change with its interval, its p-value, and whether the binary changed there\n"
		   "(code) or not (machine).\n\noptions:\n");
	for (size_t i = 0; i < sizeof help / sizeof help[0]; i++)
		fprintf(f, "  %-20s %s\n", help[i].left, help[i].help);
	fprintf(f, "\nExit status: 0 no regression is confirmed in the window, 1 a regression\n"
		   "beyond the gate (of code, not the machine) starts there or was not yet\n"
		   "found in the history before it, 2 usage or input error, 3 (--suspect-exit)\n"
		   "the last night is a suspect slowdown and no regression is confirmed.\n"
		   "See timeit-series(1).\n");
	if (TI_BUG_URL[0])
		fprintf(f, "\nReport bugs to: %s\n", TI_BUG_URL);
}

__attribute__((format(printf, 1, 2), noreturn))
static void fail(const char *fmt, ...)
{
	va_list ap;

	fputs("timeit-series: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_ERROR);
}

#define usage_error(...) (fprintf(stderr, "timeit-series: "), fprintf(stderr, __VA_ARGS__), \
			  fputs("\nTry 'timeit-series --help'.\n", stderr), exit(EXIT_ERROR))

static void written(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		fail("stdout: %s", strerror(errno ? errno : EIO));
	exit(EXIT_OK);
}

static double number(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || isnan(v))
		usage_error("%s: invalid number '%s'", opt, s);
	if (errno == ERANGE || !(v >= lo && v <= hi))
		usage_error("%s: '%s' is out of range (%g to %g)", opt, s, lo, hi);
	return v;
}

/* The option table: each takes a value or not; parse_one acts on it. */
static const char *const flags[] = { "-h", "--help", "--version", "--only-recent",
				     "--machine-factor", "--suspect-exit" };
static const char *const valued[] = { "-m", "--metric", "--order-by", "--lnt", "--machine",
				      "--timeout", "--lnt-max", "--since", "--min-change", "--alpha",
				      "--format", "--svg", "--last-alpha" };

static bool in(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

static void parse_one(struct config *c, const char *name, const char *v)
{
#define IS(s) (strcmp(name, s) == 0)
	if (IS("-h") || IS("--help")) {
		usage(stdout);
		written();
	} else if (IS("--version")) {
		printf("timeit-series %s\n", PACKAGE_VERSION);
		written();
	} else if (IS("--only-recent")) {
		c->report.only_recent = true;
	} else if (IS("--suspect-exit")) {
		c->suspect_exit = true;
	} else if (IS("--last-alpha")) {
		c->sc.last_alpha = number(name, v, 0, 0.25);
	} else if (IS("--machine-factor")) {
		c->sc.machine_factor = true;
	} else if (IS("-m") || IS("--metric")) {
		if (!*v)
			usage_error("%s: empty metric name", name);
		c->metric = v;
	} else if (IS("--order-by")) {
		if (strcmp(v, "input") == 0)
			c->order = ORDER_INPUT;
		else if (strcmp(v, "revision") == 0)
			c->order = ORDER_REVISION;
		else if (strcmp(v, "time") == 0)
			c->order = ORDER_TIME;
		else
			usage_error("--order-by: unknown key '%s' (input, revision, time)", v);
	} else if (IS("--lnt")) {
		c->lnt = v;
	} else if (IS("--machine")) {
		if (!*v)
			usage_error("--machine: empty name");
		/* A run names its machine in as many bytes: a longer name would
		 * be compared cut short. */
		if (strlen(v) >= sizeof ((struct ti_ab_run_info *)0)->machine)
			usage_error("--machine: the name is %zu bytes, more than the %zu a run's "
				    "machine holds", strlen(v),
				    sizeof ((struct ti_ab_run_info *)0)->machine - 1);
		c->machine = v;
	} else if (IS("--timeout")) {
		c->timeout = number(name, v, 0.1, 86400);
	} else if (IS("--lnt-max")) {
		c->lnt_max_mb = number(name, v, 1, 1 << 20);
	} else if (IS("--since")) {
		if (!*v)
			usage_error("--since: empty");
		c->since = v;
	} else if (IS("--min-change")) {
		c->sc.min_change = number(name, v, 0, 1000);
	} else if (IS("--alpha")) {
		c->sc.alpha = number(name, v, 1e-12, 0.25);
	} else if (IS("--format")) {
		static const char *const fmt[] = { "text", "md", "csv", "json" };
		size_t k = 0;
		while (k < 4 && strcmp(v, fmt[k]) != 0)
			k++;
		if (k == 4)
			usage_error("--format: unknown format '%s' (text, md, csv, json)", v);
		c->report.format = (enum ti_series_format)k;
	} else if (IS("--svg")) {
		if (!*v)
			usage_error("--svg: empty path");
		c->svg = v;
	}
#undef IS
}

static void parse_args(int argc, char **argv, struct config *c)
{
	bool opts = true;

	memset(c, 0, sizeof *c);
	c->metric = "exec_time";
	c->timeout = 30;
	c->lnt_max_mb = TI_SERIES_LNT_MAX_MB;
	ti_series_config_init(&c->sc, 0);
	if (!(c->paths = calloc((size_t)argc, sizeof *c->paths)))
		fail("%s", strerror(ENOMEM));
	for (int i = 1; i < argc; i++) {
		char *arg = argv[i], name[64];
		const char *val = NULL, *eq;

		if (!opts || arg[0] != '-' || !arg[1]) {
			c->paths[c->npaths++] = arg;
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			opts = false;
			continue;
		}
		/* --name=value is the same as --name value. */
		snprintf(name, sizeof name, "%s", arg);
		if (arg[1] == '-' && (eq = strchr(arg, '=')) && (size_t)(eq - arg) < sizeof name) {
			name[eq - arg] = '\0';
			val = eq + 1;
		}
		if (in(flags, sizeof flags / sizeof *flags, name)) {
			if (val)
				usage_error("%s: takes no value ('%s')", name, arg);
		} else if (in(valued, sizeof valued / sizeof *valued, name)) {
			if (!val && i + 1 >= argc)
				usage_error("%s: missing argument", name);
			if (!val)
				val = argv[++i];
		} else {
			const char *f = ti_suggest(name, flags, sizeof flags / sizeof *flags);
			const char *v = ti_suggest(name, valued, sizeof valued / sizeof *valued);
			const char *near = !f ? v : !v ? f : ti_suggest_distance(name, v) <
				ti_suggest_distance(name, f) ? v : f;
			if (near)
				usage_error("unknown option '%s' (did you mean %s?)", arg, near);
			usage_error("unknown option '%s'", arg);
		}
		parse_one(c, name, val ? val : "");
	}
	if (c->lnt && c->npaths)
		usage_error("'%s': give either RUN... or --lnt, not both", c->paths[0]);
	if (c->lnt && !c->machine)
		usage_error("--lnt: needs --machine NAME (LNT keeps one history per machine)");
	if (!c->lnt && !c->npaths)
		usage_error("no runs: give RUN... (oldest first) or --lnt URL --machine NAME");
}

struct ident {
	dev_t dev;
	ino_t ino;
	size_t i;
};

static int cmp_ident(const void *a, const void *b)
{
	const struct ident *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* A run given twice would be two nights of the same results: refuse it
 * (the same file by two names too), and an --svg that would replace an
 * input or be named as a summary file a results directory is read for.
 * Sorted, so that 1000 runs cost no million stat calls. */
static void check_paths(const struct config *c)
{
	if (c->svg) {
		for (size_t i = 0; i < c->npaths; i++)
			if (ti_outfile_same(c->svg, c->paths[i]))
				usage_error("--svg '%s' is the input '%s'", c->svg, c->paths[i]);
		if (ti_ab_read_is_summary(c->svg))
			usage_error("--svg '%s' is named like a summary file (*.time), which "
				    "results directories are read for", c->svg);
	}

	struct ident *id = malloc((c->npaths ? c->npaths : 1) * sizeof *id);
	size_t n = 0;

	if (!id)
		fail("%s", strerror(ENOMEM));
	for (size_t i = 0; i < c->npaths; i++) {
		struct stat st;
		if (stat(c->paths[i], &st) == 0)
			id[n++] = (struct ident){ st.st_dev, st.st_ino, i };
	}
	qsort(id, n, sizeof *id, cmp_ident);
	for (size_t k = 1; k < n; k++)
		if (id[k].dev == id[k - 1].dev && id[k].ino == id[k - 1].ino) {
			const char *a = c->paths[id[k - 1].i], *b = c->paths[id[k].i];
			free(id);
			usage_error("'%s' and '%s' are the same run: each RUN is one night", a, b);
		}
	free(id);
}

static void read_error(const char *what, int rc, const struct ti_ab_error *err)
{
	if (rc == -ENOMEM)
		fail("%s: %s", what, strerror(ENOMEM));
	if (err->line > 0)
		fail("%s:%d: %s", err->path, err->line, err->what);
	fail("%s: %s", err->path, err->what);
}

/* Progress on a terminal, at most once a second: a long history takes a
 * while. */
static void progress(size_t done, size_t total, void *arg)
{
	static time_t last;
	time_t now = time(NULL);

	(void)arg;
	if (!isatty(STDERR_FILENO) || (now == last && done < total))
		return;
	last = now;
	fprintf(stderr, "\rtimeit-series: %zu of %zu runs read%s", done, total,
		done == total ? "\n" : "");
}

/* The machine a run names, "" for none. */
static const char *machine_of(const struct ti_ab_set *s)
{
	return s->run.machine;
}

static void load_files(struct config *c, struct ti_series_history *h)
{
	char first_machine[256] = "";
	const char *first_path = NULL;
	size_t kept = 0;

	for (size_t i = 0; i < c->npaths; i++) {
		/* A night has a level or nothing: a NaN or infinite value is
		 * refused, not counted as a failed sample. */
		struct ti_ab_set set = { .refuse_nonfinite = true };
		struct ti_ab_error err = { .line = 0 };
		int rc = ti_ab_read(&set, c->paths[i], c->metric, 1, &err);
		const char *m = machine_of(&set);

		/* A night whose run held no tests (a broken build, an empty
		 * lit run) is a gap in the history, not the end of it. */
		if (rc < 0 && err.empty) {
			fprintf(stderr, "timeit-series: note: %s: no tests: skipped\n", c->paths[i]);
			ti_ab_set_free(&set);
			progress(i + 1, c->npaths, NULL);
			continue;
		}
		if (rc < 0)
			read_error(c->paths[i], rc, &err);
		if (c->machine && m[0] && strcmp(m, c->machine) != 0) {
			ti_ab_set_free(&set);
			progress(i + 1, c->npaths, NULL);
			continue;	/* another machine's run */
		}
		if (!c->machine && m[0]) {
			if (!first_machine[0]) {
				snprintf(first_machine, sizeof first_machine, "%s", m);
				first_path = c->paths[i];
			} else if (strcmp(first_machine, m) != 0) {
				fail("%s: machine '%s', but %s is of machine '%s': a history is one "
				     "machine's (give --machine NAME)", c->paths[i], m, first_path,
				     first_machine);
			}
		}
		if (set.skipped)
			fprintf(stderr, "timeit-series: warning: %s: left out %zu unreadable "
				"director%s (%s)\n", c->paths[i], set.skipped,
				set.skipped == 1 ? "y" : "ies", set.skipped_first);
		if ((rc = ti_series_add(h, &set, c->paths[i], NULL)) < 0)
			fail("%s: %s", c->paths[i], strerror(-rc));
		ti_ab_set_free(&set);
		kept++;
		progress(i + 1, c->npaths, NULL);
	}
	if (c->machine && kept == 0)
		fail("--machine %s: no run of that machine among the %zu given", c->machine,
		     c->npaths);
}

static void load_lnt(struct config *c, struct ti_series_history *h)
{
	struct ti_series_lnt l;
	struct ti_ab_error err;
	int rc = ti_series_lnt_init(&l, c->lnt, c->machine, c->timeout, &err);

	if (rc < 0)
		fail("--lnt: %s: %s", err.path, err.what);
	l.max_bytes = (size_t)(c->lnt_max_mb * 1048576);
	if ((rc = ti_series_lnt_read(&l, h, c->metric, progress, NULL, &err)) < 0)
		read_error(c->lnt, rc, &err);
}

/* --order-by: sort the runs by their order or start time. */
static void order_runs(const struct config *c, struct ti_series_history *h)
{
	const char **key;
	int rc;

	if (c->order == ORDER_INPUT)
		return;
	/* Every run has the key before any memory is taken: an error exits
	 * with nothing held. */
	for (size_t i = 0; i < h->nruns; i++) {
		const struct ti_ab_run_info *r = &h->runs[i].info;
		if (!(c->order == ORDER_REVISION ? r->order : r->start)[0])
			fail("--order-by %s: %s names no %s", c->order == ORDER_REVISION ? "revision"
			     : "time", h->runs[i].path, c->order == ORDER_REVISION ? "run order "
			     "(only LNT reports do)" : "start time (only LNT reports do)");
	}
	/* Times as UTC seconds and nanoseconds, so that .9 comes after .10
	 * and an offset counts. */
	char (*when)[32] = malloc((h->nruns ? h->nruns : 1) * sizeof *when);
	if (!(key = malloc((h->nruns ? h->nruns : 1) * sizeof *key)) || !when)
		fail("%s", strerror(ENOMEM));
	for (size_t i = 0; i < h->nruns; i++) {
		const struct ti_ab_run_info *r = &h->runs[i].info;
		key[i] = c->order == ORDER_REVISION ? r->order : when[i];
		if (c->order == ORDER_TIME && ti_series_time_key(r->start, when[i], sizeof when[i]) < 0)
			fail("--order-by time: %s: the start time '%s' is not a date and time "
			     "(YYYY-MM-DDThh:mm:ss[.frac][Z|+hh:mm])", h->runs[i].path, r->start);
	}
	rc = ti_series_sort_runs(h, key);
	free(key);
	free(when);
	if (rc < 0)
		fail("%s", strerror(ENOMEM));
}

/* --since: the first run of the window. */
static size_t window(const struct config *c, const struct ti_series_history *h)
{
	const char *s = c->since;
	uint64_t n;

	if (!s)
		return h->nruns > 5 ? h->nruns - 5 : 0;
	if (strncmp(s, "run:", 4) != 0 && ti_parse_u64(s, &n) == 0) {
		/* A history shorter than the window (a new machine's first
		 * nights) is all window. */
		if (n < 1)
			usage_error("--since: '%s': the window needs at least one run", s);
		return n >= h->nruns ? 0 : h->nruns - (size_t)n;
	}
	if (strncmp(s, "run:", 4) == 0)
		s += 4;
	for (size_t i = 0; i < h->nruns; i++)
		if (strcmp(h->runs[i].label, s) == 0)
			return i;
	/* A run labelled by the end of its path is still found by all of it. */
	for (size_t i = 0; i < h->nruns; i++)
		if (strcmp(h->runs[i].path, s) == 0)
			return i;
	usage_error("--since: no run is labelled '%s'", s);
}

/* Block the signals that would end the program while the plot's
 * temporary file exists (BLOCK false: restore). */
static void hold(bool block)
{
	static sigset_t saved;
	sigset_t all;

	if (!block) {
		sigprocmask(SIG_SETMASK, &saved, NULL);
		return;
	}
	sigfillset(&all);
	/* A fault must still act at once. */
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	sigdelset(&all, SIGABRT);
	sigprocmask(SIG_BLOCK, &all, &saved);
}

static void write_svg(const struct config *c, const struct ti_series_history *h,
		      const struct ti_series_result *r)
{
	struct ti_outfile of;
	struct ti_buf o = { 0 };
	int rc;

	hold(true);
	if ((rc = ti_outfile_prepare(&of, c->svg)) < 0)
		fail("--svg: %s: %s", c->svg, strerror(-rc));
	ti_series_report_svg(&o, h, r, &c->sc, &c->report);
	if (o.failed) {
		ti_outfile_abort(&of);
		rc = -ENOMEM;
	} else {
		rc = ti_outfile_commit(&of, o.data, o.len);
	}
	if (rc < 0)
		fail("--svg: %s: %s", c->svg, strerror(-rc));
	hold(false);
	ti_buf_free(&o);
}

int main(int argc, char **argv)
{
	struct config c;
	struct ti_series_history h = { 0 };
	struct ti_series_result r;
	struct ti_buf out = { 0 };
	int status = EXIT_OK, rc;

	parse_args(argc, argv, &c);
	check_paths(&c);
	if (c.lnt)
		load_lnt(&c, &h);
	else
		load_files(&c, &h);
	/* Whole paths make the run column as wide as the tree they are in:
	 * the file's name says which night it is. */
	if ((rc = ti_series_short_labels(&h)) < 0)
		fail("%s", strerror(-rc));
	/* Nothing to analyze is an error, not "0 benchmarks": a metric no
	 * run has (a typo), or inputs that hold no results. */
	if (h.samples == 0)
		fail("-m %s: no run of the %zu read has a value of it", c.metric, h.nruns);
	order_runs(&c, &h);
	c.sc.since = window(&c, &h);
	if ((rc = ti_series_analyze(&h, &c.sc, &r)) < 0)
		fail("the change points failed: %s", strerror(-rc));
	if (r.regressed)
		status = EXIT_REGRESSED;
	else if (c.suspect_exit && r.suspect_slower)
		status = EXIT_SUSPECT;
	c.report.metric = c.metric;
	c.report.status = status;
	ti_series_report(&out, &h, &r, &c.sc, &c.report);
	if (out.failed)
		fail("%s", strerror(ENOMEM));
	if (c.svg)
		write_svg(&c, &h, &r);
	if (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout) != 0)
		fail("stdout: %s", strerror(errno ? errno : EIO));
	ti_buf_free(&out);
	ti_series_result_free(&r);
	ti_series_free(&h);
	free(c.paths);
	return status;
}
