/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* options.c: the option table and the parser.  Options end at the first
 * argument that does not start with '-' (or at "--"); the rest is the
 * command, passed unchanged to execvp.  A repeated option: the last wins. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"
#include "os.h"
#include "options.h"
#include "repeat.h"
#include "suggest.h"
#include "util.h"
#include "vgcount.h"

enum opt_id {
	OPT_HELP, OPT_VERSION, OPT_POSIX, OPT_TIMEOUT, OPT_CHDIR, OPT_SUMMARY,
	OPT_REDIRECT_INPUT, OPT_REDIRECT_OUTPUT, OPT_REDIRECT_STDOUT,
	OPT_REDIRECT_STDERR, OPT_APPEND_EXITSTATUS, OPT_REPORT_MAXRSS,
	OPT_LIMIT,		/* + enum ti_limit via .limit */
	OPT_EVENTS, OPT_NO_PERF, OPT_RUSAGE_TIMES, OPT_JSON, OPT_QUIET, OPT_VERBOSE,
	OPT_STRICT_EVENTS, OPT_LIST_EVENTS, OPT_REPEAT, OPT_WARMUP, OPT_KEEP_GOING, OPT_ALL_OUTPUT,
	OPT_CPU, OPT_NO_ASLR, OPT_CHECK_ENV,
	OPT_COUNT_INSTRUCTIONS, OPT_VALGRIND, OPT_VALGRIND_TIMEOUT,
	OPT_VALGRIND_CACHE,	/* + enum ti_vgcount_level via .limit */
	OPT_VALGRIND_WEIGHTS, OPT_FALLBACK,
};

#define TIMEIT_ONLY (1u << TI_PROGRAM_TIMEIT)
#define PERF_ONLY (1u << TI_PROGRAM_PERF)
#define BOTH (TIMEIT_ONLY | PERF_ONLY)

enum arg_kind { ARG_NONE, ARG_NUMBER, ARG_PATH, ARG_LIST, ARG_WORD, ARG_GEOMETRY, ARG_WEIGHTS };

