/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* summary.c: summary file, stderr report and JSON record writers. */
#include "config.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "events.h"
#include "noise.h"
#include "repeat.h"
#include "summary.h"
#include "vgcount.h"

const char *const ti_summary_reserved[TI_KEY_NRESERVED] = {
	TI_KEY_EXIT, TI_KEY_REAL, TI_KEY_USER, TI_KEY_SYS, TI_KEY_MAXRSS,
};

void ti_summary_key(const char *name, char *out, size_t len)
{
	size_t at = 0;

	if (len == 0)
		return;
	for (size_t i = 0; i < TI_KEY_NRESERVED; i++) {
		if (strncmp(name, ti_summary_reserved[i], strlen(ti_summary_reserved[i])) == 0) {
			snprintf(out, len, "%s", TI_KEY_EVENT_ESCAPE);
			at = strlen(out);
			break;
		}
	}
	/* A key is one word of printable ASCII: a blank, a control character
	 * or a byte of UTF-8 (from perf's own event names, say) would break
	 * the "key value" line the readers split. */
	for (; *name && at + 1 < len; name++)
		out[at++] = *name > ' ' && *name <= '~' ? *name : '_';
	out[at] = '\0';
}

/* The lines after the events and the --repeat statistics, in file order.
 * VALUE says whether the line is there and gives its number (ARG picks
 * among the values of one getter).  A new key is one row here (and its
 * TI_KEY_ name in summary.h for the readers). */
struct tail_line {
	const char *key;
	bool in_report;		/* also in the stderr report */
	bool (*value)(const struct ti_summary *s, int arg, uint64_t *v);
	int arg;
};

static bool noise_flags(const struct ti_summary *s, int arg, uint64_t *v)
{
	(void)arg;
	*v = s->noise_flags;
	return !s->no_noise_screen;
}

static bool valgrind_instructions(const struct ti_summary *s, int arg, uint64_t *v)
{
	(void)arg;
	if (!s->vg || s->vg->rc != TI_VGCOUNT_OK)
		return false;
	*v = s->vg->instructions;
	return true;
}

/* --count-instructions=valgrind-cache: the misses of cache level ARG. */
static bool valgrind_misses(const struct ti_summary *s, int arg, uint64_t *v)
{
	if (!s->vg || s->vg->rc != TI_VGCOUNT_OK || !s->vg->cache_sim)
		return false;
	*v = ti_vgcount_misses(&s->vg->totals, (enum ti_vgcount_level)arg);
	return true;
}

static bool valgrind_mispredicts(const struct ti_summary *s, int arg, uint64_t *v)
{
	(void)arg;
	if (!s->vg || s->vg->rc != TI_VGCOUNT_OK || !s->vg->cache_sim)
		return false;
	*v = ti_vgcount_mispredicts(&s->vg->totals);
	return true;
}

static bool valgrind_est_cycles(const struct ti_summary *s, int arg, uint64_t *v)
{
	(void)arg;
	if (!s->vg || s->vg->rc != TI_VGCOUNT_OK || !s->vg->cache_sim)
		return false;
	*v = s->vg->est_cycles;
	return true;
}

/* The geometry simulated: ARG is level x 3 + 0 (size), 1 (ways), 2 (line). */
static bool valgrind_cache(const struct ti_summary *s, int arg, uint64_t *v)
{
	const struct ti_vgcount_cache *c;

	if (!s->vg || s->vg->rc != TI_VGCOUNT_OK || !s->vg->cache_sim)
		return false;
	c = &s->vg->totals.cache[arg / 3];
	*v = arg % 3 == 0 ? c->size : arg % 3 == 1 ? c->assoc : c->line;
	return true;
}

/* The weights of est-cycles: ARG 0 per L1 miss, 1 per last-level miss, 2
 * per mispredicted branch. */
static bool valgrind_weight(const struct ti_summary *s, int arg, uint64_t *v)
{
	if (!s->vg || s->vg->rc != TI_VGCOUNT_OK || !s->vg->cache_sim)
		return false;
	*v = arg == 0 ? s->vg->weights.l1 : arg == 1 ? s->vg->weights.ll : s->vg->weights.mispredict;
	return true;
}

