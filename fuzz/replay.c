/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* fuzz/replay.c: runs a libFuzzer target on the files named on the
 * command line, without libFuzzer: how make check replays the seed corpus
 * and every crash the fuzzers found (fuzz/corpus/TARGET/). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *data = NULL;
		size_t len = 0, cap = 0, n;

		if (!f) {
			perror(argv[i]);
			return 99;
		}
		do {
			if (len == cap) {
				unsigned char *p = realloc(data, cap = cap ? 2 * cap : 4096);
				if (!p) {
					fprintf(stderr, "replay: %s: out of memory\n", argv[i]);
					return 99;
				}
				data = p;
			}
			n = fread(data + len, 1, cap - len, f);
			len += n;
		} while (n > 0);
		fclose(f);
		LLVMFuzzerTestOneInput(data, len);
		free(data);
	}
	return 0;
}
