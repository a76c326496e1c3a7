/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-schedule.c: the schedules of a round (drive-schedule.h): the
 * sequential one, a job at a time, and the duet, A and B of a pair
 * released together at the children's barrier, pinned to the CPU sets of
 * their slot and swapped every round so that neither side keeps the
 * faster CPU.  Which jobs, and what they leave, is the runner's. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "buf.h"
#include "drive-schedule.h"
#include "drive-util.h"

static const char side_name[2] = { 'A', 'B' };

/* Whether the round is cut short: a stop signal, or its deadline passed
 * (the children it found running killed, no more started). */
static bool cut(void)
{
	return ti_drive_child_stopped() || ti_drive_child_expired();
}

/* Job J's line of samples.tsv, its start since START. */
static void record(struct ti_drive *d, const struct ti_drive_job *j, double start)
{
	struct ti_buf b = { 0 };
	char st[32];

	if (!d->samples_f)
		return;
	if (WIFEXITED(j->status))
		snprintf(st, sizeof st, "exit %d", WEXITSTATUS(j->status));
	else if (WIFSIGNALED(j->status))
		snprintf(st, sizeof st, "signal %d", WTERMSIG(j->status));
	else
		snprintf(st, sizeof st, "?");
	ti_buf_printf(&b, "%u\t%c\t", j->round, side_name[j->side]);
	ti_drive_tsv(&b, j->what);
	ti_buf_printf(&b, "\t%s\t%s\t%.3f\t%.3f\t%s\n",
		      d->c.schedule == TI_DRIVE_DUET ? "duet" : "sequential",
		      j->cpus ? j->cpu_text : "-", j->t0 - start, j->t1 - j->t0, st);
	ti_drive_write_buf(d, d->samples_f, "samples.tsv", &b);
}

/* A round of this many runs or more (a compile round: a run a unit and
 * side) says how far it is, every progress_every seconds. */
#define MANY_RUNS 8

/* One more run of RD ended; its progress line when it is due. */
static void ended(struct ti_drive *d, struct ti_drive_round *rd, double start)
{
	double now = ti_drive_now();
	char el[32];

	rd->ended++;
	if (d->c.progress_every <= 0 || rd->n < MANY_RUNS || rd->ended == rd->n)
		return;
	if (now - rd->said < d->c.progress_every)
		return;
	rd->said = now;
	ti_drive_clock_text(el, sizeof el, now - start);
	ti_drive_progress(d, "round %u: %zu of %zu runs ended, %s elapsed", rd->r, rd->ended,
			  rd->n, el);
}

/* A stop: the runner undoes the first N jobs of RD. */
static void undo(struct ti_drive *d, struct ti_drive_round *rd, size_t n)
{
	for (size_t k = 0; k < n && d->runner->undo; k++)
		d->runner->undo(d, &rd->jobs[k]);
	d->stop_signal = ti_drive_child_stopped();
}

static int sequential(struct ti_drive *d, struct ti_drive_round *rd, double start)
{
	for (size_t i = 0; i < rd->n; i++) {
		struct ti_drive_job *p = &rd->jobs[i];
		int rc;
		if ((rc = ti_drive_child_start(&p, 1)) == -EINTR) {
			undo(d, rd, i);
			return 0;
		}
		if (rc < 0)
			return ti_drive_fail(d, rc, "%s: cannot start: %s", p->argv[0], strerror(-rc));
		ti_drive_child_wait(p);
		record(d, p, start);
		ended(d, rd, start);
		if (cut()) {
			undo(d, rd, i + 1);
			return 0;
		}
		if (d->runner->done)
			d->runner->done(d, p);
	}
	return 0;
}

/* A sequential round in blocks of W pairs (W units: the runner lays a
 * sequential round out a pair at a time, the round's first side first):
 * the block's first-side runs at once, then its second side's, so that
 * the units a run shares the machine with are the same on both sides and
 * no A runs beside a B. */
static int blocks(struct ti_drive *d, struct ti_drive_round *rd, size_t w, double start)
{
	struct ti_drive_job **go = calloc(w, sizeof *go);
	int rc = 0;

	if (!go)
		return ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	for (size_t i = 0; i < rd->n && rc == 0; i += 2 * w) {
		size_t end = i + 2 * w < rd->n ? i + 2 * w : rd->n;
		for (size_t half = 0; half < 2 && rc == 0; half++) {
			size_t ngo = 0;
			for (size_t k = i + half; k < end; k += 2)
				if (rd->jobs[k].argv)
					go[ngo++] = &rd->jobs[k];
			int st = ngo ? ti_drive_child_start(go, ngo) : 0;
			if (st == -EINTR) {
				undo(d, rd, end);
				i = rd->n;
				break;
			}
			if (st < 0) {
				rc = ti_drive_fail(d, st, "%s: cannot start: %s", go[0]->argv[0],
						   strerror(-st));
				break;
			}
			for (size_t k = 0; k < ngo; k++) {
				ti_drive_child_wait(go[k]);
				record(d, go[k], start);
				ended(d, rd, start);
			}
			if (cut()) {
				undo(d, rd, end);
				i = rd->n;
				break;
			}
			for (size_t k = 0; k < ngo && d->runner->done; k++)
				d->runner->done(d, go[k]);
		}
	}
	free(go);
	return rc;
}

