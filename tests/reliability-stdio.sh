#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A command that closes its standard streams, floods them, or writes into
# a pipe whose reader has gone: timeit measures it all the same.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
export AUX

# Closed stdin, stdout and stderr.
# shellcheck disable=SC2016
expect_status 3 "$TIMEIT" --summary s sh -c 'exec <&- >&- 2>&-; exec "$AUX" burn 10 exit 3'
[ "$(head -n 1 s)" = "exit 3" ] || fail "closed streams: summary $(cat s)"
lit_user s > /dev/null

# 16 MiB on stdout and on stderr, to files; then both into one file (one
# shared descriptor, so the two floods follow each other, none lost).
n=16777216
"$TIMEIT" --summary s --redirect-stdout out --redirect-stderr err \
	sh -c "head -c $n /dev/zero; head -c $n /dev/zero >&2" || fail "flood to files"
[ "$(wc -c < out)" -eq "$n" ] || fail "stdout flood: $(wc -c < out) bytes"
[ "$(wc -c < err)" -eq "$n" ] || fail "stderr flood: $(wc -c < err) bytes"
[ "$(head -n 1 s)" = "exit 0" ] || fail "flood to files: summary $(cat s)"
"$TIMEIT" --summary s --redirect-output both \
	sh -c "head -c $n /dev/zero; head -c $n /dev/zero >&2" || fail "flood to one file"
[ "$(wc -c < both)" -eq $((2 * n)) ] || fail "shared flood: $(wc -c < both) bytes"

# A flood into a pipe whose reader stops after 10 bytes: the command dies
# of SIGPIPE (status 128+13), timeit does not.
{ set +e; "$TIMEIT" --summary s yes 2> err; echo $? > st; } | head -c 10 > /dev/null
[ "$(cat st)" -eq 141 ] || fail "broken pipe: timeit exited $(cat st): $(cat err)"
[ "$(head -n 1 s)" = "exit 141" ] || fail "broken pipe: summary $(cat s)"
grep -q 'terminated by signal 13' err || fail "broken pipe: no message: $(cat err)"

# The same flood, timeit reporting on stderr into the same dead pipe: it
# must still exit (with the command's status), not hang or crash.
{ set +e; "$TIMEIT" yes 2>&1; echo $? > st; } | head -c 10 > /dev/null
[ "$(cat st)" -eq 141 ] || fail "broken pipe, report on it: timeit exited $(cat st)"
exit 0
