/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* set.h: the benchmark set of one side of a comparison: every run of
 * each benchmark, as the readers (read.h) fill it and the verdict
 * (verdict.h) reads it, found by name through a hash index.  Nothing here
 * reads a file or knows a format. */
#ifndef TI_AB_SET_H
#define TI_AB_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The round a run belongs to: the position of its input among the paths
 * of its side (high 32 bits, from 1) and its sample number within that
 * input (low 32 bits: the I of NAME.I.time or of a directory I/; 0 when
 * it has none, as the runs of a timeit --json file and the samples of an
 * LNT list, which ran back to back on their side).  Interleaved runs of A
 * and B with one key shared the machine's state: timeit-compare pairs
 * them; a key twice on a side means runs no round tells apart. */
#define TI_AB_ROUND(pos, idx) (((uint64_t)(pos) << 32) | (uint32_t)(idx))

struct ti_ab_sample {
	double value;		/* the chosen metric; NAN: the run lacks it */
	double insn;		/* hardware instruction count, NAN: none */
	double vg_insn;		/* valgrind's exact instruction count, NAN: none */
	double est_cycles;	/* valgrind's estimated cycles (cache simulation), NAN: none */
	uint64_t round;		/* TI_AB_ROUND */
	unsigned flags;		/* timeit's noise-flags for the run (0: clean or unknown) */
	bool failed;		/* a non-zero exit status, a failing lit code, a wrong output */
};

/* Where a benchmark's binary identity came from: identities compare only
 * within one kind. */
enum ti_ab_hash_kind {
	TI_AB_HASH_NONE,
	TI_AB_HASH_REPORTED,	/* lit's hash metric, a report's "hash" (the stripped binary) */
	TI_AB_HASH_FILE,	/* the binary's bytes, from --binaries */
};

struct ti_ab_bench {
	char *name;
	struct ti_ab_sample *s;	/* every run read, in the order read */
	size_t n, cap;
	size_t ok;		/* runs that succeeded and have the metric */
	size_t failures;	/* runs that failed */
	size_t lacking;		/* runs that succeeded without the metric */
	size_t flagged;		/* successful runs with the metric and noise flags */
	size_t nulls;		/* null samples left out (ti_ab_set.drop_nulls) */
	char *failed_in;	/* where the first failure was recorded */
	char *hash;		/* binary identity, or NULL */
	enum ti_ab_hash_kind hash_kind;
	bool hash_mixed;	/* runs reported different identities */
	char *geometry;		/* the caches and weights valgrind-est-cycles came from */
	bool geometry_mixed;	/* runs simulated different ones */
};

/* What a report says of its run as a whole (LNT reports; "" where the
 * format has none), for a history of runs (timeit-series): the first
 * report read into a set gives them. */
struct ti_ab_run_info {
	char machine[256];	/* the machine's name */
	char order[256];	/* the run order (LNT's llvm_project_revision, run_order) */
	char start[64];		/* the start time, as written */
};

struct ti_ab_set {
	struct ti_ab_bench *b;
	size_t n, cap;
	/* The benchmarks by name (set.c): an open-addressing hash table of
	 * positions in B plus 1 (0: empty), valid while INDEXED == N; a set
	 * built by hand without it is searched in order. */
	size_t *slot, nslot, indexed;
	size_t skipped;		/* unreadable subdirectories left out */
	char skipped_first[1024];	/* the first of them, with why */
	struct ti_ab_run_info run;
	/* Set by the caller before reading: a NaN or infinite value is an
	 * error (a history's night has no level to take from it), not a
	 * failed run (a comparison counts it and goes on). */
	bool refuse_nonfinite;
	/* Set by the caller before reading: a null in a list of samples (an
	 * LNT server's row without the metric) is left out and counted in
	 * its benchmark's NULLS, not an error. */
	bool drop_nulls;
};

/* Record run S of NAME in SET (S.failed, or S.value NAN: lacking the
 * metric); WHERE names the file of a failure.  Returns 0 or -ENOMEM. */
int ti_ab_set_add_run(struct ti_ab_set *set, const char *name, struct ti_ab_sample s,
		      const char *where);

/* Count a null sample of NAME, left out (SET->drop_nulls).  Returns 0 or
 * -ENOMEM. */
int ti_ab_set_add_null(struct ti_ab_set *set, const char *name);

/* Record that NAME's run simulated the cache GEOMETRY (its caches and
 * weights, as one text).  Returns 0 or -ENOMEM. */
int ti_ab_set_add_geometry(struct ti_ab_set *set, const char *name, const char *geometry);

/* Record that NAME's binary has identity HASH of KIND (a binary's own
 * outranks a reported one).  Returns 0 or -ENOMEM. */
int ti_ab_set_add_hash(struct ti_ab_set *set, const char *name, const char *hash,
		       enum ti_ab_hash_kind kind);

/* The hash of a benchmark's name, for the set's index and the readers'
 * tables. */
uint64_t ti_ab_set_hash(const char *s);

/* The benchmark called NAME in SET, or NULL. */
struct ti_ab_bench *ti_ab_find(const struct ti_ab_set *set, const char *name);

/* Sort SET's benchmarks by name. */
void ti_ab_sort(struct ti_ab_set *set);

/* One name for a benchmark whatever the format of each side: a results
 * directory names the suite's benchmark "tak", its LNT report
 * "SingleSource/Benchmarks/tak".  A bare name (no '/') found on one side
 * only takes the name of the benchmark of the other side whose last path
 * component it is, when that benchmark is the only one there with that
 * component and is itself on that side only; distinct paths (two suites'
 * x) are never merged.  Sorts both sets when it renames any.  Returns the
 * number of benchmarks renamed, or -ENOMEM. */
int ti_ab_align(struct ti_ab_set *a, struct ti_ab_set *b);

/* Free everything SET owns and empty it. */
void ti_ab_set_free(struct ti_ab_set *set);

#endif
