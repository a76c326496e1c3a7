/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* loop-order: C += A x B for N x N matrices of doubles, the loops in the
 * order ijk or, built with -DJKI, jki.  The same machine code runs either
 * order (the strides are data, read from a volatile table), so the two
 * builds execute exactly the same instructions; they differ only in the
 * addresses they touch: ijk walks B down its columns, jki walks A and C
 * down theirs, and so misses the data cache about twice as often.  Prints
 * the sum of C.  usage: loop-order [N] (default 200) */
#include <stdio.h>
#include <stdlib.h>

/* For C, A and B (rows), the stride of each loop variable, outermost
 * first (columns): 0 none, 1 one element, 2 one row (N elements). */
#ifdef JKI
/* j, k, i: c[i][j] moves 1, 0, N; a[i][k] 0, 1, N; b[k][j] 1, N, 0 */
static volatile int order[3][3] = { { 1, 0, 2 }, { 0, 1, 2 }, { 1, 2, 0 } };
#else
/* i, j, k: c[i][j] moves N, 1, 0; a[i][k] N, 0, 1; b[k][j] 0, 1, N */
static volatile int order[3][3] = { { 2, 1, 0 }, { 2, 0, 1 }, { 0, 1, 2 } };
#endif

static void multiply(long n, double *c, const double *a, const double *b)
{
	long unit[3] = { 0, 1, n }, sc[3], sa[3], sb[3];

	for (int l = 0; l < 3; l++) {
		sc[l] = unit[order[0][l]];
		sa[l] = unit[order[1][l]];
		sb[l] = unit[order[2][l]];
	}
	for (long p = 0; p < n; p++) {
		for (long q = 0; q < n; q++) {
			double *pc = c + p * sc[0] + q * sc[1];
			const double *pa = a + p * sa[0] + q * sa[1];
			const double *pb = b + p * sb[0] + q * sb[1];

			for (long r = 0; r < n; r++)
				pc[r * sc[2]] += pa[r * sa[2]] * pb[r * sb[2]];
		}
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200;
	double *a, *b, *c, sum = 0;

	if (n < 1 || n > 20000)
		return 2;
	a = malloc((size_t)(n * n) * sizeof *a);
	b = malloc((size_t)(n * n) * sizeof *b);
	c = calloc((size_t)(n * n), sizeof *c);
	if (!a || !b || !c)
		return 1;
	for (long i = 0; i < n * n; i++) {
		a[i] = (double)(i % 7) - 3;
		b[i] = (double)(i % 5) - 2;
	}
	multiply(n, c, a, b);
	for (long i = 0; i < n * n; i++)
		sum += c[i];
	printf("%.0f\n", sum);
	free(a);
	free(b);
	free(c);
	return 0;
}
