# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/outside.awk: the CPU time of a timeit run that its counters cannot
# see, from a system-wide recording of the run:
#   perf record -a -e sched:sched_switch -- timeit ... CMD
#   perf script --ns --show-task-events -F comm,pid,tid,time,event,trace
# For every task (process or thread) descended from timeit, the time it
# spent on a CPU
#   - before the exec of the command (the child timeit started: its set-up
#     between vfork and exec, and the exec itself up to the point where the
#     kernel enables the counters), and
#   - after the kernel detached its counters at exit (PERF_RECORD_EXIT,
#     written by perf_event_exit_task) until its last switch-out.
# timeit is the first task that executes a program named "timeit" during
# the recording (perf starts it); the records perf synthesizes at time 0
# for tasks already running are not execs.  Tasks are keyed by thread id,
# as sched_switch names them.
# Prints "TASKS EXITS BEFORE_EXEC_S AFTER_DETACH_S".

# tid_of(S): the thread id of a "PID:TID" or "NAME:PID/TID" suffix.
function tid_of(s) {
	sub(/^.*[:\/]/, "", s)
	return s
}
{
	# "COMM PID/TID TIME: EVENT..."; a command name may hold spaces.
	for (k = 1; k <= NF && $k !~ /^[0-9]+\/[0-9]+$/; k++)
		;
	if (k > NF)
		next
	t = $(k + 1)
	sub(/:$/, "", t)
	t += 0
	rest = $0
	sub(/^.*[0-9]\.[0-9]+: +/, "", rest)
}
rest ~ /^PERF_RECORD_COMM exec: / {
	# "PERF_RECORD_COMM exec: NAME:PID/TID"
	n = rest
	sub(/^PERF_RECORD_COMM exec: /, "", n)
	c = tid_of(n)
	sub(/:[0-9]+\/[0-9]+$/, "", n)
	if (n == "timeit" && root == "")
		root = c
	else if (c == top && !execd) {
		execd = 1
		if (on[c]) {
			before += t - on[c]
			on[c] = t
		}
	}
	next
}
rest ~ /^PERF_RECORD_FORK\(/ {
	# "PERF_RECORD_FORK(PID:TID):(PPID:PTID)"
	split(rest, a, /[()]/)
	c = tid_of(a[2])
	p = tid_of(a[4])
	if (root != "" && (p == root || (p in tree))) {
		tree[c] = 1
		tasks++
		if (p == root && top == "") {
			# vfork: the child runs from here; its switch-in, when
			# recorded, may come a moment before or after.
			top = c
			if (!on[c])
				on[c] = t
		}
	}
	next
}
rest ~ /^PERF_RECORD_EXIT\(/ {
	split(rest, a, /[()]/)
	c = tid_of(a[2])
	if (c in tree) {
		gone[c] = t
		exits++
	}
	next
}
rest ~ /sched_switch/ {
	pv = rest
	sub(/^.*prev_pid=/, "", pv)
	sub(/ .*$/, "", pv)
	nx = rest
	sub(/^.*next_pid=/, "", nx)
	sub(/ .*$/, "", nx)
	# A task writes its exit record itself, on a CPU: from there to its
	# next switch-out it ran (its switch-in may be missing from the
	# recording, and is not needed).
	if (pv in gone)
		after += t - (on[pv] > gone[pv] ? on[pv] : gone[pv])
	else if (pv == top && !execd && on[pv])
		before += t - on[pv]
	# Every switch-in is kept: a child can be switched in on another CPU
	# a moment before its fork record (two CPUs' clocks differ by that
	# much).
	on[pv] = 0
	if (nx != 0)
		on[nx] = t
}
END {
	printf "%d %d %.9f %.9f\n", tasks, exits, before, after
}
