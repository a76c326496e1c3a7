/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* timeit-ab: run two lit test directories (or, with --suite, the bundled
 * test-suite's benchmarks for make ab) in rounds until the verdict engine
 * has decided every test, then print timeit-compare's verdict.  Only the
 * command line: the rounds, schedules and looks are lib/drive's, and what
 * each runner's run needs is checked beside it, in abrun/ab-RUNNER.c. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <ftw.h>
#include <unistd.h>

#include "buf.h"
#include "cpuset.h"
#include "drive.h"
#include "os.h"
#include "record.h"
#include "report-cell.h"
#include "suggest.h"
#include "timeit-ab.h"
#include "util.h"

/* Exit statuses (timeit-ab(1), EXIT STATUS); otherwise timeit-compare's. */
enum { EXIT_USAGE = 2, EXIT_ERROR = 2, EXIT_INTERRUPTED = 130 };

const char prog[] = "timeit-ab";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [options] BUILD_A BUILD_B [-- LIT_ARGUMENTS ...]\n"
		"       %s [options] --cmd COMMAND_A --cmd COMMAND_B\n"
		"       %s [options] --compile BUILD_A BUILD_B\n"
		"       %s --suite RUNFILE -o DIR [options] BENCHMARK ...\n"
		"\n"
		"Run lit on two configured and built lit test directories (e.g. two\n"
		"llvm-test-suite build trees) in rounds, sample again only the tests that\n"
		"are still undecided, and print timeit-compare's verdict over every round.\n"
		"With --cmd, the same for two command lines, each run under timeit; with\n"
		"--compile, for the compiles of two build trees (compile_commands.json).\n"
		"\n"
		"options:\n"
		"  -o, --output DIR           keep every round's lit -o JSON in DIR (default\n"
		"                             timeit-ab.out; it must not exist or be empty)\n"
		"      --lit PATH             the lit program (default: lit, llvm-lit or\n"
		"                             Debian's lit.py)\n"
		"      --compare PATH         the timeit-compare program (default: the one of\n"
		"                             this build tree or installation, or in PATH)\n"
		"  -C, --compare-option OPT   pass OPT to every timeit-compare call\n"
		"                             (repeatable), e.g. -C --min-change=2; the looks\n"
		"                             take --alpha, --min-change, --metric, --paired,\n"
		"                             --unpaired, --rank, --fdr, --holm, --no-adjust,\n"
		"                             --drop-flagged and --filter-short from them\n"
		"  -n, --samples N|auto       N rounds, or auto (the default): until every\n"
		"                             test is decided\n"
		"      --min-samples N|auto   rounds before the first look (default auto: as\n"
		"                             early as a decision is possible, round 3\n"
		"                             with the default tests)\n"
		"      --max-samples N|auto   rounds at most (default auto: 30, or with a\n"
		"                             budget what round 1 shows it can hold)\n"
		"      --look-every N         rounds between looks (default 7)\n"
		"      --budget SECONDS       bound the rounds after the first to SECONDS from\n"
		"                             the start: no round starts that would end later\n"
		"                             (the last before a look: for the tests nearest a\n"
		"                             verdict that it holds), and the runs going then\n"
		"                             are killed (0: none)\n"
		"      --order ORDER          alternate (A B, B A, ...; the default) or random\n"
		"      --seed N               the seed of --order random (default 1)\n"
		"      --schedule SCHEDULE    sequential (A then B), duet (A and B of a test\n"
		"                             started together, each on its own CPUs,\n"
		"                             swapped every round) or auto (the default: a\n"
		"                             duet where two CPUs can be pinned)\n"
		"      --cpu LIST             duet: the CPUs (split one a side), or, given\n"
		"                             twice or more, the sets of CPUs, two a duet\n"
		"                             (default: every CPU %s may run on)\n"
		"      --cmd COMMAND          one of two command lines to compare (give it\n"
		"                             twice, A then B): each run is timeit --summary\n"
		"                             FILE sh -c COMMAND, its output in DIR/SIDE/logs\n"
		"      --name NAME            --cmd: a name for each command (give it twice)\n"
		"  -N, --no-shell             --cmd: split each command into words as sh would\n"
		"                             (quotes honoured, nothing expanded) and run it\n"
		"                             without sh\n"
		"      --no-identity          --cmd, --compile: sample even when both sides\n"
		"                             run byte-identical files with the same arguments\n"
		"                             (an A/A check of the machine's noise)\n"
		"      --compile              BUILD_A and BUILD_B are build trees with a\n"
		"                             compile_commands.json: each unit's compile run\n"
		"                             again under timeit from its own directory, its\n"
		"                             outputs to DIR/SIDE/scratch; a program's\n"
		"                             compile_time (its units' sum) is compared\n"
		"      --per-unit             --compile: compare each unit, not each program\n"
		"  -j, --jobs N               --compile, sequential: a round in blocks of N\n"
		"                             units, the block's compiles of one side at\n"
		"                             once, then the other side's (default 1)\n"
		"      --count valgrind       --compile: from round 2 on, count each unit's\n"
		"                             instructions under valgrind too (timeit\n"
		"                             --count-instructions=valgrind; the metric\n"
		"                             compile_valgrind-instructions)\n"
		"      --count-under SECONDS  --count: only the units whose round-1 compiles\n"
		"                             took under SECONDS (real) on both sides\n"
		"                             (default 1)\n"
		"      --suite RUNFILE        make ab's runner: each run is sh RUNFILE SIDE\n"
		"                             BENCHMARK ROUND, results in DIR/SIDE/results\n"
		"      --replace              -o names an earlier run's directory: remove\n"
		"                             what it holds first (not with --suite)\n"
		"      --resume               go on with the run in -o that was cut short,\n"
		"                             from the round after its last complete one;\n"
		"                             the same sides and options, or status 2 (the\n"
		"                             budget counts from now; a finished run's\n"
		"                             verdict is shown again; not with --suite)\n"
		"      --no-lit-server        lit, duet: a lit process a run, not one lit a\n"
		"                             side that stays up and runs each test asked\n"
		"      --check                check the options (and a duet's CPUs), run\n"
		"                             nothing, and exit\n"
		"  -q, --quiet                no progress on stderr\n"
		"  -h, --help                 show this help and exit\n"
		"      --version              show the version and exit\n"
		"\n"
		"lit runs as LIT -j1 LIT_ARGUMENTS -o FILE [--filter REGEX] BUILD: one test at\n"
		"a time unless LIT_ARGUMENTS say otherwise; in a duet once per test and side.\n"
		"\n"
		"Exit status: timeit-compare's on the final table (0 no significant regression,\n"
		"1 a significant regression); 2 on a usage error, when lit or timeit-compare\n"
		"fails, when every test of a round failed on a side, or when a file of the run\n"
		"could not be written (after the verdict); 130 when interrupted.\n"
		"See timeit-ab(1).\n",
		prog, prog, prog, prog, prog);
	if (TI_BUG_URL[0])
		fprintf(f, "\nReport bugs to: %s\n", TI_BUG_URL);
}

