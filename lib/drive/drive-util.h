/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-util.h: what the rounds, the schedules and the runners of
 * lib/drive share (drive-util.c): strings, messages, the tests and units,
 * a job's argv, the run's files and the reading of results. */
#ifndef TI_DRIVE_UTIL_H
#define TI_DRIVE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "drive-runner.h"

/* A printf'd string, malloc'd, or NULL. */
char *ti_drive_fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
/* A malloc'd copy of S, or NULL. */
char *ti_drive_strdup(const char *s);
/* Free the N strings of V and V. */
void ti_drive_strs_free(char **v, size_t n);
/* Set D's message and return RC. */
int ti_drive_fail(struct ti_drive *d, int rc, const char *f, ...)
	__attribute__((format(printf, 3, 4)));
/* Hand a progress line to D's callback, if it has one. */
void ti_drive_progress(struct ti_drive *d, const char *f, ...)
	__attribute__((format(printf, 2, 3)));
/* A line that stays, on D's note callback (its progress one when it has
 * none): what a plan of the rounds can decide (drive-plan.c). */
void ti_drive_note(struct ti_drive *d, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

/* drive-litserver.c: side SIDE's long-lived lit (D's lit_server
 * command): started, and up when it said it is ready (else stopped, its
 * log saying why); a duet's job made a request to it for TEST (its argv
 * and log made first); stopped; freed. */
struct ti_drive_litserver {
	pid_t pid;		/* its process group, -1: none running */
	int alive;		/* the pipe it reads, held open while it should run */
	int out;		/* the pipe it said "ready" on: at its end, it ended */
	char *dir, *sock;	/* the socket: SOCK in DIR (the output directory) */
	char *log;		/* its output */
	bool up;
};
int ti_drive_litserver_start(struct ti_drive *d, int side, struct ti_drive_litserver *s);
int ti_drive_litserver_job(const struct ti_drive_litserver *s, struct ti_drive_job *j,
			   const char *test);
/* Whether S is up and its process group still there. */
bool ti_drive_litserver_alive(const struct ti_drive_litserver *s);
void ti_drive_litserver_stop(struct ti_drive_litserver *s);
void ti_drive_litserver_free(struct ti_drive_litserver *s);

/* drive-plan.c: after round 1 (LAST seconds, ELAPSED since the start,
 * EST a round's cost from now), the rounds the budget holds (HELD, in
 * part for the last), the ROUNDS planned and their looks; after round 2, the noise of a round and the
 * smallest change ROUNDS rounds can decide. */
void ti_drive_plan_rounds(struct ti_drive *d, unsigned rounds, double held, double est,
			  double last, double elapsed);
void ti_drive_plan_noise(struct ti_drive *d, unsigned rounds);

/* The least part of a round the budget must hold for it to be planned:
 * the tests nearest a verdict run it (ti_drive_plan_part). */
#define TI_DRIVE_PART 0.25

/* After round R, LEFT seconds of the budget left, too few for the next
 * round of every test in play (round R: LAST seconds for LAST_N tests):
 * keep in play the tests nearest a verdict that it holds, their costs in
 * round R (ti_drive_test.cost) the measure, the rest stopped at the
 * budget; how many are kept (0: none fit, none stopped). */
size_t ti_drive_plan_part(struct ti_drive *d, unsigned r, double left, double last,
			  size_t last_n);

/* SECS as minutes:seconds into S (LEN bytes). */
void ti_drive_clock_text(char *s, size_t len, double secs);

/* Append S to B as a field of the run's TSV files (samples.tsv,
 * stop.tsv; the names in the suite's rounds.log): a tab, a newline, a
 * carriage return and a backslash become \t, \n, \r and \\ (the escapes
 * of linear TSV, PostgreSQL's text COPY), so that a test named with one
 * keeps its line and its columns; all else as it is. */
struct ti_buf;
void ti_drive_tsv(struct ti_buf *b, const char *s);
/* ti_drive_write (drive.h) of the bytes of buffer B, which it frees (B
 * failed: its -ENOMEM noted for NAME instead): 0 or the -errno noted. */
int ti_drive_write_buf(struct ti_drive *d, FILE *f, const char *name, struct ti_buf *b);

/* The run's file NAME in OUT, with the runner's prefix: malloc'd, or NULL. */
char *ti_drive_out_path(const struct ti_drive *d, const char *name);
/* Whether PATH is a regular file that is not empty. */
bool ti_drive_exists(const char *path);

/* The index of NAME in U, or -1. */
ssize_t ti_drive_units_index(const struct ti_drive_units *u, const char *name);
/* Add NAME to U unless it is there.  Returns 0 or -ENOMEM. */
int ti_drive_units_add(struct ti_drive_units *u, const char *name);
/* Free what U holds and empty it. */
void ti_drive_units_free(struct ti_drive_units *u);
/* Add the test NAME of UNIT to D unless it is there.  Returns 0 or -ENOMEM. */
int ti_drive_test_add(struct ti_drive *d, const char *name, const char *unit);
/* How many of D's tests are still in play. */
size_t ti_drive_active(const struct ti_drive *d);

/* A job's argv under construction. */
struct ti_drive_argv {
	char **v;
	size_t n;
};
/* Append S (malloc'd, NULL: out of memory) to A, NULL-terminated; S is
 * freed on failure.  Returns 0 or -ENOMEM. */
int ti_drive_arg(struct ti_drive_argv *a, char *s);
/* Free a NULL-terminated argv V and its strings. */
void ti_drive_argv_free(char **v);
/* Empty job J and make it side SIDE's in round R, running UNIT (SIZE_MAX:
 * many), named WHAT in samples.tsv. */
void ti_drive_job_init(struct ti_drive_job *j, int side, unsigned r, size_t unit,
		       const char *what);
/* Give job J the argv A when OK, else free A: 0, or -ENOMEM when not OK. */
int ti_drive_job_argv(struct ti_drive_job *j, struct ti_drive_argv *a, bool ok);
/* Free what job J owns (its argv, log and file names). */
void ti_drive_job_free(struct ti_drive_job *j);

/* The metric the looks read: exec_time where the verdicts compare by hash. */
const char *ti_drive_metric(const struct ti_drive *d);

/* The index of the test called NAME, or -1. */
ssize_t ti_drive_test_index(const struct ti_drive *d, const char *name);
/* Read the timeit summaries under DIR (none yet: SET stays empty) and the
 * identities of the binaries under BIN (NULL: none), when it exists, into
 * SET sorted. */
int ti_drive_read_dir(struct ti_drive *d, const char *dir, const char *bin,
		      struct ti_ab_set *set);
/* A keyed runner's load (drive-runner.h): every round's summaries of
 * side SIDE, OUT/SIDE/results, with the identities of OUT/SIDE/bin, into
 * SET sorted (R unused: a round's own are found by their keys). */
int ti_drive_load_side(struct ti_drive *d, int side, unsigned r, struct ti_ab_set *set);
/* Finish a reading of results into SET: RC of the readers made D's
 * message (ERR says where, unless it is -ENOMEM), or SET sorted. */
int ti_drive_loaded(struct ti_drive *d, int rc, const struct ti_ab_error *err,
		    struct ti_ab_set *set);

/* The state of the rounds so far, OUT/PREFIXstate.tsv (drive-resume.c),
 * written again atomically after each round that ended: D's finished
 * rounds, the plan (ROUNDS at most, D's looks and first look), the cost
 * of the last round (LAST seconds for LAST_N tests), the units and every
 * test with its rounds and a stop that a resumed run keeps (decided, same
 * binary, missing, failed; the others are written as in play).  A
 * failure is noted (ti_drive_write_failed) and returned. */
int ti_drive_state_write(struct ti_drive *d, unsigned rounds, double last, size_t last_n);
/* Read it back into D (its tests found by name or added) and the plan:
 * 0 (D->rounds 0 when there is none: nothing to resume), or -errno with
 * D's message. */
int ti_drive_state_read(struct ti_drive *d, unsigned *rounds, double *last, size_t *last_n);
/* Cut rounds.log and samples.tsv back to D's finished rounds and open
 * them to append: 0 or -errno with D's message. */
int ti_drive_logs_resume(struct ti_drive *d);

#endif
