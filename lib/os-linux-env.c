/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* os-linux-env.c: the noise checks of --check-env and of --json's
 * "environment" on Linux (lib/envcheck.h): CPU frequency governors, turbo,
 * SMT siblings, isolated and nohz_full CPUs, the load, perf_event_paranoid,
 * ASLR, the CPU's flags.  Paths and meanings: os-linux.c's sources. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "envcheck.h"
#include "os.h"
#include "os-linux.h"
#include "util.h"

static void governors(const struct ti_envcheck_opts *o, const struct ti_cpuset *cpus,
		      struct ti_env_item *items, size_t *n)
{
	/* CPUs grouped by governor, in order of first appearance. */
	struct { char gov[64]; struct ti_cpuset set; } groups[8];
	size_t ngroups = 0;
	struct ti_cpuset none = { 0 };

	for (long c = -1; (c = ti_cpuset_next(cpus, c)) >= 0;) {
		char path[96], gov[64];
		size_t g;

		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_governor",
			 c);
		if (!ti_os_linux_line(o->root, path, gov, sizeof gov)) {
			ti_cpuset_add(&none, (unsigned long)c);
			continue;
		}
		for (g = 0; g < ngroups && strcmp(groups[g].gov, gov) != 0; g++)
			;
		if (g == ngroups) {
			if (ngroups == sizeof groups / sizeof groups[0])
				continue;
			snprintf(groups[g].gov, sizeof groups[g].gov, "%s", gov);
			groups[g].set = (struct ti_cpuset){ 0 };
			ngroups++;
		}
		ti_cpuset_add(&groups[g].set, (unsigned long)c);
	}
	for (size_t g = 0; g < ngroups; g++) {
		char list[32], name[48];
		bool perf = strcmp(groups[g].gov, "performance") == 0;
		struct ti_env_item *it;

		ti_cpuset_format(&groups[g].set, list, sizeof list);
		snprintf(name, sizeof name, "governor cpu%s", list);
		it = ti_env_add(items, n, name, perf ? TI_VERDICT_OK : TI_VERDICT_NOISY);
		snprintf(it->value, sizeof it->value, "%.63s", groups[g].gov);
		if (!perf)
			snprintf(it->fix, sizeof it->fix, "cpupower -c %s frequency-set -g performance",
				 list);
		ti_cpuset_free(&groups[g].set);
	}
	if (ti_cpuset_count(&none)) {
		char list[32], name[48];
		struct ti_env_item *it;

		ti_cpuset_format(&none, list, sizeof list);
		snprintf(name, sizeof name, "governor cpu%s", list);
		it = ti_env_add(items, n, name, TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "no cpufreq (frequency set by the %s)",
			 "firmware or hypervisor");
	}
	ti_cpuset_free(&none);
}

