/* timeit.c: the command line.  Parses and validates everything, then hands
 * a run plan to lib/ and reports what came back. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "events.h"
#include "host.h"
#include "json.h"
#include "measure.h"
#include "outfile.h"
#include "summary.h"
#include "util.h"

/* Exit statuses of timeit itself (spec/compat.md); the child's own status
 * passes through otherwise. */
enum {
	EXIT_USAGE = 1,		/* bad arguments, unwritable summary path */
	EXIT_INTERNAL = 66,	/* fork/wait/redirect/summary write failed */
};

enum opt_id {
	OPT_HELP, OPT_VERSION, OPT_POSIX, OPT_TIMEOUT, OPT_CHDIR, OPT_SUMMARY,
	OPT_REDIRECT_INPUT, OPT_REDIRECT_OUTPUT, OPT_REDIRECT_STDOUT,
	OPT_REDIRECT_STDERR, OPT_APPEND_EXITSTATUS, OPT_REPORT_MAXRSS,
	OPT_LIMIT,		/* + enum ti_limit via .limit */
	OPT_EVENTS, OPT_NO_PERF, OPT_RUSAGE_TIMES, OPT_JSON, OPT_QUIET, OPT_VERBOSE,
};

enum arg_kind { ARG_NONE, ARG_NUMBER, ARG_PATH, ARG_LIST };

static const struct option_def {
	const char *shortname, *longname;
	enum opt_id id;
	enum arg_kind arg;
	int limit;
	const char *help;
} options[] = {
	{ "-h", "--help", OPT_HELP, ARG_NONE, 0, "show this help and exit" },
	{ NULL, "--version", OPT_VERSION, ARG_NONE, 0, "show the version and exit" },
	{ "-p", "--posix", OPT_POSIX, ARG_NONE, 0,
	  "report on stderr in the POSIX layout (without --summary)" },
	{ "-t", "--timeout", OPT_TIMEOUT, ARG_NUMBER, 0,
	  "kill the command's process group after N seconds (0: never); status 137" },
	{ "-c", "--chdir", OPT_CHDIR, ARG_PATH, 0, "run the command in directory PATH" },
	{ NULL, "--summary", OPT_SUMMARY, ARG_PATH, 0,
	  "write the summary to PATH (atomically) instead of reporting on stderr" },
	{ NULL, "--json", OPT_JSON, ARG_PATH, 0, "write everything measured to PATH as JSON" },
	{ NULL, "--redirect-input", OPT_REDIRECT_INPUT, ARG_PATH, 0,
	  "the command's stdin reads PATH" },
	{ NULL, "--redirect-output", OPT_REDIRECT_OUTPUT, ARG_PATH, 0,
	  "the command's stdout and stderr go to PATH" },
	{ NULL, "--redirect-stdout", OPT_REDIRECT_STDOUT, ARG_PATH, 0,
	  "the command's stdout goes to PATH" },
	{ NULL, "--redirect-stderr", OPT_REDIRECT_STDERR, ARG_PATH, 0,
	  "the command's stderr goes to PATH" },
	{ NULL, "--append-exitstatus", OPT_APPEND_EXITSTATUS, ARG_NONE, 0,
	  "append 'exit N' to the stdout file and exit 0" },
	{ NULL, "--report-maxrss", OPT_REPORT_MAXRSS, ARG_NONE, 0,
	  "report the peak resident set size (bytes)" },
	{ NULL, "--limit-cpu", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_CPU, "RLIMIT_CPU, seconds" },
	{ NULL, "--limit-stack-size", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_STACK, "RLIMIT_STACK, bytes" },
	{ NULL, "--limit-data-size", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_DATA, "RLIMIT_DATA, bytes" },
	{ NULL, "--limit-rss-size", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_RSS, "RLIMIT_RSS, bytes" },
	{ NULL, "--limit-file-size", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_FSIZE, "RLIMIT_FSIZE, bytes" },
	{ NULL, "--limit-core", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_CORE, "RLIMIT_CORE, bytes" },
	{ NULL, "--limit-file-count", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_NOFILE, "RLIMIT_NOFILE" },
	{ NULL, "--limit-subprocess-count", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_NPROC, "RLIMIT_NPROC" },
	{ "-e", "--events", OPT_EVENTS, ARG_LIST, 0,
	  "count these perf events (comma-separated) instead of the defaults" },
	{ NULL, "--no-perf", OPT_NO_PERF, ARG_NONE, 0,
	  "do not use perf events: rusage times and the timestamp counter only" },
	{ NULL, "--rusage-times", OPT_RUSAGE_TIMES, ARG_NONE, 0,
	  "user and sys from rusage even when task-clock is counted" },
	{ "-q", "--quiet", OPT_QUIET, ARG_NONE, 0, "no notes about counters on stderr" },
	{ "-v", "--verbose", OPT_VERBOSE, ARG_NONE, 0, "list every event that was skipped" },
};
#define NOPTIONS (sizeof options / sizeof options[0])