__attribute__((format(printf, 1, 2), noreturn))
void die(const char *f, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, f);
	vfprintf(stderr, f, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

/* A positive integer up to MAX. */
static unsigned upto(const char *opt, const char *s, unsigned max)
{
	uint64_t v;
	int rc = ti_parse_u64(s, &v);

	if (rc == -EINVAL || (rc == 0 && v == 0))
		die("%s: expected a positive integer, not '%s'", opt, s);
	if (rc < 0 || v > max)
		die("%s: '%s' is out of range (1 to %u)", opt, s, max);
	return (unsigned)v;
}

static unsigned posint(const char *opt, const char *s)
{
	return upto(opt, s, TI_DRIVE_ROUNDS_MAX);
}

static double number(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || s[0] == ' ' || isnan(v))
		die("%s: expected a number, not '%s'", opt, s);
	if (errno == ERANGE || !(v >= lo && v <= hi))
		die("%s: '%s' is out of range (%g to %g)", opt, s, lo, hi);
	return v;
}

/* The -C options that the looks take too (timeit-compare(1) says what
 * they mean; the final table is timeit-compare's own). */
static void look_option(struct ti_ab_config *ab, char **opts, size_t n, size_t *i)
{
	const char *o = opts[*i], *eq = strchr(o, '=');
	char name[64];
	const char *val = NULL;

	snprintf(name, sizeof name, "%.*s", eq && o[1] == '-' ? (int)(eq - o) : (int)strlen(o), o);
	if (eq && o[1] == '-')
		val = eq + 1;
#define IS(s) (strcmp(name, s) == 0)
	bool takes = IS("--alpha") || IS("--min-change") || IS("-m") || IS("--metric") ||
		     IS("--filter-short");
	if (takes && !val) {
		if (*i + 1 >= n)
			return;
		val = opts[++*i];
	}
	if (IS("--alpha"))
		ab->alpha = number("-C --alpha", val, 1e-12, 0.25);
	else if (IS("--min-change"))
		ab->min_change = number("-C --min-change", val, 0, 1000);
	else if (IS("--filter-short"))
		ab->filter_short = number("-C --filter-short", val, 0, 1e12);
	else if (IS("-m") || IS("--metric"))
		ab->metric = val;
	else if (IS("--paired"))
		ab->pairing = TI_AB_PAIR_ALWAYS;
	else if (IS("--unpaired"))
		ab->pairing = TI_AB_PAIR_NEVER;
	else if (IS("--fdr"))
		ab->adjust = TI_STATS_ADJUST_BH;
	else if (IS("--holm"))
		ab->adjust = TI_STATS_ADJUST_HOLM;
	else if (IS("--no-adjust"))
		ab->adjust = TI_STATS_ADJUST_NONE;
	else if (IS("--drop-flagged"))
		ab->drop_flagged = true;
	else if (IS("--rank")) {
		ab->paired_test = TI_AB_SIGNED_RANK;
		ab->unpaired_test = TI_AB_MANN_WHITNEY;
	}
#undef IS
}

bool is_exec(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

/* NAME as the shell would find it, a path or in PATH, into BUF (LEN). */
bool find_exec(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");

	if (strchr(name, '/')) {
		snprintf(buf, len, "%s", name);
		return is_exec(name);
	}
	while (path && *path) {
		const char *c = strchr(path, ':');
		size_t n = c ? (size_t)(c - path) : strlen(path);
		snprintf(buf, len, "%.*s/%s", (int)n, n ? path : ".", name);
		if (is_exec(buf))
			return true;
		path = c ? c + 1 : NULL;
	}
	return false;
}

bool findable(const char *name)
{
	char buf[PATH_MAX];
	return find_exec(name, buf, sizeof buf);
}

/* This program's directory, or "". */
void self_dir(const char *argv0, char *out, size_t len)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);

	if (n > 0)
		buf[n] = '\0';
	else if (strchr(argv0, '/'))
		snprintf(buf, sizeof buf, "%s", argv0);
	else
		buf[0] = '\0';
	char *slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	else
		buf[0] = '\0';
	snprintf(out, len, "%s", buf);
}

/* The program NAME installed next to this one, or in its build tree's
 * directory SUBDIR, else NAME (from PATH); BUF holds it. */
const char *find_sibling(const char *argv0, const char *name, const char *subdir, char *buf,
			 size_t len)
{
	char dir[PATH_MAX];

	self_dir(argv0, dir, sizeof dir);
	if (dir[0]) {
		snprintf(buf, len, "%s/%s", dir, name);
		if (is_exec(buf))
			return buf;
		snprintf(buf, len, "%s/../%s/%s", dir, subdir, name);
		if (is_exec(buf))
			return buf;
	}
	return name;
}

/* Whether directory D holds nothing (but the run's lock file). */
static bool dir_empty(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	bool empty = true;

	if (!dp)
		return false;
	while (empty && (e = readdir(dp)))
		empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
			strcmp(e->d_name, TI_DRIVE_LOCK) == 0;
	closedir(dp);
	return empty;
}

/* Lock the output directory OUT for the run (TRY: only test that no
 * other run holds it): two runs into one directory would mix their
 * rounds. */
void lock_out(const char *out, bool try)
{
	char err[4200];

	if (ti_drive_lock(out, try, err, sizeof err) < 0)
		die("-o %s", err);
}

static void on_progress(void *arg, const char *line)
{
	struct progress *p = arg;

	if (p->quiet)
		return;
	if (p->suite && !p->tty) {
		printf("  RUN      %s\n", line);
		fflush(stdout);
	} else if (p->tty) {
		fprintf(stderr, "\r\033[K%s%s", p->suite ? "  " : "timeit-ab: ", line);
	} else {
		fprintf(stderr, "%s: %s\n", prog, line);
	}
	p->shown = true;
}

/* A line that stays: what the budget can decide (lib/drive's plan). */
static void on_note(void *arg, const char *line)
{
	struct progress *p = arg;

	if (!p->quiet)
		fprintf(stderr, "%s%s: %s\n", p->tty ? "\r\033[K" : "", prog, line);
}

static void end_line(struct progress *p)
{
	if (p->tty && p->shown && !p->quiet)
		fprintf(stderr, "\r\033[K");
}

void push(char ***v, size_t *n, char *s)
{
	char **p = realloc(*v, (*n + 2) * sizeof *p);
	if (!p || !s)
		die("%s", strerror(ENOMEM));
	*v = p;
	p[(*n)++] = s;
	p[*n] = NULL;
}

/* What main allocates, freed at exit (die exits too): timeit-ab.h. */
struct ab_own own;

static void free_words(char **v)
{
	for (size_t k = 0; v && v[k]; k++)
		free(v[k]);
	free(v);
}

static int remove_any(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p) < 0 ? errno : 0;
}

