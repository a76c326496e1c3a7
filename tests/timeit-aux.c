/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* timeit-aux: a test helper whose every behaviour is asked for on the
 * command line.  Actions run in order:
 *   exit N        exit with status N
 *   burn MS       burn MS milliseconds of CPU time in user space
 *   sys MS        spend about MS milliseconds in system calls
 *   sleep MS      sleep MS milliseconds
 *   alloc MIB     allocate and touch MIB mebibytes
 *   signal S      raise signal S
 *   fork N        fork N children that each burn 50 ms, and wait for them
 *   spawn N MS    fork N grandchildren that sleep MS ms and are not waited for
 *   print TEXT    write TEXT and a newline to stdout
 *   eprint TEXT   write TEXT and a newline to stderr
 *   cat           copy stdin to stdout
 *   pwd           print the working directory
 *   fds           print the open file descriptors, one per line
 *   sigstate      print "mask N ignored N": blocked and ignored signals
 *   pgrp          print "pgid==pid" when it leads its process group
 *   limit NAME    print the soft limit NAME (cpu, core, nofile, ...)
 *   setlimit NAME N  set the soft and hard limit NAME to N (for a probe)
 *   strerror NAME print the C library's text for errno NAME (ENOSYS, ...)
 *   machine       print the machine uname(2) reports (an emulator's own)
 *   pidfile PATH  write the pid to PATH
 *   ignore S      ignore signal S
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile unsigned long sink;
static char *volatile kept;

static void burn(long ms)
{
	double end = cpu_s() + (double)ms / 1000.0;
	while (cpu_s() < end)
		for (int i = 0; i < 10000; i++)
			sink += (unsigned long)i * 2654435761u;
}

static void in_kernel(long ms)
{
	double end = cpu_s() + (double)ms / 1000.0;
	while (cpu_s() < end)
		for (int i = 0; i < 100; i++)
			(void)getppid();
}

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0)
		;
}

static const struct { const char *name; int res; } limits[] = {
	{ "cpu", RLIMIT_CPU }, { "stack", RLIMIT_STACK }, { "data", RLIMIT_DATA },
	{ "rss", RLIMIT_RSS }, { "fsize", RLIMIT_FSIZE }, { "core", RLIMIT_CORE },
	{ "nofile", RLIMIT_NOFILE }, { "nproc", RLIMIT_NPROC },
};

/* The errno values whose texts the tests compare with what timeit says
 * (each C library words them its own way: musl's EMFILE is "No file
 * descriptors available"). */
static const struct { const char *name; int err; } errnos[] = {
	{ "ENOENT", ENOENT }, { "EACCES", EACCES }, { "EPERM", EPERM },
	{ "ENOTDIR", ENOTDIR }, { "EISDIR", EISDIR }, { "ENOSPC", ENOSPC },
	{ "EMFILE", EMFILE }, { "ENOSYS", ENOSYS }, { "EINVAL", EINVAL },
	{ "ENOEXEC", ENOEXEC }, { "ENOTSUP", ENOTSUP }, { "EEXIST", EEXIST },
	{ "EROFS", EROFS }, { "ENOTEMPTY", ENOTEMPTY }, { "ELOOP", ELOOP },
	{ "EFBIG", EFBIG },
};

