# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# test-suite/: LLVM-style nightly Makefiles and bundled benchmarks (driven with make -C test-suite).
# The suite is plain GNU make, not automake: these lines ship it, install
# it under $(pkgdatadir)/test-suite with a prebuilt fpcmp, so that it runs
# without the source tree, and give the build tree "make demo".  See
# test-suite/README.md.
suite_files = test-suite/README.md test-suite/Makefile test-suite/Makefile.config \
	test-suite/TEST.nightly.Makefile test-suite/RunSafely.sh \
	test-suite/tools/fpcmp.c test-suite/tools/report.sh test-suite/tools/ab.sh \
	test-suite/tools/jsoncheck.awk test-suite/tools/clean.sh test-suite/tools/submit.sh \
	test-suite/tools/revisions.sh test-suite/tools/lnt-answer.c \
	test-suite/tools/compdb.sh test-suite/tools/ab-compile.sh
suite_files += test-suite/SingleSource/Benchmarks/bench.mk \
	test-suite/SingleSource/Benchmarks/exprparse.c \
	test-suite/SingleSource/Benchmarks/exprparse.reference_output \
	test-suite/SingleSource/Benchmarks/exprparse.reference_output.small \
	test-suite/SingleSource/Benchmarks/fft.c \
	test-suite/SingleSource/Benchmarks/fft.reference_output \
	test-suite/SingleSource/Benchmarks/fft.reference_output.small \
	test-suite/SingleSource/Benchmarks/hash.c \
	test-suite/SingleSource/Benchmarks/hash.reference_output \
	test-suite/SingleSource/Benchmarks/hash.reference_output.small \
	test-suite/SingleSource/Benchmarks/lcs.c \
	test-suite/SingleSource/Benchmarks/lcs.reference_output \
	test-suite/SingleSource/Benchmarks/lcs.reference_output.small \
	test-suite/SingleSource/Benchmarks/matmul.c \
	test-suite/SingleSource/Benchmarks/matmul.reference_output \
	test-suite/SingleSource/Benchmarks/matmul.reference_output.small \
	test-suite/SingleSource/Benchmarks/memwalk.c \
	test-suite/SingleSource/Benchmarks/memwalk.reference_output \
	test-suite/SingleSource/Benchmarks/memwalk.reference_output.small \
	test-suite/SingleSource/Benchmarks/nbody.c \
	test-suite/SingleSource/Benchmarks/nbody.reference_output \
	test-suite/SingleSource/Benchmarks/nbody.reference_output.small \
	test-suite/SingleSource/Benchmarks/qsort.c \
	test-suite/SingleSource/Benchmarks/qsort.reference_output \
	test-suite/SingleSource/Benchmarks/qsort.reference_output.small \
	test-suite/SingleSource/Benchmarks/sieve.c \
	test-suite/SingleSource/Benchmarks/sieve.reference_output \
	test-suite/SingleSource/Benchmarks/sieve.reference_output.small \
	test-suite/SingleSource/Benchmarks/spawn.c \
	test-suite/SingleSource/Benchmarks/spawn.reference_output \
	test-suite/SingleSource/Benchmarks/spawn.reference_output.small \
	test-suite/SingleSource/Benchmarks/tak.c \
	test-suite/SingleSource/Benchmarks/tak.reference_output \
	test-suite/SingleSource/Benchmarks/tak.reference_output.small \
	test-suite/SingleSource/Benchmarks/wordfreq.c \
	test-suite/SingleSource/Benchmarks/wordfreq.reference_output \
	test-suite/SingleSource/Benchmarks/wordfreq.reference_output.small
suite_files += test-suite/SingleSource/SelfTest/bench.mk \
	test-suite/SingleSource/SelfTest/builderr.c \
	test-suite/SingleSource/SelfTest/builderr.reference_output \
	test-suite/SingleSource/SelfTest/builderr.reference_output.small \
	test-suite/SingleSource/SelfTest/crash.c \
	test-suite/SingleSource/SelfTest/crash.reference_output \
	test-suite/SingleSource/SelfTest/crash.reference_output.small \
	test-suite/SingleSource/SelfTest/fptol.c \
	test-suite/SingleSource/SelfTest/fptol.reference_output \
	test-suite/SingleSource/SelfTest/fptol.reference_output.small \
	test-suite/SingleSource/SelfTest/hang.c \
	test-suite/SingleSource/SelfTest/hang.reference_output \
	test-suite/SingleSource/SelfTest/hang.reference_output.small \
	test-suite/SingleSource/SelfTest/wrongout.c \
	test-suite/SingleSource/SelfTest/wrongout.reference_output \
	test-suite/SingleSource/SelfTest/wrongout.reference_output.small

