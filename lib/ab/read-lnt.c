/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read-lnt.c: LNT's report JSON, format 2 ({"format_version": "2",
 * "tests": [{"name": ..., "execution_time": [...]}]}) and format 1
 * ({"Run": {"Info": {"tag": "nts"}}, "Tests": [{"Name": "nts.X.exec",
 * "Data": [...]}]}, what LNT's lit conversion writes).  Facts from LNT
 * (lnt/testing/__init__.py upgrade_1_to_2, lnt/tests/test_suite.py):
 * format 1 names are "TAG.NAME.METRIC" with the nts suffixes below; a
 * test's link time is filed as the compile time of a test "NAME-link";
 * statuses are numbers, 0 a pass. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "read-int.h"
#include "read.h"
#include "util.h"

bool ti_ab_read_lnt_probe(const struct ti_ab_input *in)
{
	return !ti_jsonread_get(in->top, "runs") &&
	       ((ti_jsonread_get(in->top, "tests") && ti_jsonread_get(in->top, "format_version")) ||
		(ti_jsonread_get(in->top, "Tests") && ti_jsonread_get(in->top, "Run")));
}

/* Our metric names for LNT's, and the other way round. */
static const struct {
	const char *ours, *lnt;
} alias[] = {
	{ "exec_time", "execution_time" },
	{ "maxrss", "mem_bytes" },
	{ "code_size", "code_size" },
};

/* Format 1's metric suffixes of the nts suite (LNT's _nts_upgrade). */
static const struct {
	const char *suffix, *metric;
} v1_suffix[] = {
	{ ".exec.status", "execution_status" },
	{ ".compile.status", "compile_status" },
	{ ".hash.status", "hash_status" },
	{ ".code_size", "code_size" },
	{ ".compile", "compile_time" },
	{ ".exec", "execution_time" },
	{ ".hash", "hash" },
	{ ".mem", "mem_bytes" },
	{ ".score", "score" },
};

/* One metric of one test, from either format. */
struct entry {
	char *name;		/* the benchmark, without a suite prefix */
	const char *metric;	/* LNT's name */
	const struct ti_jsonread_value *v;
	int line;
	bool done;		/* its test has been read */
};

struct entries {
	struct entry *e;
	size_t n, cap;
};

static int push(struct entries *l, const char *name, size_t namelen, const char *metric,
		const struct ti_jsonread_value *v, int line)
{
	struct entry *ne = ti_grow(l->e, &l->cap, l->n + 1, sizeof *l->e, 64);
	if (!ne)
		return -ENOMEM;
	l->e = ne;
	if (!(l->e[l->n].name = strndup(name, namelen)))
		return -ENOMEM;
	l->e[l->n].metric = metric;
	l->e[l->n].v = v;
	l->e[l->n].line = line;
	l->e[l->n].done = false;
	l->n++;
	return 0;
}

/* "nts." prefixes of names: LNT's own converters strip it, timeit's
 * suite wrote it before 0.2. */
static const char *unprefixed(const char *name, const char *tag)
{
	size_t n = strlen(tag);
	return n && strncmp(name, tag, n) == 0 && name[n] == '.' ? name + n + 1 : name;
}

/* Format 2: every member of a test object other than "name" is a metric. */
static int entries_v2(const struct ti_ab_input *in, struct entries *l, struct ti_ab_error *err)
{
	int rc;
	const struct ti_jsonread_value *tests = ti_ab_read_tests(in, err, &rc);

	if (!tests)
		return rc;
	for (size_t i = 0; i < tests->n; i++) {
		const struct ti_jsonread_value *t = &tests->items[i];
		const struct ti_jsonread_value *nm = ti_jsonread_get(t, "name");

		if (!nm || nm->type != TI_JSONREAD_STRING)
			return ti_ab_read_error(err, in->path, t->line, "test without a \"name\" string");
		const char *name = unprefixed(nm->str, "nts");
		for (size_t k = 0; k < t->n; k++)
			if (strcmp(t->keys[k], "name") != 0 &&
			    (rc = push(l, name, strlen(name), t->keys[k], &t->items[k], t->line)) < 0)
				return rc;
	}
	return 0;
}

/* Format 1: "TAG.NAME.SUFFIX" names with their "Data". */
static int entries_v1(const struct ti_ab_input *in, struct entries *l, struct ti_ab_error *err)
{
	const struct ti_jsonread_value *tests = ti_jsonread_get(in->top, "Tests");
	const struct ti_jsonread_value *tag = ti_jsonread_get(
		ti_jsonread_get(ti_jsonread_get(in->top, "Run"), "Info"), "tag");
	const char *t = tag && tag->type == TI_JSONREAD_STRING ? tag->str : "nts";
	int rc;

	if (tests->type != TI_JSONREAD_ARRAY)
		return ti_ab_read_error(err, in->path, tests->line, "\"Tests\" is %s, not an array",
					ti_jsonread_a_type(tests->type));
	if (tests->n == 0)
		return ti_ab_read_no_tests(err, in->path, tests->line);
	for (size_t i = 0; i < tests->n; i++) {
		const struct ti_jsonread_value *e = &tests->items[i];
		const struct ti_jsonread_value *nm = ti_jsonread_get(e, "Name");
		const struct ti_jsonread_value *data = ti_jsonread_get(e, "Data");
		const char *metric = NULL, *name;
		size_t len = 0;

		if (!nm || nm->type != TI_JSONREAD_STRING)
			return ti_ab_read_error(err, in->path, e->line, "test without a \"Name\" string");
		name = unprefixed(nm->str, t);
		for (size_t k = 0; !metric && k < sizeof v1_suffix / sizeof v1_suffix[0]; k++) {
			size_t sl = strlen(v1_suffix[k].suffix), nl = strlen(name);
			if (nl > sl && strcmp(name + nl - sl, v1_suffix[k].suffix) == 0) {
				metric = v1_suffix[k].metric;
				len = nl - sl;
			}
		}
		if (!metric) {
			/* Unknown metrics: LNT takes the last ".word". */
			const char *dot = strrchr(name, '.');
			if (!dot || dot == name || !dot[1])
				return ti_ab_read_error(err, in->path, e->line,
							"%s: name does not end in .metric", nm->str);
			metric = dot + 1;
			len = (size_t)(dot - name);
		}
		if ((rc = push(l, name, len, metric, data, e->line)) < 0)
			return rc;
	}
	return 0;
}

/* The entries sorted by name, then metric, then place in the file: each
 * test's entries side by side, found by binary search. */
static int cmp_entry(const void *x, const void *y)
{
	const struct entry *a = *(const struct entry *const *)x, *b = *(const struct entry *const *)y;
	int c = strcmp(a->name, b->name);

	if (!c)
		c = strcmp(a->metric, b->metric);
	return c ? c : (a > b) - (a < b);
}

/* The first of the sorted entries S (N of them) of the test named by the
 * LEN bytes at NAME, or N when there is none. */
static size_t first_entry(struct entry *const *s, size_t n, const char *name, size_t len)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(s[mid]->name, name, len);
		if (c == 0 && s[mid]->name[len] != '\0')
			c = 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strncmp(s[lo]->name, name, len) == 0 && s[lo]->name[len] == '\0' ? lo : n;
}

