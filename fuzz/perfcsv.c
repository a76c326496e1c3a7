/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* fuzz/perfcsv.c: libFuzzer target for the reader of perf stat's -x
 * output (ti_perfcsv_read, what timeit-perf reads after each run).  The
 * first byte picks the separator (tab or comma) and whether an -e list is
 * given; the rest is the CSV, not NUL-terminated. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfcsv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ti_record r;
	struct ti_perfcsv_times t;
	char sep = size && (data[0] & 1) ? ',' : '\t';
	const char *asked = size && (data[0] & 2) ? "task-clock:u,cycles:u" : NULL;
	char *copy;

	if (size)
		data++, size--;
	/* An exact-size copy, so that a read past the end is seen. */
	if (!(copy = malloc(size ? size : 1)))
		return 0;
	memcpy(copy, data, size);
	memset(&r, 0, sizeof r);
	ti_perfcsv_read(copy, size, sep, asked, &r, &t);
	if (r.ncounts > TI_MAX_EVENTS)
		abort();
	for (size_t i = 0; i < r.ncounts; i++)
		if (strnlen(r.counts[i].name, TI_EVENT_NAME_MAX) == TI_EVENT_NAME_MAX ||
		    (r.counts[i].counted && !r.counts[i].opened))
			abort();
	free(copy);
	return 0;
}
