/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* vgcount.c: count instructions by running the command under cachegrind.
 *
 * Why cachegrind --cache-sim=no: its Ir count is the number of guest
 * instructions executed, exact and repeatable, and with the cache and
 * branch simulations off it is the cheapest valgrind tool that counts
 * (gzip -6 of 20 MB on the dev VM: native 0.93 s, --tool=none 2.6 s,
 * cachegrind --cache-sim=no 4.5 s, callgrind 15.4 s, lackey ~60 s).
 *
 * Valgrind facts this relies on (observed with 3.19, documented in the
 * Valgrind manual, "--trace-children" and "--log-file" %p):
 * - --trace-children=yes follows exec; forked children are always
 *   followed.  Each process writes its own out file when it exits, named
 *   by %p; a process that execs starts counting from zero again in its new
 *   image, and what it ran before the exec is not written.
 * - A child that forks without exec inherits its parent's counts at the
 *   fork, so summing would count the parent's instructions twice: such a
 *   tree is refused (TI_VGCOUNT_FORKED) rather than reported wrong.
 * - Each process's log starts "==PID== Command: ..." and "==PID== Parent
 *   PID: PPID", and "Using Valgrind-X.Y.Z and LibVEX".
 * Cachegrind's out file format (Cachegrind manual, "Output File Format"):
 * "cmd: ...", "events: Ir ...", count lines, and "summary: N ..." with one
 * total per event in the order of the events line. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spawn.h"
#include "vgcount.h"

#define CMD_MAX 512

struct proc {
	long pid, ppid;
	uint64_t ir;
	char cmd[CMD_MAX];
};

static bool executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int ti_vgcount_find(const char *name, char *out, size_t len)
{
	const char *path, *p;

	if (!name || !*name)
		name = "valgrind";
	if (strchr(name, '/')) {
		if (!executable(name) || strlen(name) >= len)
			return TI_VGCOUNT_NOT_FOUND;
		snprintf(out, len, "%s", name);
		return 0;
	}
	/* execvp's search: an unset PATH means "/bin:/usr/bin" (glibc), an
	 * empty element the current directory (POSIX). */
	path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	for (p = path;; p++) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		int w = n ? snprintf(out, len, "%.*s/%s", (int)n, p, name)
			  : snprintf(out, len, "%s", name);

		if (w > 0 && (size_t)w < len && executable(out))
			return 0;
		if (!end)
			break;
		p = end;
	}
	out[0] = '\0';
	return TI_VGCOUNT_NOT_FOUND;
}

static int parse_u64(const char *s, const char **end, uint64_t *v)
{
	uint64_t x = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*end = s;
	*v = x;
	return 0;
}

/* The text of line LINE (up to the newline) after PREFIX, or NULL. */
static const char *after(const char *line, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(line, prefix, n) == 0 ? line + n : NULL;
}

int ti_vgcount_parse(const char *text, uint64_t *ir, char *cmd, size_t len)
{
	int ir_index = -1;
	const char *line, *v;

	if (len)
		cmd[0] = '\0';
	for (line = text; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "") {
		size_t n = strcspn(line, "\n");

		if ((v = after(line, "cmd:")) != NULL) {
			while (*v == ' ')
				v++;
			n -= (size_t)(v - line);
			if (len)
				snprintf(cmd, len, "%.*s", (int)(n < len ? n : len - 1), v);
		} else if ((v = after(line, "events:")) != NULL) {
			/* The position of "Ir" among the event names. */
			int i = 0;
			ir_index = -1;
			while (v < line + n) {
				size_t w;
				while (*v == ' ')
					v++;
				w = strcspn(v, " \n");
				if (w == 0)
					break;
				if (w == 2 && strncmp(v, "Ir", 2) == 0) {
					ir_index = i;
					break;
				}
				v += w;
				i++;
			}
		} else if ((v = after(line, "summary:")) != NULL && ir_index >= 0) {
			uint64_t x;
			const char *end = v;

			for (int i = 0; i <= ir_index; i++) {
				while (*end == ' ')
					end++;
				if (parse_u64(end, &end, &x) < 0 ||
				    (*end != ' ' && *end != '\n' && *end != '\0'))
					return TI_VGCOUNT_BAD_OUTPUT;
			}
			*ir = x;
			return 0;
		}
	}
	return TI_VGCOUNT_BAD_OUTPUT;
}

