/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* vgcount.h: exact, repeatable counts without a PMU: the command run once
 * more, after the measured run(s), under valgrind's cachegrind; with its
 * cache simulation, the misses and a cost estimate (valgrind-est-cycles). */
#ifndef TI_VGCOUNT_H
#define TI_VGCOUNT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json.h"
#include "plan.h"
#include "record.h"

enum ti_vgcount_rc {
	TI_VGCOUNT_OK = 0,
	TI_VGCOUNT_NOT_FOUND = -1,	/* no valgrind executable */
	TI_VGCOUNT_SYSTEM = -2,		/* a system call failed: what, err */
	TI_VGCOUNT_EXEC = -3,		/* valgrind could not be executed: err */
	TI_VGCOUNT_TIMEOUT = -4,	/* the extra run reached its time limit */
	TI_VGCOUNT_INTERRUPTED = -5,	/* timeit was interrupted during it */
	TI_VGCOUNT_STATUS = -6,		/* it ended unlike the measured run */
	TI_VGCOUNT_NO_OUTPUT = -7,	/* valgrind wrote no cachegrind file */
	TI_VGCOUNT_BAD_OUTPUT = -8,	/* a cachegrind file without the counts */
	TI_VGCOUNT_FORKED = -9,		/* a process forked without exec */
	TI_VGCOUNT_SKIPPED = -10,	/* the measured run did not exit normally */
	TI_VGCOUNT_INCOMPLETE = -11,	/* a process was killed before it wrote its count */
	TI_VGCOUNT_CPU_LIMIT = -12,	/* the extra run reached --limit-cpu */
	TI_VGCOUNT_NO_MEMORY = -13,	/* valgrind itself ran out of memory */
};

/* Cachegrind's events, by the names of its out file's "events:" line
 * (Valgrind manual, Cachegrind, "Output File Format"): instruction fetches
 * (one per instruction executed), data reads and writes, each with its L1
 * and last-level misses; Bc..Bim only with --branch-sim=yes. */
enum ti_vgcount_event {
	TI_VG_IR, TI_VG_I1MR, TI_VG_ILMR,
	TI_VG_DR, TI_VG_D1MR, TI_VG_DLMR,
	TI_VG_DW, TI_VG_D1MW, TI_VG_DLMW,
	TI_VG_BC, TI_VG_BCM, TI_VG_BI, TI_VG_BIM,
	TI_VG_NEVENTS
};

/* The caches cachegrind simulates: first-level instruction and data, and
 * the last level (the machine's L2 or L3). */
enum ti_vgcount_level { TI_VG_I1, TI_VG_D1, TI_VG_LL, TI_VG_NLEVELS };

/* One simulated cache, as cachegrind's --I1/--D1/--LL=SIZE,ASSOC,LINE:
 * bytes, ways, bytes per line.  All 0: not known. */
struct ti_vgcount_cache {
	uint64_t size, assoc, line;
};

/* What one cachegrind out file says, or the sum of several. */
struct ti_vgcount_totals {
	uint64_t ev[TI_VG_NEVENTS];
	unsigned have;			/* bit 1 << E: event E was in the file */
	struct ti_vgcount_cache cache[TI_VG_NLEVELS];	/* its "desc:" lines */
};

/* The weights of valgrind-est-cycles, in cycles: what an L1 miss, a
 * last-level miss and a mispredicted branch add to the one cycle of each
 * instruction. */
struct ti_vgcount_weights {
	uint64_t l1, ll, mispredict;
};

/* The default weights: the latencies the Valgrind manual gives for a
 * modern machine (Cachegrind, "Overview", Valgrind 3.19): about 10 cycles
 * for an L1 miss, up to 200 for a last-level miss, 10 to 30 for a
 * mispredicted branch (20, the middle).  docs/noise.md has how well
 * the cost tracks time with them. */
#define TI_VGCOUNT_WEIGHT_L1 10
#define TI_VGCOUNT_WEIGHT_LL 200
#define TI_VGCOUNT_WEIGHT_MISPREDICT 20

struct ti_vgcount_opts {
	const char *valgrind;	/* a path, or a name looked up in PATH; NULL: "valgrind" */
	uint64_t timeout_s;	/* limit of the extra run; 0: none */
	bool cache_sim;		/* --cache-sim=yes --branch-sim=yes: misses,
				 * mispredictions and est-cycles too */
	/* --valgrind-i1/-d1/-ll: a geometry for cachegrind instead of the
	 * machine's (an unset level has all 0). */
	struct ti_vgcount_cache cache[TI_VG_NLEVELS];
	struct ti_vgcount_weights weights;
};