/* One test: its sorted entries S[FROM..TO). */
struct test {
	struct entry *const *s;
	size_t from, to;
};

static const struct entry *lookup(const struct test *t, const char *metric)
{
	for (size_t i = t->from; i < t->to; i++)
		if (strcmp(t->s[i]->metric, metric) == 0)
			return t->s[i];
	return NULL;
}

/* The hash metric: a string, or a list of them (one per sample). */
static const char *hash_of(const struct ti_jsonread_value *v)
{
	if (v && v->type == TI_JSONREAD_ARRAY && v->n > 0)
		v = &v->items[0];
	return v && v->type == TI_JSONREAD_STRING && v->str[0] ? v->str : NULL;
}

/* The string member KEY of V into OUT, when OUT is still empty. */
/* OUT (of LEN bytes) from V's string KEY, unless set; -1 when the string
 * does not fit (a name cut short would name another machine or order). */
static int info(char *out, size_t len, const struct ti_jsonread_value *v, const char *key)
{
	const struct ti_jsonread_value *s = ti_jsonread_get(v, key);

	if (out[0] || !s || s->type != TI_JSONREAD_STRING)
		return 0;
	if (strlen(s->str) >= len)
		return -1;
	memcpy(out, s->str, strlen(s->str) + 1);
	return 0;
}

/* The run's machine, order and start time: format 2's "machine" "name",
 * "run" "llvm_project_revision" (the order of LNT's nts suite) and
 * "start_time"; format 1's "Machine" "Name", "Run" "Info" "run_order" and
 * "Run" "Start Time" (LNT's lnt/testing/__init__.py).  An error when one
 * is longer than its field. */
static int run_info(struct ti_ab_set *set, const struct ti_ab_input *in, struct ti_ab_error *err)
{
	struct ti_ab_run_info *r = &set->run;
	const struct ti_jsonread_value *run = ti_jsonread_get(in->top, "run");
	int bad = 0;

	bad |= info(r->machine, sizeof r->machine, ti_jsonread_get(in->top, "machine"), "name");
	bad |= info(r->order, sizeof r->order, run, "llvm_project_revision");
	bad |= info(r->start, sizeof r->start, run, "start_time");
	run = ti_jsonread_get(in->top, "Run");
	bad |= info(r->machine, sizeof r->machine, ti_jsonread_get(in->top, "Machine"), "Name");
	bad |= info(r->order, sizeof r->order, ti_jsonread_get(run, "Info"), "run_order");
	bad |= info(r->start, sizeof r->start, run, "Start Time");
	if (bad)
		return ti_ab_read_error(err, in->path, 0, "the machine's name, the run order or the "
					"start time is longer than %zu, %zu or %zu bytes",
					sizeof r->machine - 1, sizeof r->order - 1, sizeof r->start - 1);
	return 0;
}

