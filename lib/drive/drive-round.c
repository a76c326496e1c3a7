/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-round.c: the rounds of an A/B run (ti_drive_rounds, in
 * drive-runner.h): each round's order, its jobs from the runner, run on
 * the schedule, its results checked (who ran, who failed, who vanished),
 * a look through the verdict engine when one is due, the budget as a
 * bound (no round starts that would not end within it, and the runs of
 * one that has not ended when it runs out are killed), and the stop
 * table.  Nothing here knows which runner it drives. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "buf.h"
#include "drive-schedule.h"
#include "drive-util.h"
#include "outfile.h"

static const char side_name[2] = { 'A', 'B' };

/* splitmix64: the random orders, reproducible from the seed. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15u;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
	return x ^ (x >> 31);
}

static bool a_first(const struct ti_drive *d, unsigned r)
{
	if (d->c.order == TI_DRIVE_RANDOM)
		return (mix(mix(d->c.seed) ^ r) >> 63) == 0;
	return r % 2 == 1;
}

/* What round R of benchmark B did on a side: 0 absent, 1 failed every
 * run, 2 ran. */
static int outcome(const struct ti_drive *d, const struct ti_ab_bench *b, unsigned r)
{
	int best = 0;

	if (!b)
		return 0;
	for (size_t i = 0; i < b->n; i++) {
		if (d->runner->keyed && (uint32_t)b->s[i].round != r)
			continue;
		best = b->s[i].failed || isnan(b->s[i].value) ? (best ? best : 1) : 2;
	}
	return best;
}

/* -EIO when every test in play failed on a side in round R. */
static int check_sides(struct ti_drive *d, unsigned r, struct ti_ab_set cur[2])
{
	bool ok[2] = { false, false }, failed[2] = { false, false };
	const struct ti_drive_test *first[2] = { NULL, NULL };

	for (size_t i = 0; i < d->n; i++) {
		struct ti_drive_test *t = &d->t[i];
		if (t->stop != TI_DRIVE_ACTIVE)
			continue;
		for (int s = 0; s < 2; s++) {
			int o = outcome(d, ti_ab_find(&cur[s], t->name), r);
			ok[s] |= o == 2;
			failed[s] |= o == 1;
			if (o < 2 && !first[s])
				first[s] = t;
		}
	}
	/* A side failed as a whole when none of its tests ran, some failed or
	 * the other side had results (tests vanished from both are missing). */
	for (int s = 0; s < 2; s++) {
		if (!ok[s] && first[s] && (failed[s] || ok[!s])) {
			const struct ti_ab_bench *b = ti_ab_find(&cur[s], first[s]->name);
			return ti_drive_fail(d, -EIO, "round %u: every test failed on side %c (%s); the "
					     "first: %s%s%s", r, side_name[s], d->runner->where(d, s),
					     first[s]->name, b && b->failed_in ? ", see " : b ? "" :
					     " (no result)", b && b->failed_in ? b->failed_in : "");
		}
	}
	return 0;
}

/* After round R: the tests it lost (missing, failed on a side); -EIO when
 * every test failed on a side. */
static int check_round(struct ti_drive *d, unsigned r, struct ti_ab_set cur[2])
{
	int o[2], rc;

	if ((rc = check_sides(d, r, cur)) < 0)
		return rc;
	for (size_t i = 0; i < d->n; i++) {
		struct ti_drive_test *t = &d->t[i];
		if (t->stop != TI_DRIVE_ACTIVE)
			continue;
		for (int s = 0; s < 2; s++)
			o[s] = outcome(d, ti_ab_find(&cur[s], t->name), r);
		if (o[0] == 0 || o[1] == 0) {
			t->stop = TI_DRIVE_MISSING;
			snprintf(t->why, sizeof t->why, "not in side %s's results of round %u",
				 o[0] == 0 && o[1] == 0 ? "A's and B" : o[0] == 0 ? "A" : "B", r);
			continue;
		}
		t->rounds = r;
		if (o[0] == 1 || o[1] == 1) {
			t->stop = TI_DRIVE_FAILED;
			snprintf(t->why, sizeof t->why, "failed on side %s in round %u",
				 o[0] == 1 && o[1] == 1 ? "A and B" : o[0] == 1 ? "A" : "B", r);
		}
	}
	return 0;
}

