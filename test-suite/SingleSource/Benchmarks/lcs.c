/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* lcs: dynamic programming, the longest common subsequence of two
 * pseudo-random DNA-like strings of length N (two-row table).  Prints the
 * length and a checksum of the last row. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	char *a = malloc((size_t)n), *b = malloc((size_t)n);
	int32_t *prev = calloc((size_t)n + 1, sizeof *prev), *cur = calloc((size_t)n + 1, sizeof *cur);
	uint32_t state = 99;
	uint64_t sum = 0;

	if (a == NULL || b == NULL || prev == NULL || cur == NULL) {
		fprintf(stderr, "lcs: out of memory\n");
		return 1;
	}
	for (long i = 0; i < n; i++) {
		state = state * 1664525u + 1013904223u;
		a[i] = "ACGT"[state >> 30];
		state = state * 1664525u + 1013904223u;
		b[i] = "ACGT"[state >> 30];
	}
	for (long i = 1; i <= n; i++) {
		int32_t *t;
		for (long j = 1; j <= n; j++) {
			if (a[i - 1] == b[j - 1])
				cur[j] = prev[j - 1] + 1;
			else
				cur[j] = prev[j] > cur[j - 1] ? prev[j] : cur[j - 1];
		}
		t = prev;
		prev = cur;
		cur = t;
	}
	for (long j = 0; j <= n; j++)
		sum += (uint64_t)prev[j] * (uint64_t)(j % 7 + 1);
	printf("n %ld\nlcs %d\nchecksum %llu\n", n, prev[n], (unsigned long long)sum);
#ifdef AB_LIVE
	/* bench/ab-live's knob: 3 % more work of the same kind (rows of the table),
	 * after the results are printed, so that the output is unchanged. */
	for (long i = 1; i <= n * 3 / 100; i++) {
		int32_t *t;
		for (long j = 1; j <= n; j++) {
			if (a[i - 1] == b[j - 1])
				cur[j] = prev[j - 1] + 1;
			else
				cur[j] = prev[j] > cur[j - 1] ? prev[j] : cur[j - 1];
		}
		t = prev;
		prev = cur;
		cur = t;
	}
	{
		volatile int32_t sink = prev[n];
		(void)sink;
	}
#endif
	free(a);
	free(b);
	free(prev);
	free(cur);
	return 0;
}
