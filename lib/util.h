/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* util.h: small helpers shared by the programs. */
#ifndef TI_UTIL_H
#define TI_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Parse S as a decimal unsigned 64-bit number: digits only, no sign, no
 * spaces, no overflow.  Returns 0 or -EINVAL / -ERANGE. */
int ti_parse_u64(const char *s, uint64_t *out);

/* pipe2(FD, O_CLOEXEC) where the system has it, else pipe and fcntl (not
 * atomic: a fork in another thread between the two would inherit the
 * pipe; timeit has no other thread).  Returns 0, or -1 with errno set. */
int ti_pipe_cloexec(int fd[2]);

/* A temporary file in TMPDIR (or /tmp) named NAME.XXXXXX, removed at once,
 * close-on-exec: its descriptor, or -errno (ti_os_anon_file's fallback). */
int ti_anon_tmpfile(const char *name);

/* The array P of *CAP elements of SIZE bytes, with room for N of them:
 * P itself, or P grown to twice its size (FIRST elements at first), *CAP
 * updated.  NULL when out of memory (P as it was, still to be freed). */
void *ti_grow(void *p, size_t *cap, size_t n, size_t size, size_t first);

/* Split S in place into words at blanks, as sh would with quotes: '...'
 * literal, "..." with \ before \ " $ ` and newline, \ outside quotes
 * taking the next character; nothing expanded.  Store the words' starts
 * in WORDS (when not NULL) and return their number, or -1 when a quote is
 * not closed.  (TIMEIT_OPTIONS; timeit-ab --cmd with --no-shell.) */
int ti_split_words(char *s, char **words);

#endif
