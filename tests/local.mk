# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# tests/: make check.  C unit tests speak TAP; shell tests use exit status
# (0 pass, 77 skip, 99 hard error).  CC and, in a cross build, STRIP are
# the target's, for the programs the tests build (the bundled suite).
TEST_EXTENSIONS = .sh
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_DRIVER = $(SHELL) $(top_srcdir)/build-aux/test-driver
# The bundled suite, as a make-based suite does, takes CFLAGS, CPPFLAGS,
# LDFLAGS and LIBS from the environment: a packager's (dpkg-buildflags
# exports -Wl,-z,relro ...) are not what the tests give it.
AM_TESTS_ENVIRONMENT = \
	unset CFLAGS CPPFLAGS LDFLAGS LIBS || :; \
	TIMEIT='$(abs_top_builddir)/timeit/timeit'; export TIMEIT; \
	AUX='$(abs_top_builddir)/tests/timeit-aux'; export AUX; \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	MANDOC='$(MANDOC)'; export MANDOC; \
	VALGRIND='$(VALGRIND)'; export VALGRIND; \
	PERF='$(PERF)'; export PERF; \
	CC='$(CC)'; export CC; \
	if test -n '$(STRIP)'; then STRIP='$(STRIP)'; export STRIP; fi; \
	AR='$(AR)'; export AR; ARFLAGS='$(ARFLAGS)'; export ARFLAGS; \
	PACKAGE_VERSION='$(PACKAGE_VERSION)'; export PACKAGE_VERSION; \
	PACKAGE_BUGREPORT='$(PACKAGE_BUGREPORT)'; export PACKAGE_BUGREPORT; \
	BUILT_PROGRAMS='$(bin_PROGRAMS) $(bin_SCRIPTS) $(noinst_PROGRAMS) $(check_PROGRAMS)'; \
	export BUILT_PROGRAMS;

check_PROGRAMS += tests/timeit-aux
tests_timeit_aux_SOURCES = tests/timeit-aux.c
# Programs the tests run under timeit are never sanitized (configure.ac).
tests_timeit_aux_CFLAGS = $(WARN_CFLAGS)
tests_timeit_aux_LDFLAGS =
tests_timeit_aux_LDADD =

EXTRA_DIST += tests/setup tests/tap.h tests/fakeroot.h

# C unit tests (TAP).
TESTS += tests/counters-test tests/events-test tests/options-test tests/summary-test
check_PROGRAMS += tests/counters-test tests/events-test tests/options-test tests/summary-test
# perf stat's CSV, as timeit-perf reads it.
TESTS += tests/perfcsv-test
check_PROGRAMS += tests/perfcsv-test
tests_counters_test_SOURCES = tests/counters-test.c tests/fakeperf.c tests/fakeperf.h
tests_options_test_SOURCES = tests/options-test.c timeit/options.c
tests_options_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/timeit

TESTS += tests/man.sh
EXTRA_DIST += tests/man.sh

# event selection, repeats, noise control.
TESTS += tests/strict-test tests/pfm-test
check_PROGRAMS += tests/strict-test tests/pfm-test
tests_strict_test_SOURCES = tests/strict-test.c tests/fakeperf.c tests/fakeperf.h
# counters lost at a privilege-changing exec (decision, seam, real).
TESTS += tests/lost-test tests/counters-lost.sh
check_PROGRAMS += tests/lost-test
tests_lost_test_SOURCES = tests/lost-test.c tests/fakeperf.c tests/fakeperf.h
EXTRA_DIST += tests/counters-lost.sh
# result and redirect files against what the command does;
# every fatal signal handled.
TESTS += tests/result-files.sh tests/signals-all.sh
EXTRA_DIST += tests/result-files.sh tests/signals-all.sh
# timeit-perf's parsing: "-" paths, -e blanks and PMU commas, exact limits.
TESTS += tests/perfwrap-args.sh
EXTRA_DIST += tests/perfwrap-args.sh
TESTS += tests/events.sh
EXTRA_DIST += tests/events.sh

# timeit-compare: statistics, JSON reader and result readers.
TESTS += tests/stats-test tests/jsonread-test
check_PROGRAMS += tests/stats-test tests/jsonread-test
TESTS += tests/repeat-test
check_PROGRAMS += tests/repeat-test
TESTS += tests/repeat.sh
EXTRA_DIST += tests/repeat.sh
TESTS += tests/repeat-output.sh
EXTRA_DIST += tests/repeat-output.sh
TESTS += tests/suggest-option.sh
EXTRA_DIST += tests/suggest-option.sh
TESTS += tests/suggest-compare.sh
EXTRA_DIST += tests/suggest-compare.sh