static const struct option_def {
	const char *shortname, *longname;
	enum opt_id id;
	enum arg_kind arg;
	int limit;	/* OPT_LIMIT: enum ti_limit; OPT_VALGRIND_CACHE: enum ti_vgcount_level */
	const char *help;
	unsigned progs;	/* the programs that take it: 1 << enum ti_program */
} options[] = {
	{ "-h", "--help", OPT_HELP, ARG_NONE, 0, "show this help and exit", BOTH },
	{ NULL, "--version", OPT_VERSION, ARG_NONE, 0, "show the version and exit", BOTH },
	{ "-p", "--posix", OPT_POSIX, ARG_NONE, 0,
	  "report on stderr in the POSIX layout (without --summary)", BOTH },
	{ "-t", "--timeout", OPT_TIMEOUT, ARG_NUMBER, 0,
	  "kill the command's process group after N seconds (0: never); status 137", BOTH },
	{ "-c", "--chdir", OPT_CHDIR, ARG_PATH, 0, "run the command in directory PATH", BOTH },
	{ NULL, "--summary", OPT_SUMMARY, ARG_PATH, 0,
	  "write the summary to PATH (atomically) instead of reporting on stderr", BOTH },
	{ NULL, "--json", OPT_JSON, ARG_PATH, 0, "write everything measured to PATH as JSON (-: stdout)", TIMEIT_ONLY },
	{ NULL, "--redirect-input", OPT_REDIRECT_INPUT, ARG_PATH, 0,
	  "the command's stdin reads PATH", BOTH },
	{ NULL, "--redirect-output", OPT_REDIRECT_OUTPUT, ARG_PATH, 0,
	  "the command's stdout and stderr go to PATH", BOTH },
	{ NULL, "--redirect-stdout", OPT_REDIRECT_STDOUT, ARG_PATH, 0,
	  "the command's stdout goes to PATH", BOTH },
	{ NULL, "--redirect-stderr", OPT_REDIRECT_STDERR, ARG_PATH, 0,
	  "the command's stderr goes to PATH", BOTH },
	{ NULL, "--append-exitstatus", OPT_APPEND_EXITSTATUS, ARG_NONE, 0,
	  "append 'exit N' to the stdout file and exit 0", BOTH },
	{ NULL, "--report-maxrss", OPT_REPORT_MAXRSS, ARG_NONE, 0,
	  "report the peak resident set size (bytes)", BOTH },
	{ NULL, "--limit-cpu", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_CPU, "RLIMIT_CPU, seconds", BOTH },
	{ NULL, "--limit-stack-size", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_STACK, "RLIMIT_STACK, bytes", BOTH },
	{ NULL, "--limit-data-size", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_DATA, "RLIMIT_DATA, bytes", BOTH },
	{ NULL, "--limit-rss-size", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_RSS, "RLIMIT_RSS, bytes", BOTH },
	{ NULL, "--limit-file-size", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_FSIZE, "RLIMIT_FSIZE, bytes", BOTH },
	{ NULL, "--limit-core", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_CORE, "RLIMIT_CORE, bytes", BOTH },
	{ NULL, "--limit-file-count", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_NOFILE, "RLIMIT_NOFILE", BOTH },
	{ NULL, "--limit-subprocess-count", OPT_LIMIT, ARG_NUMBER, TI_LIMIT_NPROC, "RLIMIT_NPROC", BOTH },
	{ "-e", "--events", OPT_EVENTS, ARG_LIST, 0,
	  "count these perf events (comma-separated) instead of the defaults (task-clock, "
	  "cycles, instructions; context-switches and page-faults come from rusage)", TIMEIT_ONLY },
	{ "-e", "--events", OPT_EVENTS, ARG_LIST, 0,
	  "count these perf events (comma-separated) instead of the defaults", PERF_ONLY },
	{ NULL, "--fallback", OPT_FALLBACK, ARG_NONE, 0,
	  "without a working perf, measure with rusage (wait4) instead", PERF_ONLY },
	{ NULL, "--strict-events", OPT_STRICT_EVENTS, ARG_NONE, 0,
	  "an event that cannot be counted is an error (status 66), not a note", TIMEIT_ONLY },
	{ NULL, "--list-events", OPT_LIST_EVENTS, ARG_NONE, 0,
	  "list the events timeit accepts, available or not here, and exit", TIMEIT_ONLY },
	{ "-r", "--repeat", OPT_REPEAT, ARG_NUMBER, 0,
	  "run the command N times (1-10000); the summary has the medians", TIMEIT_ONLY },
	{ NULL, "--warmup", OPT_WARMUP, ARG_NUMBER, 0,
	  "first run the command N times without measuring it (0-10000)", TIMEIT_ONLY },
	{ NULL, "--keep-going", OPT_KEEP_GOING, ARG_NONE, 0,
	  "with --repeat, go on after a run that fails", TIMEIT_ONLY },
	{ NULL, "--all-output", OPT_ALL_OUTPUT, ARG_NONE, 0,
	  "with --repeat/--warmup, show every run's stdout (default: none)", TIMEIT_ONLY },
	{ NULL, "--cpu", OPT_CPU, ARG_LIST, 0,
	  "run the command on these CPUs only (taskset syntax: 0, 0-3,6)", TIMEIT_ONLY },
	{ NULL, "--no-aslr", OPT_NO_ASLR, ARG_NONE, 0,
	  "run the command without address-space layout randomisation", TIMEIT_ONLY },
	{ NULL, "--check-env", OPT_CHECK_ENV, ARG_NONE, 0,
	  "say what on this machine adds noise and how to fix it, and exit", TIMEIT_ONLY },
	{ NULL, "--no-perf", OPT_NO_PERF, ARG_NONE, 0,
	  "do not use perf events: rusage times and the timestamp counter only", TIMEIT_ONLY },
	{ NULL, "--rusage-times", OPT_RUSAGE_TIMES, ARG_NONE, 0,
	  "user and sys from rusage even when task-clock is counted", TIMEIT_ONLY },
	{ NULL, "--count-instructions", OPT_COUNT_INSTRUCTIONS, ARG_WORD, 0,
	  "no (default), valgrind: count instructions exactly in one more run under "
	  "valgrind after the measured run(s), valgrind-cache: also simulate the caches "
	  "and branches (misses, valgrind-est-cycles), auto: perf's instructions if counted, "
	  "else valgrind", TIMEIT_ONLY },
	{ NULL, "--valgrind", OPT_VALGRIND, ARG_PATH, 0,
	  "the valgrind for --count-instructions (default: valgrind in PATH)", TIMEIT_ONLY },
	{ NULL, "--valgrind-timeout", OPT_VALGRIND_TIMEOUT, ARG_NUMBER, 0,
	  "kill the valgrind run after N seconds (0: never; default: --timeout)", TIMEIT_ONLY },
	{ NULL, "--valgrind-i1", OPT_VALGRIND_CACHE, ARG_GEOMETRY, TI_VG_I1,
	  "valgrind-cache: simulate this I1 cache (bytes, ways, line bytes; "
	  "default: this machine's)", TIMEIT_ONLY },
	{ NULL, "--valgrind-d1", OPT_VALGRIND_CACHE, ARG_GEOMETRY, TI_VG_D1,
	  "valgrind-cache: simulate this D1 cache", TIMEIT_ONLY },
	{ NULL, "--valgrind-ll", OPT_VALGRIND_CACHE, ARG_GEOMETRY, TI_VG_LL,
	  "valgrind-cache: simulate this last-level cache", TIMEIT_ONLY },
	{ NULL, "--valgrind-cost-weights", OPT_VALGRIND_WEIGHTS, ARG_WEIGHTS, 0,
	  "valgrind-cache: cycles per L1 miss, per last-level miss and per mispredicted "
	  "branch in valgrind-est-cycles (default 10,200,20)", TIMEIT_ONLY },
	{ "-q", "--quiet", OPT_QUIET, ARG_NONE, 0, "no notes about counters on stderr", BOTH },
	{ "-v", "--verbose", OPT_VERBOSE, ARG_NONE, 0, "list every event that was skipped", BOTH },
};
#define NOPTIONS (sizeof options / sizeof options[0])

