/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* json.c: streaming JSON writer (RFC 8259 string escapes). */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "json.h"

void ti_json_init(struct ti_json *j, struct ti_buf *out)
{
	memset(j, 0, sizeof *j);
	j->out = out;
}

/* The length of the well-formed UTF-8 sequence at P (a byte >= 0x80), or
 * 0 when it is not one: the table of RFC 3629 section 4, which excludes
 * overlong forms, surrogates and code points above U+10FFFF.  P is
 * NUL-terminated, and NUL is never a continuation byte. */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

static void put_string(struct ti_buf *b, const char *s)
{
	ti_buf_append(b, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		/* JSON text is UTF-8 (RFC 8259 section 8.1), but a command line,
		 * a path or a host name may be any bytes: a byte that starts no
		 * well-formed sequence becomes U+FFFD, as a decoder shows it. */
		if (*p >= 0x80) {
			size_t n = utf8_len(p);
			if (n) {
				ti_buf_append(b, (const char *)p, n);
				p += n - 1;
			} else {
				ti_buf_append(b, "\\ufffd", 6);
			}
			continue;
		}
		switch (*p) {
		case '"': ti_buf_append(b, "\\\"", 2); break;
		case '\\': ti_buf_append(b, "\\\\", 2); break;
		case '\n': ti_buf_append(b, "\\n", 2); break;
		case '\t': ti_buf_append(b, "\\t", 2); break;
		case '\r': ti_buf_append(b, "\\r", 2); break;
		default:
			if (*p < 0x20)
				ti_buf_printf(b, "\\u%04x", *p);
			else
				ti_buf_append(b, (const char *)p, 1);
		}
	}
	ti_buf_append(b, "\"", 1);
}

/* Comma, newline and indentation before a value, then its key. */
static void begin_value(struct ti_json *j, const char *key)
{
	if (j->need_comma[j->depth])
		ti_buf_append(j->out, ",", 1);
	if (j->depth > 0) {
		ti_buf_append(j->out, "\n", 1);
		for (int i = 0; i < j->depth; i++)
			ti_buf_append(j->out, "  ", 2);
	}
	j->need_comma[j->depth] = true;
	if (key) {
		put_string(j->out, key);
		ti_buf_append(j->out, ": ", 2);
	}
}

static void open_container(struct ti_json *j, const char *key, const char *open)
{
	begin_value(j, key);
	ti_buf_append(j->out, open, 1);
	if (j->depth + 1 < TI_JSON_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
}

void ti_json_object(struct ti_json *j, const char *key)
{
	open_container(j, key, "{");
}

void ti_json_array(struct ti_json *j, const char *key)
{
	open_container(j, key, "[");
}

void ti_json_end(struct ti_json *j, char close)
{
	bool had = j->need_comma[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had) {
		ti_buf_append(j->out, "\n", 1);
		for (int i = 0; i < j->depth; i++)
			ti_buf_append(j->out, "  ", 2);
	}
	ti_buf_append(j->out, &close, 1);
}

void ti_json_string(struct ti_json *j, const char *key, const char *s)
{
	begin_value(j, key);
	if (s)
		put_string(j->out, s);
	else
		ti_buf_append(j->out, "null", 4);
}

void ti_json_int(struct ti_json *j, const char *key, int64_t v)
{
	begin_value(j, key);
	ti_buf_printf(j->out, "%" PRId64, v);
}

void ti_json_uint(struct ti_json *j, const char *key, uint64_t v)
{
	begin_value(j, key);
	ti_buf_printf(j->out, "%" PRIu64, v);
}

void ti_json_double(struct ti_json *j, const char *key, double v)
{
	begin_value(j, key);
	if (isfinite(v))
		ti_buf_printf(j->out, "%.9g", v);
	else
		ti_buf_append(j->out, "null", 4);
}

void ti_json_bool(struct ti_json *j, const char *key, bool v)
{
	begin_value(j, key);
	ti_buf_append(j->out, v ? "true" : "false", v ? 4 : 5);
}
