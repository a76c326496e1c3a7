/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-run.c: the runner of a configuration (ti_drive_run): one row per
 * kind.  A new runner is its own file, a kind in drive.h and a row here;
 * the rounds do not change. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drive-runner.h"

static const struct ti_drive_runner *const runners[] = {
	[TI_DRIVE_LIT] = &ti_drive_lit_runner,
	[TI_DRIVE_SUITE] = &ti_drive_suite_runner,
	[TI_DRIVE_CMD] = &ti_drive_cmd_runner,
	[TI_DRIVE_COMPILE] = &ti_drive_compile_runner,
};

int ti_drive_run(struct ti_drive *d, const struct ti_drive_config *c, char *const *names, size_t n)
{
	if ((size_t)c->runner >= sizeof runners / sizeof runners[0]) {
		memset(d, 0, sizeof *d);
		snprintf(d->err, sizeof d->err, "no runner of kind %d", (int)c->runner);
		return -EINVAL;
	}
	return ti_drive_rounds(d, c, runners[c->runner], names, n);
}
