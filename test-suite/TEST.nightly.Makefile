# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# TEST.nightly.Makefile: what a nightly run reports, and the A/B run.
# Included by Makefile; uses its BENCHMARKS, SAMPLE_SEQ and run_sample.

# --- report ----------------------------------------------------------------
# After every sample: report.json (LNT format 2), report.csv and the table.
# make exits non-zero here when any benchmark failed.
REPORT_ENV = CC=$(call quote,$(CC)) CFLAGS=$(call quote,$(CFLAGS)) \
	CPPFLAGS=$(call quote,$(CPPFLAGS)) LDFLAGS=$(call quote,$(LDFLAGS)) \
	CC_VERSION=$(call quote,$(CC_VERSION)) START_TIME=$(call quote,$(START_TIME)) \
	REVISION=$(call quote,$(REVISION)) SIZE=$(SIZE) SHARD=$(call quote,$(SHARD))
BENCH_PATHS = $(foreach b,$(BENCHMARKS),$($(b)_DIR)/$(b))

report: $(ALL_SAMPLES)
	@$(REPORT_ENV) sh $(SRCDIR)/tools/report.sh $(O) $(RESULTS) $(SAMPLES) $(BENCH_PATHS)
	@echo "reports: $(O)/report.json $(O)/report.csv; summaries: $(RESULTS)"

# --- LNT ---------------------------------------------------------------------
# make submit LNT_URL=http://host:8000/db_default/v4/nts/submitRun [LNT=lnt]
# Posts the reports of the last run (O/report.json, and O/A and O/B after
# make ab) as "lnt submit" does; fails when the server stores any of them
# not, or a report is older than its run's samples (a run that failed or
# was stopped before its report), or the server does not answer within
# SUBMIT_TIMEOUT seconds.  Runs nothing itself.
LNT_URL ?=
LNT ?=
LNT_MERGE ?= replace
LNT_SELECT_MACHINE ?= match
SUBMIT_TIMEOUT ?= 120
SUBMIT_REPORTS = $(wildcard $(O)/report.json $(O)/A/report.json $(O)/B/report.json)
submit: $(if $(LNT),,$(LNT_ANSWER))
	@[ -n '$(LNT_URL)' ] || { echo 'make submit: give LNT_URL=http://HOST:PORT/db_default/v4/nts/submitRun' >&2; exit 2; }
	@[ -n '$(SUBMIT_REPORTS)' ] || { echo 'make submit: no report under $(O): run make (or make ab) first' >&2; exit 2; }
	@LNT='$(LNT)' LNT_MERGE='$(LNT_MERGE)' LNT_SELECT_MACHINE='$(LNT_SELECT_MACHINE)' \
		SUBMIT_TIMEOUT='$(SUBMIT_TIMEOUT)' LNT_ANSWER='$(LNT_ANSWER)' \
		sh $(SRCDIR)/tools/submit.sh '$(LNT_URL)' $(SUBMIT_REPORTS)

# --- A/B ---------------------------------------------------------------------
# make ab BASE='CC=gcc CFLAGS=-O1' NEW='CC=gcc CFLAGS=-O2' [SAMPLES=N|auto]
# Builds both sides (O/A, O/B), then runs rounds with timeit-ab --suite
# (lib/drive): in each, every benchmark once on each side, A and B back to
# back (SCHEDULE=sequential, the order of the two alternated per round, or
# drawn with AB_ORDER=random) or started together, each on its own CPU
# (SCHEDULE=duet), so that the machine's drift and load hit both alike;
# then compares with timeit-compare (table, O/ab.svg).  A benchmark whose
# binaries are identical is decided after round 1.  SAMPLES=auto runs
# MIN_SAMPLES rounds (auto: as early as a decision is possible), then
# after every AB_LOOK_EVERY rounds keeps the
# benchmarks that more samples could still decide, up to MAX_SAMPLES
# rounds or AB_BUDGET seconds (a bound: no round starts that would end
# later); every look and the final table take --looks N, the most looks
# the rule can take, so that the verdicts account for the repeated looks.
# BASE and NEW are make arguments for each side, quoted as for the shell:
# only the compiler settings (AB_SIDE_VARS, checked in Makefile) may
# differ, since every sample runs with the run settings of make ab itself.
# AB_GATE=no: a significant regression does not fail the target (the
# demo).
BASE ?=
NEW ?=
AB_GATE ?= yes
export AB_BASE := $(BASE)
export AB_NEW := $(NEW)
export TIMEIT_COMPARE COMPARE_FLAGS

# --binaries: a benchmark whose executables are the same on both sides is
# "same code" for timeit-compare, never a regression.  The final table's
# --looks N is the driver's (O/ab-looks, read by tools/ab.sh).
AB_COMPARE_ARGS = $(COMPARE_FLAGS) --binaries $(O)/A/bin $(O)/B/bin
export AB_COMPARE_ARGS

