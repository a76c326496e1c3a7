/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-test: what lib/drive decides without running a benchmark: lit's
 * --filter for odd names, the tests of a lit -o file as lib/ab/read-lit.c
 * lists them (micro-results follow their test), the looks of a run, the
 * ranges of its configuration, and the rounds driving a runner of the
 * test's own through drive-runner.h alone, on both schedules (TAP). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "drive-child.h"
#include "buf.h"
#include "drive-runner.h"
#include "drive-util.h"
#include "drive.h"
#include "os.h"
#include "read.h"
#include "tap.h"

/* Equal to the last bits or so: on i386 the x87 keeps intermediates in
 * 80 bits, so a level computed twice may differ in its last bit. */
static bool near(double x, double y)
{
	return fabs(x - y) <= 1e-12 * fabs(y);
}

/* The TSV field of NAME is WANT. */
static void tsv(int line, const char *name, const char *want)
{
	struct ti_buf b = { 0 };

	ti_drive_tsv(&b, name);
	ti_buf_append(&b, "", 1);
	tap_ok(!b.failed && strcmp(b.data, want) == 0, line, "TSV field: %s", b.data ? b.data : "");
	ti_buf_free(&b);
}

static void filter(int line, const char *name, const char *want)
{
	char *units[] = { (char *)name }, *f = NULL;
	int rc = ti_drive_lit_filter(units, 1, &f);

	tap_ok(rc == 0 && f && strcmp(f, want) == 0, line, "filter of '%s': %s", name, f ? f : "(none)");
	free(f);
}

/* ti_ab_read_lit_tests of a file holding JSON. */
static int lit_tests(const char *json, struct ti_ab_lit_test **t, size_t *n, struct ti_ab_error *e)
{
	char path[] = "/tmp/drive-test.XXXXXX";
	int fd = mkstemp(path), rc = -EIO;

	*t = NULL;
	*n = 0;
	if (fd < 0)
		return -errno;
	if (write(fd, json, strlen(json)) == (ssize_t)strlen(json))
		rc = ti_ab_read_lit_tests(path, t, n, e);
	close(fd);
	unlink(path);
	return rc;
}

/* A runner of the test's own, through drive-runner.h alone: one child
 * (true) per side and round over every unit, canned results written
 * when it ends as timeit summaries DIR/SIDE/NAME.ROUND.time.  Unit t1 is
 * twice as slow on B, t2 the same, t3 gone from B's round 2. */
static struct {
	char dir[64];
	int starts, ends, afters;
	char done[64];			/* the sides done, in order: "ABBA" */
	const struct ti_cpuset *cpus[4];	/* where each ran */
	size_t ndone;
	unsigned loads[3];		/* load calls by round (0: all) */
	size_t njobs;			/* a round's runs (0: 2, "true"; more: "sleep 0.03") */
	size_t ended_lines;		/* progress lines within a round */
	char last_line[128];
} fake;

static const char *const fake_unit[] = { "t1", "t2", "t3" };
static const double fake_value[2][3][2] = {
	{ { 1.00, 1.01 }, { 1.00, 1.02 }, { 1.00, 1.00 } },
	{ { 2.00, 2.02 }, { 1.01, 1.00 }, { 1.00, -1 } },
};

static int fake_start(struct ti_drive *d)
{
	fake.starts++;
	d->state = &fake;
	return 0;
}

static int fake_jobs(struct ti_drive *d, struct ti_drive_round *rd)
{
	rd->n = fake.njobs ? fake.njobs : 2;
	if (!(rd->jobs = calloc(rd->n, sizeof *rd->jobs)))
		return -ENOMEM;
	for (size_t k = 0; k < rd->n; k++) {
		struct ti_drive_job *j = &rd->jobs[k];
		j->side = (int)(k % 2) ^ (d->c.schedule == TI_DRIVE_DUET ? 0 : rd->first);
		j->round = rd->r;
		j->unit = SIZE_MAX;
		j->what = "*";
		if (!(j->argv = calloc(3, sizeof *j->argv)) ||
		    !(j->argv[0] = strdup(fake.njobs ? "sleep" : "true")) ||
		    (fake.njobs && !(j->argv[1] = strdup("0.03"))))
			return -ENOMEM;
	}
	return 0;
}

