/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* exprparse: parsing.  Generates a long text of arithmetic expressions
 * from a fixed seed, then tokenises and evaluates it with a recursive-descent
 * parser ROUNDS times.  Prints the number of expressions and their sum
 * modulo a prime (integer arithmetic, so every build agrees exactly). */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MOD 1000000007LL

static const char *p;

static long long expr(void);

static void skip(void)
{
	while (*p == ' ')
		p++;
}

static long long primary(void)
{
	long long v = 0;

	skip();
	if (*p == '(') {
		p++;
		v = expr();
		skip();
		p++; /* ')' */
		return v;
	}
	if (*p == '-') {
		p++;
		return (MOD - primary()) % MOD;
	}
	while (isdigit((unsigned char)*p))
		v = (v * 10 + (*p++ - '0')) % MOD;
	return v;
}

static long long term(void)
{
	long long v = primary();

	for (;;) {
		skip();
		if (*p != '*')
			return v;
		p++;
		v = v * primary() % MOD;
	}
}

static long long expr(void)
{
	long long v = term();

	for (;;) {
		skip();
		if (*p == '+') {
			p++;
			v = (v + term()) % MOD;
		} else if (*p == '-') {
			p++;
			v = (v + MOD - term()) % MOD;
		} else {
			return v;
		}
	}
}

static uint32_t state = 2024;

static uint32_t rnd(uint32_t n)
{
	state = state * 1664525u + 1013904223u;
	return (state >> 8) % n;
}

/* Appends a random expression of at most DEPTH nesting to BUF at *LEN. */
static void gen(char *buf, size_t *len, int depth)
{
	int terms = 1 + (int)rnd(4);

	for (int t = 0; t < terms; t++) {
		if (t > 0)
			*len += (size_t)sprintf(buf + *len, " %c ", "+-*"[rnd(3)]);
		if (depth > 0 && rnd(3) == 0) {
			buf[(*len)++] = '(';
			gen(buf, len, depth - 1);
			buf[(*len)++] = ')';
		} else {
			/* Two statements: argument evaluation order is unspecified. */
			const char *sign = rnd(8) ? "" : "-";
			*len += (size_t)sprintf(buf + *len, "%s%u", sign, rnd(100000));
		}
	}
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 20;
	size_t cap = 8 << 20, len = 0;
	char *text = malloc(cap);
	long count = 0;
	long long total = 0;

	if (text == NULL) {
		fprintf(stderr, "exprparse: out of memory\n");
		return 1;
	}
	/* Each expression is well under 4 KiB at depth 4, so stop with room. */
	while (len < cap - 4096) {
		gen(text, &len, 4);
		text[len++] = '\n';
	}
	text[len] = '\0';
	for (long r = 0; r < rounds; r++) {
		count = 0;
		total = 0;
		for (p = text; *p != '\0'; p++) {
			total = (total + expr()) % MOD;
			count++;
		}
	}
	printf("bytes %zu\nexpressions %ld\nsum %lld\n", len, count, total);
	free(text);
	return 0;
}
