/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read-lit.c: lit's -o JSON report. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "read-int.h"
#include "read.h"

bool ti_ab_read_lit_probe(const struct ti_ab_input *in)
{
	return !ti_jsonread_get(in->top, "runs") && ti_jsonread_get(in->top, "tests") &&
	       !ti_jsonread_get(in->top, "format_version");
}

/* A test's benchmark name: "SUITE :: PATH.test" is PATH, as LNT's
 * converter (lnt/tests/test_suite.py) names it and a summary tree's
 * PATH.test.time does; with KEEP_SUITE, "SUITE :: PATH". */
static void bench_name(const char *full, bool keep_suite, char *name, size_t len)
{
	const char *sep = strstr(full, " :: ");

	snprintf(name, len, "%s", sep && !keep_suite ? sep + 4 : full);
	size_t n = strlen(name);
	if (n > 5 && strcmp(name + n - 5, ".test") == 0)
		name[n - 5] = '\0';
}

/* The path of a test's name, without its "SUITE :: ". */
static const char *path_of(const char *full)
{
	const char *sep = strstr(full, " :: ");
	return sep ? sep + 4 : full;
}

/* Which tests keep their suite in their name (KEEP[i]): those whose path
 * another suite's test of the file has too ("s1 :: x.test", "s2 ::
 * x.test"); the same name twice is an error.  By a hash table of the
 * paths (positions plus 1), linear in the tests. */
static int suites(const struct ti_ab_input *in, const struct ti_jsonread_value *tests, bool *keep,
		  struct ti_ab_error *err)
{
	size_t ns = 16, *slot;
	const char **names = malloc(tests->n * sizeof *names);
	int rc = 0;

	while (ns < 2 * tests->n)
		ns *= 2;
	if (!names || !(slot = calloc(ns, sizeof *slot))) {
		free(names);
		return -ENOMEM;
	}
	for (size_t i = 0; rc == 0 && i < tests->n; i++) {
		const struct ti_jsonread_value *t = &tests->items[i];
		const struct ti_jsonread_value *nm = ti_jsonread_get(t, "name");
		keep[i] = false;
		if (!nm || nm->type != TI_JSONREAD_STRING) {
			rc = ti_ab_read_error(err, in->path, t->line, "test without a \"name\" string");
			break;
		}
		names[i] = nm->str;
		const char *path = path_of(nm->str);
		size_t k = (size_t)ti_ab_set_hash(path) & (ns - 1);
		for (; slot[k]; k = (k + 1) & (ns - 1)) {
			const struct ti_jsonread_value *o = &tests->items[slot[k] - 1];
			const char *of = names[slot[k] - 1];
			if (strcmp(path_of(of), path) != 0)
				continue;
			if (strcmp(of, nm->str) == 0)
				rc = ti_ab_read_error(err, in->path, t->line,
						      "%s: a second test of this name (the first is line %d)",
						      nm->str, o->line);
			keep[i] = keep[slot[k] - 1] = true;
		}
		/* Every test with this path is in the table: keep marks them all. */
		slot[k] = i + 1;
	}
	free(slot);
	free(names);
	return rc;
}

/* lit -o: {"tests": [{"name": "suite :: path", "code": "PASS",
 * "metrics": {"exec_time": 1.2, ...}}, ...]} (llvm/utils/lit/lit/reports.py). */