/* The children's TMPDIR: a directory of this run's own in the user's
 * (TMPDIR, else /tmp), removed with what is in it when timeit-ab ends.
 * lit makes a lit-tmp-* directory there for each run and removes it
 * only when it ends by itself: each run killed at the budget or by a
 * stop would leave one behind in the user's.  None made (the user's
 * kept) when it cannot be. */
static void own_tmp(void)
{
	const char *dir = getenv("TMPDIR");
	size_t len;

	if (!dir || !*dir)
		dir = "/tmp";
	len = strlen(dir) + sizeof "/timeit-ab.XXXXXX";
	if (!(own.tmp = malloc(len)))
		die("%s", strerror(ENOMEM));
	snprintf(own.tmp, len, "%s/timeit-ab.XXXXXX", dir);
	if (!mkdtemp(own.tmp)) {
		free(own.tmp);
		own.tmp = NULL;
		return;
	}
	/* Absolute: a child that changes directory (a compile's --chdir)
	 * finds it all the same. */
	char *abs = realpath(own.tmp, NULL);
	if (abs && setenv("TMPDIR", abs, 1) == 0) {
		free(own.tmp);
		own.tmp = abs;
		return;
	}
	free(abs);
	rmdir(own.tmp);
	free(own.tmp);
	own.tmp = NULL;
}

static void own_free(void)
{
	if (own.tmp)
		nftw(own.tmp, remove_any, 16, FTW_DEPTH | FTW_PHYS);
	free(own.tmp);
	for (size_t k = 0; k < own.ncpus; k++)
		ti_cpuset_free(&own.cpus[k]);
	free(own.cpus);
	free_words(own.names);
	free_words(own.copts);
	free_words(own.cargv);
	ti_drive_paths_free(own.pa, own.na);
	ti_drive_paths_free(own.pb, own.nb);
	free(own.rout);
	ti_drive_free(&own.d);
	for (int k = 0; k < 2; k++) {
		free(own.cmd_text[k]);
		free(own.cmd_argv[k]);
		free(own.cmd_words[k]);
		free(own.cmd_file[k]);
	}
	free(own.label);
	free(own.desc);
}

/* A after the two directories: in compile mode (--compile given, or A
 * itself) nothing goes there, otherwise lit's arguments, after "--". */
__attribute__((noreturn))
static void misplaced(const struct cli *cl, const char *a)
{
	if (cl->compile || strcmp(a, "--compile") == 0)
		die("'%s': with --compile, options go before --compile BUILD_A BUILD_B, and "
		    "nothing after them", a);
	die("'%s': lit arguments come after '--'", a);
}

/* Parse the command line into CL: -1 to go on, or the exit status of
 * --help or --version. */
static int parse(int argc, char **argv, struct cli *cl)
{
	int i;

	for (i = 1; i < argc; i++) {
		char *a = argv[i], name[64];
		const char *val = NULL, *eq;

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1]) {
			if (cl->suite)
				push(&own.names, &own.nnames, strdup(a));
			else if (cl->ncmd)
				die("'%s': with --cmd, no test directories", a);
			else if (cl->npos < 2)
				cl->pos[cl->npos++] = a;
			else
				misplaced(cl, a);
			continue;
		}
		snprintf(name, sizeof name, "%s", a);
		if (a[1] == '-' && (eq = strchr(a, '='))) {
			name[eq - a < (long)sizeof name ? eq - a : (long)sizeof name - 1] = '\0';
			val = eq + 1;
		}
#define IS(s) (strcmp(name, s) == 0)
#define VALUE() (val ? val : i + 1 < argc ? argv[++i] : (die("%s: needs an argument", name), ""))
		if (val && (IS("-h") || IS("--help") || IS("--version") || IS("-q") || IS("--quiet") ||
			    IS("--check") || IS("-N") || IS("--no-shell") || IS("--no-identity") ||
			    IS("--no-lit-server") || IS("--replace") || IS("--resume") || IS("--compile") || IS("--per-unit")))
			die("%s: takes no argument", name);
		if (cl->npos > 0 && !cl->suite)
			misplaced(cl, a);
		if (IS("-h") || IS("--help")) {
			usage(stdout);
			if (fflush(stdout) != 0)
				return EXIT_ERROR;
			return 0;
		} else if (IS("--version")) {
			printf("%s %s\n", prog, PACKAGE_VERSION);
			return fflush(stdout) != 0 ? EXIT_ERROR : 0;
		} else if (IS("-o") || IS("--output")) {
			cl->out = VALUE();
		} else if (IS("--lit")) {
			cl->lit = VALUE();
		} else if (IS("--compare")) {
			cl->compare = VALUE();
		} else if (IS("-C") || IS("--compare-option")) {
			push(&own.copts, &own.ncopts, strdup(VALUE()));
		} else if (IS("-n") || IS("--samples")) {
			const char *s = VALUE();
			if (strcmp(s, "auto") == 0) {
				cl->c.fixed = false;
			} else {
				cl->c.fixed = true;
				cl->c.samples = posint(name, s);
			}
		} else if (IS("--min-samples")) {
			const char *s = VALUE();
			cl->c.min = strcmp(s, "auto") == 0 ? 0 : posint(name, s);
		} else if (IS("--max-samples")) {
			const char *s = VALUE();
			cl->c.max_auto = strcmp(s, "auto") == 0;
			cl->c.max = cl->c.max_auto ? 30 : posint(name, s);
		} else if (IS("--look-every")) {
			cl->c.step = posint(name, VALUE());
		} else if (IS("--budget")) {
			const char *s = VALUE();
			if (s[0] == '-')
				die("--budget: expected seconds, not '%s'", s);
			cl->c.budget = number(name, s, 0, TI_DRIVE_BUDGET_MAX);
		} else if (IS("--order")) {
			const char *s = VALUE();
			if (strcmp(s, "alternate") == 0)
				cl->c.order = TI_DRIVE_ALTERNATE;
			else if (strcmp(s, "random") == 0)
				cl->c.order = TI_DRIVE_RANDOM;
			else
				die("--order: expected alternate or random, not '%s'", s);
		} else if (IS("--seed")) {
			const char *s = VALUE();
			int rc = ti_parse_u64(s, &cl->c.seed);
			if (rc == -EINVAL)
				die("--seed: expected a non-negative integer, not '%s'", s);
			if (rc < 0)
				die("--seed: '%s' is out of range (0 to %llu)", s,
				    (unsigned long long)UINT64_MAX);
		} else if (IS("--schedule")) {
			const char *s = VALUE();
			cl->auto_schedule = strcmp(s, "auto") == 0;
			if (strcmp(s, "sequential") == 0)
				cl->c.schedule = TI_DRIVE_SEQUENTIAL;
			else if (strcmp(s, "duet") == 0 || cl->auto_schedule)
				cl->c.schedule = TI_DRIVE_DUET;
			else
				die("--schedule: expected auto, duet or sequential, not '%s'", s);
		} else if (IS("--cpu")) {
			const char *s = VALUE();
			struct ti_cpuset *p = realloc(own.cpus, (own.ncpus + 1) * sizeof *p);
			if (!p)
				die("%s", strerror(ENOMEM));
			own.cpus = p;
			memset(&own.cpus[own.ncpus], 0, sizeof *own.cpus);
			if (ti_cpuset_parse(s, &own.cpus[own.ncpus]) < 0)
				die("--cpu: '%s' is not a CPU list (e.g. 0-3,6)", s);
			own.ncpus++;
		} else if (IS("--suite")) {
			cl->suite = VALUE();
		} else if (IS("--cmd")) {
			if (cl->ncmd == 2)
				die("--cmd: given a third time (once for A, once for B)");
			if (!*(cl->cmd[cl->ncmd++] = VALUE()))
				die("--cmd: an empty command");
		} else if (IS("--name")) {
			if (cl->nname == 2)
				die("--name: given a third time (once for A, once for B)");
			cl->name[cl->nname++] = VALUE();
		} else if (IS("-N") || IS("--no-shell")) {
			cl->no_shell = true;
		} else if (IS("--no-identity")) {
			cl->no_identity = true;
		} else if (IS("--no-lit-server")) {
			cl->no_lit_server = true;
		} else if (IS("--replace")) {
			cl->replace = true;
		} else if (IS("--resume")) {
			cl->resume = true;
		} else if (IS("--compile")) {
			cl->compile = true;
		} else if (IS("--per-unit")) {
			cl->per_unit = true;
		} else if (IS("-j") || IS("--jobs")) {
			cl->c.jobs = upto(name, VALUE(), TI_DRIVE_JOBS_MAX);
		} else if (IS("--count")) {
			const char *s = VALUE();
			if (strcmp(s, "valgrind") != 0)
				die("--count: expected valgrind, not '%s'", s);
			cl->count = true;
		} else if (IS("--count-under")) {
			cl->count_under = number(name, VALUE(), 0.001, 86400);
		} else if (IS("-q") || IS("--quiet")) {
			cl->pr.quiet = true;
		} else if (IS("--check")) {
			cl->check = true;
		} else {
			static const char *const own_options[] = {
				"--budget", "--check", "--cmd", "--compare", "--compare-option",
				"--compile", "--count", "--count-under", "--cpu", "--help", "--jobs", "--per-unit", "--lit", "--look-every", "--max-samples", "--min-samples",
				"--name", "--no-identity", "--no-lit-server", "--no-shell", "--order", "--output",
				"--quiet", "--replace", "--resume", "--samples", "--schedule", "--seed", "--suite",
				"--version" };
			const char *near = ti_suggest(name, own_options,
						      sizeof own_options / sizeof own_options[0]);
			if (near)
				die("%s: unknown option (did you mean %s? see %s --help)", name, near, prog);
			die("%s: unknown option (see %s --help)", name, prog);
		}
