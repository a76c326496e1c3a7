/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* hold: maps MIB MiB of anonymous memory, touches every page, and exits
 * with it still mapped, or, given "unmap", unmaps it first.  For
 * bench/accounting.sh: the kernel frees a process's address space at exit
 * after it has detached the process's perf counters, so the first form
 * leaves the freeing out of task-clock and the second puts it in.
 *
 *   hold MIB [unmap] */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	char *end;
	unsigned long mib;
	size_t len;
	char *p;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "unmap"))) {
		fputs("usage: hold MIB [unmap]\n", stderr);
		return 2;
	}
	mib = strtoul(argv[1], &end, 10);
	if (*end || end == argv[1] || mib > 1UL << 20) {
		fprintf(stderr, "hold: %s: not a size in MiB\n", argv[1]);
		return 2;
	}
	if (mib == 0)
		return 0;
	len = (size_t)mib << 20;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("hold: mmap");
		return 1;
	}
	for (size_t i = 0; i < len; i += 4096)
		p[i] = 1;
	if (argc == 3)
		munmap(p, len);
	return 0;
}
