/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* spawn-child.c: the child's set-up before exec, and what timeit
 * prepares for it: the redirect files (opened, truncated only once all
 * opened, removed again on failure), the --cpu CPUs, the rlimits, the
 * command's path, the --chdir directory.  The vfork child itself
 * (ti_spawn_child) only makes system calls. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os.h"
#include "outfile.h"
#include "spawn-int.h"

const int ti_spawn_rlimit[TI_LIMIT_COUNT] = {
	[TI_LIMIT_CPU] = RLIMIT_CPU,	 [TI_LIMIT_STACK] = RLIMIT_STACK,
	[TI_LIMIT_DATA] = RLIMIT_DATA,	 [TI_LIMIT_RSS] = RLIMIT_RSS,
	[TI_LIMIT_FSIZE] = RLIMIT_FSIZE, [TI_LIMIT_CORE] = RLIMIT_CORE,
	[TI_LIMIT_NOFILE] = RLIMIT_NOFILE, [TI_LIMIT_NPROC] = RLIMIT_NPROC,
};

const char *ti_limit_name(enum ti_limit l)
{
	static const char *const names[TI_LIMIT_COUNT] = {
		"cpu", "stack-size", "data-size", "rss-size",
		"file-size", "core", "file-count", "subprocess-count",
	};
	return (unsigned)l < TI_LIMIT_COUNT ? names[l] : "?";
}

void ti_spawn_tell(int fd, int stage, int value)
{
	struct ti_spawn_msg m = { stage, value, 0 };
	ssize_t rc = write(fd, &m, sizeof m);
	(void)rc;
}

/* A process group of its own, the default disposition for the signals in
 * RESET (NULL: every one) and an empty mask: a vfork child's or the exec
 * helper's start. */
