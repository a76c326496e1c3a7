/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict-code.c: what the code says beside the times (verdict-int.h):
 * the binaries' identity, the instruction counts, valgrind's simulated
 * cycles and the caches it simulated.  Identical binaries are the same
 * code whatever the times say; an equal count is not (loop order, layout
 * and vector width change time at an equal count): it is a note. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "verdict-int.h"
#include "verdict.h"

/* Instruction counts within this relative difference are "the same
 * count": counts of one binary vary by a few hundred instructions (signal
 * delivery, page faults), far below 0.01 % of any benchmark. */
#define SAME_COUNT_TOLERANCE 1e-4

/* Median instruction count of a side: valgrind's when VG, else the
 * hardware counter's; NAN when no sample has it. */
static double insn_median(const struct ti_ab_bench *b, bool vg, double *scratch)
{
	size_t k = 0;

	for (size_t i = 0; i < b->n; i++) {
		double x = vg ? b->s[i].vg_insn : b->s[i].insn;
		if (!b->s[i].failed && !isnan(x))
			scratch[k++] = x;
	}
	return k ? ti_stats_median(scratch, k) : NAN;
}

/* Median estimated cycles of a side, NAN when no sample has them. */
static double est_median(const struct ti_ab_bench *b, double *scratch)
{
	size_t k = 0;

	for (size_t i = 0; i < b->n; i++)
		if (!b->s[i].failed && !isnan(b->s[i].est_cycles))
			scratch[k++] = b->s[i].est_cycles;
	return k ? ti_stats_median(scratch, k) : NAN;
}

/* valgrind's cache-simulation metrics: comparable only between runs that
 * simulated the same caches with the same weights. */
static bool cache_metric(const char *metric)
{
	return strcmp(metric, "valgrind-est-cycles") == 0 || strcmp(metric, "valgrind-i1-misses") == 0 ||
	       strcmp(metric, "valgrind-d1-misses") == 0 || strcmp(metric, "valgrind-ll-misses") == 0 ||
	       strcmp(metric, "valgrind-mispredicts") == 0;
}

/* The two sides of R simulated the same caches. */
static bool same_geometry(const struct ti_ab_row *r)
{
	return r->a->geometry && r->b->geometry && !r->a->geometry_mixed && !r->b->geometry_mixed &&
	       strcmp(r->a->geometry, r->b->geometry) == 0;
}

/* Instruction counts and binary identity: facts about the code, noted
 * beside the time verdict (equal counts are not the same code: loop
 * order, layout and vector width change time at an equal count). */
void ti_ab_code_classify(struct ti_ab_row *r, double *scratch)
{
	const struct ti_ab_bench *a = r->a, *b = r->b;
	double ia = insn_median(a, true, scratch), ib = insn_median(b, true, scratch);

	if (a->hash && b->hash && a->hash_kind == b->hash_kind && !a->hash_mixed &&
	    !b->hash_mixed)
		r->code = strcmp(a->hash, b->hash) == 0 ? TI_AB_CODE_SAME : TI_AB_CODE_CHANGED;
	/* valgrind's count is exact; the hardware one only when both lack it. */
	if (isnan(ia) || isnan(ib)) {
		ia = insn_median(a, false, scratch);
		ib = insn_median(b, false, scratch);
	}
	if (!isnan(ia) && !isnan(ib) && ia > 0)
		r->insn_change = ib / ia - 1;
	double ea = est_median(a, scratch), eb = est_median(b, scratch);
	if (!isnan(ea) && !isnan(eb) && ea > 0 && same_geometry(r))
		r->est_change = eb / ea - 1;
}

/* The metric is a cache simulation's and the sides simulated different
 * caches: R is missing. */