static const struct option_def *find_option(enum ti_program prog, const char *arg)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if ((options[i].progs & (1u << prog)) &&
		    ((options[i].shortname && strcmp(arg, options[i].shortname) == 0) ||
		     strcmp(arg, options[i].longname) == 0))
			return &options[i];
	return NULL;
}

/* The valid option nearest to a mistyped ARG, or NULL (lib/suggest.c). */
static const char *nearest_option(enum ti_program prog, const char *arg)
{
	const char *names[2 * NOPTIONS];
	size_t n = 0;

	for (size_t i = 0; i < NOPTIONS; i++) {
		if (!(options[i].progs & (1u << prog)))
			continue;
		names[n++] = options[i].shortname;
		names[n++] = options[i].longname;
	}
	return ti_suggest(arg, names, n);
}

const char *ti_program_name(enum ti_program prog)
{
	return prog == TI_PROGRAM_PERF ? "timeit-perf" : "timeit";
}

/* The help column: from USAGE_HELP_AT, words wrapped before column 80. */
enum { USAGE_LEFT = 37, USAGE_HELP_AT = 2 + USAGE_LEFT + 1, USAGE_WIDTH = 79 };

/* TEXT from column USAGE_HELP_AT, wrapped at blanks; a word longer than
 * the column stands on a line of its own. */
