/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* events.h: event names to perf_event_attr fields, independent of the
 * perf headers so the portable build can parse (and then skip) them. */
#ifndef TI_EVENTS_H
#define TI_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"

/* perf_event_attr.type values (linux/perf_event.h, stable ABI). */
enum { TI_TYPE_HARDWARE = 0, TI_TYPE_SOFTWARE = 1, TI_TYPE_RAW = 4 };

struct ti_event {
	char name[TI_EVENT_NAME_MAX];	/* as the user wrote it, e.g. "cycles:u" */
	uint32_t type;
	uint64_t config;
	uint64_t config1, config2;	/* extra encoding (libpfm4 offcore events) */
	bool exclude_user, exclude_kernel, exclude_hv;
	int group;			/* events with the same group are scheduled together */
	bool group_leader;
};

struct ti_event_list {
	size_t n;
	struct ti_event ev[TI_MAX_EVENTS];
};

/* Error codes of ti_events_parse (negative). */
enum {
	TI_EEVENT_UNKNOWN = -1,		/* no such event name */
	TI_EEVENT_MODIFIER = -2,	/* bad :modifier */
	TI_EEVENT_SYNTAX = -3,		/* empty name, unbalanced braces */
	TI_EEVENT_TOO_MANY = -4,	/* more than TI_MAX_EVENTS */
	TI_EEVENT_LIBPFM = -5,		/* libpfm4 could not encode it */
	TI_EEVENT_PMU = -6,		/* perf's "pmu/term=value,.../" syntax */
};

/* Parse a comma-separated LIST ("cycles:u,{instructions,branches},r01c2")
 * into OUT.  Returns 0, or a TI_EEVENT_* code with the offending event
 * copied to BAD (size BADLEN). */
int ti_events_parse(const char *list, struct ti_event_list *out, char *bad, size_t badlen);

/* The default events: task-clock, cycles, instructions (context switches
 * and page faults come from rusage instead, lib/measure/measure.c). */
void ti_events_default(struct ti_event_list *out);

/* Text for a TI_EEVENT_* code. */
const char *ti_events_strerror(int code);

/* Iterate over the generic names timeit knows: returns the I-th name or NULL. */
const char *ti_events_generic_name(size_t i);

/* True for events whose value is a time in nanoseconds (task-clock, cpu-clock). */
bool ti_event_is_time(const struct ti_event *e);

/* The same for an event by its name as written, modifiers included
 * ("task-clock:u"), for records that keep only the name. */
bool ti_event_name_is_time(const char *name);

#endif
