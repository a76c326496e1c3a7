/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* json-test: the JSON writer's strings, byte for byte: escapes, and bytes
 * that are not UTF-8 (RFC 8259 section 8.1 wants UTF-8 text). */
#include "config.h"

#include <string.h>

#include "json.h"
#include "tap.h"

static const struct {
	int line;
	const char *in, *want;	/* WANT: the document ["IN"] */
} cases[] = {
	{ __LINE__, "plain", "[\n  \"plain\"\n]" },
	{ __LINE__, "q\"b\\n\nt\tc\001", "[\n  \"q\\\"b\\\\n\\nt\\tc\\u0001\"\n]" },
	/* Well-formed UTF-8 passes unchanged: 2, 3 and 4 bytes, the edges. */
	{ __LINE__, "\xc3\xa9", "[\n  \"\xc3\xa9\"\n]" },
	{ __LINE__, "\xe2\x82\xac", "[\n  \"\xe2\x82\xac\"\n]" },
	{ __LINE__, "\xf0\x9f\x98\x80", "[\n  \"\xf0\x9f\x98\x80\"\n]" },
	{ __LINE__, "\xef\xbf\xbf", "[\n  \"\xef\xbf\xbf\"\n]" },
	{ __LINE__, "\xf4\x8f\xbf\xbf", "[\n  \"\xf4\x8f\xbf\xbf\"\n]" },
	/* Not UTF-8: each byte that starts no sequence becomes U+FFFD. */
	{ __LINE__, "a\xff" "b", "[\n  \"a\\ufffdb\"\n]" },
	{ __LINE__, "\x80", "[\n  \"\\ufffd\"\n]" },
	{ __LINE__, "\xc0\xaf", "[\n  \"\\ufffd\\ufffd\"\n]" },		/* overlong '/' */
	{ __LINE__, "\xe0\x80\xaf", "[\n  \"\\ufffd\\ufffd\\ufffd\"\n]" },	/* overlong */
	{ __LINE__, "\xed\xa0\x80", "[\n  \"\\ufffd\\ufffd\\ufffd\"\n]" },	/* surrogate */
	{ __LINE__, "\xf4\x90\x80\x80", "[\n  \"\\ufffd\\ufffd\\ufffd\\ufffd\"\n]" }, /* > U+10FFFF */
	{ __LINE__, "\xc3", "[\n  \"\\ufffd\"\n]" },				/* cut short */
	{ __LINE__, "\xe2\x82" "x", "[\n  \"\\ufffd\\ufffdx\"\n]" },
	{ __LINE__, "\xc3\xa9\xff\xc3\xa9", "[\n  \"\xc3\xa9\\ufffd\xc3\xa9\"\n]" },
};

int main(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ti_buf b = { 0 };
		struct ti_json j;

		ti_json_init(&j, &b);
		ti_json_array(&j, NULL);
		ti_json_string(&j, NULL, cases[i].in);
		ti_json_end(&j, ']');
		tap_ok(b.data && strcmp(b.data, cases[i].want) == 0, cases[i].line,
		       "string %zu", i);
		ti_buf_free(&b);
	}
	return tap_done();
}
