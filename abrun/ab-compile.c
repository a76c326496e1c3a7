/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ab-compile.c: timeit-ab's preparation of two build trees' compiles
 * (--compile, lib/drive's drive-compile.c), and timeit-compare's inputs
 * for their verdict. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "timeit-ab.h"

/* Two build trees' compiles: their databases, timeit, the metric. */
int prepare_compile(struct cli *cl, const char *argv0)
{
	static char timeit_buf[PATH_MAX + 32];

	for (int k = 0; k < 2; k++) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/compile_commands.json", cl->pos[k]);
		if (access(p, R_OK) < 0)
			die("%s: %s (configure the tree with CMAKE_EXPORT_COMPILE_COMMANDS=ON, or "
			    "record its build with bear)", p, strerror(errno));
		cl->c.side_dir[k] = cl->pos[k];
	}
	cl->c.runner = TI_DRIVE_COMPILE;
	cl->c.per_unit = cl->per_unit;
	cl->c.no_identity = cl->no_identity;
	if (cl->count && !findable("valgrind"))
		die("--count valgrind: valgrind not found in PATH");
	cl->c.count_under = !cl->count ? 0 : cl->count_under > 0 ? cl->count_under : 1;
	/* Round 1 is not counted (it decides which units are): a count is
	 * compared afterwards, by timeit-compare over the results. */
	if (strstr(cl->c.ab.metric, "valgrind"))
		die("--metric %s: round 1 is not counted; compare the count afterwards with "
		    "timeit-compare -m %s DIR/A/results DIR/B/results", cl->c.ab.metric,
		    cl->c.ab.metric);
	if (!own.metric_given)
		cl->c.ab.metric = "compile_time";
	cl->c.timeit = find_sibling(argv0, "timeit", "timeit", timeit_buf, sizeof timeit_buf);
	if (!findable(cl->c.timeit))
		die("timeit: not found beside %s or in PATH", prog);
	prepare_compare(cl, argv0);
	return prepare_out(cl);
}

/* timeit-compare's inputs for two trees' compiles: each side's round
 * directories and what identifies each test's compiles. */
void compile_inputs(const struct cli *cl)
{
	if (!cl->no_identity)
		push(&own.cargv, &own.nc, strdup("--binaries"));
	for (int k = 0; !cl->no_identity && k < 2; k++) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%c/bin", own.rout, "AB"[k]);
		push(&own.cargv, &own.nc, strdup(p));
	}
	for (int k = 0; k < 2; k++) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%c/results", own.rout, "AB"[k]);
		push(&own.cargv, &own.nc, strdup(p));
	}
}
