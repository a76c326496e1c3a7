/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* pfm-test: libpfm4 event strings through ti_events_parse and the listing
 * walk.  Encodings checked are those of libpfm4's generic perf:: table,
 * which every machine has (hardware PMU tables differ per CPU). */
#include "config.h"

#include <string.h>

#include "events.h"
#include "pfm.h"
#include "tap.h"

#ifdef HAVE_LIBPFM

static int pmus, events, perf_events;

static void on_pmu(void *arg, const char *name, const char *desc, bool present, int n)
{
	(void)arg;
	(void)desc;
	(void)n;
	if (present)
		pmus++;
	(void)name;
}

static void on_event(void *arg, const char *fullname, const char *desc)
{
	(void)arg;
	(void)desc;
	events++;
	if (strncmp(fullname, "perf::", 6) == 0)
		perf_events++;
}

int main(void)
{
	static const struct {
		int line;
		const char *list;
		int rc;
		uint32_t type;
		uint64_t config;
		bool exclude_user, exclude_kernel;
	} cases[] = {
		/* perf::cycles is PERF_TYPE_HARDWARE / PERF_COUNT_HW_CPU_CYCLES. */
		{ __LINE__, "perf::cycles", 0, 0, 0, false, false },
		{ __LINE__, "perf::cycles:u", 0, 0, 0, false, true },
		{ __LINE__, "perf::instructions:k", 0, 0, 1, true, false },
		/* PERF_TYPE_SOFTWARE / PERF_COUNT_SW_TASK_CLOCK, case-insensitive. */
		{ __LINE__, "PERF::TASK-CLOCK", 0, 1, 1, false, false },
		{ __LINE__, "perf::PERF_COUNT_SW_CPU_MIGRATIONS", 0, 1, 4, false, false },
		/* Generic names still win: parsed by timeit, not libpfm4. */
		{ __LINE__, "cycles:u", 0, 0, 0, false, true },
		{ __LINE__, "perf::no-such-event", TI_EEVENT_UNKNOWN, 0, 0, false, false },
		{ __LINE__, "perf::cycles:zz", TI_EEVENT_LIBPFM, 0, 0, false, false },
	};
	struct ti_event_list l;
	char bad[64];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc = ti_events_parse(cases[i].list, &l, bad, sizeof bad);

		tap_ok(rc == cases[i].rc, cases[i].line, "%s: rc %d, want %d", cases[i].list, rc,
		       cases[i].rc);
		if (rc != 0) {
			tap_ok(strcmp(bad, cases[i].list) == 0, cases[i].line, "bad event named '%s'", bad);
			continue;
		}
		tap_ok(l.n == 1 && l.ev[0].type == cases[i].type && l.ev[0].config == cases[i].config,
		       cases[i].line, "%s: type %u config %llu", cases[i].list, (unsigned)l.ev[0].type,
		       (unsigned long long)l.ev[0].config);
		tap_ok(l.ev[0].exclude_user == cases[i].exclude_user &&
			       l.ev[0].exclude_kernel == cases[i].exclude_kernel,
		       cases[i].line, "%s: exclude_user %d exclude_kernel %d", cases[i].list,
		       l.ev[0].exclude_user, l.ev[0].exclude_kernel);
		tap_ok(strcmp(l.ev[0].name, cases[i].list) == 0, cases[i].line, "name kept");
	}

	/* A libpfm4 string in a group, beside generic names. */
	int rc = ti_events_parse("{perf::task-clock,cs},perf::page-faults", &l, bad, sizeof bad);
	TAP_OK(rc == 0 && l.n == 3 && l.ev[0].group == l.ev[1].group && l.ev[0].group_leader &&
		       !l.ev[1].group_leader && l.ev[2].group != l.ev[0].group,
	       "libpfm4 strings take part in groups");

	struct ti_pfm_visitor v = { on_pmu, on_event, NULL, false };
	TAP_OK(ti_pfm_list(&v) == 0, "listing walks");
	TAP_OK(pmus >= 1 && perf_events >= 10, "the perf:: PMU is listed with its events (%d)",
	       perf_events);
	TAP_OK(events >= perf_events, "events counted: %d", events);
	return tap_done();
}

#else

int main(void)
{
	printf("1..0 # SKIP built without libpfm4 (configure --with-libpfm)\n");
	return 0;
}

#endif