/* The whole file PATH, NUL-terminated, in a malloc'd buffer, or NULL. */
static char *slurp(const char *path)
{
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 65536;
			if (!(nb = realloc(buf, cap + 1))) {
				free(buf);
				close(fd);
				return NULL;
			}
			buf = nb;
		}
		got = read(fd, buf + len, cap - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	if (got < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* From the log of one process: its parent's pid, and valgrind's version. */
static void read_log(const char *path, long *ppid, char *version, size_t vlen)
{
	char *text = slurp(path), *p;

	*ppid = -1;
	if (!text)
		return;
	if ((p = strstr(text, "== Parent PID: ")) != NULL)
		*ppid = strtol(p + strlen("== Parent PID: "), NULL, 10);
	if (version && (p = strstr(text, "Using Valgrind-")) != NULL) {
		p += strlen("Using Valgrind-");
		snprintf(version, vlen, "%.*s", (int)strcspn(p, " \n"), p);
	}
	free(text);
}

/* Remove the private directory DIR and what valgrind left in it. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d) {
		while ((e = readdir(d)) != NULL)
			if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
	rmdir(dir);
}

/* Sum the out files in DIR into RES; TOP is the first process's pid. */
static int collect(const char *dir, long top, struct ti_vgcount_result *res)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct proc *procs = NULL, *np;
	size_t n = 0, cap = 0;
	char path[PATH_MAX + 300];	/* DIR, a slash and a d_name */
	int rc = 0;

	if (!d) {
		res->what = dir;
		res->err = errno;
		return TI_VGCOUNT_SYSTEM;
	}
	while (rc == 0 && (e = readdir(d)) != NULL) {
		char *text, *end;
		long pid;

		if (strncmp(e->d_name, "cg.", 3) != 0)
			continue;
		pid = strtol(e->d_name + 3, &end, 10);
		if (*end != '\0')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			if (!(np = realloc(procs, cap * sizeof *procs))) {
				res->what = "malloc";
				res->err = ENOMEM;
				rc = TI_VGCOUNT_SYSTEM;
				break;
			}
			procs = np;
		}
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (!(text = slurp(path))) {
			res->what = "cachegrind output";
			res->err = errno ? errno : EIO;
			rc = TI_VGCOUNT_SYSTEM;
			break;
		}
		procs[n].pid = pid;
		rc = ti_vgcount_parse(text, &procs[n].ir, procs[n].cmd, sizeof procs[n].cmd);
		free(text);
		snprintf(path, sizeof path, "%s/log.%ld", dir, pid);
		read_log(path, &procs[n].ppid, pid == top ? res->version : NULL,
			 sizeof res->version);
		n++;
	}
	closedir(d);
	if (rc == 0 && n == 0)
		rc = TI_VGCOUNT_NO_OUTPUT;
	/* Every process valgrind started has a log; one without an out file
	 * never reached its exit (killed with the group when the command
	 * returned, or it exec'd a program valgrind does not trace), so the sum
	 * would silently lack its instructions. */
	if (rc == 0 && (d = opendir(dir)) != NULL) {
		while (rc == 0 && (e = readdir(d)) != NULL) {
			char *end;
			long pid;
			bool found = false;

			if (strncmp(e->d_name, "log.", 4) != 0)
				continue;
			pid = strtol(e->d_name + 4, &end, 10);
			if (*end != '\0')
				continue;
			for (size_t i = 0; i < n && !found; i++)
				found = procs[i].pid == pid;
			if (!found)
				rc = TI_VGCOUNT_INCOMPLETE;
		}
		closedir(d);
	}
	for (size_t i = 0; rc == 0 && i < n; i++) {
		/* A fork without exec: the child runs the same command as its
		 * parent and carries the parent's counts from before the fork. */
		for (size_t k = 0; k < n; k++)
			if (procs[k].pid == procs[i].ppid && strcmp(procs[k].cmd, procs[i].cmd) == 0)
				rc = TI_VGCOUNT_FORKED;
		if (res->instructions > UINT64_MAX - procs[i].ir)
			rc = TI_VGCOUNT_BAD_OUTPUT;
		res->instructions += procs[i].ir;
	}
	res->processes = (unsigned)n;
	if (rc != 0)
		res->instructions = 0;
	free(procs);
	return rc;
}

/* A private directory for valgrind's files, by absolute path: the command
 * may change directory. */
