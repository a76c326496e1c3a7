/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-util.c: what the files of lib/drive share (drive-util.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "drive-util.h"

char *ti_drive_fmt(const char *f, ...)
{
	va_list ap;
	char *s;

	va_start(ap, f);
	int n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	if (n < 0 || !(s = malloc((size_t)n + 1)))
		return NULL;
	va_start(ap, f);
	vsnprintf(s, (size_t)n + 1, f, ap);
	va_end(ap);
	return s;
}

char *ti_drive_strdup(const char *s)
{
	return ti_drive_fmt("%s", s);
}

void ti_drive_strs_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int ti_drive_fail(struct ti_drive *d, int rc, const char *f, ...)
{
	va_list ap;

	/* The first error is the cause: a later one (the stop table that the
	 * full disk refused as a failed round ended) must not hide it. */
	if (d->err[0])
		return rc;
	va_start(ap, f);
	vsnprintf(d->err, sizeof d->err, f, ap);
	va_end(ap);
	return rc;
}

void ti_drive_progress(struct ti_drive *d, const char *f, ...)
{
	char line[512];
	va_list ap;

	if (!d->c.progress)
		return;
	va_start(ap, f);
	vsnprintf(line, sizeof line, f, ap);
	va_end(ap);
	d->c.progress(d->c.progress_arg, line);
}

void ti_drive_note(struct ti_drive *d, const char *f, ...)
{
	void (*cb)(void *, const char *) = d->c.note ? d->c.note : d->c.progress;
	char line[512];
	va_list ap;

	if (!cb)
		return;
	va_start(ap, f);
	vsnprintf(line, sizeof line, f, ap);
	va_end(ap);
	cb(d->c.progress_arg, line);
}

void ti_drive_clock_text(char *s, size_t len, double secs)
{
	long t = secs < 0 ? 0 : (long)(secs + 0.5);
	snprintf(s, len, "%ld:%02ld", t / 60, t % 60);
}

void ti_drive_tsv(struct ti_buf *b, const char *s)
{
	for (const char *p = s; *p; p++) {
		const char *e = *p == '\t' ? "\\t" : *p == '\n' ? "\\n" : *p == '\r' ? "\\r" :
				*p == '\\' ? "\\\\" : NULL;
		ti_buf_append(b, e ? e : p, e ? 2 : 1);
	}
}

char *ti_drive_out_path(const struct ti_drive *d, const char *name)
{
	return ti_drive_fmt("%s/%s%s", d->c.out, d->runner->prefix, name);
}

int ti_drive_write_failed(struct ti_drive *d, const char *name, int rc)
{
	char *p = ti_drive_out_path(d, name);

	if (d->write_rc == 0)
		d->write_rc = rc;
	ti_drive_fail(d, rc, "%s: %s", p ? p : name, strerror(-rc));
	free(p);
	return rc;
}

FILE *ti_drive_file(struct ti_drive *d, const char *name)
{
	char *p = ti_drive_out_path(d, name);
	FILE *f = p ? fopen(p, "w") : NULL;
	int e = p ? errno : ENOMEM;

	free(p);
	if (!f)
		ti_drive_write_failed(d, name, -e);
	return f;
}

/* errno after a failed stdio call, never 0 (a failure with nothing
 * said is still one). */
static int stdio_errno(void)
{
	return errno ? -errno : -EIO;
}

int ti_drive_write(struct ti_drive *d, FILE *f, const char *name, const char *s, size_t len)
{
	if (!f)
		return 0;
	errno = 0;
	/* Flushed at once: the logs are read while the run goes on, and a
	 * full disk is then noticed at the line it refused. */
	if ((len && fwrite(s, 1, len, f) != len) || fflush(f) != 0)
		return ti_drive_write_failed(d, name, stdio_errno());
	return 0;
}

int ti_drive_write_buf(struct ti_drive *d, FILE *f, const char *name, struct ti_buf *b)
{
	int rc = b->failed ? ti_drive_write_failed(d, name, -ENOMEM)
			   : ti_drive_write(d, f, name, b->data, b->len);

	ti_buf_free(b);
	return rc;
}

int ti_drive_close(struct ti_drive *d, FILE *f, const char *name)
{
	if (!f)
		return 0;
	errno = 0;
	if (fclose(f) != 0)
		return ti_drive_write_failed(d, name, stdio_errno());
	return 0;
}

int ti_drive_lock(const char *dir, bool try, char *err, size_t len)
{
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char path[4096];
	int fd, rc;

	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, TI_DRIVE_LOCK) >= sizeof path) {
		snprintf(err, len, "%s: name too long", dir);
		return -ENAMETOOLONG;
	}
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666)) < 0) {
		rc = -errno;
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (fcntl(fd, F_SETLK, &l) < 0) {
		rc = errno == EACCES || errno == EAGAIN ? -EBUSY : -errno;
		struct flock who = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		if (rc == -EBUSY && fcntl(fd, F_GETLK, &who) == 0 && who.l_type != F_UNLCK)
			snprintf(err, len, "%s: in use by another run (pid %ld)", dir, (long)who.l_pid);
		else if (rc == -EBUSY)
			snprintf(err, len, "%s: in use by another run", dir);
		else
			snprintf(err, len, "%s: %s", path, strerror(-rc));
		close(fd);
		return rc;
	}
	/* Held open (and so locked) until the process ends; a test only
	 * lets it go (closing any descriptor of the file drops the lock). */
	if (try)
		close(fd);
	return 0;
}

