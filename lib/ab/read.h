/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read.h: load the benchmark results of one side of a comparison (timeit
 * summary files and directories of them, timeit --json, lit -o JSON, LNT
 * report JSON format 1 and 2) into a set of benchmarks (set.h), each with
 * every run read.  One reader per format (read-*.c), chosen from the
 * table in read-format.c. */
#ifndef TI_AB_READ_H
#define TI_AB_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "set.h"

struct ti_ab_error {
	char path[4096];	/* the offending file */
	int line;		/* 1-based, or 0 when the whole file is meant */
	char what[256];
	bool empty;		/* the input is well formed but holds no tests: a
				 * history skips such a night, a comparison cannot */
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

/* Free the N TESTS that ti_ab_read_lit_tests gave. */
void ti_ab_lit_tests_free(struct ti_ab_lit_test *tests, size_t n);

/* The benchmark name a result file stands for: RELPATH relative to its
 * root directory, without all-digit directory components (sample
 * directories), without the extension EXT (e.g. ".time") and without a
 * trailing sample number (".3").  Writes at most LEN bytes to OUT; the
 * sample number (of the file, else of its last sample directory; 0: none)
 * goes to *SAMPLE when SAMPLE is not NULL. */
void ti_ab_bench_name(const char *relpath, const char *ext, char *out, size_t len,
		      uint32_t *sample);

/* PATH's bytes, NUL-terminated (*LEN without it), malloc'd; or -errno
 * with ERR. */
int ti_ab_read_file(const char *path, char **data, size_t *len, struct ti_ab_error *err);

#endif