#undef VALUE
	}
	/* The lit arguments: after "--". */
	cl->lit_args = argv + i;
	cl->nlit_args = (size_t)(argc - i);
	if (cl->ncmd && cl->suite)
		die("--cmd and --suite: one or the other");
	if (cl->replace && cl->suite)
		die("--replace: not with --suite (make ab clears its O itself)");
	if (cl->resume && cl->suite)
		die("--resume: not with --suite (make ab clears its O itself)");
	if (cl->resume && cl->replace)
		die("--resume and --replace: one or the other (go on with the run in -o, or "
		    "remove it)");
	if (cl->compile && (cl->suite || cl->ncmd))
		die("--compile: not with %s", cl->suite ? "--suite" : "--cmd");
	if (cl->per_unit && !cl->compile)
		die("--per-unit: only with --compile");
	if (cl->c.jobs > 1 && !cl->compile)
		die("--jobs: only with --compile (runs of a benchmark side by side would slow "
		    "each other)");
	if (cl->count && !cl->compile)
		die("--count: only with --compile");
	if (cl->count_under > 0 && !cl->count)
		die("--count-under: only with --count valgrind");
	if (cl->compile && cl->nlit_args)
		die("'%s': with --compile, no lit arguments", cl->lit_args[0]);
	if (cl->suite) {
		for (size_t k = 0; k < cl->nlit_args; k++)
			push(&own.names, &own.nnames, strdup(cl->lit_args[k]));
		cl->nlit_args = 0;
		if (!cl->out)
			die("--suite: give the output directory (-o DIR, make's O)");
		if (own.nnames == 0)
			die("--suite: name at least one benchmark");
	} else if (cl->ncmd) {
		if (cl->ncmd < 2)
			die("--cmd: give two commands, --cmd A --cmd B");
		if (cl->nlit_args)
			die("'%s': with --cmd, no lit arguments (quote the command: --cmd '...')",
			    cl->lit_args[0]);
		if (cl->nname == 1)
			die("--name: give one for each command, or none");
	} else if (cl->npos < 2) {
		die("expected two lit test directories, BUILD_A BUILD_B, or two commands, --cmd A "
		    "--cmd B (see %s --help)", prog);
	}
	if (!cl->ncmd && (cl->nname || cl->no_shell))
		die("%s: only with --cmd", cl->nname ? "--name" : "--no-shell");
	if (!cl->ncmd && !cl->compile && cl->no_identity)
		die("--no-identity: only with --cmd or --compile");
	if ((cl->ncmd || cl->compile || cl->suite) && cl->no_lit_server)
		die("--no-lit-server: only with two lit test directories");

	if (!cl->c.fixed && cl->c.min && cl->c.min > cl->c.max)
		die("--min-samples %u is above --max-samples %u", cl->c.min, cl->c.max);
	const char *metric = cl->c.ab.metric;
	for (size_t k = 0; k < own.ncopts; k++)
		look_option(&cl->c.ab, own.copts, own.ncopts, &k);
	own.metric_given = cl->c.ab.metric != metric;
	return -1;
}

/* --schedule auto: a duet where two CPUs can be pinned (bench/ab-live:
 * duets decide more a wall-second), else sequential, and why. */
static void choose_schedule(struct cli *cl)
{
	struct ti_cpuset all = { 0 };
	size_t n = own.ncpus;

	if (!cl->auto_schedule)
		return;
	/* --jobs: blocks of one side's units, which a duet's pairs are not. */
	if (cl->c.jobs > 1)
		cl->why_sequential = "--jobs";
	else if (!ti_os_has(TI_OS_AFFINITY))
		cl->why_sequential = "this system cannot pin a process to a CPU";
	else if (n == 0 && ti_os_get_affinity(&all) < 0)
		cl->why_sequential = "which CPUs it may run on is not known";
	else if (n <= 1 && ti_cpuset_count(n ? &own.cpus[0] : &all) < 2)
		cl->why_sequential = "one CPU";
	ti_cpuset_free(&all);
	if (cl->why_sequential)
		cl->c.schedule = TI_DRIVE_SEQUENTIAL;
}

