/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* noise.c: flag runs whose numbers the machine, not the command, disturbed. */
#include "config.h"

#include <string.h>

#include "noise.h"

/* The counted event whose base name (before any ":modifier") is NAME or
 * ALIAS and that counted both user and kernel time; NULL when none. */
static const struct ti_count *count_base(const struct ti_record *r, const char *name,
					 const char *alias, bool any_modifier)
{
	for (size_t i = 0; i < r->ncounts; i++) {
		const struct ti_count *k = &r->counts[i];
		size_t len = strcspn(k->name, ":");

		if (!k->counted || (!any_modifier && (k->name[len] || k->user_only)))
			continue;
		if ((strlen(name) == len && strncmp(k->name, name, len) == 0) ||
		    (alias && strlen(alias) == len && strncmp(k->name, alias, len) == 0))
			return k;
	}
	return NULL;
}

void ti_noise_screen(const struct ti_record *r, struct ti_noise *n)
{
	const struct ti_count *k, *cyc, *tc;
	/* CPU time of the tree: task-clock already holds the kernel's part. */
	double cpu_s = r->source == TI_SOURCE_PERF ? r->user_s : r->user_s + r->sys_s;

	memset(n, 0, sizeof *n);
	/* A migration costs the command its warm caches and branch state; any
	 * modifier counts, since migrations are a software event. */
	n->migrations = -1;
	if ((k = count_base(r, "cpu-migrations", "migrations", true)) != NULL) {
		n->migrations = k->scaled;
		if (k->scaled > 0)
			n->flags |= TI_NOISE_MIGRATED;
	}
	/* Measured here (2-core VM, a 0.5 s CPU-bound command): about 28 per
	 * second when alone (real = user), 180-420 per second while another
	 * task shared the CPU (real 12-80 % above user).  The limit lies
	 * between the two. */
	n->nivcsw = r->ru.ru_nivcsw;
	n->nivcsw_limit = TI_NOISE_PREEMPT_BASE + (long)(TI_NOISE_PREEMPT_PER_S * cpu_s);
	if (n->nivcsw > n->nivcsw_limit)
		n->flags |= TI_NOISE_PREEMPTED;
	n->majflt = r->ru.ru_majflt;
	if ((k = count_base(r, "major-faults", NULL, true)) != NULL && k->scaled > n->majflt)
		n->majflt = (long)k->scaled;
	if (n->majflt > 0)
		n->flags |= TI_NOISE_MAJOR_FAULTS;
	/* Cycles per nanosecond of CPU time is the clock the command ran at
	 * (perf stat prints it as "GHz").  Under the TSC's nominal rate the
	 * core was throttled or not yet ramped up by the governor.  Both
	 * events must count kernel time too, or the ratio means nothing. */
	cyc = count_base(r, "cycles", "cpu-cycles", false);
	tc = count_base(r, "task-clock", NULL, false);
	if (cyc && tc && tc->scaled > 0)
		n->clock_ghz = cyc->scaled / tc->scaled;
	if (r->tsc_valid && r->real_s > 0)
		n->tsc_ghz = (double)r->tsc_ticks / r->real_s / 1e9;
	if (n->clock_ghz > 0 && n->tsc_ghz > 0 && n->clock_ghz < TI_NOISE_CLOCK_MIN * n->tsc_ghz)
		n->flags |= TI_NOISE_SLOW_CLOCK;
	for (size_t i = 0; i < r->ncounts; i++)
		if (r->counts[i].counted && r->counts[i].running < r->counts[i].enabled)
			n->flags |= TI_NOISE_MULTIPLEXED;
}

const char *ti_noise_reason(unsigned bit)
{
	switch (bit) {
	case TI_NOISE_MIGRATED: return "cpu-migrations";
	case TI_NOISE_PREEMPTED: return "preempted";
	case TI_NOISE_MAJOR_FAULTS: return "major-faults";
	case TI_NOISE_SLOW_CLOCK: return "slow-clock";
	case TI_NOISE_MULTIPLEXED: return "multiplexed";
	}
	return NULL;
}

void ti_noise_json(struct ti_json *j, const char *key, const struct ti_record *r)
{
	struct ti_noise n;

	ti_noise_screen(r, &n);
	ti_json_object(j, key);
	ti_json_uint(j, "flags", n.flags);
	ti_json_array(j, "reasons");
	for (unsigned b = 0; b < TI_NOISE_NBITS; b++)
		if (n.flags & (1u << b))
			ti_json_string(j, NULL, ti_noise_reason(1u << b));
	ti_json_end(j, ']');
	ti_json_int(j, "involuntary_switches", n.nivcsw);
	ti_json_int(j, "involuntary_switches_limit", n.nivcsw_limit);
	if (n.migrations >= 0)
		ti_json_double(j, "cpu_migrations", n.migrations);
	ti_json_int(j, "major_faults", n.majflt);
	if (n.clock_ghz > 0)
		ti_json_double(j, "clock_ghz", n.clock_ghz);
	if (n.tsc_ghz > 0)
		ti_json_double(j, "tsc_ghz", n.tsc_ghz);
	ti_json_end(j, '}');
}
