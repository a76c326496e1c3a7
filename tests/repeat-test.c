/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* repeat-test: the aggregation of --repeat over injected records (exact
 * medians, minima and MADs), its summary lines, and the run loop on a real
 * command (how many runs, stopping at a failure, --keep-going). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "repeat.h"
#include "summary.h"
#include "tap.h"

#define NEAR(a, b) ((a) - (b) < 1e-9 && (b) - (a) < 1e-9)

static void set_count(struct ti_record *r, size_t i, const char *name, double v, uint64_t enabled,
		      uint64_t running)
{
	struct ti_count *k = &r->counts[i];

	if (r->ncounts <= i)
		r->ncounts = i + 1;
	snprintf(k->name, sizeof k->name, "%s", name);
	k->opened = true;
	k->counted = running > 0;
	k->value = (uint64_t)v;
	k->enabled = enabled;
	k->running = running;
	k->scaled = running ? v : 0;
}

static const struct ti_repeat_metric *find(const struct ti_repeat_agg *a, const char *key)
{
	for (size_t i = 0; i < a->nmetrics; i++)
		if (strcmp(a->metric[i].key, key) == 0)
			return &a->metric[i];
	return NULL;
}

/* Lines of FILE. */
static int count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, ch;

	if (!f)
		return 0;
	while ((ch = getc(f)) != EOF)
		n += ch == '\n';
	fclose(f);
	return n;
}

