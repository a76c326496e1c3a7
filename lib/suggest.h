/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* suggest.h: the nearest valid name to a mistyped one, for "did you mean"
 * in the programs' unknown-option errors.  Never prints. */
#ifndef TI_SUGGEST_H
#define TI_SUGGEST_H

#include <stddef.h>

/* Largest edit distance still suggested: a typo, not another option. */
#define TI_SUGGEST_MAX_DIST 3

/* Edit distance (insert, delete, substitute, swap of neighbours) between
 * A and B, capped at TI_SUGGEST_MAX_DIST + 1; names longer than 63 bytes
 * are never near. */
unsigned ti_suggest_distance(const char *a, const char *b);

/* The name among NAMES[0..N) (NULL entries skipped) nearest to WORD (the
 * text before a '=' counts), or NULL when none is within
 * TI_SUGGEST_MAX_DIST and at most a third of WORD's length (an exact
 * match is no suggestion: the name was right, its use was not). */
const char *ti_suggest(const char *word, const char *const *names, size_t n);

#endif
