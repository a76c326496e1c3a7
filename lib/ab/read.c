/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read.c: the format table, files and directories of results, and the
 * benchmark set they fill (read.h). */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "jsonread.h"
#include "read-int.h"

__attribute__((format(printf, 4, 5)))
int ti_ab_read_error(struct ti_ab_error *err, const char *path, int line,
		 const char *fmt, ...)
{
	va_list ap;

	snprintf(err->path, sizeof err->path, "%s", path);
	err->line = line;
	va_start(ap, fmt);
	vsnprintf(err->what, sizeof err->what, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int ti_ab_read_sys_error(struct ti_ab_error *err, const char *path, int e)
{
	snprintf(err->path, sizeof err->path, "%s", path);
	err->line = 0;
	snprintf(err->what, sizeof err->what, "%s", strerror(e));
	return -e;
}

struct ti_ab_bench *ti_ab_find(const struct ti_ab_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->b[i].name, name) == 0)
			return &set->b[i];
	return NULL;
}

static struct ti_ab_bench *bench_get(struct ti_ab_set *set, const char *name)
{
	struct ti_ab_bench *b = ti_ab_find(set, name);

	if (b)
		return b;
	if (set->n == set->cap) {
		size_t nc = set->cap ? set->cap * 2 : 16;
		struct ti_ab_bench *nb = realloc(set->b, nc * sizeof *nb);
		if (!nb)
			return NULL;
		set->b = nb;
		set->cap = nc;
	}
	b = &set->b[set->n];
	memset(b, 0, sizeof *b);
	if (!(b->name = strdup(name)))
		return NULL;
	set->n++;
	return b;
}

/* Record one run of NAME: FAILED, or a sample S (S.value NAN: lacking). */
int ti_ab_read_add_run(struct ti_ab_set *set, const char *name, bool failed,
		   struct ti_ab_sample s, const char *where)
{
	struct ti_ab_bench *b = bench_get(set, name);

	if (!b)
		return -ENOMEM;
	if (failed) {
		if (b->failures++ == 0 && !(b->failed_in = strdup(where)))
			return -ENOMEM;
		return 0;
	}
	if (isnan(s.value)) {
		b->lacking++;
		return 0;
	}
	if (b->n == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 8;
		struct ti_ab_sample *ns = realloc(b->s, nc * sizeof *ns);
		if (!ns)
			return -ENOMEM;
		b->s = ns;
		b->cap = nc;
	}
	b->s[b->n++] = s;
	return 0;
}

static int cmp_bench(const void *a, const void *b)
{
	return strcmp(((const struct ti_ab_bench *)a)->name,
		      ((const struct ti_ab_bench *)b)->name);
}

void ti_ab_sort(struct ti_ab_set *set)
{
	if (set->n > 1)
		qsort(set->b, set->n, sizeof *set->b, cmp_bench);
}

void ti_ab_set_free(struct ti_ab_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->b[i].name);
		free(set->b[i].s);
		free(set->b[i].failed_in);
	}
	free(set->b);
	memset(set, 0, sizeof *set);
}

static bool all_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

void ti_ab_bench_name(const char *relpath, const char *ext, char *out, size_t len)
{
	size_t o = 0, n;
	const char *p = relpath;

	if (len == 0)
		return;
	/* Keep the directory components except sample directories ("1/",
	 * "2/"): a tree of benchmarks keeps its structure, a directory per
	 * sample merges. */
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t cl = slash ? (size_t)(slash - p) : strlen(p);

		if (slash && (all_digits(p, cl) || cl == 0 || (cl == 1 && *p == '.'))) {
			p = slash + 1;
			continue;
		}
		for (size_t i = 0; i < cl + (slash ? 1 : 0) && o + 1 < len; i++)
			out[o++] = p[i];
		if (!slash)
			break;
		p = slash + 1;
	}
	out[o] = '\0';
	n = strlen(out);
	if (ext && n > strlen(ext) && strcmp(out + n - strlen(ext), ext) == 0)
		out[n -= strlen(ext)] = '\0';
	/* A trailing ".N" is a sample number: foo.3.time is a sample of foo. */
	char *dot = strrchr(out, '.');
	char *base = strrchr(out, '/');
	if (dot && dot > (base ? base + 1 : out) && all_digits(dot + 1, strlen(dot + 1)))
		*dot = '\0';
}

