/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* util.c: strict number parsing. */
#include "config.h"

#include <errno.h>

#include "util.h"

int ti_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}
