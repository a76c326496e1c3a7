/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* os.h: the platform seam.  What differs between operating systems, the
 * facts timeit reads and the actions it takes on the child, implemented
 * once per system: lib/os-linux.c (with lib/os-linux-env.c) or the
 * portable lib/os-posix.c, chosen by configure (--with-platform).  No
 * other file includes a header that only one system has, and a feature a
 * system lacks is reported by the option that needs it. */
#ifndef TI_OS_H
#define TI_OS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuset.h"

struct ti_env_item;
struct ti_envcheck_opts;

/* The system this build is for: "linux" or "posix". */
const char *ti_os_name(void);

/* What this build can do on this system. */
enum ti_os_feature {
	TI_OS_AFFINITY,		/* --cpu: run on chosen CPUs */
	TI_OS_NO_ASLR,		/* --no-aslr: no address space randomisation */
	TI_OS_PIDFD_EXIT,	/* ti_os_pidfd_exit: a non-child's wait status */
};
bool ti_os_has(enum ti_os_feature f);

/* Move the calling process onto the CPUs of SET; its children inherit
 * that.  Returns 0; -EINVAL when the system kept fewer CPUs than asked
 * (offline, outside the process's cpuset); -ENOTSUP without TI_OS_AFFINITY;
 * another -errno. */
int ti_os_set_affinity(const struct ti_cpuset *set);

/* The CPUs the calling process may run on, into SET.  Returns 0 or -errno
 * (-ENOTSUP where the system does not tell). */
int ti_os_get_affinity(struct ti_cpuset *set);

/* The CPUs online now, into SET, read under ROOT (NULL: the real system;
 * a test's fake tree otherwise).  Returns 0 or -errno (-ENOENT when the
 * system does not list them). */
int ti_os_online_cpus(const char *root, struct ti_cpuset *set);

/* Turn address space randomisation off for the next exec of the calling
 * process.  Called by the child between vfork and exec: no allocation,
 * async-signal-safe.  Returns 0 or an errno value (ENOTSUP without
 * TI_OS_NO_ASLR). */
int ti_os_no_aslr(void);

/* The name of the call behind ti_os_no_aslr ("personality"), for messages. */
const char *ti_os_no_aslr_call(void);

/* A --chdir directory opened before the run, for the child to enter.
 * FD is an open descriptor, or -1 where the system cannot open a
 * directory that has search but no read permission: then PATH is entered
 * by name. */
struct ti_os_dir {
	int fd;
	const char *path;
};

/* Open PATH, a directory the calling process may enter (search
 * permission; read permission is not needed, as for chdir).  Returns 0, or
 * -errno (-ENOTDIR, -EACCES, -ENOENT...) with D->fd -1. */
int ti_os_dir_open(struct ti_os_dir *d, const char *path);

/* Enter D (in the child after vfork: async-signal-safe).  Returns 0 or an
 * errno value. */
int ti_os_dir_enter(const struct ti_os_dir *d);

/* Close D's descriptor, if any. */
void ti_os_dir_close(struct ti_os_dir *d);

/* The kernel's perf_event_paranoid setting, read under ROOT (NULL: the
 * real one), or -100 when the system has none (no perf events). */
int ti_os_perf_paranoid(const char *root);

/* The CPU's model name ("Intel(R) Xeon(R) ...", "ARM Neoverse-N1") into
 * OUT, read under ROOT (NULL: the real system); OUT is empty when it is
 * not known. */
void ti_os_cpu_model(const char *root, char *out, size_t len);

/* struct rusage's ru_maxrss in bytes (kibibytes on Linux and the BSDs,
 * bytes on macOS). */
uint64_t ti_os_maxrss_bytes(long ru_maxrss);

/* Whether the symbolic link LINK names an open file rather than a path
 * (Linux's /proc/PID/fd/N, reached through /dev/stdout or /dev/fd/N):
 * such a link is written through, never replaced. */
bool ti_os_fd_link(const char *link);

/* A descriptor for the calling process that outlives it and tells how it
 * ended (Linux: a pidfd), close-on-exec; or -errno (-ENOSYS without
 * TI_OS_PIDFD_EXIT).  Async-signal-safe. */
int ti_os_pidfd_self(void);

/* The wait status of the process of PIDFD (ti_os_pidfd_self), which has
 * ended and been reaped by its parent, whoever that is, into *WSTATUS.
 * Returns 0 or -errno (-ESRCH: not ended yet; -ENOSYS). */
int ti_os_pidfd_exit(int pidfd, int *wstatus);

/* Make the calling process (ON) or stop making it (!ON) the reaper of
 * its descendants' orphans (Linux: PR_SET_CHILD_SUBREAPER), so that a
 * wrapper which exits without waiting for its child hands the child, and
 * its status, to the caller.  Returns 0 or -errno (-ENOSYS). */
int ti_os_subreaper(bool on);

/* An anonymous read-write file, close-on-exec, that leaves nothing in the
 * file system (Linux: memfd_create; else a temporary file in TMPDIR,
 * removed at once).  Returns its descriptor or -errno. */
int ti_os_anon_file(const char *name);

/* The system's noise checks (lib/envcheck.h) for CPUS, appended to ITEMS
 * with ti_env_add. */
void ti_os_envcheck(const struct ti_envcheck_opts *o, const struct ti_cpuset *cpus,
		    struct ti_env_item *items, size_t *n);

#endif
