/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-compile.c: the runner of two build trees' compiles (timeit-ab
 * --compile BUILD_A BUILD_B): each tree's compile_commands.json
 * (compdb.h), its units matched by source file and program, each unit's
 * compile run again from its own directory under timeit, a side and round
 * a job:
 *   TIMEIT --summary OUT/S/results/R/CMakeFiles/PROGRAM.dir/K.o.time
 *          --report-maxrss --chdir DIR -- COMPILER ... -o OUT/S/scratch/K.o ...
 * (-MF's file to scratch too: nothing is written into the trees), the
 * compiler's output in OUT/S/logs/K.R.log.  The reader sums a program's
 * units a round (compile_time, as lit does; compile_wall the real lines;
 * compile_maxrss the largest unit's; with count_under, from round 2 on
 * the units whose round-1 compiles were short enough get timeit's
 * --count-instructions=valgrind, compile_valgrind-instructions), so the
 * tests are programs;
 * with per_unit each unit is a test (PROGRAM:SOURCE, OUT/S/results/R/
 * NAME.compile.time).  OUT/S/bin/TEST holds what identifies the test's
 * compiles: the compiler's resolved path, its arguments with the tree's
 * root as BUILD and the outputs left out, and the sources; alike on both
 * sides, the test is decided after round 1 (same binary). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "compdb.h"
#include "drive-util.h"

static const char side_name[2] = { 'A', 'B' };

struct compile {
	struct ti_compdb db[2];
	size_t *mate;		/* A's unit K: B's unit, or SIZE_MAX */
	size_t *test;		/* A's unit K: its test in D */
	unsigned char *counted;	/* A's unit K: 0 not yet known, 1 counted, 2 not */
	char *root[2];		/* the trees' roots (the database's directory) */
	char *where[2];
};

static struct compile *state(struct ti_drive *d)
{
	return d->state;
}

static int nomem(struct ti_drive *d)
{
	return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
}

/* A unit's test name: its program, or PROGRAM:SOURCE with '/' as ':'. */
static char *test_name(const struct ti_drive *d, const struct ti_compdb_unit *u)
{
	if (!d->c.per_unit)
		return ti_drive_strdup(u->program);
	char *n = ti_drive_strdup(u->name);
	for (char *p = n; p && *p; p++)
		if (*p == '/')
			*p = ':';
	return n;
}

/* Mark test NAME missing, WHY naming the unit and its side. */
static int lone(struct ti_drive *d, const struct ti_compdb_unit *u, int side)
{
	char *n = test_name(d, u);
	ssize_t t;
	int rc = 0;

	if (!n)
		return nomem(d);
	if (ti_drive_test_index(d, n) < 0 && (rc = ti_drive_test_add(d, n, n)) < 0) {
		free(n);
		return nomem(d);
	}
	t = ti_drive_test_index(d, n);
	free(n);
	if (d->t[t].stop != TI_DRIVE_MISSING) {
		d->t[t].stop = TI_DRIVE_MISSING;
		snprintf(d->t[t].why, sizeof d->t[t].why, "%s compiled in %c only", u->file,
			 side_name[side]);
	}
	return rc;
}

static void compile_end(struct ti_drive *d);

/* Read both databases and match their units: the tests in A's order. */
static int open_trees(struct ti_drive *d)
{
	struct compile *s = calloc(1, sizeof *s);
	char err[1024];
	int rc = 0;

	if (!(d->state = s))
		return nomem(d);
	for (int k = 0; k < 2; k++) {
		char *db = ti_drive_fmt("%s/compile_commands.json", d->c.side_dir[k]);
		if (!db || !(s->root[k] = realpath(d->c.side_dir[k], NULL))) {
			free(db);
			return db ? ti_drive_fail(d, -errno, "%s: %s", d->c.side_dir[k], strerror(errno))
				  : nomem(d);
		}
		rc = ti_compdb_read(db, &s->db[k], err, sizeof err);
		free(db);
		if (rc < 0)
			return ti_drive_fail(d, rc, "%s", err);
		if (!(s->where[k] = ti_drive_fmt("%s; the compilers' output in %s/%c/logs",
						 d->c.side_dir[k], d->c.out, side_name[k])))
			return nomem(d);
	}
	size_t na = s->db[0].n;
	if (!(s->mate = calloc(na, sizeof *s->mate)) || !(s->test = calloc(na, sizeof *s->test)) ||
	    !(s->counted = calloc(na + 1, 1)))
		return nomem(d);
	for (size_t i = 0; rc == 0 && i < na; i++) {
		const struct ti_compdb_unit *u = &s->db[0].u[i];
		const struct ti_compdb_unit *v = ti_compdb_find(&s->db[1], u->file, u->program);
		char *n = test_name(d, u);
		s->mate[i] = v ? (size_t)(v - s->db[1].u) : SIZE_MAX;
		if (!n)
			return nomem(d);
		if (ti_drive_test_index(d, n) < 0 && ti_drive_test_add(d, n, n) < 0)
			rc = nomem(d);
		s->test[i] = (size_t)ti_drive_test_index(d, n);
		free(n);
		if (rc == 0 && !v)
			rc = lone(d, u, 0);
	}
	for (size_t j = 0; rc == 0 && j < s->db[1].n; j++) {
		const struct ti_compdb_unit *v = &s->db[1].u[j];
		if (!ti_compdb_find(&s->db[0], v->file, v->program))
			rc = lone(d, v, 1);
	}
	return rc;
}

/* What open_trees made goes when it fails: end comes only after start. */
static int compile_open(struct ti_drive *d)
{
	int rc = open_trees(d);

	if (rc < 0)
		compile_end(d);
	return rc;
}

/* PATH with the tree's ROOT as BUILD, into B. */
static void rooted(struct ti_buf *b, const char *path, const char *root)
{
	size_t n = strlen(root);
	const char *p = path;

	for (const char *q; (q = strstr(p, root)) != NULL; p = q + n) {
		ti_buf_append(b, p, (size_t)(q - p));
		ti_buf_append(b, "BUILD", 5);
	}
	ti_buf_printf(b, "%s", p);
}

/* The compiler of U as the shell would find it, into OUT (LEN). */
static void compiler_path(const struct ti_compdb_unit *u, char *out, size_t len)
{
	const char *c = u->argv[0], *path = getenv("PATH");
	char buf[PATH_MAX];

	snprintf(buf, sizeof buf, "%s", c);
	if (c[0] != '/' && strchr(c, '/'))
		snprintf(buf, sizeof buf, "%s/%s", u->dir, c);
	while (!strchr(c, '/') && path && *path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? path : ".", c);
		if (access(buf, X_OK) == 0)
			break;
		path = colon ? colon + 1 : NULL;
	}
	if (!realpath(buf, out))
		snprintf(out, len, "%s", c);
}

