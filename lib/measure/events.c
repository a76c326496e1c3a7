/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* events.c: perf's generic event names, raw events, modifiers and groups. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "pfm.h"

/* Generic names and their (type, config), from perf_event_open(2) and
 * perf's tools/perf/util/parse-events.c.  Hardware config numbers are
 * PERF_COUNT_HW_*, software ones PERF_COUNT_SW_*. */
static const struct generic {
	const char *name;
	uint32_t type;
	uint64_t config;
} generic[] = {
	{ "cycles", TI_TYPE_HARDWARE, 0 },
	{ "cpu-cycles", TI_TYPE_HARDWARE, 0 },
	{ "instructions", TI_TYPE_HARDWARE, 1 },
	{ "cache-references", TI_TYPE_HARDWARE, 2 },
	{ "cache-misses", TI_TYPE_HARDWARE, 3 },
	{ "branches", TI_TYPE_HARDWARE, 4 },
	{ "branch-instructions", TI_TYPE_HARDWARE, 4 },
	{ "branch-misses", TI_TYPE_HARDWARE, 5 },
	{ "bus-cycles", TI_TYPE_HARDWARE, 6 },
	{ "stalled-cycles-frontend", TI_TYPE_HARDWARE, 7 },
	{ "stalled-cycles-backend", TI_TYPE_HARDWARE, 8 },
	{ "ref-cycles", TI_TYPE_HARDWARE, 9 },
	{ "cpu-clock", TI_TYPE_SOFTWARE, 0 },
	{ "task-clock", TI_TYPE_SOFTWARE, 1 },
	{ "page-faults", TI_TYPE_SOFTWARE, 2 },
	{ "faults", TI_TYPE_SOFTWARE, 2 },
	{ "context-switches", TI_TYPE_SOFTWARE, 3 },
	{ "cs", TI_TYPE_SOFTWARE, 3 },
	{ "cpu-migrations", TI_TYPE_SOFTWARE, 4 },
	{ "migrations", TI_TYPE_SOFTWARE, 4 },
	{ "minor-faults", TI_TYPE_SOFTWARE, 5 },
	{ "major-faults", TI_TYPE_SOFTWARE, 6 },
	{ "alignment-faults", TI_TYPE_SOFTWARE, 7 },
	{ "emulation-faults", TI_TYPE_SOFTWARE, 8 },
};

/* No perf software event is opened by default: opening one flips a kernel
 * static key, which patches kernel text on every CPU with IPIs, 80-110 us
 * per event and run in a VM here, disturbing whatever runs on the other
 * CPUs too (docs/cost.md).  lib/measure/measure.c takes context-switches and
 * page-faults from wait4's rusage for free; cpu-migrations, which has no
 * rusage twin, is there for the asking (-e). */
static const char *const default_events[] = {
	"task-clock", "cycles", "instructions",
};

const char *ti_events_generic_name(size_t i)
{
	return i < sizeof generic / sizeof generic[0] ? generic[i].name : NULL;
}

bool ti_event_is_time(const struct ti_event *e)
{
	return e->type == TI_TYPE_SOFTWARE && (e->config == 0 || e->config == 1);
}

bool ti_event_name_is_time(const char *name)
{
	size_t n = strcspn(name, ":");

	return (n == 10 && strncmp(name, "task-clock", n) == 0) ||
	       (n == 9 && strncmp(name, "cpu-clock", n) == 0);
}

const char *ti_events_strerror(int code)
{
	switch (code) {
	case TI_EEVENT_UNKNOWN: return "unknown event";
	case TI_EEVENT_MODIFIER: return "invalid event modifier";
	case TI_EEVENT_SYNTAX: return "invalid event list";
	case TI_EEVENT_TOO_MANY: return "too many events";
	case TI_EEVENT_LIBPFM: return "libpfm4 cannot encode event";
	case TI_EEVENT_PMU:
		return "unsupported perf pmu/.../ event (use a libpfm4 name or rNNNN)";
	}
	return "event error";
}

/* Apply modifiers such as "u", "k", "uk" (perf: u = user only, k = kernel
 * only, h = hypervisor only; several letters count in each). */
static int apply_modifiers(struct ti_event *e, const char *mods)
{
	bool u = false, k = false, h = false;

	if (*mods == '\0')
		return TI_EEVENT_MODIFIER;
	for (const char *p = mods; *p; p++) {
		switch (*p) {
		case 'u': u = true; break;
		case 'k': k = true; break;
		case 'h': h = true; break;
		default: return TI_EEVENT_MODIFIER;
		}
	}
	e->exclude_user = !u;
	e->exclude_kernel = !k;
	e->exclude_hv = !h;
	return 0;
}