# Each side is its own LNT run and order (tools/revisions.sh): BASE_REVISION
# and NEW_REVISION, by default the two compilers' version numbers when they
# differ, else the start time and the start time + 1.  Decided before
# anything runs.
BASE_REVISION ?=
NEW_REVISION ?=
ifneq ($(filter ab,$(MAKECMDGOALS)),)
AB_REVISIONS := $(shell BASE_REVISION=$(call quote,$(BASE_REVISION)) \
	NEW_REVISION=$(call quote,$(NEW_REVISION)) CC=$(call quote,$(CC)) \
	AB_BASE=$(call quote,$(BASE)) AB_NEW=$(call quote,$(NEW)) \
	START_EPOCH=$(START_EPOCH) sh $(SRCDIR)/tools/revisions.sh)
ifneq ($(firstword $(AB_REVISIONS)),ok)
$(error make ab: $(or $(AB_REVISIONS),tools/revisions.sh failed))
endif
AB_REVISION_A := $(word 2,$(AB_REVISIONS))
AB_REVISION_B := $(word 3,$(AB_REVISIONS))
endif

define newline


endef
rparen := )
# sh ab-run.sh SIDE NAME I: one checked sample, what timeit-ab --suite
# runs.
AB_RUNFILE = case $$2 in$(newline)\
	$(foreach b,$(BENCHMARKS),$(b)$(rparen) $(call run_sample,$(O)/$$1,$(O)/$$1/results,$(b),$$3) ;;$(newline))\
	*$(rparen) echo "ab-run.sh: $$2: not a benchmark of this run" >&2; exit 2 ;;$(newline)\
	esac

# The driver's settings; COMPARE_FLAGS reach its looks one word each.
AB_DRIVE_ARGS = -n $(SAMPLES) --min-samples $(MIN_SAMPLES) --max-samples $(MAX_SAMPLES) \
	--look-every $(AB_LOOK_EVERY) --budget $(AB_BUDGET) --order $(AB_ORDER) --seed $(AB_SEED) \
	--schedule $(SCHEDULE) $(if $(strip $(AB_CPU)),--cpu $(call quote,$(AB_CPU))) \
	$(foreach f,$(COMPARE_FLAGS),-C $(call quote,$(f)))

SIDE_MAKE = $(MAKE) --no-print-directory -f $(SRCDIR)/Makefile build

# "+": the sub-makes share the jobserver of make -jN.
ifeq ($(WHAT),compile)
# make ab WHAT=compile: the compiles, not the runs.  Each side's make
# writes its compile_commands.json (make compdb: every benchmark's source
# to an object, the link left out), then timeit-ab --compile runs them
# again in rounds and compares each benchmark's compile_time (or the
# --metric of COMPARE_FLAGS: compile_wall, compile_maxrss); identical
# compiler, arguments and source: same after round 1.  Its outputs in
# O/compile-ab, the table in O/ab-compile.txt and O/ab-compile.csv.
ab:
	@rm -f $(O)/ab-compile.txt $(O)/ab-compile.csv $(O)/A/compile_commands.json $(O)/B/compile_commands.json
	+@echo "A: $(BASE)"; eval "set -- $$AB_BASE"; \
		$(MAKE) --no-print-directory -f $(SRCDIR)/Makefile compdb O=$(O)/A RESULTS=$(O)/A/results "$$@"
	+@echo "B: $(NEW)"; eval "set -- $$AB_NEW"; \
		$(MAKE) --no-print-directory -f $(SRCDIR)/Makefile compdb O=$(O)/B RESULTS=$(O)/B/results "$$@"
	@TIMEIT_AB='$(TIMEIT_AB)' sh $(SRCDIR)/tools/ab-compile.sh $(O) $(AB_GATE) $(AB_DRIVE_ARGS)
else
ab: $(FPCMP)
	@'$(TIMEIT_AB)' --check --suite $(O)/ab-run.sh -o $(O) $(AB_DRIVE_ARGS) -- $(BENCHMARKS)
	@# The last run's samples, reports and tables go first: a build that
	@# fails or is interrupted must leave nothing make submit could post.
	@rm -f $(O)/A/results/*.time* $(O)/B/results/*.time* $(O)/A/Output/*.status $(O)/B/Output/*.status $(O)/ab-looks \
		$(O)/A/report.json $(O)/B/report.json $(O)/report.json $(O)/ab.txt $(O)/ab.csv $(O)/ab.svg
	+@echo "A: $(BASE) (revision $(AB_REVISION_A))"; eval "set -- $$AB_BASE"; \
		$(SIDE_MAKE) O=$(O)/A RESULTS=$(O)/A/results REVISION=$(AB_REVISION_A) "$$@"
	+@echo "B: $(NEW) (revision $(AB_REVISION_B))"; eval "set -- $$AB_NEW"; \
		$(SIDE_MAKE) O=$(O)/B RESULTS=$(O)/B/results REVISION=$(AB_REVISION_B) "$$@"
	$(file >$(O)/ab-run.sh,$(AB_RUNFILE))
	@'$(TIMEIT_AB)' --suite $(O)/ab-run.sh -o $(O) $(AB_DRIVE_ARGS) -- $(BENCHMARKS)
	@sh $(SRCDIR)/tools/ab.sh $(SRCDIR) $(O) $(SAMPLES) $(AB_GATE) $(BENCH_PATHS)
endif
