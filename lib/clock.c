/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* clock.c: clocks and the per-architecture timestamp counter. */
#include "config.h"

#include <time.h>

#include "clock.h"

static int64_t now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t ti_clock_mono_ns(void)
{
	return now(CLOCK_MONOTONIC);
}

int64_t ti_clock_real_ns(void)
{
	return now(CLOCK_REALTIME);
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

const char *ti_tsc_kind(void)
{
	return "rdtsc";
}

uint64_t ti_tsc_read(void)
{
	uint32_t lo, hi;

	/* rdtsc is in every x86-64 CPU; rdtscp is not (some CPUs and VMs lack
	 * it: SIGILL), and asking cpuid first traps to the hypervisor.  lfence
	 * keeps rdtsc from running ahead of earlier instructions (Intel SDM
	 * vol. 2, RDTSC; Linux makes lfence dispatch-serializing on AMD). */
	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/* CPUID leaf 0x80000007, EDX bit 8: invariant TSC (Intel SDM vol. 3,
 * 17.17.1; AMD APM vol. 3, CPUID Fn8000_0007).  Linux derives both
 * constant_tsc and nonstop_tsc from it; asking the CPU costs far less than
 * reading /proc/cpuinfo after every run. */
bool ti_tsc_invariant(void)
{
	/* Asked once per process: in a VM cpuid traps to the hypervisor
	 * (about 15 us for the pair here, docs/cost.md). */
	static int known = -1;
	unsigned int eax, ebx, ecx, edx;

	if (known < 0) {
		known = __get_cpuid(0x80000000, &eax, &ebx, &ecx, &edx) && eax >= 0x80000007 &&
			(__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx), (edx >> 8) & 1);
	}
	return known;
}
#elif defined(__aarch64__)
const char *ti_tsc_kind(void)
{
	return "cntvct_el0";
}

uint64_t ti_tsc_read(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

bool ti_tsc_invariant(void)
{
	return true;	/* the generic timer runs at the fixed cntfrq_el0 rate */
}
#else
const char *ti_tsc_kind(void)
{
	return NULL;
}

uint64_t ti_tsc_read(void)
{
	return 0;
}

bool ti_tsc_invariant(void)
{
	return false;
}
#endif
