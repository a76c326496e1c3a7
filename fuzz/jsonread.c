/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* fuzz/jsonread.c: libFuzzer target for the JSON reader timeit-compare
 * uses (ti_jsonread_parse).  Every value of a parsed tree is visited, so a
 * malformed tree is caught where it was built. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t visit(const struct ti_jsonread_value *v, int depth)
{
	size_t n = 1;

	if (v->line < 1 || depth > 100000)
		abort();
	(void)ti_jsonread_type_name(v->type);
	if (v->type == TI_JSONREAD_STRING && (!v->str || strlen(v->str) > (size_t)-1 / 2))
		abort();
	if (v->type == TI_JSONREAD_ARRAY || v->type == TI_JSONREAD_OBJECT) {
		for (size_t i = 0; i < v->n; i++) {
			if (v->type == TI_JSONREAD_OBJECT)
				(void)strlen(v->keys[i]);
			n += visit(&v->items[i], depth + 1);
		}
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ti_jsonread_value v;
	struct ti_jsonread_error err;

	/* Exactly SIZE bytes, no terminator: the parser must honour LEN. */
	char *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (ti_jsonread_parse(copy, size, &v, &err) == 0) {
		visit(&v, 0);
		(void)ti_jsonread_get(&v, "runs");
		(void)ti_jsonread_get(&v, "tests");
		ti_jsonread_free(&v);
	} else if (err.line < 1 || err.column < 1 || !err.what) {
		abort();
	}
	free(copy);
	return 0;
}
