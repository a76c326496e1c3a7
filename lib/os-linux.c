/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* os-linux.c: the platform seam (lib/os.h) on Linux: sched_setaffinity(2)
 * with CPU_ALLOC(3) sets, personality(2), O_PATH directories, procfs and
 * sysfs.  Paths and meanings: proc(5) (cpuinfo, loadavg, the sysctls),
 * Documentation/ABI/testing/sysfs-devices-system-cpu (online, isolated,
 * nohz_full, topology/thread_siblings_list, smt/control,
 * regs/identification/midr_el1), Documentation/admin-guide/pm/cpufreq.rst
 * (scaling_governor, cpufreq/boost), intel_pstate.rst (no_turbo),
 * sysctl/kernel.rst (randomize_va_space, perf_event_paranoid). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <unistd.h>
#ifdef HAVE_SYS_PERSONALITY_H
#include <sys/personality.h>
#endif

#include "os.h"
#include "os-linux.h"
#include "util.h"

#if defined(HAVE_SCHED_SETAFFINITY) && defined(HAVE_SCHED_GETAFFINITY) && \
	defined(HAVE_CPU_ALLOC)
#define AFFINITY 1
#endif
#if defined(HAVE_PERSONALITY) && defined(HAVE_SYS_PERSONALITY_H)
#define PERSONALITY 1
#endif

const char *ti_os_name(void)
{
	return "linux";
}

/* PIDFD_GET_INFO's exit status (Documentation/filesystems/pidfs, Linux
 * 6.15; struct pidfd_info of <linux/pidfd.h>, its first 64 bytes, which
 * older headers lack): a pidfd kept open past the process's reaping tells
 * its wait status to any holder, not only the parent. */
struct pidfd_info_v0 {
	uint64_t mask, cgroupid;
	uint32_t pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
	int32_t exit_code;
};
#define PIDFD_GET_INFO_V0 _IOWR(0xFF, 11, struct pidfd_info_v0)
#define PIDFD_INFO_EXIT_BIT (1u << 3)

/* The kernel keeps the exit status from 6.15 on; an older one answers
 * PIDFD_GET_INFO (6.13) without it, or not at all, and so does an
 * emulator that does not pass the ioctl on (qemu-user): asked of this
 * process, it must answer. */
static bool pidfd_exit_known(void)
{
	static int known = -1;
	struct utsname u;
	int major = 0, minor = 0;

	if (known < 0) {
		known = uname(&u) == 0 && sscanf(u.release, "%d.%d", &major, &minor) == 2 &&
			(major > 6 || (major == 6 && minor >= 15));
		int fd = known ? ti_os_pidfd_self() : -1;
		struct pidfd_info_v0 info;
		memset(&info, 0, sizeof info);
		known = fd >= 0 && ioctl(fd, PIDFD_GET_INFO_V0, &info) == 0;
		if (fd >= 0)
			close(fd);
	}
	return known;
}

int ti_os_pidfd_self(void)
{
#ifdef SYS_pidfd_open
	long fd = syscall(SYS_pidfd_open, (long)getpid(), 0L);
	return fd < 0 ? -errno : (int)fd;
#else
	return -ENOSYS;
#endif
}

int ti_os_pidfd_exit(int pidfd, int *wstatus)
{
	struct pidfd_info_v0 info;

	memset(&info, 0, sizeof info);
	info.mask = PIDFD_INFO_EXIT_BIT;
	if (ioctl(pidfd, PIDFD_GET_INFO_V0, &info) < 0)
		return -errno;
	if (!(info.mask & PIDFD_INFO_EXIT_BIT))
		return -ESRCH;
	*wstatus = info.exit_code;
	return 0;
}

int ti_os_subreaper(bool on)
{
	return prctl(PR_SET_CHILD_SUBREAPER, on ? 1L : 0L, 0L, 0L, 0L) < 0 ? -errno : 0;
}

bool ti_os_has(enum ti_os_feature f)
{
	switch (f) {
	case TI_OS_AFFINITY:
#ifdef AFFINITY
		return true;
#else
		return false;
#endif
	case TI_OS_NO_ASLR:
#ifdef PERSONALITY
		return true;
#else
		return false;
#endif
	case TI_OS_PIDFD_EXIT:
		return pidfd_exit_known();
	}
	return false;
}