static const struct tail_line tail[] = {
	{ TI_KEY_NOISE_FLAGS, false, noise_flags, 0 },
	{ TI_KEY_VALGRIND_INSTRUCTIONS, true, valgrind_instructions, 0 },
	{ TI_KEY_VALGRIND_I1_MISSES, true, valgrind_misses, TI_VG_I1 },
	{ TI_KEY_VALGRIND_D1_MISSES, true, valgrind_misses, TI_VG_D1 },
	{ TI_KEY_VALGRIND_LL_MISSES, true, valgrind_misses, TI_VG_LL },
	{ TI_KEY_VALGRIND_MISPREDICTS, true, valgrind_mispredicts, 0 },
	{ TI_KEY_VALGRIND_EST_CYCLES, true, valgrind_est_cycles, 0 },
	{ TI_KEY_VALGRIND_I1_SIZE, false, valgrind_cache, TI_VG_I1 * 3 + 0 },
	{ TI_KEY_VALGRIND_I1_ASSOC, false, valgrind_cache, TI_VG_I1 * 3 + 1 },
	{ TI_KEY_VALGRIND_I1_LINE, false, valgrind_cache, TI_VG_I1 * 3 + 2 },
	{ TI_KEY_VALGRIND_D1_SIZE, false, valgrind_cache, TI_VG_D1 * 3 + 0 },
	{ TI_KEY_VALGRIND_D1_ASSOC, false, valgrind_cache, TI_VG_D1 * 3 + 1 },
	{ TI_KEY_VALGRIND_D1_LINE, false, valgrind_cache, TI_VG_D1 * 3 + 2 },
	{ TI_KEY_VALGRIND_LL_SIZE, false, valgrind_cache, TI_VG_LL * 3 + 0 },
	{ TI_KEY_VALGRIND_LL_ASSOC, false, valgrind_cache, TI_VG_LL * 3 + 1 },
	{ TI_KEY_VALGRIND_LL_LINE, false, valgrind_cache, TI_VG_LL * 3 + 2 },
	{ TI_KEY_VALGRIND_WEIGHT_L1, false, valgrind_weight, 0 },
	{ TI_KEY_VALGRIND_WEIGHT_LL, false, valgrind_weight, 1 },
	{ TI_KEY_VALGRIND_WEIGHT_MISPREDICT, false, valgrind_weight, 2 },
};

static void format_tail(struct ti_buf *b, const struct ti_summary *s, bool report)
{
	for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++) {
		uint64_t v;

		if ((!report || tail[i].in_report) && tail[i].value(s, tail[i].arg, &v))
			ti_buf_printf(b, "%-10s %" PRIu64 "\n", tail[i].key, v);
	}
}

/* The --repeat lines: n-runs, then min- and mad- of every metric.  Times
 * as their summary lines print them: real/user/sys %.4f, task-clock %.6f;
 * counts as integers, their MAD to 0.1. */
static void format_repeat(struct ti_buf *b, const struct ti_repeat_agg *a, bool maxrss)
{
	ti_buf_printf(b, "%-10s %zu\n", TI_KEY_N_RUNS, a->n);
	for (size_t i = 0; i < a->nmetrics; i++) {
		const struct ti_repeat_metric *m = &a->metric[i];
		char key[sizeof m->key + 8];

		if (!maxrss && strcmp(m->key, TI_KEY_MAXRSS) == 0)
			continue;
		snprintf(key, sizeof key, "%s%s", TI_KEY_MIN_PREFIX, m->key);
		if (m->is_time && i < 3)
			ti_buf_printf(b, "%-10s %.4f\n", key, m->min);
		else if (m->is_time)
			ti_buf_printf(b, "%-10s %.6f\n", key, m->min / 1e9);
		else
			ti_buf_printf(b, "%-10s %.0f\n", key, m->min);
		snprintf(key, sizeof key, "%s%s", TI_KEY_MAD_PREFIX, m->key);
		if (m->is_time && i < 3)
			ti_buf_printf(b, "%-10s %.4f\n", key, m->mad);
		else if (m->is_time)
			ti_buf_printf(b, "%-10s %.6f\n", key, m->mad / 1e9);
		else
			ti_buf_printf(b, "%-10s %.1f\n", key, m->mad);
	}
}