struct ti_vgcount_result {
	int rc;				/* enum ti_vgcount_rc */
	bool cache_sim;			/* the counts include the simulation's */
	uint64_t instructions;		/* the sum of Ir over every process */
	struct ti_vgcount_totals totals;	/* every event, summed */
	struct ti_vgcount_weights weights;	/* with cache_sim: of est_cycles */
	uint64_t est_cycles;		/* with cache_sim */
	unsigned processes;		/* cachegrind files summed */
	char valgrind[PATH_MAX];	/* the executable used, absolute */
	char version[32];		/* "3.19.0", or "" when unknown */
	double real_s;			/* wall time of the extra run */
	uint64_t timeout_s;		/* its time limit (0: none) */
	uint64_t limit_cpu;		/* its --limit-cpu, for TI_VGCOUNT_CPU_LIMIT */
	/* How the extra run ended, and the measured run's status, for
	 * TI_VGCOUNT_STATUS. */
	enum ti_end end;
	int status, measured_status;
	/* For TI_VGCOUNT_SYSTEM / _EXEC: the operation or path, errno. */
	const char *what;
	int err;
};

/* Resolve NAME (NULL: "valgrind") as execvp would, to an absolute path in
 * OUT (LEN bytes): a NAME with a slash must be executable, else the first
 * executable match in PATH.  Absolute, because the extra run executes it
 * after its --chdir.  Returns 0, or TI_VGCOUNT_NOT_FOUND. */
int ti_vgcount_find(const char *name, char *out, size_t len);

/* Run PLAN once under cachegrind, with the same limits and the measured
 * run M's redirected input but its output thrown away, and sum the counts
 * of every process into RES.  Only after a run that exited: M->end must be
 * TI_END_EXITED.  Returns RES->rc. */
int ti_vgcount_run(const struct ti_plan *plan, const struct ti_record *m,
		   const struct ti_vgcount_opts *o, struct ti_vgcount_result *res);

/* Parse the text of one cachegrind output file: the "summary:" totals of
 * its events and the caches of its "desc:" lines into T, the "cmd:" line
 * into CMD (LEN bytes, may be truncated).  Returns 0, or
 * TI_VGCOUNT_BAD_OUTPUT when there is no Ir total. */
int ti_vgcount_parse(const char *text, struct ti_vgcount_totals *t, char *cmd, size_t len);

/* The misses of T by cache level, as cachegrind's summary reports them:
 * I1 (I1mr), D1 (D1mr + D1mw), LL (ILmr + DLmr + DLmw). */
uint64_t ti_vgcount_misses(const struct ti_vgcount_totals *t, enum ti_vgcount_level l);

/* The mispredicted branches of T: conditional (Bcm) and indirect (Bim). */
uint64_t ti_vgcount_mispredicts(const struct ti_vgcount_totals *t);

/* valgrind-est-cycles of T into OUT: Ir + W->l1 x (I1 + D1 misses) +
 * W->ll x LL misses + W->mispredict x mispredicts.  Returns 0, or -ERANGE
 * when it does not fit. */
int ti_vgcount_est_cycles(const struct ti_vgcount_totals *t, const struct ti_vgcount_weights *w,
			  uint64_t *out);

/* Parse S, "SIZE,ASSOC,LINE" as cachegrind's --I1/--D1/--LL take it, into
 * C.  Returns NULL, or why S is not a geometry cachegrind can simulate. */
const char *ti_vgcount_cache_parse(const char *s, struct ti_vgcount_cache *c);

/* Parse S, "L1,LL[,MISPREDICT]" (non-negative integers), into W; without
 * the third, W->mispredict is the default, TI_VGCOUNT_WEIGHT_MISPREDICT
 * (so that a repeated option's last use wins whole).  Returns NULL or why
 * not, W unchanged then. */
const char *ti_vgcount_weights_parse(const char *s, struct ti_vgcount_weights *w);

/* The name of level L as cachegrind writes it ("I1", "D1", "LL"). */
const char *ti_vgcount_level_name(enum ti_vgcount_level l);
/* The name of event E in cachegrind's "events:" line ("Ir", ...). */
const char *ti_vgcount_event_name(enum ti_vgcount_event e);

/* What RC means, as a phrase ("valgrind not found"). */
const char *ti_vgcount_strerror(int rc);

/* RES's failure with its details, as one phrase into BUF (LEN bytes). */
void ti_vgcount_describe(const struct ti_vgcount_result *res, char *buf, size_t len);

/* RES as a JSON object under KEY. */
void ti_vgcount_json(struct ti_json *j, const char *key, const struct ti_vgcount_result *res);

#endif
