/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* nbody: a floating-point kernel, the classic five-body planetary
 * simulation with a symplectic Euler step.  Prints the energy before and
 * after STEPS steps; energy is nearly conserved, which checks the step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NB 5
#define PI 3.141592653589793
#define SOLAR_MASS (4 * PI * PI)
#define DAYS_PER_YEAR 365.24

struct body {
	double x[3], v[3], m;
};

/* Jovian planets' published initial conditions, in AU, AU/day and solar
 * masses, as used by the Computer Language Benchmarks Game. */
static struct body bodies[NB] = {
	{{0, 0, 0}, {0, 0, 0}, SOLAR_MASS},
	{{4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01},
	 {1.66007664274403694e-03 * DAYS_PER_YEAR, 7.69901118419740425e-03 * DAYS_PER_YEAR,
	  -6.90460016972063023e-05 * DAYS_PER_YEAR},
	 9.54791938424326609e-04 * SOLAR_MASS},
	{{8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01},
	 {-2.76742510726862411e-03 * DAYS_PER_YEAR, 4.99852801234917238e-03 * DAYS_PER_YEAR,
	  2.30417297573763929e-05 * DAYS_PER_YEAR},
	 2.85885980666130812e-04 * SOLAR_MASS},
	{{1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01},
	 {2.96460137564761618e-03 * DAYS_PER_YEAR, 2.37847173959480950e-03 * DAYS_PER_YEAR,
	  -2.96589568540237556e-05 * DAYS_PER_YEAR},
	 4.36624404335156298e-05 * SOLAR_MASS},
	{{1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01},
	 {2.68067772490389322e-03 * DAYS_PER_YEAR, 1.62824170038242295e-03 * DAYS_PER_YEAR,
	  -9.51592254519715870e-05 * DAYS_PER_YEAR},
	 5.15138902046611451e-05 * SOLAR_MASS},
};

static double energy(void)
{
	double e = 0;

	for (int i = 0; i < NB; i++) {
		struct body *b = &bodies[i];
		e += 0.5 * b->m * (b->v[0] * b->v[0] + b->v[1] * b->v[1] + b->v[2] * b->v[2]);
		for (int j = i + 1; j < NB; j++) {
			double d[3], r2 = 0;
			for (int k = 0; k < 3; k++) {
				d[k] = b->x[k] - bodies[j].x[k];
				r2 += d[k] * d[k];
			}
			e -= b->m * bodies[j].m / sqrt(r2);
		}
	}
	return e;
}

static void advance(double dt)
{
	for (int i = 0; i < NB; i++) {
		for (int j = i + 1; j < NB; j++) {
			double d[3], r2 = 0, mag;
			for (int k = 0; k < 3; k++) {
				d[k] = bodies[i].x[k] - bodies[j].x[k];
				r2 += d[k] * d[k];
			}
			mag = dt / (r2 * sqrt(r2));
			for (int k = 0; k < 3; k++) {
				bodies[i].v[k] -= d[k] * bodies[j].m * mag;
				bodies[j].v[k] += d[k] * bodies[i].m * mag;
			}
		}
	}
	for (int i = 0; i < NB; i++)
		for (int k = 0; k < 3; k++)
			bodies[i].x[k] += dt * bodies[i].v[k];
}

/* STEPS steps of the simulation; never inlined and aligned to a cache
 * line, so that its code and its place in the cache are the same however
 * often main calls it and however long main is (bench/ab-live). */
#ifdef __GNUC__
__attribute__((noinline, aligned(64)))
#endif
static void run(long steps)
{
	for (long s = 0; s < steps; s++)
		advance(0.01);
}

int main(int argc, char **argv)
{
	long steps = argc > 1 ? atol(argv[1]) : 5000000;
	double p[3] = {0, 0, 0};

	/* Move the sun so the system's momentum is zero. */
	for (int i = 0; i < NB; i++)
		for (int k = 0; k < 3; k++)
			p[k] += bodies[i].v[k] * bodies[i].m;
	for (int k = 0; k < 3; k++)
		bodies[0].v[k] = -p[k] / SOLAR_MASS;
	printf("energy before %.9f\n", energy());
	run(steps);
	printf("energy after %.9f\n", energy());
#ifdef AB_LIVE
	/* bench/ab-live's knob: 3 % more work of the same kind (steps),
	 * after the results are printed, so that the output is unchanged. */
	run(steps * 3 / 100);
#endif
	return 0;
}
