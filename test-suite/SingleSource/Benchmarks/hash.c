/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* hash: integer hashing into an open-addressing table.
 * Inserts N keys from a fixed pseudo-random stream (with repeats), then
 * looks up N more; prints the distinct-key count, hits and a checksum. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t mix(uint64_t x)
{
	/* The splitmix64 finaliser (Steele, Lea, Flood 2014). */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 4000000;
	size_t cap = 1, mask, i;
	uint64_t *keys, *vals, state = 42, sum = 0;
	long distinct = 0, hits = 0;

	if (n < 1)
		n = 1;
	while (cap < (size_t)n * 2)
		cap <<= 1;
	mask = cap - 1;
	keys = calloc(cap, sizeof *keys);
	vals = calloc(cap, sizeof *vals);
	if (keys == NULL || vals == NULL) {
		fprintf(stderr, "hash: out of memory\n");
		return 1;
	}
	for (long k = 0; k < n; k++) {
		/* Keys drawn from a range of n/2 values so about half repeat. */
		uint64_t key = mix(state++) % (uint64_t)(n / 2 + 1) + 1;
		for (i = mix(key) & mask; keys[i] != 0 && keys[i] != key; i = (i + 1) & mask)
			;
		if (keys[i] == 0) {
			keys[i] = key;
			distinct++;
		}
		vals[i] += (uint64_t)k;
	}
	for (long k = 0; k < n; k++) {
		uint64_t key = mix(state++) % (uint64_t)n + 1;
		for (i = mix(key) & mask; keys[i] != 0 && keys[i] != key; i = (i + 1) & mask)
			;
		if (keys[i] == key) {
			hits++;
			sum += vals[i] ^ key;
		}
	}
	printf("distinct %ld\nhits %ld\nchecksum %llu\n", distinct, hits,
	       (unsigned long long)sum);
	free(keys);
	free(vals);
	return 0;
}