const char *ti_ab_read_base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

static int read_file(const char *path, char **data, size_t *len, struct ti_ab_error *err)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0;
	char *d;

	if (!f)
		return ti_ab_read_sys_error(err, path, errno);
	if (!(d = malloc(cap))) {
		fclose(f);
		return -ENOMEM;
	}
	for (;;) {
		size_t got = fread(d + n, 1, cap - n - 1, f);
		n += got;
		if (n + 1 < cap)
			break;
		char *nd = realloc(d, cap *= 2);
		if (!nd) {
			free(d);
			fclose(f);
			return -ENOMEM;
		}
		d = nd;
	}
	if (ferror(f)) {
		int e = errno ? errno : EIO;
		free(d);
		fclose(f);
		return ti_ab_read_sys_error(err, path, e);
	}
	fclose(f);
	d[n] = '\0';
	*data = d;
	*len = n;
	return 0;
}

/* The summary key a metric is read from: exec_time is what lit takes, the
 * user line (timeit(1), SUMMARY FILE). */
const char *ti_ab_read_summary_key(const char *metric)
{
	return strcmp(metric, "exec_time") == 0 ? "user" : metric;
}

/* KEY names event EV, possibly with perf modifiers ("instructions:u"). */
bool ti_ab_read_is_event(const char *key, const char *ev)
{
	size_t n = strlen(ev);
	return strncmp(key, ev, n) == 0 && (key[n] == '\0' || key[n] == ':');
}

/* A summary value: a plain non-negative decimal number, digits with at
 * most one point ("12", "0.0450", ".5").  timeit writes no other form, and
 * lit reads the user line with the pattern [0-9.]+ (llvm-test-suite
 * litsupport/modules/timeit.py): a sign, an exponent, hex or "inf" would
 * be read differently, or not at all, there. */
bool ti_ab_read_plain(const char *s, double *out)
{
	size_t digits = 0, points = 0;
	char *end;

	for (const char *p = s; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '.' && points++ == 0)
			continue;
		else
			return false;
	}
	if (digits == 0)
		return false;
	errno = 0;
	*out = strtod(s, &end);
	return *end == '\0' && errno != ERANGE && isfinite(*out);
}

double ti_ab_read_number(const struct ti_jsonread_value *v)
{
	return v && v->type == TI_JSONREAD_NUMBER ? v->num : NAN;
}

/* Times, sizes and counts are not negative: a metric below 0 in a JSON
 * file is malformed, as "-1" is on a summary line (parse_plain). */
int ti_ab_read_negative(struct ti_ab_error *err, const char *path, int line,
		    const char *name, const char *key, double v)
{
	return ti_ab_read_error(err, path, line, "%s: %s: negative value %g", name, key, v);
}


/* A metric value that may be a number or a list of numbers (LNT format 2
 * lists the samples of a test); calls add_run once per number. */
