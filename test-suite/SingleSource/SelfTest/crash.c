/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* crash: dies of SIGSEGV after printing; reported as "fail signal 11". */
#include <signal.h>
#include <stdio.h>

int main(void)
{
	printf("about to crash\n");
	fflush(stdout);
	raise(SIGSEGV);
	return 0;
}