/* A look through the verdict engine: the active tests decided, or (IDENT)
 * the ones with identical binaries. */
static int look(struct ti_drive *d, struct ti_ab_set *a, struct ti_ab_set *b, bool ident)
{
	struct ti_ab_config c = d->c.ab;
	struct ti_ab_result res;
	int rc;

	c.looks = d->looks;
	if (!ident) {
		c.look = ++d->looked;
		d->look_round = d->rounds;
	}
	if ((rc = ti_ab_verdict_run(&c, a, b, NULL, NULL, &res)) < 0)
		return ti_drive_fail(d, rc, "the verdicts failed: %s", strerror(-rc));
	for (size_t i = 0; i < d->n; i++) {
		struct ti_drive_test *t = &d->t[i];
		const struct ti_ab_row *row = NULL;
		if (t->stop != TI_DRIVE_ACTIVE)
			continue;
		for (size_t k = 0; k < res.n && !row; k++)
			if (strcmp(res.rows[k].name, t->name) == 0)
				row = &res.rows[k];
		if (ident) {
			if (row && row->code == TI_AB_CODE_SAME)
				t->stop = TI_DRIVE_SAME_BINARY;
		} else if (!row || row->v != TI_AB_UNDECIDED || !row->decidable) {
			t->stop = TI_DRIVE_DECIDED;
		}
	}
	ti_ab_result_free(&res);
	return 0;
}

/* Both sides' results, of round R alone or (R = 0) of every round so
 * far, into SETS. */
static int load(struct ti_drive *d, unsigned r, struct ti_ab_set sets[2])
{
	int rc;

	if ((rc = d->runner->load(d, 0, r, &sets[0])) < 0)
		return rc;
	if ((rc = d->runner->load(d, 1, r, &sets[1])) < 0) {
		ti_ab_set_free(&sets[0]);
		ti_ab_set_free(&sets[1]);
	}
	return rc;
}

/* Whether a look is due after round R of ROUNDS: at the first look, every
 * step after it and at the last round, LOOKS in all.  When the budget
 * moves the last round later (budget_extend), the looks keep their
 * number: the steps after the first stop one short of it, and the last
 * is at the last round. */
static bool look_due(const struct ti_drive *d, unsigned r, unsigned rounds)
{
	return !d->c.fixed && r >= d->min &&
	       (r == rounds || ((r - d->min) % d->c.step == 0 &&
				(r - d->min) / d->c.step + 1 < d->looks));
}

/* Round R's results: who ran, who failed, who vanished; and a look at
 * all rounds so far when one is due. */
static int round_results(struct ti_drive *d, unsigned r, unsigned rounds)
{
	const struct ti_drive_config *c = &d->c;
	struct ti_ab_set cur[2];
	int rc;

	if ((rc = load(d, r, cur)) < 0)
		return rc;
	rc = check_round(d, r, cur);
	if (rc == 0 && r == 1 && !c->fixed)
		rc = look(d, &cur[0], &cur[1], true);
	ti_ab_set_free(&cur[0]);
	ti_ab_set_free(&cur[1]);
	if (rc < 0)
		return rc;
	if (look_due(d, r, rounds) && ti_drive_active(d) > 0) {
		struct ti_ab_set all[2];
		if ((rc = load(d, 0, all)) < 0)
			return rc;
		rc = look(d, &all[0], &all[1], false);
		ti_ab_set_free(&all[0]);
		ti_ab_set_free(&all[1]);
	}
	return rc;
}

/* Write the stop table, stop.tsv: test, rounds, why it stopped.  A
 * failure is noted (ti_drive_write_failed), not the run's. */