int ti_ab_read_add_values(struct ti_ab_set *set, const char *name,
		      const struct ti_jsonread_value *v, const char *path,
		      const char *metric, struct ti_ab_error *err)
{
	struct ti_ab_sample s = { NAN, NAN, NAN };

	if (!v)
		return ti_ab_read_add_run(set, name, false, s, path) < 0 ? -ENOMEM : 1;
	if (v->type == TI_JSONREAD_NUMBER) {
		if (v->num < 0)
			return ti_ab_read_negative(err, path, v->line, name, metric, v->num);
		s.value = v->num;
		return ti_ab_read_add_run(set, name, false, s, path) < 0 ? -ENOMEM : 1;
	}
	if (v->type != TI_JSONREAD_ARRAY)
		return ti_ab_read_error(err, path, v->line, "%s: metric is a %s, not a number",
			     name, ti_jsonread_type_name(v->type));
	/* No samples: the test is there, its metric is not. */
	if (v->n == 0)
		return ti_ab_read_add_run(set, name, false, s, path) < 0 ? -ENOMEM : 1;
	for (size_t i = 0; i < v->n; i++) {
		if (v->items[i].type != TI_JSONREAD_NUMBER)
			return ti_ab_read_error(err, path, v->items[i].line, "%s: sample is a %s, not a number",
				     name, ti_jsonread_type_name(v->items[i].type));
		if (v->items[i].num < 0)
			return ti_ab_read_negative(err, path, v->items[i].line, name, metric, v->items[i].num);
		s.value = v->items[i].num;
		if (ti_ab_read_add_run(set, name, false, s, path) < 0)
			return -ENOMEM;
	}
	return (int)v->n;
}


/* The formats, tried in order: the first whose probe accepts the input
 * reads it.  A new format is one reader (read-*.c) and one row. */
static const struct ti_ab_format formats[] = {
	{ "timeit-json", true, ti_ab_read_timeit_probe, ti_ab_read_timeit },
	{ "lnt", true, ti_ab_read_lnt_probe, ti_ab_read_lnt },
	{ "lit", true, ti_ab_read_lit_probe, ti_ab_read_lit },
	{ "summary", false, ti_ab_read_summary_probe, ti_ab_read_summary },
};

const struct ti_jsonread_value *ti_ab_read_tests(const struct ti_ab_input *in,
						 struct ti_ab_error *err, int *rc)
{
	const struct ti_jsonread_value *tests = ti_jsonread_get(in->top, "tests");

	if (tests->type != TI_JSONREAD_ARRAY)
		*rc = ti_ab_read_error(err, in->path, tests->line, "\"tests\" is a %s, not an array",
				       ti_jsonread_type_name(tests->type));
	else if (tests->n == 0)
		*rc = ti_ab_read_error(err, in->path, tests->line, "no tests");
	else
		return tests;
	return NULL;
}

static int load_file(struct ti_ab_set *set, const char *path, const char *name,
		     const char *metric, struct ti_ab_error *err)
{
	struct ti_ab_input in = { .path = path, .metric = metric };
	struct ti_jsonread_value top;
	struct ti_jsonread_error je;
	char *data = NULL, nm[1024];
	size_t len = 0;
	bool json = false;
	int rc;

	if ((rc = read_file(path, &data, &len, err)) < 0)
		return rc;
	const char *p = data;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (!name) {
		ti_ab_bench_name(ti_ab_read_base_name(path), ".time", nm, sizeof nm);
		name = nm;
	}
	in.name = name;
	in.data = data;
	in.len = len;
	if (p == data + len) {
		rc = ti_ab_read_error(err, path, 0, "empty file");
		goto out;
	}
	if (memchr(data, '\0', len)) {
		rc = ti_ab_read_error(err, path, 0, "binary file");
		goto out;
	}
	if (*p == '{' || *p == '[') {
		rc = ti_jsonread_parse(data, len, &top, &je);
		if (rc == -ENOMEM)
			goto out;
		if (rc < 0) {
			rc = ti_ab_read_error(err, path, je.line, "column %d: %s", je.column, je.what);
			goto out;
		}
		json = true;
		if (top.type != TI_JSONREAD_OBJECT) {
			rc = ti_ab_read_error(err, path, top.line, "top-level %s, expected an object",
					      ti_jsonread_type_name(top.type));
			goto out;
		}
		in.top = &top;
	}
	rc = ti_ab_read_error(err, path, json ? top.line : 0,
			      "not a timeit, lit or LNT result (no \"runs\" or \"tests\")");
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		if (formats[i].json == json && formats[i].probe(&in)) {
			rc = formats[i].load(set, &in, err);
			break;
		}
	}
out:
	if (json)
		ti_jsonread_free(&top);
	free(data);
	return rc;
}