int ti_ab_read_lit(struct ti_ab_set *set, const struct ti_ab_input *in, struct ti_ab_error *err)
{
	const char *path = in->path, *metric = in->metric;
	int rc;
	const struct ti_jsonread_value *tests = ti_ab_read_tests(in, err, &rc);
	int total = 0;
	bool *keep;

	if (!tests)
		return rc;
	if (!(keep = malloc(tests->n * sizeof *keep)))
		return -ENOMEM;
	if ((rc = suites(in, tests, keep, err)) < 0)
		goto out;
	for (size_t i = 0; i < tests->n; i++) {
		const struct ti_jsonread_value *t = &tests->items[i];
		const struct ti_jsonread_value *nm = ti_jsonread_get(t, "name");
		const struct ti_jsonread_value *code = ti_jsonread_get(t, "code");
		const struct ti_jsonread_value *metrics = ti_jsonread_get(t, "metrics");
		char name[TI_AB_NAME_MAX];

		bench_name(nm->str, keep[i], name, sizeof name);
		if (code && code->type == TI_JSONREAD_STRING) {
			/* Tests that did not run are not results at all. */
			if (strcmp(code->str, "UNSUPPORTED") == 0 || strcmp(code->str, "SKIPPED") == 0 ||
			    strcmp(code->str, "EXCLUDED") == 0)
				continue;
			if (strcmp(code->str, "PASS") != 0 && strcmp(code->str, "XFAIL") != 0) {
				/* One test, one run: it failed. */
				if ((rc = ti_ab_read_add_values(set, in, name, NULL, code, err)) < 0)
					goto out;
				total += rc;
				continue;
			}
		}
		if (metrics && metrics->type != TI_JSONREAD_OBJECT) {
			rc = ti_ab_read_error(err, path, metrics->line, "%s: \"metrics\" is not an object", name);
			goto out;
		}
		const struct ti_jsonread_value *v = ti_jsonread_get(metrics, metric);
		/* lit's codesize module names the text size by section. */
		if (!v && strcmp(metric, "code_size") == 0 &&
		    !(v = ti_jsonread_get(metrics, "size..text")))
			v = ti_jsonread_get(metrics, "size.__text");
		if ((rc = ti_ab_read_add_values(set, in, name, v, NULL, err)) < 0)
			goto out;
		total += rc;
		/* litsupport's hash module: the md5 of the stripped executable. */
		const struct ti_jsonread_value *h = ti_jsonread_get(metrics, "hash");
		if (h && h->type == TI_JSONREAD_STRING && h->str[0] &&
		    ti_ab_set_add_hash(set, name, h->str, TI_AB_HASH_REPORTED) < 0) {
			rc = -ENOMEM;
			goto out;
		}
	}
	rc = total;
out:
	free(keep);
	return rc;
}

void ti_ab_lit_tests_free(struct ti_ab_lit_test *tests, size_t n)
{
	for (size_t i = 0; tests && i < n; i++) {
		free(tests[i].full);
		free(tests[i].name);
		free(tests[i].unit);
	}
	free(tests);
}

/* The results of TESTS (names checked by suites()), named as
 * ti_ab_read_lit names them. */
static int list_tests(const struct ti_jsonread_value *tests, const bool *keep,
		      struct ti_ab_lit_test *t)
{
	const char *parent = NULL;

	for (size_t i = 0; i < tests->n; i++) {
		const char *full = ti_jsonread_get(&tests->items[i], "name")->str;
		size_t pl = parent ? strlen(parent) : 0;
		char name[TI_AB_NAME_MAX];

		/* lit's reports.py writes a test, then its micro-results as
		 * "TEST:KEY". */
		if (!parent || strncmp(full, parent, pl) != 0 || full[pl] != ':')
			parent = full;
		bench_name(full, keep[i], name, sizeof name);
		t[i].full = strdup(full);
		t[i].name = strdup(name);
		t[i].unit = strdup(parent);
		if (!t[i].full || !t[i].name || !t[i].unit)
			return -ENOMEM;
	}
	return 0;
}

int ti_ab_read_lit_tests(const char *path, struct ti_ab_lit_test **tests, size_t *n,
			 struct ti_ab_error *err)
{
	struct ti_ab_input in = { .path = path };
	struct ti_jsonread_value top;
	struct ti_jsonread_error je;
	char *data = NULL;
	bool *keep = NULL;
	int rc;

	*tests = NULL;
	*n = 0;
	if ((rc = ti_ab_read_file(path, &data, &in.len, err)) < 0)
		return rc;
	rc = ti_jsonread_parse(data, in.len, &top, &je);
	free(data);
	if (rc < 0)
		return rc == -ENOMEM ? rc : ti_ab_read_error(err, path, je.line, "column %d: %s",
							     je.column, je.what);
	in.top = &top;
	const struct ti_jsonread_value *t = ti_jsonread_get(&top, "tests");
	if (!t || t->type != TI_JSONREAD_ARRAY || !ti_ab_read_lit_probe(&in))
		rc = ti_ab_read_error(err, path, 0, "not lit's -o JSON (no \"tests\" array)");
	else if (t->n && (!(keep = malloc(t->n * sizeof *keep)) ||
			  !(*tests = calloc(t->n, sizeof **tests))))
		rc = -ENOMEM;
	else if (t->n && (rc = suites(&in, t, keep, err)) == 0 &&
		 (rc = list_tests(t, keep, *tests)) == 0)
		*n = t->n;
	if (rc < 0) {
		ti_ab_lit_tests_free(*tests, t && t->type == TI_JSONREAD_ARRAY ? t->n : 0);
		*tests = NULL;
	}
	free(keep);
	ti_jsonread_free(&top);
	return rc;
}
