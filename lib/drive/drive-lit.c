/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-lit.c: lit's runner (timeit-ab).  A sequential round is one lit
 * run per side over the tests left (the first over every test, which
 * tells them); a duet's is one lit run per side and unit, the units found
 * first by lit --no-execute on each side (a unit one side lacks runs on
 * the other alone, and the round's check finds it missing, as a
 * sequential round's does).  Each writes its -o file (read by
 * lib/ab/read-lit.c, the tests and their names with it) as
 * OUT/SIDE.ROUND.json, a duet's OUT/SIDE.ROUND.K.json for its K-th unit,
 * and its output beside it as .log.  Names go from JSON to lit's --filter
 * escaped, never through a shell. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "drive-util.h"

int ti_drive_lit_filter(char *const *units, size_t n, char **out)
{
	struct ti_buf b = { 0 };

	/* lit compiles --filter case-insensitively (cl_arguments.py): the
	 * scoped flag (Python >= 3.6) makes it exact. */
	ti_buf_printf(&b, "^(?-i:");
	for (size_t i = 0; i < n; i++) {
		if (i)
			ti_buf_append(&b, "|", 1);
		for (const unsigned char *p = (const unsigned char *)units[i]; *p; p++) {
			/* Python's re.escape: every ASCII character but letters,
			 * digits and '_' taken literally; others as they are. */
			if (*p < 0x80 && !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
			    !(*p >= '0' && *p <= '9') && *p != '_')
				ti_buf_append(&b, "\\", 1);
			ti_buf_append(&b, (const char *)p, 1);
		}
	}
	ti_buf_printf(&b, ")$");
	ti_buf_append(&b, "", 1);
	if (b.failed) {
		ti_buf_free(&b);
		return -ENOMEM;
	}
	*out = b.data;
	return 0;
}

static const char side_name[2] = { 'A', 'B' };

/* A duet's: the sides that list each unit of D->units, by its index (bit
 * 0 A, bit 1 B). */
struct lit_state {
	unsigned char *sides;
	size_t n;
	struct ti_drive_litserver srv[2];	/* a lit a side, long-lived, when both are up */
};

static char *lit_file(const struct ti_drive *d, int side, unsigned r, size_t unit)
{
	if (unit == SIZE_MAX)
		return ti_drive_fmt("%s/%c.%u.json", d->c.out, side_name[side], r);
	return ti_drive_fmt("%s/%c.%u.%zu.json", d->c.out, side_name[side], r, unit + 1);
}

/* Job J: lit on side SIDE in round R over UNITS (N; NULL: all), the K-th
 * unit alone (SIZE_MAX: many) in a duet. */
static int lit_job(struct ti_drive *d, struct ti_drive_job *j, int side, unsigned r, size_t unit,
		   char *const *units, size_t n)
{
	struct ti_drive_argv a = { 0 };
	int rc = 0;

	ti_drive_job_init(j, side, r, unit, unit == SIZE_MAX ? "*" : d->units.u[unit]);
	j->file = lit_file(d, side, r, unit);
	j->tmp = j->file ? ti_drive_fmt("%s.tmp", j->file) : NULL;
	j->log = unit == SIZE_MAX ? ti_drive_fmt("%s/%c.%u.log", d->c.out, side_name[side], r)
				  : ti_drive_fmt("%s/%c.%u.%zu.log", d->c.out, side_name[side], r, unit + 1);
	rc |= ti_drive_arg(&a, ti_drive_strdup(d->c.lit));
	/* The user's -j wins over -j1; our -o and --filter over theirs
	 * (the tests left are a subset of what their --filter chose). */
	rc |= ti_drive_arg(&a, ti_drive_strdup("-j1"));
	for (size_t i = 0; i < d->c.nlit_args; i++)
		rc |= ti_drive_arg(&a, ti_drive_strdup(d->c.lit_args[i]));
	rc |= ti_drive_arg(&a, ti_drive_strdup("-o"));
	rc |= ti_drive_arg(&a, j->tmp ? ti_drive_strdup(j->tmp) : NULL);
	if (units) {
		char *f;
		if (ti_drive_lit_filter(units, n, &f) < 0)
			rc = -ENOMEM;
		else {
			rc |= ti_drive_arg(&a, ti_drive_strdup("--filter"));
			rc |= ti_drive_arg(&a, f);
		}
	}
	rc |= ti_drive_arg(&a, ti_drive_strdup(d->c.side_dir[side]));
	if (j->tmp)
		remove(j->tmp);
	return ti_drive_job_argv(j, &a, rc == 0 && j->log);
}

