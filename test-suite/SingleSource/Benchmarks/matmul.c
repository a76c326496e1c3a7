/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* matmul: dense double-precision matrix multiply C = A * B (i-k-j order,
 * so the inner loop streams rows).  Prints the trace and a weighted sum. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1100;
	double *a, *b, *c, trace = 0, wsum = 0;

	if (n < 1)
		n = 1;
	a = malloc(sizeof *a * n * n);
	b = malloc(sizeof *b * n * n);
	c = calloc((size_t)(n * n), sizeof *c);
	if (a == NULL || b == NULL || c == NULL) {
		fprintf(stderr, "matmul: out of memory\n");
		return 1;
	}
	/* Entries are small exact binary fractions so every build sums alike. */
	for (long i = 0; i < n; i++)
		for (long j = 0; j < n; j++) {
			a[i * n + j] = (double)((i * 7 + j * 3) % 17) / 8.0 - 1.0;
			b[i * n + j] = (double)((i * 5 + j * 11) % 13) / 4.0 - 1.5;
		}
	for (long i = 0; i < n; i++)
		for (long k = 0; k < n; k++) {
			double aik = a[i * n + k];
			for (long j = 0; j < n; j++)
				c[i * n + j] += aik * b[k * n + j];
		}
	for (long i = 0; i < n; i++) {
		trace += c[i * n + i];
		for (long j = 0; j < n; j++)
			wsum += c[i * n + j] * (double)((i + j) % 5);
	}
	printf("n %ld\ntrace %.6f\nweighted sum %.6f\n", n, trace, wsum);
#ifdef AB_LIVE
	/* bench/ab-live's knob: 10 % more work of the same kind (rows of the product),
	 * after the results are printed, so that the output is unchanged. */
	for (long i = 0; i < n * 10 / 100; i++)
		for (long k = 0; k < n; k++) {
			double aik = a[i * n + k];
			for (long j = 0; j < n; j++)
				c[i * n + j] += aik * b[k * n + j];
		}
	{
		volatile double sink = c[0];
		(void)sink;
	}
#endif
	free(a);
	free(b);
	free(c);
	return 0;
}
