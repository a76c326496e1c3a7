/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* clock.h: monotonic and wall clocks, and the timestamp counter. */
#ifndef TI_CLOCK_H
#define TI_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* CLOCK_MONOTONIC / CLOCK_REALTIME in nanoseconds. */
int64_t ti_clock_mono_ns(void);
int64_t ti_clock_real_ns(void);

/* Name of the timestamp counter this build reads ("rdtsc", "cntvct_el0"),
 * or NULL when there is none.  It counts fixed-rate reference ticks, never
 * core cycles. */
const char *ti_tsc_kind(void);

/* True when the counter ticks at a constant rate through frequency changes
 * and idle states (x86: constant_tsc and nonstop_tsc in /proc/cpuinfo). */
bool ti_tsc_invariant(void);

/* Read the counter (ordered after earlier instructions); 0 when none. */
uint64_t ti_tsc_read(void);

#endif
