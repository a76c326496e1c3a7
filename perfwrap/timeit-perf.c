/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* timeit-perf.c: timeit's contract on top of perf stat.  The options are
 * timeit's table (timeit/options.c), the redirects, limits, directory,
 * timeout, signals and summary lib/'s; perf counts.  Its workload is
 * timeit-perf itself in a hidden exec-helper mode, which sets the command
 * up as timeit's child does and executes it in its own place:
 *
 *   perf stat -x TAB --log-fd 1 -e EVENTS -e duration_time
 *             -e user_time -e system_time --
 *     timeit-perf --timeit-perf-exec-helper SPEC DIR ENV... -- FILE ARGV...
 *       -> exec FILE
 *
 * perf's stdout is an anonymous file that takes its CSV (lib/measure/perfcsv.c;
 * --log-fd, not -o: the FILE perf would open for -o is not close-on-exec
 * and would reach the command), its stderr another; the helper gives the
 * command timeit-perf's own. */
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
#include "measure.h"
#include "options.h"
#include "os.h"
#include "outfile.h"
#include "perfcsv.h"
#include "runreport.h"
#include "spawn.h"
#include "summary.h"

#ifndef TIMEIT_PERF_DEFAULT
#define TIMEIT_PERF_DEFAULT "perf"
#endif

#define HELPER_MARK "--timeit-perf-exec-helper"

/* The default events of timeit (lib/measure/events.c), so the summary keys are
 * the same. */
static const char default_events[] =
	"task-clock,cycles,instructions,context-switches,page-faults";

/* perf puts its exec path in front of PATH and sets PERF_BUILDID_DIR and
 * PREFIX, and runs with LC_ALL=C here (no decimal comma in its CSV): the
 * helper gives the command these as timeit-perf found them. */
static const char *const kept_env[] = { "LC_ALL", "PATH", "PERF_BUILDID_DIR", "PREFIX" };
#define NKEPT (sizeof kept_env / sizeof kept_env[0])

/* Counters that saw less than 3/4 of the CPU time perf's rusage reports,
 * and at least this much less, were lost at a privilege-changing exec.
 * 30 ms where timeit needs 10: the child perf forks runs, and tears
 * perf's address space down in its exec, before the counters start. */
#define PERF_LOST_MIN_NS 30e6

/* The hidden mode: ARGV is MARK SPEC DIR ENV... -- FILE ARGV0 ARGS... */
static int helper_main(int argc, char **argv)
{
	int i;

	if (argc < 7)
		return TI_STATUS_INTERNAL;
	for (i = 4; i < argc && strcmp(argv[i], "--") != 0; i++) {
		char *eq = strchr(argv[i], '=');
		if (eq) {
			*eq = '\0';
			setenv(argv[i], eq + 1, 1);
		} else {
			unsetenv(argv[i]);
		}
	}
	if (i + 2 >= argc)
		return TI_STATUS_INTERNAL;
	int rc = ti_spawn_helper(argv[2], argv[3], argv[i + 1], argv + i + 2);
	if (rc < 0) {
		fprintf(stderr, "timeit-perf: %s: %s is timeit-perf's own\n", argv[2], HELPER_MARK);
		return TI_STATUS_USAGE;
	}
	return rc;
}

/* NAME as execvp would find it, into OUT (PATH_MAX); false if nowhere. */
static bool find_program(const char *name, char *out, size_t len)
{
	const char *p = getenv("PATH");
	struct stat st;

	if (strchr(name, '/')) {
		if (!realpath(name, out) || stat(out, &st) < 0 || !S_ISREG(st.st_mode) ||
		    access(out, X_OK) < 0)
			return false;
		return true;
	}
	for (p = p ? p : "/bin:/usr/bin"; *name; ) {
		size_t n = strcspn(p, ":");
		char dir[PATH_MAX];

		snprintf(dir, sizeof dir, "%.*s/%s", (int)n, n ? p : ".", name);
		if (stat(dir, &st) == 0 && S_ISREG(st.st_mode) && access(dir, X_OK) == 0 &&
		    realpath(dir, out))
			return true;
		if (!p[n])
			break;
		p += n + 1;
	}
	(void)len;
	return false;
}

/* The whole of FD (an anonymous file) into B. */
static void read_all(int fd, struct ti_buf *b)
{
	char chunk[4096];
	off_t at = 0;
	ssize_t got;

	while ((got = pread(fd, chunk, sizeof chunk, at)) > 0) {
		ti_buf_append(b, chunk, (size_t)got);
		at += got;
	}
	ti_buf_append(b, "", 1);
}

