/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* cpuset.h: sets of CPU numbers, sized as they grow (no CPU_SETSIZE: that
 * is 1024 in glibc and 128 in musl, and machines with more CPUs exist),
 * and their list syntax, taskset(1)'s ("0", "0-3,6", "0-7:2"). */
#ifndef TI_CPUSET_H
#define TI_CPUSET_H

#include <stdbool.h>
#include <stddef.h>

/* The largest CPU number a set holds, plus one: far above any kernel's
 * NR_CPUS (8192 at most today), small enough that a typing error such as
 * "--cpu 0-99999999" is an error rather than a large allocation. */
#define TI_CPUSET_MAX (1UL << 20)

/* Bit i % W of BITS[i / W] is CPU i, W the bits of an unsigned long, for
 * i < NWORDS * W; { 0, NULL } is the empty set.  Zero-initialise before
 * use, free with ti_cpuset_free. */
struct ti_cpuset {
	size_t nwords;
	unsigned long *bits;
};

/* Add CPU to S.  Returns 0, -ERANGE (CPU >= TI_CPUSET_MAX) or -ENOMEM. */
int ti_cpuset_add(struct ti_cpuset *s, unsigned long cpu);

/* Whether CPU is in S. */
bool ti_cpuset_has(const struct ti_cpuset *s, unsigned long cpu);

/* The smallest CPU of S above AFTER (-1 to start), or -1: the way to walk a set,
 * for (long c = -1; (c = ti_cpuset_next(s, c)) >= 0;). */
long ti_cpuset_next(const struct ti_cpuset *s, long after);

/* The number of CPUs in S. */
size_t ti_cpuset_count(const struct ti_cpuset *s);

/* Whether every CPU of A is in B. */
bool ti_cpuset_subset(const struct ti_cpuset *a, const struct ti_cpuset *b);

/* Whether A and B hold the same CPUs. */
bool ti_cpuset_equal(const struct ti_cpuset *a, const struct ti_cpuset *b);

/* Make DST a copy of SRC.  Returns 0 or -ENOMEM (DST is then empty). */
int ti_cpuset_copy(struct ti_cpuset *dst, const struct ti_cpuset *src);

/* Empty S, keeping its storage. */
void ti_cpuset_clear(struct ti_cpuset *s);

/* Free S's storage; S is then empty. */
void ti_cpuset_free(struct ti_cpuset *s);

/* Parse S into SET: comma-separated CPU numbers and ranges A-B, a range
 * optionally with a stride A-B:S.  Returns 0, or -EINVAL (syntax, empty,
 * B < A, stride 0), -ERANGE (a CPU >= TI_CPUSET_MAX) or -ENOMEM; SET is
 * emptied first. */
int ti_cpuset_parse(const char *s, struct ti_cpuset *set);

/* Write SET as a list of ranges ("0-3,6") into OUT (size LEN), cut short
 * at a whole range when it does not fit. */
void ti_cpuset_format(const struct ti_cpuset *set, char *out, size_t len);

#endif