bool ti_drive_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

ssize_t ti_drive_units_index(const struct ti_drive_units *u, const char *name)
{
	for (size_t i = 0; i < u->n; i++)
		if (strcmp(u->u[i], name) == 0)
			return (ssize_t)i;
	return -1;
}

int ti_drive_units_add(struct ti_drive_units *u, const char *name)
{
	char **p;

	if (ti_drive_units_index(u, name) >= 0)
		return 0;
	if (!(p = realloc(u->u, (u->n + 1) * sizeof *p)))
		return -ENOMEM;
	u->u = p;
	if (!(p[u->n] = ti_drive_strdup(name)))
		return -ENOMEM;
	u->n++;
	return 0;
}

void ti_drive_units_free(struct ti_drive_units *u)
{
	ti_drive_strs_free(u->u, u->n);
	u->u = NULL;
	u->n = 0;
}

static struct ti_drive_test *find_test(struct ti_drive *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->t[i].name, name) == 0)
			return &d->t[i];
	return NULL;
}

int ti_drive_test_add(struct ti_drive *d, const char *name, const char *unit)
{
	struct ti_drive_test *p;

	if (find_test(d, name))
		return 0;
	if (!(p = realloc(d->t, (d->n + 1) * sizeof *p)))
		return -ENOMEM;
	d->t = p;
	p += d->n;
	memset(p, 0, sizeof *p);
	p->name = ti_drive_strdup(name);
	p->unit = ti_drive_strdup(unit);
	if (!p->name || !p->unit) {
		free(p->name);
		free(p->unit);
		return -ENOMEM;
	}
	d->n++;
	return 0;
}

size_t ti_drive_active(const struct ti_drive *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n; i++)
		n += d->t[i].stop == TI_DRIVE_ACTIVE;
	return n;
}

int ti_drive_arg(struct ti_drive_argv *a, char *s)
{
	char **p;

	if (!s || !(p = realloc(a->v, (a->n + 2) * sizeof *p))) {
		free(s);
		return -ENOMEM;
	}
	a->v = p;
	p[a->n++] = s;
	p[a->n] = NULL;
	return 0;
}

void ti_drive_argv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

void ti_drive_job_init(struct ti_drive_job *j, int side, unsigned r, size_t unit,
		       const char *what)
{
	memset(j, 0, sizeof *j);
	j->side = side;
	j->round = r;
	j->unit = unit;
	j->what = what;
}

int ti_drive_job_argv(struct ti_drive_job *j, struct ti_drive_argv *a, bool ok)
{
	j->argv = ok ? a->v : NULL;
	if (ok)
		return 0;
	ti_drive_argv_free(a->v);
	return -ENOMEM;
}

void ti_drive_job_free(struct ti_drive_job *j)
{
	ti_drive_argv_free(j->argv);
	j->argv = NULL;
	free(j->log);
	free(j->tmp);
	free(j->file);
	free(j->run_arg);
	j->run_arg = NULL;
}

const char *ti_drive_metric(const struct ti_drive *d)
{
	return strcmp(d->c.ab.metric, "hash") == 0 ? "exec_time" : d->c.ab.metric;
}

static bool has_summary(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	bool any = false;

	if (!dp)
		return false;
	while (!any && (e = readdir(dp)))
		any = ti_ab_read_is_summary(e->d_name);
	closedir(dp);
	return any;
}

int ti_drive_read_dir(struct ti_drive *d, const char *dir, const char *bin,
		      struct ti_ab_set *set)
{
	struct ti_ab_error err;
	int rc;

	memset(set, 0, sizeof *set);
	/* A side with no result yet is empty, not an error. */
	rc = has_summary(dir) ? ti_ab_read(set, dir, ti_drive_metric(d), 1, &err) : 0;
	if (rc >= 0 && bin && access(bin, F_OK) == 0)
		rc = ti_ab_read_binaries(set, bin, &err);
	return ti_drive_loaded(d, rc, &err, set);
}

int ti_drive_loaded(struct ti_drive *d, int rc, const struct ti_ab_error *err,
		    struct ti_ab_set *set)
{
	if (rc < 0 && rc != -ENOMEM)
		return ti_drive_fail(d, rc, "%s: %s", err->path, err->what);
	if (rc < 0)
		return ti_drive_fail(d, rc, "%s", strerror(ENOMEM));
	ti_ab_sort(set);
	return 0;
}

int ti_drive_load_side(struct ti_drive *d, int side, unsigned r, struct ti_ab_set *set)
{
	char *dir = ti_drive_fmt("%s/%c/results", d->c.out, side ? 'B' : 'A');
	char *bin = ti_drive_fmt("%s/%c/bin", d->c.out, side ? 'B' : 'A');
	int rc;

	(void)r;
	if (!dir || !bin) {
		free(dir);
		free(bin);
		memset(set, 0, sizeof *set);
		return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	}
	rc = ti_drive_read_dir(d, dir, bin, set);
	free(dir);
	free(bin);
	return rc;
}

ssize_t ti_drive_test_index(const struct ti_drive *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->t[i].name, name) == 0)
			return (ssize_t)i;
	return -1;
}
