/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-resume.c: what lets a run go on after it was cut short
 * (timeit-ab --resume).  After each round whose results were checked and
 * looked at, OUT/PREFIXstate.tsv is written again, atomically: the
 * finished rounds, the plan of the looks, and every test with its rounds
 * and why it stopped.  The last round in it is the last complete one: a
 * round cut short after it (its files half-written) is undone by the
 * runner, and the logs are cut back to the rounds it names. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "drive-util.h"
#include "outfile.h"

static const char magic[] = "timeit-ab state 1";

/* The stops a resumed run keeps: those of a look, of identity, of a test
 * missing or failed.  The others (the last round, the budget, a signal)
 * were the end of that run, not the test's. */
static enum ti_drive_stop kept(enum ti_drive_stop s)
{
	return s == TI_DRIVE_DECIDED || s == TI_DRIVE_SAME_BINARY || s == TI_DRIVE_MISSING ||
	       s == TI_DRIVE_FAILED ? s : TI_DRIVE_ACTIVE;
}

int ti_drive_state_write(struct ti_drive *d, unsigned rounds, double last, size_t last_n)
{
	struct ti_buf b = { 0 };
	struct ti_outfile of;
	char *p = ti_drive_out_path(d, "state.tsv");
	int rc;

	ti_buf_printf(&b, "%s\nrounds\t%u\nplan\t%u\t%u\t%u\nlast\t%.17g\t%zu\n", magic, d->rounds,
		      rounds, d->looks, d->min, last, last_n);
	for (size_t i = 0; i < d->units.n; i++) {
		ti_buf_printf(&b, "unit\t");
		ti_drive_tsv(&b, d->units.u[i]);
		ti_buf_printf(&b, "\n");
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct ti_drive_test *t = &d->t[i];
		enum ti_drive_stop s = kept(t->stop);
		ti_buf_printf(&b, "test\t");
		ti_drive_tsv(&b, t->name);
		ti_buf_printf(&b, "\t");
		ti_drive_tsv(&b, t->unit);
		ti_buf_printf(&b, "\t%u\t%d\t", t->rounds, (int)s);
		ti_drive_tsv(&b, s == TI_DRIVE_ACTIVE ? "" : t->why);
		ti_buf_printf(&b, "\n");
	}
	if (!p || b.failed)
		rc = -ENOMEM;
	else if ((rc = ti_outfile_prepare(&of, p)) == 0)
		rc = ti_outfile_commit(&of, b.data, b.len);
	ti_buf_free(&b);
	free(p);
	return rc < 0 ? ti_drive_write_failed(d, "state.tsv", rc) : 0;
}

/* Undo ti_drive_tsv's escapes in S, in place. */
static void untsv(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s != '\\' || !s[1]) {
			*o++ = *s;
			continue;
		}
		s++;
		*o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s == 'r' ? '\r' : *s;
	}
	*o = '\0';
}

/* The tab-separated fields of LINE (its newline gone), at most MAX. */
static size_t fields(char *line, char **f, size_t max)
{
	size_t n = 0;

	line[strcspn(line, "\n")] = '\0';
	while (n < max) {
		f[n++] = line;
		char *t = strchr(line, '\t');
		if (!t)
			break;
		*t = '\0';
		line = t + 1;
	}
	for (size_t k = 0; k < n; k++)
		untsv(f[k]);
	return n;
}