static void aggregation(void)
{
	static struct ti_record runs[5];
	static struct ti_repeat_agg a;
	/* Injected samples: real 0.5 0.1 0.3 0.2 0.4 -> median 0.3, min 0.1,
	 * |x - 0.3| = 0.2 0.2 0 0.1 0.1 -> MAD 0.1 * 1.4826. */
	static const double real[5] = { 0.5, 0.1, 0.3, 0.2, 0.4 };
	static const double user[5] = { 1.0, 1.0, 1.0, 1.0, 9.0 };
	static const double insn[5] = { 1000, 1002, 998, 1001, 5000 };
	static const uint64_t rss[5] = { 4096, 8192, 4096, 12288, 8192 };

	memset(runs, 0, sizeof runs);
	for (int i = 0; i < 5; i++) {
		runs[i].end = TI_END_EXITED;
		runs[i].real_s = real[i];
		runs[i].user_s = user[i];
		runs[i].sys_s = 0.01 * i;
		runs[i].maxrss_bytes = rss[i];
		runs[i].pid = 100 + i;
		set_count(&runs[i], 0, "instructions", insn[i], 10, 10);
		/* task-clock (ns) counted in runs 1..4 only; run 3 multiplexed. */
		set_count(&runs[i], 1, "task-clock", 1e6 * (i + 1), 100, i == 0 ? 0 : i == 3 ? 25 : 100);
		/* An event never counted stays without a line. */
		set_count(&runs[i], 2, "cycles", 0, 0, 0);
	}
	TAP_OK(ti_repeat_aggregate(runs, 0, &a) == -EINVAL, "no runs: -EINVAL");
	TAP_OK(ti_repeat_aggregate(runs, 5, &a) == 0 && a.n == 5, "five runs aggregated");

	static const struct {
		int line;
		const char *key;
		size_t n;
		double median, min, mad;
	} want[] = {
		{ __LINE__, "real", 5, 0.3, 0.1, 0.1 * 1.4826 },
		/* One wild run moves neither median nor MAD. */
		{ __LINE__, "user", 5, 1.0, 1.0, 0.0 },
		{ __LINE__, "sys", 5, 0.02, 0.0, 0.01 * 1.4826 },
		{ __LINE__, "maxrss", 5, 8192, 4096, 4096 * 1.4826 },
		/* 998 1000 1001 1002 5000: median 1001, |x-1001| 3 1 0 1 3999 -> 1. */
		{ __LINE__, "instructions", 5, 1001, 998, 1.4826 },
		/* Counted runs: 2e6 3e6 4e6 5e6 -> median 3.5e6; deviations
		 * 1.5 .5 .5 1.5 (e6) -> 1e6 * 1.4826. */
		{ __LINE__, "task-clock", 4, 3.5e6, 2e6, 1e6 * 1.4826 },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct ti_repeat_metric *m = find(&a, want[i].key);

		tap_ok(m != NULL, want[i].line, "metric %s present", want[i].key);
		if (!m)
			continue;
		tap_ok(m->n == want[i].n && NEAR(m->median, want[i].median) &&
			       NEAR(m->min, want[i].min) && NEAR(m->mad, want[i].mad),
		       want[i].line, "%s: n %zu median %g min %g mad %g", want[i].key, m->n, m->median,
		       m->min, m->mad);
	}
	TAP_OK(find(&a, "cycles") == NULL, "an event never counted has no metric");
	TAP_OK(NEAR(a.median.real_s, 0.3) && NEAR(a.median.user_s, 1.0) &&
		       a.median.maxrss_bytes == 8192,
	       "the summary record carries the medians");
	TAP_OK(a.median.counts[1].counted && NEAR(a.median.counts[1].scaled, 3.5e6),
	       "median task-clock in the record");
	TAP_OK(a.median.counts[1].running == 25 && a.median.counts[1].enabled == 100,
	       "running fraction of the worst run kept (%llu/%llu)",
	       (unsigned long long)a.median.counts[1].running,
	       (unsigned long long)a.median.counts[1].enabled);
	TAP_OK(!a.median.counts[2].counted, "never-counted event stays uncounted");
	TAP_OK(a.median.status == 0 && a.median.pid == 104, "all exit 0: the last run ends it");

	/* exit is the first non-zero status, and that run says how it ended. */
	runs[1].status = 3;
	runs[1].exit_code = 3;
	runs[3].end = TI_END_SIGNALED;
	runs[3].term_signal = 9;
	runs[3].status = 137;
	TAP_OK(ti_repeat_aggregate(runs, 5, &a) == 0 && a.median.status == 3 &&
		       a.median.exit_code == 3 && a.median.pid == 101,
	       "first non-zero status wins (%d)", a.median.status);
	runs[1].status = 0;
	TAP_OK(ti_repeat_aggregate(runs, 5, &a) == 0 && a.median.status == 137 &&
		       a.median.end == TI_END_SIGNALED && a.median.term_signal == 9,
	       "a signal after clean runs: 137");
	runs[3].status = 0;
	runs[3].end = TI_END_EXITED;

	/* Even count: median of the middle two. */
	static struct ti_record two[4];
	static const double ev[4] = { 10, 1, 3, 2 };
	memset(two, 0, sizeof two);
	for (int i = 0; i < 4; i++)
		two[i].real_s = ev[i];
	ti_repeat_aggregate(two, 4, &a);
	/* 1 2 3 10: median 2.5; |x-2.5| 1.5 .5 .5 7.5 -> 1.0. */
	TAP_OK(NEAR(a.metric[0].median, 2.5) && NEAR(a.metric[0].min, 1) &&
		       NEAR(a.metric[0].mad, 1.4826),
	       "even n: median %g, MAD %g", a.metric[0].median, a.metric[0].mad);
	ti_repeat_aggregate(two, 1, &a);
	TAP_OK(NEAR(a.metric[0].median, 10) && NEAR(a.metric[0].mad, 0), "one run: MAD 0");

	/* Summary lines: exact text, and no key a consumer reserves. */
	ti_repeat_aggregate(runs, 5, &a);
	struct ti_buf b = { 0 };
	struct ti_summary s = { .r = &a.median, .repeat = &a, .report_maxrss = true };
	ti_summary_format(&b, &s);
	char *rep = b.data ? strstr(b.data, "n-runs     5\n") : NULL;
	char *ins = b.data ? strstr(b.data, "\ninstructions ") : NULL;
	TAP_OK(rep && ins && ins < rep, "n-runs after the events");
	TAP_OK(b.data && strstr(b.data, "\nmin-real   0.1000\nmad-real   0.1483\n"),
	       "min-real / mad-real lines");
	TAP_OK(b.data && strstr(b.data, "\nmin-maxrss 4096\nmad-maxrss 6072.7\n"),
	       "maxrss lines with --report-maxrss");
	TAP_OK(b.data && strstr(b.data, "\nmin-instructions 998\nmad-instructions 1.5\n"),
	       "count lines");
	TAP_OK(b.data && strstr(b.data, "\nmin-task-clock 0.002000\nmad-task-clock 0.001483\n"),
	       "task-clock lines in seconds");
	int bad = 0;
	for (char *line = rep; line && *line; line = strchr(line, '\n') + 1) {
		static const char *const reserved[] = { "user", "exit", "real", "sys", "maxrss" };
		for (size_t i = 0; i < 5; i++)
			bad += strncmp(line, reserved[i], strlen(reserved[i])) == 0;
		if (!strchr(line, '\n'))
			break;
	}
	TAP_OK(bad == 0, "no line starts with a reserved key");
	ti_buf_free(&b);
	s.report_maxrss = false;
	ti_summary_format(&b, &s);
	TAP_OK(b.data && !strstr(b.data, "maxrss"), "no maxrss lines without --report-maxrss");
	ti_buf_free(&b);
}