static void write_stop(struct ti_drive *d)
{
	struct ti_buf b = { 0 };
	struct ti_outfile of;
	char *p = ti_drive_out_path(d, "stop.tsv");
	int rc;

	for (size_t i = 0; i < d->n; i++) {
		ti_drive_tsv(&b, d->t[i].name);
		ti_buf_printf(&b, "\t%u\t%s%s", d->t[i].rounds, ti_drive_stop_name[d->t[i].stop],
			      d->t[i].why[0] ? ": " : "");
		ti_drive_tsv(&b, d->t[i].why);
		ti_buf_printf(&b, "\n");
	}
	if (!p || b.failed)
		rc = -ENOMEM;
	else if ((rc = ti_outfile_prepare(&of, p)) == 0)
		rc = ti_outfile_commit(&of, b.data ? b.data : "", b.len);
	ti_buf_free(&b);
	free(p);
	if (rc < 0)
		ti_drive_write_failed(d, "stop.tsv", rc);
}

/* Open the run's logs, rounds.log and samples.tsv (its header written),
 * or those of a resumed run cut back to its finished rounds to append
 * to: 0, or -errno when either cannot be opened (before any round). */
static int open_logs(struct ti_drive *d)
{
	static const char head[] = "round\tside\ttest\tschedule\tcpus\tstart\twall\tstatus\n";

	if (d->rounds > 0)
		return ti_drive_logs_resume(d);
	if (!(d->rounds_f = ti_drive_file(d, "rounds.log")))
		return d->write_rc;
	if (!(d->samples_f = ti_drive_file(d, "samples.tsv"))) {
		fclose(d->rounds_f);
		d->rounds_f = NULL;
		return d->write_rc;
	}
	ti_drive_write(d, d->samples_f, "samples.tsv", head, sizeof head - 1);
	return 0;
}

/* The progress line of round R of ROUNDS: NA tests, NOW seconds into
 * the run, RUNS test runs done. */
static void round_progress(struct ti_drive *d, unsigned r, unsigned rounds, size_t na,
			   size_t runs, double now)
{
	const struct ti_drive_config *c = &d->c;
	char el[32], lf[64] = "";

	ti_drive_clock_text(el, sizeof el, now);
	if (runs > 0) {
		char t[32];
		double left = now / (double)runs * (double)na * (rounds - r + 1);
		if (c->budget > 0 && left > c->budget - now)
			left = c->budget - now;
		ti_drive_clock_text(t, sizeof t, left);
		snprintf(lf, sizeof lf, ", %s%s left", c->fixed ? "" : "at most ", t);
	}
	const char *duet = c->schedule == TI_DRIVE_DUET ? ", duet" : "";
	/* No test known before round 1: it runs every one, and shows them. */
	if (r == 1 && d->n == 0)
		ti_drive_progress(d, "round 1: all tests, %s elapsed, order %s%s", el, d->order[r],
				  duet);
	else if (!c->fixed)
		ti_drive_progress(d, "round %u (at most %u): %zu %s, %s elapsed%s, order %s%s", r,
				  rounds, na, d->runner->left, el, lf, d->order[r], duet);
	else
		ti_drive_progress(d, "round %u of %u: %zu tests, %s elapsed%s, order %s%s", r, rounds,
				  na, el, lf, d->order[r], duet);
}

/* Mark the tests still in play as stopped for WHY. */
static void stop_active(struct ti_drive *d, enum ti_drive_stop why)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->t[i].stop == TI_DRIVE_ACTIVE)
			d->t[i].stop = why;
}

/* The budget ran out in round RD: the tests of the runs it killed (a
 * run of every test left: all of them) say so; every test in play stops
 * at the budget. */
