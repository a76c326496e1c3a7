/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* series-lnt.c: a machine's history from an LNT server's REST API, v4
 * (series.h).  The owner of that API's answers.  Facts from llvm-lnt
 * (lnt/server/ui/api.py, docs/api.rst): every path starts
 * /api/db_DB/v4/SUITE/; GET machines/NAME answers {"machine": {...},
 * "runs": [{"id": N, "start_time": ..., ORDER_FIELD: ..., "order_by":
 * "ORDER_FIELD", ...}]}; GET samples?runid=A&runid=B... answers
 * {"samples": [{"id": .., "run_id": A, "name": TEST, ORDER_FIELD: ..,
 * METRIC: value, ...}]}, one row per sample, null fields left out; an
 * error is {"msg": ...} (flask_restful abort) with its HTTP status.
 *
 * HTTP is curl's, started without a shell: it is already what make submit
 * posts with, and it brings what a client of our own on sockets would
 * lack (https, proxies from the environment, IPv6, redirects, chunked
 * answers) for no code here.  Each run's rows become an LNT report (format
 * 2) that the LNT reader of lib/ab reads, so that LNT's metric names and
 * statuses have one owner. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "json.h"
#include "jsonread.h"
#include "read-int.h"
#include "record.h"
#include "series.h"

/* Run IDs a samples request names: its URL stays short (LNT's server and
 * proxies take a few kilobytes). */
#define BATCH 40

int ti_series_lnt_init(struct ti_series_lnt *l, const char *url, const char *machine,
		       double timeout, struct ti_ab_error *err)
{
	const char *db = strstr(url, "/db_");
	size_t rootlen;

	memset(l, 0, sizeof *l);
	l->machine = machine;
	l->timeout = timeout;
	l->max_bytes = (size_t)TI_SERIES_LNT_MAX_MB << 20;
	l->curl = "curl";
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)
		return ti_ab_read_error(err, url, 0, "not an http:// or https:// URL");
	/* http://HOST:PORT, or a URL of one database and suite (a submitRun
	 * URL, an /api/ one): /db_DB/v4/SUITE. */
	if (db) {
		char suite[128] = "";
		rootlen = (size_t)(db - url);
		if (rootlen >= 4 && strncmp(db - 4, "/api", 4) == 0)
			rootlen -= 4;
		if (sscanf(db, "/db_%127[^/]/v4/%127[^/?]", l->db, suite) != 2 || !suite[0])
			return ti_ab_read_error(err, url, 0, "expected .../db_NAME/v4/SUITE");
		snprintf(l->suite, sizeof l->suite, "%s", suite);
	} else {
		rootlen = strlen(url);
		snprintf(l->db, sizeof l->db, "default");
		snprintf(l->suite, sizeof l->suite, "nts");
	}
	while (rootlen > 0 && url[rootlen - 1] == '/')
		rootlen--;
	if (rootlen >= sizeof l->root)
		return ti_ab_read_error(err, url, 0, "URL too long");
	memcpy(l->root, url, rootlen);
	l->root[rootlen] = '\0';
	return 0;
}

/* Read all of OUT into B (at most MAX bytes: -EFBIG past them) and of
 * ERRFD into E; -errno on failure. */
static int drain(int out, int errfd, struct ti_buf *b, struct ti_buf *e, size_t max)
{
	struct pollfd p[2] = { { out, POLLIN, 0 }, { errfd, POLLIN, 0 } };
	char chunk[65536];

	while (p[0].fd >= 0 || p[1].fd >= 0) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t got = read(p[i].fd, chunk, sizeof chunk);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0)
				p[i].fd = -1;
			else if (!i && b->len + (size_t)got > max)
				return -EFBIG;
			else if (!i || e->len < 4096)
				ti_buf_append(i ? e : b, chunk, (size_t)got);
		}
	}
	return b->failed || e->failed ? -ENOMEM : 0;
}

/* GET URL with curl into BODY; the HTTP status into *STATUS.  Returns 0,
 * or an error with ERR naming URL and what curl said. */
static int get(const struct ti_series_lnt *l, const char *url, struct ti_buf *body, int *status,
	       struct ti_ab_error *err)
{
	char tmo[32];
	/* -q first: not the user's ~/.curlrc (curl(1)); -L: a server that
	 * moved (http to https) is followed, as a browser would. */
	char *argv[] = { (char *)l->curl, "-q", "-sS", "-L", "--max-redirs", "5", "--max-time", tmo,
			 "-H", "Accept: application/json",
			 "-w", "\n%{http_code}", (char *)url, NULL };
	struct ti_buf e = { 0 };
	int po[2], pe[2], rc, ws;
	pid_t pid;

