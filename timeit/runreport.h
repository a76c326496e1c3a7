/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* runreport.h: the words timeit and timeit-perf say about a run, and the
 * checks and files around it that both programs share.  Every message
 * starts with ti_prog, the program's name. */
#ifndef TI_RUNREPORT_H
#define TI_RUNREPORT_H

#include <stdbool.h>

#include "options.h"
#include "record.h"

/* The program's name for its messages ("timeit", "timeit-perf"). */
extern const char *ti_prog;

/* "PROG: " and FMT on stderr. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void note_counters(const struct ti_options *c, const struct ti_record *r, bool user_events);

/* The reference's words for a run it ended, with timeit's prefix as the
 * reference has its program name (timeit(1), EXIT STATUS). */
void say_timed_out(const char *cmd);

void say_stopped(int sig, const char *cmd);

/* What happened to the child, on timeit's stderr (never the child's). */
void report_end(const struct ti_options *c, const struct ti_record *r);

/* Descriptors 0, 1 and 2 that timeit was started without are opened on
 * /dev/null: otherwise the summary's temporary file or a pipe would take
 * the lowest free one, 2, and every note on stderr would land in it. */
void open_std_fds(void);

/* The option that gave the path WHAT, when a directory or redirect file
 * failed before the run (lib/measure/spawn.h: the plan's own string), or NULL when
 * WHAT is not one (malloc, pipe, vfork, wait4, sched_setaffinity). */
const char *path_option(const struct ti_options *c, const char *what);

/* Two of the files timeit reads or writes are one: the summary would
 * overwrite the JSON, a redirect the summary, and so on.  Only stdout and
 * stderr may share a file (one descriptor).  Prints the error. */
bool paths_clash(const struct ti_options *c);

/* Append "exit STATUS" to the stdout file PATH, as the reference's
 * fopen(path, "a") does: a file the command removed (with its directory,
 * recreated) is created again.  Returns 0 or -errno. */
int append_exitstatus(const char *path, int status);

/* STATUS, unless what was printed on standard output (--help, --version,
 * --list-events, --check-env) could not all be written: a listing cut
 * short by a full disk must not look complete. */
int stdout_status(int status);

#endif
