/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lnt-answer: read an LNT server's answer to a submission (submit.sh),
 * with timeit's JSON reader (lib/jsonread.c).
 *
 * usage: lnt-answer FILE
 *
 * LNT answers submitRun with a JSON object: "success": true and the run's
 * "result_url" when it stored the run, an "error" string otherwise
 * (llvm-lnt lnt/server/ui/views.py, _do_submit).  Success is the top
 * level object saying "success": true with no "error" but null; anything
 * else (a body cut short, an HTML page, a success nested in another
 * member) is a failure.  Prints the result URL (success), the server's
 * "error", or what is wrong with the answer, on stdout.  Exit status: 0
 * success, 1 the server's error, 2 usage or the file unreadable, 3 no
 * answer of LNT's. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"

/* FILE's bytes, NUL-terminated, into *DATA; its length, or -1. */
static long slurp(const char *path, char **data)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *d = NULL;

	if (!f)
		return -1;
	for (;;) {
		char *nd = realloc(d, cap);
		if (!nd) {
			free(d);
			fclose(f);
			return -1;
		}
		d = nd;
		got = fread(d + n, 1, cap - n - 1, f);
		n += got;
		if (n + 1 < cap)
			break;
		cap *= 2;
	}
	if (ferror(f)) {
		free(d);
		fclose(f);
		return -1;
	}
	fclose(f);
	d[n] = '\0';
	*data = d;
	return (long)n;
}

int main(int argc, char **argv)
{
	struct ti_jsonread_value top;
	struct ti_jsonread_error je;
	char *data;
	long len;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: lnt-answer FILE\n");
		return 2;
	}
	if ((len = slurp(argv[1], &data)) < 0) {
		fprintf(stderr, "lnt-answer: %s: %s\n", argv[1], strerror(errno ? errno : EIO));
		return 2;
	}
	if (len == 0) {
		printf("an empty answer\n");
		free(data);
		return 3;
	}
	if ((rc = ti_jsonread_parse(data, (size_t)len, &top, &je)) < 0) {
		if (rc == -ENOMEM)
			printf("out of memory reading the answer\n");
		else
			printf("not JSON (line %d, column %d: %s)\n", je.line, je.column, je.what);
		free(data);
		return 3;
	}
	free(data);
	const struct ti_jsonread_value *ok = ti_jsonread_get(&top, "success");
	const struct ti_jsonread_value *err = ti_jsonread_get(&top, "error");
	const struct ti_jsonread_value *url = ti_jsonread_get(&top, "result_url");
	rc = 3;
	if (top.type != TI_JSONREAD_OBJECT)
		printf("JSON %s, not an object\n", ti_jsonread_type_name(top.type));
	else if (err && err->type == TI_JSONREAD_STRING && (rc = 1))
		printf("%s\n", err->str);
	else if (err && err->type != TI_JSONREAD_NULL)
		printf("an \"error\" that is %s\n", ti_jsonread_a_type(err->type));
	else if (!ok || ok->type != TI_JSONREAD_TRUE)
		printf("no \"success\": true at the top level\n");
	else {
		printf("%s\n", url && url->type == TI_JSONREAD_STRING ? url->str : "");
		rc = 0;
	}
	ti_jsonread_free(&top);
	return rc;
}
