/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* options-test: the command-line parser, table-driven. */
#include "config.h"

#include <string.h>

#include "options.h"
#include "tap.h"

#define MAXARGS 16

static const struct {
	int line;
	const char *argv[MAXARGS];
	enum ti_parse_result rc;
	const char *msg;	/* expected message (exact), or NULL */
} cases[] = {
	{ __LINE__, { "timeit", "true" }, TI_PARSE_OK, NULL },
	{ __LINE__, { "timeit", "-h" }, TI_PARSE_HELP, NULL },
	{ __LINE__, { "timeit", "--help", "true" }, TI_PARSE_HELP, NULL },
	{ __LINE__, { "timeit", "--version" }, TI_PARSE_VERSION, NULL },
	{ __LINE__, { "timeit" }, TI_PARSE_USAGE, "no command (or arguments) was given" },
	{ __LINE__, { "timeit", "-p" }, TI_PARSE_USAGE, "no command (or arguments) was given" },
	{ __LINE__, { "timeit", "--" }, TI_PARSE_USAGE, "no command (or arguments) was given" },
	{ __LINE__, { "timeit", "--bogus", "true" }, TI_PARSE_USAGE, "invalid argument '--bogus'" },
	{ __LINE__, { "timeit", "-x", "true" }, TI_PARSE_USAGE, "invalid argument '-x'" },
	{ __LINE__, { "timeit", "--timeout" }, TI_PARSE_USAGE, "--timeout argument requires an option" },
	{ __LINE__, { "timeit", "-t" }, TI_PARSE_USAGE, "-t argument requires an option" },
	{ __LINE__, { "timeit", "--summary" }, TI_PARSE_USAGE, "--summary argument requires an option" },
	{ __LINE__, { "timeit", "-t", "abc", "true" }, TI_PARSE_INVALID, "--timeout: invalid number 'abc'" },
	{ __LINE__, { "timeit", "-t", "-1", "true" }, TI_PARSE_INVALID, "--timeout: invalid number '-1'" },
	{ __LINE__, { "timeit", "-t", "+1", "true" }, TI_PARSE_INVALID, "--timeout: invalid number '+1'" },
	{ __LINE__, { "timeit", "-t", "", "true" }, TI_PARSE_INVALID, "--timeout: invalid number ''" },
	{ __LINE__, { "timeit", "-t", "1 ", "true" }, TI_PARSE_INVALID, "--timeout: invalid number '1 '" },
	{ __LINE__, { "timeit", "--limit-cpu", "18446744073709551616", "true" }, TI_PARSE_INVALID,
	  "--limit-cpu: number out of range '18446744073709551616'" },
	{ __LINE__, { "timeit", "--limit-core", "18446744073709551615", "true" }, TI_PARSE_OK, NULL },
	{ __LINE__, { "timeit", "--append-exitstatus", "true" }, TI_PARSE_INVALID,
	  "--append-exitstatus needs --redirect-output or --redirect-stdout" },
	{ __LINE__, { "timeit", "--append-exitstatus", "--redirect-stderr", "e", "true" },
	  TI_PARSE_INVALID, "--append-exitstatus needs --redirect-output or --redirect-stdout" },
	{ __LINE__, { "timeit", "--append-exitstatus", "--redirect-output", "o", "true" }, TI_PARSE_OK, NULL },
	{ __LINE__, { "timeit", "-e", "nope", "true" }, TI_PARSE_INVALID, "--events: unknown event 'nope'" },
	{ __LINE__, { "timeit", "--summary=s", "true" }, TI_PARSE_OK, NULL },
	{ __LINE__, { "timeit", "--posix=1", "true" }, TI_PARSE_USAGE, "invalid argument '--posix=1'" },
	{ __LINE__, { "timeit", "--count-instructions=valgrind-cache", "true" }, TI_PARSE_OK, NULL },
	{ __LINE__, { "timeit", "--count-instructions=cache", "true" }, TI_PARSE_INVALID,
	  "--count-instructions: invalid value 'cache' (no, valgrind, valgrind-cache or auto)" },
	{ __LINE__, { "timeit", "--count-instructions=valgrind-cache", "--valgrind-i1", "32768,8,64",
		      "--valgrind-d1=65536,1,64", "--valgrind-ll", "8388608,16,64",
		      "--valgrind-cost-weights", "4,30", "true" }, TI_PARSE_OK, NULL },
	{ __LINE__, { "timeit", "--valgrind-ll", "8388608,16,64", "true" }, TI_PARSE_INVALID,
	  "--valgrind-ll needs --count-instructions=valgrind-cache" },
	{ __LINE__, { "timeit", "--count-instructions=valgrind", "--valgrind-cost-weights", "1,2",
		      "true" }, TI_PARSE_INVALID,
	  "--valgrind-cost-weights needs --count-instructions=valgrind-cache" },
	{ __LINE__, { "timeit", "--count-instructions=valgrind-cache", "--valgrind-d1", "49152,8,64",
		      "true" }, TI_PARSE_INVALID,
	  "--valgrind-d1: the number of sets, SIZE / (LINE x ASSOC), must be a power of two: "
	  "'49152,8,64'" },
	{ __LINE__, { "timeit", "--count-instructions=valgrind-cache", "--valgrind-i1", "32768,8",
		      "true" }, TI_PARSE_INVALID,
	  "--valgrind-i1: expected SIZE,ASSOC,LINE (bytes, ways, bytes): '32768,8'" },
	{ __LINE__, { "timeit", "--count-instructions=valgrind-cache", "--valgrind-cost-weights",
		      "10", "true" }, TI_PARSE_INVALID,
	  "--valgrind-cost-weights: expected L1,LL[,MISPREDICT] (cycles per L1 miss, per last-level "
	  "miss, per mispredicted branch): '10'" },
};