static void fake_done(struct ti_drive *d, struct ti_drive_job *j)
{
	char path[128];

	(void)d;
	if (fake.ndone + 1 >= sizeof fake.done)
		return;
	fake.done[fake.ndone] = "AB"[j->side];
	fake.cpus[fake.ndone++ % 4] = j->cpus;
	for (size_t u = 0; u < 3; u++) {
		double v = fake_value[j->side][u][j->round - 1];
		FILE *f;
		snprintf(path, sizeof path, "%s/%c/%s.%u.time", fake.dir, "AB"[j->side], fake_unit[u],
			 j->round);
		if (v > 0 && (f = fopen(path, "w"))) {
			fprintf(f, "exit 0\nreal %.4f\nuser %.4f\nsys 0.0000\n", v, v);
			fclose(f);
		}
	}
}

static int fake_after(struct ti_drive *d, struct ti_drive_round *rd)
{
	fake.afters++;
	fprintf(d->rounds_f, "%u %s\n", rd->r, d->order[rd->r]);
	return 0;
}

static int fake_load(struct ti_drive *d, int side, unsigned r, struct ti_ab_set *set)
{
	char dir[96];
	struct ti_ab_error err;
	int rc;

	fake.loads[r < 3 ? r : 0]++;
	memset(set, 0, sizeof *set);
	snprintf(dir, sizeof dir, "%s/%c", fake.dir, "AB"[side]);
	if ((rc = ti_ab_read(set, dir, d->c.ab.metric, 1, &err)) < 0)
		return snprintf(d->err, sizeof d->err, "%.700s: %.200s", err.path, err.what), rc;
	ti_ab_sort(set);
	return 0;
}

static const char *fake_where(const struct ti_drive *d, int side)
{
	(void)d;
	return side ? "fake B" : "fake A";
}

static void fake_end(struct ti_drive *d)
{
	fake.ends++;
	d->state = NULL;
}

/* The progress lines of a round's own runs. */
static void fake_progress(void *arg, const char *line)
{
	(void)arg;
	if (!strstr(line, "runs ended"))
		return;
	fake.ended_lines++;
	snprintf(fake.last_line, sizeof fake.last_line, "%s", line);
}

static const struct ti_drive_runner fake_runner = {
	.prefix = "fake-", .left = "left", .keyed = true,
	.start = fake_start, .end = fake_end,
	.jobs = fake_jobs, .after = fake_after,
	.done = fake_done,
	.load = fake_load, .where = fake_where,
};

/* The whole of file DIR/NAME (at most LEN - 1 bytes) into BUF. */
static const char *slurp(const char *dir, const char *name, char *buf, size_t len)
{
	char path[128];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "r"))) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* BUF on one line, for a TAP description: newlines as '|'. */
static const char *flat(char *buf)
{
	for (char *p = buf; *p; p++)
		*p = *p == '\n' ? '|' : *p;
	return buf;
}

/* Two rounds of the fake runner on SCHEDULE (a duet on CPU 0 twice). */
/* A fake run's set-up: FAKE cleared with NJOBS runs a round, its
 * directory with A and B in it, C for two rounds of SCHEDULE on CPUS
 * (two sets of CPU 0).  False (a failed check) if the directory could
 * not be made. */
static bool fake_open(int line, size_t njobs, enum ti_drive_schedule schedule,
		      struct ti_cpuset cpus[2], struct ti_drive_config *c)
{
	char sub[96];

