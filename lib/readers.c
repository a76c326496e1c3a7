/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* readers.c: result file readers for timeit-compare. */
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
#include "readers.h"

__attribute__((format(printf, 4, 5)))
static int error(struct ti_readers_error *err, const char *path, int line,
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

static int sys_error(struct ti_readers_error *err, const char *path, int e)
{
	snprintf(err->path, sizeof err->path, "%s", path);
	err->line = 0;
	snprintf(err->what, sizeof err->what, "%s", strerror(e));
	return -e;
}

struct ti_readers_bench *ti_readers_find(const struct ti_readers_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->b[i].name, name) == 0)
			return &set->b[i];
	return NULL;
}

static struct ti_readers_bench *bench_get(struct ti_readers_set *set, const char *name)
{
	struct ti_readers_bench *b = ti_readers_find(set, name);

	if (b)
		return b;
	if (set->n == set->cap) {
		size_t nc = set->cap ? set->cap * 2 : 16;
		struct ti_readers_bench *nb = realloc(set->b, nc * sizeof *nb);
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
static int add_run(struct ti_readers_set *set, const char *name, bool failed,
		   struct ti_readers_sample s, const char *where)
{
	struct ti_readers_bench *b = bench_get(set, name);

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
		struct ti_readers_sample *ns = realloc(b->s, nc * sizeof *ns);
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
	return strcmp(((const struct ti_readers_bench *)a)->name,
		      ((const struct ti_readers_bench *)b)->name);
}

void ti_readers_sort(struct ti_readers_set *set)
{
	if (set->n > 1)
		qsort(set->b, set->n, sizeof *set->b, cmp_bench);
}

void ti_readers_free(struct ti_readers_set *set)
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

void ti_readers_bench_name(const char *relpath, const char *ext, char *out, size_t len)
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

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

static int read_file(const char *path, char **data, size_t *len, struct ti_readers_error *err)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0;
	char *d;

	if (!f)
		return sys_error(err, path, errno);
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
		return sys_error(err, path, e);
	}
	fclose(f);
	d[n] = '\0';
	*data = d;
	*len = n;
	return 0;
}

/* The summary key a metric is read from: exec_time is what lit takes, the
 * user line (spec/compat.md). */
static const char *summary_key(const char *metric)
{
	return strcmp(metric, "exec_time") == 0 ? "user" : metric;
}

/* KEY names event EV, possibly with perf modifiers ("instructions:u"). */
static bool is_event(const char *key, const char *ev)
{
	size_t n = strlen(ev);
	return strncmp(key, ev, n) == 0 && (key[n] == '\0' || key[n] == ':');
}

/* A summary value: a plain non-negative decimal number, digits with at
 * most one point ("12", "0.0450", ".5").  timeit writes no other form, and
 * lit reads the user line with the pattern [0-9.]+ (llvm-test-suite
 * litsupport/modules/timeit.py): a sign, an exponent, hex or "inf" would
 * be read differently, or not at all, there. */
static bool parse_plain(const char *s, double *out)
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

/* A timeit summary file (lib/summary.c ti_summary_format): "key value"
 * lines; exit first, then real, user, sys, maxrss and counters. */