/* The units of the tests still in play, in the order of ALL (round 1 of
 * a duet, no test known yet: every one). */
static int active_units(const struct ti_drive *d, const struct ti_drive_units *all,
			struct ti_drive_units *u)
{
	memset(u, 0, sizeof *u);
	for (size_t i = 0; i < all->n; i++) {
		bool want = d->n == 0;
		for (size_t k = 0; k < d->n && !want; k++)
			want = d->t[k].stop == TI_DRIVE_ACTIVE && strcmp(d->t[k].unit, all->u[i]) == 0;
		if (want && ti_drive_units_add(u, all->u[i]) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Sequential: one job a side, over the units left (round 1: all). */
static int lit_jobs_sequential(struct ti_drive *d, struct ti_drive_round *rd)
{
	int rc = 0;

	if (rd->r > 1) {
		for (size_t i = 0; i < d->n && rc == 0; i++)
			if (d->t[i].stop == TI_DRIVE_ACTIVE)
				rc = ti_drive_units_add(&rd->u, d->t[i].unit);
	}
	rd->n = 2;
	if (rc == 0 && !(rd->jobs = calloc(rd->n, sizeof *rd->jobs)))
		rc = -ENOMEM;
	for (size_t k = 0; rc == 0 && k < 2; k++)
		rc = lit_job(d, &rd->jobs[k], (int)(k ^ (size_t)rd->first), rd->r, SIZE_MAX,
			     rd->r > 1 ? rd->u.u : NULL, rd->u.n);
	return rc;
}

/* Duet: a pair for each unit in play; the side that lacks a unit gets a
 * job without argv (nothing to run). */
static int lit_jobs_duet(struct ti_drive *d, struct ti_drive_round *rd)
{
	struct lit_state *st = d->state;
	int rc;

	if ((rc = active_units(d, &d->units, &rd->u)) < 0)
		return rc;
	if (st && st->srv[0].up && !(ti_drive_litserver_alive(&st->srv[0]) &&
				     ti_drive_litserver_alive(&st->srv[1]))) {
		int s = ti_drive_litserver_alive(&st->srv[0]) ? 1 : 0;
		ti_drive_note(d, "side %c's lit server ended (see %s): a lit process a run from "
			      "round %u", side_name[s], st->srv[s].log, rd->r);
		for (int k = 0; k < 2; k++)
			ti_drive_litserver_stop(&st->srv[k]);
	}
	rd->n = 2 * rd->u.n;
	if (!(rd->jobs = calloc(rd->n ? rd->n : 1, sizeof *rd->jobs)))
		return -ENOMEM;
	for (size_t k = 0; rc == 0 && k < rd->u.n; k++) {
		size_t ui = (size_t)ti_drive_units_index(&d->units, rd->u.u[k]);
		for (int s = 0; s < 2 && rc == 0; s++) {
			struct ti_drive_job *j = &rd->jobs[2 * k + (size_t)s];
			if (st && ui < st->n && !(st->sides[ui] & (1u << s))) {
				ti_drive_job_init(j, s, rd->r, ui, d->units.u[ui]);
				j->empty = true;
				continue;
			}
			rc = lit_job(d, j, s, rd->r, ui, &rd->u.u[k], 1);
			if (rc == 0 && st && st->srv[s].up)
				rc = ti_drive_litserver_job(&st->srv[s], j, rd->u.u[k]);
		}
	}
	return rc;
}

static int lit_jobs(struct ti_drive *d, struct ti_drive_round *rd)
{
	int rc = d->c.schedule == TI_DRIVE_SEQUENTIAL ? lit_jobs_sequential(d, rd)
						      : lit_jobs_duet(d, rd);
	return rc < 0 ? ti_drive_fail(d, rc, "%s", strerror(-rc)) : 0;
}

/* Its -o file put in place; none: lit wrote none. */
static void lit_done(struct ti_drive *d, struct ti_drive_job *j)
{
	(void)d;
	if (!ti_drive_exists(j->tmp)) {
		remove(j->tmp);
		j->empty = true;
		return;
	}
	j->empty = rename(j->tmp, j->file) != 0;
}

static void lit_undo(struct ti_drive *d, struct ti_drive_job *j)
{
	(void)d;
	/* A side that lacked the unit ran nothing and has no files. */
	if (j->tmp)
		remove(j->tmp);
	if (j->file)
		remove(j->file);
}

/* Whether the file PATH holds TEXT (a child's log). */
static bool log_says(const char *path, const char *text)
{
	FILE *f = path ? fopen(path, "r") : NULL;
	char line[1024];
	bool found = false;

	while (f && !found && fgets(line, sizeof line, f))
		found = strstr(line, text) != NULL;
	if (f)
		fclose(f);
	return found;
}

/* The jobs that wrote no results: an error in a sequential round, unless
 * every test left vanished. */
static int check_files(struct ti_drive *d, const struct ti_drive_round *rd)
{
	const struct ti_drive_config *c = &d->c;

	for (size_t k = 0; k < rd->n; k++) {
		const struct ti_drive_job *j = &rd->jobs[k];
		if (!j->empty)
			continue;
		/* Every test left vanished: lit says so (main.py) and writes
		 * nothing; the check of the round reports them missing. */
		if (rd->r > 1 && (log_says(j->log, "did not match any tests") ||
				  log_says(j->log, "did not discover any tests")))
			continue;
		if (c->schedule == TI_DRIVE_SEQUENTIAL)
			return ti_drive_fail(d, -EIO, "%s on %s (side %c, round %u) wrote no results; "
					     "see %s", c->lit, c->side_dir[j->side],
					     side_name[j->side], rd->r, j->log);
	}
	return 0;
}

/* The tests, from round 1's files. */
static int lit_tests(struct ti_drive *d)
{
	for (int s = 0; s < 2; s++) {
		size_t nu = d->c.schedule == TI_DRIVE_DUET ? d->units.n : 1;
		for (size_t k = 0; k < nu; k++) {
			char *p = lit_file(d, s, 1, d->c.schedule == TI_DRIVE_DUET ? k : SIZE_MAX);
			struct ti_ab_lit_test *t;
			struct ti_ab_error e;
			size_t n;
			int rc;
			if (!p)
				return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
			if (!ti_drive_exists(p)) {
				free(p);
				continue;
			}
			rc = ti_ab_read_lit_tests(p, &t, &n, &e);
			free(p);
			if (rc < 0 && rc != -ENOMEM && e.line)
				ti_drive_fail(d, rc, "%s:%d: %s", e.path, e.line, e.what);
			else if (rc < 0 && rc != -ENOMEM)
				ti_drive_fail(d, rc, "%s: %s", e.path, e.what);
			for (size_t i = 0; i < n && rc >= 0; i++)
				rc = ti_drive_test_add(d, t[i].name, t[i].unit);
			ti_ab_lit_tests_free(t, n);
			if (rc < 0)
				return rc == -ENOMEM ? ti_drive_fail(d, rc, "%s", strerror(ENOMEM)) : rc;
		}
	}
	return 0;
}

/* After round 1: its tests, from its files. */
static int lit_round1(struct ti_drive *d)
{
	const struct ti_drive_config *c = &d->c;
	int rc;

	if ((rc = lit_tests(d)) < 0)
		return rc;
	if (d->n == 0)
		return ti_drive_fail(d, -ENOENT, "%s found no tests in %s (see %s/A.1.log)", c->lit,
				     c->side_dir[0], c->out);
	if (c->schedule == TI_DRIVE_SEQUENTIAL)
		for (size_t i = 0; i < d->n && rc == 0; i++)
			rc = ti_drive_units_add(&d->units, d->t[i].unit);
	return rc;
}

static int lit_after(struct ti_drive *d, struct ti_drive_round *rd)
{
	int rc;

	if ((rc = check_files(d, rd)) < 0 || (rd->r == 1 && (rc = lit_round1(d)) < 0))
		return rc;
	char line[64];
	int n = snprintf(line, sizeof line, "%u %s %zu\n", rd->r, d->order[rd->r],
			 rd->r == 1 ? d->n : rd->na);
	ti_drive_write(d, d->rounds_f, "rounds.log", line, (size_t)n);
	return 0;
}

/* The argv of lit --no-execute -o JSON on side SIDE with the user's
 * arguments, into *ARGV. */
static int show_argv(const struct ti_drive *d, int side, const char *json, char ***argv)
{
	struct ti_drive_argv a = { 0 };
	int rc = 0;

	rc |= ti_drive_arg(&a, ti_drive_strdup(d->c.lit));
	for (size_t i = 0; i < d->c.nlit_args; i++)
		rc |= ti_drive_arg(&a, ti_drive_strdup(d->c.lit_args[i]));
	rc |= ti_drive_arg(&a, ti_drive_strdup("--no-execute"));
	rc |= ti_drive_arg(&a, ti_drive_strdup("-o"));
	rc |= ti_drive_arg(&a, json ? ti_drive_strdup(json) : NULL);
	rc |= ti_drive_arg(&a, ti_drive_strdup(d->c.side_dir[side]));
	*argv = a.v;
	return rc;
}

/* Add UNIT, listed by side SIDE, to D->units (after those already there:
 * A's in A's order, then those of B alone in B's) and mark it SIDE's in
 * ST.  Returns 0 or -ENOMEM. */
static int unit_add(struct ti_drive *d, struct lit_state *st, int side, const char *unit)
{
	int rc;

	if ((rc = ti_drive_units_add(&d->units, unit)) < 0)
		return rc;
	if (st->n < d->units.n) {
		unsigned char *p = realloc(st->sides, d->units.n);
		if (!p)
			return -ENOMEM;
		memset(p + st->n, 0, d->units.n - st->n);
		st->sides = p;
		st->n = d->units.n;
	}
	st->sides[ti_drive_units_index(&d->units, unit)] |= (unsigned char)(1u << side);
	return 0;
}

/* The units of side SIDE in lit --no-execute's file JSON (its output in
 * LOG); none is an error, as a sequential round 1 without results is. */
static int show_units(struct ti_drive *d, struct lit_state *st, int side, const char *json,
		      const char *log)
{
	struct ti_ab_lit_test *t = NULL;
	struct ti_ab_error e;
	size_t n = 0;
	int rc;

	if (!ti_drive_exists(json))
		rc = -ENOENT;
	else if ((rc = ti_ab_read_lit_tests(json, &t, &n, &e)) < 0 && rc != -ENOMEM)
		ti_drive_fail(d, rc, "%s: %s", e.path, e.what);
	if (rc == 0 && n == 0)
		rc = -ENOENT;
	if (rc == -ENOENT)
		ti_drive_fail(d, rc, "%s --no-execute found no tests in %s (side %c; see %s)",
			      d->c.lit, d->c.side_dir[side], side_name[side], log);
	/* A micro-result's unit is its test: one unit each. */
	for (size_t i = 0; i < n && rc >= 0; i++)
		if (i == 0 || strcmp(t[i].unit, t[i - 1].unit) != 0)
			rc = unit_add(d, st, side, t[i].unit);
	ti_ab_lit_tests_free(t, n);
	remove(json);
	return rc;
}

/* Side SIDE's units, from lit --no-execute -o OUT/tests.S.json, its
 * output in OUT/tests.S.txt. */
static int show_side(struct ti_drive *d, struct lit_state *st, int side)
{
	struct ti_drive_job j;
	struct ti_drive_job *p = &j;
	char *json = ti_drive_fmt("%s/tests.%c.json", d->c.out, side_name[side]);
	int rc;

	memset(&j, 0, sizeof j);
	rc = show_argv(d, side, json, &j.argv);
	j.log = ti_drive_fmt("%s/tests.%c.txt", d->c.out, side_name[side]);
	if (rc || !j.log || !json)
		rc = -ENOMEM;
	else if ((rc = ti_drive_child_start(&p, 1)) == 0)
		ti_drive_child_wait(&j);
	else if (rc == -EINTR)
		rc = 0;
	if (rc == 0 && !ti_drive_child_stopped())
		rc = show_units(d, st, side, json, j.log);
	if (rc == -ENOMEM)
		ti_drive_fail(d, rc, "%s", strerror(ENOMEM));
	ti_drive_argv_free(j.argv);
	free(j.log);
	free(json);
	return rc;
}

/* A lit a side, long-lived (drive-litserver.c), both or neither: a
 * side whose server did not start is said, with its log, and the duet
 * goes on with a lit process a run. */
static int start_servers(struct ti_drive *d, struct lit_state *st)
{
	int rc = 0;

	for (int s = 0; s < 2 && rc == 0; s++)
		if ((rc = ti_drive_litserver_start(d, s, &st->srv[s])) == 0 && !st->srv[s].up)
			break;
	if (rc == -ENOMEM)
		return ti_drive_fail(d, rc, "%s", strerror(ENOMEM));
	if (rc < 0 && rc != -EINTR)
		return ti_drive_fail(d, rc, "the lit server: %s", strerror(-rc));
	if (rc == 0 && !(st->srv[0].up && st->srv[1].up)) {
		int s = st->srv[0].up ? 1 : 0;
		ti_drive_note(d, "side %c's lit server did not start (see %s): a lit process a run",
			      side_name[s], st->srv[s].log);
		for (int k = 0; k < 2; k++)
			ti_drive_litserver_stop(&st->srv[k]);
	}
	return 0;
}

/* A duet's units: the tests lit would run on either side with the user's
 * arguments (their --filter too, which lit's --show-tests ignores: it
 * lists every test it discovers), from lit --no-execute, read by the lit
 * format's reader.  Both sides: a test that only B has would otherwise
 * never run, and vanish from every table. */
static int lit_start(struct ti_drive *d)
{
	struct lit_state *st;
	int rc = 0;

	if (d->c.schedule != TI_DRIVE_DUET)
		return 0;
	if (!(st = calloc(1, sizeof *st)))
		return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	st->srv[0].alive = st->srv[1].alive = st->srv[0].out = st->srv[1].out = -1;
	st->srv[0].pid = st->srv[1].pid = -1;
	d->state = st;
	for (int s = 0; s < 2 && rc == 0 && !ti_drive_child_stopped(); s++)
		rc = show_side(d, st, s);
	if (rc == 0 && d->c.lit_server)
		rc = start_servers(d, st);
	d->stop_signal = ti_drive_child_stopped();
	return rc;
}

static void lit_end(struct ti_drive *d)
{
	struct lit_state *st = d->state;

	if (st) {
		free(st->sides);
		for (int s = 0; s < 2; s++)
			ti_drive_litserver_free(&st->srv[s]);
	}
	free(st);
	d->state = NULL;
}

/* Side SIDE's files of rounds LO to HI: with BOTH, those whose partner
 * exists too (the pairs of the verdicts), then the files of the units
 * that never had a partner in those rounds (on one side alone: the
 * verdict finds them missing on the other, as in sequential rounds, and
 * the pairs keep their order); else every one. */
static int collect(const struct ti_drive *d, int side, unsigned lo, unsigned hi, bool both,
		   char ***paths, size_t *n)
{
	char **v = NULL;
	size_t k = 0;
	size_t units = d->c.schedule == TI_DRIVE_DUET ? d->units.n : 1;
	bool *paired = calloc(units ? units : 1, sizeof *paired);
	bool ok = paired != NULL;

	*paths = NULL;
	*n = 0;
	for (int pass = 0; pass < (both ? 2 : 1) && ok; pass++) {
		for (unsigned r = lo; r <= hi && ok; r++) {
			for (size_t u = 0; u < units && ok; u++) {
				size_t unit = d->c.schedule == TI_DRIVE_DUET ? u : SIZE_MAX;
				char *mine = lit_file(d, side, r, unit), *other = lit_file(d, !side, r, unit);
				char **q;
				ok = mine && other;
				bool take = ok && ti_drive_exists(mine);
				if (take && both && pass == 0) {
					take = ti_drive_exists(other);
					paired[u] |= take;
				} else if (take && both) {
					take = !paired[u];
				}
				if (take && (q = realloc(v, (k + 1) * sizeof *q))) {
					v = q;
					v[k++] = mine;
					mine = NULL;
				} else if (take) {
					ok = false;
				}
				free(mine);
				free(other);
			}
		}
	}
	free(paired);
	if (!ok) {
		ti_drive_paths_free(v, k);
		return -ENOMEM;
	}
	*paths = v;
	*n = k;
	return 0;
}

/* The files in the order of ti_drive_paths: a round alone, every file of
 * the side; the rounds so far, the pairs. */
static int lit_load(struct ti_drive *d, int side, unsigned r, struct ti_ab_set *set)
{
	struct ti_ab_error err;
	char **paths;
	size_t n;
	int rc;

	memset(set, 0, sizeof *set);
	if ((rc = collect(d, side, r ? r : 1, r ? r : d->rounds, r == 0, &paths, &n)) < 0)
		return ti_drive_fail(d, rc, "%s", strerror(-rc));
	for (size_t i = 0; i < n && rc >= 0; i++)
		rc = ti_ab_read(set, paths[i], ti_drive_metric(d), (unsigned)(i + 1), &err);
	ti_drive_paths_free(paths, n);
	return ti_drive_loaded(d, rc, &err, set);
}

static const char *lit_where(const struct ti_drive *d, int side)
{
	return d->c.side_dir[side] ? d->c.side_dir[side] : "";
}

int ti_drive_paths(const struct ti_drive *d, int side, char ***paths, size_t *n)
{
	return collect(d, side, 1, d->rounds, true, paths, n);
}

void ti_drive_paths_free(char **paths, size_t n)
{
	if (paths)
		ti_drive_strs_free(paths, n);
}

/* By the phases of a run: the run, a round, a job, the results. */
const struct ti_drive_runner ti_drive_lit_runner = {
	.prefix = "", .left = "undecided", .keyed = false, .resumable = true,
	.start = lit_start, .end = lit_end,
	.jobs = lit_jobs, .after = lit_after,
	.done = lit_done, .undo = lit_undo,
	.load = lit_load, .where = lit_where,
};
