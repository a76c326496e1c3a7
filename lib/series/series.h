/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* series.h: a history of benchmark runs (one result set a night) and the
 * change points in it: which run changed which benchmark, by how much,
 * how sure, and whether the binary changed with it.  Nothing here prints
 * or exits; functions return 0, -ENOMEM or -EINVAL.  The rule is the one
 * bench/series-sim chose (docs/series.md, "The rules compared"); timeit-series(1)
 * describes it. */
#ifndef TI_SERIES_H
#define TI_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "read.h"

/* One run (a night) of the history. */
struct ti_series_run {
	char *label;		/* how reports name it: its order, else its path
				 * (ti_series_short_labels: the end of it) */
	char *path;		/* where it was read from */
	struct ti_ab_run_info info;	/* machine, order, start time ("": unknown) */
};

/* One benchmark in one run: the median of the samples that passed. */
struct ti_series_point {
	uint32_t run;		/* index into the history's runs */
	uint32_t n;		/* samples that passed with the metric */
	uint32_t failed;	/* samples that failed */
	uint32_t nulls;		/* samples that were null, left out (--lnt) */
	double level;		/* their median; NAN when none passed */
	uint64_t hash;		/* a digest of the binary's identity, 0: unknown */
};

struct ti_series_bench {
	char *name;
	struct ti_series_point *p;	/* in run order, one per run that has it */
	size_t n, cap;
};

struct ti_series_history {
	struct ti_series_run *runs;
	size_t nruns, caprun;
	struct ti_series_bench *b;	/* sorted by name */
	size_t nb, capb;
	size_t samples;		/* samples read, of all benchmarks and runs */
};

/* Add the run SET (one result set, as read by ti_ab_read; left as it
 * was), read from PATH, as the history's next run, named LABEL (NULL: its
 * order, else PATH).  Returns 0 or -ENOMEM. */
int ti_series_add(struct ti_series_history *h, const struct ti_ab_set *set, const char *path,
		  const char *label);

/* Put the runs in the order given by KEY (an array of NRUNS strings, one
 * per run in the order added; compared as LNT compares orders: by their
 * runs of digits as numbers, then as text), stable for equal keys.
 * Returns 0 or -ENOMEM. */
int ti_series_sort_runs(struct ti_series_history *h, const char *const *key);

/* The start time S (ISO 8601 as LNT writes it: YYYY-MM-DD, 'T' or ' ',
 * hh:mm[:ss[.fraction]], then 'Z', +hh[:mm] or -hh[:mm], or nothing for
 * UTC) as a key of OUT (LEN bytes) that ti_series_sort_runs orders as
 * time: seconds since 1970 in UTC and nanoseconds, each zero-padded.
 * Returns 0, or -EINVAL for text that is no such time. */
int ti_series_time_key(const char *s, char *out, size_t len);

/* Label each run of H that is labelled by its path by the fewest trailing
 * components of it (the same number for every run, ".json" left out)
 * that tell every run of H apart: nightly/7/report.json is "7/report"
 * beside nightly/8/report.json, n7.json is "n7"; runs labelled by their
 * order keep it, and paths that stay alike keep their whole path.
 * Returns 0 or -ENOMEM. */
int ti_series_short_labels(struct ti_series_history *h);

/* Free everything H owns and empty it. */
void ti_series_free(struct ti_series_history *h);

/* Compare two orders as LNT does (lnt/server/ui/util.py convert_revision):
 * the numbers in each, left to right ("1.2.10" after "1.2.9"); orders
 * without digits, and ties, by their text.  <0, 0 or >0. */
int ti_series_order_cmp(const char *a, const char *b);

/* Where an LNT server keeps a machine's history (its REST API, v4). */
struct ti_series_lnt {
	char root[2048];	/* http://HOST:PORT, without the /api/... */
	char db[128], suite[128];	/* "default", "nts" unless the URL says */
	char order_field[128];	/* the suite's run order (nts: llvm_project_revision) */
	const char *machine;	/* the machine's name (or LNT's ID of it) */
	const char *curl;	/* the program that reads HTTP ("curl", found in PATH) */
	double timeout;		/* seconds a request may take */
	size_t max_bytes;	/* the most an answer may hold (default
				 * TI_SERIES_LNT_MAX_MB MiB): a server that streams
				 * without end is an error, not all of memory */
};

#define TI_SERIES_LNT_MAX_MB 256

/* Set L up for the server at URL (http://HOST:PORT, or a URL naming one
 * database and suite: .../db_DB/v4/SUITE[/...], as make submit's
 * LNT_URL) and the machine MACHINE.  Returns 0, or -EINVAL with ERR. */
int ti_series_lnt_init(struct ti_series_lnt *l, const char *url, const char *machine,
		       double timeout, struct ti_ab_error *err);