/* Whether argument K of U names an output of the compile. */
static bool output_arg(const struct ti_compdb_unit *u, size_t k)
{
	return k > 0 && (strcmp(u->argv[k - 1], "-o") == 0 || strcmp(u->argv[k - 1], "-MF") == 0 ||
			 strcmp(u->argv[k - 1], "-MT") == 0 || strcmp(u->argv[k - 1], "-MQ") == 0);
}

/* What identifies test T's compiles on side SIDE, to OUT/S/bin/TEST. */
static int write_identity(struct ti_drive *d, size_t t, int side)
{
	struct compile *s = state(d);
	struct ti_buf b = { 0 };
	char path[PATH_MAX];
	int rc = 0;

	for (size_t i = 0; i < s->db[0].n; i++) {
		if (s->test[i] != t || s->mate[i] == SIZE_MAX)
			continue;
		const struct ti_compdb_unit *u = side ? &s->db[1].u[s->mate[i]] : &s->db[0].u[i];
		compiler_path(u, path, sizeof path);
		ti_buf_printf(&b, "%s\n", path);
		for (size_t k = 1; k < u->argc; k++) {
			if (output_arg(u, k))
				continue;
			rooted(&b, u->argv[k], s->root[side]);
			ti_buf_append(&b, "\n", 1);
		}
		ti_buf_printf(&b, "%s\n\n", u->file);
	}
	char *p = ti_drive_fmt("%s/%c/bin/%s", d->c.out, side_name[side], d->t[t].name);
	FILE *f = p && !b.failed ? fopen(p, "w") : NULL;
	if (!p || b.failed)
		rc = nomem(d);
	else if (!f || fwrite(b.data ? b.data : "", 1, b.len, f) != b.len || fclose(f) != 0)
		rc = ti_drive_fail(d, -errno, "%s: %s", p, strerror(errno ? errno : EIO));
	free(p);
	ti_buf_free(&b);
	return rc;
}

static int mkdirs(struct ti_drive *d, const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; ; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(buf, 0777) < 0 && errno != EEXIST)
			return ti_drive_fail(d, -errno, "%s: %s", buf, strerror(errno));
		if (!(*p = c))
			return 0;
	}
}