/* The first three lines of perf's stderr that say something, on one line. */
static void perf_problem(const struct ti_buf *err, char *out, size_t len)
{
	const char *p = err->data ? err->data : "";
	size_t n = 0, lines = 0;

	out[0] = '\0';
	while (*p && lines < 3) {
		size_t l = strcspn(p, "\n");
		size_t b = strspn(p, " \t");
		if (b < l && p[b] != '#') {
			n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%.*s",
					      lines ? " " : "", (int)(l - b), p + b);
			lines++;
		}
		p += l + (p[l] == '\n');
	}
	if (n >= len)
		out[len - 1] = '\0';
}

/* The environment for perf: timeit-perf's, with LC_ALL=C. */
static char **perf_environ(void)
{
	extern char **environ;
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	if (!(env = calloc(n + 2, sizeof *env)))
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LC_ALL=", 7) != 0)
			env[k++] = environ[i];
	env[k++] = (char *)"LC_ALL=C";
	return env;
}

/* perf's command line: the counting, then the helper and the command. */
static const char *const perf_head[] = {
	"stat", "-x", "\t", "--log-fd", "1", "-e", NULL, "-e", "duration_time",
	"-e", "user_time", "-e", "system_time", "--",
};
#define NHEAD (sizeof perf_head / sizeof perf_head[0])
/* Where the helper's environment words start in it. */
#define KEPT_AT (1 + NHEAD + 4)

/* Free perf_argv's ARGV (its environment words were allocated). */
static void perf_argv_free(char **argv)
{
	if (!argv)
		return;
	for (size_t i = 0; i < NKEPT; i++)
		if (argv[KEPT_AT + i] != kept_env[i])
			free(argv[KEPT_AT + i]);
	free(argv);
}

static char **perf_argv(const char *perf, const char *self, const char *events,
			const char *spec, const char *dir, const struct ti_child *ch,
			char *const *cmd)
{
	size_t ncmd = 0, k = 0;
	char **argv;

	while (cmd[ncmd])
		ncmd++;
	if (!(argv = calloc(KEPT_AT + NKEPT + 2 + ncmd + 1, sizeof *argv)))
		return NULL;
	argv[k++] = (char *)perf;
	for (size_t i = 0; i < NHEAD; i++)
		argv[k++] = (char *)(perf_head[i] ? perf_head[i] : events);
	argv[k++] = (char *)self;
	argv[k++] = (char *)HELPER_MARK;
	argv[k++] = (char *)spec;
	argv[k++] = (char *)(dir ? dir : "");
	/* An unset variable is its bare name (the helper unsets it). */
	for (size_t i = 0; i < NKEPT; i++)
		argv[k + i] = (char *)kept_env[i];
	for (size_t i = 0; i < NKEPT; i++, k++) {
		const char *v = getenv(kept_env[i]);
		char *w;

		if (!v)
			continue;
		if (!(w = malloc(strlen(kept_env[i]) + strlen(v) + 2))) {
			perf_argv_free(argv);
			return NULL;
		}
		sprintf(w, "%s=%s", kept_env[i], v);
		argv[k] = w;
	}
	argv[k++] = (char *)"--";
	argv[k++] = (char *)ch->file;
	for (size_t i = 0; i < ncmd; i++)
		argv[k++] = cmd[i];
	return argv;
}

/* A failure before the command ran, in timeit's words.  Returns the status. */
static int setup_failed(const struct ti_options *c, const struct ti_failure *f)
{
	if (f->what == ti_spawn_timed_out) {
		say_timed_out(c->plan.argv[0]);
		return TI_STATUS_KILLED;
	}
	if (f->what == ti_spawn_stopped) {
		say_stopped(ti_spawn_stop_signal(), c->plan.argv[0]);
		return TI_STATUS_KILLED;
	}
	if (f->what && path_option(c, f->what))
		say("%s: %s: %s\n", path_option(c, f->what), f->what, strerror(f->err));
	else
		say("%s: %s\n", f->what ? f->what : "perf", strerror(f->err));
	return TI_STATUS_INTERNAL;
}

/* The record of a run perf counted: its CSV, the lost check, the times. */
static void read_counts(const struct ti_options *c, const struct ti_buf *csv, bool own_clock,
			struct ti_record *r)
{
	struct ti_perfcsv_times t;
	bool ran = r->end != TI_END_EXEC_FAILED && r->end != TI_END_SETUP_FAILED;

