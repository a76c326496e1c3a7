#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-perf's man page documents every option of its --help, and
# perfwrap/ holds no shell program: timeit-perf is C over lib/ (the 1000
# lines of shell it replaced re-implemented lib/ and were shellcheck-ed
# here; tests/source-rules.sh now checks its C with the rest).
. "$top_srcdir/tests/setup"

page=$top_srcdir/man/timeit-perf.1
options_documented "$top_builddir/perfwrap/timeit-perf" "$page"
# The hidden exec-helper mode is not an option to document, and is not
# in --help.
! grep -q -- '--timeit-perf-exec-helper' opts || fail "--help lists the exec helper"
set -- "$top_srcdir"/perfwrap/*.sh
[ ! -e "$1" ] || fail "shell in perfwrap/: $*"
head -c 2 "$top_builddir/perfwrap/timeit-perf" | grep -q '#!' && fail "timeit-perf is a script"
exit 0
