/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* buf.h: a growable text buffer; outputs are formatted here, then written
 * in one go. */
#ifndef TI_BUF_H
#define TI_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct ti_buf {
	char *data;
	size_t len, cap;
	bool failed;		/* an allocation failed: the contents are incomplete */
};

/* Append formatted text; on allocation failure sets B->failed. */
void ti_buf_printf(struct ti_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ti_buf_append(struct ti_buf *b, const char *s, size_t n);
void ti_buf_free(struct ti_buf *b);

#endif