	memset(&fake, 0, sizeof fake);
	fake.njobs = njobs;
	snprintf(fake.dir, sizeof fake.dir, "/tmp/drive-test.XXXXXX");
	if (!mkdtemp(fake.dir)) {
		tap_ok(0, line, "mkdtemp: %s", strerror(errno));
		return false;
	}
	for (int s = 0; s < 2; s++) {
		snprintf(sub, sizeof sub, "%s/%c", fake.dir, "AB"[s]);
		mkdir(sub, 0777);
	}
	ti_drive_config_init(c);
	c->out = fake.dir;
	c->max = 2;
	c->schedule = schedule;
	ti_cpuset_add(&cpus[0], 0);
	ti_cpuset_add(&cpus[1], 0);
	c->cpus = cpus;
	c->ncpus = 2;
	c->progress = fake_progress;
	return true;
}

/* The end of a fake run: D, CPUS and the directory freed. */
static void fake_close(struct ti_drive *d, struct ti_cpuset cpus[2])
{
	char cmd[128];

	ti_drive_free(d);
	ti_cpuset_free(&cpus[0]);
	ti_cpuset_free(&cpus[1]);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fake.dir);
	(void)!system(cmd);
}

static void fake_run(int line, enum ti_drive_schedule schedule)
{
	struct ti_cpuset cpus[2] = { { 0, NULL }, { 0, NULL } };
	struct ti_drive_config c;
	struct ti_drive d;
	char buf[1024];
	bool ok;
	int rc;

	if (!fake_open(line, 0, schedule, cpus, &c))
		return;
	c.progress_every = 1e-9;
	rc = ti_drive_rounds(&d, &c, &fake_runner, (char *const *)fake_unit, 3);
	tap_ok(rc == 0 && d.rounds == 2 && !d.stop_signal, line, "two rounds: %d, %u %s", rc,
	       d.rounds, d.err);
	tap_ok(fake.starts == 1 && fake.ends == 1 && fake.afters == 2 && !d.state, line,
	       "start, end once; after each round: %d %d %d", fake.starts, fake.ends, fake.afters);
	tap_ok(fake.loads[1] == 2 && fake.loads[2] == 2 && fake.loads[0] == 2, line,
	       "each round's results loaded, and all at the look: %u %u %u", fake.loads[1],
	       fake.loads[2], fake.loads[0]);
	if (schedule == TI_DRIVE_SEQUENTIAL)
		tap_ok(fake.ndone == 4 && strcmp(fake.done, "ABBA") == 0 && !fake.cpus[0], line,
		       "the order alternated, not pinned: %s", fake.done);
	else
		tap_ok(fake.ndone == 4 && fake.done[0] != fake.done[1] && fake.done[2] != fake.done[3],
		       line, "pairs: %s", fake.done);
	if (schedule == TI_DRIVE_DUET)
		for (size_t k = 0; k < 4; k++)
			tap_ok(fake.cpus[k] == &cpus[(fake.done[k] == 'B') ^ (k >= 2)], line,
			       "run %zu (%c) on its slot's set, swapped in round 2", k, fake.done[k]);
	ok = strcmp(slurp(fake.dir, "fake-stop.tsv", buf, sizeof buf),
		    "t1\t2\tdecided\nt2\t2\tmax samples\n"
		    "t3\t1\tmissing: not in side B's results of round 2\n") == 0;
	tap_ok(ok, line, "the stop table: %s", flat(buf));
	ok = strcmp(slurp(fake.dir, "fake-rounds.log", buf, sizeof buf), "1 AB\n2 BA\n") == 0;
	tap_ok(ok, line, "the runner's rounds.log: %s", flat(buf));
	slurp(fake.dir, "fake-samples.tsv", buf, sizeof buf);
	ok = strstr(buf, schedule == TI_DRIVE_DUET ? "\n1\tA\t*\tduet\t0\t" : "\n2\tB\t*\tsequential\t-\t") &&
	     strstr(buf, "\texit 0\n") && !strstr(buf, "\texit 1");
	tap_ok(ok, line, "samples.tsv: %s", flat(buf));
	tap_ok(fake.ended_lines == 0, line, "a round of two runs has no progress of its own: %s",
	       fake.last_line);
	fake_close(&d, cpus);
}

