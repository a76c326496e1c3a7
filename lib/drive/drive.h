/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive.h: the sampling driver of an A/B run (timeit-ab, make ab).  Rounds
 * of runs of both sides, the order of A and B alternated or drawn per
 * round, the looks through the verdict engine (verdict.h, called
 * directly), identity first, the budget as a bound, and the stop signals.
 * Two schedules: sequential (A then B, or B then A) and duet (A and B of a
 * test released together at a barrier, each pinned to its own CPUs, the
 * CPUs swapped every round).  Three runners: lit (one lit run per side and
 * round over the tests left, or one per test and side in a duet), the
 * suite (one command per benchmark, side and round) and two command lines
 * (one timeit run per side and round).  Nothing here exits
 * or prints: progress goes to a callback, errors come back as -errno with
 * a message in the driver's ERR.
 *
 * The rooms: drive.c the configuration and the plan of the looks;
 * drive-run.c the runner of a configuration; drive-round.c the rounds,
 * the looks, the budget and the stop table; drive-schedule.c the
 * schedules; drive-runner.h the interface of a runner, drive-lit.c and
 * drive-suite.c and
 * drive-cmd.c the runners; drive-child.c the children; drive-util.c
 * what they share. */
#ifndef TI_DRIVE_H
#define TI_DRIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpuset.h"
#include "verdict.h"

enum ti_drive_schedule { TI_DRIVE_SEQUENTIAL, TI_DRIVE_DUET };
enum ti_drive_order { TI_DRIVE_ALTERNATE, TI_DRIVE_RANDOM };
enum ti_drive_runner_kind { TI_DRIVE_LIT, TI_DRIVE_SUITE, TI_DRIVE_CMD, TI_DRIVE_COMPILE };

/* The largest budget (seconds) and round count a run takes: a year, and
 * what the verdict engine's looks allow. */
#define TI_DRIVE_BUDGET_MAX 31536000.0
#define TI_DRIVE_ROUNDS_MAX 1000u
/* The most units of a side run at once (--jobs). */
#define TI_DRIVE_JOBS_MAX 1024u

/* Why a test's sampling stopped (the rounds table's words). */
enum ti_drive_stop {
	TI_DRIVE_ACTIVE,	/* not yet */
	TI_DRIVE_DECIDED,	/* a look decided it */
	TI_DRIVE_SAME_BINARY,	/* byte-identical binaries: decided after round 1 */
	TI_DRIVE_MAX,		/* --max-samples */
	TI_DRIVE_FIXED,		/* --samples N */
	TI_DRIVE_BUDGET,	/* the next round would not end within the budget, or
				 * the budget ran out in the round (its runs killed) */
	TI_DRIVE_MISSING,	/* vanished from a round's results */
	TI_DRIVE_FAILED,	/* failed on one side */
	TI_DRIVE_INTERRUPTED,	/* a stop signal */
	TI_DRIVE_STOPS
};
extern const char *const ti_drive_stop_name[TI_DRIVE_STOPS];

struct ti_drive_test {
	char *name;		/* the verdict engine's name of it */
	char *unit;		/* what the runner selects: lit's full name, the benchmark */
	unsigned rounds;	/* rounds it ran in */
	enum ti_drive_stop stop;
	char why[160];		/* for MISSING and FAILED: which side, which round */
	double cost;		/* seconds its runs took in the last round it ran in (a
				 * duet's pair: the longer), 0: not known (a run of many) */
};

struct ti_drive_config {
	enum ti_drive_runner_kind runner;
	enum ti_drive_schedule schedule;
	enum ti_drive_order order;
	uint64_t seed;
	bool fixed;		/* SAMPLES rounds, no looks */
	unsigned samples, min, max, step;	/* rounds; first look (0: the first at which
						 * a decision is possible), the most, between looks */
	bool max_auto;		/* with a budget, MAX no more than the rounds it holds at
				 * round 1's cost per test: the looks planned over those */
	double budget;		/* seconds, 0: none */
	const char *out;	/* the output directory (exists) */
	const char *side_dir[2];	/* lit: the test directories A, B; compile: the build
					 * trees (their compile_commands.json) */
	bool per_unit;		/* compile: a test a unit, not a program */
	unsigned jobs;		/* compile, sequential: a round in blocks of this many
				 * units, the block's runs of one side at once, then the
				 * other side's (0, 1: a run at a time) */
	bool no_identity;	/* compile: no identity check (an A/A check of the noise) */
	double count_under;	/* compile: from round 2 on, count the instructions of
				 * the units whose round-1 compiles took under this
				 * many seconds (real) on both sides, under valgrind;
				 * 0: no count */
	const char *lit;	/* lit: the program */
	char *const *lit_server;	/* lit, duet: the command (NULL-terminated) that
					 * runs lit-server.py, to which DIR SOCKET LIT
					 * LIT_ARGUMENTS BUILD are added; NULL: a lit
					 * process a run */
	char *const *lit_args;	/* lit: the user's arguments before ours */
	size_t nlit_args;
	const char *runfile;	/* suite: run as sh RUNFILE SIDE NAME ROUND */
	const char *timeit;	/* cmd, compile: the timeit program each run goes through */
	char *const *cmd[2];	/* cmd: the commands A, B (argv, NULL-terminated) */
	const char *cmd_file[2];	/* cmd: the files A and B run, when the rest of their
					 * words are the same (identity); NULL: no check */
	/* Duet: the CPU sets, 2 per slot (slot k: sets 2k and 2k+1). */
	const struct ti_cpuset *cpus;
	size_t ncpus;
	struct ti_ab_config ab;	/* the looks (looks is set by the driver) */
	bool resume;		/* go on from the last round in OUT's state.tsv (none:
				 * from round 1), its tests' stops and plan restored, a
				 * round after it undone; the budget counts from now */
	void (*progress)(void *arg, const char *line);
	/* A line that stays (what the budget can decide); NULL: progress. */
	void (*note)(void *arg, const char *line);
	void *progress_arg;	/* of both */
	double progress_every;	/* seconds between the lines of a round's own progress
				 * (its runs done), for rounds of many runs; 0: none */
};

