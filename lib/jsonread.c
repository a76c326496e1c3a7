/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* jsonread.c: recursive-descent JSON reader (grammar of RFC 8259). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"

/* Deep enough for any result file; bounds the recursion on hostile input. */
#define MAX_DEPTH 200

/* Every string and array of a tree comes from one arena, freed at once:
 * a report of 100 000 tests is a million small blocks, and malloc and
 * free of each were a third of reading it. */
struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct parser {
	const char *p, *end, *line_start;
	int line;
	int depth;
	struct ti_jsonread_error *err;
	bool nomem;
	struct chunk *arena;
};

/* Below malloc's usual mmap threshold (128 KiB): the heap keeps the memory
 * of one file's tree for the next one's. */
#define CHUNK (64 * 1024)

/* N bytes from the arena, aligned for any type; NULL when memory runs out. */
static void *alloc(struct parser *ps, size_t n)
{
	struct chunk *c = ps->arena;
	size_t a = sizeof(max_align_t), need = (n + a - 1) / a * a;

	if (!c || c->cap - c->used < need) {
		size_t cap = need > CHUNK / 4 ? need : CHUNK;
		if (!(c = malloc(sizeof *c + cap))) {
			ps->nomem = true;
			return NULL;
		}
		c->used = 0;
		c->cap = cap;
		/* A block of its own goes behind the current chunk, which keeps
		 * its room. */
		if (cap != CHUNK && ps->arena) {
			c->next = ps->arena->next;
			ps->arena->next = c;
		} else {
			c->next = ps->arena;
			ps->arena = c;
		}
	}
	void *r = (char *)c->data + c->used;
	c->used += need;
	return r;
}

static void arena_free(struct chunk *c)
{
	while (c) {
		struct chunk *next = c->next;
		free(c);
		c = next;
	}
}

static int fail(struct parser *ps, const char *what)
{
	ps->err->line = ps->line;
	ps->err->column = (int)(ps->p - ps->line_start) + 1;
	ps->err->what = what;
	return -EINVAL;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;
		if (c == '\n') {
			ps->line++;
			ps->line_start = ps->p + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			return;
		}
		ps->p++;
	}
}

static bool literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return false;
	ps->p += n;
	return true;
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t utf8(unsigned cp, char *o)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string starting at the opening quote, in the arena.  Escapes
 * never lengthen the text, so the raw length bounds the decoded one. */
