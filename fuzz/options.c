/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* fuzz/options.c: libFuzzer target for timeit's command-line parser
 * (ti_options_parse).  The input is split at NUL bytes into arguments,
 * after a program name. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ti_options o;
	char msg[256];
	char *buf = malloc(size + 1);
	char **argv;
	int argc = 1;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (size_t i = 0; i < size; i++)
		argc += buf[i] == '\0';
	argc++;
	argv = calloc((size_t)argc + 1, sizeof *argv);
	if (!argv) {
		free(buf);
		return 0;
	}
	argc = 0;
	argv[argc++] = (char *)"timeit";
	for (char *p = buf; p <= buf + size; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	msg[0] = '\0';
	if (ti_options_parse(argc, argv, &o, msg, sizeof msg) > TI_PARSE_VERSION &&
	    strnlen(msg, sizeof msg) == sizeof msg)
		abort();
	free(argv);
	free(buf);
	return 0;
}