static int load_summary(struct ti_readers_set *set, const char *path, const char *name,
			const char *data, const char *metric, struct ti_readers_error *err)
{
	const char *want = summary_key(metric);
	struct ti_readers_sample s = { NAN, NAN, NAN };
	double ev_value = NAN;
	long status = 0;
	int line = 0, keys = 0;
	/* Where the lines whose value is taken were: a second one is an
	 * error, as it is for lit, which asserts a single line starting with
	 * "user" (litsupport/modules/timeit.py getUserTimeFromContents). */
	int exit_line = 0, want_line = 0, ev_line = 0;

	for (const char *p = data; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char buf[512], *key, *val, *extra, *save;
		double v;

		line++;
		if (len >= sizeof buf)
			return error(err, path, line, "line too long");
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
			return error(err, path, line, "expected 'key value'");
		keys++;
		/* Lines this reader uses must be "key number"; others may take
		 * any form a later timeit gives them. */
		bool used = strcmp(key, "exit") == 0 || strcmp(key, want) == 0 ||
			    (strncmp(key, "ev-", 3) == 0 && strcmp(key + 3, want) == 0) ||
			    is_event(key, "instructions") || is_event(key, "valgrind-instructions");
		if (!used)
			continue;
		if (extra)
			return error(err, path, line, "expected 'key value'");
		if (strcmp(key, "exit") == 0) {
			/* A status is a small integer; also in range: converting
			 * a double outside long's range is undefined behaviour
			 * (C11 6.3.1.4). */
			if (!parse_plain(val, &v) || v != floor(v) || v > 2147483647.0)
				return error(err, path, line, "exit: bad status '%s'", val);
		} else if (!parse_plain(val, &v)) {
			return error(err, path, line, "%s: bad number '%s'", key, val);
		}
		int *seen = strcmp(key, "exit") == 0 ? &exit_line : strcmp(key, want) == 0 ? &want_line
			    : strncmp(key, "ev-", 3) == 0 && strcmp(key + 3, want) == 0 ? &ev_line : NULL;
		if (seen && *seen)
			return error(err, path, line, "%s: second line (the first is line %d)", key, *seen);
		if (seen)
			*seen = line;
		if (strcmp(key, "exit") == 0)
			status = (long)v;
		if (strcmp(key, want) == 0)
			s.value = v;
		else if (strncmp(key, "ev-", 3) == 0 && strcmp(key + 3, want) == 0)
			ev_value = v;	/* ti_summary_key's escape for reserved names */
		if (is_event(key, "instructions"))
			s.insn = v;
		if (is_event(key, "valgrind-instructions"))
			s.vg_insn = v;
	}
	if (keys == 0)
		return error(err, path, 0, "empty summary file");
	if (isnan(s.value))
		s.value = ev_value;
	return add_run(set, name, status != 0, s, path) < 0 ? -ENOMEM : 1;
}

static double number_or_nan(const struct ti_jsonread_value *v)
{
	return v && v->type == TI_JSONREAD_NUMBER ? v->num : NAN;
}

/* Times, sizes and counts are not negative: a metric below 0 in a JSON
 * file is malformed, as "-1" is on a summary line (parse_plain). */
static int negative(struct ti_readers_error *err, const char *path, int line,
		    const char *name, const char *key, double v)
{
	return error(err, path, line, "%s: %s: negative value %g", name, key, v);
}

/* The counter named EV in a timeit --json run's "counters" array, scaled;
 * time events are converted from ns to seconds like the summary does.
 * Counts that never multiplex have no "scaled" field, only "value": the
 * ones timeit takes from rusage (page-faults, context-switches: "source":
 * "rusage", lib/summary.c ti_json_record). */
static double json_counter(const struct ti_jsonread_value *run, const char *ev)
{
	const struct ti_jsonread_value *c = ti_jsonread_get(run, "counters");

	if (!c || c->type != TI_JSONREAD_ARRAY)
		return NAN;
	for (size_t i = 0; i < c->n; i++) {
		const struct ti_jsonread_value *name = ti_jsonread_get(&c->items[i], "name");
		const struct ti_jsonread_value *counted = ti_jsonread_get(&c->items[i], "counted");

		if (!name || name->type != TI_JSONREAD_STRING || !is_event(name->str, ev))
			continue;
		if (!counted || counted->type != TI_JSONREAD_TRUE)
			return NAN;
		const struct ti_jsonread_value *sv = ti_jsonread_get(&c->items[i], "scaled");
		double v = number_or_nan(sv ? sv : ti_jsonread_get(&c->items[i], "value"));
		if (is_event(ev, "task-clock") || is_event(ev, "cpu-clock"))
			v /= 1e9;
		return v;
	}
	return NAN;
}

