/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-lit.c: what the driver needs of lit besides its -o files (read
 * by lib/ab/read-lit.c, the tests and their names with them): the
 * --filter selecting exactly some tests.
 * Names go from JSON to the filter escaped, never through a shell. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "drive-int.h"

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