/* The --cpu sets against the CPUs this process may run on (a CPU
 * offline or outside its affinity would kill the child that pins
 * itself), and A's against B's (the sides of a duet share no CPU); with
 * the allowed set checked first, each set is as long as the machine's
 * CPUs, never a list's numbers. */
static void check_cpus(void)
{
	struct ti_cpuset all = { 0 };

	if (own.ncpus && ti_os_has(TI_OS_AFFINITY) && ti_os_get_affinity(&all) == 0) {
		char a[256];
		ti_cpuset_format(&all, a, sizeof a);
		for (size_t k = 0; k < own.ncpus; k++)
			for (long c = -1; (c = ti_cpuset_next(&own.cpus[k], c)) >= 0;)
				if (!ti_cpuset_has(&all, (unsigned long)c))
					die("--cpu: CPU %ld is not one %s may run on (%s)", c, prog, a);
	}
	ti_cpuset_free(&all);
	/* The sets pair up, A's and B's of one duet: those two share none. */
	for (size_t i = 0; i + 1 < own.ncpus; i += 2)
		for (long c = -1; (c = ti_cpuset_next(&own.cpus[i], c)) >= 0;)
			if (ti_cpuset_has(&own.cpus[i + 1], (unsigned long)c))
				die("--cpu: CPU %ld is in both sets of a duet (%zu and %zu): each "
				    "side needs CPUs of its own", c, i + 1, i + 2);
}

/* The CPU sets of a duet: those of the --cpu options, or one a CPU. */
static void duet_cpus(struct cli *cl)
{
	check_cpus();
	choose_schedule(cl);
	if (cl->c.schedule == TI_DRIVE_DUET && !ti_os_has(TI_OS_AFFINITY))
		die("--schedule duet: pinning a process to a CPU is not supported on this system: "
		    "use --schedule sequential");
	if (cl->c.schedule == TI_DRIVE_DUET) {
		struct ti_cpuset all = { 0 };
		if (own.ncpus == 0) {
			if (ti_os_get_affinity(&all) < 0)
				die("--schedule duet: cannot tell which CPUs %s may run on: give --cpu",
				    prog);
		} else if (own.ncpus == 1) {
			ti_cpuset_copy(&all, &own.cpus[0]);
		}
		if (own.ncpus <= 1) {
			/* One set a CPU; an odd CPU out sits idle. */
			size_t n = ti_cpuset_count(&all), k = 0;
			for (size_t j = 0; j < own.ncpus; j++)
				ti_cpuset_free(&own.cpus[j]);
			free(own.cpus);
			own.ncpus = 0;
			if (n > 2)
				n -= n % 2;
			if (!(own.cpus = calloc(n ? n : 1, sizeof *own.cpus)))
				die("%s", strerror(ENOMEM));
			own.ncpus = n;
			for (long cpu = -1; k < n && (cpu = ti_cpuset_next(&all, cpu)) >= 0;)
				if (ti_cpuset_add(&own.cpus[k++], (unsigned long)cpu) < 0)
					die("%s", strerror(ENOMEM));
			ti_cpuset_free(&all);
		}
	}
}

/* The -C options as timeit-compare takes them (its --check), before any
 * round: a typo there would fail only the verdict, after every round.
 * timeit-compare says what is wrong on stderr. */
static void check_copts(const char *compare)
{
	char **argv = NULL;
	size_t n = 0;
	int st = -1;
	pid_t pid;

	push(&argv, &n, strdup(compare));
	push(&argv, &n, strdup("--check"));
	for (size_t k = 0; k < own.ncopts; k++)
		push(&argv, &n, strdup(own.copts[k]));
	if ((pid = fork()) == 0) {
		int nul = open("/dev/null", O_RDWR);
		if (nul >= 0) {
			dup2(nul, 0);
			dup2(nul, 1);
		}
		execvp(argv[0], argv);
		_exit(TI_STATUS_NOT_FOUND);
	}
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	free_words(argv);
	if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		die("-C: %s refused the options it would be given (above)", compare);
}

/* What an earlier run left in OUT, for the message that refuses it: its
 * rounds (rounds.log's lines), or the number of entries and one name. */
static void describe_out(const char *out, char *what, size_t len)
{
	char p[PATH_MAX];
	FILE *f;
	int c, lines = 0;

	snprintf(p, sizeof p, "%s/rounds.log", out);
	if ((f = fopen(p, "r"))) {
		while ((c = getc(f)) != EOF)
			lines += c == '\n';
		fclose(f);
		snprintf(what, len, "holds an earlier run of timeit-ab (%d round%s in rounds.log)", lines,
			 lines == 1 ? "" : "s");
		return;
	}
	DIR *dp = opendir(out);
	struct dirent *e;
	size_t n = 0;
	char first[256] = "";
	while (dp && (e = readdir(dp)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, TI_DRIVE_LOCK) &&
		    n++ == 0)
			snprintf(first, sizeof first, "%s", e->d_name);
	if (dp)
		closedir(dp);
	if (dp)
		snprintf(what, len, "is not empty (%zu entr%s, e.g. '%s'), and no run of timeit-ab",
			 n, n == 1 ? "y" : "ies", first);
	else
		snprintf(what, len, "exists and is not a directory");
}

/* Whether remove_entry keeps the run's description (a resumed run that
 * starts again at round 1). */
static bool keep_desc;

static int remove_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level == 0 || strcmp(p + ftw->base, TI_DRIVE_LOCK) == 0 ||
	    (keep_desc && ftw->level == 1 && strcmp(p + ftw->base, TI_DRIVE_RUN_DESC) == 0))
		return 0;
	return remove(p) < 0 ? errno : 0;
}

/* --replace: empty OUT, locked by this run, when an earlier run of
 * timeit-ab left it (rounds.log); anything else is the user's to remove. */
static void replace_out(const char *out)
{
	char p[PATH_MAX], what[512];
	int rc;

	snprintf(p, sizeof p, "%s/rounds.log", out);
	if (access(p, F_OK) < 0) {
		describe_out(out, what, sizeof what);
		die("--replace: %s %s: remove it yourself, or give another --output", out, what);
	}
	if ((rc = nftw(out, remove_entry, 16, FTW_DEPTH | FTW_PHYS)) != 0)
		die("--replace: %s: %s", out, strerror(rc > 0 ? rc : errno));
}

/* A line of the run's description: KEY, a tab, VAL with a newline and a
 * backslash escaped (\n, \\), so that it keeps to its line. */
static void desc_line(struct ti_buf *b, const char *key, const char *val)
{
	ti_buf_printf(b, "%s\t", key);
	for (const char *p = val; *p; p++) {
		if (*p == '\n' || *p == '\\')
			ti_buf_printf(b, "\\%c", *p == '\n' ? 'n' : '\\');
		else
			ti_buf_append(b, p, 1);
	}
	ti_buf_printf(b, "\n");
}

