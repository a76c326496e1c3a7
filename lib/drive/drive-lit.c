/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-lit.c: what the driver needs of lit: the tests of a -o file by
 * their full names (the runs' metrics are read by lib/ab/read-lit.c; here
 * only which tests there are, and which lit test a micro-result belongs
 * to), the list of lit --show-tests, and the --filter selecting exactly
 * some tests.  Names go from JSON to the filter escaped, never through a
 * shell. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "drive-int.h"
#include "jsonread.h"

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

static int slurp(const char *path, char **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct ti_buf b = { 0 };
	char chunk[8192];
	size_t k;

	if (!f)
		return -errno;
	while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
		ti_buf_append(&b, chunk, k);
	int bad = ferror(f);
	fclose(f);
	ti_buf_append(&b, "", 1);
	if (b.failed) {
		ti_buf_free(&b);
		return -ENOMEM;
	}
	if (bad) {
		ti_buf_free(&b);
		return -EIO;
	}
	*data = b.data;
	*len = b.len - 1;
	return 0;
}

/* As lib/ab/read-lit.c names a result: after "SUITE :: ", without ".test". */
char *ti_drive_lit_short(const char *full)
{
	const char *sep = strstr(full, " :: ");
	char *s = dup_str(sep ? sep + 4 : full);
	size_t n;

	if (s && (n = strlen(s)) > 5 && strcmp(s + n - 5, ".test") == 0)
		s[n - 5] = '\0';
	return s;
}

static int push(char ***v, size_t *n, char *s)
{
	char **p;

	if (!s)
		return -ENOMEM;
	if (!(p = realloc(*v, (*n + 1) * sizeof **v))) {
		free(s);
		return -ENOMEM;
	}
	*v = p;
	p[(*n)++] = s;
	return 0;
}

int ti_drive_lit_names(const char *path, char ***names, char ***units, size_t *n, char *err,
		       size_t len)
{
	struct ti_jsonread_value top;
	struct ti_jsonread_error je;
	char *data = NULL;
	size_t dlen, nu = 0;
	int rc;

	*names = *units = NULL;
	*n = 0;
	if ((rc = slurp(path, &data, &dlen)) < 0) {
		snprintf(err, len, "%s: %s", path, strerror(-rc));
		return rc;
	}
	rc = ti_jsonread_parse(data, dlen, &top, &je);
	free(data);
	if (rc < 0) {
		if (rc != -ENOMEM)
			snprintf(err, len, "%s:%d: %s", path, je.line, je.what);
		return rc;
	}
	const struct ti_jsonread_value *tests = ti_jsonread_get(&top, "tests");
	const char *parent = NULL;
	if (!tests || tests->type != TI_JSONREAD_ARRAY) {
		snprintf(err, len, "%s: not lit's -o JSON (no \"tests\" array)", path);
		ti_jsonread_free(&top);
		return -EINVAL;
	}
	for (size_t i = 0; i < tests->n; i++) {
		const struct ti_jsonread_value *nm = ti_jsonread_get(&tests->items[i], "name");
		size_t pl = parent ? strlen(parent) : 0;
		const char *unit;

		if (!nm || nm->type != TI_JSONREAD_STRING)
			continue;
		/* lit's reports.py writes a test, then its micro-results as
		 * "TEST:KEY". */
		if (parent && strncmp(nm->str, parent, pl) == 0 && nm->str[pl] == ':')
			unit = parent;
		else
			unit = parent = nm->str;
		if ((rc = push(names, n, dup_str(nm->str))) < 0)
			break;
		if ((rc = push(units, &nu, dup_str(unit))) < 0) {
			free((*names)[--*n]);
			break;
		}
	}
	ti_jsonread_free(&top);
	return rc;
}

int ti_drive_lit_shown(const char *path, char ***units, size_t *n)
{
	char *data = NULL, *line, *save = NULL;
	size_t dlen;
	bool in = false;
	int rc;

	*units = NULL;
	*n = 0;
	if ((rc = slurp(path, &data, &dlen)) < 0)
		return rc;
	for (line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "-- ", 3) == 0) {
			in = strcmp(line, "-- Available Tests --") == 0;
			continue;
		}
		if (in && strncmp(line, "  ", 2) == 0 && strstr(line, " :: ") &&
		    (rc = push(units, n, dup_str(line + 2))) < 0)
			break;
	}
	free(data);
	return rc;
}

int ti_drive_lit_filter(char *const *units, size_t n, char **out)
{
	struct ti_buf b = { 0 };

	/* lit compiles --filter case-insensitively (cl_arguments.py): the
	 * scoped flag (Python >= 3.6) makes it exact. */
	ti_buf_printf(&b, "^(?-i:");
	for (size_t i = 0; i < n; i++) {
		if (i)
			ti_buf_append(&b, "|", 1);
		for (const unsigned char *p = (const unsigned char *)units[i]; *p; p++) {
			/* Python's re.escape: every ASCII character but letters,
			 * digits and '_' taken literally; others as they are. */
			if (*p < 0x80 && !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
			    !(*p >= '0' && *p <= '9') && *p != '_')
				ti_buf_append(&b, "\\", 1);
			ti_buf_append(&b, (const char *)p, 1);
		}
	}
	ti_buf_printf(&b, ")$");
	ti_buf_append(&b, "", 1);
	if (b.failed) {
		ti_buf_free(&b);
		return -ENOMEM;
	}
	*out = b.data;
	return 0;
}