/* A round of 10 runs of 0.03 s says how far it is every EVERY seconds
 * (0: never), never at its end (the round's own line follows). */
static void many_runs(int line, enum ti_drive_schedule schedule, double every)
{
	struct ti_cpuset cpus[2] = { { 0, NULL }, { 0, NULL } };
	struct ti_drive_config c;
	struct ti_drive d;
	unsigned r;
	size_t k, n;

	if (!fake_open(line, 10, schedule, cpus, &c))
		return;
	c.progress_every = every;
	int rc = ti_drive_rounds(&d, &c, &fake_runner, (char *const *)fake_unit, 3);
	tap_ok(rc == 0, line, "ran: %d %s", rc, d.err);
	if (every == 0)
		tap_ok(fake.ended_lines == 0, line, "no progress within a round: %s", fake.last_line);
	else
		tap_ok(fake.ended_lines > 0 &&
			       sscanf(fake.last_line, "round %u: %zu of %zu runs ended, ", &r, &k,
				      &n) == 3 && r >= 1 && r <= 2 && k >= 1 && k < 10 && n == 10,
		       line, "%zu progress lines within rounds, the last: %s", fake.ended_lines,
		       fake.last_line);
	fake_close(&d, cpus);
}

/* --resume with a runner that keeps no state: refused, nothing started
 * or written. */
