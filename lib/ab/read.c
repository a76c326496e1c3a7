/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read.c: what reading a result file takes before its format matters
 * (read.h, read-int.h): the errors naming the file, its bytes, and the
 * benchmark name its path stands for.  The format table and the
 * directories are read-format.c's, each format's reader its own file. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read-int.h"
#include "read.h"

__attribute__((format(printf, 4, 5)))
int ti_ab_read_error(struct ti_ab_error *err, const char *path, int line,
		 const char *fmt, ...)
{
	va_list ap;

	snprintf(err->path, sizeof err->path, "%s", path);
	err->line = line;
	err->empty = false;
	va_start(ap, fmt);
	vsnprintf(err->what, sizeof err->what, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int ti_ab_read_no_tests(struct ti_ab_error *err, const char *path, int line)
{
	int rc = ti_ab_read_error(err, path, line, "no tests");

	err->empty = true;
	return rc;
}

int ti_ab_read_sys_error(struct ti_ab_error *err, const char *path, int e)
{
	snprintf(err->path, sizeof err->path, "%s", path);
	err->line = 0;
	err->empty = false;
	snprintf(err->what, sizeof err->what, "%s", strerror(e));
	return -e;
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
