/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* host.h: facts about the machine a run was measured on. */
#ifndef TI_HOST_H
#define TI_HOST_H

struct ti_host {
	char hostname[256];
	char kernel[200];	/* uname -sr */
	char arch[72];
	char cpu_model[256];
	int perf_event_paranoid;	/* -100 when unknown */
	int ncpus;
};

/* Gather the facts; never fails (unknown fields stay empty). */
void ti_host_get(struct ti_host *h);

#endif
