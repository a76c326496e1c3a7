/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* repeat.c: run a plan several times; median, min and MAD of the runs. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "noise.h"
#include "repeat.h"
#include "spawn.h"
#include "stats.h"
#include "summary.h"

/* Median, min and scaled MAD of X[0..N) (N >= 1) into M (lib/stats/stats.c,
 * which needs no libm).  Returns 0 or -ENOMEM. */
static int metric(struct ti_repeat_metric *m, const double *x, size_t n)
{
	struct ti_stats_summary s;
	int rc = ti_stats_summarize(x, n, &s);

	if (rc < 0)
		return rc;
	m->n = n;
	m->median = s.median;
	m->min = s.min;
	m->mad = s.mad;
	return 0;
}

int ti_repeat_aggregate(const struct ti_record *runs, size_t n, struct ti_repeat_agg *a)
{
	const struct ti_record *base = &runs[n ? n - 1 : 0];
	struct ti_record *med = &a->median;
	double *x;
	size_t k;
	int rc = 0;

	memset(a, 0, sizeof *a);
	if (n == 0)
		return -EINVAL;
	x = malloc(n * sizeof *x);
	if (!x)
		return -ENOMEM;

	/* exit is the first non-zero status: that run says how it ended. */
	for (size_t i = 0; i < n; i++) {
		if (runs[i].status != 0) {
			base = &runs[i];
			break;
		}
	}
	*med = *base;
	a->n = n;
	/* A sample set is suspect when any of its runs is. */
	for (size_t i = 0; i < n; i++) {
		struct ti_noise nz;
		ti_noise_screen(&runs[i], &nz);
		a->noise_flags |= nz.flags;
	}

	static const char *const keys[] = { TI_KEY_REAL, TI_KEY_USER, TI_KEY_SYS, TI_KEY_MAXRSS };
	for (size_t m = 0; m < 4; m++) {
		for (size_t i = 0; i < n; i++)
			x[i] = m == 0 ? runs[i].real_s : m == 1 ? runs[i].user_s
			     : m == 2 ? runs[i].sys_s : (double)runs[i].maxrss_bytes;
		struct ti_repeat_metric *mt = &a->metric[a->nmetrics++];
		strcpy(mt->key, keys[m]);
		mt->is_time = m < 3;
		if ((rc = metric(mt, x, n)) < 0)
			goto out;
	}
	med->real_s = a->metric[0].median;
	med->user_s = a->metric[1].median;
	med->sys_s = a->metric[2].median;
	med->maxrss_bytes = (uint64_t)(a->metric[3].median + 0.5);

	if (med->tsc_valid) {
		for (size_t i = 0; i < n; i++)
			x[i] = (double)runs[i].tsc_ticks;
		med->tsc_ticks = (uint64_t)(ti_stats_median(x, n) + 0.5);
	}

	/* Counter I is the same event in every run (one event list). */
	for (size_t c = 0; c < med->ncounts; c++) {
		struct ti_count *mc = &med->counts[c];
		double worst = 2.0;

		k = 0;
		for (size_t i = 0; i < n; i++) {
			const struct ti_count *rk = &runs[i].counts[c];
			double frac;

			if (c >= runs[i].ncounts || !rk->counted)
				continue;
			x[k++] = rk->scaled;
			frac = rk->enabled ? (double)rk->running / (double)rk->enabled : 1.0;
			if (frac < worst) {
				worst = frac;
				mc->value = rk->value;
				mc->enabled = rk->enabled;
				mc->running = rk->running;
			}
		}
		mc->counted = k > 0;
		if (!k)
			continue;
		struct ti_repeat_metric *mt = &a->metric[a->nmetrics++];
		ti_summary_key(mc->name, mt->key, sizeof mt->key);
		mt->is_time = ti_event_name_is_time(mc->name);
		if ((rc = metric(mt, x, k)) < 0)
			goto out;
		mc->scaled = mt->median;
	}
out:
	free(x);
	return rc;
}

void ti_repeat_json(struct ti_json *j, const char *key, const struct ti_repeat_agg *a)
{
	ti_json_object(j, key);
	ti_json_uint(j, "n", a->n);
	ti_json_object(j, "metrics");
	for (size_t i = 0; i < a->nmetrics; i++) {
		const struct ti_repeat_metric *m = &a->metric[i];
		/* Event times are kept in seconds here, like real/user/sys. */
		double scale = m->is_time && i >= 3 ? 1e-9 : 1.0;

		ti_json_object(j, m->key);
		ti_json_uint(j, "n", m->n);
		ti_json_double(j, "median", m->median * scale);
		ti_json_double(j, "min", m->min * scale);
		ti_json_double(j, "mad", m->mad * scale);
		ti_json_end(j, '}');
	}
	ti_json_end(j, '}');
	ti_json_end(j, '}');
}

static double median_real(const struct ti_record *runs, size_t n, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = runs[i].real_s;
	return ti_stats_median(tmp, n);	/* NAN when N is 0 */
}

int ti_repeat_run(const struct ti_plan *plan, const struct ti_measure_opts *mo,
		  const struct ti_repeat_opts *o, struct ti_record *runs, size_t *nruns,
		  struct ti_failure *f)
{
	unsigned total = o->warmup + o->repeat;
	double elapsed = 0, *tmp = NULL;
	/* Every run of several writes stdout to /dev/null, as hyperfine's
	 * do, unless all output is asked for: N copies of a program's output
	 * would bury the summary.  One run keeps it (the drop-in timeit).  A
	 * redirected stdout is left alone: each run truncates its file, which
	 * so holds one run's output, the form the reference comparison of the
	 * LLVM test-suite reads. */
	struct ti_plan quiet = *plan;
	int rc;

	if (!quiet.redirect_stdout && !o->all_output && total > 1)
		quiet.redirect_stdout = "/dev/null";

	*nruns = 0;
	if (o->progress)
		tmp = malloc((o->repeat ? o->repeat : 1) * sizeof *tmp);
	for (unsigned i = 0; i < total; i++) {
		bool warmup = i < o->warmup;
		/* A warmup run lands in the slot of the first measured run and
		 * is overwritten by it. */
		struct ti_record *r = &runs[*nruns];

		/* Interrupted between runs: no new run (its redirect files
		 * would be truncated, its command killed at once). */
		if (i > 0 && ti_spawn_stop_signal()) {
			if (*nruns == 0)
				*nruns = 1;
			free(tmp);
			return TI_REPEAT_STOPPED;
		}
		rc = ti_measure(&quiet, mo, r, f);
		if (rc < 0) {
			free(tmp);
			return rc;
		}
		if (!warmup)
			(*nruns)++;
		elapsed += r->real_s;
		if (r->end == TI_END_INTERRUPTED || (r->status != 0 && !o->keep_going)) {
			if (warmup)
				*nruns = 1;
			break;
		}
		if (o->progress && i + 1 < total) {
			struct ti_repeat_progress p = {
				.done = i + 1, .total = total, .warmup = warmup,
				.median_real = tmp ? median_real(runs, *nruns, tmp) : NAN,
				/* Runs so far predict the rest; timeit's own
				 * overhead between runs is not in real. */
				.eta_s = elapsed / (i + 1) * (total - i - 1),
			};
			o->progress(o->arg, &p);
		}
	}
	free(tmp);
	return 0;
}
