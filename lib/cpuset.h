/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* cpuset.h: CPU lists in taskset(1)'s syntax ("0", "0-3,6", "0-7:2"). */
#ifndef TI_CPUSET_H
#define TI_CPUSET_H

#include <sched.h>
#include <stddef.h>

/* Parse S into SET: comma-separated CPU numbers and ranges A-B, a range
 * optionally with a stride A-B:S.  Returns 0, or -EINVAL (syntax, empty,
 * B < A, stride 0) or -ERANGE (a CPU >= CPU_SETSIZE). */
int ti_cpuset_parse(const char *s, cpu_set_t *set);

/* Write SET as a list of ranges ("0-3,6") into OUT (size LEN). */
void ti_cpuset_format(const cpu_set_t *set, char *out, size_t len);

#endif
