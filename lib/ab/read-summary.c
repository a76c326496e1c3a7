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
#include "read.h"
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

/* What the lines of one summary file gave so far. */
struct summary {
	const char *path, *want;	/* the file, the key of the metric */
	struct ti_ab_sample s;
	double geo[NGEO];
	double ev_value;	/* the escaped key of a reserved event name */
	long status;
	/* Where the lines whose value is taken were: a second one is an
	 * error, as it is for lit, which asserts a single line starting with
	 * "user" (litsupport/modules/timeit.py getUserTimeFromContents). */
	int exit_line, want_line, ev_line;
};

/* KEY is one this reader takes a value from (for metric key WANT). */
static bool used(const char *key, const char *want, bool *escaped)
{
	size_t esc = strlen(TI_KEY_EVENT_ESCAPE);

	*escaped = strncmp(key, TI_KEY_EVENT_ESCAPE, esc) == 0 && strcmp(key + esc, want) == 0;
	return strcmp(key, TI_KEY_EXIT) == 0 || strcmp(key, want) == 0 || *escaped ||
	       ti_ab_read_is_event(key, "instructions") ||
	       ti_ab_read_is_event(key, TI_KEY_VALGRIND_INSTRUCTIONS) ||
	       strcmp(key, TI_KEY_NOISE_FLAGS) == 0 || geometry_key(key) >= 0 ||
	       strcmp(key, TI_KEY_VALGRIND_EST_CYCLES) == 0;
}

/* Take the value V of the line LINE with key KEY, a used one. */
static int take(struct summary *sm, int line, const char *key, const char *val, bool escaped,
		struct ti_ab_error *err)
{
	double v;

	if (strcmp(key, TI_KEY_EXIT) == 0) {
		/* A status is a small integer; also in range: converting a
		 * double outside long's range is undefined behaviour (C11
		 * 6.3.1.4). */
		if (!ti_ab_read_plain(val, &v) || v != floor(v) || v > 2147483647.0)
			return ti_ab_read_error(err, sm->path, line, "exit: bad status '%s'", val);
	} else if (!ti_ab_read_plain(val, &v)) {
		return ti_ab_read_error(err, sm->path, line, "%s: bad number '%s'", key, val);
	}
	int *seen = strcmp(key, TI_KEY_EXIT) == 0 ? &sm->exit_line
		    : strcmp(key, sm->want) == 0 ? &sm->want_line : escaped ? &sm->ev_line : NULL;
	if (seen && *seen)
		return ti_ab_read_error(err, sm->path, line, "%s: second line (the first is line %d)",
					key, *seen);
	if (seen)
		*seen = line;
	if (strcmp(key, TI_KEY_EXIT) == 0)
		sm->status = (long)v;
	if (strcmp(key, sm->want) == 0)
		sm->s.value = v;
	else if (escaped)
		sm->ev_value = v;	/* ti_summary_key's escape for reserved names */
	if (ti_ab_read_is_event(key, "instructions"))
		sm->s.insn = v;
	if (ti_ab_read_is_event(key, TI_KEY_VALGRIND_INSTRUCTIONS))
		sm->s.vg_insn = v;
	if (strcmp(key, TI_KEY_VALGRIND_EST_CYCLES) == 0)
		sm->s.est_cycles = v;
	if (geometry_key(key) >= 0)
		sm->geo[geometry_key(key)] = v;
	/* The noise screen's bits (timeit(1), NOISE SCREEN). */
	if (strcmp(key, TI_KEY_NOISE_FLAGS) == 0)
		sm->s.flags = v >= 1 && v == floor(v) && v <= 65535 ? (unsigned)v : v > 0;
	return 0;
}

/* Line LINE, the LEN bytes at P: a used key's "key number" is taken;
 * any other line may take any form and length (timeit(1), SUMMARY FILE:
 * a later timeit may add lines).  Returns 1 for a line with a key, 0 for
 * a blank one, or an error. */
static int summary_line(struct summary *sm, int line, const char *p, size_t len,
			struct ti_ab_error *err)
{
	char key[128], buf[512], *val, *extra, *save;
	size_t k = 0, kl;
	bool escaped;

	while (k < len && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r'))
		k++;
	for (kl = 0; k + kl < len && p[k + kl] != ' ' && p[k + kl] != '\t' && p[k + kl] != '\r'; kl++)
		;
	if (kl == 0)
		return 0;
	/* No key this reader uses is this long. */
	if (kl >= sizeof key)
		return 1;
	memcpy(key, p + k, kl);
	key[kl] = '\0';
	if (!used(key, sm->want, &escaped))
		return 1;
	if (len >= sizeof buf)
		return ti_ab_read_error(err, sm->path, line, "line too long");
	memcpy(buf, p, len);
	buf[len] = '\0';
	strtok_r(buf, " \t\r", &save);
	val = strtok_r(NULL, " \t\r", &save);
	extra = strtok_r(NULL, " \t\r", &save);
	if (!val || extra)
		return ti_ab_read_error(err, sm->path, line, "expected 'key value'");
	int rc = take(sm, line, key, val, escaped, err);
	return rc < 0 ? rc : 1;
}

/* A timeit summary file (lib/measure/summary.c ti_summary_format): "key value"
 * lines; exit first, then real, user, sys, maxrss and counters. */
int ti_ab_read_summary(struct ti_ab_set *set, const struct ti_ab_input *in,
		       struct ti_ab_error *err)
{
	struct summary sm = { .path = in->path, .want = ti_ab_read_summary_key(in->metric),
			      .s = ti_ab_read_sample(), .ev_value = NAN };
	int line = 0, keys = 0, rc;

	for (size_t g = 0; g < NGEO; g++)
		sm.geo[g] = NAN;
	for (const char *p = in->data; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if ((rc = summary_line(&sm, ++line, p, len, err)) < 0)
			return rc;
		keys += rc;
		p += len + (nl ? 1 : 0);
	}
	if (keys == 0)
		return ti_ab_read_error(err, in->path, 0, "empty summary file");
	/* Every summary says how the command ended (timeit(1), SUMMARY
	 * FILE): without it this is some other file, not a failed run. */
	if (!sm.exit_line)
		return ti_ab_read_error(err, in->path, 0, "not a timeit summary (no 'exit' line)");
	if (isnan(sm.s.value))
		sm.s.value = sm.ev_value;
	sm.s.failed = sm.status != 0;
	sm.s.round = TI_AB_ROUND(in->pos, in->sample);
	if (ti_ab_set_add_run(set, in->name, sm.s, in->path) < 0)
		return -ENOMEM;
	if (!isnan(sm.s.est_cycles)) {
		char g[256];
		ti_ab_read_geometry(sm.geo, g, sizeof g);
		if (ti_ab_set_add_geometry(set, in->name, g) < 0)
			return -ENOMEM;
	}
	return 1;
}
