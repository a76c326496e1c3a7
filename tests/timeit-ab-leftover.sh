#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A run that leaves a process behind ("sleep 1000 &" in a test): the
# driver kills what is left of each job's process group as the job ends,
# so nothing of it outlives the run, nor runs on, pinned to a duet's CPU,
# beside the runs after it.  make ab's runner, whose run file leaves a
# shell that sleeps (its marker, unique to this test, in its arguments),
# and lit's, a test of tests/lit-fake that does so, in sequential rounds
# and, where two CPUs can be pinned, in a duet.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
need_proc
mark=timeit-ab-leftover-${tmp##*.}

# The processes whose arguments hold the marker (none a zombie).
marked() {
	for f in /proc/[0-9]*/cmdline; do
		p=${f%/cmdline}
		# No grep here: its own arguments would hold the marker.
		c=$({ tr '\0' ' ' < "$f"; } 2> /dev/null) || continue
		case $c in *"$mark"*) ;; *) continue ;; esac
		{ read -r st < "$p/stat"; } 2> /dev/null || continue
		# shellcheck disable=SC2086
		set -- ${st##*) }
		[ "$1" = Z ] || echo "${p#/proc/}"
	done
}
# Whatever a failed check left is ended with the test.
trap 'for p in $(marked); do kill -9 "$p" 2> /dev/null; done; rm -rf "$tmp"' EXIT

cat > run.sh <<EOS
mkdir -p "\$OUT/\$1/results"
sh -c 'while :; do sleep 1; done' $mark-\$1 < /dev/null > /dev/null 2>&1 &
echo \$! >> "\$OUT/left"
printf 'exit 0\nreal 0.1\nuser 0.1\nsys 0\n' > "\$OUT/\$1/results/\$2.\$3.time"
EOS

# run NAME ARGS...: a run of two rounds of one benchmark into NAME; none
# of the four processes its runs left is there after it.
run() {
	mkdir "$1"
	OUT=$tmp/$1
	export OUT
	d=$1
	shift
	expect_status 0 "$ab" --suite run.sh -o "$d" -n 2 "$@" -- x > out 2> err
	[ "$(wc -l < "$d/left")" -eq 4 ] || fail "$d: not 4 processes left: $(cat "$d/left" err)"
	k=0
	while [ -n "$(marked)" ]; do
		k=$((k + 1))
		[ $k -le 50 ] || fail "$d: left alive after the run: $(marked)"
		sleep 0.1
	done
}
run seq --schedule sequential
ncpu=$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)
duet=
if timeit_has --cpu && [ "$ncpu" -ge 2 ] && taskset -c 0,1 true 2> /dev/null; then
	run duet --schedule duet --cpu 0,1
	duet=yes
else
	echo "duet part skipped: two CPUs cannot be pinned here"
fi

# lit's runs (tests/lit-fake's leave: a test that leaves the shell).
find_lit
for side in A B; do
	fake_lit "$tmp/lit/$side" "$side"
	printf 'time: 0.5\nleave: %s-%s\n' "$mark" "$side" > "lit/$side/t.test"
done
for sched in sequential ${duet:+duet}; do
	rm -f lit/A/state/left lit/B/state/left
	cpu=
	[ "$sched" = sequential ] || cpu="--cpu 0,1"
	# shellcheck disable=SC2086 # $cpu: an option and its value, or none
	expect_status 0 "$ab" --schedule "$sched" $cpu --lit "$lit" -o "lit-$sched" -n 1 -q -C --no-color \
		lit/A lit/B > out 2> err
	# A duet's lit --no-execute, which finds its tests, runs this format's
	# test too (lit leaves --no-execute to the format): one more.
	[ "$(cat lit/A/state/left lit/B/state/left | wc -l)" -ge 2 ] ||
		fail "lit, $sched: not 2 processes left: $(cat err)"
	k=0
	while [ -n "$(marked)" ]; do
		k=$((k + 1))
		[ $k -le 50 ] || fail "lit, $sched: left alive after the run: $(marked)"
		sleep 0.1
	done
done
exit 0
