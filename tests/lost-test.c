/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lost-test: counters detached at a privilege-changing exec.  The decision
 * (ti_record_check_lost) on injected records, table-driven; then through
 * the fake perf seam with a real child that burns CPU, as the hardware
 * counters of a setuid program would read: the times come from rusage,
 * no event is reported, and --strict-events fails the run. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakeperf.h"
#include "measure.h"
#include "summary.h"
#include "tap.h"

/* A record of a run that used CPU_MS of rusage user + sys, with one perf
 * counter enabled for ENABLED_MS (opened unless ENABLED_MS < 0). */
static void record(struct ti_record *r, double cpu_ms, double enabled_ms, enum ti_end end)
{
	memset(r, 0, sizeof *r);
	r->end = end;
	r->ru.ru_utime.tv_sec = (time_t)(cpu_ms * 0.8 / 1000);
	r->ru.ru_utime.tv_usec = (suseconds_t)((long)(cpu_ms * 0.8 * 1000) % 1000000);
	r->ru.ru_stime.tv_usec = (suseconds_t)(cpu_ms * 0.2 * 1000);
	r->ncounts = 2;
	strcpy(r->counts[0].name, "cycles");
	if (enabled_ms >= 0) {
		r->counts[0].opened = r->counts[0].counted = true;
		r->counts[0].enabled = r->counts[0].running = (uint64_t)(enabled_ms * 1e6);
		r->counts[0].value = r->counts[0].enabled * 3;
		r->counts[0].scaled = (double)r->counts[0].value;
	}
	/* From rusage: never lost, and its "enabled" means nothing. */
	strcpy(r->counts[1].name, "page-faults");
	r->counts[1].counted = r->counts[1].from_rusage = true;
	r->counts[1].value = 100;
}

static void decisions(void)
{
	static const struct {
		int line;
		double cpu_ms, enabled_ms;
		enum ti_end end;
		bool lost;
	} cases[] = {
		{ __LINE__, 200, 200, TI_END_EXITED, false },
		/* setuid program: its counters stopped at its exec. */
		{ __LINE__, 200, 0.6, TI_END_EXITED, true },
		{ __LINE__, 200, 0, TI_END_EXITED, true },
		/* One process of three in a tree. */
		{ __LINE__, 300, 200, TI_END_EXITED, true },
		{ __LINE__, 200, 100, TI_END_SIGNALED, true },
		/* The kernel's exit path after the counters stop: 10-14 %. */
		{ __LINE__, 100, 86, TI_END_EXITED, false },
		{ __LINE__, 1000, 751, TI_END_EXITED, false },
		{ __LINE__, 1000, 749, TI_END_EXITED, true },
		/* Tiny runs: less than 10 ms apart is never a loss. */
		{ __LINE__, 9, 0, TI_END_EXITED, false },
		{ __LINE__, 30, 19, TI_END_EXITED, true },
		/* Orphans the counters saw and rusage did not. */
		{ __LINE__, 100, 400, TI_END_EXITED, false },
		/* No counter opened, or the command never ran. */
		{ __LINE__, 200, -1, TI_END_EXITED, false },
		{ __LINE__, 200, 0, TI_END_EXEC_FAILED, false },
		{ __LINE__, 200, 0, TI_END_SETUP_FAILED, false },
	};
	struct ti_record r;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		record(&r, cases[i].cpu_ms, cases[i].enabled_ms, cases[i].end);
		bool lost = ti_record_check_lost(&r);
		tap_ok(lost == cases[i].lost && r.counters_lost == lost, cases[i].line,
		       "cpu %g ms, counters saw %g ms: %s (seen %.3f)", cases[i].cpu_ms,
		       cases[i].enabled_ms, cases[i].lost ? "lost" : "kept", r.counters_seen);
		if (lost)
			tap_ok(r.counts[0].lost && !r.counts[0].counted && r.counts[1].counted &&
				       !r.counts[1].lost, cases[i].line,
			       "the perf counter is lost, the rusage count kept");
		else
			tap_ok(r.counts[0].counted == (cases[i].enabled_ms >= 0) && !r.counts[0].lost,
			       cases[i].line, "counters untouched");
	}
}

#ifdef HAVE_PERF_EVENTS
static void through_the_seam(void)
{
	const char *aux = getenv("AUX");
	char *argv[] = { (char *)aux, "burn", "80", NULL };
	struct ti_plan plan = { .argv = argv };
	struct ti_event_list l;
	struct ti_record r;
	struct ti_failure f = { 0 };
	struct ti_measure_opts o = { .events = &l, .ops = &fake_perf, .rusage_counts = true };
	char bad[64];
	int rc;

	if (!aux) {
		printf("Bail out! AUX is not set\n");
		exit(99);
	}
	(void)ti_events_parse("r0,r1", &l, bad, sizeof bad);

	/* Hardware counters that stopped 0.5 ms into an 80 ms run. */
	fake_reset();
	for (int i = 0; i < 2; i++)
		fake_scripts[i] = (struct fake_script){ .value = 1000, .enabled = 500000,
							.running = 250000 };
	rc = ti_measure(&plan, &o, &r, &f);
	TAP_OK(rc == 0 && r.end == TI_END_EXITED && r.status == 0, "the command ran (%d)", rc);
	TAP_OK(r.counters_lost && r.counters_seen < 0.05, "lost (seen %.4f)", r.counters_seen);
	/* The kernel splits the 80 ms between user and sys by where its
	 * ticks fell (getrusage(2)): only the sum is bounded below. */
	TAP_OK(r.source == TI_SOURCE_RUSAGE && r.user_s + r.sys_s > 0.05,
	       "user + sys from rusage: %.4f + %.4f s", r.user_s, r.sys_s);
	TAP_OK(!ti_record_count(&r, "r0") && !ti_record_count(&r, "r1"), "no event counted");
	TAP_OK(ti_record_count(&r, "page-faults") != NULL, "rusage counts kept");
	struct ti_buf b = { 0 };
	struct ti_summary s = { .r = &r };
	ti_summary_format(&b, &s);
	TAP_OK(b.data && !strstr(b.data, "\nr0 ") && !strstr(b.data, "\nr1 "),
	       "no event line in the summary");
	ti_buf_free(&b);

	/* The same readings over as long as the run: kept. */
	fake_reset();
	for (int i = 0; i < 2; i++)
		fake_scripts[i] = (struct fake_script){ .value = 1000, .enabled = 10000000000ULL,
							.running = 10000000000ULL };
	rc = ti_measure(&plan, &o, &r, &f);
	TAP_OK(rc == 0 && !r.counters_lost && ti_record_count(&r, "r0"), "kept (seen %.1f)",
	       r.counters_seen);

	/* --strict-events: a lost event is one that was not counted. */
	fake_reset();
	for (int i = 0; i < 2; i++)
		fake_scripts[i] = (struct fake_script){ .value = 1000, .enabled = 500000,
							.running = 500000 };
	o.strict_events = true;
	memset(&f, 0, sizeof f);
	rc = ti_measure(&plan, &o, &r, &f);
	TAP_OK(rc == TI_MEASURE_EVENT && f.err == TI_MEASURE_LOST && f.what &&
		       strcmp(f.what, "r0") == 0,
	       "--strict-events fails naming r0 as lost (%d, %s, %d)", rc, f.what ? f.what : "-",
	       f.err);
	TAP_OK(fake_opens == fake_closes, "every counter closed");
}
#endif

int main(void)
{
	decisions();
#ifdef HAVE_PERF_EVENTS
	through_the_seam();
#endif
	return tap_done();
}
