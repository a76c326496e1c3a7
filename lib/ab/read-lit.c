/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read-lit.c: lit's -o JSON report. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
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
		const char *sep;
		char name[1024];

		if (!nm || nm->type != TI_JSONREAD_STRING)
			return ti_ab_read_error(err, path, t->line, "test without a \"name\" string");
		/* "SUITE :: PATH.test": LNT's converter (lnt/tests/test_suite.py)
		 * names it PATH, as a summary tree's PATH.test.time does. */
		sep = strstr(nm->str, " :: ");
		snprintf(name, sizeof name, "%s", sep ? sep + 4 : nm->str);
		if (strlen(name) > 5 && strcmp(name + strlen(name) - 5, ".test") == 0)
			name[strlen(name) - 5] = '\0';
		if (code && code->type == TI_JSONREAD_STRING) {
			/* Tests that did not run are not results at all. */
			if (strcmp(code->str, "UNSUPPORTED") == 0 || strcmp(code->str, "SKIPPED") == 0 ||
			    strcmp(code->str, "EXCLUDED") == 0)
				continue;
			if (strcmp(code->str, "PASS") != 0 && strcmp(code->str, "XFAIL") != 0) {
				struct ti_ab_sample s = ti_ab_read_sample();
				s.failed = true;
				s.round = TI_AB_ROUND(in->pos, 0);
				if (ti_ab_read_add_run(set, name, s, path) < 0)
					return -ENOMEM;
				total++;
				continue;
			}
		}
		if (metrics && metrics->type != TI_JSONREAD_OBJECT)
			return ti_ab_read_error(err, path, metrics->line, "%s: \"metrics\" is not an object", name);
		const struct ti_jsonread_value *v = ti_jsonread_get(metrics, metric);
		/* lit's codesize module names the text size by section. */
		if (!v && strcmp(metric, "code_size") == 0 &&
		    !(v = ti_jsonread_get(metrics, "size..text")))
			v = ti_jsonread_get(metrics, "size.__text");
		if ((rc = ti_ab_read_add_values(set, in, name, v, err)) < 0)
			return rc;
		total += rc;
		/* litsupport's hash module: the md5 of the stripped executable. */
		const struct ti_jsonread_value *h = ti_jsonread_get(metrics, "hash");
		if (h && h->type == TI_JSONREAD_STRING && h->str[0] &&
		    ti_ab_read_add_hash(set, name, h->str, TI_AB_HASH_REPORTED) < 0)
			return -ENOMEM;
	}
	return total;
}
