/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* perfcsv.c: perf stat -x output (tools/perf/Documentation/perf-stat.txt,
 * "CSV FORMAT": counter value, unit, event name, counter run time,
 * percentage of measurement time the counter was running, then metrics). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "perfcsv.h"

enum { F_VALUE, F_UNIT, F_EVENT, F_RUNTIME, F_PCT, NFIELDS };

/* A field as a finite number: digits first (perf's "<not counted>" is
 * none); *OK says whether it was one.  An overflow ("1e999") or a NaN is
 * none either: no count, no time. */
static double number(const char *s, size_t n, bool *ok)
{
	char buf[64], *end;
	double v;

	*ok = false;
	if (n == 0 || n >= sizeof buf || s[0] < '0' || s[0] > '9')
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	v = strtod(buf, &end);
	*ok = end != buf && isfinite(v);
	return *ok ? v : 0;
}

/* V as a count: negative or NaN is 0, beyond 2^64 the largest (a cast
 * of either would be undefined). */
static uint64_t to_u64(double v)
{
	if (!(v >= 0))
		return 0;
	if (v >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)v;
}

static bool field_is(const char *s, size_t n, const char *word)
{
	return n == strlen(word) && memcmp(s, word, n) == 0;
}

/* One event line's fields F (starts) and N (lengths) into the record. */
static void read_event(const char *f[], const size_t n[], size_t nf, const char *asked,
		       struct ti_record *r, struct ti_perfcsv_times *t)
{
	char name[TI_EVENT_NAME_MAX];
	size_t len = n[F_EVENT] < sizeof name ? n[F_EVENT] : sizeof name - 1;
	bool ok, ok_rt = false, ok_pct = false;
	double v = number(f[F_VALUE], n[F_VALUE], &ok);

	memcpy(name, f[F_EVENT], len);
	name[len] = '\0';
	/* perf_event_paranoid >= 2: perf counts user space only and says so
	 * with a ":u" on every name; the keys stay the names asked for. */
	if (len > 2 && strcmp(name + len - 2, ":u") == 0 && !(asked && strstr(asked, name)))
		name[len - 2] = '\0';
	if (strcmp(name, "duration_time") == 0 || strcmp(name, "user_time") == 0 ||
	    strcmp(name, "system_time") == 0) {
		/* perf prints "<not counted>" for a tool event that is 0: a
		 * user or system time of 0, but no wall time (timeit-perf's
		 * own clock stands). */
		double s = v / 1e9;
		if (name[0] == 'd')
			t->duration_s = ok ? s : t->duration_s;
		else if (name[0] == 'u')
			t->user_s = s;
		else
			t->sys_s = s;
		return;
	}
	if (r->ncounts >= TI_MAX_EVENTS)
		return;
	struct ti_count *k = &r->counts[r->ncounts++];
	memset(k, 0, sizeof *k);
	memcpy(k->name, name, strlen(name) + 1);
	double rt = nf > F_RUNTIME ? number(f[F_RUNTIME], n[F_RUNTIME], &ok_rt) : 0;
	double pct = nf > F_PCT ? number(f[F_PCT], n[F_PCT], &ok_pct) : 0;
	if (!ok_pct || pct <= 0)
		pct = 100;
	if (field_is(f[F_VALUE], n[F_VALUE], "<not supported>")) {
		k->err = ENOENT;
		return;
	}
	k->opened = true;
	/* The enabled time: run time over the fraction it ran. */
	if (nf > F_RUNTIME && ok_rt) {
		double en = rt / (pct / 100);
		if (en > t->seen_ns)
			t->seen_ns = en;
		k->running = to_u64(rt);
		k->enabled = to_u64(en + 0.5);
		if (pct >= 100)
			k->enabled = k->running;
	}
	if (!ok)
		return;
	k->counted = true;
	/* task-clock and cpu-clock come in ms; the record keeps ns. */
	k->scaled = ti_event_name_is_time(name) ? v * 1e6 : v;
	k->value = to_u64(k->scaled);
	if (!k->running)
		k->running = k->enabled = 1;
}

size_t ti_perfcsv_read(const char *text, size_t len, char sep, const char *asked,
		       struct ti_record *r, struct ti_perfcsv_times *t)
{
	const char *p = text, *end = text + len;
	size_t lines = 0;

	t->duration_s = t->user_s = t->sys_s = t->seen_ns = -1;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *f[NFIELDS];
		size_t n[NFIELDS], nf = 0;

		if (!eol)
			eol = end;
		if (p < eol && *p != '#') {
			for (const char *q = p; nf < NFIELDS; ) {
				const char *s = memchr(q, sep, (size_t)(eol - q));
				f[nf] = q;
				n[nf++] = (size_t)((s ? s : eol) - q);
				if (!s)
					break;
				q = s + 1;
			}
			if (nf > F_EVENT && n[F_EVENT] > 0) {
				read_event(f, n, nf, asked, r, t);
				lines++;
			}
		}
		p = eol + 1;
	}
	return lines;
}
