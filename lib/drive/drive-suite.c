/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-suite.c: the suite's runner (make ab): one command per benchmark,
 * side and round, sh RUNFILE SIDE NAME ROUND, which leaves the timeit
 * summary OUT/SIDE/results/NAME.ROUND.time (NAME.ROUND.time.wrong-output
 * for a wrong output) and the binary under OUT/SIDE/bin.  The benchmarks
 * are the names the caller gives; the run's own files are OUT/ab-*. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "buf.h"
#include "drive-util.h"

static const char side_name[2] = { 'A', 'B' };

static int suite_open(struct ti_drive *d)
{
	if (d->n == 0)
		return ti_drive_fail(d, -ENOENT, "no benchmark to run");
	return 0;
}

/* Job J: side SIDE of round R of the benchmark NAME. */
static int suite_job(struct ti_drive *d, struct ti_drive_job *j, int side, unsigned r,
		     const char *name)
{
	struct ti_drive_argv a = { 0 };
	int rc = 0;

	ti_drive_job_init(j, side, r, SIZE_MAX, name);
	rc |= ti_drive_arg(&a, ti_drive_strdup("sh"));
	rc |= ti_drive_arg(&a, ti_drive_strdup(d->c.runfile));
	rc |= ti_drive_arg(&a, ti_drive_fmt("%c", side_name[side]));
	rc |= ti_drive_arg(&a, ti_drive_strdup(name));
	rc |= ti_drive_arg(&a, ti_drive_fmt("%u", r));
	return ti_drive_job_argv(j, &a, rc == 0);
}

/* A pair for each of the NA tests in play, written to rounds.log. */
static int suite_jobs(struct ti_drive *d, struct ti_drive_round *rd)
{
	size_t k = 0;
	int rc = 0;

	rd->n = 2 * rd->na;
	if (!(rd->jobs = calloc(rd->n ? rd->n : 1, sizeof *rd->jobs)))
		return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	for (size_t i = 0; rc == 0 && i < d->n; i++) {
		if (d->t[i].stop != TI_DRIVE_ACTIVE)
			continue;
		for (size_t s = 0; s < 2 && rc == 0; s++) {
			/* Duet pairs are A, B; sequential ones the round's order. */
			int side = d->c.schedule == TI_DRIVE_DUET ? (int)s : (int)(s ^ (size_t)rd->first);
			rc = suite_job(d, &rd->jobs[2 * k + s], side, rd->r, d->t[i].name);
		}
		k++;
	}
	if (d->rounds_f) {
		struct ti_buf b = { 0 };
		ti_buf_printf(&b, "%u %s", rd->r, d->order[rd->r]);
		for (size_t i = 0; i < k; i++) {
			ti_buf_append(&b, " ", 1);
			ti_drive_tsv(&b, rd->jobs[2 * i].what);
		}
		ti_buf_printf(&b, "\n");
		ti_drive_write_buf(d, d->rounds_f, "rounds.log", &b);
	}
	return rc < 0 ? ti_drive_fail(d, rc, "%s", strerror(-rc)) : 0;
}

static void suite_undo(struct ti_drive *d, struct ti_drive_job *j)
{
	char *p = ti_drive_fmt("%s/%c/results/%s.%u.time", d->c.out, side_name[j->side], j->what,
			       j->round);
	char *q = p ? ti_drive_fmt("%s.wrong-output", p) : NULL;

	if (p)
		remove(p);
	if (q)
		remove(q);
	free(p);
	free(q);
}

/* Every job of round RD that failed left its summary (NAME.R.time, or
 * .wrong-output beside it): the run file of make ab ends 0 for a failed
 * sample (RunSafely.sh records it, and says so where timeit wrote none),
 * so a failure without one means the run file itself failed (not make
 * ab's, or broken): an error that names it, not a round of nothing. */
static int suite_after(struct ti_drive *d, struct ti_drive_round *rd)
{
	for (size_t k = 0; k < rd->n; k++) {
		const struct ti_drive_job *j = &rd->jobs[k];
		char *p = ti_drive_fmt("%s/%c/results/%s.%u.time", d->c.out, side_name[j->side],
				       j->what, j->round);
		char *q = p ? ti_drive_fmt("%s.wrong-output", p) : NULL;
		bool left = p && q && (ti_drive_exists(p) || ti_drive_exists(q) ||
				       (WIFEXITED(j->status) && WEXITSTATUS(j->status) == 0));

		if (!p || !q) {
			free(p);
			free(q);
			return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
		}
		if (!left) {
			int st = j->status;
			ti_drive_fail(d, -EIO, "sh %s %c %s %u %s %d and left no summary %s (is %s make "
				      "ab's run file?)", d->c.runfile, side_name[j->side], j->what, j->round,
				      WIFSIGNALED(st) ? "was killed by signal" : "exited",
				      WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st), p, d->c.runfile);
		}
		free(p);
		free(q);
		if (!left)
			return -EIO;
	}
	return 0;
}

static const char *suite_where(const struct ti_drive *d, int side)
{
	return d->c.side_dir[side] ? d->c.side_dir[side] : "the suite";
}

/* By the phases of a run: the run, a round, a job, the results. */
const struct ti_drive_runner ti_drive_suite_runner = {
	.prefix = "ab-", .left = "in play", .keyed = true,
	.open = suite_open,
	.jobs = suite_jobs,
	.undo = suite_undo,
	.after = suite_after,
	.load = ti_drive_load_side, .where = suite_where,
};
