/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* vgcount-work: a program whose instruction count is a function of its
 * arguments, for the --count-instructions=valgrind tests.  Actions, in order:
 *   work N           N rounds of a small integer kernel
 *   spawn K N        fork K children that exec this program with "work N",
 *                    and wait for them
 *   fork K N         fork K children that run "work N" without exec
 *   print TEXT       write TEXT and a newline to stdout
 *   exit N           exit with status N
 *   if-valgrind ...  the rest of the actions only when run under valgrind
 *                    (its preload library is in LD_PRELOAD)
 *   sleep MS         sleep MS milliseconds
 *   orphan MS        fork a child that sleeps MS milliseconds, not waited for
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

/* A kernel the optimizer changes: -O1 and -O2 builds differ in count. */
static unsigned long kernel(long n)
{
	unsigned long a[64] = { 0 }, h = 2166136261u;

	for (long r = 0; r < n; r++) {
		for (int i = 0; i < 64; i++) {
			a[i] = a[i] * 31 + (unsigned long)(i ^ r);
			h = (h ^ a[i]) * 16777619u;
		}
	}
	return h;
}

static void children(const char *self, int k, const char *n, int exec)
{
	for (int i = 0; i < k; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("vgcount-work: fork");
			exit(99);
		}
		if (pid == 0) {
			if (exec) {
				execl(self, self, "work", n, (char *)NULL);
				perror("vgcount-work: exec");
				_exit(99);
			}
			sink += kernel(atol(n));
			_exit(0);
		}
	}
	for (int i = 0; i < k; i++)
		wait(NULL);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "work") && i + 1 < argc) {
			sink += kernel(atol(argv[++i]));
		} else if ((!strcmp(a, "spawn") || !strcmp(a, "fork")) && i + 2 < argc) {
			children(argv[0], atoi(argv[i + 1]), argv[i + 2], a[0] == 's');
			i += 2;
		} else if (!strcmp(a, "print") && i + 1 < argc) {
			printf("%s\n", argv[++i]);
		} else if (!strcmp(a, "exit") && i + 1 < argc) {
			return atoi(argv[++i]);
		} else if (!strcmp(a, "if-valgrind")) {
			const char *p = getenv("LD_PRELOAD");
			if (!p || !strstr(p, "vgpreload"))
				return 0;
		} else if (!strcmp(a, "orphan") && i + 1 < argc) {
			long ms = atol(argv[++i]);
			struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };
			pid_t pid = fork();
			if (pid < 0) {
				perror("vgcount-work: fork");
				return 99;
			}
			if (pid == 0) {
				while (nanosleep(&ts, &ts) < 0)
					;
				_exit(0);
			}
		} else if (!strcmp(a, "sleep") && i + 1 < argc) {
			long ms = atol(argv[++i]);
			struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };
			while (nanosleep(&ts, &ts) < 0)
				;
		} else {
			fprintf(stderr, "vgcount-work: bad action '%s'\n", a);
			return 99;
		}
	}
	return 0;
}
