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
#include "summary.h"

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

/* FNV-1a, 64 bits (Fowler, Noll, Vo): the hash of a benchmark's name. */
uint64_t ti_ab_read_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3u;
	}
	/* The low bits index the tables: mix the high ones in. */
	h ^= h >> 32;
	h *= 0x9e3779b97f4a7c15u;
	return h ^ (h >> 29);
}

/* Put benchmark I of SET into its slot (the table has room). */
static void index_put(struct ti_ab_set *set, size_t i)
{
	size_t mask = set->nslot - 1, k = (size_t)ti_ab_read_hash(set->b[i].name) & mask;

	while (set->slot[k])
		k = (k + 1) & mask;
	set->slot[k] = i + 1;
}

/* Index every benchmark of SET, in a table at most half full.  On -ENOMEM
 * the set has no index and is searched in order. */
static int index_build(struct ti_ab_set *set)
{
	size_t ns = 16;

	while (ns < 2 * (set->n + 1))
		ns *= 2;
	free(set->slot);
	set->indexed = 0;
	if (!(set->slot = calloc(ns, sizeof *set->slot))) {
		set->nslot = 0;
		return -ENOMEM;
	}
	set->nslot = ns;
	for (size_t i = 0; i < set->n; i++)
		index_put(set, i);
	set->indexed = set->n;
	return 0;
}

struct ti_ab_bench *ti_ab_find(const struct ti_ab_set *set, const char *name)
{
	if (set->slot && set->indexed == set->n) {
		size_t mask = set->nslot - 1, k = (size_t)ti_ab_read_hash(name) & mask;
		for (; set->slot[k]; k = (k + 1) & mask)
			if (strcmp(set->b[set->slot[k] - 1].name, name) == 0)
				return &set->b[set->slot[k] - 1];
		return NULL;
	}
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
	/* Keep the index: a table at most half full, rebuilt when it is not
	 * (or was not kept up, in a set filled by hand). */
	if (set->slot && set->indexed == set->n - 1 && 2 * (set->n + 1) <= set->nslot) {
		index_put(set, set->n - 1);
		set->indexed = set->n;
	} else if (index_build(set) < 0) {
		return NULL;
	}
	return b;
}

struct ti_ab_sample ti_ab_read_sample(void)
{
	return (struct ti_ab_sample){ .value = NAN, .insn = NAN, .vg_insn = NAN, .est_cycles = NAN };
}

int ti_ab_read_add_run(struct ti_ab_set *set, const char *name, struct ti_ab_sample s,
		       const char *where)
{
	struct ti_ab_bench *b = bench_get(set, name);

	if (!b)
		return -ENOMEM;
	if (b->n == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 8;
		struct ti_ab_sample *ns = realloc(b->s, nc * sizeof *ns);
		if (!ns)
			return -ENOMEM;
		b->s = ns;
		b->cap = nc;
	}
	if (s.failed) {
		s.value = NAN;
		if (b->failures++ == 0 && !(b->failed_in = strdup(where)))
			return -ENOMEM;
	} else if (isnan(s.value)) {
		b->lacking++;
	} else if (s.value == 0) {
		s.value = 0;	/* -0 (a JSON "-0.0") is 0: no "-0" median */
		b->ok++;
		b->flagged += s.flags != 0;
	} else {
		b->ok++;
		b->flagged += s.flags != 0;
	}
	b->s[b->n++] = s;
	return 0;
}

int ti_ab_read_add_geometry(struct ti_ab_set *set, const char *name, const char *geometry)
{
	struct ti_ab_bench *b = bench_get(set, name);

	if (!b)
		return -ENOMEM;
	if (b->geometry) {
		b->geometry_mixed |= strcmp(b->geometry, geometry) != 0;
		return 0;
	}
	return (b->geometry = strdup(geometry)) ? 0 : -ENOMEM;
}

int ti_ab_read_add_hash(struct ti_ab_set *set, const char *name, const char *hash,
			enum ti_ab_hash_kind kind)
{
	struct ti_ab_bench *b = bench_get(set, name);

	if (!b)
		return -ENOMEM;
	/* An identity of the binary itself outranks a reported one. */
	if (b->hash && b->hash_kind > kind)
		return 0;
	if (b->hash && b->hash_kind == kind) {
		b->hash_mixed |= strcmp(b->hash, hash) != 0;
		return 0;
	}
	free(b->hash);
	if (!(b->hash = strdup(hash)))
		return -ENOMEM;
	b->hash_kind = kind;
	b->hash_mixed = false;
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
	/* Positions moved: without memory for a new index, search in order. */
	if (set->slot && index_build(set) < 0)
		set->indexed = 0;
}