static int compile_start(struct ti_drive *d)
{
	static const char *const sub[] = { "results", "scratch", "logs", "bin" };
	int rc = 0;

	for (int k = 0; k < 2 && rc == 0; k++)
		for (size_t j = 0; j < 4 && rc == 0; j++) {
			char *p = ti_drive_fmt("%s/%c/%s", d->c.out, side_name[k], sub[j]);
			rc = p ? mkdirs(d, p) : nomem(d);
			free(p);
		}
	for (size_t t = 0; rc == 0 && !d->c.no_identity && t < d->n; t++)
		for (int k = 0; k < 2 && rc == 0 && d->t[t].stop == TI_DRIVE_ACTIVE; k++)
			rc = write_identity(d, t, k);
	return rc;
}

/* The summary of unit K (A's index) of test T, side SIDE, round R. */
static char *result_path(const struct ti_drive *d, size_t t, size_t k, int side, unsigned r)
{
	if (d->c.per_unit)
		return ti_drive_fmt("%s/%c/results/%u/%s.compile.time", d->c.out, side_name[side], r,
				    d->t[t].name);
	return ti_drive_fmt("%s/%c/results/%u/CMakeFiles/%s.dir/%zu.o.time", d->c.out,
			    side_name[side], r, d->t[t].name, k);
}

/* The real line of summary PATH, or NAN. */
static double summary_real(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	double v = NAN;

	while (f && fgets(line, sizeof line, f)) {
		char *end;
		if (strncmp(line, "real ", 5) != 0)
			continue;
		v = strtod(line + 5, &end);
		if (end == line + 5)
			v = NAN;
	}
	if (f)
		fclose(f);
	return v;
}

/* Whether unit K (A's index) of test T is counted under valgrind: its
 * round-1 compiles took under count_under seconds on both sides, so that
 * both sides count the same units. */
static bool counted(struct ti_drive *d, size_t t, size_t k)
{
	struct compile *s = state(d);

	if (!s->counted[k]) {
		bool yes = true;
		for (int side = 0; side < 2 && yes; side++) {
			char *p = result_path(d, t, k, side, 1);
			double v = p ? summary_real(p) : NAN;
			yes = v < d->c.count_under;	/* NAN: no */
			free(p);
		}
		s->counted[k] = yes ? 1 : 2;
	}
	return s->counted[k] == 1;
}

/* Job J: unit K of test T on side SIDE in round R. */
static int compile_job(struct ti_drive *d, struct ti_drive_job *j, size_t t, size_t k, int side,
		       unsigned r)
{
	struct compile *s = state(d);
	const struct ti_compdb_unit *u = side ? &s->db[1].u[s->mate[k]] : &s->db[0].u[k];
	struct ti_drive_argv a = { 0 };
	char *res = result_path(d, t, k, side, r), *dir = res ? strdup(res) : NULL;
	int rc = 0;

	ti_drive_job_init(j, side, r, k, d->t[t].name);
	if (!res || !dir || !(j->log = ti_drive_fmt("%s/%c/logs/%zu.%u.log", d->c.out,
						     side_name[side], k, r))) {
		free(res);
		free(dir);
		return -ENOMEM;
	}
	*strrchr(dir, '/') = '\0';
	if ((rc = mkdirs(d, dir)) < 0) {
		free(res);
		free(dir);
		return rc;
	}
	free(dir);
	rc |= ti_drive_arg(&a, ti_drive_strdup(d->c.timeit));
	rc |= ti_drive_arg(&a, ti_drive_strdup("--summary"));
	rc |= ti_drive_arg(&a, res);
	rc |= ti_drive_arg(&a, ti_drive_strdup("--report-maxrss"));
	if (d->c.count_under > 0 && r > 1 && counted(d, t, k))
		rc |= ti_drive_arg(&a, ti_drive_strdup("--count-instructions=valgrind"));
	rc |= ti_drive_arg(&a, ti_drive_strdup("--chdir"));
	rc |= ti_drive_arg(&a, ti_drive_strdup(u->dir));
	rc |= ti_drive_arg(&a, ti_drive_strdup("--"));
	for (size_t i = 0; i < u->argc; i++) {
		bool o = i > 0 && strcmp(u->argv[i - 1], "-o") == 0;
		bool mf = i > 0 && strcmp(u->argv[i - 1], "-MF") == 0;
		if (o || mf)
			rc |= ti_drive_arg(&a, ti_drive_fmt("%s/%c/scratch/%zu.%s", d->c.out,
							    side_name[side], k, o ? "o" : "d"));
		else
			rc |= ti_drive_arg(&a, ti_drive_strdup(u->argv[i]));
	}
	return ti_drive_job_argv(j, &a, rc == 0);
}

