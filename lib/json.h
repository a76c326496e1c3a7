/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* json.h: a minimal streaming JSON writer into a ti_buf. */
#ifndef TI_JSON_H
#define TI_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "buf.h"

#define TI_JSON_DEPTH 16

struct ti_json {
	struct ti_buf *out;
	int depth;
	bool need_comma[TI_JSON_DEPTH];
};

void ti_json_init(struct ti_json *j, struct ti_buf *out);
/* KEY is NULL inside arrays and at the top level. */
void ti_json_object(struct ti_json *j, const char *key);
void ti_json_array(struct ti_json *j, const char *key);
void ti_json_end(struct ti_json *j, char close);	/* '}' or ']' */
void ti_json_string(struct ti_json *j, const char *key, const char *s);	/* NULL: null */
void ti_json_int(struct ti_json *j, const char *key, int64_t v);
void ti_json_uint(struct ti_json *j, const char *key, uint64_t v);
void ti_json_double(struct ti_json *j, const char *key, double v);	/* non-finite: null */
void ti_json_bool(struct ti_json *j, const char *key, bool v);

#endif