static void usage_help(FILE *f, const char *text)
{
	int col = USAGE_HELP_AT;

	while (*text) {
		size_t len = strcspn(text, " ");

		if (col > USAGE_HELP_AT && col + 1 + (int)len > USAGE_WIDTH) {
			fprintf(f, "\n%*s", USAGE_HELP_AT, "");
			col = USAGE_HELP_AT;
		} else if (col > USAGE_HELP_AT) {
			fputc(' ', f);
			col++;
		}
		fwrite(text, 1, len, f);
		col += (int)len;
		text += len;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

/* What the usage says around the options, per program. */
static const char *const usage_head[] = {
	[TI_PROGRAM_TIMEIT] = "Run a command and report its exit status, real, user and sys times.\n",
	[TI_PROGRAM_PERF] = "Run a command under perf stat and report its exit status, real, user and\n"
			    "sys times like timeit(1).\n",
};
static const char *const usage_tail[] = {
	[TI_PROGRAM_TIMEIT] =
		"Exit status: the command's; 128+S when killed by signal S; 137 on timeout,\n"
		"--limit-cpu or interrupt; 127/126 when it cannot be run; 66 when it cannot\n"
		"be set up (a redirect, --chdir, --cpu) or timeit itself fails; 1 on a usage\n"
		"error or a --summary or --json path that cannot be written.\n\n"
		"Environment: TIMEIT_OPTIONS, options read before the command line's (for\n"
		"the runs lit or CMake start).  See timeit(1).\n",
	[TI_PROGRAM_PERF] =
		"Exit status: the command's; 128+S when killed by signal S; 137 on timeout\n"
		"or interrupt; 127/126 when it cannot be run; 66 when timeit-perf itself\n"
		"fails (no perf); 1 on a usage error.\n\n"
		"Environment: TIMEIT_OPTIONS, options read before the command line's;\n"
		"TIMEIT_PERF, the perf program.  See timeit-perf(1).\n",
};

void ti_options_usage_prog(enum ti_program prog, FILE *f)
{
	fprintf(f, "usage: %s [options] [--] command [arguments ...]\n\n%s\noptions:\n",
		ti_program_name(prog), usage_head[prog]);
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct option_def *o = &options[i];
		char left[64];
		const char *arg = o->arg == ARG_NUMBER ? " N" : o->arg == ARG_PATH ? " PATH"
				: o->arg == ARG_LIST ? " LIST" : o->arg == ARG_WORD ? " WORD"
				: o->arg == ARG_GEOMETRY ? " S,A,L" : o->arg == ARG_WEIGHTS ? " L1,LL[,M]"
				: "";

		if (!(o->progs & (1u << prog)))
			continue;
		snprintf(left, sizeof left, "%s%s%s%s", o->shortname ? o->shortname : "    ",
			 o->shortname ? ", " : "", o->longname, arg);
		fprintf(f, "  %-*s ", USAGE_LEFT, left);
		usage_help(f, o->help);
	}
	fprintf(f, "\n%s", usage_tail[prog]);
	if (TI_BUG_URL[0])
		fprintf(f, "\nReport bugs to: %s\n", TI_BUG_URL);
}

void ti_options_usage(FILE *f)
{
	ti_options_usage_prog(TI_PROGRAM_TIMEIT, f);
}

static bool number(const char *opt, const char *s, uint64_t *v, char *msg, size_t len)
{
	int rc = ti_parse_u64(s, v);

	if (rc < 0)
		snprintf(msg, len, "%s: %s '%s'", opt,
			 rc == -ERANGE ? "number out of range" : "invalid number", s);
	return rc == 0;
}

/* timeit-perf's -e: the list as perf takes it (a PMU's "/.../" may hold
 * commas), without the blanks that would stay in perf's names and so in
 * the summary keys; perf itself judges the names. */
static enum ti_parse_result perf_events(const char *events, struct ti_options *o, char *msg,
					size_t len)
{
	static char list[4096];
	size_t n = 0;

	for (const char *p = events; *p; p++)
		if (*p != ' ' && *p != '\t' && n + 1 < sizeof list)
			list[n++] = *p;
	list[n] = '\0';
	if (strlen(events) >= sizeof list || !n) {
		snprintf(msg, len, "--events: %s '%s'", n ? "list too long" : "empty list", events);
		return TI_PARSE_INVALID;
	}
	o->events_arg = list;
	o->events_given = true;
	return TI_PARSE_OK;
}

/* Parse ARGV, whose words 1..ENV_WORDS came from TIMEIT_OPTIONS; *AT is
 * left at the word a failure is about. */
static enum ti_parse_result parse(enum ti_program prog, int argc, char **argv, int env_words,
				  int *at, struct ti_options *o, char *msg, size_t len)
{
	const char *events = NULL, *vg_option = NULL;
	int i;

	memset(o, 0, sizeof *o);
	o->repeat = 1;
	o->vg_weights.l1 = TI_VGCOUNT_WEIGHT_L1;
	o->vg_weights.ll = TI_VGCOUNT_WEIGHT_LL;
	o->vg_weights.mispredict = TI_VGCOUNT_WEIGHT_MISPREDICT;
	o->argc = argc - env_words;
	msg[0] = '\0';
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		char name[64];
		const char *arg = argv[i], *value = NULL, *eq;
		const struct option_def *d;

		*at = i;
		if (strcmp(arg, "--") == 0 && i <= env_words) {
			snprintf(msg, len, "'--' ends %s's options on its command line only",
				 ti_program_name(prog));
			return TI_PARSE_INVALID;
		}

		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		/* --name=value is accepted too, for long options. */
		eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
		if (eq && (size_t)(eq - arg) < sizeof name) {
			memcpy(name, arg, (size_t)(eq - arg));
			name[eq - arg] = '\0';
			d = find_option(prog, name);
			if (d && d->arg != ARG_NONE)
				value = eq + 1;
			else
				d = NULL;
		} else {
			d = find_option(prog, arg);
		}
		if (!d) {
			const char *near = nearest_option(prog, arg);

			if (near)
				snprintf(msg, len, "invalid argument '%s' (did you mean %s?)", arg, near);
			else
				snprintf(msg, len, "invalid argument '%s'", arg);
			return TI_PARSE_USAGE;
		}
		if (d->arg != ARG_NONE && !value) {
			if (i + 1 >= argc || i == env_words) {
				snprintf(msg, len, "%s argument requires an option", arg);
				return TI_PARSE_USAGE;
			}
			value = argv[++i];
		}
		switch (d->id) {
		case OPT_HELP: return TI_PARSE_HELP;
		case OPT_VERSION: return TI_PARSE_VERSION;
		case OPT_POSIX: o->posix = true; break;
		case OPT_TIMEOUT:
			if (!number(d->longname, value, &o->plan.timeout_s, msg, len))
				return TI_PARSE_INVALID;
			break;
		case OPT_CHDIR: o->plan.chdir = value; break;
		case OPT_SUMMARY: o->summary = value; break;
		/* "-" is standard output, as for most tools that write a
		 * document (the summary keeps the reference's file "-"). */
		case OPT_JSON: o->json = strcmp(value, "-") == 0 ? "/dev/stdout" : value; break;
		case OPT_REDIRECT_INPUT: o->plan.redirect_input = value; break;
		case OPT_REDIRECT_OUTPUT:
			/* Both streams, as the reference sets them: a later
			 * --redirect-stdout/-stderr overrides one, an earlier
			 * one is overridden (the last wins). */
			o->redirect_output = value;
			o->plan.redirect_stdout = o->plan.redirect_stderr = value;
			break;
		case OPT_REDIRECT_STDOUT: o->plan.redirect_stdout = value; break;
		case OPT_REDIRECT_STDERR: o->plan.redirect_stderr = value; break;
		case OPT_APPEND_EXITSTATUS: o->append_exitstatus = true; break;
		case OPT_REPORT_MAXRSS: o->report_maxrss = true; break;
		case OPT_LIMIT:
			if (!number(d->longname, value, &o->plan.limit[d->limit], msg, len))
				return TI_PARSE_INVALID;
			o->plan.limit_set[d->limit] = true;
			break;
		case OPT_EVENTS: events = value; break;
		case OPT_NO_PERF: o->no_perf = true; break;
		case OPT_FALLBACK: o->fallback = true; break;
		case OPT_RUSAGE_TIMES: o->rusage_times = true; break;
		case OPT_QUIET: o->quiet = true; break;
		case OPT_VERBOSE: o->verbose = true; break;
		case OPT_STRICT_EVENTS: o->strict_events = true; break;
		case OPT_LIST_EVENTS: o->list_events = true; break;
		case OPT_REPEAT:
		case OPT_WARMUP: {
			uint64_t v;
			if (!number(d->longname, value, &v, msg, len))
				return TI_PARSE_INVALID;
			if ((d->id == OPT_REPEAT && v == 0) || v > TI_REPEAT_MAX) {
				snprintf(msg, len, "%s: number out of range '%s' (%s-%d)", d->longname,
					 value, d->id == OPT_REPEAT ? "1" : "0", TI_REPEAT_MAX);
				return TI_PARSE_INVALID;
			}
			if (d->id == OPT_REPEAT) {
				o->repeat = (unsigned)v;
				o->repeat_given = true;
			} else {
				o->warmup = (unsigned)v;
			}
			break;
		}
		case OPT_KEEP_GOING: o->keep_going = true; break;
		case OPT_ALL_OUTPUT: o->all_output = true; break;
		case OPT_CPU: {
			if (!ti_os_has(TI_OS_AFFINITY)) {
				snprintf(msg, len, "%s is not supported on this system", d->longname);
				return TI_PARSE_INVALID;
			}
			/* The options last as long as timeit: one set, reused
			 * by every parse (the fuzzer's and the tests' too). */
			static struct ti_cpuset cpus;
			int rc = ti_cpuset_parse(value, &cpus);
			o->plan.cpus = cpus;
			if (rc < 0) {
				snprintf(msg, len, "%s: %s '%s'", d->longname,
					 rc == -ERANGE ? "CPU number out of range"
					 : rc == -ENOMEM ? "out of memory for the list" : "invalid CPU list",
					 value);
				return TI_PARSE_INVALID;
			}
			o->plan.pin = true;
			o->cpu_list = value;
			break;
		}
		case OPT_NO_ASLR:
			if (!ti_os_has(TI_OS_NO_ASLR)) {
				snprintf(msg, len, "%s is not supported on this system", d->longname);
				return TI_PARSE_INVALID;
			}
			o->plan.no_aslr = true;
			break;
		case OPT_CHECK_ENV: o->check_env = true; break;
		case OPT_COUNT_INSTRUCTIONS:
			if (strcmp(value, "no") == 0) {
				o->count_instructions = TI_COUNT_NO;
			} else if (strcmp(value, "valgrind") == 0) {
				o->count_instructions = TI_COUNT_VALGRIND;
			} else if (strcmp(value, "valgrind-cache") == 0) {
				o->count_instructions = TI_COUNT_VALGRIND_CACHE;
			} else if (strcmp(value, "auto") == 0) {
				o->count_instructions = TI_COUNT_AUTO;
			} else {
				snprintf(msg, len, "%s: invalid value '%s' (no, valgrind, "
					 "valgrind-cache or auto)", d->longname, value);
				return TI_PARSE_INVALID;
			}
			break;
		case OPT_VALGRIND:
			/* Not "find it in PATH", which is leaving it out. */
			if (!*value) {
				snprintf(msg, len, "--valgrind: the path is empty");
				return TI_PARSE_INVALID;
			}
			o->valgrind = value;
			break;
		case OPT_VALGRIND_TIMEOUT:
			if (!number(d->longname, value, &o->valgrind_timeout, msg, len))
				return TI_PARSE_INVALID;
			o->valgrind_timeout_given = true;
			break;
		case OPT_VALGRIND_CACHE: {
			const char *why = ti_vgcount_cache_parse(value, &o->vg_cache[d->limit]);
			if (why) {
				snprintf(msg, len, "%s: %s: '%s'", d->longname, why, value);
				return TI_PARSE_INVALID;
			}
			if (!vg_option)
				vg_option = d->longname;
			break;
		}
		case OPT_VALGRIND_WEIGHTS: {
			const char *why = ti_vgcount_weights_parse(value, &o->vg_weights);
			if (why) {
				snprintf(msg, len, "%s: %s: '%s'", d->longname, why, value);
				return TI_PARSE_INVALID;
			}
			if (!vg_option)
				vg_option = d->longname;
			break;
		}
		}
	}
	*at = i;
	if (i <= env_words) {
		snprintf(msg, len, "'%s' is not an option (the command goes on the command line)",
			 argv[i]);
		return TI_PARSE_INVALID;
	}
	*at = argc;
	/* An action that runs no command. */
	if (o->list_events || o->check_env)
		return TI_PARSE_OK;
	if (i >= argc) {
		snprintf(msg, len, "no command (or arguments) was given");
		return TI_PARSE_USAGE;
	}
	o->plan.argv = argv + i;

	/* The valgrind run has the measured run's limits, its timeout too:
	 * a count must not cost more than the run it counts was allowed. */
	if (!o->valgrind_timeout_given)
		o->valgrind_timeout = o->plan.timeout_s;
	/* A cache option without the simulation would be silently ignored. */
	if (vg_option && o->count_instructions != TI_COUNT_VALGRIND_CACHE) {
		snprintf(msg, len, "%s needs --count-instructions=valgrind-cache", vg_option);
		return TI_PARSE_INVALID;
	}
	if (o->append_exitstatus && !o->plan.redirect_stdout) {
		snprintf(msg, len, "--append-exitstatus needs --redirect-output or --redirect-stdout");
		return TI_PARSE_INVALID;
	}
	if (events && prog == TI_PROGRAM_PERF)
		return perf_events(events, o, msg, len);
	if (events) {
		char bad[TI_EVENT_NAME_MAX * 2];
		int rc = ti_events_parse(events, &o->events, bad, sizeof bad);
		if (rc < 0) {
			snprintf(msg, len, "--events: %s '%s'", ti_events_strerror(rc), bad);
			return TI_PARSE_INVALID;
		}
		o->events_given = true;
	} else {
		ti_events_default(&o->events);
	}
	return TI_PARSE_OK;
}

