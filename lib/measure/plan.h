/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* plan.h: the run plan, what the options produce and spawn consumes. */
#ifndef TI_PLAN_H
#define TI_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "cpuset.h"

/* The reference's seven --limit-* options, in the order they are applied. */
enum ti_limit {
	TI_LIMIT_CPU,
	TI_LIMIT_STACK,
	TI_LIMIT_DATA,
	TI_LIMIT_RSS,
	TI_LIMIT_FSIZE,
	TI_LIMIT_CORE,
	TI_LIMIT_NOFILE,
	TI_LIMIT_NPROC,
	TI_LIMIT_COUNT
};

struct ti_plan {
	char *const *argv;		/* the command, passed unchanged to execvp */
	const char *chdir;		/* child changes directory, or NULL */
	const char *redirect_input;	/* stdin from this file, or NULL */
	const char *redirect_stdout;	/* --redirect-stdout, or --redirect-output */
	const char *redirect_stderr;	/* --redirect-stderr, or --redirect-output */
	uint64_t timeout_s;		/* 0: none */
	bool limit_set[TI_LIMIT_COUNT];
	uint64_t limit[TI_LIMIT_COUNT];
	/* Noise control (lib/measure/spawn.c): the CPUs are set on timeit itself
	 * before the run and inherited; ASLR is turned off by the child just
	 * before exec.  Both last through exec. */
	bool pin;			/* --cpu: ti_os_set_affinity(cpus) */
	struct ti_cpuset cpus;
	bool no_aslr;			/* --no-aslr: ti_os_no_aslr() */
};

/* Name of a limit as the warning and the JSON name it ("cpu", "core", ...). */
const char *ti_limit_name(enum ti_limit l);

#endif