static int count(const char *const *argv)
{
	int n = 0;
	while (n < MAXARGS && argv[n])
		n++;
	return n;
}

int main(void)
{
	struct ti_options o;
	char msg[256];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *argv[MAXARGS + 1] = { 0 };
		int argc = count(cases[i].argv);
		enum ti_parse_result rc;

		memcpy(argv, cases[i].argv, sizeof cases[i].argv);
		rc = ti_options_parse(argc, argv, &o, msg, sizeof msg);
		tap_ok(rc == cases[i].rc, cases[i].line, "result %d (got %d: %s)", cases[i].rc, rc, msg);
		if (cases[i].msg)
			tap_ok(strcmp(msg, cases[i].msg) == 0, cases[i].line, "message '%s' (got '%s')",
			       cases[i].msg, msg);
	}

	/* Options stop at the first non-option; the rest is the command. */
	char *a1[] = { "timeit", "-p", "prog", "-t", "5", NULL };
	TAP_OK(ti_options_parse(5, a1, &o, msg, sizeof msg) == TI_PARSE_OK &&
	       strcmp(o.plan.argv[0], "prog") == 0 && strcmp(o.plan.argv[1], "-t") == 0 &&
	       o.plan.timeout_s == 0 && o.posix, "options end at the command");

	/* "--" ends the options even before a dash argument. */
	char *a2[] = { "timeit", "--", "-weird", NULL };
	TAP_OK(ti_options_parse(3, a2, &o, msg, sizeof msg) == TI_PARSE_OK &&
	       strcmp(o.plan.argv[0], "-weird") == 0, "-- ends the options");

	/* The last of a repeated option wins. */
	char *a3[] = { "timeit", "-t", "5", "--timeout", "7", "--summary", "a", "--summary", "b", "x", NULL };
	TAP_OK(ti_options_parse(10, a3, &o, msg, sizeof msg) == TI_PARSE_OK && o.plan.timeout_s == 7 &&
	       strcmp(o.summary, "b") == 0, "last repeated option wins");

	/* --redirect-output fills both; an explicit stream option wins. */
	char *a4[] = { "timeit", "--redirect-output", "o", "--redirect-stderr", "e", "x", NULL };
	TAP_OK(ti_options_parse(6, a4, &o, msg, sizeof msg) == TI_PARSE_OK &&
	       strcmp(o.plan.redirect_stdout, "o") == 0 && strcmp(o.plan.redirect_stderr, "e") == 0,
	       "redirect-output and redirect-stderr");
	/* The other order: --redirect-output sets both streams, as in the
	 * reference, so it overrides the earlier stream option. */
	char *a4b[] = { "timeit", "--redirect-stderr", "e", "--redirect-stdout", "s",
			"--redirect-output", "o", "x", NULL };
	TAP_OK(ti_options_parse(8, a4b, &o, msg, sizeof msg) == TI_PARSE_OK &&
	       strcmp(o.plan.redirect_stdout, "o") == 0 && strcmp(o.plan.redirect_stderr, "o") == 0,
	       "redirect-stderr and -stdout, then redirect-output: the last wins");

	/* Every limit option reaches its slot. */
	char *a5[] = { "timeit", "--limit-cpu", "1", "--limit-stack-size", "2", "--limit-data-size", "3",
		       "--limit-rss-size", "4", "--limit-file-size", "5", "x", NULL };
	TAP_OK(ti_options_parse(12, a5, &o, msg, sizeof msg) == TI_PARSE_OK &&
	       o.plan.limit[TI_LIMIT_CPU] == 1 && o.plan.limit[TI_LIMIT_STACK] == 2 &&
	       o.plan.limit[TI_LIMIT_DATA] == 3 && o.plan.limit[TI_LIMIT_RSS] == 4 &&
	       o.plan.limit[TI_LIMIT_FSIZE] == 5 && !o.plan.limit_set[TI_LIMIT_CORE],
	       "limits 1..5");
	char *a6[] = { "timeit", "--limit-core", "0", "--limit-file-count", "7",
		       "--limit-subprocess-count", "9", "x", NULL };
	TAP_OK(ti_options_parse(8, a6, &o, msg, sizeof msg) == TI_PARSE_OK &&
	       o.plan.limit_set[TI_LIMIT_CORE] && o.plan.limit[TI_LIMIT_CORE] == 0 &&
	       o.plan.limit[TI_LIMIT_NOFILE] == 7 && o.plan.limit[TI_LIMIT_NPROC] == 9,
	       "limits core, file-count, subprocess-count");

	/* The valgrind run's time limit is the measured run's, not a multiple
	 * of it; --valgrind-timeout sets it. */
	char *a7[] = { "timeit", "--timeout", "3", "--count-instructions=valgrind", "x", NULL };
	TAP_OK(ti_options_parse(5, a7, &o, msg, sizeof msg) == TI_PARSE_OK &&
	       o.valgrind_timeout == 3, "valgrind timeout = --timeout (%llu)",
	       (unsigned long long)o.valgrind_timeout);
	char *a8[] = { "timeit", "--valgrind-timeout", "9", "--timeout", "3", "x", NULL };
	TAP_OK(ti_options_parse(6, a8, &o, msg, sizeof msg) == TI_PARSE_OK &&
	       o.valgrind_timeout == 9, "--valgrind-timeout 9");

	/* The cache options reach their slots; default weights 10,200. */
	char *a9[] = { "timeit", "--count-instructions=valgrind-cache", "--valgrind-d1", "65536,1,64",
		       "x", NULL };
	TAP_OK(ti_options_parse(5, a9, &o, msg, sizeof msg) == TI_PARSE_OK &&
	       o.count_instructions == TI_COUNT_VALGRIND_CACHE && o.vg_cache[TI_VG_D1].size == 65536 &&
	       o.vg_cache[TI_VG_D1].assoc == 1 && o.vg_cache[TI_VG_D1].line == 64 &&
	       o.vg_cache[TI_VG_I1].size == 0 && o.vg_cache[TI_VG_LL].size == 0 &&
	       o.vg_weights.l1 == 10 && o.vg_weights.ll == 200 && o.vg_weights.mispredict == 20,
	       "--valgrind-d1, default weights");
	char *a10[] = { "timeit", "--count-instructions=valgrind-cache", "--valgrind-cost-weights",
			"4,30", "x", NULL };
	TAP_OK(ti_options_parse(5, a10, &o, msg, sizeof msg) == TI_PARSE_OK &&
	       o.vg_weights.l1 == 4 && o.vg_weights.ll == 30 && o.vg_weights.mispredict == 20,
	       "--valgrind-cost-weights 4,30 (mispredict 20 stays)");
	return tap_done();
}