/* timeit --json (timeit/timeit.c format_json): {"runs": [run, ...]}, each
 * run one sample of the benchmark named after the file.  valgrind counts
 * the command once per file, after the measured runs: top-level
 * "valgrind": {"instructions": N} (lib/vgcount.c).  As the metric (named
 * like the summary's line) that count is one sample of the file, as it is
 * one line of a summary, however many runs the file has. */
static int load_timeit_json(struct ti_readers_set *set, const char *path, const char *name,
			    const struct ti_jsonread_value *top, const char *metric,
			    struct ti_readers_error *err)
{
	const struct ti_jsonread_value *runs = ti_jsonread_get(top, "runs");
	const char *want = summary_key(metric);
	const struct ti_jsonread_value *vg = ti_jsonread_get(ti_jsonread_get(top, "valgrind"),
							     "instructions");
	double vg_insn = number_or_nan(vg);
	bool per_file = strcmp(want, "valgrind-instructions") == 0;
	int nruns = 0;

	if (runs->type != TI_JSONREAD_ARRAY)
		return error(err, path, runs->line, "\"runs\" is a %s, not an array",
			     ti_jsonread_type_name(runs->type));
	for (size_t i = 0; i < runs->n; i++) {
		const struct ti_jsonread_value *run = &runs->items[i], *st;
		struct ti_readers_sample s = { NAN, NAN, NAN };

		if (run->type != TI_JSONREAD_OBJECT)
			return error(err, path, run->line, "run is a %s, not an object",
				     ti_jsonread_type_name(run->type));
		st = ti_jsonread_get(run, "status");
		if (!st || st->type != TI_JSONREAD_NUMBER)
			return error(err, path, run->line, "run without a numeric \"status\"");
		nruns++;
		if (per_file) {
			/* The runs only tell whether the benchmark failed. */
			if (st->num != 0 && add_run(set, name, true, s, path) < 0)
				return -ENOMEM;
			continue;
		}
		s.value = number_or_nan(ti_jsonread_get(run, want));
		if (isnan(s.value))
			s.value = json_counter(run, want);
		if (s.value < 0)
			return negative(err, path, run->line, name, want, s.value);
		s.insn = json_counter(run, "instructions");
		s.vg_insn = vg_insn;
		if (add_run(set, name, st->num != 0, s, path) < 0)
			return -ENOMEM;
	}
	if (nruns == 0)
		return error(err, path, runs->line, "no runs");
	if (per_file) {
		struct ti_readers_sample s = { vg_insn, NAN, vg_insn };
		if (vg_insn < 0)
			return negative(err, path, vg->line, name, want, vg_insn);
		if (add_run(set, name, false, s, path) < 0)
			return -ENOMEM;
		return 1;
	}
	return nruns;
}

/* A metric value that may be a number or a list of numbers (LNT format 2
 * lists the samples of a test); calls add_run once per number. */
static int add_values(struct ti_readers_set *set, const char *name,
		      const struct ti_jsonread_value *v, const char *path,
		      const char *metric, struct ti_readers_error *err)
{
	struct ti_readers_sample s = { NAN, NAN, NAN };

	if (!v)
		return add_run(set, name, false, s, path) < 0 ? -ENOMEM : 1;
	if (v->type == TI_JSONREAD_NUMBER) {
		if (v->num < 0)
			return negative(err, path, v->line, name, metric, v->num);
		s.value = v->num;
		return add_run(set, name, false, s, path) < 0 ? -ENOMEM : 1;
	}
	if (v->type != TI_JSONREAD_ARRAY)
		return error(err, path, v->line, "%s: metric is a %s, not a number",
			     name, ti_jsonread_type_name(v->type));
	/* No samples: the test is there, its metric is not. */
	if (v->n == 0)
		return add_run(set, name, false, s, path) < 0 ? -ENOMEM : 1;
	for (size_t i = 0; i < v->n; i++) {
		if (v->items[i].type != TI_JSONREAD_NUMBER)
			return error(err, path, v->items[i].line, "%s: sample is a %s, not a number",
				     name, ti_jsonread_type_name(v->items[i].type));
		if (v->items[i].num < 0)
			return negative(err, path, v->items[i].line, name, metric, v->items[i].num);
		s.value = v->items[i].num;
		if (add_run(set, name, false, s, path) < 0)
			return -ENOMEM;
	}
	return (int)v->n;
}