struct config {
	struct ti_plan plan;
	const char *summary, *json, *events;
	const char *redirect_output;
	bool posix, append_exitstatus, report_maxrss, no_perf, rusage_times;
	bool quiet, verbose;
	int argc;
	char **argv;		/* timeit's own command line, for --json */
};

static void usage(FILE *f)
{
	fprintf(f, "usage: timeit [options] [--] command [arguments ...]\n\n"
		   "Run a command and report its exit status, real, user and sys times.\n\n"
		   "options:\n");
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct option_def *o = &options[i];
		char left[64];
		const char *arg = o->arg == ARG_NUMBER ? " N" : o->arg == ARG_PATH ? " PATH"
				: o->arg == ARG_LIST ? " LIST" : "";

		snprintf(left, sizeof left, "%s%s%s%s", o->shortname ? o->shortname : "    ",
			 o->shortname ? ", " : "", o->longname, arg);
		fprintf(f, "  %-32s %s\n", left, o->help);
	}
	fprintf(f, "\nExit status: the command's; 128+S when killed by signal S; 137 on timeout\n"
		   "or interrupt; 127/126 when it cannot be run; 66 when timeit itself fails;\n"
		   "1 on a usage error.  See timeit(1).\n");
}

/* The reference's usage errors: "error: ..." then the usage, status 1. */
static void usage_error(const char *msg)
{
	fprintf(stderr, "error: %s\n", msg);
	usage(stderr);
	exit(EXIT_USAGE);
}

static const struct option_def *find_option(const char *arg)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if ((options[i].shortname && strcmp(arg, options[i].shortname) == 0) ||
		    strcmp(arg, options[i].longname) == 0)
			return &options[i];
	return NULL;
}

static uint64_t number(const char *opt, const char *s)
{
	uint64_t v;
	int rc = ti_parse_u64(s, &v);

	if (rc < 0) {
		fprintf(stderr, "timeit: %s: %s '%s'\n", opt,
			rc == -ERANGE ? "number out of range" : "invalid number", s);
		exit(EXIT_USAGE);
	}
	return v;
}

/* Options end at the first argument not starting with '-' (or at "--");
 * the rest is the command.  A repeated option: the last one wins. */