static void run_loop(void)
{
	char dir[] = "/tmp/timeit-repeat-XXXXXX", script[256], mark[64];
	static struct ti_record runs[8];
	struct ti_measure_opts mo = { 0 };
	struct ti_failure f;
	size_t n;

	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(99);
	}
	snprintf(mark, sizeof mark, "%s/runs", dir);
	static const struct {
		int line;
		unsigned warmup, repeat;
		bool keep_going;
		const char *exit_on;		/* run numbers (1-based) that exit 3 */
		int want_lines;			/* runs started */
		size_t want_n;			/* records returned */
		int want_status;
	} cases[] = {
		{ __LINE__, 0, 1, false, "", 1, 1, 0 },
		{ __LINE__, 2, 5, false, "", 7, 5, 0 },
		{ __LINE__, 0, 5, false, "3", 3, 3, 3 },
		{ __LINE__, 0, 5, true, "3", 5, 5, 3 },
		{ __LINE__, 2, 3, false, "1", 1, 1, 3 },	/* a failing warmup */
		{ __LINE__, 2, 3, true, "1", 5, 3, 0 },		/* ... skipped over */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		/* Each run appends a line; its line number decides its exit. */
		snprintf(script, sizeof script,
			 "echo x >> %s; n=$(wc -l < %s); case \" %s \" in *\" $n \"*) exit 3;; esac",
			 mark, mark, cases[i].exit_on);
		char *argv[] = { "/bin/sh", "-c", script, NULL };
		struct ti_plan plan = { .argv = argv };
		struct ti_repeat_opts o = { .warmup = cases[i].warmup, .repeat = cases[i].repeat,
					    .keep_going = cases[i].keep_going };
		static struct ti_repeat_agg a;

		unlink(mark);
		int rc = ti_repeat_run(&plan, &mo, &o, runs, &n, &f);
		tap_ok(rc == 0, cases[i].line, "ti_repeat_run returned %d", rc);
		tap_ok(count_lines(mark) == cases[i].want_lines, cases[i].line, "%d runs started, want %d",
		       count_lines(mark), cases[i].want_lines);
		tap_ok(n == cases[i].want_n, cases[i].line, "%zu records, want %zu", n, cases[i].want_n);
		ti_repeat_aggregate(runs, n, &a);
		tap_ok(a.median.status == cases[i].want_status, cases[i].line, "status %d, want %d",
		       a.median.status, cases[i].want_status);
	}
	unlink(mark);
	rmdir(dir);
}

int main(void)
{
	aggregation();
	run_loop();
	return tap_done();
}