/* Names, in the order found (the units of a run). */
struct ti_drive_units {
	char **u;
	size_t n;
};

struct ti_drive_runner;

struct ti_drive {
	struct ti_drive_config c;
	const struct ti_drive_runner *runner;	/* drive-runner.h */
	void *state;		/* the runner's own, from its start to its end */
	struct ti_drive_test *t;
	size_t n;
	unsigned rounds;	/* finished rounds */
	unsigned min;		/* the first look */
	unsigned looks;		/* the looks planned: the verdicts' --looks */
	unsigned looked;	/* the looks made (each at its index of LOOKS) */
	unsigned look_round;	/* the round of the last of them, 0: none */
	char order[TI_DRIVE_ROUNDS_MAX + 1][3];	/* per round: "AB" or "BA" */
	double wall;		/* seconds of the whole run */
	int stop_signal;	/* the signal that stopped the run, or 0 */
	unsigned budget_cut;	/* the round the budget ran out in (its runs killed,
				 * its results removed), or 0 */
	char err[1024];		/* the message of the first failure */
	int write_rc;		/* the first write of the run's files that failed
				 * (-errno), 0: none; the rounds went on */
	struct ti_drive_units units;	/* what the runner selects: lit's tests, as lit
					 * names them (a duet's A.R.K.json, K <= units.n) */
	FILE *rounds_f, *samples_f;
};

/* The looks of a run: at MIN, every STEP rounds after it, and at MAX. */
unsigned ti_drive_looks(unsigned min, unsigned max, unsigned step);

/* The first look of the t tests: 4 rounds, 3 degrees of freedom.  Their
 * p has no floor, but with 2 or 3 pairs it cannot pass a suite's
 * adjustment but for a change far beyond the noise (drive.c).  With the
 * moderated t at 3 pairs (verdict.h, TI_AB_MODERATE_FROM), 3 rounds:
 * the suite lends each benchmark its degrees of freedom. */
#define TI_DRIVE_FIRST_T 4u
#define TI_DRIVE_FIRST_MODERATED 3u

/* The first round at which the verdict engine's tests (AB) could decide
 * over the looks from it to MAX every STEP: the first look of min 0.  The
 * t tests: TI_DRIVE_FIRST_MODERATED where the moderated t takes 3 pairs,
 * else TI_DRIVE_FIRST_T (or MAX if fewer); the rank tests alone, the
 * first round at which an exact test of that many samples a side (or
 * pairs) could reach alpha over the looks. */
unsigned ti_drive_first_look(const struct ti_ab_config *ab, unsigned max, unsigned step);

/* Set the configuration's defaults: lit, sequential, alternate, seed 1,
 * auto with the first look as early as a decision is possible, then every
 * 7 rounds and at 30 (looks at 3, 10, 17, 24 and 30 with the default
 * tests: the first at 3 and the second where it was with the first at 4,
 * so that a run of at most 10 rounds still looks twice; bench/ab-sim
 * --table moderate). */
void ti_drive_config_init(struct ti_drive_config *c);

/* Check C: every number in its range.  Returns 0 or -EINVAL with the
 * reason in ERR (LEN bytes). */
int ti_drive_config_check(const struct ti_drive_config *c, char *err, size_t len);