	snprintf(tmo, sizeof tmo, "%g", l->timeout);
	if (pipe(po) < 0)
		return ti_ab_read_sys_error(err, url, errno);
	if (pipe(pe) < 0) {
		rc = errno;
		close(po[0]);
		close(po[1]);
		return ti_ab_read_sys_error(err, url, rc);
	}
	/* fork, not posix_spawn: <spawn.h> is shadowed by lib/measure/spawn.h on the
	 * include path. */
	if ((pid = fork()) < 0) {
		rc = errno;
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		return ti_ab_read_sys_error(err, url, rc);
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null < 0 || dup2(null, 0) < 0 || dup2(po[1], 1) < 0 || dup2(pe[1], 2) < 0)
			_exit(TI_STATUS_CANNOT_EXEC);
		close(po[0]);
		close(pe[0]);
		execvp(l->curl, argv);
		/* The parent reads this from the child's stderr. */
		dprintf(2, "cannot run %s: %s (--lnt reads with curl)", l->curl, strerror(errno));
		_exit(TI_STATUS_NOT_FOUND);
	}
	close(po[1]);
	close(pe[1]);
	rc = drain(po[0], pe[0], body, &e, l->max_bytes);
	if (rc == -EFBIG)
		kill(pid, SIGKILL);
	close(po[0]);
	close(pe[0]);
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	if (rc == 0 && (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)) {
		/* curl's own words: "curl: (7) Failed to connect to ...". */
		while (e.len && (e.data[e.len - 1] == '\n' || e.data[e.len - 1] == '\r'))
			e.len--;
		rc = ti_ab_read_error(err, url, 0, "%.*s", e.len ? (int)e.len : 28,
				      e.len ? e.data : "curl failed without a message");
	}
	ti_buf_free(&e);
	if (rc == -EFBIG)
		return ti_ab_read_error(err, url, 0, "the answer is larger than %zu MiB (--lnt-max)",
					l->max_bytes >> 20);
	if (rc < 0)
		return rc;
	/* The last line is the status curl appended (-w). */
	char *nl = body->len ? memrchr(body->data, '\n', body->len) : NULL;
	if (!nl || sscanf(nl + 1, "%d", status) != 1)
		return ti_ab_read_error(err, url, 0, "no HTTP status in curl's answer");
	body->len = (size_t)(nl - body->data);
	body->data[body->len] = '\0';
	return 0;
}

/* GET URL and parse its JSON object into TOP; an HTTP error becomes an
 * error naming the status and the server's "msg". */
static int get_json(const struct ti_series_lnt *l, const char *url, struct ti_jsonread_value *top,
		    struct ti_ab_error *err)
{
	struct ti_buf b = { 0 };
	struct ti_jsonread_error je;
	int status = 0, rc;

	ti_buf_append(&b, "", 0);
	if ((rc = get(l, url, &b, &status, err)) < 0)
		goto out;
	rc = b.len ? ti_jsonread_parse(b.data, b.len, top, &je) : -EINVAL;
	if (rc == -ENOMEM)
		goto out;
	if (status != 200) {
		const struct ti_jsonread_value *m = rc == 0 ? ti_jsonread_get(top, "msg") : NULL;
		if (m && m->type != TI_JSONREAD_STRING)
			m = NULL;
		if (!m && rc == 0)
			m = ti_jsonread_get(top, "message");
		bool parsed = rc == 0;
		rc = ti_ab_read_error(err, url, 0, "HTTP %d%s%s", status,
				      m && m->type == TI_JSONREAD_STRING ? ": " : "",
				      m && m->type == TI_JSONREAD_STRING ? m->str : "");
		if (parsed)
			ti_jsonread_free(top);
		goto out;
	}
	if (rc < 0) {
		rc = ti_ab_read_error(err, url, 0, "not JSON (line %d, column %d: %s): is this an LNT "
				      "server?", b.len ? je.line : 1, b.len ? je.column : 1,
				      b.len ? je.what : "empty answer");
		goto out;
	}
	if (top->type != TI_JSONREAD_OBJECT) {
		ti_jsonread_free(top);
		rc = ti_ab_read_error(err, url, 0, "the answer is not a JSON object");
	}
out:
	ti_buf_free(&b);
	return rc;
}