/* A benchmark's name with the last path component it ends in, for
 * ti_ab_align. */
struct base_ref {
	const char *base;
	size_t i;
};

static int cmp_base(const void *x, const void *y)
{
	return strcmp(((const struct base_ref *)x)->base, ((const struct base_ref *)y)->base);
}

/* The benchmarks of S by their last path component, sorted. */
static struct base_ref *bases(const struct ti_ab_set *s)
{
	struct base_ref *r = malloc((s->n ? s->n : 1) * sizeof *r);

	if (!r)
		return NULL;
	for (size_t i = 0; i < s->n; i++) {
		const char *sl = strrchr(s->b[i].name, '/');
		r[i] = (struct base_ref){ sl ? sl + 1 : s->b[i].name, i };
	}
	qsort(r, s->n, sizeof *r, cmp_base);
	return r;
}

/* Rename the bare benchmarks of FROM that only one benchmark of TO ends
 * in (ti_ab_align), to that benchmark's name. */
static int align_into(struct ti_ab_set *from, const struct ti_ab_set *to,
		      const struct base_ref *tb)
{
	int renamed = 0;

	for (size_t i = 0; i < from->n; i++) {
		struct ti_ab_bench *x = &from->b[i];
		struct base_ref key = { x->name, 0 };
		if (strchr(x->name, '/') || ti_ab_find(to, x->name))
			continue;
		const struct base_ref *hit = bsearch(&key, tb, to->n, sizeof *tb, cmp_base);
		if (!hit)
			continue;
		/* bsearch finds any of equal keys: the only one, or none. */
		if ((hit > tb && strcmp(hit[-1].base, x->name) == 0) ||
		    (hit + 1 < tb + to->n && strcmp(hit[1].base, x->name) == 0))
			continue;
		const char *full = to->b[hit->i].name;
		if (ti_ab_find(from, full))
			continue;	/* on both sides already: not the same */
		char *nn = strdup(full);
		if (!nn)
			return -ENOMEM;
		free(x->name);
		x->name = nn;
		renamed++;
	}
	return renamed;
}

/* Some bare name of FROM is not in TO. */
static bool bare_missing(const struct ti_ab_set *from, const struct ti_ab_set *to)
{
	for (size_t i = 0; i < from->n; i++)
		if (!strchr(from->b[i].name, '/') && !ti_ab_find(to, from->b[i].name))
			return true;
	return false;
}

int ti_ab_align(struct ti_ab_set *a, struct ti_ab_set *b)
{
	if (!bare_missing(a, b) && !bare_missing(b, a))
		return 0;	/* the usual case: nothing to align */

	struct base_ref *ba = bases(a), *bb = bases(b);
	int ra = -ENOMEM, rb = -ENOMEM;

	/* A's bare names from B's paths, then B's from A's: a name renamed on
	 * A is a path, which B's bare names may take in turn. */
	if (ba && bb) {
		ra = align_into(a, b, bb);
		if (ra >= 0) {
			ti_ab_sort(a);	/* names changed: a new index */
			free(ba);
			ba = bases(a);
			rb = ba ? align_into(b, a, ba) : -ENOMEM;
		}
	}
	free(ba);
	free(bb);
	/* Names changed: sorting rebuilds the indexes. */
	ti_ab_sort(a);
	ti_ab_sort(b);
	if (ra < 0 || rb < 0)
		return -ENOMEM;
	return ra + rb;
}

void ti_ab_set_free(struct ti_ab_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->b[i].name);
		free(set->b[i].s);
		free(set->b[i].failed_in);
		free(set->b[i].hash);
		free(set->b[i].geometry);
	}
	free(set->b);
	free(set->slot);
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

/* The decimal number of the N digits at S, saturated at 2^32 - 1. */
static uint32_t number(const char *s, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++) {
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > UINT32_MAX)
			return UINT32_MAX;
	}
	return (uint32_t)v;
}

