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
#ifdef __linux__
#include <sys/vfs.h>
#endif

#include "outfile.h"

/* Whether the symlink LINK lives on procfs (/proc/self/fd/N, reached also
 * through /dev/stdout or /dev/fd/N).  Such a "magic link" names an open file
 * rather than a path: its text ("pipe:[123]", or a file the shell opened
 * with >>) must not be followed as a path, and replacing the file behind it
 * would lose what the command wrote there.  See proc(5), /proc/pid/fd. */
static bool on_procfs(const char *link)
{
#ifdef __linux__
	const char *slash = strrchr(link, '/');
	char dir[PATH_MAX];
	struct statfs sf;

	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - link) + 1, link);
	return statfs(dir, &sf) == 0 && sf.f_type == 0x9fa0; /* PROC_SUPER_MAGIC */
#else
	(void)link;
	return false;
#endif
}

/* Resolve a chain of symlinks at PATH, so the file behind it is replaced
 * and the link kept.  A dangling link resolves to its (relative) target.
 * A link on procfs stops the walk: *MAGIC is set and that link returned. */
static char *resolve_links(const char *path, bool *magic)
{
	char *cur = strdup(path);

	*magic = false;
	for (int hops = 0; cur && hops < 40; hops++) {
		char buf[PATH_MAX];
		struct stat st;
		ssize_t n;

		if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
			return cur;
		if (on_procfs(cur)) {
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
	of->target = resolve_links(path, &magic);
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
	static const char tmpl[] = ".timeit.tmp.XXXXXX";
	const char *slash = strrchr(of->target, '/');
	size_t dlen = slash ? (size_t)(slash - of->target) + 1 : 0;
	size_t need = dlen + sizeof tmpl;

	of->tmp = malloc(need);
	if (!of->tmp) {
		err = ENOMEM;
		goto fail;
	}
	snprintf(of->tmp, need, "%.*s%s", (int)dlen, of->target, tmpl);
	of->fd = mkostemp(of->tmp, O_CLOEXEC);
	if (of->fd < 0) {
		err = errno;
		free(of->tmp);
		of->tmp = NULL;
		/* No file can be created there, but the target may exist and
		 * be writable: rewrite it in place. */
		if (err == EACCES || err == EPERM) {
			of->fd = open(of->target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
			if (of->fd >= 0) {
				of->inplace = true;
				return 0;
			}
		}
		goto fail;
	}
	/* mkstemp makes 0600; a result file gets the usual 0666 & ~umask, or
	 * the mode of the file it replaces. */
	mode_t mode;
	if (stat(of->target, &st) == 0) {
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(of->fd, mode) < 0) {
		err = errno;
		goto fail;
	}
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

int ti_outfile_commit(struct ti_outfile *of, const char *data, size_t len)
{
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
	rc = write_all(of->fd, data, len);
	/* In place: the old contents past the new end go. */
	if (rc == 0 && of->inplace && ftruncate(of->fd, (off_t)len) < 0)
		rc = -errno;
	if (close(of->fd) < 0 && rc == 0)
		rc = -errno;
	of->fd = -1;
	if (of->inplace) {
		ti_outfile_abort(of);
		return rc;
	}
	if (rc == 0 && rename(of->tmp, of->target) < 0)
		rc = -errno;
	if (rc < 0) {
		ti_outfile_abort(of);
		return rc;
	}
	free(of->tmp);
	of->tmp = NULL;
	free(of->target);
	of->target = NULL;
	return 0;
}

void ti_outfile_abort(struct ti_outfile *of)
{
	if (of->fd >= 0)
		close(of->fd);
	of->fd = -1;
	if (of->tmp)
		unlink(of->tmp);
	free(of->tmp);
	of->tmp = NULL;
	free(of->target);
	of->target = NULL;
}
