/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* vgcount.c: count instructions, and with the cache simulation the misses,
 * by running the command under cachegrind.
 *
 * Why cachegrind --cache-sim=no: its Ir count is the number of guest
 * instructions executed, exact and repeatable, and with the cache and
 * branch simulations off it is the cheapest valgrind tool that counts
 * (gzip -6 of 20 MB on the dev VM: native 0.93 s, --tool=none 2.6 s,
 * cachegrind --cache-sim=no 4.5 s, callgrind 15.4 s, lackey ~60 s).
 * With --cache-sim=yes the same run also simulates an I1, a D1 and a
 * last-level cache, deterministically: the same binary and input give the
 * same misses on every run (docs/cost.md has what it costs).
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
 * "desc:" lines, "cmd: ...", "events: Ir ...", count lines, and
 * "summary: N ..." with one total per event in the order of the events
 * line.  Cachegrind 3.19 writes the simulated caches as desc lines,
 * "desc: I1 cache:         32768 B, 64 B, 8-way associative" (size, line,
 * ways; "direct-mapped" for one way), after adjusting a last-level cache
 * whose set count is not a power of two. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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
	struct ti_vgcount_totals t;
	char cmd[CMD_MAX];
};

static bool executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* PATH (LEN bytes) made absolute against the current directory.  The
 * extra run executes valgrind in the --chdir directory: a relative path
 * found here would name another file there, or none. */
static int absolute(char *path, size_t len)
{
	char cwd[PATH_MAX], rel[PATH_MAX];
	int w;

	if (path[0] == '/')
		return 0;
	if (!getcwd(cwd, sizeof cwd) || strlen(path) >= sizeof rel)
		return -1;
	strcpy(rel, path);
	w = snprintf(path, len, "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd,
		     strncmp(rel, "./", 2) == 0 ? rel + 2 : rel);
	return w > 0 && (size_t)w < len ? 0 : -1;
}

int ti_vgcount_find(const char *name, char *out, size_t len)
{
	const char *path, *p;

	if (!name || !*name)
		name = "valgrind";
	if (strchr(name, '/')) {
		if (!executable(name) || strlen(name) >= len)
			goto none;
		snprintf(out, len, "%s", name);
		if (absolute(out, len) < 0)
			goto none;
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
			  : snprintf(out, len, "./%s", name);

		if (w > 0 && (size_t)w < len && executable(out) && absolute(out, len) == 0)
			return 0;
		if (!end)
			break;
		p = end;
	}
none:
	out[0] = '\0';
	return TI_VGCOUNT_NOT_FOUND;
}

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

/* Add the counts of one process, P, to SUM (FIRST: SUM is still empty).
 * An event counts only when every process has it; the caches must be the
 * same in every process, or no sum describes one machine. */
static int add_totals(struct ti_vgcount_totals *sum, const struct ti_vgcount_totals *p,
		      bool first)
{
	if (first) {
		*sum = *p;
		return 0;
	}
	if (memcmp(sum->cache, p->cache, sizeof sum->cache) != 0)
		return TI_VGCOUNT_BAD_OUTPUT;
	sum->have &= p->have;
	for (int e = 0; e < TI_VG_NEVENTS; e++) {
		if (sum->ev[e] > UINT64_MAX - p->ev[e])
			return TI_VGCOUNT_BAD_OUTPUT;
		sum->ev[e] += p->ev[e];
	}
	return 0;
}

/* Sum the out files in DIR into RES; TOP is the first process's pid, KILLED
 * whether processes of its group outlived it (killed then). */
static int collect(const char *dir, long top, bool killed, struct ti_vgcount_result *res)
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
		rc = ti_vgcount_parse(text, &procs[n].t, procs[n].cmd, sizeof procs[n].cmd);
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
	 * would silently lack its instructions.  One killed with the group
	 * before valgrind opened its log left nothing: the kill tells. */
	if (rc == 0 && killed)
		rc = TI_VGCOUNT_INCOMPLETE;
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
		if (rc == 0)
			rc = add_totals(&res->totals, &procs[i].t, i == 0);
	}
	res->processes = (unsigned)n;
	res->instructions = rc == 0 ? res->totals.ev[TI_VG_IR] : 0;
	free(procs);
	return rc;
}

/* With the cache and branch simulations: every miss event, every branch
 * event and every cache's geometry in the totals, and the estimated cycles
 * from them. */
