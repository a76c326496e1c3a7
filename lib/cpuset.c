/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* cpuset.c: CPU sets of any size, and taskset(1)/cpuset(7) list syntax. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"

#define WORD_BITS (sizeof(unsigned long) * CHAR_BIT)

int ti_cpuset_add(struct ti_cpuset *s, unsigned long cpu)
{
	size_t w = cpu / WORD_BITS;

	if (cpu >= TI_CPUSET_MAX)
		return -ERANGE;
	if (w >= s->nwords) {
		/* Doubling: a range "0-4095" grows the set a dozen times, not
		 * once per word. */
		size_t n = s->nwords ? s->nwords : 1;
		unsigned long *b;

		while (n <= w)
			n *= 2;
		b = realloc(s->bits, n * sizeof *b);
		if (!b)
			return -ENOMEM;
		memset(b + s->nwords, 0, (n - s->nwords) * sizeof *b);
		s->bits = b;
		s->nwords = n;
	}
	s->bits[w] |= 1UL << (cpu % WORD_BITS);
	return 0;
}

bool ti_cpuset_has(const struct ti_cpuset *s, unsigned long cpu)
{
	size_t w = cpu / WORD_BITS;

	return w < s->nwords && (s->bits[w] >> (cpu % WORD_BITS) & 1);
}

long ti_cpuset_next(const struct ti_cpuset *s, long after)
{
	unsigned long c = after < 0 ? 0 : (unsigned long)after + 1;

	for (size_t w = c / WORD_BITS; w < s->nwords; w++) {
		/* The bits of this word from C on. */
		unsigned long v = s->bits[w];
		if (w == c / WORD_BITS)
			v &= ~0UL << (c % WORD_BITS);
		if (!v)
			continue;
		for (unsigned b = 0;; b++)
			if (v >> b & 1)
				return (long)(w * WORD_BITS + b);
	}
	return -1;
}

size_t ti_cpuset_count(const struct ti_cpuset *s)
{
	size_t n = 0;

	for (size_t w = 0; w < s->nwords; w++)
		for (unsigned long v = s->bits[w]; v; v &= v - 1)
			n++;
	return n;
}

bool ti_cpuset_subset(const struct ti_cpuset *a, const struct ti_cpuset *b)
{
	for (size_t w = 0; w < a->nwords; w++) {
		unsigned long in_b = w < b->nwords ? b->bits[w] : 0;
		if (a->bits[w] & ~in_b)
			return false;
	}
	return true;
}

bool ti_cpuset_equal(const struct ti_cpuset *a, const struct ti_cpuset *b)
{
	return ti_cpuset_subset(a, b) && ti_cpuset_subset(b, a);
}

int ti_cpuset_copy(struct ti_cpuset *dst, const struct ti_cpuset *src)
{
	ti_cpuset_clear(dst);
	for (long c = -1; (c = ti_cpuset_next(src, c)) >= 0;) {
		int rc = ti_cpuset_add(dst, (unsigned long)c);
		if (rc < 0) {
			ti_cpuset_free(dst);
			return rc;
		}
	}
	return 0;
}

void ti_cpuset_clear(struct ti_cpuset *s)
{
	if (s->nwords)
		memset(s->bits, 0, s->nwords * sizeof *s->bits);
}

void ti_cpuset_free(struct ti_cpuset *s)
{
	free(s->bits);
	s->bits = NULL;
	s->nwords = 0;
}

/* A decimal number at *P, advancing *P; -EINVAL when there is none,
 * -ERANGE when it is TI_CPUSET_MAX or more. */
static int number(const char **p, unsigned long *v)
{
	unsigned long n = 0;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	for (; **p >= '0' && **p <= '9'; (*p)++) {
		n = n * 10 + (unsigned long)(**p - '0');
		if (n >= TI_CPUSET_MAX)
			return -ERANGE;
	}
	*v = n;
	return 0;
}

int ti_cpuset_parse(const char *s, struct ti_cpuset *set)
{
	const char *p = s;
	int rc;

	ti_cpuset_clear(set);
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
			if ((rc = ti_cpuset_add(set, c)) < 0)
				return rc;
		if (*p == '\0')
			return 0;
		if (*p++ != ',')
			return -EINVAL;
	}
}

void ti_cpuset_format(const struct ti_cpuset *set, char *out, size_t len)
{
	size_t used = 0;
	const char *sep = "";

	if (len)
		out[0] = '\0';
	for (long c = -1; (c = ti_cpuset_next(set, c)) >= 0;) {
		long end = c;
		int n;

		while (ti_cpuset_has(set, (unsigned long)end + 1))
			end++;
		n = end == c ? snprintf(out + used, len - used, "%s%ld", sep, c)
			     : snprintf(out + used, len - used, "%s%ld-%ld", sep, c, end);
		if (n < 0 || (size_t)n >= len - used) {
			/* A range cut in the middle would name other CPUs. */
			if (used < len)
				out[used] = '\0';
			return;
		}
		used += (size_t)n;
		sep = ",";
		c = end;
	}
}