	ti_perfcsv_read(csv->data, csv->len ? csv->len - 1 : 0, '\t', c->events_arg, r, &t);
	/* perf's wall clock, unless it may not have waited for the command
	 * (then it reads near 0: lib/measure/spawn.c's helper-to-exit time stands):
	 * it left the command to us, or, in fork mode, its child is the
	 * helper, which perf may forget as well, with nobody to tell; or the
	 * run was timed out: perf counts from the command's exec, after the
	 * helper's start that the timeout counts from, and a run killed at
	 * its timeout must not read shorter than it (as under timeit). */
	if (t.duration_s >= 0 && !own_clock && r->end != TI_END_TIMEOUT)
		r->real_s = t.duration_s;
	/* rusage's times as perf read them with wait4 (its tool events). */
	double ut = t.user_s > 0 ? t.user_s : 0, st = t.sys_s > 0 ? t.sys_s : 0;
	r->ru.ru_utime.tv_sec = (time_t)ut;
	r->ru.ru_utime.tv_usec = (suseconds_t)((ut - (double)(time_t)ut) * 1e6);
	r->ru.ru_stime.tv_sec = (time_t)st;
	r->ru.ru_stime.tv_usec = (suseconds_t)((st - (double)(time_t)st) * 1e6);
	r->user_s = ut;
	r->sys_s = st;
	r->source = TI_SOURCE_RUSAGE;
	/* A command that never executed counted nothing (timeit too). */
	if (!ran) {
		r->ncounts = 0;
		return;
	}
	ti_record_check_lost_min(r, PERF_LOST_MIN_NS);
	const struct ti_count *tc = ti_record_count(r, "task-clock");
	if (tc) {
		r->user_s = tc->scaled / 1e9;
		r->source = TI_SOURCE_PERF;
	}
}

/* The notes about perf's events: timeit's, and perf's own stderr with -v. */
static void note_perf(const struct ti_options *c, const struct ti_record *r,
		      const struct ti_buf *err)
{
	note_counters(c, r, c->events_given);
	if (!c->verbose || !err->data)
		return;
	for (const char *p = err->data; *p; ) {
		size_t l = strcspn(p, "\n");
		say("perf: %.*s\n", (int)l, p);
		p += l + (p[l] == '\n');
	}
}

enum perf_outcome { PERF_RAN, PERF_CANNOT, PERF_DONE };

/* perf died, or exited while the command ran: its counts are lost, which
 * is said.  The run keeps timeit's own measure where timeit reaped the
 * command (W->orphaned: its clock and the command's rusage, the
 * counters-lost rule of timeit(1)); returns false where it could not,
 * and no summary is written. */
static bool perf_ended_early(const struct ti_wrap *w, struct ti_record *r)
{
	char how[64];

	if (WIFSIGNALED(w->wstatus))
		snprintf(how, sizeof how, "was killed by signal %d", WTERMSIG(w->wstatus));
	else
		snprintf(how, sizeof how, "exited %d", WEXITSTATUS(w->wstatus));
	if (!w->orphaned) {
		say("perf %s before the command ended: its counts are lost, and the "
		    "command's times with them\n", how);
		return false;
	}
	r->ncounts = 0;
	r->user_s = (double)r->ru.ru_utime.tv_sec + r->ru.ru_utime.tv_usec / 1e6;
	r->sys_s = (double)r->ru.ru_stime.tv_sec + r->ru.ru_stime.tv_usec / 1e6;
	r->source = TI_SOURCE_RUSAGE;
	r->maxrss_bytes = ti_os_maxrss_bytes(r->ru.ru_maxrss);
	say("perf %s before the command ended: its counts are lost; times from rusage\n", how);
	return true;
}


/* One run under perf into R.  PERF_CANNOT: perf ran nothing (WHY says
 * so; the redirect files are as they were); PERF_DONE: *STATUS is the
 * exit status already (a set-up failure, reported). */