bool ti_ab_code_geometry(struct ti_ab_row *r, const struct ti_ab_config *c)
{
	const struct ti_ab_bench *a = r->a, *b = r->b;

	if (!cache_metric(c->metric) || same_geometry(r))
		return false;
	r->v = TI_AB_MISSING;
	r->n_a = a->ok;
	r->n_b = b->ok;
	if (a->geometry_mixed || b->geometry_mixed)
		REASON(r, "the runs of %s simulated different caches: not comparable",
		       a->geometry_mixed ? "A" : "B");
	else
		REASON(r, "cache geometries differ (A: %s; B: %s): not comparable",
		       a->geometry ? a->geometry : "none", b->geometry ? b->geometry : "none");
	return true;
}

/* Facts about the code and the samples, after the verdict. */
void ti_ab_code_annotate(struct ti_ab_row *r, const struct ti_ab_config *c,
			 struct ti_ab_result *res)
{
	bool same_count = !isnan(r->insn_change) && fabs(r->insn_change) <= SAME_COUNT_TOLERANCE;

	/* With the count as the metric the change says it all. */
	if (strstr(c->metric, "instructions"))
		r->insn_change = NAN, same_count = false;
	if (cache_metric(c->metric))
		r->est_change = NAN;
	/* The simulated cost beside the time: a time change the cost does
	 * not show is labelled as such. */
	if (!isnan(r->est_change)) {
		bool est_same = fabs(r->est_change) <= SAME_COUNT_TOLERANCE;
		if (est_same && (r->v == TI_AB_IMPROVED || r->v == TI_AB_REGRESSED))
			NOTE(r, "time changed, est. cycles unchanged");
		else if (est_same)
			NOTE(r, "est. cycles unchanged");
		else
			NOTE(r, "est. cycles %+.2f%%", 100 * r->est_change);
	}

	if (r->code == TI_AB_CODE_SAME) {
		res->same_binary++;
		r->time_v = r->v;
		if (r->v == TI_AB_IMPROVED || r->v == TI_AB_REGRESSED || r->v == TI_AB_UNDECIDED) {
			res->same_binary_sig += r->v != TI_AB_UNDECIDED;
			char was[sizeof r->reason];
			snprintf(was, sizeof was, "%s", r->reason);
			r->reason[0] = '\0';
			REASON(r, "same binary: the difference is the machine's (times alone: %s, %s)",
			       ti_ab_verdict_name[r->v], was);
			r->v = TI_AB_UNCHANGED;
			r->decidable = false;
		} else if (r->v == TI_AB_UNCHANGED) {
			char was[sizeof r->reason];
			snprintf(was, sizeof was, "%s", r->reason);
			r->reason[0] = '\0';
			REASON(r, "same binary; %s", was);
		}
	} else if (r->code == TI_AB_CODE_CHANGED && same_count) {
		NOTE(r, "code changed, same instruction count");
	} else if (same_count) {
		NOTE(r, "same instruction count");
	} else if (!isnan(r->insn_change)) {
		NOTE(r, "instructions %+.2f%%", 100 * r->insn_change);
	}
	if (r->flagged_a + r->flagged_b)
		NOTE(r, "%zu of %zu samples flagged", r->flagged_a + r->flagged_b,
		     r->a->ok + r->b->ok);
}

/* -m hash: the identity is the comparison. */
void ti_ab_code_identity(struct ti_ab_row *r)
{
	const struct ti_ab_bench *a = r->a, *b = r->b;

	if (!a->hash || !b->hash || a->hash_kind != b->hash_kind) {
		r->v = TI_AB_MISSING;
		REASON(r, "no comparable hash on %s", !a->hash ? "A" : !b->hash ? "B" : "both sides");
	} else if (a->hash_mixed || b->hash_mixed) {
		r->v = TI_AB_UNDECIDED;
		REASON(r, "the runs of %s report different binaries", a->hash_mixed ? "A" : "B");
	} else if (strcmp(a->hash, b->hash) == 0) {
		r->v = TI_AB_UNCHANGED;
		r->code = TI_AB_CODE_SAME;
		REASON(r, "same binary");
	} else {
		r->v = TI_AB_CHANGED;
		r->code = TI_AB_CODE_CHANGED;
		REASON(r, "binaries differ");
	}
}
