/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* options.h: timeit's command line: the option table, parsing and
 * validation.  Nothing here runs anything or exits. */
#ifndef TI_OPTIONS_H
#define TI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "events.h"
#include "plan.h"
#include "vgcount.h"

/* --count-instructions: where a deterministic instruction count comes from. */
enum ti_count_mode {
	TI_COUNT_NO,		/* no: only what the perf events count */
	TI_COUNT_VALGRIND,	/* valgrind: an extra run under cachegrind */
	TI_COUNT_VALGRIND_CACHE,	/* valgrind-cache: with its cache simulation */
	TI_COUNT_AUTO,		/* auto: perf's instructions if counted, else valgrind */
};

/* The programs that share the option table (timeit/options.c). */
enum ti_program {
	TI_PROGRAM_TIMEIT,	/* timeit */
	TI_PROGRAM_PERF,	/* timeit-perf: the shared options, -e as perf takes it, --fallback */
};

/* "timeit", "timeit-perf". */
const char *ti_program_name(enum ti_program prog);

struct ti_options {
	struct ti_plan plan;
	struct ti_event_list events;	/* -e, or the defaults (timeit) */
	bool events_given;
	const char *events_arg;		/* timeit-perf's -e, blanks taken out */
	bool fallback;			/* timeit-perf --fallback */
	const char *summary, *json;
	const char *redirect_output;
	bool posix, append_exitstatus, report_maxrss, no_perf, rusage_times;
	bool quiet, verbose;
	bool strict_events;	/* --strict-events */
	bool list_events;	/* --list-events: list and exit, no command */
	unsigned repeat, warmup;	/* --repeat (default 1), --warmup */
	bool repeat_given, keep_going, all_output;
	const char *cpu_list;	/* --cpu as given (parsed into plan.cpus) */
	bool check_env;		/* --check-env: report and exit, no command */
	enum ti_count_mode count_instructions;	/* --count-instructions */
	const char *valgrind;		/* --valgrind, or NULL: "valgrind" in PATH */
	uint64_t valgrind_timeout;	/* --valgrind-timeout */
	bool valgrind_timeout_given;
	/* --valgrind-i1/-d1/-ll (all 0: the machine's), --valgrind-cost-weights */
	struct ti_vgcount_cache vg_cache[TI_VG_NLEVELS];
	struct ti_vgcount_weights vg_weights;
	int argc;
	char **argv;		/* timeit's own command line, for --json */
	const char *env_options;	/* TIMEIT_OPTIONS as given, or NULL */
};

enum ti_parse_result {
	TI_PARSE_OK,
	TI_PARSE_HELP,		/* -h: print the usage, exit 0 */
	TI_PARSE_VERSION,	/* --version */
	TI_PARSE_USAGE,		/* the reference's usage errors: "error: MSG", usage, 1 */
	TI_PARSE_INVALID,	/* a bad value: "timeit: MSG", 1 */
};

/* Parse and validate ARGV into O.  On an error, MSG (size LEN) says what
 * was wrong, naming the option and the bad input. */
enum ti_parse_result ti_options_parse(int argc, char **argv, struct ti_options *o,
				      char *msg, size_t len);

/* Parse as ti_options_parse, with the options in ENV (the value of
 * TIMEIT_OPTIONS, split as sh splits words; NULL or empty: none) before
 * those of ARGV, so that the command line's win.  ENV holds options and
 * their values only; an error about one of its words says TIMEIT_OPTIONS. */
enum ti_parse_result ti_options_parse_env(const char *env, int argc, char **argv,
					  struct ti_options *o, char *msg, size_t len);

/* Parse as ti_options_parse_env, for program PROG: only its options. */
enum ti_parse_result ti_options_parse_prog(enum ti_program prog, const char *env, int argc,
					   char **argv, struct ti_options *o, char *msg, size_t len);

/* The --help text, generated from the option table (timeit's; PROG's). */
void ti_options_usage(FILE *f);
void ti_options_usage_prog(enum ti_program prog, FILE *f);

#endif