/* Read test T as benchmark NAME: metric WANT (else DASHLESS), with its
 * status. */
static int read_test(struct ti_ab_set *set, const struct ti_ab_input *in, const struct test *t,
		     const char *name, const char *want, const char *dashless,
		     struct ti_ab_error *err)
{
	const struct entry *v = lookup(t, want);
	int rc;

	if (!v && strcmp(want, in->metric) == 0)
		v = lookup(t, dashless);
	const struct entry *st = lookup(t, "execution_status");
	const struct entry *cst = lookup(t, "compile_status");
	/* A test that failed to build has no run: only its failure. */
	if (cst && ti_ab_read_failures(cst->v)) {
		st = cst;
		v = NULL;
	}
	if ((rc = ti_ab_read_add_values(set, in, name, v ? v->v : NULL, st ? st->v : NULL, err)) < 0)
		return rc;
	const struct entry *h = lookup(t, "hash");
	if (h && hash_of(h->v) &&
	    ti_ab_set_add_hash(set, name, hash_of(h->v), TI_AB_HASH_REPORTED) < 0)
		return -ENOMEM;
	return rc;
}

/* A metric given twice for one test: the same test twice in one file. */
static int duplicates(const struct ti_ab_input *in, struct entry *const *s, size_t n,
		      struct ti_ab_error *err)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(s[i]->name, s[i - 1]->name) == 0 && strcmp(s[i]->metric, s[i - 1]->metric) == 0)
			return ti_ab_read_error(err, in->path, s[i]->line,
						"%s: a second entry of this test (the first is line %d)",
						s[i]->name, s[i - 1]->line);
	return 0;
}

int ti_ab_read_lnt(struct ti_ab_set *set, const struct ti_ab_input *in, struct ti_ab_error *err)
{
	const char *metric = in->metric, *want = metric;
	struct entries l = { 0 };
	struct entry **s = NULL;
	char dashless[128];
	bool link;
	int rc, total = 0;

	rc = ti_jsonread_get(in->top, "Tests") && !ti_jsonread_get(in->top, "tests")
		     ? entries_v1(in, &l, err) : entries_v2(in, &l, err);
	if (rc < 0)
		goto out;
	if (!(s = malloc((l.n ? l.n : 1) * sizeof *s))) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < l.n; i++)
		s[i] = &l.e[i];
	qsort(s, l.n, sizeof *s, cmp_entry);
	if ((rc = duplicates(in, s, l.n, err)) < 0)
		goto out;
	if ((rc = run_info(set, in, err)) < 0)
		goto out;
	/* The metric as LNT names it: its alias, or with '-' as '_'. */
	snprintf(dashless, sizeof dashless, "%s", metric);
	for (char *c = dashless; *c; c++)
		if (*c == '-')
			*c = '_';
	for (size_t a = 0; a < sizeof alias / sizeof alias[0]; a++)
		if (strcmp(metric, alias[a].ours) == 0)
			want = alias[a].lnt;
	/* A link time is the compile time of the test NAME-link. */
	link = strcmp(metric, "link_time") == 0;
	if (link)
		want = "compile_time";
	/* The tests in the order of their first entries in the file. */
	for (size_t i = 0; i < l.n; i++) {
		const struct entry *e = &l.e[i];
		size_t nl = strlen(e->name);
		char name[TI_AB_NAME_MAX];

		/* One benchmark per name: act on its first entry only. */
		if (e->done)
			continue;
		struct test t = { s, first_entry(s, l.n, e->name, nl), 0 };
		for (t.to = t.from; t.to < l.n && strcmp(s[t.to]->name, e->name) == 0; t.to++)
			s[t.to]->done = true;
		bool is_link = nl > 5 && strcmp(e->name + nl - 5, "-link") == 0 &&
			       first_entry(s, l.n, e->name, nl - 5) < l.n;
		if (is_link != link)
			continue;
		snprintf(name, sizeof name, "%.*s", (int)(link ? nl - 5 : nl), e->name);
		if ((rc = read_test(set, in, &t, name, want, dashless, err)) < 0)
			goto out;
		total += rc;
	}
	rc = total;
out:
	free(s);
	for (size_t i = 0; i < l.n; i++)
		free(l.e[i].name);
	free(l.e);
	return rc;
}
