/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* measure.c: spawn, attach counters, release, wait, read. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "measure.h"

const struct ti_count *ti_record_count(const struct ti_record *r, const char *name)
{
	for (size_t i = 0; i < r->ncounts; i++)
		if (r->counts[i].counted && strcmp(r->counts[i].name, name) == 0)
			return &r->counts[i];
	return NULL;
}

/* Whether an event named NAME or ALIAS (with any :modifiers) was counted. */
static bool counted_as(const struct ti_record *r, const char *name, const char *alias)
{
	for (size_t i = 0; i < r->ncounts; i++) {
		const char *n = r->counts[i].name;
		size_t len = strcspn(n, ":");

		if (r->counts[i].counted && !r->counts[i].from_rusage &&
		    ((len == strlen(name) && strncmp(n, name, len) == 0) ||
		     (len == strlen(alias) && strncmp(n, alias, len) == 0)))
			return true;
	}
	return false;
}

/* Add NAME = VALUE from rusage unless a perf counter already gave it. */
static void add_rusage_count(struct ti_record *r, const char *name, const char *alias,
			     long value)
{
	struct ti_count *k;

	if (counted_as(r, name, alias) || r->ncounts == TI_MAX_EVENTS || value < 0)
		return;
	k = &r->counts[r->ncounts++];
	memset(k, 0, sizeof *k);
	snprintf(k->name, sizeof k->name, "%s", name);
	k->counted = true;
	k->from_rusage = true;
	k->value = (uint64_t)value;
	k->scaled = (double)value;
}

/* The kernel detaches every inherited counter from a process whose exec
 * changes its credentials or makes it undumpable -- a setuid, setgid or
 * file-capability program, or one it may execute but not read
 * (perf_event_exit_task in begin_new_exec, fs/exec.c) -- and so from its
 * descendants: their CPU time is in rusage and in no counter.  A per-task
 * counter's enabled time grows only while a task carrying it runs, so the
 * largest enabled time of the opened counters is the CPU time they saw,
 * whatever they count.  The legitimate gap is the kernel's exit path after
 * the counters stop: about 10 % of a tree of /bin/true, 14 % of a program
 * that touches 512 MiB and exits (timeit(1), MEASUREMENT); a quarter is
 * far beyond it. */
bool ti_record_check_lost(struct ti_record *r)
{
	return ti_record_check_lost_min(r, TI_LOST_MIN_NS);
}

bool ti_record_check_lost_min(struct ti_record *r, double min_ns)
{
	double cpu_ns = (ti_tv_s(r->ru.ru_utime) + ti_tv_s(r->ru.ru_stime)) * 1e9;
	double seen_ns = -1;

	r->counters_seen = -1;
	r->counters_lost = false;
	if (r->end == TI_END_EXEC_FAILED || r->end == TI_END_SETUP_FAILED)
		return false;
	for (size_t i = 0; i < r->ncounts; i++)
		if (r->counts[i].opened && !r->counts[i].from_rusage &&
		    (double)r->counts[i].enabled > seen_ns)
			seen_ns = (double)r->counts[i].enabled;
	if (seen_ns < 0 || cpu_ns <= 0)
		return false;
	r->counters_seen = seen_ns / cpu_ns;
	if (r->counters_seen >= TI_LOST_SEEN_MAX || cpu_ns - seen_ns < min_ns)
		return false;
	r->counters_lost = true;
	for (size_t i = 0; i < r->ncounts; i++) {
		struct ti_count *k = &r->counts[i];

		if (k->opened && !k->from_rusage) {
			k->lost = true;
			k->counted = false;
		}
	}
	return true;
}

int ti_measure(const struct ti_plan *plan, const struct ti_measure_opts *o,
	       struct ti_record *r, struct ti_failure *f)
{
	struct ti_child ch;
	struct ti_counters ctr;
	const struct ti_count *tc;
	bool counting;

	memset(r, 0, sizeof *r);
	r->counters_seen = -1;
	/* Counters open on timeit itself, disabled until exec: the child
	 * inherits them at vfork and they start when it executes the command
	 * (lib/measure/spawn.c).  pid 0 = this process.  They open after the run's
	 * own descriptors: under a low 'ulimit -n' they are the ones to get
	 * EMFILE and fall back, not the pipe the run cannot do without.
	 * With --strict-events there is no fallback, and an event that does
	 * not open must fail the run before the redirect files are opened
	 * (and truncated), so there they open first. */
	counting = o->events && o->events->n > 0;
	if (counting && o->strict_events) {
		ti_counters_open(&ctr, o->ops, o->events, 0);
		for (size_t i = 0; i < ctr.n; i++) {
			if (ctr.count[i].err) {
				f->what = o->events->ev[i].name;
				f->err = ctr.count[i].err;
				ti_counters_close(&ctr);
				return TI_MEASURE_EVENT;
			}
		}
	}
	if (ti_spawn_start(plan, &ch, r, f) < 0) {
		if (counting && o->strict_events)
			ti_counters_close(&ctr);
		return -1;
	}
	if (counting && !o->strict_events)
		ti_counters_open(&ctr, o->ops, o->events, 0);
	if (ti_spawn_run(plan, &ch, r, f) < 0) {
		if (counting)
			ti_counters_close(&ctr);
		return -1;
	}
	if (counting) {
		ti_counters_read(&ctr);
		ti_counters_close(&ctr);
		ti_counters_to_record(&ctr, r);
		ti_record_check_lost(r);
		/* A command that never executed counted nothing, and is
		 * reported as such (127, 126, 66), not as an event failure. */
		bool ran = r->end != TI_END_EXEC_FAILED && r->end != TI_END_SETUP_FAILED;
		for (size_t i = 0; o->strict_events && ran && i < r->ncounts; i++) {
			if (!r->counts[i].counted) {
				f->what = o->events->ev[i].name;
				f->err = r->counts[i].lost ? TI_MEASURE_LOST : r->counts[i].err;
				return TI_MEASURE_EVENT;
			}
		}
	}

	/* The same counts perf's software events give, for the child and its
	 * waited-for descendants, at no cost (see default_events in
	 * lib/measure/events.c). */
	if (o->rusage_counts && r->end != TI_END_EXEC_FAILED && r->end != TI_END_SETUP_FAILED) {
		add_rusage_count(r, "context-switches", "cs", r->ru.ru_nvcsw + r->ru.ru_nivcsw);
		add_rusage_count(r, "page-faults", "faults", r->ru.ru_minflt + r->ru.ru_majflt);
	}

	/* user: task-clock (precise CPU time of the whole tree) when it was
	 * counted, as LLVM's perf-based timeit.sh did; the rusage split is
	 * sampled by the scheduler tick (timeit(1), MEASUREMENT). */
	tc = ti_record_count(r, "task-clock");
	if (tc && !o->rusage_times) {
		r->source = TI_SOURCE_PERF;
		r->user_s = tc->scaled / 1e9;
	} else {
		r->source = TI_SOURCE_RUSAGE;
		r->user_s = ti_tv_s(r->ru.ru_utime);
	}
	r->sys_s = ti_tv_s(r->ru.ru_stime);

	/* The timestamp counter is the portable path's clock, and the rate the
	 * noise screen compares cycles with.  Next to task-clock alone it would
	 * repeat real, at the price of the invariance check's cpuid, which
	 * traps to the hypervisor in a VM (docs/cost.md). */
	r->tsc_valid = r->tsc_kind && (!tc || ti_record_count(r, "cycles")) && ti_tsc_invariant();
	if (!r->tsc_valid)
		r->tsc_ticks = 0;
	return 0;
}