# make install: the suite's files as they are, fpcmp built, and
# installed.mk telling the installed Makefile where fpcmp, timeit and
# timeit-compare are (paths without DESTDIR: where they will be).
suitedir = $(pkgdatadir)
nobase_dist_suite_DATA = $(suite_files)
pkglibexec_PROGRAMS += test-suite/tools/fpcmp
test_suite_tools_fpcmp_SOURCES = test-suite/tools/fpcmp.c
test_suite_tools_fpcmp_LDADD = $(MATH_LIBS)
pkglibexec_PROGRAMS += test-suite/tools/lnt-answer
test_suite_tools_lnt_answer_SOURCES = test-suite/tools/lnt-answer.c
test_suite_tools_lnt_answer_LDADD = lib/libtimeit.a $(MATH_LIBS)
install-data-hook: install-suite-config
uninstall-hook: uninstall-suite-config
.PHONY: install-suite-config uninstall-suite-config
install-suite-config:
	$(MKDIR_P) '$(DESTDIR)$(suitedir)/test-suite'
	{ echo '# Written by make install: this is an installed copy of the suite.'; \
	  echo 'SUITE_INSTALLED := yes'; \
	  echo 'FPCMP_PREBUILT := $(pkglibexecdir)/fpcmp'; \
	  echo 'LNT_ANSWER_PREBUILT := $(pkglibexecdir)/lnt-answer'; \
	  echo 'TIMEIT ?= $(bindir)/timeit'; \
	  echo 'TIMEIT_COMPARE ?= $(bindir)/timeit-compare'; \
	  echo 'TIMEIT_AB ?= $(bindir)/timeit-ab'; } \
		> '$(DESTDIR)$(suitedir)/test-suite/installed.mk'
uninstall-suite-config:
	rm -f '$(DESTDIR)$(suitedir)/test-suite/installed.mk'

# make demo: the A/B comparison of -O1 against -O2 on the bundled benchmarks
# (small sizes), sampled adaptively (SAMPLES=auto: MIN_SAMPLES rounds, then
# only the benchmarks still undecided, up to MAX_SAMPLES rounds or
# DEMO_BUDGET seconds of runs), with this build's timeit and timeit-compare;
# output under $(DEMO_DIR).  The gate is 2 % (DEMO_COMPARE_FLAGS): on a
# shared VM whose noise is ~4 %, "unchanged within 1 %" takes more rounds
# than a demo has.  A regression does not fail the demo (AB_GATE=no); a
# failed run does.  make demo-aa: the same with -O2 on both
# sides, built in two directories: nothing changed, so it fails when any
# benchmark is found improved or regressed.
DEMO_DIR = $(abs_top_builddir)/demo
DEMO_AA_DIR = $(abs_top_builddir)/demo-aa
# make demo-compile: the compiles of -O1 against -O2 (make ab WHAT=compile,
# docs/compile-time.md), the same sampling; output under $(DEMO_COMPILE_DIR).
DEMO_COMPILE_DIR = $(abs_top_builddir)/demo-compile
DEMO_SAMPLES = auto
DEMO_BUDGET = 150
DEMO_COMPARE_FLAGS = --min-change 2
DEMO_AB = +@$(MAKE) --no-print-directory -f $(abs_top_srcdir)/test-suite/Makefile ab \
	TIMEIT='$(abs_top_builddir)/timeit/timeit' \
	TIMEIT_COMPARE='$(abs_top_builddir)/compare/timeit-compare' \
	TIMEIT_AB='$(abs_top_builddir)/abrun/timeit-ab' \
	SIZE=small SAMPLES=$(DEMO_SAMPLES) AB_BUDGET=$(DEMO_BUDGET) \
	COMPARE_FLAGS='$(DEMO_COMPARE_FLAGS)'
.PHONY: demo demo-aa demo-compile
demo-compile: $(bin_PROGRAMS)
	$(DEMO_AB) WHAT=compile O='$(DEMO_COMPILE_DIR)' BASE="CC='$(CC)' CFLAGS=-O1" \
		NEW="CC='$(CC)' CFLAGS=-O2" AB_GATE=no
demo: $(bin_PROGRAMS)
	$(DEMO_AB) O='$(DEMO_DIR)' BASE="CC='$(CC)' CFLAGS=-O1" NEW="CC='$(CC)' CFLAGS=-O2" AB_GATE=no
demo-aa: $(bin_PROGRAMS)
	$(DEMO_AB) O='$(DEMO_AA_DIR)' BASE="CC='$(CC)' CFLAGS=-O2" NEW="CC='$(CC)' CFLAGS=-O2" AB_GATE=no
	@awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($$i == "verdict") v = i; next } \
		$$v == "improved" || $$v == "regressed" { print "demo-aa: " $$1 " " $$v " in an A/A run" > "/dev/stderr"; bad++ } \
		END { exit bad > 0 }' '$(DEMO_AA_DIR)/ab.csv'

clean-local: clean-demo
.PHONY: clean-demo
clean-demo:
	-rm -rf '$(DEMO_DIR)' '$(DEMO_AA_DIR)' '$(DEMO_COMPILE_DIR)'
