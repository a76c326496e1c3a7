/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read.h: load the benchmark results of one side of a comparison (timeit
 * summary files and directories of them, timeit --json, lit -o JSON, LNT
 * report JSON) and merge the samples of each benchmark.  One reader per
 * format (read-*.c), chosen from the table in read.c. */
#ifndef TI_AB_READ_H
#define TI_AB_READ_H

#include <stddef.h>

/* One successful run.  NAN marks a value the run does not have. */
struct ti_ab_sample {
	double value;		/* the chosen metric */
	double insn;		/* hardware instruction count */
	double vg_insn;		/* valgrind's exact instruction count */
};

struct ti_ab_bench {
	char *name;
	struct ti_ab_sample *s;	/* successful runs that have the metric */
	size_t n, cap;
	size_t failures;	/* runs with a non-zero exit status or a failing code */
	size_t lacking;		/* successful runs without the metric */
	char *failed_in;	/* where the first failure was recorded */
};

struct ti_ab_set {
	struct ti_ab_bench *b;
	size_t n, cap;
};

struct ti_ab_error {
	char path[1024];	/* the offending file */
	int line;		/* 1-based, or 0 when the whole file is meant */
	char what[256];
};

/* Add the benchmarks found at PATH (a file or a directory searched for
 * *.time files, and *.time.wrong-output files as failed runs) to SET,
 * taking METRIC (exec_time, real, sys, maxrss or a counter/key name) from
 * each run.  Returns the number of runs read, or -errno / -EINVAL with ERR
 * describing the problem. */
int ti_ab_read(struct ti_ab_set *set, const char *path, const char *metric,
	       struct ti_ab_error *err);

/* The benchmark called NAME in SET, or NULL. */
struct ti_ab_bench *ti_ab_find(const struct ti_ab_set *set, const char *name);

/* Sort SET's benchmarks by name. */
void ti_ab_sort(struct ti_ab_set *set);

/* Free everything SET owns and empty it. */
void ti_ab_set_free(struct ti_ab_set *set);

/* The benchmark name a result file stands for: PATH relative to its root
 * directory, without all-digit directory components (sample directories),
 * without the extension EXT (e.g. ".time") and without a trailing sample
 * number (".3").  Writes at most LEN bytes to OUT. */
void ti_ab_bench_name(const char *relpath, const char *ext, char *out, size_t len);

#endif