static void parse_args(int argc, char **argv, struct config *c)
{
	int i;

	memset(c, 0, sizeof *c);
	c->argc = argc;
	c->argv = argv;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		char name[64];
		const char *arg = argv[i], *value = NULL, *eq;
		const struct option_def *o;

		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		/* --name=value is accepted too, for long options. */
		eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
		if (eq && (size_t)(eq - arg) < sizeof name) {
			memcpy(name, arg, (size_t)(eq - arg));
			name[eq - arg] = '\0';
			o = find_option(name);
			if (o && o->arg != ARG_NONE)
				value = eq + 1;
			else
				o = NULL;
		} else {
			o = find_option(arg);
		}
		if (!o) {
			char msg[256];
			snprintf(msg, sizeof msg, "invalid argument '%s'", arg);
			usage_error(msg);
		}
		if (o->arg != ARG_NONE && !value) {
			if (i + 1 >= argc) {
				char msg[256];
				snprintf(msg, sizeof msg, "%s argument requires an option", arg);
				usage_error(msg);
			}
			value = argv[++i];
		}
		switch (o->id) {
		case OPT_HELP:
			usage(stdout);
			exit(0);
		case OPT_VERSION:
			printf("timeit %s\n", PACKAGE_VERSION);
			exit(0);
		case OPT_POSIX: c->posix = true; break;
		case OPT_TIMEOUT: c->plan.timeout_s = number(o->longname, value); break;
		case OPT_CHDIR: c->plan.chdir = value; break;
		case OPT_SUMMARY: c->summary = value; break;
		case OPT_JSON: c->json = value; break;
		case OPT_REDIRECT_INPUT: c->plan.redirect_input = value; break;
		case OPT_REDIRECT_OUTPUT: c->redirect_output = value; break;
		case OPT_REDIRECT_STDOUT: c->plan.redirect_stdout = value; break;
		case OPT_REDIRECT_STDERR: c->plan.redirect_stderr = value; break;
		case OPT_APPEND_EXITSTATUS: c->append_exitstatus = true; break;
		case OPT_REPORT_MAXRSS: c->report_maxrss = true; break;
		case OPT_LIMIT:
			c->plan.limit[o->limit] = number(o->longname, value);
			c->plan.limit_set[o->limit] = true;
			break;
		case OPT_EVENTS: c->events = value; break;
		case OPT_NO_PERF: c->no_perf = true; break;
		case OPT_RUSAGE_TIMES: c->rusage_times = true; break;
		case OPT_QUIET: c->quiet = true; break;
		case OPT_VERBOSE: c->verbose = true; break;
		}
	}
	if (i >= argc)
		usage_error("no command (or arguments) was given");
	c->plan.argv = argv + i;

	/* --redirect-output is both streams into one file; a separate
	 * --redirect-stdout/-stderr given as well takes precedence. */
	if (c->redirect_output) {
		if (!c->plan.redirect_stdout)
			c->plan.redirect_stdout = c->redirect_output;
		if (!c->plan.redirect_stderr)
			c->plan.redirect_stderr = c->redirect_output;
	}
	if (c->append_exitstatus && !c->plan.redirect_stdout) {
		fprintf(stderr, "timeit: --append-exitstatus needs --redirect-output or "
				"--redirect-stdout\n");
		exit(EXIT_USAGE);
	}
}

static void note_counters(const struct config *c, const struct ti_record *r, bool user_events)
{
	if (c->quiet || c->no_perf)
		return;
	for (size_t i = 0; i < r->ncounts; i++) {
		const struct ti_count *k = &r->counts[i];

		/* Default hardware events missing in a VM stay quiet: nightly logs
		 * must not fill with the same note.  Asked-for ones are noted. */
		if (k->err && (c->verbose || user_events))
			fprintf(stderr, "timeit: note: event %s skipped: %s\n", k->name,
				strerror(k->err));
		else if (k->opened && !k->counted && (c->verbose || user_events))
			fprintf(stderr, "timeit: note: event %s was never scheduled (not counted)\n",
				k->name);
	}
	if (r->ncounts && r->counters_err) {
		int e = r->counters_err;
		if (e == EACCES || e == EPERM)
			fprintf(stderr, "timeit: note: no perf counter could be opened (%s; "
					"perf_event_paranoid is %d): times from rusage\n",
				strerror(e), ti_host_paranoid());
		else if (e == EMFILE || e == ENFILE)
			fprintf(stderr, "timeit: note: no perf counter could be opened (%s; "
					"raise 'ulimit -n'): times from rusage\n", strerror(e));
		else
			fprintf(stderr, "timeit: note: no perf counter could be opened (%s): "
					"times from rusage\n", strerror(e));
	}
}

/* What happened to the child, on timeit's stderr (never the child's). */
static void report_end(const struct config *c, const struct ti_record *r)
{
	for (int l = 0; l < TI_LIMIT_COUNT; l++) {
		if (!r->limit_failed[l])
			continue;
		unsigned long v = (unsigned long)c->plan.limit[l];
		fprintf(stderr, "timeit: warning: unable to set limit for %s (to {%lu, %lu})\n",
			ti_limit_name((enum ti_limit)l), v, v);
	}
	switch (r->end) {
	case TI_END_TIMEOUT:
		fprintf(stderr, "TIMING OUT PROCESS: %s\n", c->plan.argv[0]);
		break;
	case TI_END_INTERRUPTED:
		fprintf(stderr, "received signal %d. killing monitored process(es)\n", r->stop_signal);
		break;
	case TI_END_SIGNALED:
		fprintf(stderr, "error: child terminated by signal %d\n", r->term_signal);
		break;
	case TI_END_EXEC_FAILED:
		fprintf(stderr, "timeit: execvp: %s: %s\n", c->plan.argv[0], strerror(r->setup_errno));
		break;
	case TI_END_SETUP_FAILED:
		fprintf(stderr, "timeit: %s: %s: %s\n", r->setup_what,
			strcmp(r->setup_what, "chdir") == 0 ? c->plan.chdir : "redirect",
			strerror(r->setup_errno));
		break;
	case TI_END_EXITED:
		break;
	}
}

