/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read.h: load the benchmark results of one side of a comparison (timeit
 * summary files and directories of them, timeit --json, lit -o JSON, LNT
 * report JSON format 1 and 2) into a set of benchmarks, each with every
 * run read.  One reader per format (read-*.c), chosen from the table in
 * read.c. */
#ifndef TI_AB_READ_H
#define TI_AB_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The round a run belongs to: the position of its input among the paths
 * of its side (high 32 bits, from 1) and its sample number within that
 * input (low 32 bits: the I of NAME.I.time or of a directory I/, the
 * position of a run in a timeit --json file or of a sample in an LNT
 * list; 0 when it has none).  Interleaved runs of A and B with one key
 * shared the machine's state: timeit-compare pairs them. */
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
	/* The benchmarks by name (read.c): an open-addressing hash table of
	 * positions in B plus 1 (0: empty), valid while INDEXED == N; a set
	 * built by hand without it is searched in order. */
	size_t *slot, nslot, indexed;
	size_t skipped;		/* unreadable subdirectories left out */
	char skipped_first[1024];	/* the first of them, with why */
	struct ti_ab_run_info run;
};

struct ti_ab_error {
	char path[4096];	/* the offending file */
	int line;		/* 1-based, or 0 when the whole file is meant */
	char what[256];
};

/* Add the benchmarks found at PATH (a file or a directory searched for
 * *.time files, and *.time.wrong-output files as failed runs) to SET,
 * taking METRIC (exec_time, real, sys, maxrss, hash or a counter/key
 * name) from each run; POS (from 1) is the position of PATH among its
 * side's paths, the high half of each run's round key.  A subdirectory
 * that cannot be read is left out and counted in SET->skipped.  Returns
 * the number of runs read, or -errno / -EINVAL with ERR describing the
 * problem. */
int ti_ab_read(struct ti_ab_set *set, const char *path, const char *metric, unsigned pos,
	       struct ti_ab_error *err);

/* Whether a results directory is read for the file NAME (a base name or a
 * path): a summary, NAME.time, or a failed run's NAME.time.wrong-output. */
bool ti_ab_read_is_summary(const char *name);

/* Record the identity of each benchmark of SET from its binary under DIR
 * (DIR/NAME, else DIR/BASENAME, each also without a ".test" suffix): a
 * digest of its bytes, kind TI_AB_HASH_FILE.  Benchmarks without a binary
 * there keep what they had.  Returns how many were found, or -errno with
 * ERR naming the problem (DIR unreadable, a binary that cannot be read). */
int ti_ab_read_binaries(struct ti_ab_set *set, const char *dir, struct ti_ab_error *err);

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
 * x) are never merged.  Sorts both sets when it renames any.  Returns the number of
 * benchmarks renamed, or -ENOMEM. */
int ti_ab_align(struct ti_ab_set *a, struct ti_ab_set *b);

/* A result of lit's -o file: FULL, its name as lit wrote it ("SUITE ::
 * X.test", a micro-result "SUITE :: X.test:KEY"); NAME, the benchmark
 * name ti_ab_read gives it; UNIT, the lit test it belongs to (a
 * micro-result's test, lit's reports.py writing it just before). */
struct ti_ab_lit_test {
	char *full, *name, *unit;
};

/* The results of lit's -o file PATH, in the file's order, into *TESTS
 * (*N, malloc'd; free with ti_ab_lit_tests_free).  Returns 0, -errno or
 * -EINVAL with ERR (not lit's -o JSON, a test without a name, a name
 * twice). */
int ti_ab_read_lit_tests(const char *path, struct ti_ab_lit_test **tests, size_t *n,
			 struct ti_ab_error *err);
void ti_ab_lit_tests_free(struct ti_ab_lit_test *tests, size_t n);

/* Free everything SET owns and empty it. */
void ti_ab_set_free(struct ti_ab_set *set);

/* The benchmark name a result file stands for: RELPATH relative to its
 * root directory, without all-digit directory components (sample
 * directories), without the extension EXT (e.g. ".time") and without a
 * trailing sample number (".3").  Writes at most LEN bytes to OUT; the
 * sample number (of the file, else of its last sample directory; 0: none)
 * goes to *SAMPLE when SAMPLE is not NULL. */
void ti_ab_bench_name(const char *relpath, const char *ext, char *out, size_t len,
		      uint32_t *sample);

#endif
