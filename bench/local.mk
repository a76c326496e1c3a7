# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/: programs and scripts that measure timeit itself and print figures
# (docs/README.md lists where).  Never run by make check: "make bench" builds what
# they need and runs them all.  The simulations are built by make check (not
# run): a merge that breaks them is caught there.
EXTRA_PROGRAMS = bench/launcher bench/runner bench/work bench/nop bench/hold
check_PROGRAMS += bench/ab-sim bench/series-sim
bench_launcher_SOURCES = bench/launcher.c
bench_runner_SOURCES = bench/runner.c
bench_work_SOURCES = bench/work.c
bench_nop_SOURCES = bench/nop.c
bench_hold_SOURCES = bench/hold.c
# The simulation that chose timeit-compare's statistics.
bench_ab_sim_SOURCES = bench/ab-sim.c
bench_ab_sim_LDADD = $(AB_LIBS)
# The simulation that chose timeit-series' change-point rule.
bench_series_sim_SOURCES = bench/series-sim.c
bench_series_sim_LDADD = $(SERIES_LIBS)
# Not AM_CPPFLAGS: lib/measure/spawn.h would hide the system's <spawn.h>.
bench_launcher_CPPFLAGS = -I$(top_builddir)
bench_runner_CPPFLAGS = -I$(top_builddir)
bench_work_CPPFLAGS = -I$(top_builddir)
bench_hold_CPPFLAGS = -I$(top_builddir)
# Static, so its resident set stays below timeit's (see bench/nop.c).
bench_nop_LDFLAGS = -static
CLEANFILES += $(EXTRA_PROGRAMS)
# Where the wall of timeit-ab's lit rounds goes, and how far its pairs
# move (docs/LLVM-TEST-SUITE.md).
EXTRA_DIST += bench/lit-round-cost.py bench/lit-pair-spread.py bench/lit-budget-agree.py
EXTRA_DIST += bench/common.sh bench/compile-count.sh bench/overhead.sh bench/perf-overhead.sh bench/noise.sh bench/scaling.sh \
	bench/accounting.sh bench/outside.awk bench/ab-live.sh bench/cache-sim.sh \
	bench/series-live.sh bench/read-scale.sh bench/series-scale.sh bench/cmd-vs-hyperfine.sh \
	bench/ab-geo-e2e.sh

BENCH_ENV = TIMEIT='$(abs_top_builddir)/timeit/timeit' \
	BENCH_BIN='$(abs_top_builddir)/bench'

# bench/nop needs a static C library; without one overhead.sh says so.
bench: timeit/timeit compare/timeit-compare bench/launcher bench/runner bench/work bench/hold \
		bench/ab-sim bench/series-sim
	-$(MAKE) $(AM_MAKEFLAGS) bench/nop
	$(BENCH_ENV) $(SHELL) $(srcdir)/bench/overhead.sh
	$(BENCH_ENV) $(SHELL) $(srcdir)/bench/noise.sh
	$(BENCH_ENV) $(SHELL) $(srcdir)/bench/scaling.sh
	$(BENCH_ENV) $(SHELL) $(srcdir)/bench/accounting.sh
	bench/ab-sim --compare compare/timeit-compare
	bench/series-sim 500
.PHONY: bench

# A history of the bundled suite read back from an LNT server (docs/LNT.md,
# "A history read back"): make bench-series-live LNT_URL=http://HOST:PORT/
# db_default/v4/nts/submitRun; 20 nights of 5 passes, about 30 minutes.
bench-series-live: timeit/timeit series/timeit-series
	TIMEIT='$(abs_top_builddir)/timeit/timeit' \
	TIMEIT_SERIES='$(abs_top_builddir)/series/timeit-series' CC='$(CC)' \
		$(SHELL) $(srcdir)/bench/series-live.sh '$(LNT_URL)'
.PHONY: bench-series-live

# The adaptive A/B of the bundled suite against a known truth (a knob that
# adds 3 % and 10 % of work to four benchmarks), 10 repetitions a rule:
# about an hour on a 2-core VM, so not part of make bench.
bench-ab-live: timeit/timeit compare/timeit-compare abrun/timeit-ab
	TIMEIT='$(abs_top_builddir)/timeit/timeit' \
	TIMEIT_COMPARE='$(abs_top_builddir)/compare/timeit-compare' CC='$(CC)' \
		$(SHELL) $(srcdir)/bench/ab-live.sh $(AB_LIVE_REPS)
AB_LIVE_REPS = 10
.PHONY: bench-ab-live

# timeit-ab --cmd against hyperfine on the same pairs of commands in the
# same wall time (docs/verdicts.md): about 5 minutes; needs hyperfine.
bench-cmd: abrun/timeit-ab timeit/timeit compare/timeit-compare
	TIMEIT_AB='$(abs_top_builddir)/abrun/timeit-ab' SRCDIR='$(abs_top_srcdir)' CC='$(CC)' \
		$(SHELL) $(srcdir)/bench/cmd-vs-hyperfine.sh $(CMD_REPS)
CMD_REPS = 5
.PHONY: bench-cmd

# The cache simulation (docs/noise.md, docs/cost.md): about 45 minutes on a 2-core VM, so not
# part of make bench either.
bench-cache: timeit/timeit
	TIMEIT='$(abs_top_builddir)/timeit/timeit' SRCDIR='$(abs_top_srcdir)' \
		$(SHELL) $(srcdir)/bench/cache-sim.sh
.PHONY: bench-cache

# The suite's geometric-mean interval through timeit-ab --suite's early
# stops, against a known truth (docs/verdicts.md): 100 suites a setting
# of 4, about 20 minutes on a 2-core VM.
bench-geo-e2e: abrun/timeit-ab compare/timeit-compare
	TIMEIT_AB='$(abs_top_builddir)/abrun/timeit-ab' \
	TIMEIT_COMPARE='$(abs_top_builddir)/compare/timeit-compare' \
		$(SHELL) $(srcdir)/bench/ab-geo-e2e.sh $(GEO_SUITES)
GEO_SUITES = 100
.PHONY: bench-geo-e2e