void ti_ab_bench_name(const char *relpath, const char *ext, char *out, size_t len,
		      uint32_t *sample)
{
	size_t o = 0, n;
	const char *p = relpath;
	uint32_t dir_sample = 0;

	if (sample)
		*sample = 0;
	if (len == 0)
		return;
	/* Keep the directory components except sample directories ("1/",
	 * "2/"): a tree of benchmarks keeps its structure, a directory per
	 * sample merges. */
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t cl = slash ? (size_t)(slash - p) : strlen(p);

		/* lit keeps a test's files in Output/ beside it. */
		if (slash && (all_digits(p, cl) || cl == 0 || (cl == 1 && *p == '.') ||
			      (cl == 6 && strncmp(p, "Output", 6) == 0))) {
			if (all_digits(p, cl))
				dir_sample = number(p, cl);
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
	if (dot && dot > (base ? base + 1 : out) && all_digits(dot + 1, strlen(dot + 1))) {
		if (sample)
			*sample = number(dot + 1, strlen(dot + 1));
		*dot = '\0';
	} else if (sample) {
		*sample = dir_sample;
	}
	/* lit's test files are NAME.test; LNT names them NAME. */
	n = strlen(out);
	if (n > 5 && strcmp(out + n - 5, ".test") == 0)
		out[n - 5] = '\0';
}

const char *ti_ab_read_base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

int ti_ab_read_file(const char *path, char **data, size_t *len, struct ti_ab_error *err)
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
void ti_ab_read_geometry(const double *geo, char *out, size_t len)
{
	static const char *const what[NGEO] = {
		"I1=", ",", ",", " D1=", ",", ",", " LL=", ",", ",", " weights=", ",", ",",
	};
	size_t o = 0;

	out[0] = '\0';
	for (int i = 0; i < NGEO && o < len; i++) {
		int w = isnan(geo[i]) ? snprintf(out + o, len - o, "%s?", what[i])
				      : snprintf(out + o, len - o, "%s%.0f", what[i], geo[i]);
		if (w < 0)
			break;
		o += (size_t)w;
	}
}

const char *ti_ab_read_summary_key(const char *metric)
{
	static const struct {
		const char *metric, *key;
	} map[] = {
		{ "exec_time", TI_KEY_USER },	/* lit's exec_time is the user line */
		{ "compile_time", TI_KEY_USER },	/* of the compile's summary */
		{ "link_time", TI_KEY_USER },
		{ "compile_maxrss", TI_KEY_MAXRSS },
		{ "link_maxrss", TI_KEY_MAXRSS },
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(metric, map[i].metric) == 0)
			return map[i].key;
	return metric;
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


bool ti_ab_read_nonfinite(const struct ti_jsonread_value *v)
{
	return v && v->type == TI_JSONREAD_NUMBER && !isfinite(v->num);
}

int ti_ab_read_add_nonfinite(struct ti_ab_set *set, const char *path, const char *name,
			     struct ti_ab_sample s, const char *key, double v)
{
	char where[4400];

	snprintf(where, sizeof where, "%s: %s is %s", path, key,
		 isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
	s.failed = true;
	return ti_ab_read_add_run(set, name, s, where);
}

/* One number X of a metric: a run, a failed one when X is not finite. */
static int add_number(struct ti_ab_set *set, const struct ti_ab_input *in, const char *name,
		      struct ti_ab_sample s, const struct ti_jsonread_value *x,
		      struct ti_ab_error *err)
{
	if (ti_ab_read_nonfinite(x))
		return ti_ab_read_add_nonfinite(set, in->path, name, s, in->metric, x->num) < 0
			       ? -ENOMEM : 1;
	if (x->num < 0)
		return ti_ab_read_negative(err, in->path, x->line, name, in->metric, x->num);
	s.value = x->num;
	return ti_ab_read_add_run(set, name, s, in->path) < 0 ? -ENOMEM : 1;
}

/* A status sample that is present and not a pass (0, or "PASS"). */
static bool failing(const struct ti_jsonread_value *v)
{
	return v && !(v->type == TI_JSONREAD_NUMBER && v->num == 0) &&
	       !(v->type == TI_JSONREAD_STRING && strcasecmp(v->str, "PASS") == 0);
}

/* How many runs STATUS says failed: each failing entry of a list, one for
 * a failing single status. */
size_t ti_ab_read_failures(const struct ti_jsonread_value *status)
{
	size_t f = 0;

	if (!status || status->type != TI_JSONREAD_ARRAY)
		return failing(status);
	for (size_t i = 0; i < status->n; i++)
		f += failing(&status->items[i]);
	return f;
}

/* The rule of every reader for a benchmark of some runs that passed and
 * some that failed: the values of the passing runs are samples, each
 * failed run is counted as one.  V: a number or a list (LNT format 2
 * lists the samples of a test), NULL: no value; STATUS: NULL (all
 * passed), one status, or one per sample.  A status list as long as V's
 * pairs with it (sample I failed when status I did); otherwise V holds
 * the passing runs only (as the suite's report.json and LNT's converters
 * write them) and the failures are further runs. */
int ti_ab_read_add_values(struct ti_ab_set *set, const struct ti_ab_input *in, const char *name,
			  const struct ti_jsonread_value *v, const struct ti_jsonread_value *status,
			  struct ti_ab_error *err)
{
	struct ti_ab_sample s = ti_ab_read_sample();
	size_t failed = ti_ab_read_failures(status);
	bool paired = failed && v && v->type == TI_JSONREAD_ARRAY && status->type == TI_JSONREAD_ARRAY &&
		      status->n == v->n;
	int total = 0, rc;

	s.round = TI_AB_ROUND(in->pos, 0);
	if (v && v->type != TI_JSONREAD_NUMBER && v->type != TI_JSONREAD_ARRAY)
		return ti_ab_read_error(err, in->path, v->line, "%s: metric is %s, not a number",
					name, ti_jsonread_a_type(v->type));
	if (v && v->type == TI_JSONREAD_NUMBER && (rc = add_number(set, in, name, s, v, err)) < 0)
		return rc;
	if (v && v->type == TI_JSONREAD_NUMBER)
		total++;
	for (size_t i = 0; v && v->type == TI_JSONREAD_ARRAY && i < v->n; i++) {
		const struct ti_jsonread_value *x = &v->items[i];
		if (x->type != TI_JSONREAD_NUMBER)
			return ti_ab_read_error(err, in->path, x->line, "%s: sample is %s, not a number",
						name, ti_jsonread_a_type(x->type));
		s.round = TI_AB_ROUND(in->pos, i + 1);
		if (paired && failing(&status->items[i])) {
			struct ti_ab_sample f = s;
			f.failed = true;
			if (ti_ab_read_add_run(set, name, f, in->path) < 0)
				return -ENOMEM;
		} else if ((rc = add_number(set, in, name, s, x, err)) < 0) {
			return rc;
		}
		total++;
	}
	/* The failed runs the values do not stand for. */
	for (size_t i = 0; !paired && i < failed; i++, total++) {
		s = ti_ab_read_sample();
		s.failed = true;
		s.round = TI_AB_ROUND(in->pos, 0);
		if (ti_ab_read_add_run(set, name, s, in->path) < 0)
			return -ENOMEM;
	}
	/* No samples and no failure: the test is there, its metric is not. */
	if (total == 0) {
		s = ti_ab_read_sample();
		s.round = TI_AB_ROUND(in->pos, 0);
		if (ti_ab_read_add_run(set, name, s, in->path) < 0)
			return -ENOMEM;
		total = 1;
	}
	return total;
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
		*rc = ti_ab_read_error(err, in->path, tests->line, "\"tests\" is %s, not an array",
				       ti_jsonread_a_type(tests->type));
	else if (tests->n == 0)
		*rc = ti_ab_read_error(err, in->path, tests->line, "no tests");
	else
		return tests;
	return NULL;
}

static int load_file(struct ti_ab_set *set, const char *path, const char *name,
		     uint32_t sample, const char *metric, unsigned pos, struct ti_ab_error *err)
{
	struct ti_ab_input in = { .path = path, .metric = metric, .pos = pos, .sample = sample };
	struct ti_jsonread_value top;
	struct ti_jsonread_error je;
	char *data = NULL, nm[1024];
	size_t len = 0;
	bool json = false;
	int rc;

	if ((rc = ti_ab_read_file(path, &data, &len, err)) < 0)
		return rc;
	const char *p = data;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (!name) {
		ti_ab_bench_name(ti_ab_read_base_name(path), ".time", nm, sizeof nm, &in.sample);
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

bool ti_ab_read_is_summary(const char *name)
{
	size_t n = strlen(name);
	return has_suffix(name, n, ".time") || has_suffix(name, n, WRONG_OUTPUT);
}

/* The directories from the root of a walk down to the current one: a
 * symbolic link back up the tree would otherwise be walked forever. */
struct ancestor {
	dev_t dev;
	ino_t ino;
	const struct ancestor *up;
};

/* Note that DIR could not be read (E) and carry on without it: one
 * unreadable corner of a results tree (a lost+found) must not stop the
 * comparison of the rest. */
static void skip(struct ti_ab_set *set, const char *dir, int e)
{
	if (set->skipped++ == 0)
		snprintf(set->skipped_first, sizeof set->skipped_first, "%s: %s", dir, strerror(e));
}

/* Collect the *.time and *.time.wrong-output files under DIR. */
static int walk(struct ti_ab_set *set, const char *dir, struct path_list *l,
		struct ti_ab_error *err, const struct ancestor *up, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat dst;

	if (!d) {
		if (depth == 0)
			return ti_ab_read_sys_error(err, dir, errno);
		skip(set, dir, errno);
		return 0;
	}
	if (fstat(dirfd(d), &dst) < 0) {
		int rc = ti_ab_read_sys_error(err, dir, errno);
		closedir(d);
		return rc;
	}
	for (const struct ancestor *a = up; a; a = a->up) {
		if (a->dev == dst.st_dev && a->ino == dst.st_ino) {
			closedir(d);
			return 0;	/* a link back up: already being walked */
		}
	}
	if (depth > 64) {
		closedir(d);
		return ti_ab_read_error(err, dir, 0, "directories nested too deep");
	}
	struct ancestor here = { dst.st_dev, dst.st_ino, up };
	while ((e = readdir(d))) {
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
			int se = errno;
			/* A dangling link is not a result; an entry of a
			 * directory that may be listed but not searched, or a
			 * loop of links, is an unreadable corner. */
			if (se != ENOENT && se != EACCES && se != ELOOP) {
				rc = ti_ab_read_sys_error(err, full, se);
				free(full);
				closedir(d);
				return rc;
			}
			if (se != ENOENT)
				skip(set, full, se);
			free(full);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			rc = walk(set, full, l, err, &here, depth + 1);
			free(full);
			if (rc < 0) {
				closedir(d);
				return rc;
			}
			continue;
		}
		if (!S_ISREG(st.st_mode) || !ti_ab_read_is_summary(e->d_name)) {
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

/* What a summary file times: a run of the benchmark, or its compile or
 * link.  lit's compiletime module (llvm-test-suite litsupport) sums a
 * test's *.o.time files into compile_time and *.link.time into link_time;
 * CMake compiles NAME's objects in CMakeFiles/NAME.dir/; timeit's own
 * suite writes NAME.compile.time. */
enum kind { K_EXEC, K_COMPILE, K_LINK };

static enum kind metric_kind(const char *metric)
{
	if (strncmp(metric, "compile_", 8) == 0)
		return K_COMPILE;
	if (strncmp(metric, "link_", 5) == 0)
		return K_LINK;
	return K_EXEC;
}

/* The kind of the summary at REL and the benchmark it belongs to. */
static enum kind time_kind(const char *rel, char *name, size_t len, uint32_t *sample)
{
	size_t n = strlen(rel);
	const char *cm;

	if (has_suffix(rel, n, ".link.time")) {
		ti_ab_bench_name(rel, ".link.time", name, len, sample);
		return K_LINK;
	}
	if (has_suffix(rel, n, ".compile.time")) {
		ti_ab_bench_name(rel, ".compile.time", name, len, sample);
		return K_COMPILE;
	}
	if (!has_suffix(rel, n, ".o.time"))
		goto exec;
	/* DIR/CMakeFiles/NAME.dir/...: DIR/NAME. */
	for (cm = rel; (cm = strstr(cm, "CMakeFiles/")) != NULL; cm++) {
		if (cm != rel && cm[-1] != '/')
			continue;
		const char *t = cm + strlen("CMakeFiles/"), *slash = strchr(t, '/');
		if (!slash || (size_t)(slash - t) <= 4 || strncmp(slash - 4, ".dir", 4) != 0)
			continue;
		char buf[1024];
		snprintf(buf, sizeof buf, "%.*s%.*s", (int)(cm - rel), rel, (int)(slash - 4 - t), t);
		ti_ab_bench_name(buf, NULL, name, len, sample);
		return K_COMPILE;
	}
	/* NAME.c.o.time elsewhere: NAME. */
	char buf[1024], *dot;
	snprintf(buf, sizeof buf, "%.*s", (int)(n - strlen(".o.time")), rel);
	if ((dot = strrchr(buf, '.')) && !strchr(dot, '/'))
		*dot = '\0';
	ti_ab_bench_name(buf, NULL, name, len, sample);
	return K_COMPILE;
exec:
	ti_ab_bench_name(rel, ".time", name, len, sample);
	return K_EXEC;
}

int ti_ab_read(struct ti_ab_set *set, const char *path, const char *metric, unsigned pos,
	       struct ti_ab_error *err)
{
	struct path_list l = { 0 };
	struct stat st;
	int rc, total = 0;

	if (stat(path, &st) < 0)
		return ti_ab_read_sys_error(err, path, errno);
	enum kind want = metric_kind(metric);

	if (!S_ISDIR(st.st_mode))
		return load_file(set, path, NULL, 0, metric, pos, err);

	rc = walk(set, path, &l, err, NULL, 0);
	if (rc == 0 && l.n == 0)
		rc = ti_ab_read_error(err, path, 0, "no *.time summary files in this directory "
				      "(JSON results are given as file paths)");
	/* Compile and link files are not looked at for the run metrics, and
	 * the other way round. */
	if (rc == 0)
		qsort(l.p, l.n, sizeof *l.p, cmp_str);	/* same order on every file system */
	for (size_t i = 0; rc == 0 && i < l.n; i++) {
		char name[1024];
		const char *rel = l.p[i] + strlen(path);
		uint32_t sample;

		while (*rel == '/')
			rel++;
		if (has_suffix(rel, strlen(rel), WRONG_OUTPUT) && want == K_EXEC) {
			/* Its time is not to be used; the failure is to be reported. */
			char timename[1024];
			struct ti_ab_sample s = ti_ab_read_sample();

			/* Without ".wrong-output": NAME.I.time. */
			snprintf(timename, sizeof timename, "%.*s",
				 (int)(strlen(rel) - strlen(".wrong-output")), rel);
			ti_ab_bench_name(timename, ".time", name, sizeof name, &sample);
			s.failed = true;
			s.round = TI_AB_ROUND(pos, sample);
			rc = ti_ab_read_add_run(set, name, s, l.p[i]) < 0 ? -ENOMEM : 1;
		} else if (time_kind(rel, name, sizeof name, &sample) == want) {
			rc = load_file(set, l.p[i], name, sample, metric, pos, err);
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

/* FNV-1a, 64 bits (Fowler, Noll, Vo): a digest to tell identical files
 * apart from different ones, not a defence against forgery. */
static int file_digest(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "rb");
	uint64_t h = 0xcbf29ce484222325u, size = 0;
	unsigned char buf[65536];
	size_t got;

	if (!f)
		return -errno;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
		for (size_t i = 0; i < got; i++) {
			h ^= buf[i];
			h *= 0x100000001b3u;
		}
		size += got;
	}
	int e = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (e)
		return -e;
	snprintf(out, len, "fnv1a64:%016llx:%llu", (unsigned long long)h, (unsigned long long)size);
	return 0;
}

/* The binary of benchmark NAME under DIR, into PATH: DIR/NAME, else
 * DIR/BASENAME, each also without ".test" (lit's test files name their
 * executables).  False when none is a regular file. */
static bool find_binary(const char *dir, const char *name, char *path, size_t len)
{
	const char *base = strrchr(name, '/');
	const char *cand[2] = { name, base ? base + 1 : name };

	for (int c = 0; c < 2; c++) {
		for (int strip = 0; strip < 2; strip++) {
			size_t n = strlen(cand[c]);
			struct stat st;
			if (strip && !has_suffix(cand[c], n, ".test"))
				continue;
			snprintf(path, len, "%s/%.*s", dir, (int)(strip ? n - 5 : n), cand[c]);
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
				return true;
		}
	}
	return false;
}

int ti_ab_read_binaries(struct ti_ab_set *set, const char *dir, struct ti_ab_error *err)
{
	struct stat st;
	int found = 0;

	if (stat(dir, &st) < 0)
		return ti_ab_read_sys_error(err, dir, errno);
	if (!S_ISDIR(st.st_mode))
		return ti_ab_read_sys_error(err, dir, ENOTDIR);
	for (size_t i = 0; i < set->n; i++) {
		char path[2048], digest[64];
		int rc;

		if (!find_binary(dir, set->b[i].name, path, sizeof path))
			continue;
		if ((rc = file_digest(path, digest, sizeof digest)) < 0)
			return ti_ab_read_sys_error(err, path, -rc);
		if (ti_ab_read_add_hash(set, set->b[i].name, digest, TI_AB_HASH_FILE) < 0)
			return -ENOMEM;
		found++;
	}
	return found;
}
