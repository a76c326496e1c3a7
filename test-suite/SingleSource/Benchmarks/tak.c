/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* tak: recursion.  Takeuchi's function and a naive Fibonacci, both dominated
 * by call overhead, evaluated ROUNDS times on slowly varying arguments (so
 * no call can be hoisted out of the loop).  Prints the sums. */
#include <stdio.h>
#include <stdlib.h>

/* Aligned to a cache line, as run is (below). */
#ifdef __GNUC__
__attribute__((aligned(64)))
#endif
static int tak(int x, int y, int z)
{
	if (y >= x)
		return z;
	return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y));
}

#ifdef __GNUC__
__attribute__((aligned(64)))
#endif
static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* ROUNDS rounds; the sum of Takeuchi's in *TAKSUM, Fibonacci's in *FIBSUM.
 * Never inlined and aligned to a cache line, so that its code and its place
 * in the cache are the same however often main calls it and however long
 * main is (bench/ab-live). */
#ifdef __GNUC__
__attribute__((noinline, aligned(64)))
#endif
static void run(long rounds, long *taksum, long *fibsum)
{
	for (long r = 0; r < rounds; r++) {
		*taksum += tak(24 - (int)(r % 3), 16, 8);
		*fibsum += fib(27 + (int)(r % 4));
	}
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 150;
	long taksum = 0, fibsum = 0;

	run(rounds, &taksum, &fibsum);
	printf("rounds %ld\ntak sum %ld\nfib sum %ld\n", rounds, taksum, fibsum);
#ifdef AB_LIVE
	/* bench/ab-live's knob: 10 % more work of the same kind (rounds),
	 * after the results are printed, so that the output is unchanged. */
	{
		long t = 0, f = 0;
		run(rounds / 10, &t, &f);
		volatile long sink = t + f;
		(void)sink;
	}
#endif
	return 0;
}
