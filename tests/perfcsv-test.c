/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* perfcsv-test: perf stat's -x output read into a record (lib/measure/perfcsv.c):
 * counted, not counted and not supported events, the tool events, the
 * ":u" of an unprivileged perf, multiplexing and a PMU name with commas. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "perfcsv.h"
#include "tap.h"

static struct ti_record r;
static struct ti_perfcsv_times t;

static size_t read_csv(const char *text, char sep, const char *asked)
{
	memset(&r, 0, sizeof r);
	return ti_perfcsv_read(text, strlen(text), sep, asked, &r, &t);
}

int main(void)
{
	/* What perf 6.1 wrote here for the default events (no PMU). */
	size_t n = read_csv("# started on Fri Dec  4 03:29:22 2026\n\n"
			    "1.00\tmsec\ttask-clock\t1002601\t100.00\t0.147\tCPUs utilized\n"
			    "<not supported>\t\tcycles\t0\t100.00\t\t\n"
			    "<not counted>\t\tinstructions\t0\t0.00\t\t\n"
			    "6824436\tns\tduration_time\t6824436\t100.00\t6.807\tG/sec\n"
			    "2278000\tns\tuser_time\t2278000\t100.00\t2.272\tG/sec\n"
			    "<not counted>\tns\tsystem_time\t0\t100.00\t\t\n", '\t', NULL);
	TAP_OK(n == 6, "six event lines (got %zu)", n);
	TAP_OK(r.ncounts == 3, "three counts, the tool events apart (got %zu)", r.ncounts);
	TAP_OK(strcmp(r.counts[0].name, "task-clock") == 0 && r.counts[0].counted &&
	       fabs(r.counts[0].scaled - 1e6) < 1e-3, "task-clock 1.00 ms is 1e6 ns (%g)",
	       r.counts[0].scaled);
	TAP_OK(r.counts[0].running == r.counts[0].enabled, "task-clock ran all the time");
	TAP_OK(!r.counts[1].opened && r.counts[1].err == ENOENT, "<not supported>: skipped, ENOENT");
	TAP_OK(r.counts[2].opened && !r.counts[2].counted, "<not counted>: opened, not counted");
	TAP_OK(fabs(t.duration_s - 0.006824436) < 1e-12, "duration_time in seconds (%g)", t.duration_s);
	TAP_OK(fabs(t.user_s - 0.002278) < 1e-12, "user_time (%g)", t.user_s);
	TAP_OK(t.sys_s == 0, "a tool event <not counted> is 0 (%g)", t.sys_s);
	TAP_OK(fabs(t.seen_ns - 1002601) < 1, "the counters saw 1002601 ns (%g)", t.seen_ns);

	/* perf_event_paranoid 2: ":u" on every name, kept where asked for. */
	read_csv("5\t\tcycles:u\t1000\t50.00\t\t\n7\t\tinstructions:u\t10\t100.00\t\t\n", '\t',
		 "cycles,instructions:u");
	TAP_OK(strcmp(r.counts[0].name, "cycles") == 0, "cycles:u is cycles (%s)", r.counts[0].name);
	TAP_OK(strcmp(r.counts[1].name, "instructions:u") == 0, "instructions:u asked for stays");
	/* Multiplexed: enabled is run time over the fraction running. */
	TAP_OK(r.counts[0].running == 1000 && r.counts[0].enabled == 2000,
	       "50%% running: enabled 2000 (%llu)", (unsigned long long)r.counts[0].enabled);
	TAP_OK(fabs(t.seen_ns - 2000) < 1e-9, "seen is the largest enabled time (%g)", t.seen_ns);
	TAP_OK(t.duration_s == -1 && t.user_s == -1, "no tool events: -1");

	/* A PMU event with commas, which is why timeit-perf asks for tabs. */
	read_csv("17\t\tsoftware/config=1,config1=0/\t5\t100.00\t\t\n", '\t', NULL);
	TAP_OK(r.ncounts == 1 && strcmp(r.counts[0].name, "software/config=1,config1=0/") == 0,
	       "a PMU name whole (%s)", r.ncounts ? r.counts[0].name : "");
	/* No newline at the end; short lines and comments skipped. */
	n = read_csv("# x\n1\t\n\n3\t\tpage-faults", '\t', NULL);
	TAP_OK(n == 1 && r.ncounts == 1 && r.counts[0].value == 3 && r.counts[0].running == 1,
	       "the last line without a newline (%zu)", n);
	/* A number beyond a double, or not one: no count, no time (never
	 * "inf" in a summary); duration_time not counted: no wall time, as
	 * timeit-perf's own clock stands. */
	read_csv("1e999\tmsec\ttask-clock\t5\t100.00\t\t\n"
		 "nan\t\tpage-faults\t5\t100.00\t\t\n"
		 "<not counted>\tns\tduration_time\t0\t100.00\t\t\n"
		 "1e999\tns\tuser_time\t0\t100.00\t\t\n", '\t', NULL);
	TAP_OK(r.ncounts == 2 && !r.counts[0].counted && !r.counts[1].counted,
	       "1e999 and nan: not counted (%d %d)", r.counts[0].counted, r.counts[1].counted);
	TAP_OK(t.duration_s == -1, "duration_time <not counted>: none (%g)", t.duration_s);
	TAP_OK(isfinite(t.user_s) && t.user_s == 0, "user_time 1e999: 0, finite (%g)", t.user_s);
	read_csv("1e999\tns\tduration_time\t0\t100.00\t\t\n", '\t', NULL);
	TAP_OK(t.duration_s == -1, "duration_time 1e999: none (%g)", t.duration_s);
	/* More events than a record holds: the rest is dropped, not overrun. */
	char many[40 * 16 + 1] = "";
	for (int i = 0; i < 40; i++)
		strcat(many, "1\t\tpage-faults\n");
	read_csv(many, '\t', NULL);
	TAP_OK(r.ncounts == TI_MAX_EVENTS, "at most %d counts (%zu)", TI_MAX_EVENTS, r.ncounts);
	return tap_done();
}
