/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-runner.h: what runs the units of an A/B run.  The rounds
 * (drive-round.c) call a runner through this table and never name one;
 * drive-run.c picks it for a configuration.  A runner turns the tests in
 * play into jobs, children that the schedule (drive-schedule.c) starts
 * where and when it says, and reads back what they left as lib/ab sets.
 * The shapes a runner may take, each without a change to the rounds:
 *   - one child per side and round over many units: lit over the tests
 *     left (drive-lit.c); both sides' lit runs of a round released
 *     together, pinned, in a duet;
 *   - one child per side and unit: the suite's benchmarks (drive-suite.c),
 *     lit in a duet, a compile_commands.json entry run again under timeit
 *     with its output to scratch (drive-compile.c), one of two command
 *     lines (drive-cmd.c);
 *   - a client per side and unit of a server that start sets up in
 *     D->state and end stops: a long-lived lit asked for named tests, the
 *     client handing on the CPUs it was pinned to.
 * Results come from whatever the children wrote: lit's -o JSON, or timeit
 * summaries read with ti_drive_read_dir (the metric, compile_time or
 * exec_time, is the configuration's).  A function that returns int
 * returns 0 or -errno with D's message set (ti_drive_fail); a NULL one is
 * skipped, but for jobs, load and where. */
#ifndef TI_DRIVE_RUNNER_H
#define TI_DRIVE_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "drive-child.h"
#include "drive.h"
#include "read.h"

/* One round's jobs, made by the runner, run by the schedule. */
struct ti_drive_round {
	unsigned r;		/* from 1 */
	int first;		/* the side first in a sequential round: 0 A, 1 B */
	size_t na;		/* the tests in play as it starts (0: round 1 finds them) */
	struct ti_drive_job *jobs;	/* a duet's in pairs: 2k A, 2k + 1 B */
	size_t n;
	struct ti_drive_units u;	/* the runner's: the units it runs */
	double deadline;	/* ti_drive_now seconds at which its runs are killed, 0: none */
	bool cut;		/* the deadline passed: runs killed, the round undone */
	size_t ended;		/* its runs ended so far */
	double said;		/* ti_drive_now seconds of its last progress line */
};

struct ti_drive_runner {
	const char *prefix;	/* of the run's files: OUT/PREFIXrounds.log, samples.tsv, stop.tsv */
	const char *left;	/* the progress line's word for the tests in play */
	bool keyed;		/* every round's results in one place, a run's round the
				 * low half of its key (NAME.R.time): a round's check
				 * reads its own */
	bool resumable;		/* a run cut short can go on (--resume): the state of
				 * its rounds, PREFIXstate.tsv, written after each */
	/* Check or add to the tests the caller named, before anything is
	 * written or run. */
	int (*open)(struct ti_drive *d);
	/* Start what lasts the whole run (units to discover, servers, D->state)
	 * before round 1, the stop signals caught. */
	int (*start)(struct ti_drive *d);
	/* Make round RD->r's jobs for the tests in play into RD: A, B pairs in
	 * a duet (a job without argv for a side that lacks the unit, so that
	 * its mate runs alone), side RD->first first in a sequential round. */
	int (*jobs)(struct ti_drive *d, struct ti_drive_round *rd);
	/* Put what job J wrote in place once it ended in a round not stopped,
	 * setting J->empty when it wrote nothing. */
	void (*done)(struct ti_drive *d, struct ti_drive_job *j);
	/* Remove what job J left of a round that a stop signal cut short. */
	void (*undo)(struct ti_drive *d, struct ti_drive_job *j);
	/* Check what round RD's jobs left once it ran to its end, learn the
	 * tests from round 1 when open did not name them, and log the round
	 * in rounds.log unless jobs did. */
	int (*after)(struct ti_drive *d, struct ti_drive_round *rd);
	/* Read side SIDE's results into SET, sorted: of round R, or with R = 0
	 * of rounds 1 to D->rounds in the order that pairs A's with B's. */
	int (*load)(struct ti_drive *d, int side, unsigned r, struct ti_ab_set *set);
	/* Name side SIDE in a message about its failure (its test directory,
	 * "the suite"). */
	const char *(*where)(const struct ti_drive *d, int side);
	/* Stop what start started and free D->state, once the rounds are over
	 * (called whenever start was, even when it failed). */
	void (*end)(struct ti_drive *d);
};

extern const struct ti_drive_runner ti_drive_lit_runner, ti_drive_suite_runner,
	ti_drive_cmd_runner, ti_drive_compile_runner;

/* Run the rounds of C with RUNNER: ti_drive_run with a runner of one's
 * own. */
int ti_drive_rounds(struct ti_drive *d, const struct ti_drive_config *c,
		    const struct ti_drive_runner *runner, char *const *names, size_t n);

#endif