# --count-instructions=valgrind.
TESTS += tests/vgcount-test tests/vgcount.sh tests/vgcount-missing.sh
check_PROGRAMS += tests/vgcount-test tests/vgcount-work
tests_vgcount_work_SOURCES = tests/vgcount-work.c
tests_vgcount_work_CFLAGS = $(WARN_CFLAGS)
tests_vgcount_work_LDFLAGS =
tests_vgcount_work_LDADD =
EXTRA_DIST += tests/vgcount.sh tests/vgcount-missing.sh
# --count-instructions=valgrind-cache (loop-order.c is built by
# the test, at -O1 -fno-tree-vectorize, twice); the count run's
# limits, interrupts and --valgrind path.
TESTS += tests/vgcount-cache.sh tests/vgcount-limits.sh
EXTRA_DIST += tests/vgcount-cache.sh tests/vgcount-limits.sh tests/loop-order.c

# Black-box tests of the timeit binary.
TESTS += tests/cli.sh tests/exit-status.sh tests/summary.sh tests/timeit-options.sh
EXTRA_DIST += tests/cli.sh tests/exit-status.sh tests/summary.sh tests/timeit-options.sh
TESTS += tests/signals.sh tests/redirect.sh tests/limits.sh tests/measure.sh
EXTRA_DIST += tests/signals.sh tests/redirect.sh tests/limits.sh tests/measure.sh

# timeit-perf, the perf-stat wrapper.
TESTS += tests/perfwrap-conformance.sh tests/perfwrap-lint.sh tests/perfwrap-fallback.sh \
	tests/perfwrap-lost.sh tests/perfwrap-reliability.sh tests/perfwrap-orphan.sh tests/perfwrap-early.sh
EXTRA_DIST += tests/perfwrap-conformance.sh tests/perfwrap-lint.sh tests/perfwrap-fallback.sh \
	tests/perfwrap-lost.sh tests/perfwrap-reliability.sh tests/perfwrap-orphan.sh tests/perfwrap-early.sh
TESTS += tests/noise-test
check_PROGRAMS += tests/noise-test
# The platform seam (lib/os.h) over fake /proc and /sys trees.
TESTS += tests/os-test
check_PROGRAMS += tests/os-test
# perf_event_open missing at run time (ENOSYS, injected): quiet.
TESTS += tests/perf-enosys.sh
EXTRA_DIST += tests/perf-enosys.sh
TESTS += tests/noise.sh
EXTRA_DIST += tests/noise.sh

# fault injection and robustness (each a few seconds at most).
TESTS += tests/reliability-summary.sh tests/reliability-nofile.sh \
	tests/reliability-timeout.sh tests/reliability-signals.sh \
	tests/reliability-concurrent.sh tests/reliability-stdio.sh \
	tests/reliability-inherit.sh tests/reliability-valgrind.sh
EXTRA_DIST += tests/reliability-summary.sh tests/reliability-nofile.sh \
	tests/reliability-timeout.sh tests/reliability-signals.sh \
	tests/reliability-concurrent.sh tests/reliability-stdio.sh \
	tests/reliability-inherit.sh tests/reliability-valgrind.sh

# timeit-compare: end-to-end tests on generated and hand-written results.
check_PROGRAMS += tests/compare-gen
TESTS += tests/compare-inputs.sh tests/compare-errors.sh tests/compare-verdicts.sh tests/compare-scale.sh \
	tests/compare-readers.sh tests/compare-read-scale.sh tests/compare-report-edges.sh tests/compare-cells.sh \
	tests/compare-loop-order.sh \
	tests/compare-svg.sh tests/compare-cli.sh
EXTRA_DIST += tests/compare-inputs.sh tests/compare-errors.sh tests/compare-verdicts.sh tests/compare-scale.sh \
	tests/compare-readers.sh tests/compare-read-scale.sh tests/compare-report-edges.sh tests/compare-cells.sh \
	tests/compare-loop-order.sh \
	tests/compare-svg.sh tests/compare-cli.sh

# test-suite/: the bundled suite end to end (small sizes), sharding, the
# arguments passed to timeit, fpcmp, make ab, and the suite under timeit-perf.
TESTS += tests/test-suite.sh tests/test-suite-shard.sh tests/test-suite-args.sh \
	tests/test-suite-ab.sh tests/test-suite-auto.sh tests/test-suite-progress.sh \
	tests/test-suite-perf.sh tests/test-suite-ab-compile.sh
EXTRA_DIST += tests/test-suite.sh tests/test-suite-shard.sh tests/test-suite-args.sh \
	tests/test-suite-ab.sh tests/test-suite-auto.sh tests/test-suite-progress.sh \
	tests/test-suite-perf.sh tests/test-suite-ab-compile.sh
# LNT: names, metrics and make submit against a stand-in submitRun.
TESTS += tests/test-suite-lnt.sh
# COUNT_INSTRUCTIONS=valgrind-cache in the suite's reports.
TESTS += tests/test-suite-cache.sh
EXTRA_DIST += tests/test-suite-cache.sh
EXTRA_DIST += tests/test-suite-lnt.sh tests/lnt-server.py tests/lnt/nts-schema.txt \
	tests/lnt/lit-names.txt