/* What makes the run the run it is, for --resume to compare: the mode,
 * the sides (a test directory's or build tree's real path, a command's
 * text and, when its file is checked for identity, that file's path,
 * size and time), and every option that changes the rounds or the
 * verdict.  Not the budget (a resumed run's counts from its own start),
 * --cpu, -q, --compare.  Malloc'd. */
static char *describe(const struct cli *cl)
{
	struct ti_buf b = { 0 };
	char key[64], v[PATH_MAX + 96];

	desc_line(&b, "mode", cl->ncmd ? "cmd" : cl->compile ? "compile" : "lit");
	for (int k = 0; k < 2; k++) {
		struct stat st;
		if (cl->ncmd) {
			snprintf(key, sizeof key, "command %c", "AB"[k]);
			desc_line(&b, key, cl->cmd[k]);
			if (cl->nname) {
				snprintf(key, sizeof key, "name %c", "AB"[k]);
				desc_line(&b, key, cl->name[k]);
			}
			if (cl->c.cmd_file[k] && stat(cl->c.cmd_file[k], &st) == 0) {
				snprintf(key, sizeof key, "file of command %c", "AB"[k]);
				snprintf(v, sizeof v, "%s, %lld bytes, modified %lld", cl->c.cmd_file[k],
					 (long long)st.st_size, (long long)st.st_mtime);
				desc_line(&b, key, v);
			}
			continue;
		}
		char *rp = realpath(cl->pos[k], NULL);
		snprintf(key, sizeof key, "side %c", "AB"[k]);
		desc_line(&b, key, rp ? rp : cl->pos[k]);
		free(rp);
		snprintf(v, sizeof v, "%s/compile_commands.json", cl->pos[k]);
		if (cl->compile && stat(v, &st) == 0) {
			snprintf(key, sizeof key, "compile_commands.json of %c", "AB"[k]);
			snprintf(v, sizeof v, "%lld bytes, modified %lld", (long long)st.st_size,
				 (long long)st.st_mtime);
			desc_line(&b, key, v);
		}
	}
	if (cl->ncmd) {
		desc_line(&b, "--no-shell", cl->no_shell ? "yes" : "no");
		desc_line(&b, "--no-identity", cl->no_identity ? "yes" : "no");
	}
	if (cl->compile)
		desc_line(&b, "--per-unit", cl->per_unit ? "yes" : "no");
	if (!cl->ncmd && !cl->compile) {
		desc_line(&b, "--lit", cl->lit);
		for (size_t k = 0; k < cl->nlit_args; k++)
			desc_line(&b, "lit argument", cl->lit_args[k]);
	}
	snprintf(v, sizeof v, "%u", cl->c.samples);
	desc_line(&b, "--samples", cl->c.fixed ? v : "auto");
	snprintf(v, sizeof v, "%u", cl->c.min);
	desc_line(&b, "--min-samples", cl->c.min ? v : "auto");
	snprintf(v, sizeof v, "%u", cl->c.max);
	desc_line(&b, "--max-samples", cl->c.max_auto ? "auto" : v);
	snprintf(v, sizeof v, "%u", cl->c.step);
	desc_line(&b, "--look-every", v);
	desc_line(&b, "--order", cl->c.order == TI_DRIVE_RANDOM ? "random" : "alternate");
	snprintf(v, sizeof v, "%llu", (unsigned long long)cl->c.seed);
	desc_line(&b, "--seed", v);
	desc_line(&b, "--schedule", cl->c.schedule == TI_DRIVE_DUET ? "duet" : "sequential");
	for (size_t k = 0; k < own.ncopts; k++)
		desc_line(&b, "-C", own.copts[k]);
	if (b.failed)
		die("%s", strerror(ENOMEM));
	return b.data;
}

/* --resume of the run in OUT that DESC describes: the same run, or one
 * line naming what differs, status 2, nothing changed. */
static void resume_check(const char *out, const char *desc)
{
	char err[1200], what[512];
	int rc = ti_drive_run_desc_check(out, desc, err, sizeof err);

	if (rc == -EINVAL)
		die("--resume: %s: not resumed (the same command line, or --replace to start "
		    "again)", err);
	if (rc == -ENOENT) {
		describe_out(out, what, sizeof what);
		die("--resume: %s %s, but no %s says what run it is: nothing to resume", out, what,
		    TI_DRIVE_RUN_DESC);
	}
	if (rc < 0)
		die("--resume: %s", err);
}

/* --resume of a run whose verdict is out (status ST): that verdict again,
 * from its files, and its status; nothing runs. */
__attribute__((noreturn))
static void resume_finished(const char *out, int st)
{
	static const char *const files[] = { "verdict.txt", "rounds.txt" };

	fprintf(stderr, "%s: --resume: the run in %s is finished; its verdict (verdict.txt, "
		"rounds.txt):\n", prog, out);
	for (int k = 0; k < 2; k++) {
		char p[PATH_MAX], buf[8192];
		size_t n;
		snprintf(p, sizeof p, "%s/%s", out, files[k]);
		FILE *f = fopen(p, "r");
		while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
			fwrite(buf, 1, n, stdout);
		if (f)
			fclose(f);
	}
	char *rp = realpath(out, NULL);
	printf("results: %s\n", rp ? rp : out);
	free(rp);
	exit(fflush(stdout) != 0 ? EXIT_ERROR : st);
}

/* The output directory of a lit or --cmd run: it must not exist or be
 * empty, or with --replace hold an earlier run, or with --resume the
 * same run (when it does not exist or is empty, the run starts afresh).
 * 0 to go on, 1 when --check is done. */
int prepare_out(struct cli *cl)
{
	struct stat st;
	char what[512];
	bool resuming = false;

	if (!cl->out)
		cl->out = "timeit-ab.out";
	bool there = stat(cl->out, &st) == 0;
	char *desc = own.desc = describe(cl);
	if (there && cl->resume && S_ISDIR(st.st_mode) && !dir_empty(cl->out)) {
		resume_check(cl->out, desc);
		resuming = true;
	} else if (there && !(S_ISDIR(st.st_mode) && dir_empty(cl->out))) {
		describe_out(cl->out, what, sizeof what);
		if (!cl->replace || !S_ISDIR(st.st_mode) || strstr(what, "no run of"))
			die("%s: %s: give another --output, e.g. -o %s.2%s", cl->out, what, cl->out,
			    strstr(what, "earlier run") ? ", or --replace to remove it first" :
			    ", or remove it first");
	}
	if (cl->check) {
		if (there)
			lock_out(cl->out, true);
		return 1;
	}
	if (mkdir(cl->out, 0777) < 0 && errno != EEXIST)
		die("%s: %s", cl->out, strerror(errno));
	/* Checked again once locked: a run that started with this one may
	 * have locked it, written and ended meanwhile. */
	lock_out(cl->out, false);
	if (resuming) {
		char p[PATH_MAX];
		int rc;
		/* Checked again once locked: the run may have ended meanwhile. */
		resume_check(cl->out, desc);
		if ((rc = ti_drive_run_finished(cl->out)) >= 0)
			resume_finished(cl->out, rc);
		/* Cut short in round 1: nothing to keep but what it is. */
		snprintf(p, sizeof p, "%s/state.tsv", cl->out);
		keep_desc = true;
		if (access(p, F_OK) < 0 && (rc = nftw(cl->out, remove_entry, 16, FTW_DEPTH | FTW_PHYS)))
			die("--resume: %s: %s", cl->out, strerror(rc > 0 ? rc : errno));
		cl->c.resume = true;
		return 0;
	}
	if (cl->replace && !dir_empty(cl->out))
		replace_out(cl->out);
	if (!dir_empty(cl->out))
		die("%s: another run wrote into it as this one started: give another --output",
		    cl->out);
	int rc = ti_drive_run_desc_write(cl->out, desc);
	if (rc < 0)
		die("%s/%s: %s", cl->out, TI_DRIVE_RUN_DESC, strerror(-rc));
	return 0;
}

