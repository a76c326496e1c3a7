/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* noise-test: the --cpu list parser, the per-run noise screen over injected
 * records, and --check-env's verdicts over a fake /proc and /sys tree. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "cpuset.h"
#include "envcheck.h"
#include "fakeroot.h"
#include "noise.h"
#include "os.h"
#include "tap.h"

static void cpusets(void)
{
	static const struct {
		int line;
		const char *in;
		int rc;
		const char *out;	/* formatted back */
	} cases[] = {
		{ __LINE__, "0", 0, "0" },
		{ __LINE__, "0-3,6", 0, "0-3,6" },
		{ __LINE__, "6,0-3", 0, "0-3,6" },
		{ __LINE__, "3,3,3", 0, "3" },
		{ __LINE__, "0-7:2", 0, "0,2,4,6" },
		{ __LINE__, "1-3,2-5", 0, "1-5" },
		{ __LINE__, "1023", 0, "1023" },
		/* Above glibc's CPU_SETSIZE (1024) and musl's (128): machines
		 * with more CPUs exist, and the kernel takes masks of any size. */
		{ __LINE__, "1024", 0, "1024" },
		{ __LINE__, "0,127-129,1023-1025", 0, "0,127-129,1023-1025" },
		{ __LINE__, "4000-4095:5,8191", 0,
		  "4000,4005,4010,4015,4020,4025,4030,4035,4040,4045,4050,4055,4060,4065,4070,"
		  "4075,4080,4085,4090,4095,8191" },
		{ __LINE__, "1048575", 0, "1048575" },
		{ __LINE__, "1048576", -ERANGE, NULL },
		{ __LINE__, "0-1048576", -ERANGE, NULL },
		{ __LINE__, "99999999999999999999", -ERANGE, NULL },
		{ __LINE__, "", -EINVAL, NULL },
		{ __LINE__, "a", -EINVAL, NULL },
		{ __LINE__, "1,", -EINVAL, NULL },
		{ __LINE__, ",1", -EINVAL, NULL },
		{ __LINE__, "3-1", -EINVAL, NULL },
		{ __LINE__, "1-", -EINVAL, NULL },
		{ __LINE__, "0-3:0", -EINVAL, NULL },
		{ __LINE__, "-1", -EINVAL, NULL },
		{ __LINE__, "1 ", -EINVAL, NULL },
	};
	struct ti_cpuset set = { 0 };

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char out[256];
		int rc = ti_cpuset_parse(cases[i].in, &set);

		tap_ok(rc == cases[i].rc, cases[i].line, "cpu list '%s': %d, want %d", cases[i].in, rc,
		       cases[i].rc);
		if (rc == 0 && cases[i].out) {
			ti_cpuset_format(&set, out, sizeof out);
			tap_ok(strcmp(out, cases[i].out) == 0, cases[i].line, "'%s' formats as '%s'",
			       cases[i].in, out);
		}
	}

	/* A list above 1023 CPUs: each one in, its neighbours out, and the
	 * count, walk, subset and equality over sets of different sizes. */
	struct ti_cpuset big = { 0 }, small = { 0 };
	TAP_OK(ti_cpuset_parse("5,1500-1502,70000", &big) == 0, "parse 5,1500-1502,70000");
	TAP_OK(ti_cpuset_count(&big) == 5, "5 CPUs, counted %zu", ti_cpuset_count(&big));
	TAP_OK(ti_cpuset_has(&big, 1500) && ti_cpuset_has(&big, 1502) && ti_cpuset_has(&big, 70000) &&
	       !ti_cpuset_has(&big, 1499) && !ti_cpuset_has(&big, 1503) &&
	       !ti_cpuset_has(&big, 69999) && !ti_cpuset_has(&big, 70001) &&
	       !ti_cpuset_has(&big, 1000000), "members of 5,1500-1502,70000");
	long walk[8], c = -1;
	size_t nw = 0;
	while ((c = ti_cpuset_next(&big, c)) >= 0 && nw < 8)
		walk[nw++] = c;
	TAP_OK(nw == 5 && walk[0] == 5 && walk[1] == 1500 && walk[3] == 1502 && walk[4] == 70000,
	       "walk: %zu CPUs", nw);
	TAP_OK(ti_cpuset_parse("1501", &small) == 0 && ti_cpuset_subset(&small, &big) &&
	       !ti_cpuset_subset(&big, &small) && !ti_cpuset_equal(&big, &small),
	       "1501 is a subset of the big set, not equal");
	TAP_OK(ti_cpuset_parse("70000,1500-1502,5", &small) == 0 && ti_cpuset_equal(&small, &big),
	       "the same CPUs in another order are equal");
	ti_cpuset_free(&big);
	ti_cpuset_free(&small);
	ti_cpuset_free(&set);
}

