/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive.c: the rounds of an A/B run (drive.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "drive-int.h"
#include "outfile.h"
#include "read.h"
#include "stats.h"

const char *const ti_drive_stop_name[TI_DRIVE_STOPS] = {
	"", "decided", "same binary", "max samples", "fixed", "budget", "missing", "failed",
	"interrupted",
};

unsigned ti_drive_looks(unsigned min, unsigned max, unsigned step)
{
	unsigned n = 0;

	for (unsigned r = min; r <= max; r++)
		n += (r - min) % step == 0 || r == max;
	return n ? n : 1;
}

/* The paired tests whose p has no floor at small n. */
static bool floorless(enum ti_ab_paired_test t)
{
	return t == TI_AB_RANK_OR_T || t == TI_AB_RANK_OR_YUEN || t == TI_AB_PAIRED_T ||
	       t == TI_AB_TRIMMED_T;
}

unsigned ti_drive_first_look(const struct ti_ab_config *ab, unsigned max, unsigned step)
{
	if (floorless(ab->paired_test))
		return max < 2 ? max : 2;
	for (unsigned m = 2; m < max; m++) {
		double a = ab->alpha / ti_drive_looks(m, max, step);
		if (ti_stats_min_p_mann_whitney(m, m) < a || ti_stats_min_p_signed_rank(m) < a)
			return m;
	}
	return max;
}

void ti_drive_config_init(struct ti_drive_config *c)
{
	memset(c, 0, sizeof *c);
	c->runner = TI_DRIVE_LIT;
	c->schedule = TI_DRIVE_SEQUENTIAL;
	c->order = TI_DRIVE_ALTERNATE;
	c->seed = 1;
	c->min = 0;
	c->max = 30;
	c->step = 6;
	ti_ab_config_init(&c->ab);
}

int ti_drive_config_check(const struct ti_drive_config *c, char *err, size_t len)
{
	if (c->fixed && (c->samples < 1 || c->samples > TI_DRIVE_ROUNDS_MAX))
		return snprintf(err, len, "--samples: %u is out of range (1 to %u)", c->samples,
				TI_DRIVE_ROUNDS_MAX), -EINVAL;
	if (c->min > TI_DRIVE_ROUNDS_MAX || c->max < 1 ||
	    c->max > TI_DRIVE_ROUNDS_MAX || c->step < 1 || c->step > TI_DRIVE_ROUNDS_MAX)
		return snprintf(err, len, "the rounds are out of range (1 to %u)",
				TI_DRIVE_ROUNDS_MAX), -EINVAL;
	if (!c->fixed && c->min && c->min > c->max)
		return snprintf(err, len, "--min-samples %u is above --max-samples %u", c->min,
				c->max), -EINVAL;
	if (!(c->budget >= 0 && c->budget <= TI_DRIVE_BUDGET_MAX))
		return snprintf(err, len, "--budget: out of range (0 to %.0f seconds)",
				TI_DRIVE_BUDGET_MAX), -EINVAL;
	if (c->schedule == TI_DRIVE_DUET) {
		if (c->ncpus < 2)
			return snprintf(err, len, "--schedule duet: needs two CPUs, one for A and one "
					"for B (%zu available; give --cpu, or --schedule sequential)",
					c->ncpus), -EINVAL;
		if (c->ncpus % 2)
			return snprintf(err, len, "--schedule duet: an even number of CPU sets is "
					"needed (%zu given)", c->ncpus), -EINVAL;
		for (size_t i = 1; i < c->ncpus; i++)
			if (ti_cpuset_count(&c->cpus[i]) != ti_cpuset_count(&c->cpus[0]))
				return snprintf(err, len, "--schedule duet: the CPU sets differ in "
						"size"), -EINVAL;
	}
	return 0;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	char *s;

	va_start(ap, f);
	int n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	if (n < 0 || !(s = malloc((size_t)n + 1)))
		return NULL;
	va_start(ap, f);
	vsnprintf(s, (size_t)n + 1, f, ap);
	va_end(ap);
	return s;
}

static char *dup_str(const char *s)
{
	return fmt("%s", s);
}

static int fail(struct ti_drive *d, int rc, const char *f, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct ti_drive *d, int rc, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(d->err, sizeof d->err, f, ap);
	va_end(ap);
	return rc;
}

/* splitmix64: the random orders, reproducible from the seed. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15u;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
	return x ^ (x >> 31);
}

static bool a_first(const struct ti_drive *d, unsigned r)
{
	if (d->c.order == TI_DRIVE_RANDOM)
		return (mix(mix(d->c.seed) ^ r) >> 63) == 0;
	return r % 2 == 1;
}

static const char side_name[2] = { 'A', 'B' };

/* The files of the run. */
static char *out_path(const struct ti_drive *d, const char *name)
{
	return fmt("%s/%s%s", d->c.out, d->c.runner == TI_DRIVE_SUITE ? "ab-" : "", name);
}

static char *lit_file(const struct ti_drive *d, int side, unsigned r, size_t unit)
{
	if (unit == SIZE_MAX)
		return fmt("%s/%c.%u.json", d->c.out, side_name[side], r);
	return fmt("%s/%c.%u.%zu.json", d->c.out, side_name[side], r, unit + 1);
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* The units (lit tests) and which tests belong to each. */
struct units {
	char **u;
	size_t n;
};

static ssize_t unit_index(const struct units *u, const char *name)
{
	for (size_t i = 0; i < u->n; i++)
		if (strcmp(u->u[i], name) == 0)
			return (ssize_t)i;
	return -1;
}

static int add_unit(struct units *u, const char *name)
{
	char **p;

	if (unit_index(u, name) >= 0)
		return 0;
	if (!(p = realloc(u->u, (u->n + 1) * sizeof *p)))
		return -ENOMEM;
	u->u = p;
	if (!(p[u->n] = dup_str(name)))
		return -ENOMEM;
	u->n++;
	return 0;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static struct ti_drive_test *find_test(struct ti_drive *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->t[i].name, name) == 0)
			return &d->t[i];
	return NULL;
}

static int add_test(struct ti_drive *d, const char *name, const char *unit)
{
	struct ti_drive_test *p;

	if (find_test(d, name))
		return 0;
	if (!(p = realloc(d->t, (d->n + 1) * sizeof *p)))
		return -ENOMEM;
	d->t = p;
	p += d->n;
	memset(p, 0, sizeof *p);
	p->name = dup_str(name);
	p->unit = dup_str(unit);
	if (!p->name || !p->unit) {
		free(p->name);
		free(p->unit);
		return -ENOMEM;
	}
	d->n++;
	return 0;
}

static size_t active(const struct ti_drive *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n; i++)
		n += d->t[i].stop == TI_DRIVE_ACTIVE;
	return n;
}