static void budget_cut(struct ti_drive *d, const struct ti_drive_round *rd)
{
	d->budget_cut = rd->r;
	for (size_t k = 0; k < rd->n; k++) {
		const struct ti_drive_job *j = &rd->jobs[k];
		if (!j->argv || j->pid <= 0 || !WIFSIGNALED(j->status) ||
		    WTERMSIG(j->status) != SIGKILL)
			continue;
		for (size_t i = 0; i < d->n; i++) {
			struct ti_drive_test *t = &d->t[i];
			if (t->stop != TI_DRIVE_ACTIVE ||
			    (strcmp(j->what, "*") != 0 && strcmp(j->what, t->unit) != 0))
				continue;
			t->stop = TI_DRIVE_BUDGET;
			snprintf(t->why, sizeof t->why, "killed at the budget in round %u", rd->r);
		}
	}
	stop_active(d, TI_DRIVE_BUDGET);
}

/* The wall of job J, 0 when it did not run. */
static double job_wall(const struct ti_drive_job *j)
{
	return j->argv && j->pid > 0 && j->done ? j->t1 - j->t0 : 0;
}

/* Each test's cost in round RD: the wall of its runs, a duet's pair
 * counted once (the longer of the two: they run side by side), summed
 * over its runs (a compile's units).  A test run in a run of many ("*":
 * lit's sequential round) keeps 0, not known. */
static void costs(struct ti_drive *d, const struct ti_drive_round *rd)
{
	bool duet = d->c.schedule == TI_DRIVE_DUET;
	size_t step = duet ? 2 : 1;
	double *c = calloc(d->n ? d->n : 1, sizeof *c);

	for (size_t k = 0; c && k + step <= rd->n; k += step) {
		const struct ti_drive_job *j = &rd->jobs[k];
		double w = job_wall(j);
		if (duet && job_wall(&rd->jobs[k + 1]) > w)
			w = job_wall(&rd->jobs[k + 1]);
		if (!(w > 0) || !j->what || strcmp(j->what, "*") == 0)
			continue;
		for (size_t i = 0; i < d->n; i++) {
			if (strcmp(j->what, d->t[i].unit) == 0) {
				c[i] += w;
				break;
			}
		}
	}
	for (size_t i = 0; c && i < d->n; i++)
		if (c[i] > 0)
			d->t[i].cost = c[i];
	free(c);
}

/* Run round R (NA tests in play) from the runner's jobs; *LAST gets its
 * wall time.  Round 1 runs to its end: it finds the tests and what a
 * round costs, without which nothing is compared; a later one gets the
 * budget's time left. */
static int run_round(struct ti_drive *d, unsigned r, size_t na, double start, double *last)
{
	struct ti_drive_round rd = { .r = r, .first = a_first(d, r) ? 0 : 1, .na = na };
	int rc;

	if (r > 1 && d->c.budget > 0)
		rd.deadline = start + d->c.budget;
	if ((rc = d->runner->jobs(d, &rd)) == 0) {
		double t0 = ti_drive_now();
		rc = ti_drive_schedule_run(d, &rd, start);
		*last = ti_drive_now() - t0;
	}
	if (rc == 0 && rd.cut)
		budget_cut(d, &rd);
	else if (rc == 0 && !d->stop_signal && d->runner->after)
		rc = d->runner->after(d, &rd);
	if (rc == 0 && !rd.cut && !d->stop_signal)
		costs(d, &rd);
	for (size_t k = 0; k < rd.n && rd.jobs; k++)
		ti_drive_job_free(&rd.jobs[k]);
	free(rd.jobs);
	ti_drive_units_free(&rd.u);
	return rc;
}

/* What the next round costs, from round R's (LAST seconds for LAST_N
 * tests): each test in play at its own cost in round R (costs()), scaled
 * to that round's wall, or at an equal share of it where not known.  A
 * compile's programs differ a hundredfold: the one left in play is its
 * own cost, not the mean of the round's. */
