/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* strict-test: --strict-events and --list-events's probe through the
 * syscall seam, with a real child (/bin/sh) so the abort path is run. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counters.h"
#include "fakeperf.h"
#include "measure.h"
#include "tap.h"

#ifdef HAVE_PERF_EVENTS
/* Every event opens and counts 10, enabled and running for a minute: the
 * counters saw all of the child's CPU time, however slow the machine (an
 * enabled time far below rusage's reads as counters lost at a privilege-
 * changing exec, lib/measure/measure.c, once the child has used 10 ms: seen
 * under qemu-user, whose emulated vfork is a fork). */
static void reset(void)
{
	fake_reset();
	for (int i = 0; i < FAKE_EVENTS; i++) {
		fake_scripts[i].value = 10;
		fake_scripts[i].enabled = fake_scripts[i].running = 60000000000ULL;
	}
}

/* An open of CONFIG fails with ERR; EACCES only while the kernel is
 * counted, as perf_event_paranoid 2 has it. */
static void fail_open(int config, int err)
{
	if (err == EACCES)
		fake_scripts[config].kernel_errno = err;
	else
		fake_scripts[config].open_errno = err;
}

int main(void)
{
	/* The child leaves a mark, so a test knows whether it ran. */
	char mark[] = "/tmp/timeit-strict-XXXXXX";
	int mfd = mkstemp(mark);
	char script_text[256];
	snprintf(script_text, sizeof script_text, "echo ran > %s", mark);
	char *argv[] = { "/bin/sh", "-c", script_text, NULL };
	/* A redirect file that holds output of an earlier run: a run that
	 * fails before the command starts must leave it alone. */
	char keep[] = "/tmp/timeit-strict-out-XXXXXX";
	int kfd = mkstemp(keep);
	struct ti_plan plan = { .argv = argv, .redirect_stdout = keep };
	struct ti_event_list l;
	struct ti_record r;
	struct ti_failure f;
	struct ti_measure_opts o = { .events = &l, .ops = &fake_perf };
	char bad[64];
	int rc;

	if (mfd < 0 || kfd < 0) {
		printf("Bail out! mkstemp: %s\n", strerror(errno));
		return 99;
	}
	close(mfd);
	close(kfd);
	(void)ti_events_parse("r0,r1,r2", &l, bad, sizeof bad);

	static const struct {
		int line;
		bool strict;
		int fail_config, fail_errno;	/* -1: none */
		int unscheduled;		/* config with running == 0, or -1 */
		int want_rc;
		bool want_ran;
		int want_err;
	} cases[] = {
		{ __LINE__, false, 1, ENOENT, -1, 0, true, 0 },
		{ __LINE__, true, -1, 0, -1, 0, true, 0 },
		{ __LINE__, true, 1, ENOENT, -1, TI_MEASURE_EVENT, false, ENOENT },
		{ __LINE__, true, 2, EOPNOTSUPP, -1, TI_MEASURE_EVENT, false, EOPNOTSUPP },
		/* EACCES retried user-only and opened: not a failure. */
		{ __LINE__, true, 0, EACCES, -1, 0, true, 0 },
		{ __LINE__, true, -1, 0, 1, TI_MEASURE_EVENT, true, 0 },
		{ __LINE__, false, -1, 0, 1, 0, true, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		FILE *m;
		char buf[8] = "";

		reset();
		unlink(mark);
		m = fopen(keep, "w");
		if (!m || fputs("keep\n", m) == EOF || fclose(m) != 0) {
			printf("Bail out! %s: %s\n", keep, strerror(errno));
			return 99;
		}
		if (cases[i].fail_config >= 0)
			fail_open(cases[i].fail_config, cases[i].fail_errno);
		if (cases[i].unscheduled >= 0)
			fake_scripts[cases[i].unscheduled].running = 0;
		o.strict_events = cases[i].strict;
		memset(&f, 0, sizeof f);
		rc = ti_measure(&plan, &o, &r, &f);
		m = fopen(mark, "r");
		if (m) {
			if (!fgets(buf, sizeof buf, m))
				buf[0] = '\0';
			fclose(m);
		}
		TAP_OK(rc == cases[i].want_rc, "ti_measure returned %d, want %d", rc,
		       cases[i].want_rc);
		TAP_OK((strcmp(buf, "ran\n") == 0) == cases[i].want_ran, "command %s",
		       cases[i].want_ran ? "ran" : "did not run");
		TAP_OK(fake_opens == fake_closes, "every opened counter closed (%d/%d)", fake_opens, fake_closes);
		if (!cases[i].want_ran) {
			buf[0] = '\0';
			m = fopen(keep, "r");
			if (m) {
				if (!fgets(buf, sizeof buf, m))
					buf[0] = '\0';
				fclose(m);
			}
			TAP_OK(strcmp(buf, "keep\n") == 0, "the redirect file was not touched");
		}
		if (rc == TI_MEASURE_EVENT) {
			int which = cases[i].fail_config >= 0 ? cases[i].fail_config
							      : cases[i].unscheduled;
			TAP_OK(f.what && strcmp(f.what, l.ev[which].name) == 0 &&
				       f.err == cases[i].want_err,
			       "failure names %s (%s, errno %d)", l.ev[which].name,
			       f.what ? f.what : "(null)", f.err);
		} else {
			TAP_OK(r.end == TI_END_EXITED && r.status == 0, "child exited 0");
		}
	}
	unlink(mark);
	unlink(keep);

	/* The probe opens on timeit itself, once, and closes. */
	reset();
	rc = ti_counters_probe(&fake_perf, &l.ev[0], NULL);
	TAP_OK(rc == 0 && fake_last_pid == 0 && fake_opens == 1 && fake_closes == 1, "probe opens pid 0 and closes");
	reset();
	fail_open(1, ENOENT);
	rc = ti_counters_probe(&fake_perf, &l.ev[1], NULL);
	TAP_OK(rc == -ENOENT && fake_closes == 0, "probe reports -ENOENT (%d)", rc);
	reset();
	fail_open(2, EACCES);
	bool user_only = false;
	rc = ti_counters_probe(&fake_perf, &l.ev[2], &user_only);
	TAP_OK(rc == 0 && user_only, "probe: EACCES then user-only");
	return tap_done();
}

#else

int main(void)
{
	printf("1..0 # SKIP built without perf events\n");
	return 0;
}

#endif
