/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* qsort: branchy code, a hand-written quicksort (median of three, insertion
 * sort for short runs) over pseudo-random integers, repeated ROUNDS times.
 * Prints whether every round came out sorted and a checksum. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void insertion(int32_t *a, long n)
{
	for (long i = 1; i < n; i++) {
		int32_t v = a[i];
		long j = i;
		for (; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static void sort(int32_t *a, long n)
{
	while (n > 16) {
		int32_t x = a[0], y = a[n / 2], z = a[n - 1], p, t;
		long i = 0, j = n - 1;
		p = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
		for (;;) {
			while (a[i] < p)
				i++;
			while (a[j] > p)
				j--;
			if (i >= j)
				break;
			t = a[i];
			a[i] = a[j];
			a[j] = t;
			i++;
			j--;
		}
		/* Recurse into the smaller part to bound the stack depth. */
		if (j + 1 < n - j - 1) {
			sort(a, j + 1);
			a += j + 1;
			n -= j + 1;
		} else {
			sort(a + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	insertion(a, n);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 12;
	long n = 1000000, bad = 0;
	int32_t *a = malloc(sizeof *a * n);
	uint32_t state = 12345;
	uint64_t sum = 0;

	if (a == NULL) {
		fprintf(stderr, "qsort: out of memory\n");
		return 1;
	}
	for (long r = 0; r < rounds; r++) {
		for (long i = 0; i < n; i++) {
			state = state * 1103515245u + 12345u;
			a[i] = (int32_t)(state >> 1) % 1000003;
		}
		sort(a, n);
		for (long i = 1; i < n; i++)
			bad += a[i - 1] > a[i];
		sum += (uint64_t)a[n / 3] + (uint64_t)a[n / 2] * 3u + (uint64_t)a[n - 1];
	}
	printf("rounds %ld\nsorted %s\nchecksum %llu\n", rounds, bad ? "no" : "yes",
	       (unsigned long long)sum);
	free(a);
	return 0;
}