/* Read L's machine's runs, in LNT's order (by the suite's order, then as
 * submitted), into H as its next runs, taking METRIC as the readers do;
 * PROGRESS (may be NULL) hears how many of how many runs are read.
 * Returns 0, or -errno / -EINVAL with ERR naming the URL and what went
 * wrong (curl's message, the HTTP status and LNT's "msg"). */
int ti_series_lnt_read(struct ti_series_lnt *l, struct ti_series_history *h, const char *metric,
		       void (*progress)(size_t done, size_t total, void *arg), void *arg,
		       struct ti_ab_error *err);

/* What the rule and the report depend on. */
struct ti_series_config {
	double alpha;		/* a change point's significance level */
	double min_change;	/* the gate, percent: smaller changes are not listed */
	double level;		/* the change's interval's coverage (0.95) */
	size_t since;		/* the window: the first run of it (index) */
	double outlier;		/* a night this many noise scales off both neighbours
				 * is a disturbed night, left out */
	bool machine_factor;	/* levels relative to the machine's factor of each
				 * night (ti_series_analyze) */
	double last_alpha;	/* the last night's own test (ti_series_suspect);
				 * 0: none */
};

/* The last night's test's default alpha: strict, as it is one night's
 * evidence (bench/series-sim: its false alarms per 1000 nights). */
#define TI_SERIES_LAST_ALPHA 1e-4

/* The defaults: the rule's alpha and outlier scale as chosen by
 * bench/series-sim, the gate of timeit-compare (1 %), a 95 % interval,
 * the window of the last 5 runs of NRUNS. */
void ti_series_config_init(struct ti_series_config *c, size_t nruns);

/* Why a change was put down to the machine or the code. */
enum ti_series_cause {
	TI_SERIES_CAUSE_UNKNOWN,	/* no binary identity on one side */
	TI_SERIES_CAUSE_CODE,		/* the binary changed across the point */
	TI_SERIES_CAUSE_MACHINE,	/* the same binary on both sides */
};
extern const char *const ti_series_cause_name[3];	/* "unknown", "code", "machine" */

struct ti_series_change {
	size_t index;		/* the first run at the new level */
	size_t prev;		/* the last run at the old one */
	double before, after;	/* the medians of the levels on each side */
	double change;		/* after / before - 1 */
	double lo, hi;		/* its interval (level c->level), as ratios - 1 */
	double p;		/* the split's p-value, adjusted for the splits tried */
	size_t n_before, n_after;	/* runs on each side (up to the next changes) */
	enum ti_series_cause cause;
	bool in_window;		/* index >= c->since */
	bool confirmed;		/* new in the window: not a change point (of the same
				 * direction, within 3 runs of it) of the history cut
				 * before the window, nor of those cut on the nights
				 * before (up to 32, back to its start), wherever it
				 * starts */
};

struct ti_series_row {
	const struct ti_series_bench *b;
	struct ti_series_change *ch;	/* in run order */
	size_t nch;
	size_t runs;		/* runs with a level */
	size_t failed_runs;	/* runs where every sample failed */
	size_t failed;		/* failed samples */
	size_t nulls;		/* null samples left out */
	size_t zero_runs;	/* runs whose level is 0: a ratio to 0 is no change,
				 * so they are left out (all of them: not analysed) */
	size_t disturbed;	/* disturbed nights left out */
	size_t first_disturbed;	/* the first of them (a run index) */
	bool pending;		/* the last run is off the level: a change there
				 * cannot be told from a bad night yet */
	double pending_change;	/* the last run / the level before - 1 */
	bool suspect;		/* the last run is off its level at c->last_alpha */
	double suspect_change;	/* the last run / the mean level since the last
				 * change point - 1 */
	double suspect_p;	/* its p-value */
	bool suspect_machine;	/* the last run's binary is the level's */
	bool regressed;		/* a change confirmed in the window is a regression
				 * beyond the gate */
	double last;		/* the level of the last run with one, NAN: none */
};

struct ti_series_result {
	struct ti_series_row *rows;	/* one per benchmark of the history, by name */
	size_t n;
	size_t changes, regressions;	/* change points listed; regressions confirmed in
					 * the window */
	size_t pending;		/* benchmarks whose last run is off the level */
	size_t suspects;	/* benchmarks whose last run is a suspect */
	bool suspect_slower;	/* one of them is slower beyond the gate (not the
				 * machine's: the same binary on both sides) */
	bool regressed;		/* some row regressed: exit status 1 */
	size_t factor_refs;	/* c->machine_factor: the benchmarks it came from */
};