/* timeit-compare, found and given the -C options to check. */
void prepare_compare(struct cli *cl, const char *argv0)
{
	static char buf[PATH_MAX + 32];

	if (!cl->compare)
		cl->compare = find_sibling(argv0, "timeit-compare", "compare", buf, sizeof buf);
	if (!findable(cl->compare))
		die("--compare %s: not found (give --compare PATH to timeit-compare)", cl->compare);
	check_copts(cl->compare);
}

/* Check what the run needs and make its output directory: 0 to go on,
 * 1 when --check is done. */
static int prepare(struct cli *cl, const char *argv0)
{
	if (cl->suite)
		return prepare_suite(cl);
	if (cl->ncmd) {
		prepare_cmd(cl, argv0);
		prepare_compare(cl, argv0);
		return prepare_out(cl);
	}
	if (cl->compile)
		return prepare_compile(cl, argv0);
	return prepare_lit(cl, argv0);
}

/* Whether the -C options ask timeit-compare for an export (--format csv,
 * md, json), which then stands alone on stdout. */
static bool exporting(void)
{
	for (size_t k = 0; k < own.ncopts; k++) {
		const char *o = own.copts[k], *v = NULL;
		if (strncmp(o, "--format=", 9) == 0)
			v = o + 9;
		else if (strcmp(o, "--format") == 0 && k + 1 < own.ncopts)
			v = own.copts[k + 1];
		if (v && strcmp(v, "text") != 0)
			return true;
	}
	return false;
}

/* Run timeit-compare (ARGV), its table on stdout and into verdict.txt
 * as it comes: read through a pipe, not back from the file, so that a
 * file the disk refused still leaves the table on stdout (and a
 * verdict.txt that is /dev/full is never read).  Its exit status, or -1. */
static int compare_run(char *const *argv)
{
	FILE *vf = ti_drive_file(&own.d, "verdict.txt");
	int fd[2] = { -1, -1 }, st = -1;
	pid_t pid = -1;

	if (pipe(fd) < 0) {
		fd[0] = fd[1] = -1;
	} else if ((pid = fork()) == 0) {
		int nul = open("/dev/null", O_RDONLY);
		if (nul < 0 || dup2(nul, 0) < 0 || dup2(fd[1], 1) < 0)
			_exit(TI_STATUS_NOT_FOUND);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], argv);
		_exit(TI_STATUS_NOT_FOUND);
	}
	if (pid > 0) {
		char buf[8192];
		ssize_t k;
		close(fd[1]);
		while ((k = read(fd[0], buf, sizeof buf)) != 0) {
			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0)
				break;
			fwrite(buf, 1, (size_t)k, stdout);
			ti_drive_write(&own.d, vf, "verdict.txt", buf, (size_t)k);
		}
		close(fd[0]);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		st = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	} else if (fd[0] >= 0) {
		close(fd[0]);
		close(fd[1]);
	}
	ti_drive_close(&own.d, vf, "verdict.txt");
	return st;
}

/* The verdict of a lit or --cmd run, SCHED its schedule: timeit-compare
 * over every round, pairs in order, and the rounds table (in O/rounds.txt,
 * and on stdout unless the verdict is an export). */
static int verdict(const struct cli *cl, const char *sched)
{
	char looks[32];
	push(&own.cargv, &own.nc, strdup(cl->compare));
	if (!cl->c.fixed) {
		struct ti_ab_config fin = cl->c.ab;
		snprintf(looks, sizeof looks, "%u", own.d.looks);
		push(&own.cargv, &own.nc, strdup("--looks"));
		push(&own.cargv, &own.nc, strdup(looks));
		/* Ended between looks (the budget, a signal): the final table is
		 * the run's last analysis, at the rest of alpha, not a test the
		 * looks did not plan for. */
		ti_drive_final_look(&own.d, &fin);
		if (fin.last) {
			snprintf(looks, sizeof looks, "%u", fin.look - 1);
			push(&own.cargv, &own.nc, strdup("--spent-looks"));
			push(&own.cargv, &own.nc, strdup(looks));
		}
	}
	for (size_t k = 0; k < own.ncopts; k++)
		push(&own.cargv, &own.nc, strdup(own.copts[k]));
	if (cl->compile) {
		if (!own.metric_given) {
			push(&own.cargv, &own.nc, strdup("--metric"));
			push(&own.cargv, &own.nc, strdup("compile_time"));
		}
		compile_inputs(cl);
	} else if (cl->ncmd)
		cmd_inputs();
	else if (ti_drive_paths(&own.d, 0, &own.pa, &own.na) < 0 ||
		 ti_drive_paths(&own.d, 1, &own.pb, &own.nb) < 0)
		die("%s", strerror(ENOMEM));
	/* Every file of each side: the pairs first, alike on both sides, then
	 * a duet's tests of one side alone, which the verdict lists missing. */
	for (size_t k = 0; !cl->ncmd && !cl->compile && (k < own.na || k < own.nb); k++) {
		if (k < own.na) {
			push(&own.cargv, &own.nc, strdup("-a"));
			push(&own.cargv, &own.nc, strdup(own.pa[k]));
		}
		if (k < own.nb) {
			push(&own.cargv, &own.nc, strdup("-b"));
			push(&own.cargv, &own.nc, strdup(own.pb[k]));
		}
	}
	int st = cl->ncmd || cl->compile || (own.na && own.nb) ? compare_run(own.cargv) : -1;
	/* The rounds table, named as timeit-compare names the tests. */
	struct ti_buf t = { 0 };
	ti_buf_printf(&t, "rounds: how many each test got, and why its sampling stopped\n");
	ti_buf_printf(&t, "%-56s %6s  %s\n", "test", "rounds", "stopped");
	for (size_t k = 0; k < own.d.n; k++) {
		/* Padded by display width: a UTF-8 name is fewer columns than bytes. */
		ti_ab_report_pad(&t, own.d.t[k].name, 56, true);
		ti_buf_printf(&t, " %6u  %s%s%s\n", own.d.t[k].rounds,
			      ti_drive_stop_name[own.d.t[k].stop], own.d.t[k].why[0] ? ": " : "",
			      own.d.t[k].why);
	}
	ti_buf_printf(&t, "schedule: %s\n", sched);
	for (size_t k = 0; k < cl->ncmd; k++)
		ti_buf_printf(&t, "%c%s%s%s: %s%s\n", "AB"[k], cl->nname ? " (" : "",
			      cl->nname ? cl->name[k] : "", cl->nname ? ")" : "",
			      cl->no_shell ? "" : "sh -c ", cl->cmd[k]);
	if (t.failed)
		die("%s", strerror(ENOMEM));
	/* An export stands alone on stdout; the table is in rounds.txt. */
	if (!exporting())
		fwrite(t.data, 1, t.len, stdout);
	FILE *tf = ti_drive_file(&own.d, "rounds.txt");
	ti_drive_write(&own.d, tf, "rounds.txt", t.data, t.len);
	ti_drive_close(&own.d, tf, "rounds.txt");
	ti_buf_free(&t);
	if (!exporting())
		printf("results: %s\n", own.rout);
	if (st == 0 || st == 1)
		return st;
	fprintf(stderr, "%s: %s failed (status %d; see %s/verdict.txt)\n", prog, cl->compare, st,
		own.rout);
	return EXIT_ERROR;
}

