/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* outfile.h: result files written atomically, checked before the run. */
#ifndef TI_OUTFILE_H
#define TI_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct ti_outfile {
	char *target;		/* the file finally written (symlinks resolved) */
	char *tmp;		/* temporary file beside it, or NULL when direct */
	int fd;			/* open temporary file, or -1 */
	bool direct;		/* a device, FIFO or /dev/stdout: written in place */
	int fdnum;		/* direct through this inherited fd (/dev/stdout), or -1 */
	bool inplace;		/* FD is the target itself: its directory is not
				 * writable, or is sticky and the file another
				 * user's; the file is (rewritten, not atomic) */
	dev_t tmp_dev;		/* the temporary file, to know it again */
	ino_t tmp_ino;
	mode_t mode;		/* the mode the result file gets */
};

/* Prepare PATH for writing: for a regular (or not yet existing) file,
 * create a temporary file in the same directory and remove it again, so
 * that a path that cannot be written fails now, before anything runs, and
 * nothing is left there while the command runs; a symlink is followed to its
 * target; anything else must be writable and is written in place at commit.
 * An existing writable file in a directory where no file can be created,
 * or that a sticky directory would not let this user replace (another
 * user's file in /tmp), is opened now and rewritten in place at commit
 * (what the reference's fopen does; not atomic).  Returns 0 or -errno. */
int ti_outfile_prepare(struct ti_outfile *of, const char *path);

/* Write DATA and put it in place (a temporary file renamed over the
 * target).  Whatever the command did meanwhile to the directory (removed,
 * moved, recreated: make clean), the result goes where the path leads now,
 * as the reference's fopen at the end would put it; where no file can be
 * created any more, an existing target is rewritten in place.  Returns 0
 * or -errno; on failure no temporary file is left, and the previous file
 * is untouched unless it was being rewritten in place. */
int ti_outfile_commit(struct ti_outfile *of, const char *data, size_t len);

/* Whether paths A and B name one regular file, as open(2) would find
 * them: the same file is behind both, or neither exists yet and both lead
 * to the same place -- through symlinks, dangling ones included, and
 * symlinked directories.  A device or FIFO may be named twice (/dev/null,
 * /dev/stdout). */
bool ti_outfile_same(const char *a, const char *b);

/* PATH with its chain of symlinks followed (a dangling one leads to its
 * target, relative to the link's directory), malloc'd; a link on procfs
 * (/dev/stdout) stops the walk with *MAGIC set.  NULL with errno (ELOOP,
 * ENOMEM) on failure. */
char *ti_outfile_resolve(const char *path, bool *magic);

/* Give up: remove the temporary file. */
void ti_outfile_abort(struct ti_outfile *of);

#endif
