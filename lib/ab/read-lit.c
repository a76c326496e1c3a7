/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read-lit.c: lit's -o JSON report. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "read-int.h"

bool ti_ab_read_lit_probe(const struct ti_ab_input *in)
{
	return !ti_jsonread_get(in->top, "runs") && ti_jsonread_get(in->top, "tests") &&
	       !ti_jsonread_get(in->top, "format_version");
}

/* lit -o: {"tests": [{"name": "suite :: path", "code": "PASS",
 * "metrics": {"exec_time": 1.2, ...}}, ...]} (llvm/utils/lit/lit/reports.py). */
int ti_ab_read_lit(struct ti_ab_set *set, const struct ti_ab_input *in, struct ti_ab_error *err)
{
	const char *path = in->path, *metric = in->metric;
	int rc;
	const struct ti_jsonread_value *tests = ti_ab_read_tests(in, err, &rc);
	int total = 0;

	if (!tests)
		return rc;

	for (size_t i = 0; i < tests->n; i++) {
		const struct ti_jsonread_value *t = &tests->items[i];
		const struct ti_jsonread_value *nm = ti_jsonread_get(t, "name");
		const struct ti_jsonread_value *code = ti_jsonread_get(t, "code");
		const struct ti_jsonread_value *metrics = ti_jsonread_get(t, "metrics");
		const char *name, *sep;

		if (!nm || nm->type != TI_JSONREAD_STRING)
			return ti_ab_read_error(err, path, t->line, "test without a \"name\" string");
		sep = strstr(nm->str, " :: ");
		name = sep ? sep + 4 : nm->str;
		if (code && code->type == TI_JSONREAD_STRING) {
			/* Tests that did not run are not results at all. */
			if (strcmp(code->str, "UNSUPPORTED") == 0 || strcmp(code->str, "SKIPPED") == 0 ||
			    strcmp(code->str, "EXCLUDED") == 0)
				continue;
			if (strcmp(code->str, "PASS") != 0 && strcmp(code->str, "XFAIL") != 0) {
				struct ti_ab_sample s = { NAN, NAN, NAN };
				if (ti_ab_read_add_run(set, name, true, s, path) < 0)
					return -ENOMEM;
				total++;
				continue;
			}
		}
		if (metrics && metrics->type != TI_JSONREAD_OBJECT)
			return ti_ab_read_error(err, path, metrics->line, "%s: \"metrics\" is not an object", name);
		if ((rc = ti_ab_read_add_values(set, name, ti_jsonread_get(metrics, metric), path, metric,
				     err)) < 0)
			return rc;
		total += rc;
	}
	return total;
}
