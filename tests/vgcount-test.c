/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* vgcount-test: the cachegrind out-file parser, the valgrind lookup and the
 * error phrases of lib/vgcount.c, without running valgrind. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vgcount.h"

static const struct {
	int line;
	const char *text;
	int rc;
	uint64_t ir;
	const char *cmd;
} parse_cases[] = {
	/* The layout cachegrind 3.19 writes with --cache-sim=no. */
	{ __LINE__, "desc: I1 cache: 32768 B, 64 B, 8-way associative\ncmd: ./a.out 1 2\n"
		    "events: Ir\nfl=/tmp/a.c\nfn=main\n3 7\n4 9\nsummary: 127050\n",
	  0, 127050, "./a.out 1 2" },
	{ __LINE__, "cmd: x\nevents: Ir\nsummary: 5", 0, 5, "x" },
	{ __LINE__, "events: Ir I1mr ILmr\nsummary: 5 6 7\n", 0, 5, "" },
	{ __LINE__, "events: Dr Ir\nsummary: 9 10\n", 0, 10, "" },
	{ __LINE__, "events: Dr Ir\nsummary: 9\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "events: Ir\nsummary: 18446744073709551615\n", 0, UINT64_MAX, "" },
	{ __LINE__, "events: Ir\nsummary: 18446744073709551616\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "events: Ir\nsummary: 12x\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "events: Ir\nsummary: -1\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "events: Ir\n3 7\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "summary: 12\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "events: Dr Dw\nsummary: 1 2\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "events: Irx\nsummary: 1\n", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
	{ __LINE__, "", TI_VGCOUNT_BAD_OUTPUT, 0, "" },
};

int main(void)
{
	char cmd[64], path[256];

	for (size_t i = 0; i < sizeof parse_cases / sizeof parse_cases[0]; i++) {
		uint64_t ir = 0;
		int rc = ti_vgcount_parse(parse_cases[i].text, &ir, cmd, sizeof cmd);

		tap_ok(rc == parse_cases[i].rc && (rc != 0 || ir == parse_cases[i].ir) &&
		       (rc != 0 || strcmp(cmd, parse_cases[i].cmd) == 0),
		       parse_cases[i].line, "parse: rc %d ir %llu cmd '%s'", rc,
		       (unsigned long long)ir, rc == 0 ? cmd : "");
	}
	/* A long cmd line is cut to the buffer, not overflowing it. */
	{
		uint64_t ir = 0;
		char small[4];
		int rc = ti_vgcount_parse("cmd: abcdefgh\nevents: Ir\nsummary: 1\n", &ir, small,
					  sizeof small);
		tap_ok(rc == 0 && strcmp(small, "abc") == 0, __LINE__, "cmd truncated to '%s'",
		       small);
	}

	tap_ok(ti_vgcount_find("/nonexistent/valgrind", path, sizeof path) == TI_VGCOUNT_NOT_FOUND,
	       __LINE__, "a missing path is not found");
	tap_ok(ti_vgcount_find("/tmp", path, sizeof path) == TI_VGCOUNT_NOT_FOUND,
	       __LINE__, "a directory is not an executable");
	tap_ok(ti_vgcount_find("/bin/sh", path, sizeof path) == 0 && strcmp(path, "/bin/sh") == 0,
	       __LINE__, "a path is taken as it is");
	setenv("PATH", "/nonexistent:/bin", 1);
	tap_ok(ti_vgcount_find("sh", path, sizeof path) == 0 && strcmp(path, "/bin/sh") == 0,
	       __LINE__, "PATH is searched in order: '%s'", path);
	setenv("PATH", "/nonexistent", 1);
	tap_ok(ti_vgcount_find(NULL, path, sizeof path) == TI_VGCOUNT_NOT_FOUND, __LINE__,
	       "valgrind not in PATH");
	tap_ok(strstr(ti_vgcount_strerror(TI_VGCOUNT_NOT_FOUND), "package 'valgrind'") != NULL,
	       __LINE__, "the missing valgrind error names the package");
	for (int rc = TI_VGCOUNT_OK; rc >= TI_VGCOUNT_INCOMPLETE; rc--)
		tap_ok(strcmp(ti_vgcount_strerror(rc), "unknown error") != 0, __LINE__,
		       "code %d has a phrase", rc);
	return tap_done();
}