static double next_cost(const struct ti_drive *d, unsigned r, double last, size_t last_n)
{
	double known = 0, share = last_n ? last / (double)last_n : last, est = 0;
	size_t ran = 0;

	for (size_t i = 0; i < d->n; i++) {
		if (d->t[i].rounds == r && d->t[i].cost > 0) {
			known += d->t[i].cost;
			ran++;
		}
	}
	double scale = known > 0 ? share * (double)ran / known : 1;
	for (size_t i = 0; i < d->n; i++)
		if (d->t[i].stop == TI_DRIVE_ACTIVE)
			est += d->t[i].rounds == r && d->t[i].cost > 0 ? d->t[i].cost * scale : share;
	return est;
}

/* Whether the run ends after round R of ROUNDS: nothing left in play,
 * the last round, or no room in the budget for the next one (costed as
 * round R per test: LAST seconds for LAST_N tests), not even for the
 * tests nearest a verdict when a look is due after it. */
static bool run_ends(struct ti_drive *d, unsigned r, unsigned rounds, double last, size_t last_n,
		     double start)
{
	const struct ti_drive_config *c = &d->c;
	size_t next = ti_drive_active(d);

	if (next == 0)
		return true;
	if (r == rounds) {
		stop_active(d, c->fixed ? TI_DRIVE_FIXED : TI_DRIVE_MAX);
		return true;
	}
	/* The budget is a bound: the next round must end within it, as far
	 * as its cost is known (a round that does not is cut at it). */
	if (c->budget > 0) {
		double est = next_cost(d, r, last, last_n);
		double left = c->budget - (ti_drive_now() - start);
		if (est > left) {
			if (look_due(d, r + 1, rounds) &&
			    ti_drive_plan_part(d, r, left, last, last_n) > 0)
				return false;
			stop_active(d, TI_DRIVE_BUDGET);
			return true;
		}
	}
	return false;
}

/* The rounds the budget holds after round 1 (LAST seconds for LAST_N
 * tests) at that cost per test, *EST for the NEXT left in play, round 1
 * counted, in part for the last: 1 + left / est (at least 1); 0 when
 * there is no budget or nothing to cost. */
static double budget_held(const struct ti_drive *d, double last, size_t last_n, size_t next,
			  double start, double *est)
{
	const struct ti_drive_config *c = &d->c;

	*est = 0;
	if (c->fixed || !(c->budget > 0) || next == 0 || last_n == 0)
		return 0;
	*est = last * (double)next / (double)last_n;
	double left = c->budget - (ti_drive_now() - start);
	double held = *est > 0 ? 1 + left / *est : TI_DRIVE_ROUNDS_MAX;
	return held >= 1 ? held : 1;
}

/* With a budget and MAX auto, after round 1: no more than ROUNDS, nor
 * than the rounds the budget holds (HELD), the last counted when it holds
 * at least TI_DRIVE_PART of it (its tests nearest a verdict run it,
 * ti_drive_plan_part), and the looks planned over those.  Looks beyond
 * the budget's reach would spend alpha for nothing: with 6 planned where
 * 4 rounds fit, 77 % of 30 LLVM tests were decided within 6T, with 2,
 * 83 % (docs/LLVM-TEST-SUITE.md).  Round 1 shows only cost and identity,
 * no comparison: the plan stays fixed before the first look. */
static unsigned budget_rounds(struct ti_drive *d, unsigned rounds, double held)
{
	if (!d->c.max_auto || !(held >= 1))
		return rounds;
	double fit = floor(held);
	if (held - fit >= TI_DRIVE_PART)
		fit++;
	if (fit < (double)rounds)
		rounds = (unsigned)fit > d->min ? (unsigned)fit : d->min;
	d->looks = ti_drive_looks(d->min, rounds, d->c.step);
	return rounds;
}

