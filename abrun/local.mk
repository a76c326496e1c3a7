# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# abrun/: timeit-ab, the interleaved adaptive A/B runner of two lit test
# directories.  The script is built from abrun/timeit-ab.sh with the
# version and the bug-report address filled in.
bin_SCRIPTS += abrun/timeit-ab
EXTRA_DIST += abrun/timeit-ab.sh docs/LLVM-TEST-SUITE.md
CLEANFILES += abrun/timeit-ab
abrun/timeit-ab: abrun/timeit-ab.sh Makefile
	$(AM_V_GEN)$(MKDIR_P) abrun && \
	sed -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
		-e 's|@PACKAGE_BUGREPORT[@]|$(PACKAGE_BUGREPORT)|g' $(srcdir)/abrun/timeit-ab.sh >$@.tmp && \
	chmod +x $@.tmp && mv -f $@.tmp $@
