/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* compare-gen: write synthetic timeit summary files for the timeit-compare
 * tests, reproducibly on every platform (the PRNG is lib/stats/stats-infer.c's).
 *   compare-gen DIR SEED BENCHES SAMPLES NOISE SHIFT SHIFTED [LOADSEED LOAD]
 * writes DIR/bNNN.I.time for I = 1..SAMPLES: user = exp(NOISE * z), times
 * 1 + SHIFT for the first SHIFTED benchmarks, z standard normal; with
 * LOADSEED, also times exp(LOAD * w), w drawn from LOADSEED alone, so that
 * two sets made with one LOADSEED share a load per benchmark and round
 * (interleaved runs on a busy machine). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "stats.h"

int main(int argc, char **argv)
{
	struct ti_stats_rng r, load;
	double load_sd = 0;

	if (argc != 8 && argc != 10) {
		fprintf(stderr, "usage: compare-gen DIR SEED BENCHES SAMPLES NOISE SHIFT SHIFTED "
				"[LOADSEED LOAD]\n");
		return 2;
	}
	const char *dir = argv[1];
	unsigned long long seed = strtoull(argv[2], NULL, 10);
	long benches = atol(argv[3]), samples = atol(argv[4]), shifted = atol(argv[7]);
	double noise = atof(argv[5]), shift = atof(argv[6]);

	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		perror(dir);
		return 1;
	}
	ti_stats_rng_seed(&r, seed);
	ti_stats_rng_seed(&load, argc == 10 ? strtoull(argv[8], NULL, 10) : 0);
	if (argc == 10)
		load_sd = atof(argv[9]);
	for (long b = 0; b < benches; b++) {
		for (long i = 1; i <= samples; i++) {
			char path[4096];
			double v = exp(noise * ti_stats_rng_normal(&r)) * (b < shifted ? 1 + shift : 1);
			v *= exp(load_sd * ti_stats_rng_normal(&load));
			FILE *f;

			snprintf(path, sizeof path, "%s/b%03ld.%ld.time", dir, b, i);
			if (!(f = fopen(path, "w"))) {
				perror(path);
				return 1;
			}
			fprintf(f, "exit 0\nreal       %.6f\nuser       %.6f\nsys        0.0000\n", v, v);
			if (fclose(f) != 0) {
				perror(path);
				return 1;
			}
		}
	}
	return 0;
}