/* One line of the state, LINE, into D and the plan. */
static int state_line(struct ti_drive *d, char *line, unsigned *rounds, double *last,
		      size_t *last_n)
{
	char *f[6];
	size_t n = fields(line, f, 6);
	int rc = 0;

	if (strcmp(f[0], "rounds") == 0 && n == 2) {
		d->rounds = (unsigned)strtoul(f[1], NULL, 10);
	} else if (strcmp(f[0], "plan") == 0 && n == 4) {
		*rounds = (unsigned)strtoul(f[1], NULL, 10);
		d->looks = (unsigned)strtoul(f[2], NULL, 10);
		d->min = (unsigned)strtoul(f[3], NULL, 10);
	} else if (strcmp(f[0], "last") == 0 && n == 3) {
		*last = strtod(f[1], NULL);
		*last_n = (size_t)strtoull(f[2], NULL, 10);
	} else if (strcmp(f[0], "unit") == 0 && n == 2) {
		rc = ti_drive_units_add(&d->units, f[1]);
	} else if (strcmp(f[0], "test") == 0 && n == 6) {
		ssize_t i = ti_drive_test_index(d, f[1]);
		int s = atoi(f[4]);
		if (i < 0 && (rc = ti_drive_test_add(d, f[1], f[2])) == 0)
			i = (ssize_t)d->n - 1;
		if (rc == 0 && i >= 0) {
			d->t[i].rounds = (unsigned)strtoul(f[3], NULL, 10);
			d->t[i].stop = kept(s >= 0 && s < TI_DRIVE_STOPS ? (enum ti_drive_stop)s
									 : TI_DRIVE_ACTIVE);
			snprintf(d->t[i].why, sizeof d->t[i].why, "%s", f[5]);
		}
	} else {
		return -EINVAL;
	}
	return rc;
}

int ti_drive_state_read(struct ti_drive *d, unsigned *rounds, double *last, size_t *last_n)
{
	char *p = ti_drive_out_path(d, "state.tsv");
	FILE *f = p ? fopen(p, "r") : NULL;
	char *line = NULL;
	size_t cap = 0;
	int rc = 0, ln = 0;

	if (!p)
		return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	if (!f) {
		rc = errno == ENOENT ? 0 : ti_drive_fail(d, -errno, "%s: %s", p, strerror(errno));
		free(p);
		return rc;
	}
	while (rc == 0 && getline(&line, &cap, f) > 0) {
		ln++;
		if (ln == 1)
			rc = strncmp(line, magic, sizeof magic - 1) == 0 ? 0 : -EINVAL;
		else if (rc == 0)
			rc = state_line(d, line, rounds, last, last_n);
	}
	if (rc == 0 && (ln == 0 || *rounds < 1 || d->looks < 1 || d->rounds > TI_DRIVE_ROUNDS_MAX))
		rc = -EINVAL;
	if (rc == -ENOMEM)
		ti_drive_fail(d, rc, "%s", strerror(ENOMEM));
	else if (rc < 0)
		ti_drive_fail(d, rc, "%s:%d: not a state of timeit-ab's rounds", p, ln);
	free(line);
	fclose(f);
	free(p);
	return rc;
}

/* Cut the log NAME back to its lines of rounds 1 to K (a line that does
 * not start with a round number, a header, is kept), atomically. */
static int trim_log(struct ti_drive *d, const char *name, unsigned k)
{
	char *p = ti_drive_out_path(d, name);
	FILE *f = p ? fopen(p, "r") : NULL;
	struct ti_buf b = { 0 };
	struct ti_outfile of;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	if (!p)
		return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	if (!f && errno != ENOENT)
		rc = ti_drive_fail(d, -errno, "%s: %s", p, strerror(errno));
	while (f && (n = getline(&line, &cap, f)) > 0) {
		char *end;
		unsigned long r = strtoul(line, &end, 10);
		if (end == line || r <= k)
			ti_buf_append(&b, line, (size_t)n);
	}
	if (f)
		fclose(f);
	free(line);
	if (rc == 0 && b.failed)
		rc = ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	if (rc == 0 && ((rc = ti_outfile_prepare(&of, p)) < 0 ||
			(rc = ti_outfile_commit(&of, b.data ? b.data : "", b.len)) < 0))
		ti_drive_fail(d, rc, "%s: %s", p, strerror(-rc));
	ti_buf_free(&b);
	free(p);
	return rc;
}

