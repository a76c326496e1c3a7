/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read-value.c: a format's values and statuses as runs (read-int.h): the
 * numbers a reader takes and the ones it refuses, the keys and events a
 * metric is read from, and the one rule of every reader for a
 * benchmark's passing and failed runs. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jsonread.h"
#include "read-int.h"
#include "summary.h"

struct ti_ab_sample ti_ab_read_sample(void)
{
	return (struct ti_ab_sample){ .value = NAN, .insn = NAN, .vg_insn = NAN, .est_cycles = NAN };
}

void ti_ab_read_geometry(const double *geo, char *out, size_t len)
{
	static const char *const what[NGEO] = {
		"I1=", ",", ",", " D1=", ",", ",", " LL=", ",", ",", " weights=", ",", ",",
	};
	size_t o = 0;

	out[0] = '\0';
	for (int i = 0; i < NGEO && o < len; i++) {
		int w = isnan(geo[i]) ? snprintf(out + o, len - o, "%s?", what[i])
				      : snprintf(out + o, len - o, "%s%.0f", what[i], geo[i]);
		if (w < 0)
			break;
		o += (size_t)w;
	}
}

/* The summary key a metric is read from: exec_time is what lit takes, the
 * user line (timeit(1), SUMMARY FILE); compile_KEY and link_KEY any other
 * key of the compile's or link's summaries (compile_valgrind-instructions). */
const char *ti_ab_read_summary_key(const char *metric)
{
	static const struct {
		const char *metric, *key;
	} map[] = {
		{ "exec_time", TI_KEY_USER },	/* lit's exec_time is the user line */
		{ "compile_time", TI_KEY_USER },	/* of the compile's summary */
		{ "link_time", TI_KEY_USER },
		{ "compile_wall", TI_KEY_REAL },
		{ "link_wall", TI_KEY_REAL },
		{ "compile_maxrss", TI_KEY_MAXRSS },
		{ "link_maxrss", TI_KEY_MAXRSS },
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(metric, map[i].metric) == 0)
			return map[i].key;
	if (strncmp(metric, "compile_", 8) == 0 && metric[8])
		return metric + 8;
	if (strncmp(metric, "link_", 5) == 0 && metric[5])
		return metric + 5;
	return metric;
}

/* KEY names event EV, possibly with perf modifiers ("instructions:u"). */
bool ti_ab_read_is_event(const char *key, const char *ev)
{
	size_t n = strlen(ev);
	return strncmp(key, ev, n) == 0 && (key[n] == '\0' || key[n] == ':');
}

/* A summary value: a plain non-negative decimal number, digits with at
 * most one point ("12", "0.0450", ".5").  timeit writes no other form, and
 * lit reads the user line with the pattern [0-9.]+ (llvm-test-suite
 * litsupport/modules/timeit.py): a sign, an exponent, hex or "inf" would
 * be read differently, or not at all, there. */
bool ti_ab_read_plain(const char *s, double *out)
{
	size_t digits = 0, points = 0;
	char *end;

	for (const char *p = s; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '.' && points++ == 0)
			continue;
		else
			return false;
	}
	if (digits == 0)
		return false;
	errno = 0;
	*out = strtod(s, &end);
	return *end == '\0' && errno != ERANGE && isfinite(*out);
}

double ti_ab_read_number(const struct ti_jsonread_value *v)
{
	return v && v->type == TI_JSONREAD_NUMBER ? v->num : NAN;
}

/* Times, sizes and counts are not negative: a metric below 0 in a JSON
 * file is malformed, as "-1" is on a summary line (parse_plain). */
int ti_ab_read_negative(struct ti_ab_error *err, const char *path, int line,
		    const char *name, const char *key, double v)
{
	return ti_ab_read_error(err, path, line, "%s: %s: negative value %g", name, key, v);
}


bool ti_ab_read_nonfinite(const struct ti_jsonread_value *v)
{
	return v && v->type == TI_JSONREAD_NUMBER && !isfinite(v->num);
}

int ti_ab_read_add_nonfinite(struct ti_ab_set *set, struct ti_ab_error *err, const char *path,
			     int line, const char *name, struct ti_ab_sample s, const char *key,
			     double v)
{
	const char *what = isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
	char where[4400];

	if (set->refuse_nonfinite)
		return ti_ab_read_error(err, path, line, "%s: %s is %s, not a finite number", name,
					key, what);
	snprintf(where, sizeof where, "%s: %s is %s", path, key, what);
	s.failed = true;
	return ti_ab_set_add_run(set, name, s, where);
}

/* One number X of a metric: a run, a failed one when X is not finite
 * (an error when SET refuses those). */
static int add_number(struct ti_ab_set *set, const struct ti_ab_input *in, const char *name,
		      struct ti_ab_sample s, const struct ti_jsonread_value *x,
		      struct ti_ab_error *err)
{
	int rc;