/* Run the rounds.  For the suite, NAMES (N) are the benchmarks, for two
 * commands the one test's name; lit finds
 * its tests in round 1.  Writes OUT/rounds.log (round, order, tests run),
 * OUT/samples.tsv (one line per run: round, side, test, schedule, CPUs,
 * start, wall, status) and OUT/stop.tsv (test, rounds, why it stopped),
 * their names escaped (ti_drive_tsv, drive-util.h: \t, \n, \r, \\).
 * Returns 0 (D says how far it got; D->stop_signal when a signal stopped
 * it, D->budget_cut when the budget ran out in a round after the first:
 * the finished rounds are kept, the unfinished one removed; D->write_rc
 * when one of those files could not be written, its message in D->err)
 * or -errno with D->err: -EIO when every test failed on a side in a round
 * (the message names the side and the first failure), -ENOENT when lit
 * found no tests. */
int ti_drive_run(struct ti_drive *d, const struct ti_drive_config *c, char *const *names,
		 size_t n);

/* The result files of side SIDE (0 A, 1 B) over the finished rounds, in
 * the order that pairs the K-th of A with the K-th of B, then those of a
 * duet's tests that ran on this side alone (the other's lacked them: the
 * verdict's missing), into *PATHS (N; free with ti_drive_paths_free).
 * Lit only.  Returns 0 or -ENOMEM. */
int ti_drive_paths(const struct ti_drive *d, int side, char ***paths, size_t *n);
void ti_drive_paths_free(char **paths, size_t n);

/* The run's files, NAME in OUT with the runner's prefix (rounds.log,
 * samples.tsv, stop.tsv; timeit-ab's verdict.txt, rounds.txt, ab-looks).
 * A file that cannot be written does not stop the rounds (a full disk as
 * the run ends must not cost the verdict over its rounds): the first
 * failure is kept in D->write_rc, with "PATH: strerror" in D->err unless
 * an earlier error's message is there (a later one never overwrites it).
 * ti_drive_file opens NAME for writing (NULL when it cannot: noted);
 * ti_drive_write writes LEN bytes of S to F and flushes them (F NULL:
 * nothing); ti_drive_close closes F.  Each returns 0 or the -errno noted;
 * ti_drive_write_failed notes RC (-errno) for NAME and returns it. */
FILE *ti_drive_file(struct ti_drive *d, const char *name);
int ti_drive_write(struct ti_drive *d, FILE *f, const char *name, const char *s, size_t len);
int ti_drive_close(struct ti_drive *d, FILE *f, const char *name);
int ti_drive_write_failed(struct ti_drive *d, const char *name, int rc);

/* The analysis that ends run D, its final table, as one of its looks:
 * into C (its alpha and LOOKS set) the index of the look it is.  A run
 * that ended at a look (decided, at its most rounds) repeats that look,
 * at its level; one that ended between looks (the budget, a signal)
 * after K looks is the last of the run and spends the rest of alpha
 * (look K + 1, last).  Without it the final table would be a test the
 * looks did not plan for. */
void ti_drive_final_look(const struct ti_drive *d, struct ti_ab_config *c);

/* Free what D owns. */
void ti_drive_free(struct ti_drive *d);

/* The name of the lock file in a run's output directory. */
#define TI_DRIVE_LOCK ".timeit-ab.lock"

/* Lock the output directory DIR for this process's run: a write lock
 * (fcntl(2), F_SETLK) on DIR/TI_DRIVE_LOCK, created if need be, held
 * until the process ends (a crash lets it go).  TRY: only test that no
 * other process holds it, and let it go.  Returns 0, or -EBUSY with ERR
 * naming the holder's pid, or -errno with ERR set. */
int ti_drive_lock(const char *dir, bool try, char *err, size_t len);

/* What makes a run the run it is, and whether it ended (drive-resume.c):
 * OUT/run.conf holds the caller's description of it (lines "KEY\tVALUE":
 * the mode, the sides, the options that change the rounds or the
 * verdict), written atomically before round 1; OUT/status the verdict's
 * exit status (0 or 1), written atomically once the verdict is out.
 * ti_drive_run_desc_write and ti_drive_run_finish return 0 or -errno;
 * ti_drive_run_desc_check compares DESC with the stored one: 0 alike,
 * -EINVAL with ERR (LEN bytes) naming the first line that differs, or
 * -errno (-ENOENT: none stored) with ERR set; ti_drive_run_finished
 * returns the stored status, or -1 when the run has none. */
#define TI_DRIVE_RUN_DESC "run.conf"
#define TI_DRIVE_RUN_STATUS "status"
int ti_drive_run_desc_write(const char *out, const char *desc);
int ti_drive_run_desc_check(const char *out, const char *desc, char *err, size_t len);
int ti_drive_run_finished(const char *out);
int ti_drive_run_finish(const char *out, int status);

/* Lit's --filter for exactly the lit tests UNITS (N): each full name
 * escaped as a Python regular expression, case-sensitive.  Into *OUT
 * (malloc'd).  Returns 0 or -ENOMEM. */
int ti_drive_lit_filter(char *const *units, size_t n, char **out);

#endif
