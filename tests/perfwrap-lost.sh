#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-perf's reading of counters lost at a privilege-changing exec,
# with a scripted perf: the counters' enabled time against perf's rusage
# times.  Lost is below 3/4 of user_time + system_time and at least 30 ms
# short: the child perf forks runs, and tears perf's address space down in
# its exec, before the counters start (5-10 ms here that no counter sees;
# a threshold of 10 ms read a run with two prlimit links as lost in CI).
# The real kernel case is tests/counters-lost.sh.
. "$top_srcdir/tests/setup"

PERFWRAP=$top_builddir/perfwrap/timeit-perf

# The scripted perf: "stat ... -o FILE ... -- CMD..." (or --log-fd N)
# runs CMD and writes
# perf's CSV (value, unit, event, run time, percentage running) with
# task-clock enabled for $SEEN_MS, user_time $UT_MS and system_time $ST_MS.
cat >fake-perf <<'EOF'
#!/bin/sh
out=/dev/null
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift ;;
	--log-fd) out=/dev/fd/$2; shift ;;
	--) shift; break ;;
	esac
	shift
done
"$@"
st=$?
tab=$(printf '\t')
{
	printf '# started on a scripted perf\n\n'
	printf '%s\n' "$SEEN_MS.00${tab}msec${tab}task-clock${tab}${SEEN_MS}000000${tab}100.00${tab}1${tab}CPUs utilized"
	printf '%s\n' "${UT_MS}000000${tab}ns${tab}user_time${tab}${UT_MS}000000${tab}100.00${tab}1${tab}G/sec"
	printf '%s\n' "${ST_MS}000000${tab}ns${tab}system_time${tab}${ST_MS}000000${tab}100.00${tab}1${tab}G/sec"
} >"$out"
exit "$st"
EOF
chmod +x fake-perf
TIMEIT_PERF=$tmp/fake-perf
export TIMEIT_PERF

# run SEEN UT ST: timeit-perf with those readings; its stderr in err.
run() {
	rm -f s err
	expect_status 0 env SEEN_MS="$1" UT_MS="$2" ST_MS="$3" "$PERFWRAP" --summary s \
		"$AUX" exit 0 2>err
}

# 20 ms short, 60 %: what perf's own start costs on a loaded machine.
run 30 30 20
! grep -q 'lost' err || fail "20 ms short read as lost: $(cat err)"
[ "$(summary_value s user)" = 0.0300 ] && grep -q '^task-clock 0.030000$' s ||
	fail "20 ms short: the counters were not kept: $(cat s)"
# Over 3/4: kept, however short (40 ms).
run 160 150 50
! grep -q 'lost' err || fail "80 % read as lost: $(cat err)"
# 40 ms short, under 3/4: lost, said, rusage times, no counter lines.
run 30 50 20
grep -q '^timeit-perf: note: perf counters lost at a privilege-changing exec .*they saw 42.9% of the CPU time' err ||
	fail "40 ms short at 43 %: not said: $(cat err)"
[ "$(summary_value s user)" = 0.0500 ] || fail "lost: user is not user_time: $(cat s)"
! grep -q '^task-clock' s || fail "lost: a task-clock line: $(cat s)"
exit 0