static void resume_refused(void)
{
	struct ti_drive_config c;
	struct ti_drive d;
	char buf[128];

	memset(&fake, 0, sizeof fake);
	snprintf(fake.dir, sizeof fake.dir, "/tmp/drive-test.XXXXXX");
	if (!mkdtemp(fake.dir)) {
		TAP_OK(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	ti_drive_config_init(&c);
	c.out = fake.dir;
	c.max = 2;
	c.resume = true;
	int rc = ti_drive_rounds(&d, &c, &fake_runner, (char *const *)fake_unit, 3);
	TAP_OK(rc == -EINVAL && strstr(d.err, "cannot be resumed") && fake.starts == 0 &&
		       rmdir(fake.dir) == 0,
	       "--resume of a runner without state: %d '%s', %d starts, the directory left empty", rc,
	       d.err, fake.starts);
	ti_drive_free(&d);
	snprintf(buf, sizeof buf, "rm -rf '%s'", fake.dir);
	(void)!system(buf);
}

/* A stop signal ends every child running, however many: 100 at once,
 * more than a fixed table held. */
static void stop_reaches_all(void)
{
	enum { N = 100 };
	static char *argv[] = { "sleep", "30", NULL };
	struct ti_drive_job job[N], *jobs[N];
	size_t ended = 0;

	memset(job, 0, sizeof job);
	for (size_t i = 0; i < N; i++) {
		job[i].argv = argv;
		jobs[i] = &job[i];
	}
	ti_drive_child_signals(true);
	int rc = ti_drive_child_start(jobs, N);
	TAP_OK(rc == 0, "%d children started: %s", N, rc ? strerror(-rc) : "ok");
	raise(SIGTERM);
	for (size_t i = 0; rc == 0 && i < N; i++) {
		ti_drive_child_wait(&job[i]);
		ended += WIFSIGNALED(job[i].status) && WTERMSIG(job[i].status) == SIGTERM;
	}
	ti_drive_child_signals(false);
	TAP_OK(ended == N && ti_drive_child_stopped() == SIGTERM, "SIGTERM ended %zu of %d", ended, N);
}

int main(void)
{
	/* Every ASCII character but letters, digits and '_' escaped; UTF-8
	 * as it is; case-sensitive. */
	filter(__LINE__, "s :: a b.test", "^(?-i:s\\ \\:\\:\\ a\\ b\\.test)$");
	filter(__LINE__, "s :: star*.test", "^(?-i:s\\ \\:\\:\\ star\\*\\.test)$");
	filter(__LINE__, "s :: q\"u\\o[t]e.test", "^(?-i:s\\ \\:\\:\\ q\\\"u\\\\o\\[t\\]e\\.test)$");
	filter(__LINE__, "s :: caf\xc3\xa9.test", "^(?-i:s\\ \\:\\:\\ caf\xc3\xa9\\.test)$");
	{
		char *units[] = { "s :: a.test", "s :: b_1.test" }, *f = NULL;
		int rc = ti_drive_lit_filter(units, 2, &f);
		tap_ok(rc == 0 && strcmp(f, "^(?-i:s\\ \\:\\:\\ a\\.test|s\\ \\:\\:\\ b_1\\.test)$") == 0,
		       __LINE__, "two names: %s", f);
		free(f);
	}

	/* A TSV field: tab, newline, CR and backslash escaped, all else kept
	 * (spaces, UTF-8). */
	tsv(__LINE__, "a\tb", "a\\tb");
	tsv(__LINE__, "x\ny\r", "x\\ny\\r");
	tsv(__LINE__, "back\\slash\\t", "back\\\\slash\\\\t");
	tsv(__LINE__, "a b caf\xc3\xa9", "a b caf\xc3\xa9");
	tsv(__LINE__, "", "");

	/* A lit -o file (lib/ab/read-lit.c): the micro-results belong to
	 * their test; names as timeit-compare gives them. */
	{
		const char *json = "{\"tests\": [{\"name\": \"s :: x.test\", \"code\": \"PASS\"},"
				   "{\"name\": \"s :: x.test:bench0\", \"code\": \"PASS\"},"
				   "{\"name\": \"s :: x.test:bench1\", \"code\": \"PASS\"},"
				   "{\"name\": \"s :: caf\\u00e9.test\", \"code\": \"PASS\"},"
				   "{\"name\": \"s :: a b/q\\\"u\\\\o'te.test\", \"code\": \"FAIL\"},"
				   "{\"name\": \"s :: a b/q\\\"u\\\\o'te.test:k 1\", \"code\": \"PASS\"},"
				   "{\"name\": \"s :: x.testy\", \"code\": \"PASS\"},"
				   "{\"name\": \"t :: x.test\", \"code\": \"PASS\"}]}";
		static const char *const want[][3] = {
			{ "s :: x.test", "s :: x", "s :: x.test" },
			{ "s :: x.test:bench0", "x.test:bench0", "s :: x.test" },
			{ "s :: x.test:bench1", "x.test:bench1", "s :: x.test" },
			{ "s :: caf\xc3\xa9.test", "caf\xc3\xa9", "s :: caf\xc3\xa9.test" },
			{ "s :: a b/q\"u\\o'te.test", "a b/q\"u\\o'te", "s :: a b/q\"u\\o'te.test" },
			{ "s :: a b/q\"u\\o'te.test:k 1", "a b/q\"u\\o'te.test:k 1",
			  "s :: a b/q\"u\\o'te.test" },
			/* Not a micro-result of x.test: the key follows a ':'. */
			{ "s :: x.testy", "x.testy", "s :: x.testy" },
			/* Two suites' x.test keep their suites. */
			{ "t :: x.test", "t :: x", "t :: x.test" },
		};
		const size_t nw = sizeof want / sizeof want[0];
		struct ti_ab_lit_test *t = NULL;
		struct ti_ab_error e = { .what = "" };
		size_t n = 0;
		int rc = lit_tests(json, &t, &n, &e);

		tap_ok(rc == 0 && n == nw, __LINE__, "%zu results: %d, %zu %s", nw, rc, n, e.what);
		for (size_t i = 0; rc == 0 && i < n && i < nw; i++)
			tap_ok(strcmp(t[i].full, want[i][0]) == 0 && strcmp(t[i].name, want[i][1]) == 0 &&
			       strcmp(t[i].unit, want[i][2]) == 0, __LINE__, "result %zu: '%s' '%s' of '%s'",
			       i, t[i].full, t[i].name, t[i].unit);
		ti_ab_lit_tests_free(t, n);

		/* Bad files: clear errors naming them, nothing returned. */
		rc = lit_tests("{\"runs\": []}", &t, &n, &e);
		tap_ok(rc == -EINVAL && !t && n == 0 && strstr(e.what, "not lit"), __LINE__,
		       "not lit: %s", e.what);
		rc = lit_tests("{\"tests\": [{\"name\": \"s :: a\"}, {\"name\": \"s :: a\"}]}", &t, &n, &e);
		tap_ok(rc == -EINVAL && !t && n == 0 && e.line == 1 && strstr(e.what, "second test"),
		       __LINE__, "a name twice: %s", e.what);
		rc = lit_tests("{\"tests\": [", &t, &n, &e);
		tap_ok(rc == -EINVAL && !t && strstr(e.path, "/tmp/drive-test."), __LINE__,
		       "broken JSON: %s: %s", e.path, e.what);
		rc = lit_tests("{\"tests\": []}", &t, &n, &e);
		tap_ok(rc == 0 && n == 0, __LINE__, "no tests: %d", rc);
		rc = ti_ab_read_lit_tests("/nonexistent/x.json", &t, &n, &e);
		tap_ok(rc == -ENOENT && strcmp(e.path, "/nonexistent/x.json") == 0, __LINE__,
		       "a missing file: %s", e.what);
	}

	/* The looks: at MIN, every STEP rounds after it, and at MAX. */
	tap_ok(ti_drive_looks(6, 30, 6) == 5, __LINE__, "6..30 by 6: 5 looks");
	tap_ok(ti_drive_looks(2, 5, 2) == 3, __LINE__, "2, 4, 5: 3 looks");
	tap_ok(ti_drive_looks(3, 3, 1) == 1, __LINE__, "one look");
	/* The first look as early as a decision is possible.  The rank tests
	 * alone: 5 + 5 samples reach 2/252 < 0.05/6 (looks at 5, 11, 17, 23,
	 * 29, 30); 4 + 4 do not (2/70); with at most 5 rounds none can before
	 * the last.  The default's t has no floor; with 2 pairs no power
	 * under a suite's adjustment, with 3 the moderated t's: round 3. */
	{
		struct ti_ab_config ab;
		ti_ab_config_init(&ab);
		tap_ok(ti_drive_first_look(&ab, 30, 6) == 3, __LINE__, "t: first look at 3: %u",
		       ti_drive_first_look(&ab, 30, 6));
		tap_ok(ti_drive_first_look(&ab, 3, 6) == 3, __LINE__, "t: at most 3 rounds: %u",
		       ti_drive_first_look(&ab, 3, 6));
		ab.paired_test = TI_AB_SIGNED_RANK;
		ab.unpaired_test = TI_AB_MANN_WHITNEY;
		tap_ok(ti_drive_first_look(&ab, 30, 6) == 5, __LINE__, "rank: first look at 5: %u",
		       ti_drive_first_look(&ab, 30, 6));
		tap_ok(ti_drive_first_look(&ab, 5, 2) == 5, __LINE__,
		       "rank: first look at 5 of 5: %u", ti_drive_first_look(&ab, 5, 2));
	}

	/* The final table as a look: a run that ended at its look repeats
	 * it, at alpha / looks; one the budget ended between looks after K
	 * of them spends the rest (look K + 1, last); none made: all of
	 * alpha.  Looks at 4, 10, 16, 22, 28, 30. */
	{
		static struct ti_drive d;
		struct ti_ab_config ab;
		ti_ab_config_init(&ab);
		ti_drive_config_init(&d.c);
		d.min = 4;
		d.looks = ti_drive_looks(4, 30, 6);
		d.looked = 2;
		d.look_round = d.rounds = 10;
		ti_drive_final_look(&d, &ab);
		tap_ok(d.looks == 6 && ab.looks == 6 && ab.look == 2 && !ab.last, __LINE__,
		       "ended at look 2: look %u of %u, last %d", ab.look, ab.looks, ab.last);
		d.rounds = 13;
		ti_drive_final_look(&d, &ab);
		tap_ok(ab.look == 3 && ab.last &&
		       near(ti_ab_look_alpha(ab.alpha, ab.looks, ab.look, ab.last, ab.spend),
			    0.05 - 0.05 * 2 / 6), __LINE__, "the budget at round 13: look %u, the rest",
		       ab.look);
		d.looked = 0;
		d.look_round = 0;
		d.rounds = 3;
		ti_drive_final_look(&d, &ab);
		tap_ok(ab.look == 1 && ab.last &&
		       near(ti_ab_look_alpha(ab.alpha, ab.looks, ab.look, ab.last, ab.spend), 0.05),
		       __LINE__, "the budget before the first look: all of alpha");
		d.c.fixed = true;
		ti_drive_final_look(&d, &ab);
		tap_ok(ab.looks == 1 && !ab.last, __LINE__, "fixed rounds: one look");
	}

	/* The ranges of a run. */
	{
		struct ti_drive_config c;
		struct ti_cpuset one[1] = { { 0, NULL } }, two[2] = { { 0, NULL }, { 0, NULL } };
		char err[256];

		ti_drive_config_init(&c);
		tap_ok(ti_drive_config_check(&c, err, sizeof err) == 0, __LINE__, "the defaults");
		c.budget = 1e20;
		tap_ok(ti_drive_config_check(&c, err, sizeof err) == -EINVAL && strstr(err, "--budget"),
		       __LINE__, "a budget of 1e20 s: %s", err);
		c.budget = 0;
		c.max = TI_DRIVE_ROUNDS_MAX + 1;
		tap_ok(ti_drive_config_check(&c, err, sizeof err) == -EINVAL, __LINE__, "1001 rounds: %s", err);
		c.max = 30;
		c.min = 31;
		tap_ok(ti_drive_config_check(&c, err, sizeof err) == -EINVAL && strstr(err, "above"),
		       __LINE__, "min above max: %s", err);
		c.min = 6;
		c.schedule = TI_DRIVE_DUET;
		ti_cpuset_add(&one[0], 0);
		c.cpus = one;
		c.ncpus = 1;
		tap_ok(ti_drive_config_check(&c, err, sizeof err) == -EINVAL && strstr(err, "needs two CPUs"),
		       __LINE__, "a duet on one CPU: %s", err);
		ti_cpuset_add(&two[0], 0);
		ti_cpuset_add(&two[1], 1);
		ti_cpuset_add(&two[1], 2);
		c.cpus = two;
		c.ncpus = 2;
		tap_ok(ti_drive_config_check(&c, err, sizeof err) == -EINVAL && strstr(err, "differ"),
		       __LINE__, "sets of unequal size: %s", err);
		ti_cpuset_free(&two[1]);
		ti_cpuset_add(&two[1], 1);
		tap_ok(ti_drive_config_check(&c, err, sizeof err) == 0, __LINE__, "a duet on CPUs 0 and 1");
		ti_cpuset_free(&one[0]);
		ti_cpuset_free(&two[0]);
		ti_cpuset_free(&two[1]);
	}

	/* A runner lib/drive does not know, on both schedules: the loop
	 * needs no change for a third runner. */
	fake_run(__LINE__, TI_DRIVE_SEQUENTIAL);
	if (ti_os_has(TI_OS_AFFINITY))
		fake_run(__LINE__, TI_DRIVE_DUET);
	else
		tap_skip("the fake runner in a duet: no CPU affinity on this system");
	many_runs(__LINE__, TI_DRIVE_SEQUENTIAL, 0.05);
	many_runs(__LINE__, TI_DRIVE_SEQUENTIAL, 0);
	if (ti_os_has(TI_OS_AFFINITY))
		many_runs(__LINE__, TI_DRIVE_DUET, 0.05);
	else
		tap_skip("a duet round's progress: no CPU affinity on this system");
	resume_refused();
	stop_reaches_all();
	return tap_done();
}
