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
#include "summary.h"

void ti_summary_key(const char *name, char *out, size_t len)
{
	/* lit keeps every line starting with "user" and asserts there is one;
	 * old Makefiles grep ^exit, ^real, ^user (spec/compat.md). */
	static const char *const reserved[] = { "user", "exit", "real", "sys", "maxrss" };

	for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {
		if (strncmp(name, reserved[i], strlen(reserved[i])) == 0) {
			snprintf(out, len, "ev-%s", name);
			return;
		}
	}
	snprintf(out, len, "%s", name);
}

void ti_summary_format(struct ti_buf *b, const struct ti_record *r,
		       const struct ti_summary_opts *o)
{
	/* The reference's format strings, unchanged. */
	ti_buf_printf(b, "exit %d\n", r->status);
	ti_buf_printf(b, "%-10s %.4f\n", "real", r->real_s);
	ti_buf_printf(b, "%-10s %.4f\n", "user", r->user_s);
	ti_buf_printf(b, "%-10s %.4f\n", "sys", r->sys_s);
	if (o->report_maxrss)
		ti_buf_printf(b, "%-10s %" PRIu64 "\n", "maxrss", r->maxrss_bytes);

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
			ti_buf_printf(b, "%s-running %.4f\n", key,
				      (double)k->running / (double)k->enabled);
	}
	if (r->tsc_valid)
		ti_buf_printf(b, "%-10s %" PRIu64 "\n", "tsc-ticks", r->tsc_ticks);
}

void ti_report_format(struct ti_buf *b, const struct ti_record *r, bool posix,
		      const struct ti_summary_opts *o)
{
	if (posix) {
		ti_buf_printf(b, "real %12.4f\nuser %12.4f\nsys  %12.4f\n",
			      r->real_s, r->user_s, r->sys_s);
		return;
	}
	ti_buf_printf(b, "%12.4f real %12.4f user %12.4f sys", r->real_s, r->user_s, r->sys_s);
	if (o->report_maxrss)
		ti_buf_printf(b, " %12" PRIu64 " maxrss", r->maxrss_bytes);
	ti_buf_printf(b, "\n");
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
		}
		if (k->err)
			ti_json_string(j, "skipped", strerror(k->err));
		ti_json_end(j, '}');
	}
	ti_json_end(j, ']');
	if (r->counters_err)
		ti_json_string(j, "counters_error", strerror(r->counters_err));

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
