/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* spin: a fixed amount of work, plus EXTRA percent (a compile-time knob),
 * so that two builds of it differ by a known amount.  Used by the lit suite
 * of tests/timeit-ab.sh. */
#include <stdlib.h>

#ifndef EXTRA
#define EXTRA 0
#endif

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	volatile unsigned x = 1;

	n += n * EXTRA / 100;
	for (long i = 0; i < n; i++)
		x = x * 1103515245u + 12345u;
	return x == 42;
}
