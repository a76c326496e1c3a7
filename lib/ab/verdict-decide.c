/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* verdict-decide.c: the verdict of a benchmark once its p-value is
 * adjusted (verdict-int.h).  A change is called when it is significant,
 * its estimate reaches the gate and, with an A/A pair, passes its noise
 * floor; "unchanged" only when the equivalence interval (1 - 2 alpha',
 * the two one-sided tests) lies within the gate; otherwise undecided,
 * with the reason more samples would or would not help.  The reasons
 * write a change as the reports do (report-cell.h). */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "report-cell.h"
#include "verdict-int.h"
#include "verdict.h"

/* Comparisons with the gate allow for the rounding of the ratio itself:
 * 1.01 / 1.00 is 1.0100000000000000089 or 1.00999999999999998 depending
 * on the operands' representation, and a change of exactly the gate must
 * come out the same way every time.  A change counts as at least the gate
 * when it is within this relative margin of it. */
#define GATE_TOLERANCE 1e-9

/* The fewest pairs (or samples a side) that show a change within the
 * gate: the equivalence test on 1 degree of freedom is not enough. */
#define TI_AB_EQ_MIN 3

/* |expm1(L)| reaches the gate G (a fraction). */
static bool beyond_gate(double l, double g)
{
	double e = fabs(expm1(l));
	return g > 0 ? e >= g * (1 - GATE_TOLERANCE) : e > 0;
}

/* The interval LO..HI (ln) lies within +-G. */
static bool within_gate(double lo, double hi, double g)
{
	double tol = g * (1 - GATE_TOLERANCE);
	return isfinite(lo) && isfinite(hi) && expm1(lo) > -tol && expm1(hi) < tol;
}

/* An exact count without spread (valgrind's): the change E (of the gate
 * G) is what it is. */
static void decide_exact(struct ti_ab_row *r, const struct ti_ab_config *c, double g,
			 const char *e)
{
	bool beyond = beyond_gate(r->est, g);

	r->v = !beyond ? TI_AB_UNCHANGED : r->est > 0 ? TI_AB_REGRESSED : TI_AB_IMPROVED;
	if (r->est == 0)
		REASON(r, "exact count, equal");
	else
		REASON(r, "exact count, %s %s the +-%g%% gate", e, beyond ? "beyond" : "within",
		       c->min_change);
}

/* No test (one sample a side): the A/A noise floor, where there is one,
 * stands in for the spread a test would measure; E: the change, G: the
 * gate. */
static void decide_untested(struct ti_ab_row *r, const struct ti_ab_config *c, double g,
			    const char *e)
{
	if (isnan(r->floor)) {
		r->v = TI_AB_UNDECIDED;
		r->decidable = true;
		REASON(r, "n=%zu/%zu: too few samples for a test", r->n_a, r->n_b);
		return;
	}
	char f[32];
	snprintf(f, sizeof f, "%.2f%%", 100 * expm1(r->floor));
	if (beyond_gate(r->est, g) && fabs(r->est) > r->floor) {
		r->v = r->est > 0 ? TI_AB_REGRESSED : TI_AB_IMPROVED;
		REASON(r, "n=%zu/%zu: %s, beyond the A/A noise floor %s", r->n_a, r->n_b, e, f);
	} else if (within_gate(r->est - r->floor, r->est + r->floor, g)) {
		r->v = TI_AB_UNCHANGED;
		REASON(r, "n=%zu/%zu: %s and the A/A noise floor %s within +-%g%%", r->n_a, r->n_b,
		       e, f, c->min_change);
	} else {
		r->v = TI_AB_UNDECIDED;
		r->decidable = true;
		REASON(r, "n=%zu/%zu: %s within the A/A noise floor %s", r->n_a, r->n_b, e, f);
	}
}

/* Why R, tested at ALPHA but neither shown changed nor shown within the
 * gate G, is undecided: its change E significant (SIG) and beyond the
 * gate but within the noise floor (FLOORED), too few samples for any p
 * to pass, a change below the gate, or a spread too wide. */