int ti_drive_logs_resume(struct ti_drive *d)
{
	int rc;

	if ((rc = trim_log(d, "rounds.log", d->rounds)) < 0 ||
	    (rc = trim_log(d, "samples.tsv", d->rounds)) < 0)
		return rc;
	char *r = ti_drive_out_path(d, "rounds.log"), *s = ti_drive_out_path(d, "samples.tsv");
	if (r && s && (d->rounds_f = fopen(r, "a")) && !(d->samples_f = fopen(s, "a"))) {
		fclose(d->rounds_f);
		d->rounds_f = NULL;
	}
	if (!r || !s)
		rc = ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	else
		rc = d->samples_f ? 0 : ti_drive_fail(d, -errno, "%s: %s", d->rounds_f ? s : r,
						      strerror(errno));
	free(r);
	free(s);
	return rc;
}

/* OUT/NAME, malloc'd or NULL. */
static char *out_file(const char *out, const char *name)
{
	return ti_drive_fmt("%s/%s", out, name);
}

/* The whole of PATH, malloc'd and NUL-terminated, or NULL with errno. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	struct ti_buf b = { 0 };
	char chunk[4096];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		ti_buf_append(&b, chunk, n);
	int bad = ferror(f) || b.failed;
	fclose(f);
	if (!bad)
		ti_buf_append(&b, "", 1);
	if (bad || b.failed) {
		ti_buf_free(&b);
		errno = EIO;
		return NULL;
	}
	return b.data;
}

static int put(const char *out, const char *name, const char *text)
{
	struct ti_outfile of;
	char *p = out_file(out, name);
	int rc;

	if (!p)
		return -ENOMEM;
	if ((rc = ti_outfile_prepare(&of, p)) == 0)
		rc = ti_outfile_commit(&of, text, strlen(text));
	free(p);
	return rc;
}

int ti_drive_run_desc_write(const char *out, const char *desc)
{
	return put(out, TI_DRIVE_RUN_DESC, desc);
}

/* LINE (N bytes, "KEY\tVALUE"; NULL: none) for a message: KEY 'VALUE',
 * or nothing. */
static void say_line(const char *line, size_t n, char *out, size_t len)
{
	if (!line) {
		snprintf(out, len, "nothing");
		return;
	}
	const char *tab = memchr(line, '\t', n);
	if (tab)
		snprintf(out, len, "%.*s '%.*s'", (int)(tab - line), line, (int)(n - (size_t)(tab - line) - 1),
			 tab + 1);
	else
		snprintf(out, len, "%.*s", (int)n, line);
}

int ti_drive_run_desc_check(const char *out, const char *desc, char *err, size_t len)
{
	char *p = out_file(out, TI_DRIVE_RUN_DESC), *old = p ? slurp(p) : NULL;
	int e = errno;

	if (!p || !old) {
		if (p)
			snprintf(err, len, "%s: %s", p, strerror(e));
		free(p);
		return p ? -e : -ENOMEM;
	}
	const char *a = old, *b = desc;
	int rc = 0;
	while (*a || *b) {
		size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");
		if (na != nb || memcmp(a, b, na) != 0) {
			char was[512], now[512];
			say_line(*a ? a : NULL, na, was, sizeof was);
			say_line(*b ? b : NULL, nb, now, sizeof now);
			if (!*a)
				snprintf(err, len, "the run in %s has no %s", out, now);
			else if (!*b)
				snprintf(err, len, "the run in %s has %s, this one not", out, was);
			else
				snprintf(err, len, "the run in %s has %s, this one %s", out, was, now);
			rc = -EINVAL;
			break;
		}
		a += na + (a[na] == '\n');
		b += nb + (b[nb] == '\n');
	}
	free(old);
	free(p);
	return rc;
}

int ti_drive_run_finished(const char *out)
{
	char *p = out_file(out, TI_DRIVE_RUN_STATUS), *s = p ? slurp(p) : NULL;
	int st = -1;

	if (s && (s[0] == '0' || s[0] == '1') && (s[1] == '\n' || !s[1]))
		st = s[0] - '0';
	free(s);
	free(p);
	return st;
}

int ti_drive_run_finish(const char *out, int status)
{
	char s[16];

	snprintf(s, sizeof s, "%d\n", status);
	return put(out, TI_DRIVE_RUN_STATUS, s);
}
