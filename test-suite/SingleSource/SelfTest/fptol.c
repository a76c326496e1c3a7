/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* fptol: prints numbers a little off its reference output (relative error
 * 1e-8), which fpcmp accepts with the tolerance 1e-6 of bench.mk. */
#include <stdio.h>

int main(void)
{
	printf("pi %.9f\ne %.9f\ncount 42\n", 3.14159268, 2.718281856);
	return 0;
}
