/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* envcheck.h: what on this machine adds noise to a measurement (--check-env
 * and the "environment" of --json): each fact with a verdict and the
 * command that fixes it. */
#ifndef TI_ENVCHECK_H
#define TI_ENVCHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "cpuset.h"
#include "json.h"

enum ti_verdict { TI_VERDICT_OK, TI_VERDICT_NOISY, TI_VERDICT_UNKNOWN };

struct ti_env_item {
	char name[48];		/* "governor cpu0-3", "turbo", "load", ... */
	char value[160];
	enum ti_verdict verdict;
	char fix[200];		/* the command that fixes it; empty when ok or none */
};

#define TI_ENV_MAX 24

struct ti_envcheck_opts {
	const char *root;	/* prefix of /proc and /sys ("" or NULL: the real ones) */
	const struct ti_cpuset *cpus;	/* the CPUs the command will run on (NULL: timeit's own) */
	bool no_aslr;		/* --no-aslr is given */
	bool root_user;		/* running as root (perf_event_paranoid does not apply) */
};

/* Gather the facts into ITEMS (room for TI_ENV_MAX), those the system
 * has (lib/os.h; on Linux: governor per CPU, CPUs with the same one
 * sharing an item, turbo/boost, SMT siblings of the CPUs,
 * isolcpus/nohz_full, load average, perf_event_paranoid, ASLR,
 * hypervisor, invariant TSC).  Returns the number of items; never fails
 * (a fact that cannot be read is "unknown"). */
size_t ti_envcheck(const struct ti_envcheck_opts *o, struct ti_env_item *items);

/* A new item NAME with verdict V at ITEMS[*N], the rest of it empty, for
 * the system's checks (lib/os.h) to fill in; *N grows by one while there
 * is room (the last slot is reused when there is not). */
struct ti_env_item *ti_env_add(struct ti_env_item *items, size_t *n, const char *name,
			       enum ti_verdict v);

/* "ok", "noisy" or "unknown". */
const char *ti_verdict_name(enum ti_verdict v);

/* ITEMS as a JSON array of {name, value, verdict, fix} under KEY. */
void ti_envcheck_json(struct ti_json *j, const char *key, const struct ti_env_item *items,
		      size_t n);

#endif