static enum perf_outcome run_perf(const struct ti_options *c, const char *perf, const char *self,
				  struct ti_record *r, struct ti_buf *err, char *why, size_t wlen,
				  int *status)
{
	struct ti_child ch;
	struct ti_failure f = { 0 };
	struct ti_wrap w = { 0 };
	struct ti_buf csv = { 0 };
	char spec[512];
	int out_fd, err_fd;

	memset(r, 0, sizeof *r);
	r->counters_seen = -1;
	if (ti_spawn_start_wrapped(&c->plan, &ch, r, &f) < 0) {
		*status = setup_failed(c, &f);
		return PERF_DONE;
	}
	out_fd = ti_os_anon_file("timeit-perf.csv");
	err_fd = out_fd < 0 ? -1 : ti_os_anon_file("timeit-perf.err");
	bool fork_mode = c->report_maxrss || !ti_os_has(TI_OS_PIDFD_EXIT);
	char **env = perf_environ();
	char **argv = NULL;
	if (out_fd >= 0 && err_fd >= 0 && env &&
	    ti_spawn_helper_spec(&ch, fork_mode, spec, sizeof spec) == 0)
		argv = perf_argv(perf, self, c->events_given ? c->events_arg : default_events, spec,
				 c->plan.chdir, &ch, c->plan.argv);
	if (!argv) {
		ti_spawn_abort(&ch);
		f.what = out_fd < 0 || err_fd < 0 ? "memfd_create" : "malloc";
		f.err = out_fd < 0 ? -out_fd : err_fd < 0 ? -err_fd : ENOMEM;
		*status = setup_failed(c, &f);
		return PERF_DONE;
	}
	w.argv = argv;
	w.envp = env;
	w.out_fd = out_fd;
	w.err_fd = err_fd;
	int rc = ti_spawn_run_wrapped(&c->plan, &ch, &w, r, &f);
	read_all(err_fd, err);
	read_all(out_fd, &csv);
	close(out_fd);
	close(err_fd);
	free(env);
	perf_argv_free(argv);
	if (rc < 0) {
		ti_spawn_abort(&ch);
		*status = setup_failed(c, &f);
		ti_buf_free(&csv);
		return PERF_DONE;
	}
	if (w.cut) {
		/* Stopped before perf started the command: no counts. */
		ti_spawn_abort(&ch);
		ti_buf_free(&csv);
		r->source = TI_SOURCE_RUSAGE;
		return PERF_RAN;
	}
	if (!w.started) {
		perf_problem(err, why, wlen);
		if (w.exec_errno)
			snprintf(why, wlen, "%.300s: %s", perf, strerror(w.exec_errno));
		else if (!why[0])
			snprintf(why, wlen, "perf stat exited %d without running the command",
				 WIFEXITED(w.wstatus) ? WEXITSTATUS(w.wstatus) : 128 + WTERMSIG(w.wstatus));
		ti_spawn_abort(&ch);
		ti_buf_free(&csv);
		return PERF_CANNOT;
	}
	if (w.early && !perf_ended_early(&w, r)) {
		*status = TI_STATUS_INTERNAL;
		return PERF_DONE;
	}
	if (!w.early)
		read_counts(c, &csv, w.orphaned || fork_mode, r);
	ti_buf_free(&csv);
	return PERF_RAN;
}

/* --fallback: the run measured as timeit --no-perf measures it. */
static int run_rusage(const struct ti_options *c, struct ti_record *r, int *status)
{
	struct ti_measure_opts mo = { 0 };
	struct ti_failure f = { 0 };

	if (ti_measure(&c->plan, &mo, r, &f) < 0) {
		*status = setup_failed(c, &f);
		return -1;
	}
	/* The reference's keys only, as under perf. */
	r->tsc_valid = false;
	return 0;
}

/* perf said the event list is wrong: a usage error. */
static bool events_rejected(const struct ti_options *c, const struct ti_buf *err)
{
	const char *e = err->data ? err->data : "";

	if (!c->events_given)
		return false;
	if (!strstr(e, "event syntax error") && !strstr(e, "nknown") && !strstr(e, "nvalid"))
		return false;
	say("--events: perf rejects '%s':\n", c->events_arg);
	for (int lines = 0; *e && lines < 3; lines++) {
		size_t l = strcspn(e, "\n");
		fprintf(stderr, "  %.*s\n", (int)l, e);
		e += l + (e[l] == '\n');
	}
	return true;
}

