/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-lit.c: what the driver needs of lit besides its -o files (read
 * by lib/ab/read-lit.c, the tests and their names with them): the list
 * of lit --show-tests, and the --filter selecting exactly some tests.
 * Names go from JSON to the filter escaped, never through a shell. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "drive-int.h"

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
		    (rc = push(units, n, strdup(line + 2))) < 0)
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
