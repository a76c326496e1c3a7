/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* listing.h: timeit's informational actions, --list-events and
 * --check-env.  They print to OUT and return timeit's exit status. */
#ifndef TI_LISTING_H
#define TI_LISTING_H

#include <stdio.h>

#include "counters.h"
#include "envcheck.h"

/* Every event name timeit accepts, each marked available or unavailable
 * by opening it on timeit itself through OPS (NULL: the real calls). */
int listing_events(FILE *out, const struct ti_perf_ops *ops);

/* --check-env: each noise source with its value, verdict and the command
 * that fixes it. */
int listing_env(FILE *out, const struct ti_envcheck_opts *o);

#endif