# timeit-ab on a small lit suite of its own (tests/lit-ab).
TESTS += tests/timeit-ab.sh tests/timeit-ab-lint.sh tests/ab-live-knob.sh tests/demo-aa.sh
TESTS += tests/timeit-ab-compile-launcher.sh
EXTRA_DIST += tests/timeit-ab-compile-launcher.sh
TESTS += tests/timeit-ab-compile-jobs.sh
EXTRA_DIST += tests/timeit-ab-compile-jobs.sh
TESTS += tests/timeit-ab-compile.sh tests/timeit-ab-compile-count.sh tests/demo-compile.sh
EXTRA_DIST += tests/timeit-ab-compile.sh tests/timeit-ab-compile-count.sh tests/demo-compile.sh
TESTS += tests/timeit-ab-lit.sh tests/timeit-ab-lock.sh tests/timeit-ab-cmd.sh \
	tests/timeit-ab-one-side.sh tests/timeit-ab-budget-kill.sh
EXTRA_DIST += tests/timeit-ab-one-side.sh tests/timeit-ab-budget-kill.sh
EXTRA_DIST += tests/timeit-ab-lit.sh tests/timeit-ab-lock.sh tests/timeit-ab-cmd.sh tests/lit-fake/lit.cfg tests/lit-fake/fakeformat.py
# A duet's long-lived lit a side, and the plan of what a budget can decide.
TESTS += tests/timeit-ab-lit-server.sh
EXTRA_DIST += tests/timeit-ab-lit-server.sh
TESTS += tests/timeit-ab-part.sh
EXTRA_DIST += tests/timeit-ab-part.sh
TESTS += tests/timeit-ab-extend.sh
EXTRA_DIST += tests/timeit-ab-extend.sh
# The final table as one of the looks: the rest of alpha after a budget.
TESTS += tests/timeit-ab-looks.sh
EXTRA_DIST += tests/timeit-ab-looks.sh
# The suite's geometric mean after benchmarks stopped at different rounds.
TESTS += tests/timeit-ab-geo.sh
EXTRA_DIST += tests/timeit-ab-geo.sh
# A full disk as the run ends: every write checked, the first failure said.
TESTS += tests/timeit-ab-full.sh
EXTRA_DIST += tests/timeit-ab-full.sh
# Names with tabs, newlines and backslashes in the TSV files.
TESTS += tests/timeit-ab-tsv.sh
EXTRA_DIST += tests/timeit-ab-tsv.sh
# What a job leaves running in its process group ends with it.
TESTS += tests/timeit-ab-leftover.sh
EXTRA_DIST += tests/timeit-ab-leftover.sh
TESTS += tests/timeit-ab-resume.sh
EXTRA_DIST += tests/timeit-ab-resume.sh
EXTRA_DIST += tests/timeit-ab.sh tests/timeit-ab-lint.sh tests/ab-live-knob.sh tests/demo-aa.sh tests/lit-ab/lit.cfg tests/lit-ab/timedtest.py tests/lit-ab/spin.c \
	tests/lit-ab/slow.test tests/lit-ab/fast.test tests/lit-ab/same.test

# The JSON writer's strings (escapes, bytes that are not UTF-8).
TESTS += tests/json-test
check_PROGRAMS += tests/json-test

# A dynamically linked twin of timeit (the installed one is static when it
# can be): valgrind's memcheck can only check a dynamic program
# (tests/reliability-valgrind.sh).
check_PROGRAMS += tests/timeit-dynamic
tests_timeit_dynamic_SOURCES = $(timeit_timeit_SOURCES)
tests_timeit_dynamic_LDADD = $(timeit_timeit_LDADD)

# The licence: LICENSE and an SPDX line in every source file.
TESTS += tests/licence.sh tests/source-rules.sh
EXTRA_DIST += tests/licence.sh tests/source-rules.sh

# A release: NEWS, the version, the bug-report address, a quiet build.
TESTS += tests/release.sh tests/gitignore.sh tests/readme.sh
EXTRA_DIST += tests/release.sh tests/gitignore.sh tests/readme.sh

# make install / uninstall, and the installed test-suite run from there.
TESTS += tests/install.sh
EXTRA_DIST += tests/install.sh

# The verdict model of timeit-compare, from a table.
TESTS += tests/verdict-test
check_PROGRAMS += tests/verdict-test
tests_verdict_test_LDADD = $(AB_LIBS)

# timeit-series: the change-point rule and the history (TAP), the program
# on generated histories, and --lnt against the stand-in LNT server.
TESTS += tests/series-test
check_PROGRAMS += tests/series-test
tests_series_test_LDADD = $(SERIES_LIBS)
# lib/drive without running a benchmark: lit's filter, names, looks,
# ranges, and the rounds over a runner of the test's own.
TESTS += tests/drive-test
check_PROGRAMS += tests/drive-test
tests_drive_test_LDADD = $(DRIVE_LIBS)
TESTS += tests/series-cli.sh tests/series-lnt.sh tests/series-lnt-answers.sh tests/series-input.sh \
	tests/series-confirm.sh tests/series-suspect.sh
EXTRA_DIST += tests/series-cli.sh tests/series-lnt.sh tests/series-lnt-answers.sh \
	tests/series-input.sh tests/series-confirm.sh tests/series-suspect.sh

# The simulations of bench/ still run (make check builds them).
TESTS += tests/bench-sims.sh
EXTRA_DIST += tests/bench-sims.sh
