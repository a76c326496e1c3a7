/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* fft: iterative radix-2 complex FFT.  Transforms a fixed signal of
 * 2^LOG2 points forward and back ROUNDS times; prints the round-trip error
 * bound and the magnitude of three spectral lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void fft(double *re, double *im, long n, int inverse)
{
	/* Bit-reversal permutation, then Cooley-Tukey butterflies. */
	for (long i = 1, j = 0; i < n; i++) {
		long bit = n >> 1;
		for (; j & bit; bit >>= 1)
			j ^= bit;
		j ^= bit;
		if (i < j) {
			double t = re[i];
			re[i] = re[j];
			re[j] = t;
			t = im[i];
			im[i] = im[j];
			im[j] = t;
		}
	}
	for (long len = 2; len <= n; len <<= 1) {
		double ang = 2 * 3.141592653589793 / (double)len * (inverse ? 1 : -1);
		double wr = cos(ang), wi = sin(ang);
		for (long i = 0; i < n; i += len) {
			double cr = 1, ci = 0;
			for (long k = 0; k < len / 2; k++) {
				long a = i + k, b = i + k + len / 2;
				double tr = re[b] * cr - im[b] * ci;
				double ti = re[b] * ci + im[b] * cr;
				double nr;
				re[b] = re[a] - tr;
				im[b] = im[a] - ti;
				re[a] += tr;
				im[a] += ti;
				nr = cr * wr - ci * wi;
				ci = cr * wi + ci * wr;
				cr = nr;
			}
		}
	}
	if (inverse)
		for (long i = 0; i < n; i++) {
			re[i] /= (double)n;
			im[i] /= (double)n;
		}
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 160;
	long n = 1L << 16;
	double *re = malloc(sizeof *re * n), *im = malloc(sizeof *im * n);
	double *orig = malloc(sizeof *orig * n), err = 0;

	if (re == NULL || im == NULL || orig == NULL) {
		fprintf(stderr, "fft: out of memory\n");
		return 1;
	}
	for (long i = 0; i < n; i++) {
		double t = (double)i / (double)n;
		orig[i] = sin(2 * 3.141592653589793 * 50 * t) +
			  0.5 * sin(2 * 3.141592653589793 * 120 * t) + 0.25 * cos(2 * 3.141592653589793 * 999 * t);
		re[i] = orig[i];
		im[i] = 0;
	}
	for (long r = 0; r < rounds; r++) {
		fft(re, im, n, 0);
		if (r == rounds - 1)
			break;
		fft(re, im, n, 1);
	}
	printf("points %ld\n", n);
	printf("line 50 %.6f\nline 120 %.6f\nline 999 %.6f\n",
	       hypot(re[50], im[50]) / (double)n, hypot(re[120], im[120]) / (double)n,
	       hypot(re[999], im[999]) / (double)n);
	fft(re, im, n, 1);
	for (long i = 0; i < n; i++)
		err = fmax(err, fabs(re[i] - orig[i]));
	/* A rounding-level error only: print whether it is below a bound. */
	printf("round trip error below 1e-9: %s\n", err < 1e-9 ? "yes" : "no");
	free(re);
	free(im);
	free(orig);
	return 0;
}
