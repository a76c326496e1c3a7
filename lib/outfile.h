/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* outfile.h: result files written atomically, checked before the run. */
#ifndef TI_OUTFILE_H
#define TI_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

struct ti_outfile {
	char *target;		/* the file finally written (symlinks resolved) */
	char *tmp;		/* temporary file beside it, or NULL when direct */
	int fd;			/* open temporary file, or -1 */
	bool direct;		/* a device, FIFO or /dev/stdout: written in place */
	int fdnum;		/* direct through this inherited fd (/dev/stdout), or -1 */
	bool inplace;		/* FD is the target itself: its directory is not
				 * writable, the file is (rewritten, not atomic) */
};

/* Prepare PATH for writing: for a regular (or not yet existing) file,
 * create a temporary file in the same directory so that a path that cannot
 * be written fails now, before anything runs; a symlink is followed to its
 * target; anything else must be writable and is written in place at commit.
 * An existing writable file in a directory where no file can be created is
 * opened now and rewritten in place at commit (what the reference's fopen
 * does; not atomic).  Returns 0 or -errno. */
int ti_outfile_prepare(struct ti_outfile *of, const char *path);

/* Write DATA and put it in place (rename over the target).  Returns 0 or
 * -errno; on failure the previous file is left untouched. */
int ti_outfile_commit(struct ti_outfile *of, const char *data, size_t len);

/* Give up: remove the temporary file. */
void ti_outfile_abort(struct ti_outfile *of);

#endif