static int make_dir(char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	char cwd[PATH_MAX];
	int w;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (tmp[0] == '/') {
		w = snprintf(dir, len, "%s/timeit-vg.XXXXXX", tmp);
	} else {
		if (!getcwd(cwd, sizeof cwd))
			return -1;
		w = snprintf(dir, len, "%s/%s/timeit-vg.XXXXXX", cwd, tmp);
	}
	if (w < 0 || (size_t)w >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return mkdtemp(dir) ? 0 : -1;
}

static uint64_t scaled(uint64_t v)
{
	return v > UINT64_MAX / TI_VGCOUNT_SLOWDOWN ? UINT64_MAX : v * TI_VGCOUNT_SLOWDOWN;
}

int ti_vgcount_run(const struct ti_plan *plan, const struct ti_record *m,
		   const struct ti_vgcount_opts *o, struct ti_vgcount_result *res)
{
	char dir[PATH_MAX], outopt[PATH_MAX + 64], logopt[PATH_MAX + 64];
	char out_path[PATH_MAX + 16], err_path[PATH_MAX + 16];
	const char *fixed[] = { NULL, "--tool=cachegrind", "--cache-sim=no", "--branch-sim=no",
				"--trace-children=yes", outopt, logopt };
	const size_t nfixed = sizeof fixed / sizeof fixed[0];
	struct ti_plan vp = *plan;
	struct ti_child ch;
	struct ti_record r;
	struct ti_failure f = { 0 };
	char **argv;
	size_t argc = 0;

	memset(res, 0, sizeof *res);
	res->timeout_s = o->timeout_s;
	res->measured_status = m->status;
	/* A run that was cut short or never ran has nothing to compare with. */
	if (m->end != TI_END_EXITED && m->end != TI_END_SIGNALED)
		return res->rc = TI_VGCOUNT_SKIPPED;
	if (ti_vgcount_find(o->valgrind, res->valgrind, sizeof res->valgrind) < 0)
		return res->rc = TI_VGCOUNT_NOT_FOUND;
	if (make_dir(dir, sizeof dir) < 0) {
		res->what = "mkdtemp";
		res->err = errno;
		return res->rc = TI_VGCOUNT_SYSTEM;
	}

	while (plan->argv[argc])
		argc++;
	if (!(argv = calloc(nfixed + argc + 1, sizeof *argv))) {
		rmdir(dir);
		res->what = "malloc";
		res->err = ENOMEM;
		return res->rc = TI_VGCOUNT_SYSTEM;
	}
	fixed[0] = res->valgrind;
	snprintf(outopt, sizeof outopt, "--cachegrind-out-file=%s/cg.%%p", dir);
	/* Valgrind's own messages go to files of their own, never into the
	 * command's output. */
	snprintf(logopt, sizeof logopt, "--log-file=%s/log.%%p", dir);
	for (size_t i = 0; i < nfixed; i++)
		argv[i] = (char *)fixed[i];
	for (size_t i = 0; i < argc; i++)
		argv[nfixed + i] = plan->argv[i];
	vp.argv = argv;

	/* The measured run's output files stay its own: this run writes into
	 * regular files in the private directory (not /dev/null, which some
	 * programs detect and skip work for).  Unredirected stdin was the
	 * measured run's to consume: this run reads /dev/null. */
	snprintf(out_path, sizeof out_path, "%s/stdout", dir);
	snprintf(err_path, sizeof err_path, "%s/stderr", dir);
	if (!plan->redirect_input)
		vp.redirect_input = "/dev/null";
	vp.redirect_stdout = out_path;
	vp.redirect_stderr = plan->redirect_stderr && plan->redirect_stdout &&
			     strcmp(plan->redirect_stderr, plan->redirect_stdout) == 0
			     ? out_path : err_path;
	vp.timeout_s = o->timeout_s;
	/* Same limits, except: CPU time scales like the time limit, and the
	 * memory limits go, as valgrind's own memory would hit them first. */
	if (vp.limit_set[TI_LIMIT_CPU])
		vp.limit[TI_LIMIT_CPU] = scaled(vp.limit[TI_LIMIT_CPU]);
	vp.limit_set[TI_LIMIT_DATA] = vp.limit_set[TI_LIMIT_RSS] = false;

	memset(&r, 0, sizeof r);
	if (ti_spawn_start(&vp, &ch, &r, &f) < 0 || ti_spawn_run(&vp, &ch, &r, &f) < 0) {
		res->what = f.what;
		res->err = f.err;
		res->rc = TI_VGCOUNT_SYSTEM;
		goto out;
	}
	res->real_s = r.real_s;
	res->end = r.end;
	res->status = r.status;
	switch (r.end) {
	case TI_END_SETUP_FAILED:
		res->what = r.setup_what;
		res->err = r.setup_errno;
		res->rc = TI_VGCOUNT_SYSTEM;
		goto out;
	case TI_END_EXEC_FAILED:
		res->what = res->valgrind;
		res->err = r.setup_errno;
		res->rc = TI_VGCOUNT_EXEC;
		goto out;
	case TI_END_TIMEOUT:
		res->rc = TI_VGCOUNT_TIMEOUT;
		goto out;
	case TI_END_INTERRUPTED:
		res->rc = TI_VGCOUNT_INTERRUPTED;
		goto out;
	case TI_END_EXITED:
	case TI_END_SIGNALED:
		break;
	}
	/* A different end means a different execution: its count would not
	 * describe the measured run. */
	if (r.end != m->end || r.status != m->status) {
		res->rc = TI_VGCOUNT_STATUS;
		goto out;
	}
	res->rc = collect(dir, (long)r.pid, res);
out:
	free(argv);
	remove_dir(dir);
	return res->rc;
}

const char *ti_vgcount_strerror(int rc)
{
	switch (rc) {
	case TI_VGCOUNT_OK: return "success";
	case TI_VGCOUNT_NOT_FOUND: return "valgrind not found (install the package 'valgrind')";
	case TI_VGCOUNT_SYSTEM: return "system error";
	case TI_VGCOUNT_EXEC: return "valgrind could not be executed";
	case TI_VGCOUNT_TIMEOUT: return "the run under valgrind timed out";
	case TI_VGCOUNT_INTERRUPTED: return "the run under valgrind was interrupted";
	case TI_VGCOUNT_STATUS: return "the command ended differently under valgrind";
	case TI_VGCOUNT_NO_OUTPUT: return "valgrind wrote no cachegrind output";
	case TI_VGCOUNT_BAD_OUTPUT: return "unreadable cachegrind output";
	case TI_VGCOUNT_FORKED:
		return "a process forked without exec, so cachegrind would count its parent's "
		       "instructions twice";
	case TI_VGCOUNT_SKIPPED: return "the measured run did not run to its end";
	case TI_VGCOUNT_INCOMPLETE:
		return "a process under valgrind was killed before it could write its count";
	}
	return "unknown error";
}

void ti_vgcount_describe(const struct ti_vgcount_result *res, char *buf, size_t len)
{
	const char *what = ti_vgcount_strerror(res->rc);

	switch (res->rc) {
	case TI_VGCOUNT_SYSTEM:
	case TI_VGCOUNT_EXEC:
		snprintf(buf, len, "%s: %s: %s", what, res->what ? res->what : "?",
			 strerror(res->err));
		break;
	case TI_VGCOUNT_TIMEOUT:
		snprintf(buf, len, "%s (after %llu s; see --valgrind-timeout)", what,
			 (unsigned long long)res->timeout_s);
		break;
	case TI_VGCOUNT_STATUS:
		snprintf(buf, len, "%s (%s %d under valgrind, %d in the measured run)", what,
			 res->end == TI_END_SIGNALED ? "status" : "exit status", res->status,
			 res->measured_status);
		break;
	default:
		snprintf(buf, len, "%s", what);
		break;
	}
}

void ti_vgcount_json(struct ti_json *j, const char *key, const struct ti_vgcount_result *res)
{
	char msg[PATH_MAX + 256];

	ti_json_object(j, key);
	ti_json_string(j, "tool", "cachegrind");
	ti_json_string(j, "valgrind", res->valgrind[0] ? res->valgrind : NULL);
	ti_json_string(j, "version", res->version[0] ? res->version : NULL);
	if (res->rc == TI_VGCOUNT_OK) {
		ti_json_uint(j, "instructions", res->instructions);
		ti_json_uint(j, "processes", res->processes);
	} else {
		ti_json_string(j, "instructions", NULL);
	}
	ti_json_double(j, "real", res->real_s);
	ti_json_uint(j, "timeout", res->timeout_s);
	if (res->rc != TI_VGCOUNT_OK) {
		ti_vgcount_describe(res, msg, sizeof msg);
		ti_json_string(j, "error", msg);
	}
	ti_json_end(j, '}');
}