static void count(struct ti_record *r, const char *name, double v, uint64_t en, uint64_t run,
		  bool user_only)
{
	struct ti_count *k = &r->counts[r->ncounts++];

	snprintf(k->name, sizeof k->name, "%s", name);
	k->opened = k->counted = true;
	k->scaled = v;
	k->enabled = en;
	k->running = run;
	k->user_only = user_only;
}

static void screen(void)
{
	static const struct {
		int line;
		double user_s, sys_s;
		long nivcsw, majflt;
		double migrations;	/* < 0: not counted */
		const char *migr_name;
		double cycles;		/* < 0: not counted */
		const char *cyc_name;
		bool cyc_user_only;
		double task_ns;		/* < 0: not counted */
		uint64_t tsc_ticks;	/* 0: no invariant TSC; real is 1 s */
		uint64_t running;	/* of enabled 100, for task-clock */
		unsigned want;
	} cases[] = {
		{ __LINE__, 1, 0, 0, 0, 0, "cpu-migrations", -1, "", 0, -1, 0, 100, 0 },
		{ __LINE__, 1, 0, 0, 0, 1, "cpu-migrations", -1, "", 0, -1, 0, 100, TI_NOISE_MIGRATED },
		{ __LINE__, 1, 0, 0, 0, 2, "migrations:u", -1, "", 0, -1, 0, 100, TI_NOISE_MIGRATED },
		/* Limit 5 + 50/s of CPU: 1 s user + 1 s sys -> 105 (rusage);
		 * with user from task-clock the kernel's part is in it: 55. */
		{ __LINE__, 1, 1, 105, 0, -1, "", -1, "", 0, -1, 0, 100, 0 },
		{ __LINE__, 1, 1, 106, 0, -1, "", -1, "", 0, -1, 0, 100, TI_NOISE_PREEMPTED },
		{ __LINE__, 1, 1, 55, 0, -1, "", -1, "", 0, 1e9, 0, 100, 0 },
		{ __LINE__, 1, 1, 56, 0, -1, "", -1, "", 0, 1e9, 0, 100, TI_NOISE_PREEMPTED },
		{ __LINE__, 0, 0, 5, 0, -1, "", -1, "", 0, -1, 0, 100, 0 },
		{ __LINE__, 0, 0, 6, 0, -1, "", -1, "", 0, -1, 0, 100, TI_NOISE_PREEMPTED },
		{ __LINE__, 1, 0, 0, 1, -1, "", -1, "", 0, -1, 0, 100, TI_NOISE_MAJOR_FAULTS },
		/* 2.0 GHz against a 2.3 GHz TSC: 0.87 < 0.9, slow. */
		{ __LINE__, 1, 0, 0, 0, -1, "", 2.0e9, "cycles", 0, 1e9, 2300000000u, 100,
		  TI_NOISE_SLOW_CLOCK },
		{ __LINE__, 1, 0, 0, 0, -1, "", 2.1e9, "cpu-cycles", 0, 1e9, 2300000000u, 100, 0 },
		{ __LINE__, 1, 0, 0, 0, -1, "", 3.5e9, "cycles", 0, 1e9, 2300000000u, 100, 0 },
		/* User-only cycles against task-clock mean nothing: no flag. */
		{ __LINE__, 1, 0, 0, 0, -1, "", 1.0e9, "cycles:u", 0, 1e9, 2300000000u, 100, 0 },
		{ __LINE__, 1, 0, 0, 0, -1, "", 1.0e9, "cycles", 1, 1e9, 2300000000u, 100, 0 },
		/* No TSC rate to compare with. */
		{ __LINE__, 1, 0, 0, 0, -1, "", 1.0e9, "cycles", 0, 1e9, 0, 100, 0 },
		{ __LINE__, 1, 0, 0, 0, -1, "", -1, "", 0, 1e9, 0, 40, TI_NOISE_MULTIPLEXED },
		{ __LINE__, 1, 0, 200, 3, 1, "cpu-migrations", -1, "", 0, 1e9, 0, 40,
		  TI_NOISE_MIGRATED | TI_NOISE_PREEMPTED | TI_NOISE_MAJOR_FAULTS |
		  TI_NOISE_MULTIPLEXED },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ti_record r;
		struct ti_noise n;

		memset(&r, 0, sizeof r);
		r.user_s = cases[i].user_s;
		r.sys_s = cases[i].sys_s;
		/* user is task-clock exactly when task-clock was counted. */
		r.source = cases[i].task_ns >= 0 ? TI_SOURCE_PERF : TI_SOURCE_RUSAGE;
		r.real_s = 1.0;
		r.ru.ru_nivcsw = cases[i].nivcsw;
		r.ru.ru_majflt = cases[i].majflt;
		if (cases[i].migrations >= 0)
			count(&r, cases[i].migr_name, cases[i].migrations, 100, 100, false);
		if (cases[i].cycles >= 0)
			count(&r, cases[i].cyc_name, cases[i].cycles, 100, 100, cases[i].cyc_user_only);
		if (cases[i].task_ns >= 0)
			count(&r, "task-clock", cases[i].task_ns, 100, cases[i].running, false);
		r.tsc_valid = cases[i].tsc_ticks > 0;
		r.tsc_ticks = cases[i].tsc_ticks;
		ti_noise_screen(&r, &n);
		tap_ok(n.flags == cases[i].want, cases[i].line, "noise flags %u, want %u", n.flags,
		       cases[i].want);
	}
	TAP_OK(strcmp(ti_noise_reason(TI_NOISE_PREEMPTED), "preempted") == 0 &&
		       ti_noise_reason(1u << TI_NOISE_NBITS) == NULL,
	       "reasons named, unknown bit NULL");
}

