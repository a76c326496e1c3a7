/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* jsonread-test.c: the JSON reader on valid and malformed documents (TAP). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "jsonread.h"
#include "tap.h"

int main(void)
{
	static const struct {
		int line;
		const char *text;
		int err_line, err_col;	/* 0: must parse */
	} cases[] = {
		{ __LINE__, "{}", 0, 0 },
		{ __LINE__, " [1, -2.5e3, true, false, null, \"x\"] ", 0, 0 },
		{ __LINE__, "{\"a\": {\"b\": [[]]}}", 0, 0 },
		{ __LINE__, "0", 0, 0 },
		{ __LINE__, "", 1, 1 },
		{ __LINE__, "{\"a\": 1,}", 1, 9 },
		{ __LINE__, "{\n\"a\": 1\n\"b\": 2}", 3, 1 },
		{ __LINE__, "[1, 2\n", 2, 1 },
		{ __LINE__, "{\"a\" 1}", 1, 6 },
		{ __LINE__, "[01]", 1, 3 },
		{ __LINE__, "[1.]", 1, 4 },
		{ __LINE__, "[+1]", 1, 2 },
		{ __LINE__, "[nul]", 1, 2 },
		{ __LINE__, "\"abc", 1, 1 },
		{ __LINE__, "\"a\\qb\"", 1, 4 },
		{ __LINE__, "\"a\\u12\"", 1, 4 },
		{ __LINE__, "{} {}", 1, 4 },
		{ __LINE__, "{1: 2}", 1, 2 },
		{ __LINE__, "[1e308, -1e-999]", 0, 0 },
		{ __LINE__, "[1,\n 1e999]", 2, 2 },
		{ __LINE__, "[-1e999]", 1, 2 },
		/* Python's json writes these (allow_nan), and so lit -o. */
		{ __LINE__, "[NaN, Infinity, -Infinity]", 0, 0 },
		{ __LINE__, "{\"a\": NaN}", 0, 0 },
		{ __LINE__, "[nan]", 1, 2 },
		{ __LINE__, "[Inf]", 1, 2 },
		{ __LINE__, "[NaNa]", 1, 2 },
		{ __LINE__, "[-Infinit]", 1, 2 },
		{ __LINE__, "[+Infinity]", 1, 2 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ti_jsonread_value v;
		struct ti_jsonread_error e = { 0, 0, NULL };
		int rc = ti_jsonread_parse(cases[i].text, strlen(cases[i].text), &v, &e);

		if (cases[i].err_line == 0)
			tap_ok(rc == 0, cases[i].line, "parses: rc %d", rc);
		else
			tap_ok(rc == -EINVAL && e.line == cases[i].err_line && e.column == cases[i].err_col,
			       cases[i].line, "rejected at %d:%d (%s)", e.line, e.column,
			       e.what ? e.what : "accepted");
		if (rc == 0)
			ti_jsonread_free(&v);
	}

	const char *doc = "{\n \"s\": \"a\\\"\\n\\u00e9\\ud83d\\ude00\",\n \"n\": -0.25,\n"
			  " \"l\": [1, 2, 3],\n \"s\": \"last\"\n}";
	struct ti_jsonread_value v;
	struct ti_jsonread_error e;
	TAP_OK(ti_jsonread_parse(doc, strlen(doc), &v, &e) == 0, "document parses");
	const struct ti_jsonread_value *n = ti_jsonread_get(&v, "n"), *l = ti_jsonread_get(&v, "l");
	TAP_OK(n && n->type == TI_JSONREAD_NUMBER && n->num == -0.25 && n->line == 3,
	       "number member with its line");
	TAP_OK(l && l->type == TI_JSONREAD_ARRAY && l->n == 3 && l->items[2].num == 3 && l->line == 4,
	       "array member");
	TAP_OK(strcmp(ti_jsonread_get(&v, "s")->str, "last") == 0, "a repeated key: the last wins");
	TAP_OK(strcmp(v.items[0].str, "a\"\n\xc3\xa9\xf0\x9f\x98\x80") == 0,
	       "escapes, \\u and surrogate pairs decode to UTF-8");
	TAP_OK(ti_jsonread_get(&v, "missing") == NULL && ti_jsonread_get(n, "x") == NULL,
	       "absent keys and non-objects give NULL");
	ti_jsonread_free(&v);

	const char *nf = "[NaN, Infinity, -Infinity]";
	TAP_OK(ti_jsonread_parse(nf, strlen(nf), &v, &e) == 0 && v.n == 3 &&
	       v.items[0].type == TI_JSONREAD_NUMBER && isnan(v.items[0].num) &&
	       isinf(v.items[1].num) && v.items[1].num > 0 && isinf(v.items[2].num) &&
	       v.items[2].num < 0, "NaN, Infinity and -Infinity are the numbers they name");
	ti_jsonread_free(&v);
	return tap_done();
}