static int parse_string(struct parser *ps, char **out)
{
	const char *s = ++ps->p;
	size_t cap;
	char *o, *w;

	while (ps->p < ps->end && *ps->p != '"') {
		if (*ps->p == '\\')
			ps->p++;
		ps->p++;
	}
	if (ps->p >= ps->end) {
		ps->p = s - 1;
		return fail(ps, "unterminated string");
	}
	cap = (size_t)(ps->p - s) + 1;
	if (!(o = alloc(ps, cap)))
		return -ENOMEM;
	w = o;
	for (const char *q = s; q < ps->p; q++) {
		unsigned char c = (unsigned char)*q;
		if (c < 0x20) {
			ps->p = q;
			return fail(ps, "control character in string");
		}
		if (c != '\\') {
			*w++ = (char)c;
			continue;
		}
		switch (*++q) {
		case '"': *w++ = '"'; break;
		case '\\': *w++ = '\\'; break;
		case '/': *w++ = '/'; break;
		case 'b': *w++ = '\b'; break;
		case 'f': *w++ = '\f'; break;
		case 'n': *w++ = '\n'; break;
		case 'r': *w++ = '\r'; break;
		case 't': *w++ = '\t'; break;
		case 'u': {
			unsigned cp, lo;
			if (ps->p - q < 5 || hex4(q + 1, &cp) < 0) {
				ps->p = q;
				return fail(ps, "bad \\u escape");
			}
			q += 4;
			/* A UTF-16 surrogate pair spells one code point. */
			if (cp >= 0xd800 && cp < 0xdc00 && ps->p - q >= 7 && q[1] == '\\' &&
			    q[2] == 'u' && hex4(q + 3, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				q += 6;
			}
			w += utf8(cp, w);
			break;
		}
		default:
			ps->p = q;
			return fail(ps, "bad escape in string");
		}
	}
	*w = '\0';
	ps->p++;
	*out = o;
	return 0;
}

static int parse_number(struct parser *ps, double *out)
{
	const char *s = ps->p;
	char buf[64];
	size_t n;

	/* RFC 8259 section 6: -? int frac? exp? ; strtod accepts more (hex,
	 * inf, leading +), so check the shape first. */
	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
		return fail(ps, "bad number");
	if (*ps->p == '0')
		ps->p++;
	else
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
			return fail(ps, "bad number");
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
			return fail(ps, "bad number");
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	n = (size_t)(ps->p - s);
	if (n >= sizeof buf) {
		ps->p = s;
		return fail(ps, "number too long");
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = strtod(buf, NULL);
	/* RFC 8259 section 6 lets a reader limit the range; a value beyond
	 * a double's (1e999) would turn into infinity, which no result has. */
	if (!isfinite(*out)) {
		ps->p = s;
		return fail(ps, "number out of range");
	}
	return 0;
}

/* NaN, Infinity and -Infinity: not JSON (RFC 8259 section 6 has no
 * form for them), but Python's json module writes them by default
 * (allow_nan=True), and so does lit -o for a metric that is not a
 * number.  Read as the values they name; callers decide what a
 * non-finite number means. */
static int non_finite(struct parser *ps, double *out)
{
	const char *s = ps->p;

	if (literal(ps, "NaN"))
		*out = NAN;
	else if (literal(ps, "Infinity"))
		*out = INFINITY;
	else if (literal(ps, "-Infinity"))
		*out = -INFINITY;
	else
		return fail(ps, "unexpected character");
	/* "NaNa", "Infinityx": not a literal followed by a delimiter. */
	if (ps->p < ps->end && ((*ps->p >= 'a' && *ps->p <= 'z') || (*ps->p >= 'A' && *ps->p <= 'Z') ||
				(*ps->p >= '0' && *ps->p <= '9'))) {
		ps->p = s;
		return fail(ps, "unexpected character");
	}
	return 0;
}

static int parse_value(struct parser *ps, struct ti_jsonread_value *v);

/* Append a zeroed member to V; returns it or NULL when memory runs out. */
static struct ti_jsonread_value *add_item(struct parser *ps, struct ti_jsonread_value *v,
					  size_t *cap, char *key)
{
	/* Doubling in the arena: the copies left behind add up to less than
	 * the final array. */
	if (v->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 4;
		struct ti_jsonread_value *it = alloc(ps, nc * sizeof *it);
		if (!it)
			return NULL;
		if (v->n)
			memcpy(it, v->items, v->n * sizeof *it);
		v->items = it;
		if (v->type == TI_JSONREAD_OBJECT) {
			char **k = alloc(ps, nc * sizeof *k);
			if (!k)
				return NULL;
			if (v->n)
				memcpy(k, v->keys, v->n * sizeof *k);
			v->keys = k;
		}
		*cap = nc;
	}
	memset(&v->items[v->n], 0, sizeof v->items[0]);
	if (v->type == TI_JSONREAD_OBJECT)
		v->keys[v->n] = key;
	return &v->items[v->n++];
}

static int parse_container(struct parser *ps, struct ti_jsonread_value *v, char close)
{
	size_t cap = 0;
	int rc;

	if (++ps->depth > MAX_DEPTH)
		return fail(ps, "nesting too deep");
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		ps->depth--;
		return 0;
	}
	for (;;) {
		char *key = NULL;
		struct ti_jsonread_value *item;

		skip_ws(ps);
		if (close == '}') {
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, "expected a string key");
			if ((rc = parse_string(ps, &key)) < 0)
				return rc;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return fail(ps, "expected ':'");
			ps->p++;
		}
		if (!(item = add_item(ps, v, &cap, key)))
			return -ENOMEM;
		if ((rc = parse_value(ps, item)) < 0)
			return rc;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			ps->depth--;
			return 0;
		}
		return fail(ps, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int parse_value(struct parser *ps, struct ti_jsonread_value *v)
{
	skip_ws(ps);
	v->line = ps->line;
	if (ps->p >= ps->end)
		return fail(ps, "unexpected end of input");
	switch (*ps->p) {
	case '{':
		v->type = TI_JSONREAD_OBJECT;
		return parse_container(ps, v, '}');
	case '[':
		v->type = TI_JSONREAD_ARRAY;
		return parse_container(ps, v, ']');
	case '"':
		v->type = TI_JSONREAD_STRING;
		return parse_string(ps, &v->str);
	case 't':
		v->type = TI_JSONREAD_TRUE;
		return literal(ps, "true") ? 0 : fail(ps, "unexpected character");
	case 'f':
		v->type = TI_JSONREAD_FALSE;
		return literal(ps, "false") ? 0 : fail(ps, "unexpected character");
	case 'n':
		v->type = TI_JSONREAD_NULL;
		return literal(ps, "null") ? 0 : fail(ps, "unexpected character");
	case 'N':
	case 'I':
		v->type = TI_JSONREAD_NUMBER;
		return non_finite(ps, &v->num);
	default:
		if (*ps->p == '-' && ps->end - ps->p > 1 && ps->p[1] == 'I') {
			v->type = TI_JSONREAD_NUMBER;
			return non_finite(ps, &v->num);
		}
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9')) {
			v->type = TI_JSONREAD_NUMBER;
			return parse_number(ps, &v->num);
		}
		return fail(ps, "unexpected character");
	}
}

int ti_jsonread_parse(const char *text, size_t len, struct ti_jsonread_value *out,
		      struct ti_jsonread_error *err)
{
	struct parser ps = { text, text + len, text, 1, 0, err, false, NULL };
	int rc;

	memset(out, 0, sizeof *out);
	rc = parse_value(&ps, out);
	if (rc == 0) {
		skip_ws(&ps);
		if (ps.p < ps.end)
			rc = fail(&ps, "trailing text after the value");
	}
	if (rc < 0) {
		arena_free(ps.arena);
		memset(out, 0, sizeof *out);
		return ps.nomem ? -ENOMEM : rc;
	}
	out->arena = ps.arena;
	return 0;
}

void ti_jsonread_free(struct ti_jsonread_value *v)
{
	arena_free(v->arena);
	memset(v, 0, sizeof *v);
}

const struct ti_jsonread_value *ti_jsonread_get(const struct ti_jsonread_value *v,
						const char *key)
{
	if (!v || v->type != TI_JSONREAD_OBJECT)
		return NULL;
	for (size_t i = v->n; i-- > 0;)
		if (strcmp(v->keys[i], key) == 0)
			return &v->items[i];
	return NULL;
}

const char *ti_jsonread_type_name(enum ti_jsonread_type t)
{
	static const char *const names[] = { "null", "false", "true", "number",
					     "string", "array", "object" };
	return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

const char *ti_jsonread_a_type(enum ti_jsonread_type t)
{
	static const char *const names[] = { "null", "false", "true", "a number",
					     "a string", "an array", "an object" };
	return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}
