/* clock.c: clocks and the per-architecture timestamp counter. */
#include "config.h"

#include <stdio.h>
#include <string.h>
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
const char *ti_tsc_kind(void)
{
	return "rdtscp";
}

uint64_t ti_tsc_read(void)
{
	uint32_t lo, hi, aux;

	/* rdtscp waits for earlier instructions; plain rdtsc does not. */
	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	return (uint64_t)hi << 32 | lo;
}

bool ti_tsc_invariant(void)
{
	char line[4096];
	bool constant = false, nonstop = false;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		constant = strstr(line, " constant_tsc") != NULL;
		nonstop = strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	fclose(f);
	return constant && nonstop;
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
