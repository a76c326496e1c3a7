/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* work: a CPU-bound program that also makes the kernel work, for
 * bench/noise.sh.  Each step maps 256 KiB and touches every page (64 page
 * faults), unmaps it, makes 64 getppid calls and spins briefly in user
 * space, until the process has used MS milliseconds of CPU time.
 *
 *   work MS [user]
 *
 * With "user" it only spins in user space (the ~50 ms program of
 * bench/overhead.sh).
 * Prints the process's own CPU time in nanoseconds at the end, from
 * CLOCK_PROCESS_CPUTIME_ID: the scheduler's exact runtime (sum_exec_runtime,
 * clock_gettime(2)), the precise reference both task-clock and rusage are
 * compared with.  It misses only exec and exit, a constant. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static volatile unsigned long sink;

int main(int argc, char **argv)
{
	const size_t len = 256 * 1024;
	long long end;
	int kernel = argc == 2;

	if (argc < 2 || argc > 3 || atol(argv[1]) <= 0) {
		fputs("usage: work MS [user]\n", stderr);
		return 2;
	}
	end = cpu_ns() + atol(argv[1]) * 1000000LL;
	while (cpu_ns() < end) {
		if (!kernel) {
			for (int i = 0; i < 20000; i++)
				sink += (unsigned long)i * 2654435761u;
			continue;
		}
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return 1;
		for (size_t i = 0; i < len; i += 4096)
			p[i] = (char)i;
		munmap(p, len);
		for (int i = 0; i < 64; i++)
			sink += (unsigned long)getppid();
		for (int i = 0; i < 20000; i++)
			sink += (unsigned long)i * 2654435761u;
	}
	printf("%lld\n", cpu_ns());
	return 0;
}