static const char *need(int argc, char **argv, int i)
{
	if (i >= argc) {
		fprintf(stderr, "timeit-aux: %s needs an argument\n", argv[i - 1]);
		exit(99);
	}
	return argv[i];
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "exit")) {
			exit(atoi(need(argc, argv, ++i)));
		} else if (!strcmp(a, "burn")) {
			burn(atol(need(argc, argv, ++i)));
		} else if (!strcmp(a, "sys")) {
			in_kernel(atol(need(argc, argv, ++i)));
		} else if (!strcmp(a, "sleep")) {
			nap(atol(need(argc, argv, ++i)));
		} else if (!strcmp(a, "alloc")) {
			size_t n = (size_t)atol(need(argc, argv, ++i)) << 20;
			char *p = malloc(n);
			if (!p)
				exit(98);
			for (size_t k = 0; k < n; k += 4096)
				p[k] = 1;
			sink += (unsigned long)p[n / 2];
			/* Kept reachable: the memory must stay resident until
			 * exit, and a sanitizer build must not call it a leak
			 * (LeakSanitizer would change the exit status). */
			kept = p;
		} else if (!strcmp(a, "signal")) {
			int s = atoi(need(argc, argv, ++i));
			signal(s, SIG_DFL);
			raise(s);
		} else if (!strcmp(a, "ignore")) {
			signal(atoi(need(argc, argv, ++i)), SIG_IGN);
		} else if (!strcmp(a, "fork")) {
			int n = atoi(need(argc, argv, ++i));
			for (int k = 0; k < n; k++)
				if (fork() == 0) {
					burn(50);
					_exit(0);
				}
			/* Every child reaped, or its time is not in rusage. */
			while (wait(NULL) > 0 || errno == EINTR)
				;
		} else if (!strcmp(a, "spawn")) {
			int n = atoi(need(argc, argv, ++i));
			long ms = atol(need(argc, argv, ++i));
			for (int k = 0; k < n; k++)
				if (fork() == 0) {
					nap(ms);
					_exit(0);
				}
		} else if (!strcmp(a, "print")) {
			printf("%s\n", need(argc, argv, ++i));
		} else if (!strcmp(a, "eprint")) {
			fprintf(stderr, "%s\n", need(argc, argv, ++i));
		} else if (!strcmp(a, "cat")) {
			int ch;
			while ((ch = getchar()) != EOF)
				putchar(ch);
		} else if (!strcmp(a, "pwd")) {
			char buf[4096];
			printf("%s\n", getcwd(buf, sizeof buf) ? buf : "?");
		} else if (!strcmp(a, "fds")) {
			DIR *d = opendir("/proc/self/fd");
			struct dirent *e;
			int self = d ? dirfd(d) : -1;
			while (d && (e = readdir(d)))
				if (e->d_name[0] != '.' && atoi(e->d_name) != self)
					printf("%s\n", e->d_name);
			if (d)
				closedir(d);
		} else if (!strcmp(a, "sigstate")) {
			sigset_t m;
			int blocked = 0, ignored = 0;
			sigprocmask(SIG_SETMASK, NULL, &m);
			for (int s = 1; s < NSIG; s++) {
				struct sigaction sa;
				if (sigismember(&m, s) == 1)
					blocked++;
				if (sigaction(s, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
					ignored++;
			}
			printf("mask %d ignored %d\n", blocked, ignored);
		} else if (!strcmp(a, "sigrt")) {
			/* The real-time signals as the C library numbers them:
			 * musl keeps the kernel's first few for itself. */
			printf("%d %d\n", SIGRTMIN, SIGRTMAX);
		} else if (!strcmp(a, "pgrp")) {
			printf("%s\n", getpgrp() == getpid() ? "pgid==pid" : "pgid!=pid");
		} else if (!strcmp(a, "limit")) {
			const char *n = need(argc, argv, ++i);
			struct rlimit rl;
			for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++)
				if (!strcmp(n, limits[k].name) && getrlimit(limits[k].res, &rl) == 0) {
					if (rl.rlim_cur == RLIM_INFINITY)
						printf("unlimited\n");
					else
						printf("%llu\n", (unsigned long long)rl.rlim_cur);
				}
		} else if (!strcmp(a, "setlimit")) {
			const char *n = need(argc, argv, ++i);
			struct rlimit rl;
			rl.rlim_cur = rl.rlim_max = (rlim_t)strtoull(need(argc, argv, ++i), NULL, 10);
			for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++)
				if (!strcmp(n, limits[k].name) && setrlimit(limits[k].res, &rl) < 0)
					exit(98);
		} else if (!strcmp(a, "strerror")) {
			const char *n = need(argc, argv, ++i);
			size_t k = 0;
			while (k < sizeof errnos / sizeof errnos[0] && strcmp(n, errnos[k].name))
				k++;
			if (k == sizeof errnos / sizeof errnos[0])
				exit(98);
			printf("%s\n", strerror(errnos[k].err));
		} else if (!strcmp(a, "machine")) {
			struct utsname u;
			if (uname(&u) < 0)
				exit(98);
			printf("%s\n", u.machine);
		} else if (!strcmp(a, "pidfile")) {
			FILE *f = fopen(need(argc, argv, ++i), "w");
			if (!f)
				exit(98);
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		} else {
			fprintf(stderr, "timeit-aux: unknown action '%s'\n", a);
			return 99;
		}
	}
	return 0;
}
