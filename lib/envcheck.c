/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* envcheck.c: noise sources of the machine, from /proc and /sys.  Paths and
 * meanings: Documentation/admin-guide/pm/cpufreq.rst (scaling_governor,
 * cpufreq/boost), intel_pstate.rst (no_turbo), ABI/testing/sysfs-devices-
 * system-cpu (isolated, nohz_full, topology/thread_siblings_list,
 * smt/control), sysctl/kernel.rst (randomize_va_space,
 * perf_event_paranoid), proc(5) (loadavg, cpuinfo flags). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuset.h"
#include "envcheck.h"

const char *ti_verdict_name(enum ti_verdict v)
{
	switch (v) {
	case TI_VERDICT_OK: return "ok";
	case TI_VERDICT_NOISY: return "noisy";
	case TI_VERDICT_UNKNOWN: return "unknown";
	}
	return "unknown";
}

/* The first line of ROOT/PATH without its newline into OUT; false when
 * the file cannot be read. */
static bool read_line(const char *root, const char *path, char *out, size_t len)
{
	char full[512];
	FILE *f;
	bool ok;

	snprintf(full, sizeof full, "%s%s", root, path);
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

static struct ti_env_item *add(struct ti_env_item *items, size_t *n, const char *name,
			       enum ti_verdict v)
{
	struct ti_env_item *it = &items[*n];

	memset(it, 0, sizeof *it);
	snprintf(it->name, sizeof it->name, "%s", name);
	it->verdict = v;
	if (*n < TI_ENV_MAX - 1)
		(*n)++;
	return it;
}

/* The CPUs to look at: the chosen ones, else those timeit may run on. */
static void target_cpus(const struct ti_envcheck_opts *o, cpu_set_t *set)
{
	if (o->cpus) {
		*set = *o->cpus;
		return;
	}
	if (sched_getaffinity(0, sizeof *set, set) < 0) {
		CPU_ZERO(set);
		for (long c = 0; c < sysconf(_SC_NPROCESSORS_ONLN) && c < CPU_SETSIZE; c++)
			CPU_SET(c, set);
	}
}

static void governors(const struct ti_envcheck_opts *o, const cpu_set_t *cpus,
		      struct ti_env_item *items, size_t *n)
{
	/* CPUs grouped by governor, in order of first appearance. */
	struct { char gov[64]; cpu_set_t set; } groups[8];
	size_t ngroups = 0;
	cpu_set_t none;

	CPU_ZERO(&none);
	for (int c = 0; c < CPU_SETSIZE; c++) {
		char path[96], gov[64];
		size_t g;

		if (!CPU_ISSET(c, cpus))
			continue;
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
		if (!read_line(o->root, path, gov, sizeof gov)) {
			CPU_SET(c, &none);
			continue;
		}
		for (g = 0; g < ngroups && strcmp(groups[g].gov, gov) != 0; g++)
			;
		if (g == ngroups) {
			if (ngroups == sizeof groups / sizeof groups[0])
				continue;
			snprintf(groups[g].gov, sizeof groups[g].gov, "%s", gov);
			CPU_ZERO(&groups[g].set);
			ngroups++;
		}
		CPU_SET(c, &groups[g].set);
	}
	for (size_t g = 0; g < ngroups; g++) {
		char list[32], name[48];
		bool perf = strcmp(groups[g].gov, "performance") == 0;
		struct ti_env_item *it;

		ti_cpuset_format(&groups[g].set, list, sizeof list);
		snprintf(name, sizeof name, "governor cpu%s", list);
		it = add(items, n, name, perf ? TI_VERDICT_OK : TI_VERDICT_NOISY);
		snprintf(it->value, sizeof it->value, "%.63s", groups[g].gov);
		if (!perf)
			snprintf(it->fix, sizeof it->fix, "cpupower -c %s frequency-set -g performance",
				 list);
	}
	if (CPU_COUNT(&none)) {
		char list[32], name[48];
		struct ti_env_item *it;

		ti_cpuset_format(&none, list, sizeof list);
		snprintf(name, sizeof name, "governor cpu%s", list);
		it = add(items, n, name, TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "no cpufreq (frequency set by the %s)",
			 "firmware or hypervisor");
	}
}

static void turbo(const struct ti_envcheck_opts *o, struct ti_env_item *items, size_t *n)
{
	char v[32];
	struct ti_env_item *it;

	if (read_line(o->root, "/sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof v)) {
		bool off = strcmp(v, "1") == 0;
		it = add(items, n, "turbo", off ? TI_VERDICT_OK : TI_VERDICT_NOISY);
		snprintf(it->value, sizeof it->value, "%s (intel_pstate/no_turbo %s)",
			 off ? "off" : "on", v);
		if (!off)
			snprintf(it->fix, sizeof it->fix,
				 "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo");
	} else if (read_line(o->root, "/sys/devices/system/cpu/cpufreq/boost", v, sizeof v)) {
		bool off = strcmp(v, "0") == 0;
		it = add(items, n, "turbo", off ? TI_VERDICT_OK : TI_VERDICT_NOISY);
		snprintf(it->value, sizeof it->value, "%s (cpufreq/boost %s)", off ? "off" : "on", v);
		if (!off)
			snprintf(it->fix, sizeof it->fix,
				 "echo 0 > /sys/devices/system/cpu/cpufreq/boost");
	} else {
		it = add(items, n, "turbo", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "not exposed (no intel_pstate/no_turbo, "
						      "no cpufreq/boost)");
	}
}

static void smt(const struct ti_envcheck_opts *o, const cpu_set_t *cpus,
		struct ti_env_item *items, size_t *n)
{
	bool known = false;
	struct ti_env_item *it;
	char shared[128] = "";

	for (int c = 0; c < CPU_SETSIZE; c++) {
		char path[96], list[64];
		cpu_set_t sib;

		if (!CPU_ISSET(c, cpus))
			continue;
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
			 c);
		if (!read_line(o->root, path, list, sizeof list) || ti_cpuset_parse(list, &sib) < 0)
			continue;
		known = true;
		if (CPU_COUNT(&sib) > 1 && shared[0] == '\0')
			snprintf(shared, sizeof shared, "cpu%d shares a core with cpus %s", c, list);
	}
	if (!known) {
		it = add(items, n, "smt", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "no topology in sysfs");
	} else if (shared[0]) {
		it = add(items, n, "smt", TI_VERDICT_NOISY);
		snprintf(it->value, sizeof it->value, "%s", shared);
		snprintf(it->fix, sizeof it->fix,
			 "echo off > /sys/devices/system/cpu/smt/control (or keep the siblings idle)");
	} else {
		it = add(items, n, "smt", TI_VERDICT_OK);
		snprintf(it->value, sizeof it->value, "no sibling threads on these CPUs");
	}
}

static void isolation(const struct ti_envcheck_opts *o, const cpu_set_t *cpus,
		      struct ti_env_item *items, size_t *n)
{
	char iso[128], nohz[128];
	bool have_iso = read_line(o->root, "/sys/devices/system/cpu/isolated", iso, sizeof iso);
	bool have_nohz = read_line(o->root, "/sys/devices/system/cpu/nohz_full", nohz, sizeof nohz);
	struct ti_env_item *it;
	cpu_set_t set, both;
	char list[32];

	if (o->cpus) {
		ti_cpuset_format(cpus, list, sizeof list);
	} else {
		/* Nothing chosen: suggest the last CPU, CPU 0 keeps the
		 * housekeeping (timers, interrupts). */
		int last = 0;
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, cpus))
				last = c;
		snprintf(list, sizeof list, "%d", last);
	}
	if (!have_iso && !have_nohz) {
		it = add(items, n, "isolcpus", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "not exposed");
		return;
	}
	/* "(null)" is what older kernels print for an empty nohz_full. */
	if (!have_nohz || strcmp(nohz, "(null)") == 0)
		nohz[0] = '\0';
	/* Quiet CPUs: the command's CPUs all isolated from the scheduler. */
	bool isolated = false;
	if (o->cpus && iso[0] && ti_cpuset_parse(iso, &set) == 0) {
		CPU_AND(&both, &set, o->cpus);
		isolated = CPU_EQUAL(&both, o->cpus);
	}
	it = add(items, n, "isolcpus", isolated ? TI_VERDICT_OK : TI_VERDICT_NOISY);
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

	if (!read_line(o->root, "/proc/loadavg", v, sizeof v) || sscanf(v, "%lf", &l1) != 1) {
		it = add(items, n, "load", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "/proc/loadavg unreadable");
		return;
	}
	/* Half a runnable task on average: something else competes now and
	 * then for the CPUs, the caches and the memory bus. */
	it = add(items, n, "load", l1 < 0.5 ? TI_VERDICT_OK : TI_VERDICT_NOISY);
	snprintf(it->value, sizeof it->value, "%.2f (1-minute average)", l1);
	if (l1 >= 0.5)
		snprintf(it->fix, sizeof it->fix, "stop other work on the machine (see top)");
}