/* After round R, from the first look on: the rounds planned at round 1's
 * cost (ROUNDS) cost less once tests are decided and leave play, and the
 * budget's time left may hold more of them at the next round's cost
 * (next_cost).  Then the last round, and the last look with it, move
 * later, up to the auto cap, the looks keeping their number and each its
 * share of alpha; the looks' rounds depend on what the rounds cost, not
 * on any test's own results.  A budget of 20 T over CTMark (10 rounds
 * planned at round 1's 130 s) ended at 13.5 T with two programs
 * undecided, rounds 4 to 10 costing 70 s; moved to 13 rounds after round
 * 3, it decided all ten in 19.8 T (docs/compile-time.md). */
static unsigned budget_extend(struct ti_drive *d, unsigned r, unsigned rounds, double last,
			      size_t last_n, double start)
{
	const struct ti_drive_config *c = &d->c;

	if (!c->max_auto || c->fixed || !(c->budget > 0) || r < d->min || rounds >= c->max)
		return rounds;
	double est = next_cost(d, r, last, last_n);
	double left = c->budget - (ti_drive_now() - start);
	if (!(est > 0) || !(left > est))
		return rounds;
	double held = left / est, fit = floor(held);
	if (held - fit >= TI_DRIVE_PART)
		fit++;
	unsigned to = r + (fit < (double)(c->max - r) ? (unsigned)fit : c->max - r);
	if (to <= rounds)
		return rounds;
	ti_drive_note(d, "after round %u the budget's %.0f s left hold %.3g rounds at %.3g s "
		      "for the %zu test%s in play: %u rounds, not %u; the last look at round %u",
		      r, left, held, est, ti_drive_active(d), ti_drive_active(d) == 1 ? "" : "s", to,
		      rounds, to);
	return to;
}

/* The rounds of a run set up: the last one, what has run and how long
 * the last took. */
struct plan {
	unsigned rounds;
	double start, last;
	size_t last_n, runs;
};

/* The rounds, one after the other, until one ends the run. */
static int rounds_run(struct ti_drive *d, struct plan *p)
{
	int rc = 0;

	for (unsigned r = d->rounds + 1; rc == 0 && !d->stop_signal && r <= p->rounds; r++) {
		size_t na = r == 1 && d->n == 0 ? 0 : ti_drive_active(d);

		if (r > 1 && na == 0)
			break;
		/* A stop between rounds (in a look): no round starts. */
		if ((d->stop_signal = ti_drive_child_stopped()) != 0)
			break;
		snprintf(d->order[r], sizeof d->order[r], "%s", a_first(d, r) ? "AB" : "BA");
		round_progress(d, r, p->rounds, na, p->runs, ti_drive_now() - p->start);
		if ((rc = run_round(d, r, na, p->start, &p->last)) < 0 || d->stop_signal ||
		    d->budget_cut)
			break;
		d->rounds = r;
		p->last_n = r == 1 ? d->n : na;
		p->runs += p->last_n;
		if ((rc = round_results(d, r, p->rounds)) < 0)
			break;
		double est = 0, held = r == 1 ? budget_held(d, p->last, p->last_n, ti_drive_active(d),
							p->start, &est) : 0;
		/* The noise of rounds 1 and 2, of the tests in play after them,
		 * before the budget leaves some out of round 3. */
		if (r == 2 && r < p->rounds)
			ti_drive_plan_noise(d, p->rounds);
		bool ends = run_ends(d, r, p->rounds, p->last, p->last_n, p->start);
		if (!ends && r == 1)
			p->rounds = budget_rounds(d, p->rounds, held);
		else if (!ends)
			p->rounds = budget_extend(d, r, p->rounds, p->last, p->last_n, p->start);
		/* Said even when the budget ends the run here: it held one round. */
		if (r == 1 && held > 0)
			ti_drive_plan_rounds(d, p->rounds, held, est, p->last,
					     ti_drive_now() - p->start);
		/* Round R is complete: a resumed run goes on after it (make
		 * ab's suite clears its O itself: nothing to go on with). */
		if (d->runner->resumable)
			ti_drive_state_write(d, p->rounds, p->last, p->last_n);
		if (ends)
			break;
	}
	return rc;
}

