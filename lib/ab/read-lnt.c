/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read-lnt.c: LNT's report JSON. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "read-int.h"

bool ti_ab_read_lnt_probe(const struct ti_ab_input *in)
{
	return !ti_jsonread_get(in->top, "runs") && ti_jsonread_get(in->top, "tests") &&
	       ti_jsonread_get(in->top, "format_version");
}

/* LNT report format_version 2 (lnt/testing/__init__.py): {"format_version":
 * "2", "machine": {...}, "run": {...}, "tests": [{"name": ..., "execution_time":
 * [samples] or value, ...}]}.  LNT's own metric names are tried as well. */
int ti_ab_read_lnt(struct ti_ab_set *set, const struct ti_ab_input *in, struct ti_ab_error *err)
{
	const char *path = in->path, *metric = in->metric;
	int rc;
	const struct ti_jsonread_value *tests = ti_ab_read_tests(in, err, &rc);
	static const struct { const char *ours, *lnt; } alias[] = {
		{ "exec_time", "execution_time" },
		{ "maxrss", "mem_bytes" },
	};
	char dashless[128];
	int total = 0;

	if (!tests)
		return rc;

	snprintf(dashless, sizeof dashless, "%s", metric);
	for (char *c = dashless; *c; c++)
		if (*c == '-')
			*c = '_';
	for (size_t i = 0; i < tests->n; i++) {
		const struct ti_jsonread_value *t = &tests->items[i];
		const struct ti_jsonread_value *nm = ti_jsonread_get(t, "name"), *v, *st;

		if (!nm || nm->type != TI_JSONREAD_STRING)
			return ti_ab_read_error(err, path, t->line, "test without a \"name\" string");
		/* A status field that is present and not a pass marks a failure. */
		st = ti_jsonread_get(t, "execution_status");
		if (!st)
			st = ti_jsonread_get(t, "compile_status");
		if (st && !(st->type == TI_JSONREAD_NUMBER && st->num == 0) &&
		    !(st->type == TI_JSONREAD_STRING && strcasecmp(st->str, "PASS") == 0)) {
			struct ti_ab_sample s = { NAN, NAN, NAN };
			if (ti_ab_read_add_run(set, nm->str, true, s, path) < 0)
				return -ENOMEM;
			total++;
			continue;
		}
		v = ti_jsonread_get(t, metric);
		if (!v)
			v = ti_jsonread_get(t, dashless);
		for (size_t a = 0; !v && a < sizeof alias / sizeof alias[0]; a++)
			if (strcmp(metric, alias[a].ours) == 0)
				v = ti_jsonread_get(t, alias[a].lnt);
		if ((rc = ti_ab_read_add_values(set, nm->str, v, path, metric, err)) < 0)
			return rc;
		total += rc;
	}
	return total;
}
