/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* runner: time several commands in interleaved rounds, for the bench scripts.
 *
 *   runner [-f] ROUNDS K cmd1 args :: cmd2 args :: ...
 *
 * Each round runs every command K times back to back (the order rotates
 * from round to round so no command always follows the same one) and
 * prints one line per command:
 *
 *   ROUND INDEX NS_PER_RUN MAXRSS_KIB CPU_NS_PER_RUN
 *
 * NS_PER_RUN is CLOCK_MONOTONIC from posix_spawnp to the reaping wait4,
 * divided by K; CPU_NS_PER_RUN the user+sys time wait4 reports for the
 * command and every descendant it reaped (summed, they are the scheduler's
 * exact runtime: the tick split only divides them), divided by K: the cost,
 * which a loaded machine inflates far less than the wall time; MAXRSS_KIB is the largest ru_maxrss wait4 returned for
 * the command itself (Linux: the larger of its own peak and its reaped
 * children's, getrusage(2)).  posix_spawnp starts the commands (a vfork,
 * the cheapest start); it shares the runner's memory until exec, so the
 * runner's own resident set leaks into ru_maxrss (exec records the old
 * mm's peak, fs/exec.c setmax_mm_hiwater_rss).  -f starts them with fork
 * instead, which copies only anonymous pages: use it for RSS figures.  The commands' stdout and stderr go to
 * /dev/null; a command that exits non-zero stops the runner (status 1). */
#include "config.h"

#include <fcntl.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_CMDS 16

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	char **cmd[MAX_CMDS];
	int ncmd = 0, rounds, k, devnull;
	bool use_fork = argc > 1 && strcmp(argv[1], "-f") == 0;
	posix_spawn_file_actions_t fa;

	if (use_fork) {
		argv++;
		argc--;
	}
	if (argc < 4) {
		fputs("usage: runner [-f] ROUNDS K cmd [args] [:: cmd [args]] ...\n", stderr);
		return 2;
	}
	rounds = atoi(argv[1]);
	k = atoi(argv[2]);
	if (rounds < 1 || k < 1) {
		fputs("runner: ROUNDS and K must be positive\n", stderr);
		return 2;
	}
	cmd[ncmd++] = argv + 3;
	for (int i = 3; i < argc; i++) {
		if (strcmp(argv[i], "::") != 0)
			continue;
		argv[i] = NULL;
		if (ncmd == MAX_CMDS || i + 1 >= argc) {
			fputs("runner: too many or empty commands\n", stderr);
			return 2;
		}
		cmd[ncmd++] = argv + i + 1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0) {
		perror("runner: /dev/null");
		return 2;
	}

	for (int r = 0; r < rounds; r++) {
		for (int j = 0; j < ncmd; j++) {
			int c = (j + r) % ncmd;
			long maxrss = 0;
			long long cpu = 0, t0 = now_ns();

			for (int n = 0; n < k; n++) {
				struct rusage ru;
				pid_t pid;
				int st;

				if (use_fork) {
					pid = fork();
					if (pid == 0) {
						dup2(devnull, 1);
						dup2(devnull, 2);
						execvp(cmd[c][0], cmd[c]);
						_exit(127);
					}
				} else if (posix_spawnp(&pid, cmd[c][0], &fa, NULL, cmd[c],
							environ) != 0) {
					pid = -1;
				}
				if (pid < 0) {
					fprintf(stderr, "runner: %s: cannot run\n", cmd[c][0]);
					return 1;
				}
				while (wait4(pid, &st, 0, &ru) < 0)
					;
				if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
					fprintf(stderr, "runner: %s: failed (status 0x%x)\n",
						cmd[c][0], st);
					return 1;
				}
				if (ru.ru_maxrss > maxrss)
					maxrss = ru.ru_maxrss;
				cpu += (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
				       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
			}
			printf("%d %d %lld %ld %lld\n", r, c, (now_ns() - t0) / k, maxrss, cpu / k);
		}
	}
	return 0;
}
