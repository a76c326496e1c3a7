# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# perfwrap/: timeit-perf, the perf-stat-based wrapper with the same contract.
# The script is built from perfwrap/timeit-perf.sh with the version and the
# perf found by configure filled in.
bin_SCRIPTS += perfwrap/timeit-perf
EXTRA_DIST += perfwrap/timeit-perf.sh
CLEANFILES += perfwrap/timeit-perf
perfwrap/timeit-perf: perfwrap/timeit-perf.sh Makefile
	$(AM_V_GEN)$(MKDIR_P) perfwrap && \
	sed -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
		-e 's|@PACKAGE_BUGREPORT[@]|$(PACKAGE_BUGREPORT)|g' -e 's|@PERF[@]|$(PERF)|g' \
		$(srcdir)/perfwrap/timeit-perf.sh >$@.tmp && \
	chmod +x $@.tmp && mv -f $@.tmp $@