/* Find the change points of every benchmark of H under C into R (free
 * with ti_series_result_free).  A change is confirmed in the window when
 * the history cut before the window (its first C->since runs, analysed
 * alike) has no change point of the same direction within 3 runs of it,
 * nor has the history cut on any night before that back to 3 runs before
 * the change's start (up to 32 nights; a change at the edge of significance is found,
 * lost and found again, and is new once):
 * a regression that needs more nights than the window to reach
 * significance is new on the night it does, wherever it started.  With C->machine_factor, each level is
 * first divided by its night's machine factor: the median, over the
 * benchmarks whose binary identity is known and the same in every run
 * (at least 3 of them in that run), of their level over their median
 * level; a load that slows a whole night goes, and so does a change of
 * the machine that moves every benchmark.  Returns 0, -ENOMEM or -EINVAL
 * (a configuration out of range). */
int ti_series_analyze(const struct ti_series_history *h, const struct ti_series_config *c,
		      struct ti_series_result *r);
void ti_series_result_free(struct ti_series_result *r);

enum ti_series_format { TI_SERIES_TEXT, TI_SERIES_MD, TI_SERIES_CSV, TI_SERIES_JSON };

struct ti_series_report_opts {
	enum ti_series_format format;
	bool only_recent;	/* only the changes that start in the window */
	const char *metric;	/* what the levels are of */
	int status;		/* the exit status, for JSON */
};

/* Format R, the change points of H under C, as O says into OUT
 * (OUT->failed on allocation failure). */
void ti_series_report(struct ti_buf *out, const struct ti_series_history *h,
		      const struct ti_series_result *r, const struct ti_series_config *c,
		      const struct ti_series_report_opts *o);

/* The SVG plot of R: a panel per benchmark with a change listed, its
 * levels run by run, the change points and the levels before and after. */
void ti_series_report_svg(struct ti_buf *out, const struct ti_series_history *h,
			  const struct ti_series_result *r, const struct ti_series_config *c,
			  const struct ti_series_report_opts *o);

/* The change points of one series: the N values X (logarithms of the
 * levels, in run order, none NAN; the disturbed ones left out) under C,
 * written to CP as the indices into X of the first value at each new
 * level, ascending, with their split p-values into P; at most MAX.
 * Returns how many, or -ENOMEM.  The rule: the values are clipped to
 * their neighbourhood (ti_series_clip); binary segmentation places each
 * segment's split where the means of its two sides differ most for their
 * sizes (among the splits where the binary identity ID changed, when one
 * of those stands; ID may be NULL, 0 is unknown); it stands when its t
 * p-value (the error the largest of the pooled one, ti_series_split, the
 * sides' own from 10 nights a side, and the nights' local noise scales'
 * where those differ 3-fold), times the number of splits it was chosen
 * from, is at most C->alpha; then, smallest first, the points whose sides
 * (up to the neighbouring points) differ by less than the gate are merged
 * away.  Exposed for bench/series-sim and the tests. */
int ti_series_cpoints(const double *x, const uint64_t *id, size_t n,
		      const struct ti_series_config *c, size_t *cp, double *p, size_t max);

/* The change at the split K of the N values X: the difference of the
 * means of X[K..N) and X[0..K) into *D, its standard error (the values'
 * pooled spread around their side's mean, N - 2 degrees of freedom) into
 * *SE.  Returns 0. */
int ti_series_split(const double *x, size_t n, size_t k, double *d, double *se);

/* X with each value clipped to the median of the 5 around it +- 3 noise
 * scales (ti_series_noise), into Y: one wild value moves a mean no more
 * than a bad value does, while a step, which moves the neighbours too,
 * stays whole.  Returns 0 or -ENOMEM. */
int ti_series_clip(const double *x, size_t n, double *y);

/* The noise scale of the N values X: the median absolute difference of
 * neighbours, scaled to a normal standard deviation (1.4826 / sqrt 2);
 * 0 when N < 2; NAN when memory runs out. */
double ti_series_noise(const double *x, size_t n);

/* The last night's own test: the value LAST against the M values X (the
 * level since the last change point, the last night not among them):
 * Student's t of one new value against their mean and spread (a
 * prediction interval, M - 1 degrees of freedom).  Its change (a ratio
 * - 1) into *CHANGE, its p-value into *P.  Returns 1 when it is off at
 * C->last_alpha and beyond the gate, 0 when not (or M < 3, or
 * C->last_alpha is 0). */
int ti_series_suspect(const double *x, size_t m, double last, const struct ti_series_config *c,
		      double *change, double *p);

/* Mark in KEEP (N flags) the disturbed values of X under C: a value off
 * by more than C->outlier noise scales (and by the gate) from the median
 * of up to 3 neighbours before it and from that of up to 3 after it (the
 * last value: from the one before it and the 3 before).  Returns how many
 * were marked, or -ENOMEM.  *PENDING is set when the last value is off
 * the ones before it. */
int ti_series_disturbed(const double *x, size_t n, const struct ti_series_config *c, bool *keep,
			bool *pending);

#endif