void ti_summary_format(struct ti_buf *b, const struct ti_summary *s)
{
	const struct ti_record *r = s->r;

	/* The reference's format strings, unchanged. */
	ti_buf_printf(b, "%s %d\n", TI_KEY_EXIT, r->status);
	ti_buf_printf(b, "%-10s %.4f\n", TI_KEY_REAL, r->real_s);
	ti_buf_printf(b, "%-10s %.4f\n", TI_KEY_USER, r->user_s);
	ti_buf_printf(b, "%-10s %.4f\n", TI_KEY_SYS, r->sys_s);
	if (s->report_maxrss)
		ti_buf_printf(b, "%-10s %" PRIu64 "\n", TI_KEY_MAXRSS, r->maxrss_bytes);

	for (size_t i = 0; i < r->ncounts; i++) {
		const struct ti_count *k = &r->counts[i];
		char key[TI_EVENT_NAME_MAX + 8];

		if (!k->counted)
			continue;
		ti_summary_key(k->name, key, sizeof key);
		if (ti_event_name_is_time(k->name))
			ti_buf_printf(b, "%-10s %.6f\n", key, k->scaled / 1e9);
		else
			ti_buf_printf(b, "%-10s %.0f\n", key, k->scaled);
		if (k->running < k->enabled)
			ti_buf_printf(b, "%s%s %.4f\n", key, TI_KEY_RUNNING_SUFFIX,
				      (double)k->running / (double)k->enabled);
	}
	if (r->tsc_valid)
		ti_buf_printf(b, "%-10s %" PRIu64 "\n", TI_KEY_TSC_TICKS, r->tsc_ticks);
	if (s->repeat)
		format_repeat(b, s->repeat, s->report_maxrss);
	format_tail(b, s, false);
}

void ti_report_format(struct ti_buf *b, const struct ti_summary *s, bool posix)
{
	const struct ti_record *r = s->r;

	if (posix) {
		ti_buf_printf(b, "real %12.4f\nuser %12.4f\nsys  %12.4f\n",
			      r->real_s, r->user_s, r->sys_s);
	} else {
		ti_buf_printf(b, "%12.4f real %12.4f user %12.4f sys", r->real_s, r->user_s,
			      r->sys_s);
		if (s->report_maxrss)
			ti_buf_printf(b, " %12" PRIu64 " maxrss", r->maxrss_bytes);
		ti_buf_printf(b, "\n");
		if (s->repeat)
			format_repeat(b, s->repeat, s->report_maxrss);
	}
	format_tail(b, s, true);
}

static const char *end_name(enum ti_end e)
{
	switch (e) {
	case TI_END_EXITED: return "exited";
	case TI_END_SIGNALED: return "signaled";
	case TI_END_TIMEOUT: return "timeout";
	case TI_END_INTERRUPTED: return "interrupted";
	case TI_END_EXEC_FAILED: return "exec-failed";
	case TI_END_SETUP_FAILED: return "setup-failed";
	}
	return "unknown";
}

static void json_time(struct ti_json *j, const char *key, int64_t ns)
{
	char s[64];
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	gmtime_r(&t, &tm);
	size_t n = strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(s + n, sizeof s - n, ".%06dZ", (int)(ns % 1000000000 / 1000));
	ti_json_string(j, key, s);
}

