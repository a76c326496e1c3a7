/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* os-test: the platform seam (lib/os.h) over fake /proc and /sys trees:
 * the CPU model (x86, arm64 by MIDR, midr_el1 alone), the online CPUs,
 * perf_event_paranoid; and what every platform must answer the same way
 * (maxrss units, descriptor links, its features).  TAP. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fakeroot.h"
#include "os.h"
#include "tap.h"

static char root[] = "/tmp/timeit-os-XXXXXX";

static void linux_facts(void)
{
	static const struct {
		int line;
		const char *cpuinfo;	/* NULL: none */
		const char *midr;	/* regs/identification/midr_el1, NULL: none */
		const char *want;
	} models[] = {
		{ __LINE__, "processor\t: 0\nvendor_id\t: GenuineIntel\n"
			    "model name\t: Intel(R) Xeon(R) CPU E5-2686 v4 @ 2.30GHz\nflags\t: fpu\n",
		  NULL, "Intel(R) Xeon(R) CPU E5-2686 v4 @ 2.30GHz" },
		/* arm64 (Graviton 2): no model name, the MIDR fields. */
		{ __LINE__, "processor\t: 0\nBogoMIPS\t: 243.75\nFeatures\t: fp asimd\n"
			    "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\n"
			    "CPU part\t: 0xd0c\nCPU revision\t: 1\n\nprocessor\t: 1\n"
			    "CPU implementer\t: 0x41\nCPU part\t: 0xd40\n",
		  NULL, "ARM Neoverse-N1" },
		{ __LINE__, "CPU implementer\t: 0x41\nCPU part\t: 0xd99\n", NULL, "ARM part 0xd99" },
		{ __LINE__, "CPU implementer\t: 0xc0\nCPU part\t: 0xac3\n", NULL, "Ampere-1" },
		{ __LINE__, "CPU implementer\t: 0x7f\nCPU part\t: 0x001\n", NULL,
		  "implementer 0x7f part 0x001" },
		/* No MIDR fields in cpuinfo: sysfs's midr_el1 (implementer in
		 * bits 31:24, part in 15:4). */
		{ __LINE__, "processor\t: 0\n", "0x00000000410fd083\n", "ARM Cortex-A72" },
		{ __LINE__, NULL, "0x00000000413fd0c1\n", "ARM Neoverse-N1" },
		{ __LINE__, NULL, NULL, "" },
	};
	for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
		char model[256];

		put(root, "/proc/cpuinfo", models[i].cpuinfo);
		put(root, "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", models[i].midr);
		ti_os_cpu_model(root, model, sizeof model);
		tap_ok(strcmp(model, models[i].want) == 0, models[i].line, "cpu model '%s', want '%s'",
		       model, models[i].want);
	}

	/* The online list, any size. */
	struct ti_cpuset set = { 0 };
	char list[64];
	put(root, "/sys/devices/system/cpu/online", "0-3,1024-1027,4095\n");
	int rc = ti_os_online_cpus(root, &set);
	TAP_OK(rc == 0 && ti_cpuset_count(&set) == 9, "online 0-3,1024-1027,4095: %d, %zu CPUs", rc,
	       ti_cpuset_count(&set));
	ti_cpuset_format(&set, list, sizeof list);
	TAP_OK(strcmp(list, "0-3,1024-1027,4095") == 0, "online formats as '%s'", list);
	put(root, "/sys/devices/system/cpu/online", NULL);
	TAP_OK(ti_os_online_cpus(root, &set) == -ENOENT, "no online list: -ENOENT");
	ti_cpuset_free(&set);

	put(root, "/proc/sys/kernel/perf_event_paranoid", "-1\n");
	TAP_OK(ti_os_perf_paranoid(root) == -1, "paranoid -1");
	put(root, "/proc/sys/kernel/perf_event_paranoid", "4\n");
	TAP_OK(ti_os_perf_paranoid(root) == 4, "paranoid 4");
	put(root, "/proc/sys/kernel/perf_event_paranoid", NULL);
	TAP_OK(ti_os_perf_paranoid(root) == -100, "no paranoid file: -100 (no perf events)");

	/* What timeit itself runs on: a set it may run on, and a move there. */
	struct ti_cpuset mine = { 0 };
	rc = ti_os_get_affinity(&mine);
	TAP_OK(rc == 0 && ti_cpuset_count(&mine) >= 1, "own affinity: %d, %zu CPUs", rc,
	       ti_cpuset_count(&mine));
	TAP_OK(ti_os_set_affinity(&mine) == 0, "set the same affinity again");
	ti_cpuset_free(&mine);
}

static void every_platform(void)
{
	/* getrusage(2): kilobytes (macOS: bytes, where configure says so). */
#ifdef MAXRSS_IN_BYTES
	TAP_OK(ti_os_maxrss_bytes(3) == 3, "maxrss in bytes");
#else
	TAP_OK(ti_os_maxrss_bytes(3) == 3072, "maxrss 3 KiB is 3072 bytes");
#endif
	TAP_OK(!ti_os_fd_link("/tmp"), "/tmp names no open file");
	TAP_OK(!ti_os_fd_link("/dev/fd"), "/dev/fd itself names no open file");
	if (access("/proc/self/fd/0", F_OK) == 0)
		TAP_OK(ti_os_fd_link("/proc/self/fd/0"), "/proc/self/fd/0 names an open file");
	else
		tap_skip("no /proc/self/fd here");
	/* A platform that has a feature names a call for it, one that
	 * does not refuses it. */
	TAP_OK(ti_os_has(TI_OS_AFFINITY) || ti_os_set_affinity(&(struct ti_cpuset){ 0 }) ==
	       -ENOTSUP, "%s: no affinity means -ENOTSUP", ti_os_name());
	TAP_OK(ti_os_has(TI_OS_NO_ASLR) || ti_os_no_aslr() == ENOTSUP,
	       "%s: no --no-aslr means ENOTSUP", ti_os_name());

	/* A directory opened for the child, then entered. */
	struct ti_os_dir d;
	char here[4096];
	TAP_OK(ti_os_dir_open(&d, root) == 0, "open %s", root);
	TAP_OK(getcwd(here, sizeof here) && ti_os_dir_enter(&d) == 0, "enter it");
	ti_os_dir_close(&d);
	TAP_OK(chdir(here) == 0, "back");
	TAP_OK(ti_os_dir_open(&d, "/nonexistent-timeit-dir") == -ENOENT && d.fd == -1,
	       "a missing directory: -ENOENT");
	put(root, "/afile", "x");
	char file[600];
	snprintf(file, sizeof file, "%s/afile", root);
	TAP_OK(ti_os_dir_open(&d, file) == -ENOTDIR, "a file: -ENOTDIR");
}

int main(void)
{
	char cmd[600];

	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 99;
	}
	if (strcmp(ti_os_name(), "linux") == 0)
		linux_facts();
	else
		tap_skip("/proc and /sys facts: a %s build has none", ti_os_name());
	every_platform();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
	return tap_done();
}
