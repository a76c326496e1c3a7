/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* timeit-ab.h: what the parts of timeit-ab share: the command line as
 * parsed (struct cli), what main owns, and the helpers with which each
 * runner's preparation (ab-lit.c, ab-cmd.c, ab-compile.c, ab-suite.c)
 * checks what its run needs, dying with a message where it cannot. */
#ifndef TI_ABRUN_TIMEIT_AB_H
#define TI_ABRUN_TIMEIT_AB_H

#include <stdbool.h>
#include <stddef.h>

#include "cpuset.h"
#include "drive.h"

extern const char prog[];

struct progress {
	bool quiet, tty, suite, shown;
};

/* What main allocates, freed at exit (die exits too). */
struct ab_own {
	char **names, **copts, **cargv, **pa, **pb;
	size_t nnames, ncopts, nc, na, nb;
	struct ti_cpuset *cpus;
	size_t ncpus;
	char *rout;
	struct ti_drive d;
	char *cmd_text[2], **cmd_words[2], **cmd_argv[2], *cmd_file[2], *label;
	char *desc;		/* the run's description (run.conf) */
	char *tmp;		/* the children's TMPDIR, removed at the end (NULL: none) */
	bool metric_given;	/* -C --metric or -m */
};
extern struct ab_own own;

/* What the command line says, for main's steps. */
struct cli {
	struct ti_drive_config c;
	const char *out, *compare, *lit, *suite;
	const char *pos[2];
	size_t npos;
	struct progress pr;
	bool check;
	bool auto_schedule;	/* --schedule auto: a duet where it can be */
	const char *why_sequential;	/* auto: why not a duet */
	char *const *lit_args;	/* after "--" */
	size_t nlit_args;
	const char *cmd[2], *name[2];	/* --cmd A --cmd B, --name for each */
	size_t ncmd, nname;
	bool no_shell, no_identity, replace, resume;
	bool no_lit_server;	/* --no-lit-server: a duet runs a lit process a test */
	bool compile, per_unit;	/* --compile BUILD_A BUILD_B, --per-unit */
	bool count;		/* --count valgrind */
	double count_under;	/* --count-under SECONDS, 0: not given */
	char *label;		/* --cmd: the test's name */
};

__attribute__((format(printf, 1, 2), noreturn))
void die(const char *f, ...);
/* Append S (NULL: out of memory) to the NULL-ended list V of N. */
void push(char ***v, size_t *n, char *s);
bool is_exec(const char *p);
/* NAME as the shell would find it, a path or in PATH, into BUF (LEN). */
bool find_exec(const char *name, char *buf, size_t len);
bool findable(const char *name);
/* The program NAME installed next to this one, or in its build tree's
 * directory SUBDIR, else NAME (from PATH); BUF holds it. */
/* This program's directory into OUT (LEN bytes), or "". */
void self_dir(const char *argv0, char *out, size_t len);
const char *find_sibling(const char *argv0, const char *name, const char *subdir, char *buf,
			 size_t len);
/* Lock the output directory OUT for the run (TRY: only test that no
 * other run holds it). */
void lock_out(const char *out, bool try);
/* timeit-compare, found and given the -C options to check. */
void prepare_compare(struct cli *cl, const char *argv0);
/* The output directory of a lit, --cmd or --compile run, made (or
 * checked for --resume): 0 to go on, 1 when --check is done. */
int prepare_out(struct cli *cl);

/* Each runner's preparation: check what its run needs, set CL->c for it
 * and make its output directory (prepare_cmd leaves that to the caller):
 * 0 to go on, 1 when --check is done.  The *_inputs add timeit-compare's
 * inputs for the verdict to own.cargv. */
int prepare_lit(struct cli *cl, const char *argv0);
int prepare_suite(struct cli *cl);
void prepare_cmd(struct cli *cl, const char *argv0);
void cmd_inputs(void);
int prepare_compile(struct cli *cl, const char *argv0);
void compile_inputs(const struct cli *cl);

#endif
