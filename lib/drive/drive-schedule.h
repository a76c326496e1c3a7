/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* drive-schedule.h: the schedules of a round (drive-schedule.c). */
#ifndef TI_DRIVE_SCHEDULE_H
#define TI_DRIVE_SCHEDULE_H

#include "drive-runner.h"

/* Run the jobs of round RD on D's schedule, each recorded in samples.tsv
 * with its start since START, and each that ended in a round not stopped
 * handed to the runner's done.  Sequential: one after the other, in the
 * order made.  Duet: pair by pair (2k A, 2k + 1 B), as many pairs at once
 * as there are slots, each side on its own CPU set of the slot, the sets
 * swapped every round.  A stop signal ends the running jobs and undoes
 * every job of the round started so far; so does RD->deadline (when set)
 * once it passes, with SIGKILL, and sets RD->cut.  Returns 0
 * (D->stop_signal set when stopped) or -errno with D's message. */
int ti_drive_schedule_run(struct ti_drive *d, struct ti_drive_round *rd, double start);

#endif