bool ti_os_linux_line(const char *root, const char *path, char *out, size_t len)
{
	char full[512];
	FILE *f;
	bool ok;

	snprintf(full, sizeof full, "%s%s", root ? root : "", path);
	f = fopen(full, "re");
	if (!f)
		return false;
	ok = fgets(out, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return true;
}

#ifdef AFFINITY
int ti_os_get_affinity(struct ti_cpuset *set)
{
	/* The kernel refuses a mask smaller than its own (EINVAL), whose size
	 * no call tells: grow until it fits (sched_setaffinity(2), NOTES). */
	for (size_t n = 1024; n <= TI_CPUSET_MAX; n *= 2) {
		size_t size = CPU_ALLOC_SIZE(n);
		cpu_set_t *m = CPU_ALLOC(n);
		int err = 0;

		if (!m)
			return -ENOMEM;
		if (sched_getaffinity(0, size, m) == 0) {
			ti_cpuset_clear(set);
			for (size_t c = 0; c < n && !err; c++)
				if (CPU_ISSET_S(c, size, m))
					err = -ti_cpuset_add(set, c);
			CPU_FREE(m);
			return -err;
		}
		err = errno;
		CPU_FREE(m);
		if (err != EINVAL)
			return -err;
	}
	return -EINVAL;
}

int ti_os_set_affinity(const struct ti_cpuset *set)
{
	struct ti_cpuset got = { 0 };
	long last = -1;
	size_t size;
	cpu_set_t *m;
	int rc = 0;

	for (long c = -1; (c = ti_cpuset_next(set, c)) >= 0;)
		last = c;
	if (last < 0)
		return -EINVAL;
	size = CPU_ALLOC_SIZE((size_t)last + 1);
	if (!(m = CPU_ALLOC((size_t)last + 1)))
		return -ENOMEM;
	CPU_ZERO_S(size, m);
	for (long c = -1; (c = ti_cpuset_next(set, c)) >= 0;)
		CPU_SET_S((size_t)c, size, m);
	if (sched_setaffinity(0, size, m) < 0)
		rc = -errno;
	CPU_FREE(m);
	/* The kernel keeps only the CPUs that are online and in our cpuset,
	 * failing only when none is left: read the mask back, or a list with
	 * one usable CPU would run on fewer CPUs than asked. */
	if (rc == 0 && (rc = ti_os_get_affinity(&got)) == 0 && !ti_cpuset_equal(&got, set))
		rc = -EINVAL;
	ti_cpuset_free(&got);
	return rc;
}
#else
int ti_os_get_affinity(struct ti_cpuset *set)
{
	(void)set;
	return -ENOTSUP;
}

int ti_os_set_affinity(const struct ti_cpuset *set)
{
	(void)set;
	return -ENOTSUP;
}
#endif

int ti_os_online_cpus(const char *root, struct ti_cpuset *set)
{
	char buf[4096];

	if (!ti_os_linux_line(root, "/sys/devices/system/cpu/online", buf, sizeof buf))
		return -(errno ? errno : ENOENT);
	return ti_cpuset_parse(buf, set);
}

int ti_os_no_aslr(void)
{
#ifdef PERSONALITY
	/* ADDR_NO_RANDOMIZE takes effect at the next exec (setarch -R does
	 * the same); 0xffffffff only queries the current persona. */
	int persona = personality(0xffffffff);

	if (persona == -1 || personality((unsigned long)persona | ADDR_NO_RANDOMIZE) == -1)
		return errno;
	return 0;
#else
	return ENOTSUP;
#endif
}

const char *ti_os_no_aslr_call(void)
{
	return "personality";
}

/* O_PATH needs no read permission on the directory (chdir does not
 * either); looking up "." in it needs the search permission chdir needs,
 * checked for the same ids by the same path walk (faccessat would need
 * faccessat2, which old seccomp profiles refuse with EPERM).  The child
 * then only calls fchdir. */
int ti_os_dir_open(struct ti_os_dir *d, const char *path)
{
	int top, err = 0;

	d->path = path;
	d->fd = -1;
	top = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (top < 0)
		return -errno;
	d->fd = openat(top, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0)
		err = errno;
	close(top);
	return -err;
}

int ti_os_dir_enter(const struct ti_os_dir *d)
{
	return fchdir(d->fd) < 0 ? errno : 0;
}

void ti_os_dir_close(struct ti_os_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

int ti_os_perf_paranoid(const char *root)
{
	char v[32];
	int p;

	if (!ti_os_linux_line(root, "/proc/sys/kernel/perf_event_paranoid", v, sizeof v) ||
	    sscanf(v, "%d", &p) != 1)
		return -100;
	return p;
}

/* Arm's MIDR implementer and part numbers (Linux's
 * arch/arm64/include/asm/cputype.h, Arm's technical reference manuals). */
static const struct {
	unsigned implementer, part;	/* part 0: the implementer's name alone */
	const char *name;
} arm_parts[] = {
	{ 0x41, 0, "ARM" },
	{ 0x41, 0xd03, "ARM Cortex-A53" },	{ 0x41, 0xd04, "ARM Cortex-A35" },
	{ 0x41, 0xd05, "ARM Cortex-A55" },	{ 0x41, 0xd07, "ARM Cortex-A57" },
	{ 0x41, 0xd08, "ARM Cortex-A72" },	{ 0x41, 0xd09, "ARM Cortex-A73" },
	{ 0x41, 0xd0a, "ARM Cortex-A75" },	{ 0x41, 0xd0b, "ARM Cortex-A76" },
	{ 0x41, 0xd0c, "ARM Neoverse-N1" },	{ 0x41, 0xd0d, "ARM Cortex-A77" },
	{ 0x41, 0xd40, "ARM Neoverse-V1" },	{ 0x41, 0xd41, "ARM Cortex-A78" },
	{ 0x41, 0xd44, "ARM Cortex-X1" },	{ 0x41, 0xd46, "ARM Cortex-A510" },
	{ 0x41, 0xd47, "ARM Cortex-A710" },	{ 0x41, 0xd48, "ARM Cortex-X2" },
	{ 0x41, 0xd49, "ARM Neoverse-N2" },	{ 0x41, 0xd4f, "ARM Neoverse-V2" },
	{ 0x41, 0xd80, "ARM Cortex-A520" },	{ 0x41, 0xd81, "ARM Cortex-A720" },
	{ 0x41, 0xd82, "ARM Cortex-X4" },	{ 0x41, 0xd84, "ARM Neoverse-V3" },
	{ 0x41, 0xd8e, "ARM Neoverse-N3" },
	{ 0x42, 0, "Broadcom" },		{ 0x43, 0, "Cavium" },
	{ 0x43, 0x0af, "Cavium ThunderX2" },
	{ 0x46, 0, "Fujitsu" },			{ 0x46, 0x001, "Fujitsu A64FX" },
	{ 0x48, 0, "HiSilicon" },		{ 0x48, 0xd01, "HiSilicon TaiShan v110" },
	{ 0x4e, 0, "NVIDIA" },			{ 0x50, 0, "APM" },
	{ 0x51, 0, "Qualcomm" },		{ 0x61, 0, "Apple" },
	{ 0xc0, 0, "Ampere" },			{ 0xc0, 0xac3, "Ampere-1" },
	{ 0xc0, 0xac4, "Ampere-1a" },
};

/* "ARM Neoverse-N1", or "ARM part 0xd99" for a part not in the table. */
static void arm_name(unsigned implementer, unsigned part, char *out, size_t len)
{
	const char *vendor = NULL;

	for (size_t i = 0; i < sizeof arm_parts / sizeof arm_parts[0]; i++) {
		if (arm_parts[i].implementer != implementer)
			continue;
		if (arm_parts[i].part == part) {
			snprintf(out, len, "%s", arm_parts[i].name);
			return;
		}
		if (arm_parts[i].part == 0)
			vendor = arm_parts[i].name;
	}
	if (vendor)
		snprintf(out, len, "%s part 0x%03x", vendor, part);
	else
		snprintf(out, len, "implementer 0x%02x part 0x%03x", implementer, part);
}

void ti_os_cpu_model(const char *root, char *out, size_t len)
{
	char full[512], line[1024];
	long implementer = 0, part = 0;
	bool have_impl = false, have_part = false;
	unsigned long long midr;
	FILE *f;

	if (len)
		out[0] = '\0';
	snprintf(full, sizeof full, "%s/proc/cpuinfo", root ? root : "");
	if ((f = fopen(full, "re")) != NULL) {
		while (fgets(line, sizeof line, f)) {
			char *v = strchr(line, ':');

			if (!v)
				continue;
			v += 1 + strspn(v + 1, " \t");
			v[strcspn(v, "\n")] = '\0';
			/* x86 "model name", 32-bit Arm "Processor"; arm64 names
			 * only the MIDR fields, CPU 0's first. */
			if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Processor", 9) == 0) {
				snprintf(out, len, "%s", v);
				break;
			}
			if (!have_impl && strncmp(line, "CPU implementer", 15) == 0)
				have_impl = sscanf(v, "%li", &implementer) == 1;
			else if (!have_part && strncmp(line, "CPU part", 8) == 0)
				have_part = sscanf(v, "%li", &part) == 1;
		}
		fclose(f);
	}
	if (len && out[0])
		return;
	if (have_impl && have_part) {
		arm_name((unsigned)implementer, (unsigned)part, out, len);
		return;
	}
	/* No /proc/cpuinfo fields (some containers): MIDR_EL1 itself, the
	 * implementer in bits 31:24 and the part in 15:4 (Arm ARM, D19.2). */
	if (ti_os_linux_line(root, "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", line,
		      sizeof line) &&
	    sscanf(line, "%llx", &midr) == 1)
		arm_name((unsigned)(midr >> 24 & 0xff), (unsigned)(midr >> 4 & 0xfff), out, len);
}

uint64_t ti_os_maxrss_bytes(long ru_maxrss)
{
	/* getrusage(2): ru_maxrss is in kilobytes. */
	return (uint64_t)ru_maxrss * 1024;
}

bool ti_os_fd_link(const char *link)
{
	const char *slash = strrchr(link, '/');
	char dir[PATH_MAX];
	struct statfs sf;

	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - link) + 1, link);
	return statfs(dir, &sf) == 0 && sf.f_type == 0x9fa0; /* PROC_SUPER_MAGIC */
}

int ti_os_anon_file(const char *name)
{
#ifdef HAVE_MEMFD_CREATE
	int fd = memfd_create(name, MFD_CLOEXEC);
	if (fd >= 0 || errno != ENOSYS)
		return fd >= 0 ? fd : -errno;
#endif
	return ti_anon_tmpfile(name);
}