static void paranoid(const struct ti_envcheck_opts *o, struct ti_env_item *items, size_t *n)
{
	char v[32];
	struct ti_env_item *it;
	int p;

	if (!read_line(o->root, "/proc/sys/kernel/perf_event_paranoid", v, sizeof v) ||
	    sscanf(v, "%d", &p) != 1) {
		it = add(items, n, "perf_event_paranoid", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "missing: no perf events in this kernel");
		return;
	}
	/* 2: user space only for unprivileged users, so kernel time of the
	 * command is missing from its counts; root is not restricted. */
	bool ok = p <= 1 || (o->root_user && p <= 2);
	it = add(items, n, "perf_event_paranoid", ok ? TI_VERDICT_OK : TI_VERDICT_NOISY);
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

	if (!read_line(o->root, "/proc/sys/kernel/randomize_va_space", v, sizeof v)) {
		it = add(items, n, "aslr", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "randomize_va_space unreadable");
		return;
	}
	bool ok = strcmp(v, "0") == 0 || o->no_aslr;
	it = add(items, n, "aslr", ok ? TI_VERDICT_OK : TI_VERDICT_NOISY);
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
	read_line(o->root, "/sys/hypervisor/type", hv, sizeof hv);
	if (!have_flags && !hv[0]) {
		it = add(items, n, "hypervisor", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "no x86 cpu flags");
	} else if (hyper || hv[0]) {
		it = add(items, n, "hypervisor", TI_VERDICT_NOISY);
		snprintf(it->value, sizeof it->value, "present%s%s: steal time, no or virtual PMU",
			 hv[0] ? " " : "", hv);
		snprintf(it->fix, sizeof it->fix, "measure on bare metal");
	} else {
		it = add(items, n, "hypervisor", TI_VERDICT_OK);
		snprintf(it->value, sizeof it->value, "none");
	}
	if (!have_flags) {
		it = add(items, n, "tsc", TI_VERDICT_UNKNOWN);
		snprintf(it->value, sizeof it->value, "no x86 cpu flags");
	} else {
		bool inv = ctsc && ntsc;
		it = add(items, n, "tsc", inv ? TI_VERDICT_OK : TI_VERDICT_NOISY);
		snprintf(it->value, sizeof it->value, "%s (constant_tsc %s, nonstop_tsc %s)",
			 inv ? "invariant" : "not invariant", ctsc ? "yes" : "no", ntsc ? "yes" : "no");
		if (!inv)
			snprintf(it->fix, sizeof it->fix,
				 "none: tsc-ticks are not a clock here, use real");
	}
}

size_t ti_envcheck(const struct ti_envcheck_opts *o, struct ti_env_item *items)
{
	struct ti_envcheck_opts d = *o;
	cpu_set_t cpus;
	size_t n = 0;

	if (!d.root)
		d.root = "";
	target_cpus(&d, &cpus);
	governors(&d, &cpus, items, &n);
	turbo(&d, items, &n);
	smt(&d, &cpus, items, &n);
	isolation(&d, &cpus, items, &n);
	load(&d, items, &n);
	paranoid(&d, items, &n);
	aslr(&d, items, &n);
	cpu_flags(&d, items, &n);
	return n;
}

void ti_envcheck_json(struct ti_json *j, const char *key, const struct ti_env_item *items,
		      size_t n)
{
	ti_json_array(j, key);
	for (size_t i = 0; i < n; i++) {
		ti_json_object(j, NULL);
		ti_json_string(j, "name", items[i].name);
		ti_json_string(j, "value", items[i].value);
		ti_json_string(j, "verdict", ti_verdict_name(items[i].verdict));
		ti_json_string(j, "fix", items[i].fix[0] ? items[i].fix : NULL);
		ti_json_end(j, '}');
	}
	ti_json_end(j, ']');
}
