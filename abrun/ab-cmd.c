/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ab-cmd.c: timeit-ab's preparation of two command lines (--cmd, lib/drive's
 * drive-cmd.c): their words, the test's name, the files of the identity
 * check, and timeit-compare's inputs for their verdict. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeit-ab.h"
#include "util.h"

/* What sh reads more than words into: quotes, variables, redirections,
 * lists, patterns, a home directory, groups. */
#define SHELL_SPECIAL "|&;<>()$`\\\"'*?[]#~{}!\n"

/* Command SIDE's argv: sh -c COMMAND, or with --no-shell its words split
 * as sh would split them, without expansions.  Returns the number of its
 * words as the identity check compares them, in *WORDS (0: none, when the
 * shell would read more into the command than words). */
static int cmd_words(struct cli *cl, int side, char ***words)
{
	const char *c = cl->cmd[side];
	char *count = strdup(c), **v = NULL;
	int n = count ? ti_split_words(count, NULL) : -2;

	free(count);
	if (n == -2)
		die("%s", strerror(ENOMEM));
	if (cl->no_shell && n < 0)
		die("--cmd '%s': a quote is not closed", c);
	if (cl->no_shell && n == 0)
		die("--cmd '%s': no command in it", c);
	if (!cl->no_shell && c[strcspn(c, SHELL_SPECIAL)])
		n = 0;
	if (n > 0) {
		/* Counted on one copy, split on another: splitting moves the text. */
		if (!(own.cmd_text[side] = strdup(c)) || !(v = calloc((size_t)n + 1, sizeof *v)))
			die("%s", strerror(ENOMEM));
		ti_split_words(own.cmd_text[side], v);
	}
	*words = own.cmd_words[side] = v;
	if (cl->no_shell) {
		cl->c.cmd[side] = v;
		return n;
	}
	if (!(own.cmd_argv[side] = calloc(4, sizeof *own.cmd_argv[side])))
		die("%s", strerror(ENOMEM));
	own.cmd_argv[side][0] = (char *)"sh";
	own.cmd_argv[side][1] = (char *)"-c";
	own.cmd_argv[side][2] = (char *)c;
	cl->c.cmd[side] = own.cmd_argv[side];
	return n < 0 ? 0 : n;
}

/* A --name: a file name's worth of printable text. */
static void check_name(const char *n)
{
	if (!*n || strlen(n) > 100 || strchr(n, '/'))
		die("--name '%s': a name is 1 to 100 characters without '/'", n);
	for (const unsigned char *p = (const unsigned char *)n; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			die("--name: a control character in '%s'", n);
}

static const char *base(const char *p)
{
	const char *b = strrchr(p, '/');
	return b && b[1] ? b + 1 : p;
}

/* The commands' words, the test's name (the names, or the programs'),
 * and the files for the identity check: both commands run one file each
 * with the same other words. */
void prepare_cmd(struct cli *cl, const char *argv0)
{
	static char timeit_buf[PATH_MAX + 32];
	char **w[2];
	int n[2];

	for (int k = 0; k < 2; k++)
		n[k] = cmd_words(cl, k, &w[k]);
	for (size_t k = 0; k < cl->nname; k++)
		check_name(cl->name[k]);
	const char *l[2] = { "command", "command" };
	if (cl->nname) {
		l[0] = cl->name[0];
		l[1] = cl->name[1];
	} else if (n[0] > 0 && n[1] > 0) {
		l[0] = base(w[0][0]);
		l[1] = base(w[1][0]);
	}
	size_t len = strlen(l[0]) + strlen(l[1]) + 8;
	if (!(own.label = malloc(len)))
		die("%s", strerror(ENOMEM));
	if (strcmp(l[0], l[1]) == 0)
		snprintf(own.label, len, "%s", l[0]);
	else
		snprintf(own.label, len, "%s vs %s", l[0], l[1]);
	bool same = !cl->no_identity && n[0] > 0 && n[0] == n[1];
	for (int i = 1; same && i < n[0]; i++)
		same = strcmp(w[0][i], w[1][i]) == 0;
	for (int k = 0; same && k < 2; k++) {
		char path[PATH_MAX];
		same = find_exec(w[k][0], path, sizeof path) && (own.cmd_file[k] = realpath(path, NULL));
	}
	for (int k = 0; k < 2; k++)
		cl->c.cmd_file[k] = same ? own.cmd_file[k] : NULL;
	push(&own.names, &own.nnames, strdup(own.label));
	cl->c.runner = TI_DRIVE_CMD;
	cl->c.timeit = find_sibling(argv0, "timeit", "timeit", timeit_buf, sizeof timeit_buf);
	if (!findable(cl->c.timeit))
		die("timeit: not found beside %s or in PATH", prog);
}

/* timeit-compare's inputs for two commands: each side's summaries,
 * paired by round, and the files they ran for the identity check. */
void cmd_inputs(void)
{
	char *dir[2];

	for (int k = 0; k < 2; k++)
		if (!(dir[k] = malloc(strlen(own.rout) + 16)))
			die("%s", strerror(ENOMEM));
	if (own.d.c.cmd_file[0]) {
		push(&own.cargv, &own.nc, strdup("--binaries"));
		for (int k = 0; k < 2; k++) {
			sprintf(dir[k], "%s/%c/bin", own.rout, "AB"[k]);
			push(&own.cargv, &own.nc, strdup(dir[k]));
		}
	}
	for (int k = 0; k < 2; k++) {
		sprintf(dir[k], "%s/%c/results", own.rout, "AB"[k]);
		push(&own.cargv, &own.nc, dir[k]);
	}
}
