/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-test: what lib/drive decides without running anything: lit's
 * --filter for odd names, the tests of a lit -o file as lib/ab/read-lit.c
 * lists them (micro-results follow their test), the looks of a run, and
 * the ranges of its configuration (TAP). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drive-int.h"
#include "drive.h"
#include "read.h"
#include "tap.h"

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
	 * the last.  The default's t has no floor: round 2. */
	{
		struct ti_ab_config ab;
		ti_ab_config_init(&ab);
		tap_ok(ti_drive_first_look(&ab, 30, 6) == 2, __LINE__, "t: first look at 2: %u",
		       ti_drive_first_look(&ab, 30, 6));
		ab.paired_test = TI_AB_SIGNED_RANK;
		ab.unpaired_test = TI_AB_MANN_WHITNEY;
		tap_ok(ti_drive_first_look(&ab, 30, 6) == 5, __LINE__, "rank: first look at 5: %u",
		       ti_drive_first_look(&ab, 30, 6));
		tap_ok(ti_drive_first_look(&ab, 5, 2) == 5, __LINE__,
		       "rank: first look at 5 of 5: %u", ti_drive_first_look(&ab, 5, 2));
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
	return tap_done();
}
