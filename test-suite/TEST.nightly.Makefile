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

# --- A/B ---------------------------------------------------------------------
# make ab BASE='CC=gcc CFLAGS=-O1' NEW='CC=gcc CFLAGS=-O2' [SAMPLES=N]
# Builds both sides (O/A, O/B), runs every sample A, B, A, B, ... one at a
# time, so that drift of the machine hits both sides alike, then compares
# with timeit-compare (table, O/ab.svg).  BASE and NEW are make arguments
# for each side, quoted as for the shell: only the compiler settings
# (AB_SIDE_VARS, checked in Makefile) may differ, since every sample runs with the run settings
# of make ab itself.  AB_GATE=no: a significant regression does not fail
# the target (the demo).
BASE ?=
NEW ?=
AB_GATE ?= yes
export AB_BASE := $(BASE)
export AB_NEW := $(NEW)
export TIMEIT_COMPARE COMPARE_FLAGS

define newline


endef
# One line per run, in the interleaved order.
AB_PLAN = $(foreach i,$(SAMPLE_SEQ),\
	echo "  RUN      sample $(i) of $(SAMPLES), A and B interleaved"$(newline)\
	$(foreach b,$(BENCHMARKS),$(foreach s,A B,\
	$(call run_sample,$(O)/$(s),$(O)/$(s)/results,$(b),$(i))$(newline))))

SIDE_MAKE = $(MAKE) --no-print-directory -f $(SRCDIR)/Makefile build

# "+": the sub-makes share the jobserver of make -jN.
ab: $(FPCMP)
	+@echo "A: $(BASE)"; eval "set -- $$AB_BASE"; \
		$(SIDE_MAKE) O=$(O)/A RESULTS=$(O)/A/results "$$@"
	+@echo "B: $(NEW)"; eval "set -- $$AB_NEW"; \
		$(SIDE_MAKE) O=$(O)/B RESULTS=$(O)/B/results "$$@"
	@rm -f $(O)/A/results/*.time* $(O)/B/results/*.time*
	$(file >$(O)/ab-plan.sh,$(AB_PLAN))
	@sh $(O)/ab-plan.sh
	@sh $(SRCDIR)/tools/ab.sh $(SRCDIR) $(O) $(SAMPLES) $(AB_GATE) $(BENCH_PATHS)
