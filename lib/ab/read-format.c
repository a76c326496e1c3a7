/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read-format.c: a path's results into a set (read.h): a file read by
 * the first format of the table whose probe takes it, a results directory
 * walked for its summaries (each run's, compile's or link's), and the
 * binaries' identities from their bytes. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jsonread.h"
#include "read-int.h"
#include "read.h"
#include "summary.h"

/* The formats, tried in order: the first whose probe accepts the input
 * reads it.  A new format is one reader (read-*.c) and one row. */
static const struct ti_ab_format formats[] = {
	{ "timeit-json", true, ti_ab_read_timeit_probe, ti_ab_read_timeit },
	{ "lnt", true, ti_ab_read_lnt_probe, ti_ab_read_lnt },
	{ "lit", true, ti_ab_read_lit_probe, ti_ab_read_lit },
	{ "summary", false, ti_ab_read_summary_probe, ti_ab_read_summary },
};

static int load_file(struct ti_ab_set *set, const char *path, const char *name,
		     uint32_t sample, const char *metric, unsigned pos, struct ti_ab_error *err)
{
	struct ti_ab_input in = { .path = path, .metric = metric, .pos = pos, .sample = sample };
	struct ti_jsonread_value top;
	struct ti_jsonread_error je;
	char *data = NULL, nm[TI_AB_NAME_MAX];
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
		char buf[TI_AB_NAME_MAX];
		snprintf(buf, sizeof buf, "%.*s%.*s", (int)(cm - rel), rel, (int)(slash - 4 - t), t);
		ti_ab_bench_name(buf, NULL, name, len, sample);
		return K_COMPILE;
	}
	/* NAME.c.o.time elsewhere: NAME. */
	char buf[TI_AB_NAME_MAX], *dot;
	snprintf(buf, sizeof buf, "%.*s", (int)(n - strlen(".o.time")), rel);
	if ((dot = strrchr(buf, '.')) && !strchr(dot, '/'))
		*dot = '\0';
	ti_ab_bench_name(buf, NULL, name, len, sample);
	return K_COMPILE;
exec:
	ti_ab_bench_name(rel, ".time", name, len, sample);
	return K_EXEC;
}

static int cmp_round(const void *x, const void *y)
{
	uint64_t a = ((const struct ti_ab_sample *)x)->round;
	uint64_t b = ((const struct ti_ab_sample *)y)->round;
	return (a > b) - (a < b);
}

/* The compiles (or links) of UNITS, one sample a file, into SET as one
 * sample a benchmark and round: their sum, as lit's compiletime module
 * sums a test's *.o.time files, or for a resident set (MAX) the largest:
 * the units run one after another, not at once.  A round with a failed
 * compile is a failed sample (DIR named); one with a value missing, a
 * sample without the metric. */
static int sum_units(struct ti_ab_set *set, struct ti_ab_set *units, const char *dir, bool max)
{
	for (size_t i = 0; i < units->n; i++) {
		struct ti_ab_bench *b = &units->b[i];
		qsort(b->s, b->n, sizeof *b->s, cmp_round);
		for (size_t k = 0; k < b->n;) {
			struct ti_ab_sample sum = b->s[k];
			size_t j = k + 1;
			for (; j < b->n && b->s[j].round == sum.round; j++) {
				double v = b->s[j].value;
				if (!max)
					sum.value += v;	/* NAN stays NAN */
				else if (isnan(v) || v > sum.value)
					sum.value = v;
				sum.failed |= b->s[j].failed;
				sum.flags |= b->s[j].flags;
			}
			if (ti_ab_set_add_run(set, b->name, sum, b->failed_in ? b->failed_in : dir) < 0)
				return -ENOMEM;
			k = j;
		}
	}
	return 0;
}

int ti_ab_read(struct ti_ab_set *set, const char *path, const char *metric, unsigned pos,
	       struct ti_ab_error *err)
{
	struct ti_ab_set units = { 0 };
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
		char name[TI_AB_NAME_MAX];
		const char *rel = l.p[i] + strlen(path);
		uint32_t sample;

		while (*rel == '/')
			rel++;
		if (has_suffix(rel, strlen(rel), WRONG_OUTPUT) && want == K_EXEC) {
			/* Its time is not to be used; the failure is to be reported. */
			char timename[TI_AB_NAME_MAX];
			struct ti_ab_sample s = ti_ab_read_sample();

			/* Without ".wrong-output": NAME.I.time. */
			snprintf(timename, sizeof timename, "%.*s",
				 (int)(strlen(rel) - strlen(".wrong-output")), rel);
			ti_ab_bench_name(timename, ".time", name, sizeof name, &sample);
			s.failed = true;
			s.round = TI_AB_ROUND(pos, sample);
			rc = ti_ab_set_add_run(set, name, s, l.p[i]) < 0 ? -ENOMEM : 1;
		} else if (time_kind(rel, name, sizeof name, &sample) == want) {
			rc = load_file(want == K_EXEC ? set : &units, l.p[i], name, sample, metric, pos,
				       err);
		}
		if (rc > 0) {
			total += rc;
			rc = 0;
		}
	}
	if (rc == 0 && sum_units(set, &units, path,
				 strcmp(ti_ab_read_summary_key(metric), TI_KEY_MAXRSS) == 0) < 0)
		rc = -ENOMEM;
	ti_ab_set_free(&units);
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
		if (ti_ab_set_add_hash(set, set->b[i].name, digest, TI_AB_HASH_FILE) < 0)
			return -ENOMEM;
		found++;
	}
	return found;
}