/* Fill the stack below the caller with 'X', so that a buffer of a function
 * it calls next that is read before it is written holds garbage rather
 * than a lucky zero. */
static __attribute__((noinline)) void dirty_stack(void)
{
	volatile char junk[65536];

	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = 'X';
}

static const struct ti_env_item *item(const struct ti_env_item *items, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(items[i].name, name) == 0)
			return &items[i];
	return NULL;
}

static void envcheck(void)
{
	char root[] = "/tmp/timeit-env-XXXXXX";
	struct ti_env_item items[TI_ENV_MAX];
	struct ti_cpuset cpus = { 0 };
	size_t n;

	/* The facts are the system's (lib/os.h): these are Linux's files. */
	if (strcmp(ti_os_name(), "linux") != 0) {
		struct ti_envcheck_opts o = { root, NULL, false, false };
		n = ti_envcheck(&o, items);
		TAP_OK(n >= 1 && item(items, n, "load") && item(items, n, "load")->verdict ==
		       TI_VERDICT_UNKNOWN, "%s build: %zu items, load unknown under a fake root",
		       ti_os_name(), n);
		tap_skip("no /proc and /sys checks in a %s build", ti_os_name());
		return;
	}

	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(99);
	}
	/* A 4-CPU machine: two SMT pairs, mixed governors, turbo on, CPU 3
	 * isolated, busy, paranoid 2, ASLR on, bare metal, invariant TSC. */
	put(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
	put(root, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
	put(root, "/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "performance\n");
	put(root, "/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "performance\n");
	put(root, "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0,2\n");
	put(root, "/sys/devices/system/cpu/cpu2/topology/thread_siblings_list", "0,2\n");
	put(root, "/sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "1\n");
	put(root, "/sys/devices/system/cpu/cpu3/topology/thread_siblings_list", "3\n");
	put(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	put(root, "/sys/devices/system/cpu/isolated", "3\n");
	put(root, "/sys/devices/system/cpu/nohz_full", "(null)\n");
	put(root, "/proc/loadavg", "1.50 0.80 0.40 2/300 12345\n");
	put(root, "/proc/sys/kernel/perf_event_paranoid", "2\n");
	put(root, "/proc/sys/kernel/randomize_va_space", "2\n");
	put(root, "/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu tsc constant_tsc nonstop_tsc sse\n");

	static const struct {
		int line;
		const char *cpus;	/* NULL: 0-3 via the fake root's governors */
		bool no_aslr, root_user;
		const char *name, *verdict, *value_has, *fix_has;
	} cases[] = {
		{ __LINE__, "0-3", false, false, "governor cpu0-1", "noisy", "powersave",
		  "frequency-set -g performance" },
		{ __LINE__, "0-3", false, false, "governor cpu2-3", "ok", "performance", NULL },
		{ __LINE__, "0-3", false, false, "turbo", "noisy", "on", "no_turbo" },
		{ __LINE__, "0-3", false, false, "smt", "noisy", "cpu0 shares a core", "smt/control" },
		{ __LINE__, "1", false, false, "smt", "ok", "no sibling", NULL },
		{ __LINE__, "3", false, false, "isolcpus", "ok", "isolated 3, nohz_full none", NULL },
		{ __LINE__, "1", false, false, "isolcpus", "noisy", "isolated 3", "isolcpus=1" },
		{ __LINE__, "0-3", false, false, "load", "noisy", "1.50", "stop other work" },
		{ __LINE__, "0-3", false, false, "perf_event_paranoid", "noisy", "user space only",
		  "perf_event_paranoid=1" },
		{ __LINE__, "0-3", false, true, "perf_event_paranoid", "ok", "running as root", NULL },
		{ __LINE__, "0-3", false, false, "aslr", "noisy", "randomize_va_space 2", "--no-aslr" },
		{ __LINE__, "0-3", true, false, "aslr", "ok", "--no-aslr", NULL },
		{ __LINE__, "0-3", false, false, "hypervisor", "ok", "none", NULL },
		{ __LINE__, "0-3", false, false, "tsc", "ok", "invariant", NULL },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ti_envcheck_opts o = { root, &cpus, cases[i].no_aslr, cases[i].root_user };
		const struct ti_env_item *it;

		ti_cpuset_parse(cases[i].cpus, &cpus);
		n = ti_envcheck(&o, items);
		it = item(items, n, cases[i].name);
		tap_ok(it != NULL, cases[i].line, "item '%s' present", cases[i].name);
		if (!it)
			continue;
		tap_ok(strcmp(ti_verdict_name(it->verdict), cases[i].verdict) == 0, cases[i].line,
		       "%s: %s, want %s (%s)", cases[i].name, ti_verdict_name(it->verdict),
		       cases[i].verdict, it->value);
		tap_ok(strstr(it->value, cases[i].value_has) != NULL, cases[i].line,
		       "%s value '%s' has '%s'", cases[i].name, it->value, cases[i].value_has);
		tap_ok(cases[i].fix_has ? strstr(it->fix, cases[i].fix_has) != NULL : it->fix[0] == '\0',
		       cases[i].line, "%s fix '%s'", cases[i].name, it->fix);
	}

	/* The other kinds of machine: boost instead of no_turbo, a VM flag,
	 * no cpufreq, no TSC flags. */
	put(root, "/proc/cpuinfo", "flags\t: fpu tsc hypervisor\n");
	char path[600];
	snprintf(path, sizeof path, "%s/sys/devices/system/cpu/intel_pstate/no_turbo", root);
	unlink(path);
	put(root, "/sys/devices/system/cpu/cpufreq/boost", "0\n");
	ti_cpuset_parse("4", &cpus);
	struct ti_envcheck_opts o = { root, &cpus, false, false };
	n = ti_envcheck(&o, items);
	const struct ti_env_item *it = item(items, n, "turbo");
	TAP_OK(it && it->verdict == TI_VERDICT_OK && strstr(it->value, "boost 0"), "boost 0: ok");
	it = item(items, n, "hypervisor");
	TAP_OK(it && it->verdict == TI_VERDICT_NOISY, "hypervisor flag: noisy");
	it = item(items, n, "tsc");
	TAP_OK(it && it->verdict == TI_VERDICT_NOISY && strstr(it->value, "not invariant"),
	       "no nonstop_tsc: not invariant");
	it = item(items, n, "governor cpu4");
	TAP_OK(it && it->verdict == TI_VERDICT_UNKNOWN, "no cpufreq: unknown");
	it = item(items, n, "smt");
	TAP_OK(it && it->verdict == TI_VERDICT_UNKNOWN, "no topology: unknown");

	/* nohz_full readable, isolated not (a kernel without isolcpus
	 * support in sysfs): the isolated list is "none", not whatever the
	 * stack held. */
	char only_nohz[] = "/tmp/timeit-env-XXXXXX";
	if (!mkdtemp(only_nohz)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(99);
	}
	put(only_nohz, "/sys/devices/system/cpu/nohz_full", "2-3\n");
	ti_cpuset_parse("3", &cpus);
	struct ti_envcheck_opts nohz = { only_nohz, &cpus, false, false };
	dirty_stack();
	n = ti_envcheck(&nohz, items);
	it = item(items, n, "isolcpus");
	TAP_OK(it && it->verdict == TI_VERDICT_NOISY &&
	       strcmp(it->value, "isolated none, nohz_full 2-3") == 0,
	       "only nohz_full: isolcpus '%s'", it ? it->value : "(missing)");
	snprintf(path, sizeof path, "rm -rf '%s'", only_nohz);
	if (system(path) != 0)
		printf("# could not remove %s\n", only_nohz);

	/* Nothing readable at all: every item unknown, nothing fails. */
	struct ti_envcheck_opts none = { "/nonexistent-timeit-root", &cpus, false, false };
	n = ti_envcheck(&none, items);
	size_t unknown = 0;
	for (size_t i = 0; i < n; i++)
		unknown += items[i].verdict == TI_VERDICT_UNKNOWN ||
			   /* arm64's timer is fixed-rate by definition */
			   (strcmp(items[i].name, "tsc") == 0 && ti_tsc_kind() &&
			    strcmp(ti_tsc_kind(), "cntvct_el0") == 0);
	TAP_OK(n >= 9 && unknown == n, "empty root: %zu items, %zu unknown", n, unknown);

	ti_cpuset_free(&cpus);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
}

int main(void)
{
	cpusets();
	screen();
	envcheck();
	return tap_done();
}
