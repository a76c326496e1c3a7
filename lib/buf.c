/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* buf.c: growable text buffer. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

static bool reserve(struct ti_buf *b, size_t extra)
{
	size_t want = b->len + extra + 1;
	char *p;

	if (b->failed)
		return false;
	if (want <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < want)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

void ti_buf_append(struct ti_buf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void ti_buf_printf(struct ti_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void ti_buf_free(struct ti_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}
