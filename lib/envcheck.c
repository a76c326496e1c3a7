/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* envcheck.c: what adds noise to a measurement on this machine.  The
 * facts themselves are the system's (ti_os_envcheck, lib/os.h); here are
 * the items, their verdicts and their JSON. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "envcheck.h"
#include "os.h"

const char *ti_verdict_name(enum ti_verdict v)
{
	switch (v) {
	case TI_VERDICT_OK: return "ok";
	case TI_VERDICT_NOISY: return "noisy";
	case TI_VERDICT_UNKNOWN: return "unknown";
	}
	return "unknown";
}

struct ti_env_item *ti_env_add(struct ti_env_item *items, size_t *n, const char *name,
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

/* The CPUs to look at: the chosen ones, else those timeit may run on,
 * else those online, else CPU 0 up to the number online.  Returns 0 or
 * -ENOMEM. */
static int target_cpus(const struct ti_envcheck_opts *o, struct ti_cpuset *set)
{
	long n;
	int rc;

	if (o->cpus)
		return ti_cpuset_copy(set, o->cpus);
	if (ti_os_get_affinity(set) == 0 || ti_os_online_cpus(o->root, set) == 0)
		return 0;
	ti_cpuset_clear(set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	for (long c = 0; c < n; c++)
		if ((rc = ti_cpuset_add(set, (unsigned long)c)) < 0)
			return rc;
	return 0;
}

size_t ti_envcheck(const struct ti_envcheck_opts *o, struct ti_env_item *items)
{
	struct ti_envcheck_opts d = *o;
	struct ti_cpuset cpus = { 0 };
	size_t n = 0;

	if (!d.root)
		d.root = "";
	/* Out of memory: the checks still run, on no CPU. */
	if (target_cpus(&d, &cpus) < 0)
		ti_cpuset_clear(&cpus);
	ti_os_envcheck(&d, &cpus, items, &n);
	ti_cpuset_free(&cpus);
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
