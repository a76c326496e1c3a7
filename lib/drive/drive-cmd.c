/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-cmd.c: the runner of two command lines (timeit-ab --cmd A --cmd
 * B): one test, one timeit run a side and round,
 *   TIMEIT --summary OUT/SIDE/results/NAME.ROUND.time -- COMMAND...
 * with the command's stdout and stderr in OUT/SIDE/logs/NAME.ROUND.log
 * and its stdin /dev/null.  When both commands run one file each with the
 * same other words, OUT/SIDE/bin/NAME links to the file: the reader's
 * identity check (byte-identical files decide the test after round 1)
 * sees the two, as it sees the suite's binaries. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "drive-util.h"

static const char side_name[2] = { 'A', 'B' };

/* OUT/SIDE/WHAT[/NAME.R.EXT] (R 0: the directory), malloc'd or NULL. */
static char *side_path(const struct ti_drive *d, int side, const char *what, const char *name,
		       unsigned r, const char *ext)
{
	if (!name)
		return ti_drive_fmt("%s/%c/%s", d->c.out, side_name[side], what);
	return ti_drive_fmt("%s/%c/%s/%s.%u.%s", d->c.out, side_name[side], what, name, r, ext);
}

static int make_dir(struct ti_drive *d, char *path)
{
	int rc = 0;

	if (!path)
		return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		rc = ti_drive_fail(d, -errno, "%s: %s", path, strerror(errno));
	free(path);
	return rc;
}

static int cmd_open(struct ti_drive *d)
{
	if (d->n != 1 || !d->c.cmd[0] || !d->c.cmd[1] || !d->c.timeit)
		return ti_drive_fail(d, -EINVAL, "two commands and one test name, please");
	return 0;
}

/* Each side's results, logs and (for the identity) bin directory; the
 * words of a side's failure (D->state, two strings). */
static int cmd_start(struct ti_drive *d)
{
	char **where = calloc(2, sizeof *where);
	int rc = 0;

	if (!(d->state = where))
		return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	for (int side = 0; side < 2; side++)
		if (!(where[side] = ti_drive_fmt("command %c; its output in %s/%c/logs",
						 side_name[side], d->c.out, side_name[side])))
			return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));

	for (int side = 0; side < 2 && rc == 0; side++) {
		rc = make_dir(d, ti_drive_fmt("%s/%c", d->c.out, side_name[side]));
		if (rc == 0)
			rc = make_dir(d, side_path(d, side, "results", NULL, 0, NULL));
		if (rc == 0)
			rc = make_dir(d, side_path(d, side, "logs", NULL, 0, NULL));
		if (rc == 0 && d->c.cmd_file[0] && d->c.cmd_file[1]) {
			char *link = side_path(d, side, "bin", NULL, 0, NULL);
			char *to = link ? ti_drive_fmt("%s/%s", link, d->t[0].name) : NULL;
			if ((rc = make_dir(d, link ? ti_drive_strdup(link) : NULL)) == 0 && !to)
				rc = ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
			/* A resumed run's link is there: its file was checked. */
			if (rc == 0 && symlink(d->c.cmd_file[side], to) < 0 && errno != EEXIST)
				rc = ti_drive_fail(d, -errno, "%s: %s", to, strerror(errno));
			free(link);
			free(to);
		}
	}
	return rc;
}

/* Job J: side SIDE of round R. */
static int cmd_job(struct ti_drive *d, struct ti_drive_job *j, int side, unsigned r)
{
	const char *name = d->t[0].name;
	struct ti_drive_argv a = { 0 };
	int rc = 0;

	ti_drive_job_init(j, side, r, SIZE_MAX, name);
	if (!(j->log = side_path(d, side, "logs", name, r, "log")))
		rc = -ENOMEM;
	rc |= ti_drive_arg(&a, ti_drive_strdup(d->c.timeit));
	rc |= ti_drive_arg(&a, ti_drive_strdup("--summary"));
	rc |= ti_drive_arg(&a, side_path(d, side, "results", name, r, "time"));
	rc |= ti_drive_arg(&a, ti_drive_strdup("--"));
	for (size_t k = 0; d->c.cmd[side][k]; k++)
		rc |= ti_drive_arg(&a, ti_drive_strdup(d->c.cmd[side][k]));
	return ti_drive_job_argv(j, &a, rc == 0);
}

/* A pair while the test is in play: A, B in a duet, the round's order
 * otherwise. */
static int cmd_jobs(struct ti_drive *d, struct ti_drive_round *rd)
{
	int rc = 0;

	rd->n = d->t[0].stop == TI_DRIVE_ACTIVE ? 2 : 0;
	if (!(rd->jobs = calloc(2, sizeof *rd->jobs)))
		return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	for (size_t s = 0; s < rd->n && rc == 0; s++) {
		int side = d->c.schedule == TI_DRIVE_DUET ? (int)s : (int)(s ^ (size_t)rd->first);
		rc = cmd_job(d, &rd->jobs[s], side, rd->r);
	}
	if (d->rounds_f && rd->n) {
		struct ti_buf b = { 0 };
		ti_buf_printf(&b, "%u %s ", rd->r, d->order[rd->r]);
		ti_drive_tsv(&b, d->t[0].name);
		ti_buf_printf(&b, "\n");
		ti_drive_write_buf(d, d->rounds_f, "rounds.log", &b);
	}
	return rc < 0 ? ti_drive_fail(d, rc, "%s", strerror(-rc)) : 0;
}

static void cmd_undo(struct ti_drive *d, struct ti_drive_job *j)
{
	char *p = side_path(d, j->side, "results", j->what, j->round, "time");

	if (p)
		remove(p);
	free(p);
}

/* timeit writes its summary whatever the command does (a command that
 * fails is a failed run, its exit status in the summary): a job without
 * one means timeit itself could not run or measure, and its log says
 * why. */
static int cmd_after(struct ti_drive *d, struct ti_drive_round *rd)
{
	for (size_t k = 0; k < rd->n; k++) {
		const struct ti_drive_job *j = &rd->jobs[k];
		char *p = side_path(d, j->side, "results", j->what, j->round, "time");
		int st = j->status, rc = 0;

		if (!p)
			return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
		if (!ti_drive_exists(p))
			rc = ti_drive_fail(d, -EIO, "%s %s with command %c in round %u and wrote no "
					   "summary (see %s)", d->c.timeit,
					   WIFSIGNALED(st) ? "was killed" : "failed", side_name[j->side],
					   j->round, j->log);
		free(p);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const char *cmd_where(const struct ti_drive *d, int side)
{
	char *const *where = d->state;
	return where && where[side] ? where[side] : side ? "command B" : "command A";
}

static void cmd_end(struct ti_drive *d)
{
	char **where = d->state;

	if (where) {
		free(where[0]);
		free(where[1]);
	}
	free(where);
	d->state = NULL;
}

/* By the phases of a run: the run, a round, a job, the results. */
const struct ti_drive_runner ti_drive_cmd_runner = {
	.prefix = "", .left = "in play", .keyed = true, .resumable = true,
	.open = cmd_open, .start = cmd_start,
	.jobs = cmd_jobs,
	.undo = cmd_undo,
	.after = cmd_after,
	.load = ti_drive_load_side, .where = cmd_where,
	.end = cmd_end,
};
