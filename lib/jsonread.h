/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* jsonread.h: a small JSON (RFC 8259) reader building a tree, for result
 * files written by timeit, lit and LNT.  Every value remembers its line so
 * that callers can name where a file is wrong. */
#ifndef TI_JSONREAD_H
#define TI_JSONREAD_H

#include <stddef.h>

enum ti_jsonread_type {
	TI_JSONREAD_NULL,
	TI_JSONREAD_FALSE,
	TI_JSONREAD_TRUE,
	TI_JSONREAD_NUMBER,
	TI_JSONREAD_STRING,
	TI_JSONREAD_ARRAY,
	TI_JSONREAD_OBJECT,
};

struct ti_jsonread_value {
	enum ti_jsonread_type type;
	int line;		/* 1-based line where the value starts */
	double num;		/* NUMBER; NaN, Infinity, -Infinity read as such */
	char *str;		/* STRING, NUL-terminated UTF-8 (embedded NULs cut it short) */
	size_t n;		/* ARRAY / OBJECT: number of members */
	struct ti_jsonread_value *items;	/* ARRAY / OBJECT members, in order */
	char **keys;		/* OBJECT: keys[i] names items[i] */
	void *arena;		/* the top level value: the memory of the tree */
};

struct ti_jsonread_error {
	int line, column;	/* 1-based position of the problem */
	const char *what;	/* static text, e.g. "expected ',' or '}'" */
};

/* Parse the LEN bytes at TEXT as one JSON value into *OUT (free with
 * ti_jsonread_free).  Beyond RFC 8259, the words NaN, Infinity and
 * -Infinity are numbers, as Python's json module writes them; a number
 * literal beyond a double's range is an error.  Returns 0, -EINVAL with ERR filled in for malformed
 * input, or -ENOMEM. */
int ti_jsonread_parse(const char *text, size_t len, struct ti_jsonread_value *out,
		      struct ti_jsonread_error *err);

/* Free the tree of V, a value ti_jsonread_parse filled (not V itself):
 * its members go with it. */
void ti_jsonread_free(struct ti_jsonread_value *v);

/* The member KEY of object V (the last one if repeated), or NULL when V is
 * not an object or has no such member. */
const struct ti_jsonread_value *ti_jsonread_get(const struct ti_jsonread_value *v,
						const char *key);

/* Name of a type for messages: "null", "number", "object", ... */
const char *ti_jsonread_type_name(enum ti_jsonread_type t);
/* The same with its article, for "is ... , not a number": "a number",
 * "an array", "an object", "null". */
const char *ti_jsonread_a_type(enum ti_jsonread_type t);

#endif
