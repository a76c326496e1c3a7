/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* os-posix.c: the platform seam (lib/os.h) from POSIX alone, for every
 * system without a file of its own.  What POSIX cannot do is "not
 * supported" here (--cpu), or done where configure found the system's own
 * call: procctl(2)'s PROC_ASLR_CTL (FreeBSD 13) for --no-aslr,
 * sysctlbyname(3) for the CPU model, getloadavg(3) for the load. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(HAVE_SYS_PROCCTL_H) && defined(HAVE_PROCCTL)
#include <sys/procctl.h>
#endif
#if defined(HAVE_SYS_SYSCTL_H) && defined(HAVE_SYSCTLBYNAME)
#include <sys/sysctl.h>
#define SYSCTL 1
#endif

#include "envcheck.h"
#include "os.h"
#include "util.h"

#if defined(HAVE_SYS_PROCCTL_H) && defined(HAVE_PROCCTL) && defined(PROC_ASLR_CTL)
#define ASLR_CTL 1
#endif

const char *ti_os_name(void)
{
	return "posix";
}

bool ti_os_has(enum ti_os_feature f)
{
	switch (f) {
	case TI_OS_AFFINITY:
		return false;
	case TI_OS_PIDFD_EXIT:
		return false;
	case TI_OS_NO_ASLR:
#ifdef ASLR_CTL
		return true;
#else
		return false;
#endif
	}
	return false;
}

int ti_os_set_affinity(const struct ti_cpuset *set)
{
	(void)set;
	return -ENOTSUP;
}

int ti_os_get_affinity(struct ti_cpuset *set)
{
	(void)set;
	return -ENOTSUP;
}

int ti_os_online_cpus(const char *root, struct ti_cpuset *set)
{
	(void)root;
	(void)set;
	return -ENOENT;
}

int ti_os_no_aslr(void)
{
#ifdef ASLR_CTL
	/* For the images the next execve creates, in this process and the
	 * ones it starts (procctl(2), PROC_ASLR_CTL). */
	int v = PROC_ASLR_FORCE_DISABLE;

	return procctl(P_PID, getpid(), PROC_ASLR_CTL, &v) < 0 ? errno : 0;
#else
	return ENOTSUP;
#endif
}

const char *ti_os_no_aslr_call(void)
{
	return "procctl";
}

/* O_SEARCH opens a directory for searching only, as chdir needs; without
 * it a directory that may be searched but not read cannot be opened, and
 * is entered by name instead (after checking, so that a bad --chdir is
 * still refused before the run). */
int ti_os_dir_open(struct ti_os_dir *d, const char *path)
{
	struct stat st;

	d->path = path;
#ifdef O_SEARCH
	d->fd = open(path, O_SEARCH | O_DIRECTORY | O_CLOEXEC);
#else
	d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
#endif
	/* Read permission let it open; "." looked up in it needs search. */
	if (d->fd >= 0) {
		if (faccessat(d->fd, ".", X_OK, 0) == 0)
			return 0;
		int err = errno;
		close(d->fd);
		d->fd = -1;
		return -err;
	}
	if (errno != EACCES)
		return -errno;
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return access(path, X_OK) < 0 ? -errno : 0;
}

int ti_os_dir_enter(const struct ti_os_dir *d)
{
	if (d->fd >= 0)
		return fchdir(d->fd) < 0 ? errno : 0;
	return chdir(d->path) < 0 ? errno : 0;
}

void ti_os_dir_close(struct ti_os_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

int ti_os_perf_paranoid(const char *root)
{
	(void)root;
	return -100;
}

void ti_os_cpu_model(const char *root, char *out, size_t len)
{
	(void)root;
	if (len)
		out[0] = '\0';
#ifdef SYSCTL
	/* macOS names the CPU in machdep.cpu.brand_string; the BSDs in
	 * hw.model (which on macOS is the machine: "MacBookPro18,1"). */
	static const char *const names[] = { "machdep.cpu.brand_string", "hw.model" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		size_t n = len;
		if (len && sysctlbyname(names[i], out, &n, NULL, 0) == 0 && n > 0) {
			out[n < len ? n : len - 1] = '\0';
			return;
		}
	}
	if (len)
		out[0] = '\0';
#endif
}

uint64_t ti_os_maxrss_bytes(long ru_maxrss)
{
#ifdef MAXRSS_IN_BYTES
	return (uint64_t)ru_maxrss;
#else
	/* getrusage: kilobytes on the BSDs and Linux (configure knows the
	 * systems that say bytes). */
	return (uint64_t)ru_maxrss * 1024;
#endif
}

/* Whether S is a decimal number followed by END ("" or "/..."). */
static const char *digits(const char *s)
{
	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9')
		s++;
	return s;
}

/* By name: the directories that list a process's descriptors, /dev/fd
 * and, on a system with procfs, /proc/self/fd and /proc/PID/fd. */
bool ti_os_fd_link(const char *link)
{
	const char *p;

	if (strncmp(link, "/dev/fd/", 8) == 0)
		p = link + 8;
	else if (strncmp(link, "/proc/self/fd/", 14) == 0)
		p = link + 14;
	else if (strncmp(link, "/proc/", 6) == 0 && (p = digits(link + 6)) && strncmp(p, "/fd/", 4) == 0)
		p += 4;
	else
		return false;
	p = digits(p);
	return p && *p == '\0';
}

void ti_os_envcheck(const struct ti_envcheck_opts *o, const struct ti_cpuset *cpus,
		    struct ti_env_item *items, size_t *n)
{
	struct ti_env_item *it;

	(void)cpus;
#ifdef HAVE_GETLOADAVG
	double l1;
	/* A fake root (the tests') has no load average of its own. */
	if ((!o->root || !o->root[0]) && getloadavg(&l1, 1) == 1) {
		/* Half a runnable task on average: something else competes. */
		it = ti_env_add(items, n, "load", l1 < 0.5 ? TI_VERDICT_OK : TI_VERDICT_NOISY);
		snprintf(it->value, sizeof it->value, "%.2f (1-minute average)", l1);
		if (l1 >= 0.5)
			snprintf(it->fix, sizeof it->fix, "stop other work on the machine (see top)");
	} else
#endif
	{
		it = ti_env_add(items, n, "load", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "not known on this system");
	}
	it = ti_env_add(items, n, "perf", TI_VERDICT_UNKNOWN);
	snprintf(it->value, sizeof it->value, "none on this system (rusage and timestamp counter)");
	it = ti_env_add(items, n, "aslr", o->no_aslr ? TI_VERDICT_OK : TI_VERDICT_UNKNOWN);
	snprintf(it->value, sizeof it->value, "%s",
		 o->no_aslr ? "off for the command (--no-aslr)" : "not known on this system");
	if (!o->no_aslr && ti_os_has(TI_OS_NO_ASLR))
		snprintf(it->fix, sizeof it->fix, "timeit --no-aslr");
	it = ti_env_add(items, n, "cpu", TI_VERDICT_UNKNOWN);
	snprintf(it->value, sizeof it->value, "frequency, SMT, isolation: not known on this "
					      "system (%s build)", ti_os_name());
}

int ti_os_pidfd_self(void)
{
	return -ENOSYS;
}

int ti_os_pidfd_exit(int pidfd, int *wstatus)
{
	(void)pidfd;
	(void)wstatus;
	return -ENOSYS;
}

int ti_os_subreaper(bool on)
{
	(void)on;
	return -ENOSYS;
}

int ti_os_anon_file(const char *name)
{
	return ti_anon_tmpfile(name);
}
