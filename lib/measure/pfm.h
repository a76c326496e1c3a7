/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* pfm.h: libpfm4 event strings ("INST_RETIRED.ANY_P:u", "perf::cycles")
 * encoded into perf_event_attr fields, and libpfm4's PMU/event tables.
 * Built without libpfm4 every function reports -ENOSYS. */
#ifndef TI_PFM_H
#define TI_PFM_H

#include <stdbool.h>
#include <stddef.h>

#include "events.h"

/* True when this build uses libpfm4. */
bool ti_pfm_built(void);

/* Initialise libpfm4 once.  Returns 0, -ENOSYS without libpfm4, or -EIO
 * when pfm_initialize failed. */
int ti_pfm_init(void);

/* Encode STR with libpfm4 into E (name, type, config, config1, config2,
 * exclude_*), counting user and kernel unless STR says otherwise.
 * Returns 0, TI_EEVENT_UNKNOWN when libpfm4 knows no such event,
 * TI_EEVENT_LIBPFM for another libpfm4 error (text in WHY, size LEN), or
 * -ENOSYS without libpfm4. */
int ti_pfm_encode(const char *str, struct ti_event *e, char *why, size_t len);

/* What ti_pfm_list reports: one PMU, then (when listed) its events. */
struct ti_pfm_visitor {
	void (*pmu)(void *arg, const char *name, const char *desc, bool present, int nevents);
	/* FULLNAME is "pmu::event", a string ti_pfm_encode accepts. */
	void (*event)(void *arg, const char *fullname, const char *desc);
	void *arg;
	bool all_pmus;		/* also PMUs not present on this machine (names only) */
};

/* Walk libpfm4's PMUs; the events of every present PMU are reported after
 * it.  Returns 0 or -ENOSYS / -EIO. */
int ti_pfm_list(const struct ti_pfm_visitor *v);

#endif
