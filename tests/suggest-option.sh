#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A mistyped option: the error names it and the nearest valid option, points
# to --help, and does not print the whole help; nothing is run.
. "$top_srcdir/tests/setup"

for prog in "$TIMEIT" "$top_builddir/perfwrap/timeit-perf"; do
	name=$(basename "$prog")
	expect_status 1 "$prog" --sumary s sh -c 'echo ran >ran' >out 2>err
	[ "$(sed -n 1p err)" = "error: invalid argument '--sumary' (did you mean --summary?)" ] ||
		fail "$name: first line '$(sed -n 1p err)'"
	sed -n 2p err | grep -q "^usage: $name " || fail "$name: no usage line"
	grep -q -- "--help" err || fail "$name: no pointer to --help"
	[ "$(wc -l <err)" -le 3 ] || fail "$name: $(wc -l <err) lines on a typo"
	[ ! -e ran ] || fail "$name: the command ran"
	[ ! -e s ] || fail "$name: a summary was written"
	# Nothing near: no suggestion.
	expect_status 1 "$prog" --zzzzzzzz true 2>err
	[ "$(sed -n 1p err)" = "error: invalid argument '--zzzzzzzz'" ] ||
		fail "$name: far option got '$(sed -n 1p err)'"
done
exit 0
