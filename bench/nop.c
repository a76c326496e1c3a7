/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* nop: exits at once.  Linked statically by bench/local.mk so its own
 * resident set (about 0.5 MiB) stays below timeit's, and wait4's
 * ru_maxrss for "timeit nop" (the larger of timeit's peak and its
 * children's, getrusage(2)) is timeit's own peak. */
int main(void)
{
	return 0;
}