static void turbo(const struct ti_envcheck_opts *o, struct ti_env_item *items, size_t *n)
{
	char v[32];
	struct ti_env_item *it;

	if (ti_os_linux_line(o->root, "/sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof v)) {
		bool off = strcmp(v, "1") == 0;
		it = ti_env_add(items, n, "turbo", off ? TI_VERDICT_OK : TI_VERDICT_NOISY);
		snprintf(it->value, sizeof it->value, "%s (intel_pstate/no_turbo %s)",
			 off ? "off" : "on", v);
		if (!off)
			snprintf(it->fix, sizeof it->fix,
				 "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo");
	} else if (ti_os_linux_line(o->root, "/sys/devices/system/cpu/cpufreq/boost", v, sizeof v)) {
		bool off = strcmp(v, "0") == 0;
		it = ti_env_add(items, n, "turbo", off ? TI_VERDICT_OK : TI_VERDICT_NOISY);
		snprintf(it->value, sizeof it->value, "%s (cpufreq/boost %s)", off ? "off" : "on", v);
		if (!off)
			snprintf(it->fix, sizeof it->fix,
				 "echo 0 > /sys/devices/system/cpu/cpufreq/boost");
	} else {
		it = ti_env_add(items, n, "turbo", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "not exposed (no intel_pstate/no_turbo, "
						      "no cpufreq/boost)");
	}
}

static void smt(const struct ti_envcheck_opts *o, const struct ti_cpuset *cpus,
		struct ti_env_item *items, size_t *n)
{
	bool known = false;
	struct ti_env_item *it;
	struct ti_cpuset sib = { 0 };
	char shared[128] = "";

	for (long c = -1; (c = ti_cpuset_next(cpus, c)) >= 0;) {
		char path[96], list[64];

		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu%ld/topology/thread_siblings_list", c);
		if (!ti_os_linux_line(o->root, path, list, sizeof list) || ti_cpuset_parse(list, &sib) < 0)
			continue;
		known = true;
		if (ti_cpuset_count(&sib) > 1 && shared[0] == '\0')
			snprintf(shared, sizeof shared, "cpu%ld shares a core with cpus %s", c, list);
	}
	ti_cpuset_free(&sib);
	if (!known) {
		it = ti_env_add(items, n, "smt", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "no topology in sysfs");
	} else if (shared[0]) {
		it = ti_env_add(items, n, "smt", TI_VERDICT_NOISY);
		snprintf(it->value, sizeof it->value, "%s", shared);
		snprintf(it->fix, sizeof it->fix,
			 "echo off > /sys/devices/system/cpu/smt/control (or keep the siblings idle)");
	} else {
		it = ti_env_add(items, n, "smt", TI_VERDICT_OK);
		snprintf(it->value, sizeof it->value, "no sibling threads on these CPUs");
	}
}

static void isolation(const struct ti_envcheck_opts *o, const struct ti_cpuset *cpus,
		      struct ti_env_item *items, size_t *n)
{
	char iso[128], nohz[128];
	bool have_iso = ti_os_linux_line(o->root, "/sys/devices/system/cpu/isolated", iso, sizeof iso);
	bool have_nohz = ti_os_linux_line(o->root, "/sys/devices/system/cpu/nohz_full", nohz, sizeof nohz);
	struct ti_env_item *it;
	struct ti_cpuset set = { 0 };
	char list[32];

	if (o->cpus) {
		ti_cpuset_format(cpus, list, sizeof list);
	} else {
		/* Nothing chosen: suggest the last CPU, CPU 0 keeps the
		 * housekeeping (timers, interrupts). */
		long last = 0;
		for (long c = -1; (c = ti_cpuset_next(cpus, c)) >= 0;)
			last = c;
		snprintf(list, sizeof list, "%ld", last);
	}
	if (!have_iso && !have_nohz) {
		it = ti_env_add(items, n, "isolcpus", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "not exposed");
		return;
	}
	/* Each list read or empty: one may be missing while the other is
	 * there.  "(null)" is what older kernels print for an empty
	 * nohz_full. */
	if (!have_iso)
		iso[0] = '\0';
	if (!have_nohz || strcmp(nohz, "(null)") == 0)
		nohz[0] = '\0';
	/* Quiet CPUs: the command's CPUs all isolated from the scheduler. */
	bool isolated = false;
	if (o->cpus && iso[0] && ti_cpuset_parse(iso, &set) == 0)
		isolated = ti_cpuset_subset(o->cpus, &set);
	ti_cpuset_free(&set);
	it = ti_env_add(items, n, "isolcpus", isolated ? TI_VERDICT_OK : TI_VERDICT_NOISY);
	snprintf(it->value, sizeof it->value, "isolated %s, nohz_full %s", iso[0] ? iso : "none",
		 nohz[0] ? nohz : "none");
	if (!isolated)
		snprintf(it->fix, sizeof it->fix,
			 "boot with isolcpus=%s nohz_full=%s rcu_nocbs=%s, then timeit --cpu %s",
			 list, list, list, list);
}

static void load(const struct ti_envcheck_opts *o, struct ti_env_item *items, size_t *n)
{
	char v[128];
	struct ti_env_item *it;
	double l1;

	if (!ti_os_linux_line(o->root, "/proc/loadavg", v, sizeof v) || sscanf(v, "%lf", &l1) != 1) {
		it = ti_env_add(items, n, "load", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "/proc/loadavg unreadable");
		return;
	}
	/* Half a runnable task on average: something else competes now and
	 * then for the CPUs, the caches and the memory bus. */
	it = ti_env_add(items, n, "load", l1 < 0.5 ? TI_VERDICT_OK : TI_VERDICT_NOISY);
	snprintf(it->value, sizeof it->value, "%.2f (1-minute average)", l1);
	if (l1 >= 0.5)
		snprintf(it->fix, sizeof it->fix, "stop other work on the machine (see top)");
}

static void paranoid(const struct ti_envcheck_opts *o, struct ti_env_item *items, size_t *n)
{
	struct ti_env_item *it;
	int p = ti_os_perf_paranoid(o->root);

	if (p == -100) {
		it = ti_env_add(items, n, "perf_event_paranoid", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "missing: no perf events in this kernel");
		return;
	}
	/* 2: user space only for unprivileged users, so kernel time of the
	 * command is missing from its counts; root is not restricted. */
	bool ok = p <= 1 || (o->root_user && p <= 2);
	it = ti_env_add(items, n, "perf_event_paranoid", ok ? TI_VERDICT_OK : TI_VERDICT_NOISY);
	snprintf(it->value, sizeof it->value, "%d%s", p,
		 ok && p > 1 ? " (running as root: not restricted)"
		 : p >= 3 ? " (no perf events for unprivileged users)"
		 : p == 2 ? " (user space only)" : "");
	if (!ok)
		snprintf(it->fix, sizeof it->fix, "sysctl kernel.perf_event_paranoid=1");
}

static void aslr(const struct ti_envcheck_opts *o, struct ti_env_item *items, size_t *n)
{
	char v[32];
	struct ti_env_item *it;

	if (!ti_os_linux_line(o->root, "/proc/sys/kernel/randomize_va_space", v, sizeof v)) {
		it = ti_env_add(items, n, "aslr", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "randomize_va_space unreadable");
		return;
	}
	bool ok = strcmp(v, "0") == 0 || o->no_aslr;
	it = ti_env_add(items, n, "aslr", ok ? TI_VERDICT_OK : TI_VERDICT_NOISY);
	snprintf(it->value, sizeof it->value, "randomize_va_space %s%s", v,
		 strcmp(v, "0") != 0 && o->no_aslr ? " (off for the command: --no-aslr)" : "");
	if (!ok)
		snprintf(it->fix, sizeof it->fix,
			 "timeit --no-aslr (or sysctl kernel.randomize_va_space=0)");
}

/* x86 /proc/cpuinfo "flags": hypervisor, constant_tsc, nonstop_tsc. */
static void cpu_flags(const struct ti_envcheck_opts *o, struct ti_env_item *items, size_t *n)
{
	char full[512], line[4096], hv[64] = "";
	bool have_flags = false, hyper = false, ctsc = false, ntsc = false;
	struct ti_env_item *it;
	FILE *f;

	snprintf(full, sizeof full, "%s/proc/cpuinfo", o->root);
	if ((f = fopen(full, "re")) != NULL) {
		while (fgets(line, sizeof line, f)) {
			if (strncmp(line, "flags", 5) != 0)
				continue;
			have_flags = true;
			/* Every flag between spaces, the last one too. */
			line[strcspn(line, "\n")] = '\0';
			if (strlen(line) + 1 < sizeof line)
				strcat(line, " ");
			hyper = strstr(line, " hypervisor ") != NULL;
			ctsc = strstr(line, " constant_tsc ") != NULL;
			ntsc = strstr(line, " nonstop_tsc ") != NULL;
			break;
		}
		fclose(f);
	}
	ti_os_linux_line(o->root, "/sys/hypervisor/type", hv, sizeof hv);
	if (!have_flags && !hv[0]) {
		it = ti_env_add(items, n, "hypervisor", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "no x86 cpu flags");
	} else if (hyper || hv[0]) {
		it = ti_env_add(items, n, "hypervisor", TI_VERDICT_NOISY);
		snprintf(it->value, sizeof it->value, "present%s%s: steal time, no or virtual PMU",
			 hv[0] ? " " : "", hv);
		snprintf(it->fix, sizeof it->fix, "measure on bare metal");
	} else {
		it = ti_env_add(items, n, "hypervisor", TI_VERDICT_OK);
		snprintf(it->value, sizeof it->value, "none");
	}
	const char *kind = ti_tsc_kind();
	if (!have_flags && kind && strcmp(kind, "cntvct_el0") == 0) {
		/* arm64: the generic timer counts at the fixed cntfrq_el0 rate
		 * by definition (Arm ARM, D11.1), no cpu flag to ask. */
		it = ti_env_add(items, n, "tsc", TI_VERDICT_OK);
		snprintf(it->value, sizeof it->value, "invariant (%s, a fixed-rate timer)", kind);
	} else if (!have_flags) {
		it = ti_env_add(items, n, "tsc", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "no x86 cpu flags");
	} else {
		bool inv = ctsc && ntsc;
		it = ti_env_add(items, n, "tsc", inv ? TI_VERDICT_OK : TI_VERDICT_NOISY);
		snprintf(it->value, sizeof it->value, "%s (constant_tsc %s, nonstop_tsc %s)",
			 inv ? "invariant" : "not invariant", ctsc ? "yes" : "no", ntsc ? "yes" : "no");
		if (!inv)
			snprintf(it->fix, sizeof it->fix,
				 "none: tsc-ticks are not a clock here, use real");
	}
}

void ti_os_envcheck(const struct ti_envcheck_opts *o, const struct ti_cpuset *cpus,
		    struct ti_env_item *items, size_t *n)
{
	governors(o, cpus, items, n);
	turbo(o, items, n);
	smt(o, cpus, items, n);
	isolation(o, cpus, items, n);
	load(o, items, n);
	paranoid(o, items, n);
	aslr(o, items, n);
	cpu_flags(o, items, n);
}