static void format_json(struct ti_buf *b, const struct config *c, const struct ti_record *r)
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
	ti_json_int(&j, "status", r->status);
	ti_json_host(&j, "host", &h);
	ti_json_array(&j, "runs");
	ti_json_record(&j, NULL, r);
	ti_json_end(&j, ']');
	ti_json_end(&j, '}');
	ti_buf_append(b, "\n", 1);
}

static int append_exitstatus(const char *path, int status)
{
	char line[32];
	int n = snprintf(line, sizeof line, "exit %d\n", status);
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (write(fd, line, (size_t)n) != n) {
		int e = errno ? errno : EIO;
		close(fd);
		return -e;
	}
	return close(fd) < 0 ? -errno : 0;
}

int main(int argc, char **argv)
{
	struct config c;
	struct ti_event_list events;
	struct ti_outfile summary_out, json_out;
	struct ti_measure_opts mo = { 0 };
	struct ti_record r;
	struct ti_failure f = { 0 };
	struct ti_summary_opts so;
	int rc, status;

	parse_args(argc, argv, &c);
	so.report_maxrss = c.report_maxrss;

	if (c.events) {
		char bad[TI_EVENT_NAME_MAX * 2];
		rc = ti_events_parse(c.events, &events, bad, sizeof bad);
		if (rc < 0) {
			fprintf(stderr, "timeit: --events: %s '%s'\n", ti_events_strerror(rc), bad);
			return EXIT_USAGE;
		}
	} else {
		ti_events_default(&events);
	}
	mo.events = c.no_perf ? NULL : &events;
	mo.rusage_times = c.rusage_times;

	/* Result paths are checked before anything runs. */
	if (c.summary && (rc = ti_outfile_prepare(&summary_out, c.summary)) < 0) {
		fprintf(stderr, "timeit: --summary: %s: %s\n", c.summary, strerror(-rc));
		return EXIT_USAGE;
	}
	if (c.json && (rc = ti_outfile_prepare(&json_out, c.json)) < 0) {
		fprintf(stderr, "timeit: --json: %s: %s\n", c.json, strerror(-rc));
		if (c.summary)
			ti_outfile_abort(&summary_out);
		return EXIT_USAGE;
	}

	if (ti_measure(&c.plan, &mo, &r, &f) < 0) {
		fprintf(stderr, "timeit: %s: %s\n", f.what, strerror(f.err));
		if (c.summary)
			ti_outfile_abort(&summary_out);
		if (c.json)
			ti_outfile_abort(&json_out);
		return EXIT_INTERNAL;
	}
	note_counters(&c, &r, c.events != NULL);
	report_end(&c, &r);
	status = r.status;

	if (c.append_exitstatus) {
		rc = append_exitstatus(c.plan.redirect_stdout, r.status);
		if (rc < 0) {
			fprintf(stderr, "timeit: --append-exitstatus: %s: %s\n",
				c.plan.redirect_stdout, strerror(-rc));
			status = EXIT_INTERNAL;
		} else {
			status = 0;
		}
	}

	struct ti_buf out = { 0 };
	if (c.summary) {
		ti_summary_format(&out, &r, &so);
		rc = out.failed ? -ENOMEM : ti_outfile_commit(&summary_out, out.data, out.len);
		if (rc < 0) {
			fprintf(stderr, "timeit: --summary: %s: %s\n", c.summary, strerror(-rc));
			status = EXIT_INTERNAL;
		}
	} else {
		ti_report_format(&out, &r, c.posix, &so);
		fputs(out.data ? out.data : "", stderr);
	}
	ti_buf_free(&out);

	if (c.json) {
		format_json(&out, &c, &r);
		rc = out.failed ? -ENOMEM : ti_outfile_commit(&json_out, out.data, out.len);
		if (rc < 0) {
			fprintf(stderr, "timeit: --json: %s: %s\n", c.json, strerror(-rc));
			status = EXIT_INTERNAL;
		}
		ti_buf_free(&out);
	}
	return status;
}
