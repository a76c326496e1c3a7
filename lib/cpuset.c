/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* cpuset.c: taskset(1)/cpuset(7) list syntax to and from cpu_set_t. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cpuset.h"

/* A decimal number at *P, advancing *P; -EINVAL when there is none. */
static int number(const char **p, unsigned long *v)
{
	unsigned long n = 0;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	for (; **p >= '0' && **p <= '9'; (*p)++) {
		n = n * 10 + (unsigned long)(**p - '0');
		if (n >= CPU_SETSIZE)
			return -ERANGE;
	}
	*v = n;
	return 0;
}

int ti_cpuset_parse(const char *s, cpu_set_t *set)
{
	const char *p = s;
	int rc;

	CPU_ZERO(set);
	for (;;) {
		unsigned long a, b, stride = 1;

		if ((rc = number(&p, &a)) < 0)
			return rc;
		b = a;
		if (*p == '-') {
			p++;
			if ((rc = number(&p, &b)) < 0)
				return rc;
			if (b < a)
				return -EINVAL;
			if (*p == ':') {
				p++;
				if ((rc = number(&p, &stride)) < 0 || stride == 0)
					return -EINVAL;
			}
		}
		for (unsigned long c = a; c <= b; c += stride)
			CPU_SET(c, set);
		if (*p == '\0')
			return 0;
		if (*p++ != ',')
			return -EINVAL;
	}
}

void ti_cpuset_format(const cpu_set_t *set, char *out, size_t len)
{
	size_t used = 0;
	bool first = true;

	if (len)
		out[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE; c++) {
		int end = c;
		int n;

		if (!CPU_ISSET(c, set))
			continue;
		while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set))
			end++;
		n = end == c ? snprintf(out + used, len - used, "%s%d", first ? "" : ",", c)
			     : snprintf(out + used, len - used, "%s%d-%d", first ? "" : ",", c, end);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
		first = false;
		c = end;
	}
}