/* A pair a unit of every test in play: A, B in a duet, the round's order
 * otherwise. */
static int compile_jobs(struct ti_drive *d, struct ti_drive_round *rd)
{
	struct compile *s = state(d);
	size_t n = 0;
	int rc = 0;

	for (size_t k = 0; k < s->db[0].n; k++)
		n += s->mate[k] != SIZE_MAX && d->t[s->test[k]].stop == TI_DRIVE_ACTIVE;
	if (!(rd->jobs = calloc(2 * n + 1, sizeof *rd->jobs)))
		return nomem(d);
	rd->n = 0;
	for (size_t k = 0; rc == 0 && k < s->db[0].n; k++) {
		if (s->mate[k] == SIZE_MAX || d->t[s->test[k]].stop != TI_DRIVE_ACTIVE)
			continue;
		for (size_t p = 0; p < 2 && rc == 0; p++) {
			int side = d->c.schedule == TI_DRIVE_DUET ? (int)p : (int)(p ^ (size_t)rd->first);
			rc = compile_job(d, &rd->jobs[rd->n++], s->test[k], k, side, rd->r);
		}
	}
	if (rc == 0 && d->rounds_f) {
		struct ti_buf b = { 0 };
		ti_buf_printf(&b, "%u %s %zu\n", rd->r, d->order[rd->r], n);
		ti_drive_write_buf(d, d->rounds_f, "rounds.log", &b);
	}
	return rc < 0 ? ti_drive_fail(d, rc, "%s", strerror(-rc)) : 0;
}

static void compile_undo(struct ti_drive *d, struct ti_drive_job *j)
{
	struct compile *s = state(d);
	char *p = result_path(d, s->test[j->unit], j->unit, j->side, j->round);

	if (p)
		remove(p);
	free(p);
}

/* timeit writes its summary whatever the compiler does (a compile that
 * fails is a failed sample): a job without one means timeit could not
 * run, and its log says why. */
static int compile_after(struct ti_drive *d, struct ti_drive_round *rd)
{
	struct compile *s = state(d);

	for (size_t k = 0; k < rd->n; k++) {
		const struct ti_drive_job *j = &rd->jobs[k];
		char *p = result_path(d, s->test[j->unit], j->unit, j->side, j->round);
		int rc = 0;

		if (!p)
			return nomem(d);
		if (!ti_drive_exists(p))
			rc = ti_drive_fail(d, -EIO, "%s failed on side %c in round %u and wrote no "
					   "summary (see %s)", d->c.timeit, side_name[j->side], j->round,
					   j->log);
		free(p);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int compile_load(struct ti_drive *d, int side, unsigned r, struct ti_ab_set *set)
{
	char *dir = ti_drive_fmt("%s/%c/results", d->c.out, side_name[side]);
	char *bin = ti_drive_fmt("%s/%c/bin", d->c.out, side_name[side]);
	struct ti_ab_error err;
	int rc = 0;

	(void)r;
	memset(set, 0, sizeof *set);
	if (dir && bin) {
		char *one = ti_drive_fmt("%s/1", dir);
		struct stat st;
		/* Round 1's directory: results to read. */
		if (one && stat(one, &st) == 0)
			rc = ti_ab_read(set, dir, ti_drive_metric(d), 1, &err);
		free(one);
		if (rc >= 0)
			rc = ti_ab_read_binaries(set, bin, &err);
		rc = ti_drive_loaded(d, rc, &err, set);
	} else {
		rc = nomem(d);
	}
	free(dir);
	free(bin);
	return rc;
}

static const char *compile_where(const struct ti_drive *d, int side)
{
	const struct compile *s = d->state;
	return s && s->where[side] ? s->where[side] : d->c.side_dir[side];
}

static void compile_end(struct ti_drive *d)
{
	struct compile *s = d->state;

	if (!s)
		return;
	for (int k = 0; k < 2; k++) {
		ti_compdb_free(&s->db[k]);
		free(s->root[k]);
		free(s->where[k]);
	}
	free(s->mate);
	free(s->test);
	free(s->counted);
	free(s);
	d->state = NULL;
}

/* By the phases of a run: the run, a round, a job, the results. */
const struct ti_drive_runner ti_drive_compile_runner = {
	.prefix = "", .left = "in play", .keyed = true, .resumable = true,
	.open = compile_open, .start = compile_start,
	.jobs = compile_jobs,
	.undo = compile_undo,
	.after = compile_after,
	.load = compile_load, .where = compile_where,
	.end = compile_end,
};
