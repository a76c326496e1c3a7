/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* outfile.c: atomic result files (temporary file + rename). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os.h"
#include "outfile.h"

/* The temporary file beside the target: a fixed name, so that a target
 * name of up to NAME_MAX bytes still works. */
static const char tmpl[] = ".timeit.tmp.XXXXXX";

/* In a sticky directory (mode 1777, /tmp) only the owner of a file or of
 * the directory, or a process with CAP_FOWNER (root here), may replace the
 * file (rename(2), EPERM).  DIR is the directory's path, ST the file's. */
static bool sticky_refuses(const char *dir, const struct stat *st)
{
	struct stat d;
	uid_t me = geteuid();

	return me != 0 && st->st_uid != me && stat(dir, &d) == 0 && (d.st_mode & S_ISVTX) &&
	       d.st_uid != me;
}

/* Rewrite the existing target in place (not atomic): open it now, so that
 * a file that cannot be written fails before the run. */
static int open_inplace(struct ti_outfile *of)
{
	of->fd = open(of->target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (of->fd < 0)
		return -errno;
	of->inplace = true;
	return 0;
}

/* Create the temporary file from OF->tmp's template (its last six bytes
 * become XXXXXX again), with OF->mode, and remember which file it is. */
static int make_tmp(struct ti_outfile *of)
{
	struct stat st;
	size_t n = strlen(of->tmp);

	memcpy(of->tmp + n - 6, "XXXXXX", 6);
	of->fd = mkostemp(of->tmp, O_CLOEXEC);
	if (of->fd < 0)
		return -errno;
	/* mkstemp makes 0600. */
	if (fchmod(of->fd, of->mode) < 0 || fstat(of->fd, &st) < 0) {
		int err = errno;
		close(of->fd);
		of->fd = -1;
		unlink(of->tmp);
		return -err;
	}
	of->tmp_dev = st.st_dev;
	of->tmp_ino = st.st_ino;
	return 0;
}

/* Remove the temporary file, if it is still the one made. */
static void remove_tmp(struct ti_outfile *of)
{
	struct stat st;

	if (stat(of->tmp, &st) == 0 && st.st_dev == of->tmp_dev && st.st_ino == of->tmp_ino)
		unlink(of->tmp);
}

/* Resolve a chain of symlinks at PATH, so the file behind it is replaced
 * and the link kept.  A dangling link resolves to its (relative) target.
 * A link that names an open file (ti_os_fd_link: /proc/self/fd/N, also
 * reached through /dev/stdout) stops the walk: its text ("pipe:[123]", or
 * a file the shell opened with >>) is no path to follow, and replacing the
 * file behind it would lose what the command wrote there.  *MAGIC is set
 * and that link returned. */
char *ti_outfile_resolve(const char *path, bool *magic)
{
	char *cur = strdup(path);

	*magic = false;
	for (int hops = 0; cur && hops < 40; hops++) {
		char buf[PATH_MAX];
		struct stat st;
		ssize_t n;

		if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
			return cur;
		if (ti_os_fd_link(cur)) {
			*magic = true;
			return cur;
		}
		n = readlink(cur, buf, sizeof buf - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		buf[n] = '\0';
		char *next;
		if (buf[0] == '/') {
			next = strdup(buf);
		} else {
			/* Relative to the directory holding the link. */
			const char *slash = strrchr(cur, '/');
			size_t dlen = slash ? (size_t)(slash - cur) + 1 : 0;
			next = malloc(dlen + (size_t)n + 1);
			if (next) {
				memcpy(next, cur, dlen);
				memcpy(next + dlen, buf, (size_t)n + 1);
			}
		}
		free(cur);
		cur = next;
	}
	if (cur)
		errno = ELOOP;
	free(cur);
	return NULL;
}

int ti_outfile_prepare(struct ti_outfile *of, const char *path)
{
	struct stat st;
	bool magic;
	int err;

	memset(of, 0, sizeof *of);
	of->fd = -1;
	of->fdnum = -1;
	/* An empty path names no file (open(2) gives ENOENT); the temporary
	 * file would still be created, in ".", and only the rename at the end,
	 * after the command has run, would fail. */
	if (path[0] == '\0')
		return -ENOENT;
	of->target = ti_outfile_resolve(path, &magic);
	if (!of->target)
		return -(errno ? errno : ENOMEM);
	if (magic || (stat(of->target, &st) == 0 && !S_ISREG(st.st_mode))) {
		if (magic && stat(of->target, &st) < 0) {
			err = errno;
			goto fail;
		}
		if (S_ISDIR(st.st_mode)) {
			err = EISDIR;
			goto fail;
		}
		/* Devices, FIFOs and open files named through /proc (/dev/stdout)
		 * are written in place at commit, appending.  One of timeit's own
		 * descriptors (/proc/self/fd/N, as /dev/stdout and /dev/fd/N
		 * resolve) is written through that descriptor, so the summary
		 * lands where the shell's other output to it goes instead of being
		 * overwritten by it (a new open would have its own offset). */
		of->direct = true;
		int n, end = 0;
		if (magic && sscanf(of->target, "/proc/self/fd/%d%n", &n, &end) == 1 &&
		    of->target[end] == '\0' && fcntl(n, F_GETFL) >= 0) {
			of->fdnum = n;
			return 0;
		}
		if (access(of->target, W_OK) < 0) {
			err = errno;
			goto fail;
		}
		return 0;
	}

	/* The temporary name does not grow with the target's: a target name
	 * of up to NAME_MAX bytes must still work. */
	const char *slash = strrchr(of->target, '/');
	size_t dlen = slash ? (size_t)(slash - of->target) + 1 : 0;
	size_t need = dlen + sizeof tmpl;
	bool exists = stat(of->target, &st) == 0;

	of->tmp = malloc(need);
	if (!of->tmp) {
		err = ENOMEM;
		goto fail;
	}
	/* The directory alone: "dir/", or "." for a bare name. */
	snprintf(of->tmp, need, "%.*s", dlen ? (int)dlen : 1, dlen ? of->target : ".");
	if (exists && sticky_refuses(of->tmp, &st)) {
		/* Decided now, not found when the rename fails after the run. */
		free(of->tmp);
		of->tmp = NULL;
		if ((err = -open_inplace(of)) != 0)
			goto fail;
		return 0;
	}
	snprintf(of->tmp, need, "%.*s%s", (int)dlen, of->target, tmpl);
	/* A result file gets the usual 0666 & ~umask, or the mode of the file
	 * it replaces. */
	if (exists) {
		of->mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		of->mode = 0666 & ~mask;
	}
	if ((err = -make_tmp(of)) != 0) {
		free(of->tmp);
		of->tmp = NULL;
		/* No file can be created there, but the target may exist and
		 * be writable: rewrite it in place. */
		if ((err == EACCES || err == EPERM) && open_inplace(of) == 0)
			return 0;
		goto fail;
	}
	/* It can be: made again at commit.  Nothing of timeit's is in the
	 * directory while the command runs -- a run killed with SIGKILL (an
	 * outer timeout, the OOM killer) leaves no temporary file, and the
	 * command may remove, move or recreate the directory (make clean). */
	close(of->fd);
	of->fd = -1;
	remove_tmp(of);
	return 0;
fail:
	ti_outfile_abort(of);
	return -err;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write DATA over FD's file from its start and cut what is left after. */
static int rewrite(int fd, const char *data, size_t len)
{
	int rc = lseek(fd, 0, SEEK_SET) < 0 ? -errno : write_all(fd, data, len);

	if (rc == 0 && ftruncate(fd, (off_t)len) < 0)
		rc = -errno;
	return rc;
}

/* Where no file can be made or renamed (error RC): an existing regular
 * target rewritten in place with DATA, or RC. */
static int rewrite_target(const struct ti_outfile *of, const char *data, size_t len, int rc)
{
	struct stat st;
	int fd;

	if (stat(of->target, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (fd = open(of->target, O_WRONLY | O_CLOEXEC | O_NOCTTY)) < 0)
		return rc;
	rc = rewrite(fd, data, len);
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

int ti_outfile_commit(struct ti_outfile *of, const char *data, size_t len)
{
	struct stat st;
	int rc;

	if (of->direct && of->fdnum >= 0) {
		rc = write_all(of->fdnum, data, len);
		ti_outfile_abort(of);
		return rc;
	}
	if (of->direct) {
		int fd = open(of->target, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			return -errno;
		rc = write_all(fd, data, len);
		if (close(fd) < 0 && rc == 0)
			rc = -errno;
		ti_outfile_abort(of);
		return rc;
	}
	if (of->inplace) {
		/* The command removed the file it was given (its directory
		 * stays unwritable, or sticky): the one at the path now. */
		if (fstat(of->fd, &st) == 0 && st.st_nlink == 0) {
			close(of->fd);
			of->fd = open(of->target, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
			if (of->fd < 0) {
				rc = -errno;
				ti_outfile_abort(of);
				return rc;
			}
		}
		rc = rewrite(of->fd, data, len);
		if (close(of->fd) < 0 && rc == 0)
			rc = -errno;
		of->fd = -1;
		ti_outfile_abort(of);
		return rc;
	}
	/* The result goes where its path leads now, whatever the command did
	 * to the directory meanwhile (make clean, rm -rf of a build directory
	 * it then recreates), from a temporary file made now.  A directory
	 * the command made unwritable: the existing file, in place. */
	if ((rc = make_tmp(of)) < 0) {
		free(of->tmp);
		of->tmp = NULL;
		if (rc == -EACCES || rc == -EPERM)
			rc = rewrite_target(of, data, len, rc);
		ti_outfile_abort(of);
		return rc;
	}
	rc = write_all(of->fd, data, len);
	if (close(of->fd) < 0 && rc == 0)
		rc = -errno;
	of->fd = -1;
	if (rc == 0 && rename(of->tmp, of->target) < 0) {
		rc = -errno;
		/* A sticky directory that prepare could not foresee (root
		 * without CAP_FOWNER): the existing file, in place. */
		if (rc == -EPERM || rc == -EACCES)
			rc = rewrite_target(of, data, len, rc);
		ti_outfile_abort(of);
		return rc;
	}
	if (rc < 0) {
		ti_outfile_abort(of);
		return rc;
	}
	free(of->tmp);
	of->tmp = NULL;
	ti_outfile_abort(of);
	return 0;
}

/* PATH, which does not exist, as "real directory/name" after following
 * its symlinks (a dangling one leads to its target); NULL when its
 * directory does not exist either. */
static char *where(const char *path)
{
	bool magic;
	char *to = ti_outfile_resolve(path, &magic);
	const char *name, *slash;
	char *dir, *real = NULL, *out = NULL;

	if (!to)
		return NULL;
	slash = strrchr(to, '/');
	name = slash ? slash + 1 : to;
	dir = slash ? strndup(to, (size_t)(slash - to) + 1) : strdup(".");
	if (dir)
		real = realpath(dir, NULL);
	if (real) {
		size_t n = strlen(real) + strlen(name) + 2;
		out = malloc(n);
		if (out)
			snprintf(out, n, "%s/%s", real, name);
	}
	free(dir);
	free(real);
	free(to);
	return out;
}

bool ti_outfile_same(const char *a, const char *b)
{
	struct stat sa, sb;
	bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0, same;
	char *wa, *wb;

	if (ea || eb)
		return ea && eb && S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev &&
		       sa.st_ino == sb.st_ino;
	wa = where(a);
	wb = where(b);
	same = wa && wb ? strcmp(wa, wb) == 0 : strcmp(a, b) == 0;
	free(wa);
	free(wb);
	return same;
}

void ti_outfile_abort(struct ti_outfile *of)
{
	if (of->fd >= 0)
		close(of->fd);
	of->fd = -1;
	if (of->tmp)
		remove_tmp(of);
	free(of->tmp);
	of->tmp = NULL;
	free(of->target);
	of->target = NULL;
}
