/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ab-suite.c: timeit-ab's preparation of make ab's rounds (--suite,
 * lib/drive's drive-suite.c): make ab's O, its run file, no earlier
 * run's summaries. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "timeit-ab.h"

/* Whether the suite's results directory of side SIDE under OUT holds a
 * round's summary (an earlier run's: make ab removes them first). */
static bool has_rounds(const char *out, const char *side)
{
	char path[4096];
	DIR *dp;
	struct dirent *e;
	bool found = false;

	snprintf(path, sizeof path, "%s/%s/results", out, side);
	if (!(dp = opendir(path)))
		return false;
	while (!found && (e = readdir(dp)))
		found = strstr(e->d_name, ".time") != NULL;
	closedir(dp);
	return found;
}

/* make ab's output directory O, locked, and its run file. */
int prepare_suite(struct cli *cl)
{
	struct stat st;
	bool dir = stat(cl->out, &st) == 0 && S_ISDIR(st.st_mode);
	/* --check before make ab's builds: O may not exist yet, but no
	 * other run may hold it. */
	if (cl->check) {
		if (dir)
			lock_out(cl->out, true);
		return 1;
	}
	if (!dir)
		die("-o %s: not a directory (make ab's O)", cl->out);
	lock_out(cl->out, false);
	if (access(cl->suite, R_OK) < 0)
		die("--suite %s: %s", cl->suite, strerror(errno));
	for (int k = 0; k < 2; k++)
		if (has_rounds(cl->out, k ? "B" : "A"))
			die("-o %s: %s/results holds an earlier run's summaries (make ab removes "
			    "them first): remove them, or give another directory", cl->out,
			    k ? "B" : "A");
	cl->c.runner = TI_DRIVE_SUITE;
	cl->c.runfile = cl->suite;
	return 0;
}
