/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read-timeit.c: timeit --json files (timeit(1), JSON OUTPUT). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "read-int.h"
#include "read.h"
#include "summary.h"

/* The counter named EV in a timeit --json run's "counters" array, scaled;
 * time events are converted from ns to seconds like the summary does.
 * Counts that never multiplex have no "scaled" field, only "value": the
 * ones timeit takes from rusage (page-faults, context-switches: "source":
 * "rusage", lib/measure/summary.c ti_json_record). */
static double json_counter(const struct ti_jsonread_value *run, const char *ev)
{
	const struct ti_jsonread_value *c = ti_jsonread_get(run, "counters");

	if (!c || c->type != TI_JSONREAD_ARRAY)
		return NAN;
	for (size_t i = 0; i < c->n; i++) {
		const struct ti_jsonread_value *name = ti_jsonread_get(&c->items[i], "name");
		const struct ti_jsonread_value *counted = ti_jsonread_get(&c->items[i], "counted");

		if (!name || name->type != TI_JSONREAD_STRING || !ti_ab_read_is_event(name->str, ev))
			continue;
		if (!counted || counted->type != TI_JSONREAD_TRUE)
			return NAN;
		const struct ti_jsonread_value *sv = ti_jsonread_get(&c->items[i], "scaled");
		double v = ti_ab_read_number(sv ? sv : ti_jsonread_get(&c->items[i], "value"));
		if (ti_ab_read_is_event(ev, "task-clock") || ti_ab_read_is_event(ev, "cpu-clock"))
			v /= 1e9;
		return v;
	}
	return NAN;
}

/* A run's noise-screen bits: "noise": {"flags": N} (timeit(1), NOISE
 * SCREEN); 0 when the run has none. */
static unsigned noise_flags(const struct ti_jsonread_value *run)
{
	double f = ti_ab_read_number(ti_jsonread_get(ti_jsonread_get(run, "noise"), "flags"));
	return f >= 1 && f <= 65535 && f == floor(f) ? (unsigned)f : 0;
}

/* valgrind's counts as metrics: the summary's line, the "valgrind"
 * object's member (lib/measure/vgcount.c ti_vgcount_json); NULL for other
 * metrics. */
static const char *valgrind_field(const char *metric)
{
	static const struct {
		const char *key, *field;
	} map[] = {
		{ TI_KEY_VALGRIND_INSTRUCTIONS, "instructions" },
		{ TI_KEY_VALGRIND_EST_CYCLES, "est_cycles" },
		{ TI_KEY_VALGRIND_I1_MISSES, "i1_misses" },
		{ TI_KEY_VALGRIND_D1_MISSES, "d1_misses" },
		{ TI_KEY_VALGRIND_LL_MISSES, "ll_misses" },
		{ TI_KEY_VALGRIND_MISPREDICTS, "mispredicts" },
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(metric, map[i].key) == 0)
			return map[i].field;
	return NULL;
}

/* The simulated caches and weights of the "valgrind" object as
 * ti_ab_read_geometry writes them. */
static void geometry(const struct ti_jsonread_value *vg, char *out, size_t len)
{
	static const char *const level[] = { "I1", "D1", "LL" };
	static const char *const dim[] = { "size", "assoc", "line" };
	const struct ti_jsonread_value *caches = ti_jsonread_get(vg, "caches");
	const struct ti_jsonread_value *w = ti_jsonread_get(vg, "cost_weights");
	double geo[NGEO];

	for (int l = 0; l < 3; l++)
		for (int d = 0; d < 3; d++)
			geo[3 * l + d] = ti_ab_read_number(
				ti_jsonread_get(ti_jsonread_get(caches, level[l]), dim[d]));
	geo[9] = ti_ab_read_number(ti_jsonread_get(w, "l1"));
	geo[10] = ti_ab_read_number(ti_jsonread_get(w, "ll"));
	geo[11] = ti_ab_read_number(ti_jsonread_get(w, "mispredict"));
	ti_ab_read_geometry(geo, out, len);
}

/* timeit --json (timeit/timeit.c format_json): {"runs": [run, ...]}, each
 * run one sample of the benchmark named after the file.  valgrind counts
 * the command once per file, after the measured runs: top-level
 * "valgrind": {"instructions": N} (lib/measure/vgcount.c).  As the metric (named
 * like the summary's line) that count is one sample of the file, as it is
 * one line of a summary, however many runs the file has. */