/* The result: the exit status line, the summary or the report. */
static int finish(const struct ti_options *c, struct ti_record *r, struct ti_outfile *sum)
{
	int status = r->status, rc;

	report_end(c, r);
	if (c->append_exitstatus) {
		rc = append_exitstatus(c->plan.redirect_stdout, r->status);
		if (rc < 0) {
			say("--append-exitstatus: %s: %s\n", c->plan.redirect_stdout, strerror(-rc));
			status = TI_STATUS_INTERNAL;
		} else {
			status = 0;
		}
	}
	struct ti_buf out = { 0 };
	struct ti_summary s = { .r = r, .report_maxrss = c->report_maxrss, .no_noise_screen = true };
	if (c->summary) {
		ti_summary_format(&out, &s);
		rc = out.failed ? -ENOMEM : ti_outfile_commit(sum, out.data, out.len);
		if (rc < 0) {
			say("--summary: %s: %s\n", c->summary, strerror(-rc));
			status = TI_STATUS_INTERNAL;
		}
	} else {
		ti_report_format(&out, &s, c->posix);
		fputs(out.data ? out.data : "", stderr);
	}
	ti_buf_free(&out);
	return status;
}

static int parse(int argc, char **argv, struct ti_options *c)
{
	char msg[256];

	switch (ti_options_parse_prog(TI_PROGRAM_PERF, getenv("TIMEIT_OPTIONS"), argc, argv, c,
				      msg, sizeof msg)) {
	case TI_PARSE_OK:
		return -1;
	case TI_PARSE_HELP:
		ti_options_usage_prog(TI_PROGRAM_PERF, stdout);
		return stdout_status(0);
	case TI_PARSE_VERSION:
		printf("timeit-perf %s\n", PACKAGE_VERSION);
		return stdout_status(0);
	case TI_PARSE_USAGE:
		/* The error and the usage line, without the whole help. */
		fprintf(stderr, "error: %s\nusage: timeit-perf [options] [--] command [arguments ...]\n"
			"Try 'timeit-perf --help' for the options.\n", msg);
		return TI_STATUS_USAGE;
	case TI_PARSE_INVALID:
		say("%s\n", msg);
		return TI_STATUS_USAGE;
	}
	return TI_STATUS_USAGE;
}

int main(int argc, char **argv)
{
	struct ti_options c;
	struct ti_outfile sum;
	struct ti_record r;
	struct ti_buf err = { 0 };
	char perf[PATH_MAX], self[PATH_MAX], why[512];
	const char *perf_name = getenv("TIMEIT_PERF");
	int rc, status = 0;

	if (argc > 1 && strcmp(argv[1], HELPER_MARK) == 0)
		return helper_main(argc, argv);
	open_std_fds();
	ti_prog = "timeit-perf";
	if ((rc = parse(argc, argv, &c)) >= 0)
		return rc;
	if (!perf_name || !*perf_name)
		perf_name = *TIMEIT_PERF_DEFAULT ? TIMEIT_PERF_DEFAULT : "perf";
	bool have_perf = find_program(perf_name, perf, sizeof perf);
	if (!have_perf && !c.fallback) {
		say("perf: %s: not found (install linux-perf, or use --fallback)\n", perf_name);
		return TI_STATUS_INTERNAL;
	}
	if (have_perf && !find_program(argv[0], self, sizeof self)) {
		say("%s: cannot find timeit-perf itself, for perf to run\n", argv[0]);
		return TI_STATUS_INTERNAL;
	}
	if (paths_clash(&c))
		return TI_STATUS_USAGE;

	/* Stop signals wait for lib/measure/spawn.c's handlers (timeit.c). */
	sigset_t stop;
	ti_spawn_stop_set(&stop);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	if (c.summary && (rc = ti_outfile_prepare(&sum, c.summary)) < 0) {
		say("--summary: %s: %s\n", c.summary, strerror(-rc));
		return TI_STATUS_USAGE;
	}

	enum perf_outcome o = PERF_CANNOT;
	if (have_perf)
		o = run_perf(&c, perf, self, &r, &err, why, sizeof why, &status);
	else
		snprintf(why, sizeof why, "%s: not found", perf_name);
	if (o == PERF_CANNOT && events_rejected(&c, &err))
		status = TI_STATUS_USAGE;
	else if (o == PERF_CANNOT && !c.fallback)
		say("perf cannot count: %s\n", why);
	else if (o == PERF_CANNOT) {
		if (!c.quiet)
			say("note: perf %s (%s): times from rusage\n",
			    have_perf ? "cannot count" : "unavailable", why);
		o = run_rusage(&c, &r, &status) < 0 ? PERF_DONE : PERF_RAN;
	} else if (o == PERF_RAN) {
		note_perf(&c, &r, &err);
	}
	if (o == PERF_CANNOT && status == 0)
		status = TI_STATUS_INTERNAL;
	ti_buf_free(&err);
	if (o != PERF_RAN) {
		if (c.summary)
			ti_outfile_abort(&sum);
		return status;
	}
	return finish(&c, &r, &sum);
}
