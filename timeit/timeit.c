/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* timeit.c: the command line.  Parses and validates everything, then hands
 * a run plan to lib/ and reports what came back. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cpuset.h"
#include "events.h"
#include "host.h"
#include "json.h"
#include "listing.h"
#include "measure.h"
#include "outfile.h"
#include "repeat.h"
#include "runreport.h"
#include "summary.h"
#include "options.h"
#include "os.h"
#include "vgcount.h"

#ifdef HAVE_PERF_EVENTS
#define HAVE_PERF_EVENTS_STR "yes"
#else
#define HAVE_PERF_EVENTS_STR "no"
#endif
#ifdef HAVE_LIBPFM
#define HAVE_LIBPFM_STR "yes"
#else
#define HAVE_LIBPFM_STR "no"
#endif
#ifdef TIMEIT_STATIC
#define LINKED_STR "static"
#else
#define LINKED_STR "dynamic"
#endif

/* --repeat/--warmup on a terminal: one line, rewritten after each run. */
static void progress(void *arg, const struct ti_repeat_progress *p)
{
	(void)arg;
	fprintf(stderr, "\rtimeit: run %u/%u%s", p->done, p->total, p->warmup ? " (warmup)" : "");
	if (p->median_real == p->median_real)
		fprintf(stderr, ", median real %.4f s", p->median_real);
	fprintf(stderr, ", ETA %.0f s\033[K", p->eta_s);
	fflush(stderr);
}

/* --count-instructions: the valgrind run's outcome, when there was one. */
static struct ti_vgcount_result vg;
static bool vg_ran;

/* --count-instructions after the measured run(s): valgrind unless auto finds
 * perf's instructions counted.  A count that fails is a warning and no
 * summary line; the measured run's status stands (timeit(1)), except that
 * an interrupt during the count ends timeit as an interrupt anywhere else
 * does (137): R then says so. */
static void count_instructions(const struct ti_options *c, struct ti_record *r)
{
	struct ti_vgcount_opts vo = { c->valgrind, c->valgrind_timeout,
				      c->count_instructions == TI_COUNT_VALGRIND_CACHE,
				      { c->vg_cache[0], c->vg_cache[1], c->vg_cache[2] },
				      c->vg_weights };
	char why[PATH_MAX + 256];

	if (c->count_instructions == TI_COUNT_NO ||
	    (c->count_instructions == TI_COUNT_AUTO && ti_record_count(r, "instructions")))
		return;
	vg_ran = true;
	if (ti_vgcount_run(&c->plan, r, &vo, &vg) == TI_VGCOUNT_OK || vg.rc == TI_VGCOUNT_SKIPPED)
		return;
	if (vg.rc == TI_VGCOUNT_INTERRUPTED) {
		r->end = TI_END_INTERRUPTED;
		r->stop_signal = ti_spawn_stop_signal();
		ti_record_set_status(r);
		say_stopped(r->stop_signal, c->plan.argv[0]);
	}
	ti_vgcount_describe(&vg, why, sizeof why);
	say("warning: --count-instructions: %s: no valgrind-instructions%s\n",
		why, vo.cache_sim ? " or cache counts" : "");
}

static void format_json(struct ti_buf *b, const struct ti_options *c, const struct ti_record *r,
			const struct ti_record *runs, size_t nruns, const struct ti_repeat_agg *agg)
{
	struct ti_json j;
	struct ti_host h;

	ti_host_get(&h);
	ti_json_init(&j, b);
	ti_json_object(&j, NULL);
	ti_json_string(&j, "timeit_version", PACKAGE_VERSION);
	ti_json_array(&j, "command");
	for (char *const *a = c->plan.argv; *a; a++)
		ti_json_string(&j, NULL, *a);
	ti_json_end(&j, ']');
	ti_json_array(&j, "timeit_argv");
	for (int i = 0; i < c->argc; i++)
		ti_json_string(&j, NULL, c->argv[i]);
	ti_json_end(&j, ']');
	/* The options a farm gave every run (null: none). */
	ti_json_string(&j, "timeit_options", c->env_options);
	ti_json_int(&j, "status", r->status);
	ti_json_host(&j, "host", &h);
	/* --check-env's facts, read after the runs (never inside one). */
	struct ti_env_item env[TI_ENV_MAX];
	struct ti_envcheck_opts eo = { NULL, c->plan.pin ? &c->plan.cpus : NULL,
				       c->plan.no_aslr, geteuid() == 0 };
	ti_envcheck_json(&j, "environment", env, ti_envcheck(&eo, env));
	/* Every measured run's full record; with --repeat also the medians,
	 * minima and MADs the summary reports. */
	ti_json_array(&j, "runs");
	for (size_t i = 0; i < nruns; i++)
		ti_json_record(&j, NULL, &runs[i]);
	ti_json_end(&j, ']');
	if (c->repeat_given || c->warmup)
		ti_repeat_json(&j, "repeat", agg);
	if (vg_ran)
		ti_vgcount_json(&j, "valgrind", &vg);
	ti_json_end(&j, '}');
	ti_buf_append(b, "\n", 1);
}

