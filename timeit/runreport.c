/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* runreport.c: the words of timeit and timeit-perf about a run
 * (timeit(1), EXIT STATUS and DIAGNOSTICS) and their shared checks. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "counters.h"
#include "os.h"
#include "outfile.h"
#include "runreport.h"

#ifdef HAVE_PERF_EVENTS
#define HAVE_PERF_EVENTS_BOOL true
#else
#define HAVE_PERF_EVENTS_BOOL false
#endif

const char *ti_prog = "timeit";

void say(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", ti_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void note_counters(const struct ti_options *c, const struct ti_record *r, bool user_events)
{
	if (c->quiet || c->no_perf)
		return;
	/* Built without perf events, or on a system without them (ENOSYS:
	 * a kernel without CONFIG_PERF_EVENTS, qemu-user), the rusage path is
	 * the normal one: the same note after every run would only fill the
	 * logs. */
	/* A fallback, so never silent (but for -q); timeit-perf's counters
	 * are perf's, whatever this build has. */
	if (r->counters_lost)
		say("note: perf counters lost at a privilege-changing exec "
				"(setuid, setgid, file capabilities or an unreadable executable; "
				"they saw %.1f%% of the CPU time): times from rusage\n",
			100.0 * r->counters_seen);
	bool no_perf_here = !HAVE_PERF_EVENTS_BOOL || (r->ncounts && r->counters_err == ENOSYS);
	if (no_perf_here && !user_events && !c->verbose)
		return;
	for (size_t i = 0; i < r->ncounts; i++) {
		const struct ti_count *k = &r->counts[i];

		/* Default hardware events missing in a VM stay quiet: nightly logs
		 * must not fill with the same note.  Asked-for ones are noted. */
		if (k->err && (c->verbose || user_events))
			say("note: event %s skipped: %s\n", k->name,
				ti_counters_strerror(k->err));
		else if (k->opened && !k->counted && !k->lost && (c->verbose || user_events) &&
			 r->end != TI_END_EXEC_FAILED && r->end != TI_END_SETUP_FAILED)
			say("note: event %s was never scheduled (not counted)\n",
				k->name);
		else if (k->counted && k->running < k->enabled)
			/* Multiplexed: the value is an estimate (perf's scaling). */
			say("warning: event %s ran %.1f%% of the time "
					"(multiplexed); its value is scaled\n", k->name,
				100.0 * (double)k->running / (double)k->enabled);
	}
	if (r->ncounts && r->counters_err) {
		int e = r->counters_err;
		if (e == EACCES || e == EPERM)
			say("note: no perf counter could be opened (%s; "
					"perf_event_paranoid is %d): times from rusage\n",
				strerror(e), ti_os_perf_paranoid(NULL));
		else if (e == EMFILE || e == ENFILE)
			say("note: no perf counter could be opened (%s; "
					"raise 'ulimit -n'): times from rusage\n", strerror(e));
		else
			say("note: no perf counter could be opened (%s): "
					"times from rusage\n", ti_counters_strerror(e));
	}
}

/* The reference's words for a run it ended, with timeit's prefix as the
 * reference has its program name (timeit(1), EXIT STATUS). */
void say_timed_out(const char *cmd)
{
	say("TIMING OUT PROCESS: %s\n", cmd);
}

void say_stopped(int sig, const char *cmd)
{
	say("error: received signal %d. killing monitored process(es): %s\n",
		sig, cmd);
}

/* What happened to the child, on timeit's stderr (never the child's). */
void report_end(const struct ti_options *c, const struct ti_record *r)
{
	if (r->no_aslr_errno)
		say("warning: --no-aslr: %s: %s (address space "
				"randomised)\n", ti_os_no_aslr_call(), strerror(r->no_aslr_errno));
	for (int l = 0; l < TI_LIMIT_COUNT; l++) {
		if (!r->limit_failed[l])
			continue;
		unsigned long long v = (unsigned long long)c->plan.limit[l];
		say("warning: unable to set limit for %s (to {%llu, %llu})\n",
			ti_limit_name((enum ti_limit)l), v, v);
	}
	switch (r->end) {
	case TI_END_TIMEOUT:
		say_timed_out(c->plan.argv[0]);
		break;
	case TI_END_INTERRUPTED:
		say_stopped(r->stop_signal, c->plan.argv[0]);
		break;
	case TI_END_SIGNALED:
		say("error: child terminated by signal %d\n", r->term_signal);
		break;
	case TI_END_EXEC_FAILED:
		/* "execv:" is what the reference says (timeit(1), STANDARDS). */
		say("execv: %s: %s\n", c->plan.argv[0], strerror(r->setup_errno));
		/* 'sleep 0.1; true' given as one word is a shell command. */
		if (r->setup_errno == ENOENT && strpbrk(c->plan.argv[0], " \t;&|<>()$`'\"*?"))
			say("hint: the command is one word with blanks or shell "
					"syntax in it; to run it through a shell: sh -c '%s'\n",
				c->plan.argv[0]);
		break;
	case TI_END_SETUP_FAILED:
		if (strcmp(r->setup_what, "chdir") == 0)
			say("--chdir: %s: %s\n", c->plan.chdir,
				strerror(r->setup_errno));
		else
			say("%s: %s\n", r->setup_what, strerror(r->setup_errno));
		break;
	case TI_END_EXITED:
		break;
	}
}

/* Descriptors 0, 1 and 2 that timeit was started without are opened on
 * /dev/null: otherwise the summary's temporary file or a pipe would take
 * the lowest free one, 2, and every note on stderr would land in it. */
void open_std_fds(void)
{
	int fd;

	while ((fd = open("/dev/null", O_RDWR | O_NOCTTY)) >= 0 && fd <= 2)
		;
	if (fd > 2)
		close(fd);
}

/* The option that gave the path WHAT, when a directory or redirect file
 * failed before the run (lib/measure/spawn.h: the plan's own string), or NULL when
 * WHAT is not one (malloc, pipe, vfork, wait4, sched_setaffinity). */
const char *path_option(const struct ti_options *c, const char *what)
{
	if (what == c->plan.chdir)
		return "--chdir";
	if (what == c->plan.redirect_input)
		return "--redirect-input";
	if (what == c->redirect_output)
		return "--redirect-output";
	if (what == c->plan.redirect_stdout)
		return "--redirect-stdout";
	if (what == c->plan.redirect_stderr)
		return "--redirect-stderr";
	return NULL;
}

/* Two of the files timeit reads or writes are one: the summary would
 * overwrite the JSON, a redirect the summary, and so on.  Only stdout and
 * stderr may share a file (one descriptor).  Prints the error. */
bool paths_clash(const struct ti_options *c)
{
	const char *path[] = { c->summary, c->json, c->plan.redirect_input,
			       c->plan.redirect_stdout, c->plan.redirect_stderr };
	const char *name[] = { "--summary", "--json", "--redirect-input", NULL, NULL };
	const size_t n = sizeof path / sizeof path[0];

	name[3] = path_option(c, c->plan.redirect_stdout);
	name[4] = path_option(c, c->plan.redirect_stderr);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++) {
			if (i == 3 && j == 4)
				continue;
			if (path[i] && path[j] && ti_outfile_same(path[i], path[j])) {
				say("%s %s and %s %s are the same file\n",
					name[i], path[i], name[j], path[j]);
				return true;
			}
		}
	}
	return false;
}

/* Append "exit STATUS" to the stdout file PATH, as the reference's
 * fopen(path, "a") does: a file the command removed (with its directory,
 * recreated) is created again.  Returns 0 or -errno. */
int append_exitstatus(const char *path, int status)
{
	char line[32];
	int n = snprintf(line, sizeof line, "exit %d\n", status);
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);

	if (fd < 0)
		return -errno;
	if (write(fd, line, (size_t)n) != n) {
		int e = errno ? errno : EIO;
		close(fd);
		return -e;
	}
	return close(fd) < 0 ? -errno : 0;
}

/* STATUS, unless what was printed on standard output (--help, --version,
 * --list-events, --check-env) could not all be written: a listing cut
 * short by a full disk must not look complete. */
int stdout_status(int status)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	say("standard output: %s\n", strerror(errno ? errno : EIO));
	return TI_STATUS_INTERNAL;
}