/* A duet round under way: the slots (CPU set pairs) and their pairs. */
struct duet {
	size_t slots;
	bool *busy;		/* per slot */
	size_t *slot_of;	/* per job */
	struct ti_drive_job **run;	/* the jobs started */
	size_t nrun;
	size_t next;		/* the first job not started */
	size_t left;		/* the jobs not yet ended (or set aside, having no argv) */
};

/* Start the next pairs of RD on the free slots; a job without an argv
 * (its side lacks the unit) is set aside as ended, and its mate runs
 * alone on the slot.  Returns 0 (a stop signal: none started) or -errno
 * with D's message. */
static int duet_fill(struct ti_drive *d, struct ti_drive_round *rd, struct duet *u)
{
	for (size_t s = 0; s < u->slots && u->next < rd->n;) {
		if (u->busy[s]) {
			s++;
			continue;
		}
		struct ti_drive_job *pair[2] = { &rd->jobs[u->next], &rd->jobs[u->next + 1] };
		struct ti_drive_job *go[2];
		size_t ngo = 0;
		/* Slot s has sets 2s and 2s+1: A on the first in odd rounds,
		 * on the second in even ones. */
		for (int k = 0; k < 2; k++) {
			size_t set = 2 * s + (size_t)((pair[k]->side + (rd->r % 2 == 0)) % 2);
			if (!pair[k]->argv)
				continue;
			pair[k]->cpus = &d->c.cpus[set];
			ti_cpuset_format(pair[k]->cpus, pair[k]->cpu_text, sizeof pair[k]->cpu_text);
			go[ngo++] = pair[k];
		}
		int rc = ngo ? ti_drive_child_start(go, ngo) : 0;
		if (rc == -EINTR)
			return 0;
		if (rc < 0)
			return ti_drive_fail(d, rc, "%s: cannot start: %s", go[0]->argv[0],
					     strerror(-rc));
		for (int k = 0; k < 2; k++) {
			if (!pair[k]->argv) {
				pair[k]->done = true;
				u->left--;
			}
		}
		u->slot_of[u->next] = u->slot_of[u->next + 1] = s;
		for (size_t k = 0; k < ngo; k++)
			u->run[u->nrun++] = go[k];
		u->next += 2;
		/* A pair with nothing to run leaves its slot to the next. */
		if (ngo > 0)
			u->busy[s++] = true;
	}
	return 0;
}

/* Run the pairs of RD; U's arrays allocated. */
static int duet_run(struct ti_drive *d, struct ti_drive_round *rd, struct duet *u, double start)
{
	int rc = 0;

	while (u->left > 0 && rc == 0) {
		if ((rc = duet_fill(d, rd, u)) < 0 || u->left == 0)
			break;
		if (u->nrun == 0 || cut())
			break;
		int i = ti_drive_child_wait_any(u->run, u->nrun);
		if (i < 0) {
			rc = ti_drive_fail(d, i, "wait: %s", strerror(-i));
			break;
		}
		struct ti_drive_job *j = u->run[i];
		size_t ji = (size_t)(j - rd->jobs);
		record(d, j, start);
		ended(d, rd, start);
		u->left--;
		if (cut())
			break;
		if (d->runner->done)
			d->runner->done(d, j);
		if (rd->jobs[ji ^ 1].done)
			u->busy[u->slot_of[ji]] = false;
	}
	if (cut() || rc < 0) {
		/* The runs ended by the cut have their line too: samples.tsv
		 * holds one a run. */
		for (size_t k = 0; k < u->nrun; k++) {
			if (u->run[k]->done)
				continue;
			ti_drive_child_wait(u->run[k]);
			record(d, u->run[k], start);
		}
		undo(d, rd, u->next);
	}
	return rc;
}

static int duet(struct ti_drive *d, struct ti_drive_round *rd, size_t slots, double start)
{
	struct duet u = { .slots = slots, .left = rd->n };
	int rc;

	u.run = calloc(rd->n, sizeof *u.run);
	u.slot_of = calloc(rd->n, sizeof *u.slot_of);
	u.busy = calloc(slots, sizeof *u.busy);
	if (!u.run || !u.slot_of || !u.busy)
		rc = ti_drive_fail(d, -ENOMEM, "%s", strerror(ENOMEM));
	else
		rc = duet_run(d, rd, &u, start);
	free(u.run);
	free(u.slot_of);
	free(u.busy);
	return rc;
}

int ti_drive_schedule_run(struct ti_drive *d, struct ti_drive_round *rd, double start)
{
	size_t slots = d->c.schedule == TI_DRIVE_DUET ? d->c.ncpus / 2 : 0;
	int rc;

	if (rd->deadline > 0 && (rc = ti_drive_child_deadline(rd->deadline)) < 0)
		return ti_drive_fail(d, rc, "the budget's timer: %s", strerror(-rc));
	rd->said = ti_drive_now();
	if (slots)
		rc = duet(d, rd, slots, start);
	else if (d->c.jobs > 1)
		rc = blocks(d, rd, d->c.jobs, start);
	else
		rc = sequential(d, rd, start);
	rd->cut = rd->deadline > 0 && ti_drive_child_expired() && !d->stop_signal;
	ti_drive_child_deadline(0);
	return rc;
}