/* A resumed run, after its start: round K + 1 (K finished), which the
 * stop cut short, undone by the runner (the jobs it would make for the
 * tests in play then, its files removed, none logged); whether the run
 * ends with the rounds it has, else the progress line. */
static bool resume_rounds(struct ti_drive *d, struct plan *p)
{
	unsigned k = d->rounds;
	struct ti_drive_round rd = { .r = k + 1, .first = a_first(d, k + 1) ? 0 : 1,
				     .na = ti_drive_active(d) };
	FILE *f = d->rounds_f;

	if (k >= TI_DRIVE_ROUNDS_MAX)
		return run_ends(d, k, p->rounds, p->last, p->last_n, p->start);
	d->rounds_f = NULL;
	if (d->runner->undo && d->runner->jobs(d, &rd) == 0)
		for (size_t j = 0; j < rd.n; j++)
			if (rd.jobs[j].argv)
				d->runner->undo(d, &rd.jobs[j]);
	d->rounds_f = f;
	d->err[0] = '\0';
	for (size_t j = 0; j < rd.n && rd.jobs; j++)
		ti_drive_job_free(&rd.jobs[j]);
	free(rd.jobs);
	ti_drive_units_free(&rd.u);
	if (run_ends(d, k, p->rounds, p->last, p->last_n, p->start))
		return true;
	ti_drive_progress(d, "resuming at round %u: %u finished round%s kept, %zu %s", k + 1, k,
			  k == 1 ? "" : "s", ti_drive_active(d), d->runner->left);
	return false;
}

/* The end of a run: the stop signals restored, the logs closed, the stop
 * table written; RC the run's. */
static int finish(struct ti_drive *d, int rc, double start)
{
	if (d->stop_signal)
		stop_active(d, TI_DRIVE_INTERRUPTED);
	if (d->runner->end)
		d->runner->end(d);
	ti_drive_child_signals(false);
	d->stop_signal = d->stop_signal ? d->stop_signal : ti_drive_child_stopped();
	d->wall = ti_drive_now() - start;
	ti_drive_close(d, d->samples_f, "samples.tsv");
	ti_drive_close(d, d->rounds_f, "rounds.log");
	d->samples_f = d->rounds_f = NULL;
	if (d->n > 0)
		write_stop(d);
	return rc;
}

int ti_drive_rounds(struct ti_drive *d, const struct ti_drive_config *c,
		    const struct ti_drive_runner *runner, char *const *names, size_t n)
{
	struct plan p = { .start = ti_drive_now() };
	int rc = 0;

	memset(d, 0, sizeof *d);
	d->c = *c;
	d->runner = runner;
	if ((rc = ti_drive_config_check(c, d->err, sizeof d->err)) < 0)
		return rc;
	if (c->resume && !runner->resumable)
		return ti_drive_fail(d, -EINVAL, "a run of this kind keeps no state: it cannot be resumed");
	p.rounds = c->fixed ? c->samples : c->max;
	d->min = c->min ? c->min : ti_drive_first_look(&c->ab, c->max, c->step);
	d->looks = c->fixed ? 1 : ti_drive_looks(d->min, c->max, c->step);
	for (size_t i = 0; i < n; i++)
		if ((rc = ti_drive_test_add(d, names[i], names[i])) < 0)
			return ti_drive_fail(d, rc, "%s", strerror(ENOMEM));
	if (runner->open && (rc = runner->open(d)) < 0)
		return rc;
	if (c->resume && (rc = ti_drive_state_read(d, &p.rounds, &p.last, &p.last_n)) < 0)
		return rc;
	if ((rc = open_logs(d)) < 0)
		return rc;
	ti_drive_child_signals(true);
	if (runner->start)
		rc = runner->start(d);
	if (rc == 0 && !(d->rounds > 0 && resume_rounds(d, &p)))
		rc = rounds_run(d, &p);
	return finish(d, rc, p.start);
}