/* S into OUT with the bytes a URL path or query cannot hold as %XX (RFC
 * 3986), whole: a name cut short would ask for another machine. */
static void url_escape(struct ti_buf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    strchr("-._~", c))
			ti_buf_append(out, s, 1);
		else
			ti_buf_printf(out, "%%%02X", c);
	}
}

/* One run of the machine, as its list gives it. */
struct lnt_run {
	double id;
	const char *order, *start;
};

static int cmp_run(const void *a, const void *b)
{
	const struct lnt_run *x = a, *y = b;
	int c = ti_series_order_cmp(x->order, y->order);
	return c ? c : (x->id > y->id) - (x->id < y->id);
}

static const char *str_of(const struct ti_jsonread_value *v)
{
	return v && v->type == TI_JSONREAD_STRING ? v->str : "";
}

/* The runs of the machine's answer TOP, in LNT's order (by the order
 * field, then by ID: the order of submission), into *RUNS. */
static int run_list(const struct ti_jsonread_value *top, const char *url, struct lnt_run **runs,
		    size_t *n, struct ti_ab_error *err)
{
	const struct ti_jsonread_value *list = ti_jsonread_get(top, "runs");

	if (!list || list->type != TI_JSONREAD_ARRAY)
		return ti_ab_read_error(err, url, 0, "no \"runs\" list: is this LNT's v4 API?");
	if (list->n == 0)
		return ti_ab_read_error(err, url, 0, "the machine has no runs");
	if (!(*runs = calloc(list->n, sizeof **runs)))
		return -ENOMEM;
	for (size_t i = 0; i < list->n; i++) {
		const struct ti_jsonread_value *r = &list->items[i];
		char field[128];
		const struct ti_jsonread_value *id = ti_jsonread_get(r, "id");

		if (!id || id->type != TI_JSONREAD_NUMBER || id->num < 0 || id->num != floor(id->num))
			return ti_ab_read_error(err, url, r->line, "a run without a numeric \"id\"");
		/* "order_by": the order fields, comma-separated; the first decides. */
		snprintf(field, sizeof field, "%s", str_of(ti_jsonread_get(r, "order_by")));
		field[strcspn(field, ",")] = '\0';
		(*runs)[i] = (struct lnt_run){ id->num, str_of(ti_jsonread_get(r, field)),
					       str_of(ti_jsonread_get(r, "start_time")) };
	}
	qsort(*runs, list->n, sizeof **runs, cmp_run);
	*n = list->n;
	return 0;
}

/* A sample row's members that are not metrics. */
static bool not_metric(const char *key, const char *order_field)
{
	return strcmp(key, "id") == 0 || strcmp(key, "run_id") == 0 || strcmp(key, "name") == 0 ||
	       strcmp(key, order_field) == 0;
}