/* lit -o: {"tests": [{"name": "suite :: path", "code": "PASS",
 * "metrics": {"exec_time": 1.2, ...}}, ...]} (llvm/utils/lit/lit/reports.py). */
static int load_lit(struct ti_readers_set *set, const char *path,
		    const struct ti_jsonread_value *tests, const char *metric,
		    struct ti_readers_error *err)
{
	int total = 0;

	for (size_t i = 0; i < tests->n; i++) {
		const struct ti_jsonread_value *t = &tests->items[i];
		const struct ti_jsonread_value *nm = ti_jsonread_get(t, "name");
		const struct ti_jsonread_value *code = ti_jsonread_get(t, "code");
		const struct ti_jsonread_value *metrics = ti_jsonread_get(t, "metrics");
		const char *name, *sep;
		int rc;

		if (!nm || nm->type != TI_JSONREAD_STRING)
			return error(err, path, t->line, "test without a \"name\" string");
		sep = strstr(nm->str, " :: ");
		name = sep ? sep + 4 : nm->str;
		if (code && code->type == TI_JSONREAD_STRING) {
			/* Tests that did not run are not results at all. */
			if (strcmp(code->str, "UNSUPPORTED") == 0 || strcmp(code->str, "SKIPPED") == 0 ||
			    strcmp(code->str, "EXCLUDED") == 0)
				continue;
			if (strcmp(code->str, "PASS") != 0 && strcmp(code->str, "XFAIL") != 0) {
				struct ti_readers_sample s = { NAN, NAN, NAN };
				if (add_run(set, name, true, s, path) < 0)
					return -ENOMEM;
				total++;
				continue;
			}
		}
		if (metrics && metrics->type != TI_JSONREAD_OBJECT)
			return error(err, path, metrics->line, "%s: \"metrics\" is not an object", name);
		if ((rc = add_values(set, name, ti_jsonread_get(metrics, metric), path, metric,
				     err)) < 0)
			return rc;
		total += rc;
	}
	return total;
}

/* LNT report format_version 2 (lnt/testing/__init__.py): {"format_version":
 * "2", "machine": {...}, "run": {...}, "tests": [{"name": ..., "execution_time":
 * [samples] or value, ...}]}.  LNT's own metric names are tried as well. */
static int load_lnt(struct ti_readers_set *set, const char *path,
		    const struct ti_jsonread_value *tests, const char *metric,
		    struct ti_readers_error *err)
{
	static const struct { const char *ours, *lnt; } alias[] = {
		{ "exec_time", "execution_time" },
		{ "maxrss", "mem_bytes" },
	};
	char dashless[128];
	int total = 0;