void ti_json_record(struct ti_json *j, const char *key, const struct ti_record *r)
{
	ti_json_object(j, key);
	ti_json_int(j, "status", r->status);
	ti_json_string(j, "end", end_name(r->end));
	if (r->end == TI_END_EXITED)
		ti_json_int(j, "exit_code", r->exit_code);
	if (r->end == TI_END_SIGNALED)
		ti_json_int(j, "signal", r->term_signal);
	if (r->end == TI_END_INTERRUPTED)
		ti_json_int(j, "stop_signal", r->stop_signal);
	ti_json_bool(j, "timed_out", r->end == TI_END_TIMEOUT);
	if (r->end == TI_END_EXEC_FAILED || r->end == TI_END_SETUP_FAILED) {
		ti_json_string(j, "failed", r->setup_what);
		ti_json_string(j, "error", strerror(r->setup_errno));
	}
	ti_json_int(j, "pid", r->pid);
	ti_json_double(j, "real", r->real_s);
	ti_json_double(j, "user", r->user_s);
	ti_json_double(j, "sys", r->sys_s);
	ti_json_uint(j, "maxrss", r->maxrss_bytes);
	ti_json_string(j, "source", r->source == TI_SOURCE_PERF ? "perf:task-clock" : "rusage");
	json_time(j, "start_time", r->start_realtime_ns);
	json_time(j, "end_time", r->end_realtime_ns);

	ti_json_object(j, "rusage");
	ti_json_double(j, "utime", ti_tv_s(r->ru.ru_utime));
	ti_json_double(j, "stime", ti_tv_s(r->ru.ru_stime));
	ti_json_int(j, "maxrss_kib", r->ru.ru_maxrss);
	ti_json_int(j, "minflt", r->ru.ru_minflt);
	ti_json_int(j, "majflt", r->ru.ru_majflt);
	ti_json_int(j, "inblock", r->ru.ru_inblock);
	ti_json_int(j, "oublock", r->ru.ru_oublock);
	ti_json_int(j, "nvcsw", r->ru.ru_nvcsw);
	ti_json_int(j, "nivcsw", r->ru.ru_nivcsw);
	ti_json_end(j, '}');

	ti_json_array(j, "counters");
	for (size_t i = 0; i < r->ncounts; i++) {
		const struct ti_count *k = &r->counts[i];

		ti_json_object(j, NULL);
		ti_json_string(j, "name", k->name);
		ti_json_bool(j, "counted", k->counted);
		if (k->from_rusage) {
			ti_json_string(j, "source", "rusage");
			ti_json_uint(j, "value", k->value);
			ti_json_end(j, '}');
			continue;
		}
		if (k->opened) {
			ti_json_uint(j, "value", k->value);
			ti_json_uint(j, "enabled", k->enabled);
			ti_json_uint(j, "running", k->running);
			if (k->counted) {
				ti_json_double(j, "scaled", k->scaled);
				ti_json_double(j, "running_fraction",
					       k->enabled ? (double)k->running / (double)k->enabled : 1.0);
			}
			ti_json_bool(j, "user_only", k->user_only);
			if (k->lost)
				ti_json_bool(j, "lost", true);
		}
		if (k->err)
			ti_json_string(j, "skipped", strerror(k->err));
		ti_json_end(j, '}');
	}
	ti_json_end(j, ']');
	if (r->counters_err)
		ti_json_string(j, "counters_error", strerror(r->counters_err));
	if (r->counters_seen >= 0) {
		ti_json_double(j, "counters_seen", r->counters_seen);
		ti_json_bool(j, "counters_lost", r->counters_lost);
	}

	ti_json_object(j, "tsc");
	ti_json_string(j, "kind", r->tsc_kind);
	ti_json_bool(j, "used", r->tsc_valid);
	if (r->tsc_valid)
		ti_json_uint(j, "ticks", r->tsc_ticks);
	ti_json_end(j, '}');
	if (r->no_aslr_errno)
		ti_json_string(j, "no_aslr_error", strerror(r->no_aslr_errno));
	ti_noise_json(j, "noise", r);
	ti_json_end(j, '}');
}

void ti_json_host(struct ti_json *j, const char *key, const struct ti_host *h)
{
	ti_json_object(j, key);
	ti_json_string(j, "hostname", h->hostname);
	ti_json_string(j, "kernel", h->kernel);
	ti_json_string(j, "arch", h->arch);
	ti_json_string(j, "cpu_model", h->cpu_model);
	ti_json_int(j, "cpus", h->ncpus);
	if (h->perf_event_paranoid != -100)
		ti_json_int(j, "perf_event_paranoid", h->perf_event_paranoid);
	else
		ti_json_string(j, "perf_event_paranoid", NULL);
	ti_json_end(j, '}');
}