static int cmp_row(const void *a, const void *b)
{
	const struct ti_jsonread_value *x = *(const struct ti_jsonread_value *const *)a;
	const struct ti_jsonread_value *y = *(const struct ti_jsonread_value *const *)b;
	int c = strcmp(str_of(ti_jsonread_get(x, "name")), str_of(ti_jsonread_get(y, "name")));
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Whether no row of ROWS[I..F) has KEY: F's is its first. */
static bool first_of_key(const struct ti_jsonread_value *const *rows, size_t i, size_t f,
			 const char *key)
{
	for (size_t r = i; r < f; r++)
		if (ti_jsonread_get(rows[r], key))
			return false;
	return true;
}

/* Member K of row ROWS[F] into J: a string as it is, a metric as the
 * list of its values in the rows F..E of one test. */
static void metric_of(struct ti_json *j, const struct ti_jsonread_value *const *rows, size_t f,
		      size_t e, size_t k, const char *order_field)
{
	const char *key = rows[f]->keys[k];

	if (not_metric(key, order_field))
		return;
	if (rows[f]->items[k].type == TI_JSONREAD_STRING) {
		ti_json_string(j, key, rows[f]->items[k].str);
		return;
	}
	/* A row that carries a metric as null (LNT's rows may have every
	 * field of the suite) is written as null, for the reader to count
	 * what is left out (ti_ab_set.drop_nulls); a null status is no
	 * status, left out as before. */
	size_t kl = strlen(key);
	bool status = kl >= 7 && strcmp(key + kl - 7, "_status") == 0;
	ti_json_array(j, key);
	for (size_t r = f; r < e; r++) {
		const struct ti_jsonread_value *v = ti_jsonread_get(rows[r], key);
		if (v && v->type == TI_JSONREAD_NUMBER)
			ti_json_double(j, NULL, v->num);
		else if (v && v->type == TI_JSONREAD_NULL && !status)
			ti_json_string(j, NULL, NULL);
	}
	ti_json_end(j, ']');
}

/* The N rows of one run (sorted by test name) as an LNT report, format 2,
 * into OUT: a test a name, each metric a list of its samples' values. */
static void report_of(struct ti_buf *out, const struct ti_series_lnt *l, const struct lnt_run *run,
		      const char *order_field, const struct ti_jsonread_value *const *rows, size_t n)
{
	struct ti_json j;

	ti_json_init(&j, out);
	ti_json_object(&j, NULL);
	ti_json_string(&j, "format_version", "2");
	ti_json_object(&j, "machine");
	ti_json_string(&j, "name", l->machine);
	ti_json_end(&j, '}');
	ti_json_object(&j, "run");
	ti_json_string(&j, "llvm_project_revision", run->order);
	ti_json_string(&j, "start_time", run->start);
	ti_json_end(&j, '}');
	ti_json_array(&j, "tests");
	for (size_t i = 0; i < n;) {
		const char *name = str_of(ti_jsonread_get(rows[i], "name"));
		size_t e = i;
		while (e < n && strcmp(str_of(ti_jsonread_get(rows[e], "name")), name) == 0)
			e++;
		ti_json_object(&j, NULL);
		ti_json_string(&j, "name", name);
		/* The metrics of every row of the test, each a list: a row
		 * may carry some (a run of compiles only), the next others. */
		for (size_t f = i; f < e; f++)
			for (size_t k = 0; k < rows[f]->n; k++)
				if (first_of_key(rows, i, f, rows[f]->keys[k]))
					metric_of(&j, rows, f, e, k, order_field);
		ti_json_end(&j, '}');
		i = e;
	}
	ti_json_end(&j, ']');
	ti_json_end(&j, '}');
}

/* Read the report TEXT of RUN through the LNT reader (a temporary file:
 * the readers read files) and add it to H as the run at URL. */
static int add_report(struct ti_series_history *h, const struct ti_buf *text, const char *url,
		      const char *label, const char *metric, struct ti_ab_error *err)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	/* NaN refused as in timeit-series's files; the rows' nulls counted. */
	struct ti_ab_set set = { .refuse_nonfinite = true, .drop_nulls = true };
	int fd, rc;

	snprintf(path, sizeof path, "%s/timeit-series-XXXXXX", dir && *dir ? dir : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		return ti_ab_read_sys_error(err, path, errno);
	rc = write(fd, text->data, text->len) == (ssize_t)text->len ? 0 : -(errno ? errno : EIO);
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc < 0) {
		unlink(path);
		return ti_ab_read_sys_error(err, path, -rc);
	}
	rc = ti_ab_read(&set, path, metric, 1, err);
	unlink(path);
	if (rc >= 0)
		rc = ti_series_add(h, &set, url, label);
	else if (rc != -ENOMEM)
		snprintf(err->path, sizeof err->path, "%s", url);	/* not the temporary file */
	ti_ab_set_free(&set);
	return rc < 0 ? rc : 0;
}

/* The end of the group of runs from I (of N) that share an order: LNT
 * shows the runs of one order (several submitted with merge=append) as one
 * point, their samples together; so does the history. */
static size_t group_end(const struct lnt_run *runs, size_t i, size_t n)
{
	size_t j = i + 1;

	while (j < n && runs[i].order[0] && strcmp(runs[j].order, runs[i].order) == 0)
		j++;
	return j;
}

/* A sample row's run: LNT sends a number, a server may send it as a
 * string of digits; -1 for neither. */
static double run_id(const struct ti_jsonread_value *v)
{
	char *end;

	if (v && v->type == TI_JSONREAD_NUMBER)
		return v->num;
	if (!v || v->type != TI_JSONREAD_STRING || !v->str[0] || v->str[0] == '-')
		return -1;
	double d = strtod(v->str, &end);
	return *end || d != floor(d) ? -1 : d;
}

