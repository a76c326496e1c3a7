/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read-summary.c: the timeit summary file, "key value" lines (timeit(1),
 * SUMMARY FILE). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "read-int.h"
#include "summary.h"

/* The summary lines of the simulated caches and the cost weights
 * (timeit(1), CACHE SIMULATION), in the order ti_ab_read_geometry wants. */
static const char *const geometry_keys[NGEO] = {
	TI_KEY_VALGRIND_I1_SIZE, TI_KEY_VALGRIND_I1_ASSOC, TI_KEY_VALGRIND_I1_LINE,
	TI_KEY_VALGRIND_D1_SIZE, TI_KEY_VALGRIND_D1_ASSOC, TI_KEY_VALGRIND_D1_LINE,
	TI_KEY_VALGRIND_LL_SIZE, TI_KEY_VALGRIND_LL_ASSOC, TI_KEY_VALGRIND_LL_LINE,
	TI_KEY_VALGRIND_WEIGHT_L1, TI_KEY_VALGRIND_WEIGHT_LL, TI_KEY_VALGRIND_WEIGHT_MISPREDICT,
};

static int geometry_key(const char *key)
{
	for (int i = 0; i < NGEO; i++)
		if (strcmp(key, geometry_keys[i]) == 0)
			return i;
	return -1;
}

/* Anything that is not JSON is read as a summary. */
bool ti_ab_read_summary_probe(const struct ti_ab_input *in)
{
	return !in->top;
}

/* A timeit summary file (lib/summary.c ti_summary_format): "key value"
 * lines; exit first, then real, user, sys, maxrss and counters. */
int ti_ab_read_summary(struct ti_ab_set *set, const struct ti_ab_input *in,
		       struct ti_ab_error *err)
{
	const char *path = in->path, *name = in->name, *data = in->data;
	const char *want = ti_ab_read_summary_key(in->metric);
	struct ti_ab_sample s = ti_ab_read_sample();
	double geo[NGEO];
	double ev_value = NAN;
	long status = 0;
	int line = 0, keys = 0;
	/* Where the lines whose value is taken were: a second one is an
	 * error, as it is for lit, which asserts a single line starting with
	 * "user" (litsupport/modules/timeit.py getUserTimeFromContents). */
	int exit_line = 0, want_line = 0, ev_line = 0;
	size_t esc = strlen(TI_KEY_EVENT_ESCAPE);

	for (size_t g = 0; g < NGEO; g++)
		geo[g] = NAN;

	for (const char *p = data; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char buf[512], *key, *val, *extra, *save;
		double v;

		line++;
		if (len >= sizeof buf)
			return ti_ab_read_error(err, path, line, "line too long");
		memcpy(buf, p, len);
		buf[len] = '\0';
		p += len + (nl ? 1 : 0);
		if (len > 0 && buf[len - 1] == '\r')
			buf[len - 1] = '\0';
		if (!(key = strtok_r(buf, " \t", &save)))
			continue;
		val = strtok_r(NULL, " \t", &save);
		extra = strtok_r(NULL, " \t", &save);
		if (!val)
			return ti_ab_read_error(err, path, line, "expected 'key value'");
		keys++;
		/* Lines this reader uses must be "key number"; others may take
		 * any form a later timeit gives them. */
		bool escaped = strncmp(key, TI_KEY_EVENT_ESCAPE, esc) == 0 &&
			       strcmp(key + esc, want) == 0;
		bool used = strcmp(key, TI_KEY_EXIT) == 0 || strcmp(key, want) == 0 || escaped ||
			    ti_ab_read_is_event(key, "instructions") ||
			    ti_ab_read_is_event(key, TI_KEY_VALGRIND_INSTRUCTIONS) ||
			    strcmp(key, TI_KEY_NOISE_FLAGS) == 0 || geometry_key(key) >= 0 ||
			    strcmp(key, TI_KEY_VALGRIND_EST_CYCLES) == 0;
		if (!used)
			continue;
		if (extra)
			return ti_ab_read_error(err, path, line, "expected 'key value'");
		if (strcmp(key, TI_KEY_EXIT) == 0) {
			/* A status is a small integer; also in range: converting
			 * a double outside long's range is undefined behaviour
			 * (C11 6.3.1.4). */
			if (!ti_ab_read_plain(val, &v) || v != floor(v) || v > 2147483647.0)
				return ti_ab_read_error(err, path, line, "exit: bad status '%s'", val);
		} else if (!ti_ab_read_plain(val, &v)) {
			return ti_ab_read_error(err, path, line, "%s: bad number '%s'", key, val);
		}
		int *seen = strcmp(key, TI_KEY_EXIT) == 0 ? &exit_line
			    : strcmp(key, want) == 0 ? &want_line : escaped ? &ev_line : NULL;
		if (seen && *seen)
			return ti_ab_read_error(err, path, line, "%s: second line (the first is line %d)", key, *seen);
		if (seen)
			*seen = line;
		if (strcmp(key, TI_KEY_EXIT) == 0)
			status = (long)v;
		if (strcmp(key, want) == 0)
			s.value = v;
		else if (escaped)
			ev_value = v;	/* ti_summary_key's escape for reserved names */
		if (ti_ab_read_is_event(key, "instructions"))
			s.insn = v;
		if (ti_ab_read_is_event(key, TI_KEY_VALGRIND_INSTRUCTIONS))
			s.vg_insn = v;
		if (strcmp(key, TI_KEY_VALGRIND_EST_CYCLES) == 0)
			s.est_cycles = v;
		if (geometry_key(key) >= 0)
			geo[geometry_key(key)] = v;
		/* The noise screen's bits (timeit(1), NOISE SCREEN). */
		if (strcmp(key, TI_KEY_NOISE_FLAGS) == 0)
			s.flags = v >= 1 && v == floor(v) && v <= 65535 ? (unsigned)v : v > 0;
	}
	if (keys == 0)
		return ti_ab_read_error(err, path, 0, "empty summary file");
	if (isnan(s.value))
		s.value = ev_value;
	s.failed = status != 0;
	s.round = TI_AB_ROUND(in->pos, in->sample);
	if (ti_ab_read_add_run(set, name, s, path) < 0)
		return -ENOMEM;
	if (!isnan(s.est_cycles)) {
		char g[256];
		ti_ab_read_geometry(geo, g, sizeof g);
		if (ti_ab_read_add_geometry(set, name, g) < 0)
			return -ENOMEM;
	}
	return 1;
}