	snprintf(dashless, sizeof dashless, "%s", metric);
	for (char *c = dashless; *c; c++)
		if (*c == '-')
			*c = '_';
	for (size_t i = 0; i < tests->n; i++) {
		const struct ti_jsonread_value *t = &tests->items[i];
		const struct ti_jsonread_value *nm = ti_jsonread_get(t, "name"), *v, *st;
		int rc;

		if (!nm || nm->type != TI_JSONREAD_STRING)
			return error(err, path, t->line, "test without a \"name\" string");
		/* A status field that is present and not a pass marks a failure. */
		st = ti_jsonread_get(t, "execution_status");
		if (!st)
			st = ti_jsonread_get(t, "compile_status");
		if (st && !(st->type == TI_JSONREAD_NUMBER && st->num == 0) &&
		    !(st->type == TI_JSONREAD_STRING && strcasecmp(st->str, "PASS") == 0)) {
			struct ti_readers_sample s = { NAN, NAN, NAN };
			if (add_run(set, nm->str, true, s, path) < 0)
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
		if ((rc = add_values(set, nm->str, v, path, metric, err)) < 0)
			return rc;
		total += rc;
	}
	return total;
}

static int load_json(struct ti_readers_set *set, const char *path, const char *data,
		     size_t len, const char *metric, struct ti_readers_error *err)
{
	struct ti_jsonread_value top;
	struct ti_jsonread_error je;
	const struct ti_jsonread_value *tests;
	char name[1024];
	int rc;

	rc = ti_jsonread_parse(data, len, &top, &je);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0)
		return error(err, path, je.line, "column %d: %s", je.column, je.what);
	if (top.type != TI_JSONREAD_OBJECT) {
		rc = error(err, path, top.line, "top-level %s, expected an object",
			   ti_jsonread_type_name(top.type));
	} else if (ti_jsonread_get(&top, "runs")) {
		ti_readers_bench_name(base_name(path), ".json", name, sizeof name);
		rc = load_timeit_json(set, path, name, &top, metric, err);
	} else if ((tests = ti_jsonread_get(&top, "tests"))) {
		if (tests->type != TI_JSONREAD_ARRAY)
			rc = error(err, path, tests->line, "\"tests\" is a %s, not an array",
				   ti_jsonread_type_name(tests->type));
		else if (tests->n == 0)
			rc = error(err, path, tests->line, "no tests");
		else if (ti_jsonread_get(&top, "format_version"))
			rc = load_lnt(set, path, tests, metric, err);
		else
			rc = load_lit(set, path, tests, metric, err);
	} else {
		rc = error(err, path, top.line,
			   "not a timeit, lit or LNT result (no \"runs\" or \"tests\")");
	}
	ti_jsonread_free(&top);
	return rc;
}

static int load_file(struct ti_readers_set *set, const char *path, const char *name,
		     const char *metric, struct ti_readers_error *err)
{
	char *data = NULL, nm[1024];
	size_t len = 0;
	int rc;

	if ((rc = read_file(path, &data, &len, err)) < 0)
		return rc;
	const char *p = data;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (p == data + len) {
		rc = error(err, path, 0, "empty file");
	} else if (memchr(data, '\0', len)) {
		rc = error(err, path, 0, "binary file");
	} else if (*p == '{' || *p == '[') {
		rc = load_json(set, path, data, len, metric, err);
	} else {
		if (!name) {
			ti_readers_bench_name(base_name(path), ".time", nm, sizeof nm);
			name = nm;
		}
		rc = load_summary(set, path, name, data, metric, err);
	}
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
static int walk(const char *dir, struct path_list *l, struct ti_readers_error *err, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return sys_error(err, dir, errno);
	if (depth > 32) {
		closedir(d);
		return error(err, dir, 0, "directories nested too deep");
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
			rc = sys_error(err, full, errno);
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

int ti_readers_load(struct ti_readers_set *set, const char *path, const char *metric,
		    struct ti_readers_error *err)
{
	struct path_list l = { 0 };
	struct stat st;
	int rc, total = 0;

	if (stat(path, &st) < 0)
		return sys_error(err, path, errno);
	if (!S_ISDIR(st.st_mode))
		return load_file(set, path, NULL, metric, err);

	rc = walk(path, &l, err, 0);
	if (rc == 0 && l.n == 0)
		rc = error(err, path, 0, "no *.time summary files in this directory");
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
			struct ti_readers_sample s = { NAN, NAN, NAN };

			/* Without ".wrong-output": NAME.I.time. */
			snprintf(timename, sizeof timename, "%.*s",
				 (int)(strlen(rel) - strlen(".wrong-output")), rel);
			ti_readers_bench_name(timename, ".time", name, sizeof name);
			rc = add_run(set, name, true, s, l.p[i]) < 0 ? -ENOMEM : 1;
		} else {
			ti_readers_bench_name(rel, ".time", name, sizeof name);
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