/* The runs FROM..TO of RUNS: one samples request, then one report for
 * each group of one order. */
static int read_batch(const struct ti_series_lnt *l, struct ti_series_history *h,
		      const struct lnt_run *runs, size_t from, size_t to, const char *metric,
		      struct ti_ab_error *err)
{
	struct ti_jsonread_value top;
	struct ti_buf url = { 0 };
	int rc;

	ti_buf_printf(&url, "%s/api/db_%s/v4/%s/samples", l->root, l->db, l->suite);
	for (size_t i = from; i < to; i++)
		ti_buf_printf(&url, "%srunid=%.0f", i == from ? "?" : "&", runs[i].id);
	if (url.failed)
		return -ENOMEM;
	if ((rc = get_json(l, url.data, &top, err)) < 0) {
		ti_buf_free(&url);
		return rc;
	}
	const struct ti_jsonread_value *s = ti_jsonread_get(&top, "samples");
	const struct ti_jsonread_value **rows = NULL;
	if (!s || s->type != TI_JSONREAD_ARRAY) {
		rc = ti_ab_read_error(err, url.data, 0, "no \"samples\" list: is this LNT's v4 API?");
		goto out;
	}
	if (!(rows = malloc((s->n ? s->n : 1) * sizeof *rows))) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = from, g; rc == 0 && i < to; i = g) {
		struct ti_buf rep = { 0 }, where = { 0 };
		size_t n = 0;
		g = group_end(runs, i, to);
		for (size_t k = 0; k < s->n; k++) {
			double id = run_id(ti_jsonread_get(&s->items[k], "run_id"));
			for (size_t r = i; r < g; r++)
				if (id == runs[r].id)
					rows[n++] = &s->items[k];
		}
		qsort(rows, n, sizeof *rows, cmp_row);
		ti_buf_printf(&where, "%s/api/db_%s/v4/%s/runs/%.0f", l->root, l->db, l->suite,
			      runs[i].id);
		char label[64];
		snprintf(label, sizeof label, "%.0f", runs[i].id);
		const char *lab = runs[i].order[0] ? runs[i].order : label;
		if (n == 0) {
			/* A run without samples: a night with nothing to say. */
			struct ti_ab_set none = { 0 };
			rc = where.failed ? -ENOMEM : ti_series_add(h, &none, where.data, lab);
		} else {
			report_of(&rep, l, &runs[i], l->order_field, rows, n);
			rc = rep.failed || where.failed ? -ENOMEM
				: add_report(h, &rep, where.data, lab, metric, err);
		}
		if (rc == 0)
			snprintf(h->runs[h->nruns - 1].info.machine,
				 sizeof h->runs[h->nruns - 1].info.machine, "%s", l->machine);
		ti_buf_free(&rep);
		ti_buf_free(&where);
	}
out:
	free(rows);
	ti_jsonread_free(&top);
	ti_buf_free(&url);
	return rc;
}

int ti_series_lnt_read(struct ti_series_lnt *l, struct ti_series_history *h, const char *metric,
		       void (*progress)(size_t done, size_t total, void *arg), void *arg,
		       struct ti_ab_error *err)
{
	struct ti_jsonread_value top;
	struct ti_buf url = { 0 };
	struct lnt_run *runs = NULL;
	size_t n = 0;
	int rc;

	ti_buf_printf(&url, "%s/api/db_%s/v4/%s/machines/", l->root, l->db, l->suite);
	url_escape(&url, l->machine);
	if (url.failed)
		return -ENOMEM;
	if ((rc = get_json(l, url.data, &top, err)) < 0)
		goto out;
	rc = run_list(&top, url.data, &runs, &n, err);
	if (rc == 0) {
		const struct ti_jsonread_value *r0 = &ti_jsonread_get(&top, "runs")->items[0];
		snprintf(l->order_field, sizeof l->order_field, "%s",
			 str_of(ti_jsonread_get(r0, "order_by")));
		l->order_field[strcspn(l->order_field, ",")] = '\0';
	}
	for (size_t i = 0, to; rc == 0 && i < n; i = to) {
		for (to = i; to < n && to - i < BATCH;)
			to = group_end(runs, to, n);
		rc = read_batch(l, h, runs, i, to, metric, err);
		if (rc == 0 && progress)
			progress(to, n, arg);
	}
	ti_jsonread_free(&top);
out:
	free(runs);
	ti_buf_free(&url);
	return rc;
}
