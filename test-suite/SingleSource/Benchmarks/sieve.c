/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* sieve: the sieve of Eratosthenes over a byte array, repeated ROUNDS
 * times over 1..8,000,000.  Prints the prime count and the largest prime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 25;
	long n = 8000000, count = 0, largest = 0;
	unsigned char *composite = malloc((size_t)n + 1);

	if (composite == NULL) {
		fprintf(stderr, "sieve: out of memory\n");
		return 1;
	}
	for (long r = 0; r < rounds; r++) {
		memset(composite, 0, (size_t)n + 1);
		count = 0;
		for (long i = 2; i <= n; i++) {
			if (composite[i])
				continue;
			count++;
			largest = i;
			/* From i * i, when that is within n: past 46340 the
			 * square overflows a 32-bit long. */
			if (i > n / i)
				continue;
			for (long j = i * i; j <= n; j += i)
				composite[j] = 1;
		}
	}
	printf("primes up to %ld: %ld\nlargest %ld\n", n, count, largest);
	free(composite);
	return 0;
}
