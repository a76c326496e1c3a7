/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* listing.c: --list-events (and --check-env): what this machine offers. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "counters.h"
#include "events.h"
#include "listing.h"
#include "pfm.h"
#include "record.h"

/* One line per event: "NAME  available", "NAME  available (user only)" or
 * "NAME  unavailable (REASON)"; a column so that awk '$2' reads the verdict. */
static void probe_line(FILE *out, const struct ti_perf_ops *ops, const struct ti_event *e,
		       const char *name)
{
	bool user_only = false;
	int rc = ti_counters_probe(ops, e, &user_only);

	if (rc == 0)
		fprintf(out, "%-40s available%s\n", name, user_only ? " (user only)" : "");
	else
		fprintf(out, "%-40s unavailable (%s)\n", name, ti_counters_strerror(-rc));
}

struct pfm_walk {
	FILE *out;
	const struct ti_perf_ops *ops;
};

static void pfm_pmu(void *arg, const char *name, const char *desc, bool present, int nevents)
{
	struct pfm_walk *w = arg;

	fprintf(w->out, "# libpfm4 PMU %s: %s, %d events%s\n", name, desc ? desc : "", nevents,
		present ? "" : ", not present");
}

static void pfm_event(void *arg, const char *fullname, const char *desc)
{
	struct pfm_walk *w = arg;
	struct ti_event e;
	char why[128];

	(void)desc;
	if (ti_pfm_encode(fullname, &e, why, sizeof why) != 0) {
		fprintf(w->out, "%-40s unavailable (%s)\n", fullname, why);
		return;
	}
	probe_line(w->out, w->ops, &e, fullname);
}

int listing_events(FILE *out, const struct ti_perf_ops *ops)
{
	const char *name;

	fprintf(out, "# perf's generic events; add :u (user), :k (kernel), :h (hypervisor);\n"
		     "# raw events as rNNNN (hexadecimal); {a,b} groups are read together\n");
	for (size_t i = 0; (name = ti_events_generic_name(i)) != NULL; i++) {
		struct ti_event_list l;
		char bad[TI_EVENT_NAME_MAX];

		if (ti_events_parse(name, &l, bad, sizeof bad) == 0)
			probe_line(out, ops, &l.ev[0], name);
	}
	if (!ti_pfm_built()) {
		fprintf(out, "# libpfm4: not built in (configure --with-libpfm)\n");
		return 0;
	}
	struct pfm_walk w = { out, ops };
	struct ti_pfm_visitor v = { pfm_pmu, pfm_event, &w, false };
	int rc = ti_pfm_list(&v);
	if (rc < 0) {
		fprintf(stderr, "timeit: libpfm4: %s\n", strerror(-rc));
		return TI_STATUS_INTERNAL;
	}
	return 0;
}

int listing_env(FILE *out, const struct ti_envcheck_opts *o)
{
	struct ti_env_item items[TI_ENV_MAX];
	size_t n = ti_envcheck(o, items);

	/* "NAME  VERDICT  VALUE", then the fix indented on its own line. */
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%-22s %-8s %s\n", items[i].name, ti_verdict_name(items[i].verdict),
			items[i].value);
		if (items[i].fix[0])
			fprintf(out, "%-22s %-8s fix: %s\n", "", "", items[i].fix);
	}
	return 0;
}