/* --cpu cannot be used: say which CPUs are online, the usual reason
 * (a CPU outside timeit's cpuset is the other). */
static void cpu_error(const struct ti_options *c, int err)
{
	struct ti_cpuset set = { 0 };
	char online[256] = "";

	if (ti_os_online_cpus(NULL, &set) == 0)
		ti_cpuset_format(&set, online, sizeof online);
	ti_cpuset_free(&set);
	if (err == EINVAL && online[0])
		say("--cpu: %s: not every CPU of the list is online and in "
				"timeit's cpuset (online: %s)\n", c->cpu_list, online);
	else
		say("--cpu: %s: %s\n", c->cpu_list, strerror(err));
}

/* The --cpu CPUs, for --check-env: each must be online. */
static bool cpus_online(const struct ti_options *c)
{
	struct ti_cpuset online = { 0 };
	bool ok;

	/* A system that does not list them: nothing to check against. */
	ok = ti_os_online_cpus(NULL, &online) < 0 || ti_cpuset_subset(&c->plan.cpus, &online);
	ti_cpuset_free(&online);
	return ok;
}

int main(int argc, char **argv)
{
	struct ti_options c;
	struct ti_outfile summary_out, json_out;
	struct ti_measure_opts mo = { 0 };
	struct ti_record r;
	struct ti_failure f = { 0 };
	char msg[256];
	int rc, status;

	open_std_fds();
	switch (ti_options_parse_env(getenv("TIMEIT_OPTIONS"), argc, argv, &c, msg, sizeof msg)) {
	case TI_PARSE_OK:
		break;
	case TI_PARSE_HELP:
		ti_options_usage(stdout);
		return stdout_status(0);
	case TI_PARSE_VERSION:
		printf("timeit %s\nperf events: %s\nlibpfm4: %s\nlinked: %s\n", PACKAGE_VERSION,
		       HAVE_PERF_EVENTS_STR, HAVE_LIBPFM_STR, LINKED_STR);
		/* What the platform seam offers (lib/os.h), for scripts and
		 * tests to ask rather than guess. */
		printf("platform: %s\n--cpu: %s\n--no-aslr: %s\n", ti_os_name(),
		       ti_os_has(TI_OS_AFFINITY) ? "yes" : "no",
		       ti_os_has(TI_OS_NO_ASLR) ? "yes" : "no");
		return stdout_status(0);
	case TI_PARSE_USAGE:
		/* The reference's first two lines (the error, then usage:),
		 * without the whole help after them. */
		fprintf(stderr, "error: %s\nusage: timeit [options] [--] command [arguments ...]\n"
			"Try 'timeit --help' for the options.\n", msg);
		return TI_STATUS_USAGE;
	case TI_PARSE_INVALID:
		say("%s\n", msg);
		return TI_STATUS_USAGE;
	}
	mo.events = c.no_perf ? NULL : &c.events;
	mo.rusage_times = c.rusage_times;
	/* The default events include these two, from rusage; -e replaces them. */
	mo.rusage_counts = !c.events_given;
	mo.strict_events = c.strict_events;
	if (c.list_events)
		return stdout_status(listing_events(stdout, NULL));
	if (c.check_env) {
		if (c.plan.pin && !cpus_online(&c)) {
			cpu_error(&c, EINVAL);
			return TI_STATUS_INTERNAL;
		}
		struct ti_envcheck_opts eo = { NULL, c.plan.pin ? &c.plan.cpus : NULL,
					       c.plan.no_aslr, geteuid() == 0 };
		return stdout_status(listing_env(stdout, &eo));
	}
	/* An explicit valgrind count that cannot happen fails before a run. */
	if ((c.count_instructions == TI_COUNT_VALGRIND ||
	     c.count_instructions == TI_COUNT_VALGRIND_CACHE) &&
	    ti_vgcount_find(c.valgrind, vg.valgrind, sizeof vg.valgrind) < 0) {
		if (c.valgrind)
			say("--valgrind: %s: not an executable file\n", c.valgrind);
		else
			say("--count-instructions=%s: valgrind not found "
					"in PATH (install the package 'valgrind')\n",
				c.count_instructions == TI_COUNT_VALGRIND ? "valgrind"
									  : "valgrind-cache");
		return TI_STATUS_USAGE;
	}

	if (paths_clash(&c))
		return TI_STATUS_USAGE;

	/* A stop signal (SIGINT, SIGTERM, SIGUSR1, ...) from here on waits
	 * for lib/measure/spawn.c's handlers, which unblock it and kill the command:
	 * killed before, timeit would leave the result files' temporary
	 * files behind. */
	sigset_t stop;
	ti_spawn_stop_set(&stop);
	sigprocmask(SIG_BLOCK, &stop, NULL);

	/* Result paths are checked before anything runs. */
	if (c.summary && (rc = ti_outfile_prepare(&summary_out, c.summary)) < 0) {
		say("--summary: %s: %s\n", c.summary, strerror(-rc));
		return TI_STATUS_USAGE;
	}
	if (c.json && (rc = ti_outfile_prepare(&json_out, c.json)) < 0) {
		say("--json: %s: %s\n", c.json, strerror(-rc));
		if (c.summary)
			ti_outfile_abort(&summary_out);
		return TI_STATUS_USAGE;
	}

	static struct ti_repeat_agg agg;
	struct ti_repeat_opts ro = { c.warmup, c.repeat, c.keep_going, NULL, NULL, c.all_output };
	struct ti_record *runs = calloc(c.repeat, sizeof *runs);
	size_t nruns = 0;
	bool stopped = false;

	if (!runs) {
		f.what = "malloc";
		f.err = ENOMEM;
		rc = -1;
	} else {
		/* Progress only for a person watching: never into a log. */
		if (c.warmup + c.repeat > 1 && isatty(STDERR_FILENO))
			ro.progress = progress;
		rc = ti_repeat_run(&c.plan, &mo, &ro, runs, &nruns, &f);
		if (ro.progress)
			fputs("\r\033[K", stderr);
		stopped = rc == TI_REPEAT_STOPPED;
		if (rc >= 0 && (rc = ti_repeat_aggregate(runs, nruns, &agg)) < 0) {
			f.what = "malloc";
			f.err = -rc;
			rc = -1;
		}
		r = agg.median;
		/* Stopped by a signal between runs: the runs done stand, and
		 * timeit ends as if the signal had come during one (137). */
		if (stopped && r.end != TI_END_INTERRUPTED) {
			r.end = TI_END_INTERRUPTED;
			r.stop_signal = ti_spawn_stop_signal();
			ti_record_set_status(&r);
		}
	}
	if (rc < 0 && (f.what == ti_spawn_timed_out || f.what == ti_spawn_stopped)) {
		/* Before the command started (a FIFO redirect that nobody
		 * opened): the reference's messages and status, no summary. */
		if (f.what == ti_spawn_timed_out)
			say_timed_out(c.plan.argv[0]);
		else
			say_stopped(ti_spawn_stop_signal(), c.plan.argv[0]);
		if (c.summary)
			ti_outfile_abort(&summary_out);
		if (c.json)
			ti_outfile_abort(&json_out);
		free(runs);
		return TI_STATUS_KILLED;
	}
	if (rc < 0) {
		if (rc == TI_MEASURE_EVENT)
			say("--strict-events: event %s: %s\n", f.what,
				f.err == TI_MEASURE_LOST ? "lost at a privilege-changing exec"
				: f.err ? ti_counters_strerror(f.err) : "never scheduled (not counted)");
		else if (f.what && path_option(&c, f.what))
			say("%s: %s: %s\n", path_option(&c, f.what),
				f.what, strerror(f.err));
		else if (f.what && c.cpu_list && strcmp(f.what, "sched_setaffinity") == 0)
			cpu_error(&c, f.err);
		else
			say("%s: %s\n", f.what, strerror(f.err));
		if (c.summary)
			ti_outfile_abort(&summary_out);
		if (c.json)
			ti_outfile_abort(&json_out);
		free(runs);
		return TI_STATUS_INTERNAL;
	}
	note_counters(&c, &r, c.events_given);
	report_end(&c, &r);
	count_instructions(&c, &r);
	status = r.status;

	if (c.append_exitstatus) {
		rc = append_exitstatus(c.plan.redirect_stdout, r.status);
		if (rc < 0) {
			say("--append-exitstatus: %s: %s\n",
				c.plan.redirect_stdout, strerror(-rc));
			status = TI_STATUS_INTERNAL;
		} else {
			status = 0;
		}
	}

	struct ti_buf out = { 0 };
	struct ti_summary sum = {
		.r = &r,
		.repeat = c.repeat_given || c.warmup ? &agg : NULL,
		.noise_flags = agg.noise_flags,
		.vg = vg_ran ? &vg : NULL,
		.report_maxrss = c.report_maxrss,
	};
	if (c.summary) {
		ti_summary_format(&out, &sum);
		rc = out.failed ? -ENOMEM : ti_outfile_commit(&summary_out, out.data, out.len);
		if (rc < 0) {
			say("--summary: %s: %s\n", c.summary, strerror(-rc));
			status = TI_STATUS_INTERNAL;
		}
	} else {
		ti_report_format(&out, &sum, c.posix);
		fputs(out.data ? out.data : "", stderr);
	}
	ti_buf_free(&out);

	if (c.json) {
		format_json(&out, &c, &r, runs, nruns, &agg);
		rc = out.failed ? -ENOMEM : ti_outfile_commit(&json_out, out.data, out.len);
		if (rc < 0) {
			say("--json: %s: %s\n", c.json, strerror(-rc));
			status = TI_STATUS_INTERNAL;
		}
		ti_buf_free(&out);
	}
	free(runs);
	return status;
}