/* What a run that got its rounds ends with: STATUS, unless stdout or one
 * of the run's files could not be written: then the first such failure
 * in one line, and 2. */
static int written(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int e = errno ? errno : EIO;
		if (!own.d.write_rc)
			fprintf(stderr, "%s: stdout: %s\n", prog, strerror(e));
		status = EXIT_ERROR;
	}
	if (own.d.write_rc) {
		fprintf(stderr, "%s: %s\n", prog, own.d.err);
		status = status == EXIT_INTERRUPTED ? status : EXIT_ERROR;
	}
	return status;
}

/* Run the rounds and report them. */
static int run(struct cli *cl)
{
	own.rout = realpath(cl->out, NULL);
	if (!own.rout)
		die("%s: %s", cl->out, strerror(errno));
	cl->c.out = own.rout;
	cl->pr.tty = isatty(STDERR_FILENO);
	cl->pr.suite = cl->suite != NULL;
	cl->c.progress = on_progress;
	cl->c.note = on_note;
	cl->c.progress_arg = &cl->pr;
	/* A long round (a compile round: a run a unit) says how far it is:
	 * on a terminal each second, in a log each minute. */
	cl->c.progress_every = cl->pr.tty ? 1 : 60;
	own_tmp();

	int rc = ti_drive_run(&own.d, &cl->c, own.names, own.nnames);
	end_line(&cl->pr);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", prog, own.d.err);
		return EXIT_ERROR;
	}
	if (own.d.stop_signal) {
		fprintf(stderr, "%s: interrupted; the %u finished round%s are in %s\n", prog, own.d.rounds,
			own.d.rounds == 1 ? "" : "s", own.rout);
		return written(EXIT_INTERRUPTED);
	}
	/* Not progress: said even with -q, since rounds.txt alone would not
	 * tell that runs were killed. */
	if (own.d.budget_cut)
		fprintf(stderr, "%s: the budget of %g s ran out in round %u: its runs were killed and "
			"its results left out; the verdict is over the %u finished round%s\n", prog,
			cl->c.budget, own.d.budget_cut, own.d.rounds, own.d.rounds == 1 ? "" : "s");
	size_t runs = 0;
	for (size_t k = 0; k < own.d.n; k++)
		runs += own.d.t[k].rounds;
	char sched[320];
	if (cl->c.schedule == TI_DRIVE_DUET) {
		char a[64], b[64];
		ti_cpuset_format(&own.cpus[0], a, sizeof a);
		ti_cpuset_format(&own.cpus[1], b, sizeof b);
		snprintf(sched, sizeof sched, "duet, %zu at once (A on CPU %s, B on %s, swapped every "
			 "round%s)", own.ncpus / 2, a, b, own.ncpus > 2 ? "; and so on" : "");

	} else {
		snprintf(sched, sizeof sched, "sequential%s%s%s", cl->why_sequential ? " (auto: " : "",
			 cl->why_sequential ? cl->why_sequential : "", cl->why_sequential ? ")" : "");
	}
	if (cl->suite) {
		/* The looks of the final table (tools/ab.sh). */
		char looks[32];
		int n = snprintf(looks, sizeof looks, "%u\n", cl->c.fixed ? 0 : own.d.looks);
		FILE *lf = ti_drive_file(&own.d, "looks");
		ti_drive_write(&own.d, lf, "looks", looks, (size_t)n);
		ti_drive_close(&own.d, lf, "looks");
		printf("  DONE     %u round%s, %zu run%s a side, %ld:%02ld, schedule %s\n", own.d.rounds,
		       own.d.rounds == 1 ? "" : "s", runs, runs == 1 ? "" : "s",
		       (long)(own.d.wall + 0.5) / 60, (long)(own.d.wall + 0.5) % 60, sched);
		return written(0);
	}
	if (!cl->pr.quiet)
		fprintf(stderr, "%s: %u round%s, %zu test run%s a side, %ld:%02ld, schedule %s\n", prog,
			own.d.rounds, own.d.rounds == 1 ? "" : "s", runs, runs == 1 ? "" : "s",
			(long)(own.d.wall + 0.5) / 60, (long)(own.d.wall + 0.5) % 60, sched);
	int st = written(verdict(cl, sched));
	/* The verdict is out: a --resume says so, and runs nothing. */
	if (st == 0 || st == 1) {
		int frc = ti_drive_run_finish(own.rout, st);
		if (frc < 0) {
			fprintf(stderr, "%s: %s/%s: %s\n", prog, own.rout, TI_DRIVE_RUN_STATUS,
				strerror(-frc));
			st = EXIT_ERROR;
		}
	}
	return st;
}

int main(int argc, char **argv)
{
	static struct cli cl;
	char err[1024];
	int rc;

	atexit(own_free);
	ti_drive_config_init(&cl.c);
	cl.auto_schedule = true;
	cl.c.schedule = TI_DRIVE_DUET;
	cl.c.max_auto = true;
	if ((rc = parse(argc, argv, &cl)) >= 0)
		return rc;
	duet_cpus(&cl);
	cl.c.cpus = own.cpus;
	cl.c.ncpus = own.ncpus;
	if (ti_drive_config_check(&cl.c, err, sizeof err) < 0)
		die("%s", err);
	if (prepare(&cl, argv[0]))
		return 0;
	return run(&cl);
}
