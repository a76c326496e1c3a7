/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* launcher: the smallest honest way to run a command and wait for it,
 * the baseline bench/overhead.sh compares timeit against.  posix_spawnp
 * (glibc uses clone(CLONE_VFORK), the cheapest start) and one waitpid;
 * no clocks, no counters, no output. */
#include "config.h"

#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>

extern char **environ;

int main(int argc, char **argv)
{
	pid_t pid;
	int st, rc;

	if (argc < 2) {
		fputs("usage: launcher command [arguments ...]\n", stderr);
		return 2;
	}
	rc = posix_spawnp(&pid, argv[1], NULL, NULL, argv + 1, environ);
	if (rc != 0) {
		fprintf(stderr, "launcher: %s: cannot run\n", argv[1]);
		return 127;
	}
	while (waitpid(pid, &st, 0) < 0)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