void ti_spawn_default_signals(const sigset_t *reset)
{
	sigset_t none;

	for (int s = 1; s < NSIG; s++)
		if (reset ? sigismember(reset, s) == 1 : s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

void ti_spawn_own_group(const sigset_t *reset)
{
	setpgid(0, 0);
	ti_spawn_default_signals(reset);
}

/* The child between vfork and exec.  It shares timeit's memory while timeit
 * is suspended, so it only makes system calls and writes nothing but its
 * own stack; it never returns. */
__attribute__((noreturn)) void ti_spawn_child(const struct ti_plan *plan,
					    const struct ti_child *ch)
{
	int err;

	/* Default dispositions and an empty mask, whatever timeit inherited.
	 * Only the ignored signals in RESET need it: they survive exec.
	 * timeit's handlers do not (exec resets them), and one that runs here
	 * once the mask is cleared acts as the default would (in_child). */
	ti_spawn_own_group(&ch->reset);

	/* A shared stdout/stderr file arrives as one fd in both slots. */
	for (int i = 0; i < 3; i++) {
		if (ch->redir[i] >= 0 && dup2(ch->redir[i], i) < 0) {
			ti_spawn_tell(ch->status_wfd, ST_REDIRECT, errno);
			_exit(TI_STATUS_INTERNAL);
		}
	}
	/* The values were worked out by ti_spawn_start. */
	for (int l = 0; l < TI_LIMIT_COUNT; l++)
		if (ch->lim_set[l] && setrlimit(ti_spawn_rlimit[l], &ch->lim[l]) < 0)
			ti_spawn_tell(ch->status_wfd, ST_LIMIT, l);
	/* Opened and checked by ti_spawn_start, so this rarely fails (the
	 * directory's permissions changed since). */
	if (plan->chdir && (err = ti_os_dir_enter(&ch->dir)) != 0) {
		ti_spawn_tell(ch->status_wfd, ST_CHDIR, err);
		_exit(TI_STATUS_INTERNAL);
	}
	/* Takes effect at the exec below. */
	if (plan->no_aslr && (err = ti_os_no_aslr()) != 0)
		ti_spawn_tell(ch->status_wfd, ST_ASLR, err);
	/* CH->FILE is the command found in PATH already when it could be
	 * (a path with a slash: execvp searches no more, and still runs a
	 * script without #! through /bin/sh). */
	execvp(ch->file, plan->argv);
	ti_spawn_tell(ch->status_wfd, ST_EXEC, errno);
	_exit(errno == ENOENT || errno == ENOTDIR ? TI_STATUS_NOT_FOUND : TI_STATUS_CANNOT_EXEC);
}

void ti_spawn_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Truncate an output file once every redirect has opened: a failing
 * --redirect-stderr must not have emptied the --redirect-stdout file.
 * (O_TRUNC does nothing to a device or FIFO; neither does this.) */
int ti_spawn_truncate(int fd)
{
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	return ftruncate(fd, 0);
}

/* Open the output file PATH for writing without truncating it (that is
 * done once every redirect has opened).  A file that did not exist is
 * created and its path left in *CREATED (malloc'd), so that a later
 * failure can remove it again: a failing redirect leaves no file behind.
 * A dangling symlink is followed to the file it names, which is created
 * there (O_EXCL never follows a link). */
static int open_output(const char *path, char **created)
{
	const int flags = O_WRONLY | O_CLOEXEC | O_NOCTTY;
	int fd = open(path, flags), err;
	char *to;
	bool magic;

	*created = NULL;
	if (fd >= 0 || errno != ENOENT)
		return fd;
	to = ti_outfile_resolve(path, &magic);
	if (!to)
		return -1;
	fd = magic ? -1 : open(to, flags | O_CREAT | O_EXCL, 0666);
	if (fd >= 0) {
		*created = to;
		return fd;
	}
	err = errno;
	free(to);
	if (!magic && err != EEXIST) {
		errno = err;
		return -1;
	}
	/* Created meanwhile by another process: not ours to remove. */
	return open(path, flags | O_CREAT, 0666);
}

/* Undo the redirects of a run that will not start: close them, and remove
 * the files they created. */
void ti_spawn_undo_redirects(int redir[3], char *created[3])
{
	for (int i = 0; i < 3; i++) {
		if (redir[i] >= 0)
			close(redir[i]);
		redir[i] = -1;
		if (created[i])
			unlink(created[i]);
		free(created[i]);
		created[i] = NULL;
	}
}

int ti_spawn_open_redirects(const struct ti_plan *plan, int redir[3], char *created[3],
			  struct ti_failure *f, bool truncate)
{
	redir[0] = redir[1] = redir[2] = -1;
	created[0] = created[1] = created[2] = NULL;
	if (plan->redirect_input) {
		redir[0] = open(plan->redirect_input, O_RDONLY | O_CLOEXEC);
		if (redir[0] < 0) {
			f->what = plan->redirect_input;
			goto fail;
		}
	}
	if (plan->redirect_stdout) {
		redir[1] = open_output(plan->redirect_stdout, &created[1]);
		if (redir[1] < 0) {
			f->what = plan->redirect_stdout;
			goto fail;
		}
	}
	if (plan->redirect_stderr) {
		/* Both streams to one path share one fd, so their writes
		 * interleave instead of overwriting each other. */
		if (redir[1] >= 0 && strcmp(plan->redirect_stderr, plan->redirect_stdout) == 0)
			redir[2] = fcntl(redir[1], F_DUPFD_CLOEXEC, 0);
		else
			redir[2] = open_output(plan->redirect_stderr, &created[2]);
		if (redir[2] < 0) {
			f->what = plan->redirect_stderr;
			goto fail;
		}
	}
	/* The same file by another name (./out, a link): one descriptor for
	 * both streams too, or each would overwrite the other's output. */
	if (redir[1] >= 0 && redir[2] >= 0 && redir[2] != redir[1]) {
		struct stat so, se;
		if (fstat(redir[1], &so) == 0 && fstat(redir[2], &se) == 0 &&
		    S_ISREG(so.st_mode) && so.st_dev == se.st_dev && so.st_ino == se.st_ino) {
			int shared = fcntl(redir[1], F_DUPFD_CLOEXEC, 0);
			if (shared < 0) {
				f->what = plan->redirect_stderr;
				goto fail;
			}
			close(redir[2]);
			redir[2] = shared;
			/* One file, created once: removed once. */
			if (!created[1]) {
				created[1] = created[2];
				created[2] = NULL;
			}
		}
	}
	/* Through a wrapper, the exec helper truncates them once the wrapper
	 * is known to run the command (ti_spawn_helper). */
	if (!truncate)
		return 0;
	if (ti_spawn_truncate(redir[1]) < 0) {
		f->what = plan->redirect_stdout;
		goto fail;
	}
	if (ti_spawn_truncate(redir[2]) < 0) {
		f->what = plan->redirect_stderr;
		goto fail;
	}
	return 0;
fail:
	f->err = errno;
	ti_spawn_undo_redirects(redir, created);
	return -1;
}

/* --cpu: timeit moves onto the CPUs itself, and the child inherits the
 * mask at vfork; it lasts through exec and fork, so the whole tree stays
 * there, and the measured path has no system call for it.  EINVAL: not
 * every CPU of the list is usable (lib/os.h).  F->what is
 * "sched_setaffinity". */
int ti_spawn_pin(const struct ti_plan *plan, struct ti_failure *f)
{
	int rc;

	if (!plan->pin || (rc = ti_os_set_affinity(&plan->cpus)) == 0)
		return 0;
	f->what = "sched_setaffinity";
	f->err = -rc;
	return -1;
}

/* The rlimits the child sets: each given limit as both soft and hard,
 * lowered to the current hard limit (an unprivileged process cannot raise
 * it).  Worked out here so the child makes one system call per limit; a
 * limit whose current value cannot be read is reported as not set. */
void ti_spawn_prepare_limits(const struct ti_plan *plan, struct ti_child *ch, struct ti_record *r)
{
	for (int l = 0; l < TI_LIMIT_COUNT; l++) {
		struct rlimit *rl = &ch->lim[l];

		ch->lim_set[l] = false;
		if (!plan->limit_set[l])
			continue;
		if (getrlimit(ti_spawn_rlimit[l], rl) < 0) {
			r->limit_failed[l] = true;
			continue;
		}
		rlim_t v = (rlim_t)plan->limit[l];
		if (rl->rlim_max != RLIM_INFINITY && v > rl->rlim_max)
			v = rl->rlim_max;
		rl->rlim_cur = rl->rlim_max = v;
		ch->lim_set[l] = true;
	}
}

/* The command's file, looked up in PATH here instead of by execvp on the
 * measured path (each directory it tries costs a failed execve).  Only
 * absolute PATH entries are tried: at the first relative one (or "", the
 * current directory, which --chdir changes) the child's execvp searches
 * itself, as it does when nothing is found (and then fails with the right
 * errno).  PATH unset means glibc's default, confstr(_CS_PATH). */
void ti_spawn_resolve(const char *file, struct ti_child *ch)
{
	const char *p = getenv("PATH");
	size_t flen = strlen(file);

	ch->file = file;
	if (!*file || strchr(file, '/'))
		return;
	if (!p)
		p = "/bin:/usr/bin";
	for (;;) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		struct stat st;

		if (n == 0 || p[0] != '/')
			return;
		if (n + 1 + flen < sizeof ch->path) {
			memcpy(ch->path, p, n);
			ch->path[n] = '/';
			memcpy(ch->path + n + 1, file, flen + 1);
			if (stat(ch->path, &st) == 0 && S_ISREG(st.st_mode) &&
			    access(ch->path, X_OK) == 0) {
				ch->file = ch->path;
				return;
			}
		}
		if (!end)
			return;
		p = end + 1;
	}
}

/* --chdir, resolved before anything runs (lib/os.h: with the permission
 * chdir needs, and no more); the child then only enters it. */
int ti_spawn_open_dir(const struct ti_plan *plan, struct ti_os_dir *dir, struct ti_failure *f)
{
	int rc;

	dir->fd = -1;
	if (!plan->chdir || (rc = ti_os_dir_open(dir, plan->chdir)) == 0)
		return 0;
	f->what = plan->chdir;
	f->err = -rc;
	return -1;
}