struct path_list {
	char **p;
	size_t n, cap;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The test-suite renames the summary of a run whose output was wrong to
 * NAME.I.time.wrong-output (test-suite/RunSafely.sh): a failed run of NAME. */
#define WRONG_OUTPUT ".time.wrong-output"

/* NAME (of length N) ends in SUFFIX, with at least one character before it. */
static bool has_suffix(const char *name, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n > k && strcmp(name + n - k, suffix) == 0;
}

/* Collect the *.time and *.time.wrong-output files under DIR. */
static int walk(const char *dir, struct path_list *l, struct ti_ab_error *err, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return ti_ab_read_sys_error(err, dir, errno);
	if (depth > 32) {
		closedir(d);
		return ti_ab_read_error(err, dir, 0, "directories nested too deep");
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		struct stat st;
		char *full;
		int rc;

		if (e->d_name[0] == '.')
			continue;
		if (asprintf(&full, "%s/%s", dir, e->d_name) < 0) {
			closedir(d);
			return -ENOMEM;
		}
		if (stat(full, &st) < 0) {
			/* A dangling link is not a result; anything else is worth saying. */
			if (errno == ENOENT) {
				free(full);
				continue;
			}
			rc = ti_ab_read_sys_error(err, full, errno);
			free(full);
			closedir(d);
			return rc;
		}
		if (S_ISDIR(st.st_mode)) {
			rc = walk(full, l, err, depth + 1);
			free(full);
			if (rc < 0) {
				closedir(d);
				return rc;
			}
			continue;
		}
		if (!S_ISREG(st.st_mode) ||
		    !(has_suffix(e->d_name, n, ".time") || has_suffix(e->d_name, n, WRONG_OUTPUT))) {
			free(full);
			continue;
		}
		if (l->n == l->cap) {
			size_t nc = l->cap ? l->cap * 2 : 64;
			char **np = realloc(l->p, nc * sizeof *np);
			if (!np) {
				free(full);
				closedir(d);
				return -ENOMEM;
			}
			l->p = np;
			l->cap = nc;
		}
		l->p[l->n++] = full;
	}
	closedir(d);
	return 0;
}

int ti_ab_read(struct ti_ab_set *set, const char *path, const char *metric,
		    struct ti_ab_error *err)
{
	struct path_list l = { 0 };
	struct stat st;
	int rc, total = 0;

	if (stat(path, &st) < 0)
		return ti_ab_read_sys_error(err, path, errno);
	if (!S_ISDIR(st.st_mode))
		return load_file(set, path, NULL, metric, err);

	rc = walk(path, &l, err, 0);
	if (rc == 0 && l.n == 0)
		rc = ti_ab_read_error(err, path, 0, "no *.time summary files in this directory");
	if (rc == 0)
		qsort(l.p, l.n, sizeof *l.p, cmp_str);	/* same order on every file system */
	for (size_t i = 0; rc == 0 && i < l.n; i++) {
		char name[1024];
		const char *rel = l.p[i] + strlen(path);

		while (*rel == '/')
			rel++;
		if (has_suffix(rel, strlen(rel), WRONG_OUTPUT)) {
			/* Its time is not to be used; the failure is to be reported. */
			char timename[1024];
			struct ti_ab_sample s = { NAN, NAN, NAN };

			/* Without ".wrong-output": NAME.I.time. */
			snprintf(timename, sizeof timename, "%.*s",
				 (int)(strlen(rel) - strlen(".wrong-output")), rel);
			ti_ab_bench_name(timename, ".time", name, sizeof name);
			rc = ti_ab_read_add_run(set, name, true, s, l.p[i]) < 0 ? -ENOMEM : 1;
		} else {
			ti_ab_bench_name(rel, ".time", name, sizeof name);
			rc = load_file(set, l.p[i], name, metric, err);
		}
		if (rc > 0) {
			total += rc;
			rc = 0;
		}
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.p[i]);
	free(l.p);
	return rc < 0 ? rc : total;
}

