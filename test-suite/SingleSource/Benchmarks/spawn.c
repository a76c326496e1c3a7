/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* spawn: a benchmark that spawns child processes.  The parent re-executes
 * itself CHILDREN times (fork + exec, as a build driver would); each child
 * computes the Collatz stopping times of its slice of 1..N and writes its
 * partial result to a pipe.  Prints every child's share and the total, so
 * the work of the children (which timeit counts) is checked too. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILDREN 4

static uint64_t slice(long lo, long hi)
{
	uint64_t steps = 0;

	for (long i = lo; i < hi; i++)
		for (uint64_t x = (uint64_t)i; x != 1; steps++)
			x = x & 1 ? 3 * x + 1 : x / 2;
	return steps;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3000000;
	uint64_t total = 0;
	pid_t pids[CHILDREN];
	FILE *in[CHILDREN];
	int failed = 0;

	if (argc > 3 && strcmp(argv[1], "child") == 0) {
		printf("%llu\n", (unsigned long long)slice(atol(argv[2]), atol(argv[3])));
		return 0;
	}
	if (n < CHILDREN)
		n = CHILDREN;
	/* The same binary, whatever argv[0] says.  Resolved once here rather
	 * than exec'ing /proc/self/exe, which valgrind cannot exec (timeit
	 * --count-instructions=valgrind runs the suite under it). */
	char self[4096];
	ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
	if (len <= 0) {
		perror("spawn: /proc/self/exe");
		return 1;
	}
	self[len] = '\0';
	for (int c = 0; c < CHILDREN; c++) {
		int fd[2];
		char lo[32], hi[32];

		snprintf(lo, sizeof lo, "%ld", 1 + n / CHILDREN * c);
		snprintf(hi, sizeof hi, "%ld", c == CHILDREN - 1 ? n + 1 : 1 + n / CHILDREN * (c + 1));
		if (pipe(fd) != 0 || (pids[c] = fork()) < 0) {
			perror("spawn: fork");
			return 1;
		}
		if (pids[c] == 0) {
			dup2(fd[1], 1);
			close(fd[0]);
			close(fd[1]);
			execl(self, argv[0], "child", lo, hi, (char *)NULL);
			_exit(127);
		}
		close(fd[1]);
		in[c] = fdopen(fd[0], "r");
	}
	for (int c = 0; c < CHILDREN; c++) {
		unsigned long long part = 0;
		int status;

		if (in[c] == NULL || fscanf(in[c], "%llu", &part) != 1)
			failed = 1;
		if (in[c] != NULL)
			fclose(in[c]);
		if (waitpid(pids[c], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed = 1;
		printf("child %d steps %llu\n", c, part);
		total += part;
	}
	printf("total steps %llu\n", (unsigned long long)total);
	return failed;
}
