/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* events-test: event-list parsing, table-driven. */
#include "config.h"

#include <string.h>

#include "events.h"
#include "tap.h"

static const struct {
	int line;
	const char *list;
	int rc;			/* expected return */
	size_t n;		/* events on success */
	const char *bad;	/* offending text on failure */
} cases[] = {
	{ __LINE__, "cycles", 0, 1, NULL },
	{ __LINE__, "task-clock,cycles,instructions", 0, 3, NULL },
	{ __LINE__, "cycles:u,instructions:k", 0, 2, NULL },
	{ __LINE__, "r01c2", 0, 1, NULL },
	{ __LINE__, "rFF:u", 0, 1, NULL },
	{ __LINE__, "{cycles,instructions},page-faults", 0, 3, NULL },
	{ __LINE__, "stalled-cycles-frontend,stalled-cycles-backend", 0, 2, NULL },
	{ __LINE__, "minor-faults,major-faults,alignment-faults,emulation-faults", 0, 4, NULL },
	{ __LINE__, "bogus", TI_EEVENT_UNKNOWN, 0, "bogus" },
	{ __LINE__, "cycles,bogus", TI_EEVENT_UNKNOWN, 0, "bogus" },
	{ __LINE__, "rxyz", TI_EEVENT_UNKNOWN, 0, "rxyz" },
	{ __LINE__, "cycles:q", TI_EEVENT_MODIFIER, 0, "cycles:q" },
	{ __LINE__, "cycles:", TI_EEVENT_MODIFIER, 0, "cycles:" },
	{ __LINE__, "", TI_EEVENT_SYNTAX, 0, "" },
	{ __LINE__, "cycles,", TI_EEVENT_SYNTAX, 0, NULL },
	{ __LINE__, ",cycles", TI_EEVENT_SYNTAX, 0, NULL },
	{ __LINE__, "{cycles,instructions", TI_EEVENT_SYNTAX, 0, NULL },
	{ __LINE__, "cycles}", TI_EEVENT_SYNTAX, 0, NULL },
	{ __LINE__, "{{cycles}}", TI_EEVENT_SYNTAX, 0, NULL },
	/* Blanks around names, as perf takes them; a PMU's /.../ is one event,
	 * commas and all (the whole spec is named when it is unknown). */
	{ __LINE__, "task-clock, page-faults", 0, 2, NULL },
	{ __LINE__, " cycles ,\tinstructions ", 0, 2, NULL },
	{ __LINE__, "{ cycles , instructions } , page-faults", 0, 3, NULL },
	{ __LINE__, "cycles, ", TI_EEVENT_SYNTAX, 0, NULL },
	{ __LINE__, " ", TI_EEVENT_SYNTAX, 0, NULL },
	{ __LINE__, "msr/event=0x00,config1=0/", TI_EEVENT_PMU, 0, "msr/event=0x00,config1=0/" },
	{ __LINE__, "cycles,cpu/event=0x3c,umask=0x0/:u", TI_EEVENT_PMU, 0,
	  "cpu/event=0x3c,umask=0x0/:u" },
};

int main(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ti_event_list l;
		char bad[128];
		int rc = ti_events_parse(cases[i].list, &l, bad, sizeof bad);

		tap_ok(rc == cases[i].rc, cases[i].line, "'%s' returns %d (got %d)", cases[i].list,
		       cases[i].rc, rc);
		if (rc == 0)
			tap_ok(l.n == cases[i].n, cases[i].line, "'%s' has %zu events", cases[i].list,
			       cases[i].n);
		else if (cases[i].bad)
			tap_ok(strcmp(bad, cases[i].bad) == 0, cases[i].line, "'%s' names '%s' (got '%s')",
			       cases[i].list, cases[i].bad, bad);
	}

	struct ti_event_list l;
	char bad[64];

	/* The names keep no blank: they are the summary's keys. */
	ti_events_parse("{ task-clock , page-faults }, cycles:u ", &l, bad, sizeof bad);
	TAP_OK(l.n == 3 && strcmp(l.ev[0].name, "task-clock") == 0 &&
		       strcmp(l.ev[1].name, "page-faults") == 0 && strcmp(l.ev[2].name, "cycles:u") == 0 &&
		       l.ev[0].group == l.ev[1].group && l.ev[2].group != l.ev[0].group,
	       "blanks trimmed, group kept ('%s' '%s' '%s')", l.ev[0].name, l.ev[1].name,
	       l.ev[2].name);

	ti_events_parse("cycles:u,r1a2,{task-clock,page-faults},cs", &l, bad, sizeof bad);
	TAP_OK(l.ev[0].type == TI_TYPE_HARDWARE && l.ev[0].config == 0, "cycles is HW 0");
	TAP_OK(l.ev[0].exclude_kernel && l.ev[0].exclude_hv && !l.ev[0].exclude_user,
	       ":u excludes kernel and hypervisor");
	TAP_OK(l.ev[1].type == TI_TYPE_RAW && l.ev[1].config == 0x1a2, "raw config is hex");
	TAP_OK(l.ev[2].type == TI_TYPE_SOFTWARE && l.ev[2].config == 1, "task-clock is SW 1");
	TAP_OK(l.ev[2].group == l.ev[3].group && l.ev[2].group_leader && !l.ev[3].group_leader,
	       "braces make one group with one leader");
	TAP_OK(l.ev[1].group != l.ev[2].group && l.ev[3].group != l.ev[4].group,
	       "events outside braces are their own groups");
	TAP_OK(l.ev[4].config == 3 && strcmp(l.ev[4].name, "cs") == 0, "alias keeps its spelling");

	/* The defaults: task-clock first, then the hardware events; no
	 * software event (context-switches and page-faults come from rusage). */
	ti_events_default(&l);
	TAP_OK(l.n == 3 && strcmp(l.ev[0].name, "task-clock") == 0 &&
	       strcmp(l.ev[2].name, "instructions") == 0, "default events");

	/* More than TI_MAX_EVENTS. */
	char many[TI_MAX_EVENTS * 16] = "";
	for (int i = 0; i <= TI_MAX_EVENTS; i++)
		strcat(many, i ? ",page-faults" : "page-faults");
	TAP_OK(ti_events_parse(many, &l, bad, sizeof bad) == TI_EEVENT_TOO_MANY, "too many events");
	return tap_done();
}