bool ti_ab_read_timeit_probe(const struct ti_ab_input *in)
{
	return ti_jsonread_get(in->top, "runs") != NULL;
}

int ti_ab_read_timeit(struct ti_ab_set *set, const struct ti_ab_input *in,
		      struct ti_ab_error *err)
{
	const struct ti_jsonread_value *top = in->top;
	const char *path = in->path, *metric = in->metric;
	char name[TI_AB_NAME_MAX];
	const struct ti_jsonread_value *runs = ti_jsonread_get(top, "runs");
	const char *want = ti_ab_read_summary_key(metric);
	const struct ti_jsonread_value *valgrind = ti_jsonread_get(top, "valgrind");
	const struct ti_jsonread_value *vg = ti_jsonread_get(valgrind, "instructions");
	double vg_insn = ti_ab_read_number(vg);
	double est = ti_ab_read_number(ti_jsonread_get(valgrind, "est_cycles"));
	const char *field = valgrind_field(want);
	int nruns = 0;
	bool per_file = field != NULL;
	char g[256];

	ti_ab_bench_name(ti_ab_read_base_name(path), ".json", name, sizeof name, NULL);

	if (runs->type != TI_JSONREAD_ARRAY)
		return ti_ab_read_error(err, path, runs->line, "\"runs\" is %s, not an array",
			     ti_jsonread_a_type(runs->type));
	for (size_t i = 0; i < runs->n; i++) {
		const struct ti_jsonread_value *run = &runs->items[i], *st;
		struct ti_ab_sample s = ti_ab_read_sample();

		/* timeit --repeat ran them back to back: no round of the
		 * other side's shares a moment with one of them. */
		s.round = TI_AB_ROUND(in->pos, 0);
		if (run->type != TI_JSONREAD_OBJECT)
			return ti_ab_read_error(err, path, run->line, "run is %s, not an object",
				     ti_jsonread_a_type(run->type));
		st = ti_jsonread_get(run, "status");
		if (!st || st->type != TI_JSONREAD_NUMBER)
			return ti_ab_read_error(err, path, run->line, "run without a numeric \"status\"");
		nruns++;
		if (per_file) {
			/* The runs only tell whether the benchmark failed. */
			s.failed = st->num != 0;
			if (s.failed && ti_ab_set_add_run(set, name, s, path) < 0)
				return -ENOMEM;
			continue;
		}
		const struct ti_jsonread_value *mv = ti_jsonread_get(run, want);
		if (ti_ab_read_nonfinite(mv)) {
			int rc = ti_ab_read_add_nonfinite(set, err, path, mv->line, name, s, want,
							  mv->num);
			if (rc < 0)
				return rc;
			continue;
		}
		s.value = ti_ab_read_number(mv);
		if (isnan(s.value))
			s.value = json_counter(run, want);
		if (s.value < 0)
			return ti_ab_read_negative(err, path, run->line, name, want, s.value);
		s.insn = json_counter(run, "instructions");
		s.vg_insn = vg_insn;
		s.est_cycles = est;
		s.flags = noise_flags(run);
		s.failed = st->num != 0;
		if (ti_ab_set_add_run(set, name, s, path) < 0)
			return -ENOMEM;
	}
	if (nruns == 0)
		return ti_ab_read_error(err, path, runs->line, "no runs");
	if (!isnan(est)) {
		geometry(valgrind, g, sizeof g);
		if (ti_ab_set_add_geometry(set, name, g) < 0)
			return -ENOMEM;
	}
	if (per_file) {
		const struct ti_jsonread_value *fv = ti_jsonread_get(valgrind, field);
		struct ti_ab_sample s = ti_ab_read_sample();
		s.value = ti_ab_read_number(fv);
		s.vg_insn = vg_insn;
		s.est_cycles = est;
		s.round = TI_AB_ROUND(in->pos, 0);
		if (s.value < 0)
			return ti_ab_read_negative(err, path, fv->line, name, want, s.value);
		if (ti_ab_set_add_run(set, name, s, path) < 0)
			return -ENOMEM;
		return 1;
	}
	return nruns;
}
