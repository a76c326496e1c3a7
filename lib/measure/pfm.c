/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* pfm.c: libpfm4 encoding and listing (timeit(1), OPTIONS -e; libpfm4 4.13
 * pfm_get_os_event_encoding(3), perf_examples/task.c for the call order). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pfm.h"

#ifdef HAVE_LIBPFM
/* libpfm's perf header expects the kernel's struct perf_event_attr first. */
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#ifndef PFM_LINKED
#include <dlfcn.h>
#endif

/* A dynamically linked timeit loads libpfm4 on first use: linking it would
 * make every start process its relocation tables, about a millisecond,
 * more than all the rest of timeit's own work on a short command, for a
 * library most runs never call.  A static timeit links it (PFM_LINKED):
 * there the tables need no run-time relocation.  The header types every
 * call either way. */
#define PFM_FUNCS(X) \
	X(initialize) X(strerror) X(get_os_event_encoding) \
	X(get_pmu_info) X(get_event_next) X(get_event_info)

static struct {
#define FIELD(name) __typeof__(pfm_##name) *name;
	PFM_FUNCS(FIELD)
#undef FIELD
} pfm;

static int init_rc = 1;		/* 1: not tried yet */

bool ti_pfm_built(void)
{
	return true;
}

static int load(void)
{
#ifdef PFM_LINKED
#define SET(name) pfm.name = pfm_##name;
	PFM_FUNCS(SET)
#undef SET
#else
	void *h = dlopen("libpfm.so.4", RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return -ENOENT;
#define SYM(name) \
	if (!(*(void **)&pfm.name = dlsym(h, "pfm_" #name))) \
		return -ENOENT;
	PFM_FUNCS(SYM)
#undef SYM
#endif
	return pfm.initialize() == PFM_SUCCESS ? 0 : -EIO;
}

int ti_pfm_init(void)
{
	if (init_rc == 1)
		init_rc = load();
	return init_rc;
}

int ti_pfm_encode(const char *str, struct ti_event *e, char *why, size_t len)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	int rc;

	if (why && len)
		why[0] = '\0';
	if (ti_pfm_init() < 0) {
		if (why)
			snprintf(why, len, ti_pfm_init() == -ENOENT ? "libpfm.so.4 cannot be loaded"
							       : "libpfm4 failed to initialise");
		return TI_EEVENT_LIBPFM;
	}
	memset(&attr, 0, sizeof attr);
	memset(&arg, 0, sizeof arg);
	attr.size = sizeof attr;
	arg.attr = &attr;
	arg.size = sizeof arg;
	/* PLM0 | PLM3: kernel and user by default, like perf's generic names;
	 * ":u" or ":k" in STR narrows it. */
	rc = pfm.get_os_event_encoding(str, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc != PFM_SUCCESS) {
		if (why)
			snprintf(why, len, "%s", pfm.strerror(rc));
		return rc == PFM_ERR_NOTFOUND ? TI_EEVENT_UNKNOWN : TI_EEVENT_LIBPFM;
	}
	memset(e, 0, sizeof *e);
	snprintf(e->name, sizeof e->name, "%s", str);
	e->type = attr.type;
	e->config = attr.config;
	e->config1 = attr.config1;
	e->config2 = attr.config2;
	e->exclude_user = attr.exclude_user;
	e->exclude_kernel = attr.exclude_kernel;
	e->exclude_hv = attr.exclude_hv;
	/* _EXT fills sample_period from the event's default; timeit counts,
	 * it never samples, so nothing else of attr is carried over. */
	return 0;
}

int ti_pfm_list(const struct ti_pfm_visitor *v)
{
	pfm_pmu_t p;
	int rc = ti_pfm_init();

	if (rc < 0)
		return rc;
	for (p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pinfo;

		memset(&pinfo, 0, sizeof pinfo);
		pinfo.size = sizeof pinfo;
		if (pfm.get_pmu_info(p, &pinfo) != PFM_SUCCESS)
			continue;
		if (!pinfo.is_present && !v->all_pmus)
			continue;
		if (v->pmu)
			v->pmu(v->arg, pinfo.name, pinfo.desc, pinfo.is_present, pinfo.nevents);
		if (!pinfo.is_present || !v->event)
			continue;
		for (int i = pinfo.first_event; i != -1; i = pfm.get_event_next(i)) {
			pfm_event_info_t einfo;
			char full[256];

			memset(&einfo, 0, sizeof einfo);
			einfo.size = sizeof einfo;
			if (pfm.get_event_info(i, PFM_OS_PERF_EVENT_EXT, &einfo) != PFM_SUCCESS)
				continue;
			snprintf(full, sizeof full, "%s::%s", pinfo.name, einfo.name);
			v->event(v->arg, full, einfo.desc);
		}
	}
	return 0;
}

#else /* !HAVE_LIBPFM */

bool ti_pfm_built(void)
{
	return false;
}

int ti_pfm_init(void)
{
	return -ENOSYS;
}

int ti_pfm_encode(const char *str, struct ti_event *e, char *why, size_t len)
{
	(void)str;
	(void)e;
	if (why && len)
		snprintf(why, len, "built without libpfm4");
	return -ENOSYS;
}

int ti_pfm_list(const struct ti_pfm_visitor *v)
{
	(void)v;
	return -ENOSYS;
}

#endif