/* Raw event "rNNNN": hexadecimal config of PERF_TYPE_RAW. */
static bool parse_raw(const char *s, uint64_t *config)
{
	char *end;

	if (s[0] != 'r' || !isxdigit((unsigned char)s[1]))
		return false;
	for (const char *p = s + 1; *p; p++)
		if (!isxdigit((unsigned char)*p))
			return false;
	errno = 0;
	*config = strtoull(s + 1, &end, 16);
	return errno == 0 && *end == '\0';
}

static int parse_one(const char *tok, struct ti_event *e)
{
	char base[TI_EVENT_NAME_MAX];
	const char *colon;
	size_t len;

	memset(e, 0, sizeof *e);
	len = strlen(tok);
	if (len == 0)
		return TI_EEVENT_SYNTAX;
	if (len >= sizeof e->name)
		return TI_EEVENT_UNKNOWN;
	memcpy(e->name, tok, len + 1);

	colon = strchr(tok, ':');
	len = colon ? (size_t)(colon - tok) : len;
	memcpy(base, tok, len);
	base[len] = '\0';

	/* perf's sysfs PMU syntax: told apart, not passed to libpfm4. */
	if (strchr(tok, '/'))
		return TI_EEVENT_PMU;
	size_t i;
	for (i = 0; i < sizeof generic / sizeof generic[0]; i++)
		if (strcmp(base, generic[i].name) == 0)
			break;
	if (i < sizeof generic / sizeof generic[0]) {
		e->type = generic[i].type;
		e->config = generic[i].config;
	} else if (parse_raw(base, &e->config)) {
		e->type = TI_TYPE_RAW;
	} else {
#ifdef HAVE_LIBPFM
		/* Anything else may be a libpfm4 string ("perf::cycles:u",
		 * "INST_RETIRED.ANY_P"); libpfm4 parses its own modifiers. */
		return ti_pfm_encode(tok, e, NULL, 0);
#else
		return TI_EEVENT_UNKNOWN;
#endif
	}
	return colon ? apply_modifiers(e, colon + 1) : 0;
}

/* The length of the event at P: up to a ',', '{' or '}' that is not
 * inside a PMU's "/.../" ("cpu/event=0x3c,umask=0x0/" is one event, as
 * perf reads it). */
static size_t token_len(const char *p)
{
	bool in_pmu = false;
	size_t n;

	for (n = 0; p[n]; n++) {
		if (p[n] == '/')
			in_pmu = !in_pmu;
		else if (!in_pmu && (p[n] == ',' || p[n] == '{' || p[n] == '}'))
			break;
	}
	return n;
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

int ti_events_parse(const char *list, struct ti_event_list *out, char *bad, size_t badlen)
{
	const char *p = list;
	int group = 0;
	bool in_group = false, first_in_group = false;

	out->n = 0;
	if (bad && badlen)
		bad[0] = '\0';
	if (*p == '\0')
		goto syntax;
	while (*p) {
		char tok[TI_EVENT_NAME_MAX * 2];
		size_t len;
		int rc;

		/* Blanks around names and braces are allowed, as perf allows
		 * them ("cycles, instructions"). */
		p = skip_blanks(p);
		if (*p == '{') {
			if (in_group)
				goto syntax;
			in_group = first_in_group = true;
			p = skip_blanks(p + 1);
		}
		len = token_len(p);
		if (len >= sizeof tok)
			goto syntax_at;
		memcpy(tok, p, len);
		p += len;
		while (len > 0 && (tok[len - 1] == ' ' || tok[len - 1] == '\t'))
			len--;
		tok[len] = '\0';
		if (len == 0)
			goto syntax_at;
		if (out->n == TI_MAX_EVENTS) {
			if (bad)
				snprintf(bad, badlen, "%s", tok);
			return TI_EEVENT_TOO_MANY;
		}
		struct ti_event *e = &out->ev[out->n];
		rc = parse_one(tok, e);
		if (rc) {
			if (bad)
				snprintf(bad, badlen, "%s", tok);
			return rc;
		}
		if (!in_group || first_in_group)
			group++;
		e->group = group;
		e->group_leader = !in_group || first_in_group;
		first_in_group = false;
		out->n++;
		if (*p == '}') {
			if (!in_group)
				goto syntax;
			in_group = false;
			p = skip_blanks(p + 1);
		}
		if (*p == ',') {
			p++;
			if (*skip_blanks(p) == '\0')
				goto syntax;
		} else if (*p != '\0') {
			goto syntax;
		}
	}
	if (in_group)
		goto syntax;
	return 0;
syntax_at:
syntax:
	if (bad)
		snprintf(bad, badlen, "%s", list);
	return TI_EEVENT_SYNTAX;
}

void ti_events_default(struct ti_event_list *out)
{
	char bad[8];
	char list[256] = "";

	for (size_t i = 0; i < sizeof default_events / sizeof default_events[0]; i++) {
		if (i)
			strcat(list, ",");
		strcat(list, default_events[i]);
	}
	(void)ti_events_parse(list, out, bad, sizeof bad);
}