static int cache_counts(struct ti_vgcount_result *res)
{
	static const enum ti_vgcount_event need[] = {
		TI_VG_I1MR, TI_VG_ILMR, TI_VG_DR, TI_VG_D1MR, TI_VG_DLMR,
		TI_VG_DW, TI_VG_D1MW, TI_VG_DLMW, TI_VG_BC, TI_VG_BCM, TI_VG_BI, TI_VG_BIM,
	};

	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
		if (!(res->totals.have & (1u << need[i])))
			return TI_VGCOUNT_BAD_OUTPUT;
	for (int l = 0; l < TI_VG_NLEVELS; l++)
		if (!res->totals.cache[l].size)
			return TI_VGCOUNT_BAD_OUTPUT;
	if (ti_vgcount_est_cycles(&res->totals, &res->weights, &res->est_cycles) < 0)
		return TI_VGCOUNT_BAD_OUTPUT;
	return 0;
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

/* Whether a log in DIR says valgrind itself ran out of memory (its
 * message "Valgrind's memory management: out of memory"): under
 * --limit-data-size its own memory counts against the limit too. */
static bool out_of_memory(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX + 300];
	bool oom = false;

	if (!d)
		return false;
	while (!oom && (e = readdir(d)) != NULL) {
		char *text;

		if (strncmp(e->d_name, "log.", 4) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if ((text = slurp(path)) != NULL) {
			oom = strstr(text, "Valgrind's memory management: out of memory") != NULL;
			free(text);
		}
	}
	closedir(d);
	return oom;
}

/* Cachegrind's options for a cache geometry, "--I1=SIZE,ASSOC,LINE". */
static void cache_option(char *buf, size_t len, enum ti_vgcount_level l,
			 const struct ti_vgcount_cache *c)
{
	snprintf(buf, len, "--%s=%llu,%llu,%llu", ti_vgcount_level_name(l),
		 (unsigned long long)c->size, (unsigned long long)c->assoc,
		 (unsigned long long)c->line);
}

/* The count run's plan: valgrind's command line around the command's, the
 * measured run's limits and timeout, its output into DIR.  ARGV (malloc'd)
 * holds the words; *VP points into it and into the caller's buffers. */
struct count_plan {
	char outopt[PATH_MAX + 64], logopt[PATH_MAX + 64];
	char out_path[PATH_MAX + 16], err_path[PATH_MAX + 16];
	char cacheopt[TI_VG_NLEVELS][80];
	char **argv;
	struct ti_plan vp;
};

static int plan_count_run(struct count_plan *cp, const char *dir, const struct ti_plan *plan,
			  const struct ti_vgcount_opts *o, struct ti_vgcount_result *res)
{
	const char *fixed[4 + TI_VG_NLEVELS + 3];
	size_t nfixed = 0, argc = 0;

	fixed[nfixed++] = res->valgrind;
	fixed[nfixed++] = "--tool=cachegrind";
	fixed[nfixed++] = o->cache_sim ? "--cache-sim=yes" : "--cache-sim=no";
	fixed[nfixed++] = o->cache_sim ? "--branch-sim=yes" : "--branch-sim=no";
	for (int l = 0; o->cache_sim && l < TI_VG_NLEVELS; l++) {
		if (!o->cache[l].size)
			continue;
		cache_option(cp->cacheopt[l], sizeof cp->cacheopt[l], (enum ti_vgcount_level)l,
			     &o->cache[l]);
		fixed[nfixed++] = cp->cacheopt[l];
	}
	fixed[nfixed++] = "--trace-children=yes";
	fixed[nfixed++] = cp->outopt;
	fixed[nfixed++] = cp->logopt;
	while (plan->argv[argc])
		argc++;
	if (!(cp->argv = calloc(nfixed + argc + 1, sizeof *cp->argv))) {
		res->what = "malloc";
		res->err = ENOMEM;
		return -1;
	}
	snprintf(cp->outopt, sizeof cp->outopt, "--cachegrind-out-file=%s/cg.%%p", dir);
	/* Valgrind's own messages go to files of their own, never into the
	 * command's output. */
	snprintf(cp->logopt, sizeof cp->logopt, "--log-file=%s/log.%%p", dir);
	for (size_t i = 0; i < nfixed; i++)
		cp->argv[i] = (char *)fixed[i];
	for (size_t i = 0; i < argc; i++)
		cp->argv[nfixed + i] = plan->argv[i];
	cp->vp = *plan;
	cp->vp.argv = cp->argv;

	/* The measured run's output files stay its own: this run writes into
	 * regular files in the private directory (not /dev/null, which some
	 * programs detect and skip work for).  Unredirected stdin was the
	 * measured run's to consume: this run reads /dev/null. */
	snprintf(cp->out_path, sizeof cp->out_path, "%s/stdout", dir);
	snprintf(cp->err_path, sizeof cp->err_path, "%s/stderr", dir);
	if (!plan->redirect_input)
		cp->vp.redirect_input = "/dev/null";
	cp->vp.redirect_stdout = cp->out_path;
	cp->vp.redirect_stderr = plan->redirect_stderr && plan->redirect_stdout &&
				 strcmp(plan->redirect_stderr, plan->redirect_stdout) == 0
				 ? cp->out_path : cp->err_path;
	/* Every limit is the measured run's: the count never costs more CPU
	 * time, memory or files than the user allowed the command. */
	cp->vp.timeout_s = o->timeout_s;
	return 0;
}

/* Run the count into R; 0 when it ran to an end worth reading (exited,
 * or killed by a signal that is not the CPU limit), else RES->rc. */
static int run_count(const struct ti_plan *vp, struct ti_record *r, struct ti_vgcount_result *res)
{
	struct ti_child ch;
	struct ti_failure f = { 0 };

	memset(r, 0, sizeof *r);
	if (ti_spawn_start(vp, &ch, r, &f) < 0 || ti_spawn_run(vp, &ch, r, &f) < 0) {
		/* A stop signal while a FIFO redirect waited to open. */
		if (f.what == ti_spawn_stopped)
			return res->rc = TI_VGCOUNT_INTERRUPTED;
		if (f.what == ti_spawn_timed_out)
			return res->rc = TI_VGCOUNT_TIMEOUT;
		res->what = f.what;
		res->err = f.err;
		return res->rc = TI_VGCOUNT_SYSTEM;
	}
	res->real_s = r->real_s;
	res->end = r->end;
	res->status = r->status;
	switch (r->end) {
	case TI_END_SETUP_FAILED:
		res->what = r->setup_what;
		res->err = r->setup_errno;
		return res->rc = TI_VGCOUNT_SYSTEM;
	case TI_END_EXEC_FAILED:
		res->what = res->valgrind;
		res->err = r->setup_errno;
		return res->rc = TI_VGCOUNT_EXEC;
	case TI_END_TIMEOUT:
		return res->rc = TI_VGCOUNT_TIMEOUT;
	case TI_END_INTERRUPTED:
		return res->rc = TI_VGCOUNT_INTERRUPTED;
	case TI_END_SIGNALED:
		/* RLIMIT_CPU ends a process with SIGXCPU at the soft limit and
		 * SIGKILL at the hard one (setrlimit(2)); timeit sets both.
		 * rusage reads low against the kernel's own account, the more
		 * so under load (killed at a limit of 1 s: 0.82-1.00 s at a
		 * load of 5, where SIGCHLD's si_utime + si_stime said 1.00):
		 * half the limit tells the limit from another killer. */
		if (res->limit_cpu && (r->term_signal == SIGKILL || r->term_signal == SIGXCPU) &&
		    ti_tv_s(r->ru.ru_utime) + ti_tv_s(r->ru.ru_stime) >= (double)res->limit_cpu * 0.5)
			return res->rc = TI_VGCOUNT_CPU_LIMIT;
		break;
	case TI_END_EXITED:
		break;
	}
	return 0;
}

/* The count of run R, read from cachegrind's files in DIR, when R ended
 * as the measured run M did: a different end means a different execution,
 * whose count would not describe the measured run. */
static int read_count(const char *dir, const struct ti_record *r, const struct ti_record *m,
		      const struct ti_vgcount_opts *o, struct ti_vgcount_result *res)
{
	if (r->end != m->end || r->status != m->status)
		return res->rc = out_of_memory(dir) ? TI_VGCOUNT_NO_MEMORY : TI_VGCOUNT_STATUS;
	res->rc = collect(dir, (long)r->pid, r->group_killed, res);
	if (res->rc == 0 && o->cache_sim)
		res->rc = cache_counts(res);
	return res->rc;
}

int ti_vgcount_run(const struct ti_plan *plan, const struct ti_record *m,
		   const struct ti_vgcount_opts *o, struct ti_vgcount_result *res)
{
	char dir[PATH_MAX];
	struct count_plan cp;
	struct ti_record r;

	memset(res, 0, sizeof *res);
	res->timeout_s = o->timeout_s;
	res->measured_status = m->status;
	res->cache_sim = o->cache_sim;
	res->weights = o->weights;
	if (plan->limit_set[TI_LIMIT_CPU])
		res->limit_cpu = plan->limit[TI_LIMIT_CPU];
	/* Only a run that ended normally is worth counting: one that was
	 * killed (by --limit-cpu, --timeout, a crash) would be killed again,
	 * after costing many times as long (timeit(1), INSTRUCTION COUNTS). */
	if (m->end != TI_END_EXITED)
		return res->rc = TI_VGCOUNT_SKIPPED;
	/* Interrupted after the measured run: no new run, as between runs. */
	if (ti_spawn_stop_signal())
		return res->rc = TI_VGCOUNT_INTERRUPTED;
	if (ti_vgcount_find(o->valgrind, res->valgrind, sizeof res->valgrind) < 0)
		return res->rc = TI_VGCOUNT_NOT_FOUND;
	if (make_dir(dir, sizeof dir) < 0) {
		res->what = "mkdtemp";
		res->err = errno;
		return res->rc = TI_VGCOUNT_SYSTEM;
	}
	if (plan_count_run(&cp, dir, plan, o, res) < 0) {
		rmdir(dir);
		return res->rc = TI_VGCOUNT_SYSTEM;
	}
	if (run_count(&cp.vp, &r, res) == 0)
		read_count(dir, &r, m, o, res);
	free(cp.argv);
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
	case TI_VGCOUNT_SKIPPED: return "the measured run did not exit normally";
	case TI_VGCOUNT_INCOMPLETE:
		return "a process under valgrind was killed before it could write its count";
	case TI_VGCOUNT_CPU_LIMIT: return "the run under valgrind reached --limit-cpu";
	case TI_VGCOUNT_NO_MEMORY: return "valgrind ran out of memory";
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
	case TI_VGCOUNT_CPU_LIMIT:
		snprintf(buf, len, "%s (%llu s of CPU time, as the measured run)", what,
			 (unsigned long long)res->limit_cpu);
		break;
	case TI_VGCOUNT_NO_MEMORY:
		snprintf(buf, len, "%s (--limit-data-size applies to valgrind's own memory too)",
			 what);
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
	bool ok = res->rc == TI_VGCOUNT_OK;

	ti_json_object(j, key);
	ti_json_string(j, "tool", "cachegrind");
	ti_json_string(j, "valgrind", res->valgrind[0] ? res->valgrind : NULL);
	ti_json_string(j, "version", res->version[0] ? res->version : NULL);
	ti_json_bool(j, "cache_sim", res->cache_sim);
	if (ok) {
		ti_json_uint(j, "instructions", res->instructions);
		ti_json_uint(j, "processes", res->processes);
	} else {
		ti_json_string(j, "instructions", NULL);
	}
	if (res->cache_sim) {
		/* The summary's lines, then everything they come from. */
		if (ok) {
			ti_json_uint(j, "i1_misses", ti_vgcount_misses(&res->totals, TI_VG_I1));
			ti_json_uint(j, "d1_misses", ti_vgcount_misses(&res->totals, TI_VG_D1));
			ti_json_uint(j, "ll_misses", ti_vgcount_misses(&res->totals, TI_VG_LL));
			ti_json_uint(j, "mispredicts", ti_vgcount_mispredicts(&res->totals));
			ti_json_uint(j, "est_cycles", res->est_cycles);
		} else {
			ti_json_string(j, "est_cycles", NULL);
		}
		ti_json_object(j, "cost_weights");
		ti_json_uint(j, "l1", res->weights.l1);
		ti_json_uint(j, "ll", res->weights.ll);
		ti_json_uint(j, "mispredict", res->weights.mispredict);
		ti_json_end(j, '}');
		if (ok) {
			ti_json_object(j, "events");
			for (int e = 0; e < TI_VG_NEVENTS; e++)
				if (res->totals.have & (1u << e))
					ti_json_uint(j, ti_vgcount_event_name(e), res->totals.ev[e]);
			ti_json_end(j, '}');
			ti_json_object(j, "caches");
			for (int l = 0; l < TI_VG_NLEVELS; l++) {
				const struct ti_vgcount_cache *c = &res->totals.cache[l];

				ti_json_object(j, ti_vgcount_level_name(l));
				ti_json_uint(j, "size", c->size);
				ti_json_uint(j, "assoc", c->assoc);
				ti_json_uint(j, "line", c->line);
				ti_json_end(j, '}');
			}
			ti_json_end(j, '}');
		}
	}
	ti_json_double(j, "real", res->real_s);
	ti_json_uint(j, "timeout", res->timeout_s);
	if (!ok) {
		ti_vgcount_describe(res, msg, sizeof msg);
		ti_json_string(j, "error", msg);
	}
	ti_json_end(j, '}');
}
