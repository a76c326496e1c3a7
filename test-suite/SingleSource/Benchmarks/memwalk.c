/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* memwalk: memory-bound pointer chasing.  Builds one random cycle through
 * an array of N indices (Sattolo's algorithm) and follows it STEPS times;
 * most steps miss the cache.  Prints the final position and a checksum. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long steps = argc > 1 ? atol(argv[1]) : 6000000;
	size_t n = (size_t)1 << 22; /* 16 MiB of 32-bit indices: beyond the LLC */
	uint32_t *next = malloc(sizeof *next * n), pos = 0;
	uint64_t state = 0x9e3779b97f4a7c15ULL, sum = 0;

	if (next == NULL) {
		fprintf(stderr, "memwalk: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		next[i] = (uint32_t)i;
	/* Sattolo's shuffle yields a single cycle covering every element. */
	for (size_t i = n - 1; i > 0; i--) {
		size_t j;
		uint32_t t;
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		j = (size_t)(state % i);
		t = next[i];
		next[i] = next[j];
		next[j] = t;
	}
	for (long s = 0; s < steps; s++) {
		pos = next[pos];
		sum += pos;
	}
	printf("position %u\nchecksum %llu\n", (unsigned)pos, (unsigned long long)sum);
	free(next);
	return 0;
}