	if (ti_ab_read_nonfinite(x))
		return (rc = ti_ab_read_add_nonfinite(set, err, in->path, x->line, name, s, in->metric,
						      x->num)) < 0 ? rc : 1;
	if (x->num < 0)
		return ti_ab_read_negative(err, in->path, x->line, name, in->metric, x->num);
	s.value = x->num;
	return ti_ab_set_add_run(set, name, s, in->path) < 0 ? -ENOMEM : 1;
}

/* A status sample that is present and not a pass (0, or "PASS"). */
static bool failing(const struct ti_jsonread_value *v)
{
	return v && !(v->type == TI_JSONREAD_NUMBER && v->num == 0) &&
	       !(v->type == TI_JSONREAD_STRING && strcasecmp(v->str, "PASS") == 0);
}

/* How many runs STATUS says failed: each failing entry of a list, one for
 * a failing single status. */
size_t ti_ab_read_failures(const struct ti_jsonread_value *status)
{
	size_t f = 0;

	if (!status || status->type != TI_JSONREAD_ARRAY)
		return failing(status);
	for (size_t i = 0; i < status->n; i++)
		f += failing(&status->items[i]);
	return f;
}

/* The rule of every reader for a benchmark of some runs that passed and
 * some that failed: the values of the passing runs are samples, each
 * failed run is counted as one.  V: a number or a list (LNT format 2
 * lists the samples of a test), NULL: no value; STATUS: NULL (all
 * passed), one status, or one per sample.  A status list as long as V's
 * pairs with it (sample I failed when status I did); otherwise V holds
 * the passing runs only (as the suite's report.json and LNT's converters
 * write them) and the failures are further runs. */
int ti_ab_read_add_values(struct ti_ab_set *set, const struct ti_ab_input *in, const char *name,
			  const struct ti_jsonread_value *v, const struct ti_jsonread_value *status,
			  struct ti_ab_error *err)
{
	struct ti_ab_sample s = ti_ab_read_sample();
	size_t failed = ti_ab_read_failures(status);
	bool paired = failed && v && v->type == TI_JSONREAD_ARRAY && status->type == TI_JSONREAD_ARRAY &&
		      status->n == v->n;
	int total = 0, rc;

	s.round = TI_AB_ROUND(in->pos, 0);
	if (v && v->type != TI_JSONREAD_NUMBER && v->type != TI_JSONREAD_ARRAY)
		return ti_ab_read_error(err, in->path, v->line, "%s: metric is %s, not a number",
					name, ti_jsonread_a_type(v->type));
	if (v && v->type == TI_JSONREAD_NUMBER && (rc = add_number(set, in, name, s, v, err)) < 0)
		return rc;
	if (v && v->type == TI_JSONREAD_NUMBER)
		total++;
	for (size_t i = 0; v && v->type == TI_JSONREAD_ARRAY && i < v->n; i++) {
		const struct ti_jsonread_value *x = &v->items[i];
		if (x->type == TI_JSONREAD_NULL && set->drop_nulls) {
			if (ti_ab_set_add_null(set, name) < 0)
				return -ENOMEM;
			continue;
		}
		if (x->type != TI_JSONREAD_NUMBER)
			return ti_ab_read_error(err, in->path, x->line, "%s: sample is %s, not a number",
						name, ti_jsonread_a_type(x->type));
		/* One run's samples (LNT's multisample, the suite's RUNS=N) ran
		 * back to back on one side: no pairs with the other's. */
		s.round = TI_AB_ROUND(in->pos, 0);
		if (paired && failing(&status->items[i])) {
			struct ti_ab_sample f = s;
			f.failed = true;
			if (ti_ab_set_add_run(set, name, f, in->path) < 0)
				return -ENOMEM;
		} else if ((rc = add_number(set, in, name, s, x, err)) < 0) {
			return rc;
		}
		total++;
	}
	/* The failed runs the values do not stand for. */
	for (size_t i = 0; !paired && i < failed; i++, total++) {
		s = ti_ab_read_sample();
		s.failed = true;
		s.round = TI_AB_ROUND(in->pos, 0);
		if (ti_ab_set_add_run(set, name, s, in->path) < 0)
			return -ENOMEM;
	}
	/* No samples and no failure: the test is there, its metric is not. */
	if (total == 0) {
		s = ti_ab_read_sample();
		s.round = TI_AB_ROUND(in->pos, 0);
		if (ti_ab_set_add_run(set, name, s, in->path) < 0)
			return -ENOMEM;
		total = 1;
	}
	return total;
}

const struct ti_jsonread_value *ti_ab_read_tests(const struct ti_ab_input *in,
						 struct ti_ab_error *err, int *rc)
{
	const struct ti_jsonread_value *tests = ti_jsonread_get(in->top, "tests");

	if (tests->type != TI_JSONREAD_ARRAY)
		*rc = ti_ab_read_error(err, in->path, tests->line, "\"tests\" is %s, not an array",
				       ti_jsonread_a_type(tests->type));
	else if (tests->n == 0)
		*rc = ti_ab_read_no_tests(err, in->path, tests->line);
	else
		return tests;
	return NULL;
}
