/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ab-lit.c: timeit-ab's preparation of a lit run (lib/drive's
 * drive-lit.c): two configured lit test directories and a lit that runs. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record.h"
#include "timeit-ab.h"

/* Run ARGV quietly; 0 when it exits 0, else -1 with what it did in WHY
 * (LEN bytes). */
static int run_quiet(char *const *argv, char *why, size_t len)
{
	pid_t pid = fork();
	int st;

	if (pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);
		if (nul < 0)
			_exit(TI_STATUS_NOT_FOUND);
		dup2(nul, 0);
		dup2(nul, 1);
		dup2(nul, 2);
		execvp(argv[0], argv);
		_exit(TI_STATUS_NOT_FOUND);
	}
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			snprintf(why, len, "wait: %s", strerror(errno));
			return -1;
		}
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st))
		snprintf(why, len, "exit status %d", WEXITSTATUS(st));
	else
		snprintf(why, len, "signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	return -1;
}

static const char *find_lit(void)
{
	static char buf[PATH_MAX];
	glob_t g;

	if (findable("lit"))
		return "lit";
	if (findable("llvm-lit"))
		return "llvm-lit";
	if (glob("/usr/lib/llvm-*/build/utils/lit/lit.py", 0, NULL, &g) == 0) {
		for (size_t i = g.gl_pathc; i-- > 0;) {
			if (is_exec(g.gl_pathv[i])) {
				snprintf(buf, sizeof buf, "%s", g.gl_pathv[i]);
				globfree(&g);
				return buf;
			}
		}
		globfree(&g);
	}
	return NULL;
}

static bool lit_dir(const char *d)
{
	static const char *const cfg[] = { "lit.site.cfg", "lit.site.cfg.py", "lit.cfg", "lit.cfg.py" };
	char p[PATH_MAX];

	for (size_t i = 0; i < 4; i++) {
		snprintf(p, sizeof p, "%s/%s", d, cfg[i]);
		if (access(p, F_OK) == 0)
			return true;
	}
	return false;
}

/* The command that runs lit-server.py for a duet (lib/drive's
 * drive-litserver.c), into CL: lit's own Python (its first line's, when
 * that names one) on the script of this build tree when this program is
 * that tree's, else on the installed one.  None when there is no script:
 * a lit process a run. */
static void lit_server(struct cli *cl, const char *argv0)
{
	static char script[PATH_MAX], line[256], path[PATH_MAX];
	static char *cmd[8];
	char dir[PATH_MAX];
	size_t n = 0;

	self_dir(argv0, dir, sizeof dir);
	if (strcmp(dir, TI_BUILDDIR "/abrun") == 0)
		snprintf(script, sizeof script, "%s/abrun/lit-server.py", TI_SRCDIR);
	else
		snprintf(script, sizeof script, "%s/lit-server.py", TI_PKGDATADIR);
	if (access(script, R_OK) != 0)
		return;
	const char *exe = strchr(cl->lit, '/') ? cl->lit
			  : find_exec(cl->lit, path, sizeof path) ? path : NULL;
	FILE *f = exe ? fopen(exe, "r") : NULL;
	if (f && fgets(line, sizeof line, f) && strncmp(line, "#!", 2) == 0 && strstr(line, "python")) {
		line[strcspn(line, "\r\n")] = '\0';
		for (char *w = strtok(line + 2, " \t"); w && n < 4; w = strtok(NULL, " \t"))
			cmd[n++] = w;
	}
	if (f)
		fclose(f);
	if (n == 0)
		cmd[n++] = "python3";
	cmd[n++] = script;
	cmd[n] = NULL;
	cl->c.lit_server = cmd;
}

/* Two lit test directories, lit, timeit-compare and the output
 * directory. */
int prepare_lit(struct cli *cl, const char *argv0)
{
	for (int k = 0; k < 2; k++) {
		struct stat st;
		if (stat(cl->pos[k], &st) < 0 || !S_ISDIR(st.st_mode))
			die("%s: not a directory", cl->pos[k]);
		if (!lit_dir(cl->pos[k]))
			die("%s: no lit.site.cfg or lit.cfg (not a configured lit test directory)",
			    cl->pos[k]);
	}
	if (!cl->lit && !(cl->lit = find_lit()))
		die("no lit found (give --lit PATH; Debian: llvm-14-tools)");
	char *vargs[] = { (char *)cl->lit, "--version", NULL };
	char why[128];
	if (run_quiet(vargs, why, sizeof why) != 0)
		die("--lit %s: cannot run it ('%s --version' failed: %s)", cl->lit, cl->lit, why);
	prepare_compare(cl, argv0);
	if (prepare_out(cl))
		return 1;
	cl->c.side_dir[0] = cl->pos[0];
	cl->c.side_dir[1] = cl->pos[1];
	cl->c.lit = cl->lit;
	cl->c.lit_args = cl->lit_args;
	cl->c.nlit_args = cl->nlit_args;
	if (cl->c.schedule == TI_DRIVE_DUET && !cl->no_lit_server)
		lit_server(cl, argv0);
	return 0;
}
