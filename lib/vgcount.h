/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* vgcount.h: an exact instruction count without a PMU: the command run
 * once more, after the measured run(s), under valgrind's cachegrind. */
#ifndef TI_VGCOUNT_H
#define TI_VGCOUNT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json.h"
#include "plan.h"
#include "record.h"

/* How much slower a program runs under cachegrind --cache-sim=no, at most
 * (measured 4.8x for gzip; the Valgrind manual says 10-50x for the heavier
 * tools): the default time limits of the extra run are this many times the
 * measured run's. */
#define TI_VGCOUNT_SLOWDOWN 50

enum ti_vgcount_rc {
	TI_VGCOUNT_OK = 0,
	TI_VGCOUNT_NOT_FOUND = -1,	/* no valgrind executable */
	TI_VGCOUNT_SYSTEM = -2,		/* a system call failed: what, err */
	TI_VGCOUNT_EXEC = -3,		/* valgrind could not be executed: err */
	TI_VGCOUNT_TIMEOUT = -4,	/* the extra run reached its time limit */
	TI_VGCOUNT_INTERRUPTED = -5,	/* timeit was interrupted during it */
	TI_VGCOUNT_STATUS = -6,		/* it ended unlike the measured run */
	TI_VGCOUNT_NO_OUTPUT = -7,	/* valgrind wrote no cachegrind file */
	TI_VGCOUNT_BAD_OUTPUT = -8,	/* a cachegrind file without an Ir total */
	TI_VGCOUNT_FORKED = -9,		/* a process forked without exec */
	TI_VGCOUNT_SKIPPED = -10,	/* the measured run did not run to an end */
	TI_VGCOUNT_INCOMPLETE = -11,	/* a process was killed before it wrote its count */
};

struct ti_vgcount_opts {
	const char *valgrind;	/* a path, or a name looked up in PATH; NULL: "valgrind" */
	uint64_t timeout_s;	/* limit of the extra run; 0: none */
};

struct ti_vgcount_result {
	int rc;				/* enum ti_vgcount_rc */
	uint64_t instructions;		/* the sum of Ir over every process */
	unsigned processes;		/* cachegrind files summed */
	char valgrind[PATH_MAX];	/* the executable used */
	char version[32];		/* "3.19.0", or "" when unknown */
	double real_s;			/* wall time of the extra run */
	uint64_t timeout_s;		/* its time limit (0: none) */
	/* How the extra run ended, and the measured run's status, for
	 * TI_VGCOUNT_STATUS. */
	enum ti_end end;
	int status, measured_status;
	/* For TI_VGCOUNT_SYSTEM / _EXEC: the operation or path, errno. */
	const char *what;
	int err;
};

/* Resolve NAME (NULL: "valgrind") as execvp would: a NAME with a slash must
 * be executable, else the first executable match in PATH goes to OUT.
 * Returns 0, or TI_VGCOUNT_NOT_FOUND. */
int ti_vgcount_find(const char *name, char *out, size_t len);

/* Run PLAN once under cachegrind, with the measured run M's redirected
 * input but its output thrown away, and sum the instruction count of every
 * process into RES.  Returns RES->rc. */
int ti_vgcount_run(const struct ti_plan *plan, const struct ti_record *m,
		   const struct ti_vgcount_opts *o, struct ti_vgcount_result *res);

/* Parse the text of one cachegrind output file: the "summary:" total of
 * the Ir event into IR and the "cmd:" line into CMD (LEN bytes, may be
 * truncated).  Returns 0 or TI_VGCOUNT_BAD_OUTPUT. */
int ti_vgcount_parse(const char *text, uint64_t *ir, char *cmd, size_t len);

/* What RC means, as a phrase ("valgrind not found"). */
const char *ti_vgcount_strerror(int rc);

/* RES's failure with its details, as one phrase into BUF (LEN bytes). */
void ti_vgcount_describe(const struct ti_vgcount_result *res, char *buf, size_t len);

/* RES as a JSON object under KEY. */
void ti_vgcount_json(struct ti_json *j, const char *key, const struct ti_vgcount_result *res);

#endif