/* The lit tests of the tests still active (the units of round R). */
static int active_units(const struct ti_drive *d, const struct units *all, struct units *u)
{
	memset(u, 0, sizeof *u);
	for (size_t i = 0; i < all->n; i++) {
		bool want = d->n == 0;	/* lit's round 1 in a duet: every test shown */
		for (size_t k = 0; k < d->n && !want; k++)
			want = d->t[k].stop == TI_DRIVE_ACTIVE && strcmp(d->t[k].unit, all->u[i]) == 0;
		if (want && add_unit(u, all->u[i]) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* argv of one job. */
struct argv {
	char **v;
	size_t n;
};

static int arg(struct argv *a, char *s)
{
	char **p;

	if (!s || !(p = realloc(a->v, (a->n + 2) * sizeof *p))) {
		free(s);
		return -ENOMEM;
	}
	a->v = p;
	p[a->n++] = s;
	p[a->n] = NULL;
	return 0;
}

static void argv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

static void job_free(struct ti_drive_job *j)
{
	argv_free(j->argv);
	j->argv = NULL;
	free(j->log);
	free(j->tmp);
	free(j->file);
}

/* Set up job J for SIDE of round R: lit over UNITS (N; NULL: all) or the
 * suite's benchmark NAME. */
static int make_job(struct ti_drive *d, struct ti_drive_job *j, int side, unsigned r, size_t unit,
		    char *const *units, size_t n, const char *name)
{
	struct argv a = { 0 };
	int rc = 0;

	memset(j, 0, sizeof *j);
	j->side = side;
	j->unit = unit;
	if (d->c.runner == TI_DRIVE_SUITE) {
		rc |= arg(&a, dup_str("sh"));
		rc |= arg(&a, dup_str(d->c.runfile));
		rc |= arg(&a, fmt("%c", side_name[side]));
		rc |= arg(&a, dup_str(name));
		rc |= arg(&a, fmt("%u", r));
	} else {
		j->file = lit_file(d, side, r, unit);
		j->tmp = j->file ? fmt("%s.tmp", j->file) : NULL;
		j->log = unit == SIZE_MAX ? fmt("%s/%c.%u.log", d->c.out, side_name[side], r)
					  : fmt("%s/%c.%u.%zu.log", d->c.out, side_name[side], r, unit + 1);
		rc |= arg(&a, dup_str(d->c.lit));
		/* The user's -j wins over -j1; our -o and --filter over theirs
		 * (the tests left are a subset of what their --filter chose). */
		rc |= arg(&a, dup_str("-j1"));
		for (size_t i = 0; i < d->c.nlit_args; i++)
			rc |= arg(&a, dup_str(d->c.lit_args[i]));
		rc |= arg(&a, dup_str("-o"));
		rc |= arg(&a, j->tmp ? dup_str(j->tmp) : NULL);
		if (units) {
			char *f;
			if (ti_drive_lit_filter(units, n, &f) < 0)
				rc = -ENOMEM;
			else {
				rc |= arg(&a, dup_str("--filter"));
				rc |= arg(&a, f);
			}
		}
		rc |= arg(&a, dup_str(d->c.side_dir[side]));
		if (j->tmp)
			remove(j->tmp);
	}
	j->argv = a.v;
	if (rc || (!j->log && d->c.runner == TI_DRIVE_LIT)) {
		argv_free(a.v);
		j->argv = NULL;
		return -ENOMEM;
	}
	return 0;
}


static void record(const struct ti_drive *d, unsigned r, const struct ti_drive_job *j,
		   const struct units *u, double start, const char *test)
{
	char st[32];

	if (!d->samples_f)
		return;
	if (WIFEXITED(j->status))
		snprintf(st, sizeof st, "exit %d", WEXITSTATUS(j->status));
	else if (WIFSIGNALED(j->status))
		snprintf(st, sizeof st, "signal %d", WTERMSIG(j->status));
	else
		snprintf(st, sizeof st, "?");
	fprintf(d->samples_f, "%u\t%c\t%s\t%s\t%s\t%.3f\t%.3f\t%s\n", r, side_name[j->side],
		test ? test : j->unit == SIZE_MAX ? "*" : u->u[j->unit],
		d->c.schedule == TI_DRIVE_DUET ? "duet" : "sequential",
		j->cpus ? j->cpu_text : "-", j->t0 - start, j->t1 - j->t0, st);
	fflush(d->samples_f);
}

/* After a lit job: its -o file put in place.  False: lit wrote none. */
static bool lit_done(struct ti_drive_job *j)
{
	if (!exists(j->tmp)) {
		remove(j->tmp);
		return false;
	}
	return rename(j->tmp, j->file) == 0;
}

/* Remove what round R of job J left (an interrupted round). */
static void unfinished(const struct ti_drive *d, struct ti_drive_job *j, unsigned r,
		       const char *name)
{
	if (d->c.runner == TI_DRIVE_LIT) {
		remove(j->tmp);
		remove(j->file);
		return;
	}
	char *p = fmt("%s/%c/results/%s.%u.time", d->c.out, side_name[j->side], name, r);
	char *q = p ? fmt("%s.wrong-output", p) : NULL;
	if (p)
		remove(p);
	if (q)
		remove(q);
	free(p);
	free(q);
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

/* Run the jobs of round R.  Sequential: one after the other, in pairs
 * (first side, second side) when PAIRS.  Duet: pair by pair, as many pairs
 * at once as there are slots, each on its slot's CPUs.  Returns 0 (with
 * d->stop_signal set when stopped) or -errno; *BAD the side whose lit
 * wrote no results (-1: none). */
static int run_jobs(struct ti_drive *d, unsigned r, struct ti_drive_job *jobs, size_t n,
		    const struct units *u, char *const *names, double start, bool *nofile)
{
	size_t slots = d->c.schedule == TI_DRIVE_DUET ? d->c.ncpus / 2 : 0;
	int rc = 0;

	if (slots == 0) {
		for (size_t i = 0; i < n && rc == 0; i++) {
			struct ti_drive_job *p = &jobs[i];
			if ((rc = ti_drive_start(&p, 1)) == -EINTR) {
				for (size_t k = 0; k < i; k++)
					unfinished(d, &jobs[k], r, names ? names[k / 2] : NULL);
				d->stop_signal = ti_drive_stopped();
				return 0;
			}
			if (rc < 0)
				return fail(d, rc, "%s: cannot start: %s", jobs[i].argv[0], strerror(-rc));
			ti_drive_wait_job(p);
			record(d, r, p, u, start, names ? names[i / 2] : NULL);
			if (ti_drive_stopped()) {
				for (size_t k = 0; k <= i; k++)
					unfinished(d, &jobs[k], r, names ? names[k / 2] : NULL);
				d->stop_signal = ti_drive_stopped();
				return 0;
			}
			if (d->c.runner == TI_DRIVE_LIT)
				nofile[i] = !lit_done(p);
		}
		return 0;
	}
	/* Duet: jobs 2k (A) and 2k+1 (B) are a pair. */
	struct ti_drive_job **run = calloc(n, sizeof *run);
	size_t *slot_of = calloc(n, sizeof *slot_of);
	bool *busy = calloc(slots, sizeof *busy);
	size_t next = 0, nrun = 0, left = n;
	if (!run || !slot_of || !busy) {
		free(run);
		free(slot_of);
		free(busy);
		return fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	}
	while (left > 0 && rc == 0) {
		for (size_t s = 0; s < slots && next < n; s++) {
			if (busy[s])
				continue;
			struct ti_drive_job *pair[2] = { &jobs[next], &jobs[next + 1] };
			/* Slot s has sets 2s and 2s+1: A on the first in odd
			 * rounds, on the second in even ones. */
			for (int k = 0; k < 2; k++) {
				size_t set = 2 * s + (size_t)((pair[k]->side + (r % 2 == 0)) % 2);
				pair[k]->cpus = &d->c.cpus[set];
				ti_cpuset_format(pair[k]->cpus, pair[k]->cpu_text, sizeof pair[k]->cpu_text);
			}
			if ((rc = ti_drive_start(pair, 2)) == -EINTR) {
				rc = 0;
				break;
			}
			if (rc < 0) {
				fail(d, rc, "%s: cannot start: %s", pair[0]->argv[0], strerror(-rc));
				break;
			}
			busy[s] = true;
			slot_of[next] = slot_of[next + 1] = s;
			run[nrun++] = pair[0];
			run[nrun++] = pair[1];
			next += 2;
		}
		if (rc < 0 || nrun == 0 || ti_drive_stopped())
			break;
		int i = ti_drive_wait_any(run, nrun);
		if (i < 0) {
			rc = fail(d, i, "wait: %s", strerror(-i));
			break;
		}
		struct ti_drive_job *j = run[i];
		size_t ji = (size_t)(j - jobs);
		record(d, r, j, u, start, names ? names[ji / 2] : NULL);
		left--;
		if (ti_drive_stopped())
			break;
		if (d->c.runner == TI_DRIVE_LIT)
			nofile[ji] = !lit_done(j);
		struct ti_drive_job *mate = &jobs[ji ^ 1];
		if (mate->done)
			busy[slot_of[ji]] = false;
	}
	if (ti_drive_stopped() || rc < 0) {
		for (size_t k = 0; k < nrun; k++)
			ti_drive_wait_job(run[k]);
		for (size_t k = 0; k < next; k++)
			unfinished(d, &jobs[k], r, names ? names[k / 2] : NULL);
		d->stop_signal = ti_drive_stopped();
	}
	free(run);
	free(slot_of);
	free(busy);
	return rc;
}

static int collect(const struct ti_drive *d, int side, unsigned lo, unsigned hi, bool both,
		   char ***paths, size_t *n);

static bool has_summary(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	bool any = false;

	if (!dp)
		return false;
	while (!any && (e = readdir(dp)))
		any = ti_ab_read_is_summary(e->d_name);
	closedir(dp);
	return any;
}

/* The end of load(): RC from the readers (ERR says where when it is not
 * -ENOMEM) made an error of D, or SET sorted. */
static int loaded(struct ti_drive *d, int rc, const struct ti_ab_error *err, struct ti_ab_set *set)
{
	if (rc < 0 && rc != -ENOMEM)
		return fail(d, rc, "%s: %s", err->path, err->what);
	if (rc < 0)
		return fail(d, rc, "%s", strerror(ENOMEM));
	ti_ab_sort(set);
	return 0;
}

/* Read side SIDE's results: of every finished round (R = 0) or of round R
 * alone, into SET.  Lit: the files in the order of ti_drive_paths; the
 * suite: its results directory. */
static int load(struct ti_drive *d, int side, unsigned r, unsigned upto, struct ti_ab_set *set)
{
	struct ti_ab_error err;
	const char *metric = strcmp(d->c.ab.metric, "hash") == 0 ? "exec_time" : d->c.ab.metric;
	int rc;

	memset(set, 0, sizeof *set);
	if (d->c.runner == TI_DRIVE_SUITE) {
		char *dir = fmt("%s/%c/results", d->c.out, side_name[side]);
		char *bin = fmt("%s/%c/bin", d->c.out, side_name[side]);
		if (!dir || !bin) {
			free(dir);
			free(bin);
			return fail(d, -ENOMEM, "%s", strerror(ENOMEM));
		}
		/* A side with no result yet is empty, not an error. */
		rc = has_summary(dir) ? ti_ab_read(set, dir, metric, 1, &err) : 0;
		if (rc >= 0 && access(bin, F_OK) == 0)
			rc = ti_ab_read_binaries(set, bin, &err);
		free(dir);
		free(bin);
		return loaded(d, rc, &err, set);
	}
	char **paths;
	size_t n;
	/* A round alone: every file of the side; the rounds so far: the pairs. */
	if ((rc = collect(d, side, r ? r : 1, r ? r : upto, r == 0, &paths, &n)) < 0)
		return fail(d, rc, "%s", strerror(-rc));
	for (size_t i = 0; i < n && rc >= 0; i++)
		rc = ti_ab_read(set, paths[i], metric, (unsigned)(i + 1), &err);
	ti_drive_paths_free(paths, n);
	return loaded(d, rc, &err, set);
}

/* What round R of a suite benchmark or lit test did on a side: 0 absent,
 * 1 failed every run, 2 ran. */
static int outcome(const struct ti_drive *d, const struct ti_ab_bench *b, unsigned r)
{
	int best = 0;

	if (!b)
		return 0;
	for (size_t i = 0; i < b->n; i++) {
		if (d->c.runner == TI_DRIVE_SUITE && (uint32_t)b->s[i].round != r)
			continue;
		best = b->s[i].failed || isnan(b->s[i].value) ? (best ? best : 1) : 2;
	}
	return best;
}

/* After round R: the tests it lost (missing, failed on a side); -EIO when
 * every test failed on a side. */
static int check_round(struct ti_drive *d, unsigned r, struct ti_ab_set cur[2])
{
	bool ok[2] = { false, false }, failed[2] = { false, false };
	const struct ti_drive_test *first[2] = { NULL, NULL };
	int o[2];

	for (size_t i = 0; i < d->n; i++) {
		struct ti_drive_test *t = &d->t[i];
		if (t->stop != TI_DRIVE_ACTIVE)
			continue;
		for (int s = 0; s < 2; s++) {
			o[s] = outcome(d, ti_ab_find(&cur[s], t->name), r);
			ok[s] |= o[s] == 2;
			failed[s] |= o[s] == 1;
			if (o[s] < 2 && !first[s])
				first[s] = t;
		}
	}
	/* A side failed as a whole when none of its tests ran, some failed or
	 * the other side had results (tests vanished from both are missing). */
	for (int s = 0; s < 2; s++) {
		if (!ok[s] && first[s] && (failed[s] || ok[!s])) {
			const struct ti_ab_bench *b = ti_ab_find(&cur[s], first[s]->name);
			return fail(d, -EIO, "round %u: every test failed on side %c (%s); the first: "
				    "%s%s%s", r, side_name[s], d->c.side_dir[s] ? d->c.side_dir[s] :
				    d->c.runner == TI_DRIVE_SUITE ? "the suite" : "", first[s]->name,
				    b && b->failed_in ? ", see " : b ? "" : " (no result)",
				    b && b->failed_in ? b->failed_in : "");
		}
	}
	for (size_t i = 0; i < d->n; i++) {
		struct ti_drive_test *t = &d->t[i];
		if (t->stop != TI_DRIVE_ACTIVE)
			continue;
		for (int s = 0; s < 2; s++)
			o[s] = outcome(d, ti_ab_find(&cur[s], t->name), r);
		if (o[0] == 0 || o[1] == 0) {
			t->stop = TI_DRIVE_MISSING;
			snprintf(t->why, sizeof t->why, "not in side %s's results of round %u",
				 o[0] == 0 && o[1] == 0 ? "A's and B" : o[0] == 0 ? "A" : "B", r);
			continue;
		}
		t->rounds = r;
		if (o[0] == 1 || o[1] == 1) {
			t->stop = TI_DRIVE_FAILED;
			snprintf(t->why, sizeof t->why, "failed on side %s in round %u",
				 o[0] == 1 && o[1] == 1 ? "A and B" : o[0] == 1 ? "A" : "B", r);
		}
	}
	return 0;
}

/* A look through the verdict engine: the active tests decided, or (IDENT)
 * the ones with identical binaries. */
static int look(struct ti_drive *d, struct ti_ab_set *a, struct ti_ab_set *b, bool ident)
{
	struct ti_ab_config c = d->c.ab;
	struct ti_ab_result res;
	int rc;

	c.looks = d->looks;
	if ((rc = ti_ab_verdict_run(&c, a, b, NULL, NULL, &res)) < 0)
		return fail(d, rc, "the verdicts failed: %s", strerror(-rc));
	for (size_t i = 0; i < d->n; i++) {
		struct ti_drive_test *t = &d->t[i];
		const struct ti_ab_row *row = NULL;
		if (t->stop != TI_DRIVE_ACTIVE)
			continue;
		for (size_t k = 0; k < res.n && !row; k++)
			if (strcmp(res.rows[k].name, t->name) == 0)
				row = &res.rows[k];
		if (ident) {
			if (row && row->code == TI_AB_CODE_SAME)
				t->stop = TI_DRIVE_SAME_BINARY;
		} else if (!row || row->v != TI_AB_UNDECIDED || !row->decidable) {
			t->stop = TI_DRIVE_DECIDED;
		}
	}
	ti_ab_result_free(&res);
	return 0;
}

static void clock_text(char *s, size_t len, double secs)
{
	long t = secs < 0 ? 0 : (long)(secs + 0.5);
	snprintf(s, len, "%ld:%02ld", t / 60, t % 60);
}

static void progress(struct ti_drive *d, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void progress(struct ti_drive *d, const char *f, ...)
{
	char line[512];
	va_list ap;

	if (!d->c.progress)
		return;
	va_start(ap, f);
	vsnprintf(line, sizeof line, f, ap);
	va_end(ap);
	d->c.progress(d->c.progress_arg, line);
}

/* Lit's tests, from round 1's files. */
static int lit_tests(struct ti_drive *d, const struct units *all)
{
	for (int s = 0; s < 2; s++) {
		size_t nu = d->c.schedule == TI_DRIVE_DUET ? all->n : 1;
		for (size_t k = 0; k < nu; k++) {
			char *p = lit_file(d, s, 1, d->c.schedule == TI_DRIVE_DUET ? k : SIZE_MAX);
			struct ti_ab_lit_test *t;
			struct ti_ab_error e;
			size_t n;
			int rc;
			if (!p)
				return fail(d, -ENOMEM, "%s", strerror(ENOMEM));
			if (!exists(p)) {
				free(p);
				continue;
			}
			rc = ti_ab_read_lit_tests(p, &t, &n, &e);
			free(p);
			if (rc < 0 && rc != -ENOMEM && e.line)
				fail(d, rc, "%s:%d: %s", e.path, e.line, e.what);
			else if (rc < 0 && rc != -ENOMEM)
				fail(d, rc, "%s: %s", e.path, e.what);
			for (size_t i = 0; i < n && rc >= 0; i++)
				rc = add_test(d, t[i].name, t[i].unit);
			ti_ab_lit_tests_free(t, n);
			if (rc < 0)
				return rc == -ENOMEM ? fail(d, rc, "%s", strerror(ENOMEM)) : rc;
		}
	}
	return 0;
}

/* The tests lit would run on side A with the user's arguments (their
 * --filter too, which lit's --show-tests ignores: it lists every test it
 * discovers): lit --no-execute -o FILE, read by the lit format's reader.
 * The units of a duet's first round. */
static int lit_show(struct ti_drive *d, struct units *all)
{
	struct ti_drive_job j;
	struct argv a = { 0 };
	struct ti_drive_job *p = &j;
	char *json = fmt("%s/tests.json", d->c.out);
	int rc = 0;

	memset(&j, 0, sizeof j);
	rc |= arg(&a, dup_str(d->c.lit));
	for (size_t i = 0; i < d->c.nlit_args; i++)
		rc |= arg(&a, dup_str(d->c.lit_args[i]));
	rc |= arg(&a, dup_str("--no-execute"));
	rc |= arg(&a, dup_str("-o"));
	rc |= arg(&a, json ? dup_str(json) : NULL);
	rc |= arg(&a, dup_str(d->c.side_dir[0]));
	j.argv = a.v;
	j.log = fmt("%s/tests.txt", d->c.out);
	if (rc || !j.log || !json) {
		argv_free(a.v);
		free(j.log);
		free(json);
		return fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	}
	if ((rc = ti_drive_start(&p, 1)) == 0)
		ti_drive_wait_job(&j);
	else if (rc == -EINTR)
		rc = 0;
	if (rc == 0 && !ti_drive_stopped()) {
		struct ti_ab_lit_test *t = NULL;
		struct ti_ab_error e;
		size_t n = 0;
		if (!exists(json))
			rc = fail(d, -ENOENT, "%s --no-execute found no tests in %s (see %s)",
				  d->c.lit, d->c.side_dir[0], j.log);
		else if ((rc = ti_ab_read_lit_tests(json, &t, &n, &e)) < 0 && rc != -ENOMEM)
			fail(d, rc, "%s: %s", e.path, e.what);
		/* A micro-result's unit is its test: one unit each. */
		for (size_t i = 0; i < n && rc >= 0; i++)
			if (i == 0 || strcmp(t[i].unit, t[i - 1].unit) != 0)
				rc = add_unit(all, t[i].unit);
		ti_ab_lit_tests_free(t, n);
		remove(json);
	}
	if (rc == 0 && !ti_drive_stopped() && all->n == 0)
		rc = fail(d, -ENOENT, "%s --no-execute found no tests in %s (see %s)", d->c.lit,
			  d->c.side_dir[0], j.log);
	else if (rc == -ENOMEM)
		fail(d, rc, "%s", strerror(ENOMEM));
	argv_free(a.v);
	free(j.log);
	free(json);
	d->stop_signal = ti_drive_stopped();
	return rc;
}

static int write_stop(struct ti_drive *d)
{
	struct ti_buf b = { 0 };
	struct ti_outfile of;
	char *p = out_path(d, "stop.tsv");
	int rc;

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < d->n; i++)
		ti_buf_printf(&b, "%s\t%u\t%s%s%s\n", d->t[i].name, d->t[i].rounds,
			      ti_drive_stop_name[d->t[i].stop], d->t[i].why[0] ? ": " : "", d->t[i].why);
	if (b.failed)
		rc = -ENOMEM;
	else if ((rc = ti_outfile_prepare(&of, p)) == 0)
		rc = ti_outfile_commit(&of, b.data ? b.data : "", b.len);
	ti_buf_free(&b);
	if (rc < 0)
		fail(d, rc, "%s: %s", p, strerror(-rc));
	free(p);
	return rc;
}

/* Open the run's logs, rounds.log and samples.tsv (its header written). */
static int open_logs(struct ti_drive *d)
{
	char *p;
	int rc;

	if (!(p = out_path(d, "rounds.log")) || !(d->rounds_f = fopen(p, "w"))) {
		rc = fail(d, -errno, "%s: %s", p ? p : "rounds.log", strerror(errno));
		free(p);
		return rc;
	}
	free(p);
	if (!(p = out_path(d, "samples.tsv")) || !(d->samples_f = fopen(p, "w"))) {
		rc = fail(d, -errno, "%s: %s", p ? p : "samples.tsv", strerror(errno));
		free(p);
		fclose(d->rounds_f);
		return rc;
	}
	free(p);
	fprintf(d->samples_f, "round\tside\ttest\tschedule\tcpus\tstart\twall\tstatus\n");
	return 0;
}

/* The progress line of round R of ROUNDS: NA tests, NOW seconds into
 * the run, RUNS test runs done. */
static void round_progress(struct ti_drive *d, unsigned r, unsigned rounds, size_t na,
			   size_t runs, double now)
{
	const struct ti_drive_config *c = &d->c;
	char el[32], lf[64] = "";

	clock_text(el, sizeof el, now);
	if (runs > 0) {
		char t[32];
		double left = now / (double)runs * (double)na * (rounds - r + 1);
		if (c->budget > 0 && left > c->budget - now)
			left = c->budget - now;
		clock_text(t, sizeof t, left);
		snprintf(lf, sizeof lf, ", %s%s left", c->fixed ? "" : "at most ", t);
	}
	const char *duet = c->schedule == TI_DRIVE_DUET ? ", duet" : "";
	if (r == 1 && c->runner == TI_DRIVE_LIT)
		progress(d, "round 1: all tests, %s elapsed, order %s%s", el, d->order[r], duet);
	else if (!c->fixed)
		progress(d, "round %u (at most %u): %zu %s, %s elapsed%s, order %s%s", r,
			 rounds, na, c->runner == TI_DRIVE_SUITE ? "in play" : "undecided", el, lf,
			 d->order[r], duet);
	else
		progress(d, "round %u of %u: %zu tests, %s elapsed%s, order %s%s", r, rounds, na,
			 el, lf, d->order[r], duet);
}

/* The jobs of a round, and what run_jobs needs with them. */
struct round_jobs {
	struct ti_drive_job *jobs;
	size_t nj;
	char **jnames;		/* the suite's tests of the round */
	bool *nofile;		/* lit: the job wrote no -o file */
	struct units u;		/* lit: the units run */
};

static void round_jobs_free(struct round_jobs *rj)
{
	for (size_t k = 0; k < rj->nj && rj->jobs; k++)
		job_free(&rj->jobs[k]);
	free(rj->jobs);
	free(rj->nofile);
	free(rj->jnames);
	free_strs(rj->u.u, rj->u.n);
}

/* Lit's jobs of round R: one a side, or in a duet one a side per unit. */
static int lit_jobs(struct ti_drive *d, unsigned r, int first, const struct units *all,
		    struct round_jobs *rj)
{
	int rc = 0;

	if (d->c.schedule == TI_DRIVE_SEQUENTIAL) {
		if (r > 1) {
			for (size_t i = 0; i < d->n && rc == 0; i++)
				if (d->t[i].stop == TI_DRIVE_ACTIVE)
					rc = add_unit(&rj->u, d->t[i].unit);
		}
		rj->nj = 2;
		rj->jobs = calloc(rj->nj, sizeof *rj->jobs);
		rj->nofile = calloc(rj->nj, sizeof *rj->nofile);
		for (size_t k = 0; rc == 0 && rj->jobs && k < 2; k++)
			rc = make_job(d, &rj->jobs[k], (int)(k ^ (size_t)first), r, SIZE_MAX,
				      r > 1 ? rj->u.u : NULL, rj->u.n, NULL);
		return rc;
	}
	if ((rc = active_units(d, all, &rj->u)) < 0)
		return rc;
	rj->nj = 2 * rj->u.n;
	rj->jobs = calloc(rj->nj ? rj->nj : 1, sizeof *rj->jobs);
	rj->nofile = calloc(rj->nj ? rj->nj : 1, sizeof *rj->nofile);
	for (size_t k = 0; rc == 0 && rj->jobs && k < rj->u.n; k++) {
		size_t ui = (size_t)unit_index(all, rj->u.u[k]);
		for (int s = 0; s < 2 && rc == 0; s++)
			rc = make_job(d, &rj->jobs[2 * k + (size_t)s], s, r, ui, &rj->u.u[k], 1, NULL);
	}
	return rc;
}

/* The suite's jobs of round R: a pair for each of its NA tests in play,
 * written to rounds.log. */
static int suite_jobs(struct ti_drive *d, unsigned r, int first, size_t na,
		      struct round_jobs *rj)
{
	size_t k = 0;
	int rc = 0;

	rj->nj = 2 * na;
	rj->jobs = calloc(rj->nj ? rj->nj : 1, sizeof *rj->jobs);
	rj->jnames = calloc(na ? na : 1, sizeof *rj->jnames);
	for (size_t i = 0; rc == 0 && rj->jobs && rj->jnames && i < d->n; i++) {
		if (d->t[i].stop != TI_DRIVE_ACTIVE)
			continue;
		rj->jnames[k] = d->t[i].name;
		for (size_t s = 0; s < 2 && rc == 0; s++) {
			/* Duet pairs are A, B; sequential ones the round's order. */
			int side = d->c.schedule == TI_DRIVE_DUET ? (int)s : (int)(s ^ (size_t)first);
			rc = make_job(d, &rj->jobs[2 * k + s], side, r, SIZE_MAX, NULL, 0, d->t[i].name);
		}
		k++;
	}
	if (rj->jnames && d->rounds_f) {
		fprintf(d->rounds_f, "%u %s", r, d->order[r]);
		for (size_t i = 0; i < k; i++)
			fprintf(d->rounds_f, " %s", rj->jnames[i]);
		fprintf(d->rounds_f, "\n");
	}
	return rc;
}

/* Lit's jobs that wrote no results: an error in a sequential round,
 * unless every test left vanished. */
static int check_lit_files(struct ti_drive *d, unsigned r, const struct round_jobs *rj)
{
	const struct ti_drive_config *c = &d->c;

	for (size_t k = 0; k < rj->nj; k++) {
		const struct ti_drive_job *j = &rj->jobs[k];
		if (!rj->nofile[k])
			continue;
		/* Every test left vanished: lit says so (main.py) and writes
		 * nothing; the check of the round reports them missing. */
		if (r > 1 && (log_says(j->log, "did not match any tests") ||
			      log_says(j->log, "did not discover any tests")))
			continue;
		if (c->schedule == TI_DRIVE_SEQUENTIAL)
			return fail(d, -EIO, "%s on %s (side %c, round %u) wrote no results; see %s",
				    c->lit, c->side_dir[j->side], side_name[j->side], r, j->log);
	}
	return 0;
}

/* Run round R of ROUNDS (NA tests in play); *LAST gets its wall time. */
static int run_round(struct ti_drive *d, unsigned r, size_t na, struct units *all, double start,
		     double *last)
{
	const struct ti_drive_config *c = &d->c;
	struct round_jobs rj = { 0 };
	int first = a_first(d, r) ? 0 : 1, rc;

	rc = c->runner == TI_DRIVE_LIT ? lit_jobs(d, r, first, all, &rj)
				       : suite_jobs(d, r, first, na, &rj);
	if (rc == 0 && (!rj.jobs || (c->runner == TI_DRIVE_LIT && !rj.nofile)))
		rc = -ENOMEM;
	if (rc < 0) {
		fail(d, rc, "%s", strerror(-rc));
	} else {
		double t0 = ti_drive_now();
		rc = run_jobs(d, r, rj.jobs, rj.nj, all, rj.jnames, start, rj.nofile);
		*last = ti_drive_now() - t0;
	}
	/* Lit's sequential jobs name no unit: the samples say "*". */
	if (rc == 0 && !d->stop_signal && c->runner == TI_DRIVE_LIT)
		rc = check_lit_files(d, r, &rj);
	round_jobs_free(&rj);
	return rc;
}

/* After lit's round 1: its tests, from its files. */
static int lit_round1(struct ti_drive *d, struct units *all)
{
	const struct ti_drive_config *c = &d->c;
	int rc;

	if ((rc = lit_tests(d, all)) < 0)
		return rc;
	if (d->n == 0)
		return fail(d, -ENOENT, "%s found no tests in %s (see %s/A.1.log)", c->lit,
			    c->side_dir[0], c->out);
	if (c->schedule == TI_DRIVE_SEQUENTIAL)
		for (size_t i = 0; i < d->n && rc == 0; i++)
			rc = add_unit(all, d->t[i].unit);
	return rc;
}

/* Round R's results: who ran, who failed, who vanished; and a look at
 * all rounds so far when one is due. */
static int round_results(struct ti_drive *d, unsigned r, unsigned rounds)
{
	const struct ti_drive_config *c = &d->c;
	struct ti_ab_set cur[2];
	int rc;

	if ((rc = load(d, 0, r, r, &cur[0])) < 0)
		return rc;
	if ((rc = load(d, 1, r, r, &cur[1])) < 0) {
		ti_ab_set_free(&cur[0]);
		return rc;
	}
	rc = check_round(d, r, cur);
	if (rc == 0 && r == 1 && !c->fixed)
		rc = look(d, &cur[0], &cur[1], true);
	ti_ab_set_free(&cur[0]);
	ti_ab_set_free(&cur[1]);
	if (rc < 0)
		return rc;
	if (!c->fixed && r >= d->min && ((r - d->min) % c->step == 0 || r == rounds) &&
	    active(d) > 0) {
		struct ti_ab_set all_s[2];
		if ((rc = load(d, 0, 0, r, &all_s[0])) < 0)
			return rc;
		if ((rc = load(d, 1, 0, r, &all_s[1])) == 0)
			rc = look(d, &all_s[0], &all_s[1], false);
		ti_ab_set_free(&all_s[0]);
		ti_ab_set_free(&all_s[1]);
	}
	return rc;
}

/* Mark the tests still in play as stopped for WHY. */
static void stop_active(struct ti_drive *d, enum ti_drive_stop why)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->t[i].stop == TI_DRIVE_ACTIVE)
			d->t[i].stop = why;
}

/* Whether the run ends after round R of ROUNDS: nothing left in play,
 * the last round, or no room in the budget for the next one (costed as
 * round R per test: LAST seconds for LAST_N tests). */
static bool run_ends(struct ti_drive *d, unsigned r, unsigned rounds, double last, size_t last_n,
		     double start)
{
	const struct ti_drive_config *c = &d->c;
	size_t next = active(d);

	if (next == 0)
		return true;
	if (r == rounds) {
		stop_active(d, c->fixed ? TI_DRIVE_FIXED : TI_DRIVE_MAX);
		return true;
	}
	/* The budget is a bound: the next round must end within it. */
	if (c->budget > 0) {
		double est = last_n ? last * (double)next / (double)last_n : last;
		if (ti_drive_now() - start + est > c->budget) {
			stop_active(d, TI_DRIVE_BUDGET);
			return true;
		}
	}
	return false;
}

/* With a budget and MAX auto, after round 1 (LAST seconds for LAST_N
 * tests): no more than ROUNDS, nor than the rounds the budget holds at
 * that cost per test for the tests left in play, and the looks planned
 * over those.  Looks beyond the budget's reach would spend alpha for
 * nothing: with 6 planned where 4 rounds fit, 77 % of 30 LLVM tests were
 * decided within 6T, with 2, 83 % (docs/LLVM-TEST-SUITE.md).  Round 1
 * shows only cost and identity, no comparison: the plan stays fixed
 * before the first look. */
static unsigned budget_rounds(struct ti_drive *d, unsigned rounds, double last, size_t last_n,
			      double start)
{
	const struct ti_drive_config *c = &d->c;
	size_t next = active(d);

	if (!c->max_auto || c->fixed || !(c->budget > 0) || next == 0 || last_n == 0)
		return rounds;
	double est = last * (double)next / (double)last_n, left = c->budget - (ti_drive_now() - start);
	double fit = est > 0 ? 1 + floor(left / est) : (double)rounds;
	if (fit < (double)rounds)
		rounds = (unsigned)fit > d->min ? (unsigned)fit : d->min;
	d->looks = ti_drive_looks(d->min, rounds, c->step);
	return rounds;
}

int ti_drive_run(struct ti_drive *d, const struct ti_drive_config *c, char *const *names, size_t n)
{
	struct units all = { 0 };
	int rc = 0;
	double start = ti_drive_now(), last = 0;
	size_t last_n = 0, runs = 0;
	unsigned rounds;

	memset(d, 0, sizeof *d);
	d->c = *c;
	if ((rc = ti_drive_config_check(c, d->err, sizeof d->err)) < 0)
		return rc;
	rounds = c->fixed ? c->samples : c->max;
	d->min = c->min ? c->min : ti_drive_first_look(&c->ab, c->max, c->step);
	d->looks = c->fixed ? 1 : ti_drive_looks(d->min, c->max, c->step);
	for (size_t i = 0; i < n; i++)
		if ((rc = add_test(d, names[i], names[i])) < 0)
			return fail(d, rc, "%s", strerror(ENOMEM));
	if (c->runner == TI_DRIVE_SUITE && d->n == 0)
		return fail(d, -ENOENT, "no benchmark to run");
	if ((rc = open_logs(d)) < 0)
		return rc;
	ti_drive_signals(true);
	if (c->runner == TI_DRIVE_LIT && c->schedule == TI_DRIVE_DUET) {
		rc = lit_show(d, &all);
		d->nunits = all.n;
	}
	for (unsigned r = 1; rc == 0 && !d->stop_signal && r <= rounds; r++) {
		size_t na = r == 1 && d->n == 0 ? 0 : active(d);

		if (r > 1 && na == 0)
			break;
		/* A stop between rounds (in a look): no round starts. */
		if ((d->stop_signal = ti_drive_stopped()) != 0)
			break;
		snprintf(d->order[r], sizeof d->order[r], "%s", a_first(d, r) ? "AB" : "BA");
		round_progress(d, r, rounds, na, runs, ti_drive_now() - start);
		if ((rc = run_round(d, r, na, &all, start, &last)) < 0 || d->stop_signal)
			break;
		if (c->runner == TI_DRIVE_LIT && r == 1 && (rc = lit_round1(d, &all)) < 0)
			break;
		if (c->runner == TI_DRIVE_LIT)
			fprintf(d->rounds_f, "%u %s %zu\n", r, d->order[r], r == 1 ? d->n : na);
		fflush(d->rounds_f);
		d->rounds = r;
		last_n = r == 1 ? d->n : na;
		runs += last_n;
		if ((rc = round_results(d, r, rounds)) < 0 ||
		    run_ends(d, r, rounds, last, last_n, start))
			break;
		if (r == 1)
			rounds = budget_rounds(d, rounds, last, last_n, start);
	}
	if (d->stop_signal)
		stop_active(d, TI_DRIVE_INTERRUPTED);
	ti_drive_signals(false);
	d->stop_signal = d->stop_signal ? d->stop_signal : ti_drive_stopped();
	d->wall = ti_drive_now() - start;
	free_strs(all.u, all.n);
	fclose(d->samples_f);
	fclose(d->rounds_f);
	d->samples_f = d->rounds_f = NULL;
	if (d->n > 0) {
		int wrc = write_stop(d);
		if (rc == 0)
			rc = wrc;
	}
	return rc;
}

/* Side SIDE's lit files of rounds LO to HI: those whose partner exists
 * too when BOTH (the pairs of the verdicts), else every one. */
static int collect(const struct ti_drive *d, int side, unsigned lo, unsigned hi, bool both,
		   char ***paths, size_t *n)
{
	char **v = NULL;
	size_t k = 0;
	size_t units = d->c.schedule == TI_DRIVE_DUET ? d->nunits : 1;

	*paths = NULL;
	*n = 0;
	for (unsigned r = lo; r <= hi; r++) {
		for (size_t u = 0; u < units; u++) {
			size_t unit = d->c.schedule == TI_DRIVE_DUET ? u : SIZE_MAX;
			char *mine = lit_file(d, side, r, unit), *other = lit_file(d, !side, r, unit);
			char **q = NULL;
			bool ok = mine && other;
			if (ok && exists(mine) && (!both || exists(other))) {
				if ((q = realloc(v, (k + 1) * sizeof *q))) {
					v = q;
					v[k++] = mine;
					mine = NULL;
				} else {
					ok = false;
				}
			}
			free(mine);
			free(other);
			if (!ok) {
				ti_drive_paths_free(v, k);
				return -ENOMEM;
			}
		}
	}
	*paths = v;
	*n = k;
	return 0;
}

int ti_drive_paths(const struct ti_drive *d, int side, char ***paths, size_t *n)
{
	return collect(d, side, 1, d->rounds, true, paths, n);
}

void ti_drive_paths_free(char **paths, size_t n)
{
	if (paths)
		free_strs(paths, n);
}

void ti_drive_free(struct ti_drive *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->t[i].name);
		free(d->t[i].unit);
	}
	free(d->t);
	d->t = NULL;
	d->n = 0;
}
