#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# 32 timeits at once, each measuring a different program: every summary
# and every redirected output belongs to its own run.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"

# Run i allocates i MiB, prints its own marker and exits with status i, so
# a summary swapped with another run's cannot pass.
i=1
while [ "$i" -le 32 ]; do
	"$TIMEIT" --summary "s$i" --report-maxrss --redirect-stdout "o$i" \
		"$AUX" alloc "$i" burn 20 print "run $i" exit "$i" 2> "e$i" &
	i=$((i + 1))
done
wait

i=1
while [ "$i" -le 32 ]; do
	[ -s "s$i" ] || fail "run $i: no summary: $(cat "e$i")"
	[ "$(head -n 1 "s$i")" = "exit $i" ] || fail "run $i: summary says $(head -n 1 "s$i")"
	[ "$(cat "o$i")" = "run $i" ] || fail "run $i: output is '$(cat "o$i")'"
	u=$(lit_user "s$i")
	sy=$(summary_value "s$i" sys)
	# At least the 20 ms burnt (user alone when task-clock counted it, the
	# rusage split is by ticks), far below the 32 runs' total.
	in_range "$u" 0 0.5 || fail "run $i: user $u"
	in_range "$(awk -v u="$u" -v s="$sy" 'BEGIN { print u + s }')" 0.015 1 ||
		fail "run $i: user $u + sys $sy"
	rss=$(summary_value "s$i" maxrss)
	# The kernel's RSS counts are per-CPU and batched (percpu_counter): a
	# few dozen pages short at times, which a program adding hardly
	# anything to its i MiB (static musl) shows.
	[ "$rss" -ge $((i * 1048576 - 524288)) ] || fail "run $i: maxrss $rss below $i MiB"
	[ "$rss" -le $(((i + 64) * 1048576)) ] || fail "run $i: maxrss $rss: another run's?"
	i=$((i + 1))
done
[ -z "$(find . -name '.*.tmp.*')" ] || fail "temporary files left: $(find . -name '.*.tmp.*')"
exit 0