static void why_undecided(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha,
			  double g, const char *e, bool sig, bool floored)
{
	double best = r->min_p;
	char lo[32], hi[32];

	if (floored) {
		char f[32];
		snprintf(f, sizeof f, "%.2f%%", 100 * expm1(r->floor));
		REASON(r, "significant, but %s within the A/A noise floor %s", e, f);
	} else if (best >= alpha) {
		char nn[64];
		if (r->paired)
			snprintf(nn, sizeof nn, "%zu pairs", r->n_a);
		else
			snprintf(nn, sizeof nn, "%zu + %zu samples", r->n_a, r->n_b);
		REASON(r, "too few samples: %s cannot reach p %.3g (smallest possible p %.3g)", nn,
		       alpha, best);
	} else if (sig) {
		REASON(r, "significant, but %s below the +-%g%% gate and not shown within it", e,
		       c->min_change);
	} else if (!isfinite(r->eq_lo) || !isfinite(r->eq_hi)) {
		REASON(r, "too few samples for an interval");
	} else {
		ti_ab_report_change_pct(lo, sizeof lo, r->eq_lo);
		ti_ab_report_change_pct(hi, sizeof hi, r->eq_hi);
		if ((r->eq_lo > 0 && beyond_gate(r->eq_lo, g)) || (r->eq_hi < 0 && beyond_gate(r->eq_hi, g)))
			REASON(r, "%.0f%% interval %s..%s beyond the gate, but not significant after "
			       "adjustment (p %.3g)", 100 * (1 - 2 * alpha), lo, hi, r->p_adj);
		else
			REASON(r, "spread larger than the change: %.0f%% interval %s..%s crosses +-%g%%",
			       100 * (1 - 2 * alpha), lo, hi, c->min_change);
	}
}

void ti_ab_decide(struct ti_ab_row *r, const struct ti_ab_config *c, double alpha)
{
	double g = c->min_change / 100;
	char e[32], lo[32], hi[32];

	ti_ab_report_change_pct(e, sizeof e, r->est);
	if (r->exact) {
		decide_exact(r, c, g, e);
		return;
	}
	if (isnan(r->p)) {
		decide_untested(r, c, g, e);
		return;
	}
	bool sig = r->p_adj < alpha, beyond = beyond_gate(r->est, g);
	bool floor_ok = isnan(r->floor) || fabs(r->est) > r->floor;
	if (sig && beyond && floor_ok) {
		r->v = r->est > 0 ? TI_AB_REGRESSED : TI_AB_IMPROVED;
		REASON(r, "significant, %s beyond the +-%g%% gate", e, c->min_change);
		return;
	}
	/* Two pairs (or two samples a side) give the equivalence test one
	 * degree of freedom: a spread from one difference, small by chance
	 * often enough that +2 % at CV 2 % was called unchanged in 0.55 % of
	 * benchmarks (bench/ab-sim --table unchanged); from 3 on, at most
	 * 0.33 %.  A significant change needs no such floor: its test's
	 * level holds at any count. */
	size_t nmin = r->n_a < r->n_b ? r->n_a : r->n_b;
	if (within_gate(r->eq_lo, r->eq_hi, g) && nmin < TI_AB_EQ_MIN) {
		r->v = TI_AB_UNDECIDED;
		r->decidable = true;
		REASON(r, "too few samples: %zu %s cannot show a change within +-%g%% (%d needed)",
		       nmin, r->paired ? "pairs" : "a side", c->min_change, TI_AB_EQ_MIN);
		return;
	}
	if (within_gate(r->eq_lo, r->eq_hi, g)) {
		r->v = TI_AB_UNCHANGED;
		ti_ab_report_change_pct(lo, sizeof lo, r->eq_lo);
		ti_ab_report_change_pct(hi, sizeof hi, r->eq_hi);
		REASON(r, "equivalent: %.0f%% interval %s..%s within +-%g%%",
		       100 * (1 - 2 * alpha), lo, hi, c->min_change);
		if (sig)
			REASON(r, "significant, below the gate");
		return;
	}
	r->v = TI_AB_UNDECIDED;
	r->decidable = true;
	why_undecided(r, c, alpha, g, e, sig, sig && beyond && !floor_ok);
}