enum ti_parse_result ti_options_parse(int argc, char **argv, struct ti_options *o,
				      char *msg, size_t len)
{
	return ti_options_parse_prog(TI_PROGRAM_TIMEIT, NULL, argc, argv, o, msg, len);
}

static enum ti_parse_result parse_args(enum ti_program prog, int argc, char **argv,
				       struct ti_options *o, char *msg, size_t len)
{
	int at;
	enum ti_parse_result rc = parse(prog, argc, argv, 0, &at, o, msg, len);

	o->argv = argv;
	return rc;
}

/* TIMEIT_OPTIONS split into words, and the command line it makes: kept for
 * the whole run (the plan points into it), reachable until exit. */
static char *env_text;
static char **env_argv;

enum ti_parse_result ti_options_parse_env(const char *env, int argc, char **argv,
					  struct ti_options *o, char *msg, size_t len)
{
	return ti_options_parse_prog(TI_PROGRAM_TIMEIT, env, argc, argv, o, msg, len);
}

enum ti_parse_result ti_options_parse_prog(enum ti_program prog, const char *env, int argc,
					   char **argv, struct ti_options *o, char *msg, size_t len)
{
	enum ti_parse_result rc;
	int n = 0, at;
	char *copy;

	if (!env || !*env)
		return parse_args(prog, argc, argv, o, msg, len);
	/* Counted on one copy, split on another: splitting moves the text. */
	if (!(copy = strdup(env)) || (n = ti_split_words(copy, NULL)) < 0) {
		memset(o, 0, sizeof *o);
		snprintf(msg, len, "TIMEIT_OPTIONS: %s", copy ? "a quote is not closed"
							       : strerror(errno));
		free(copy);
		return TI_PARSE_INVALID;
	}
	free(copy);
	free(env_text);
	free(env_argv);
	env_text = strdup(env);
	env_argv = calloc((size_t)argc + (size_t)n + 1, sizeof *env_argv);
	if (!env_text || !env_argv) {
		memset(o, 0, sizeof *o);
		snprintf(msg, len, "TIMEIT_OPTIONS: %s", strerror(ENOMEM));
		return TI_PARSE_INVALID;
	}
	env_argv[0] = argv[0];
	ti_split_words(env_text, env_argv + 1);
	for (int i = 1; i < argc; i++)
		env_argv[n + i] = argv[i];
	rc = parse(prog, argc + n, env_argv, n, &at, o, msg, len);
	o->argv = argv;
	o->env_options = env;
	if (rc >= TI_PARSE_USAGE && at <= n) {
		char why[256];

		snprintf(why, sizeof why, "%s", msg);
		snprintf(msg, len, "TIMEIT_OPTIONS: %s", why);
	}
	return rc;
}
