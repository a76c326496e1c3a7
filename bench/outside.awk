# bench/outside.awk: the CPU time of a timeit run that its counters cannot
# see, from a system-wide recording of the run:
#   perf record -a -e sched:sched_switch -- timeit ... CMD
#   perf script --ns --show-task-events -F comm,pid,tid,time,event,trace
# For every process descended from timeit, the time it spent on a CPU
#   - before the exec of the command (the child timeit started: its set-up
#     between vfork and exec, and the exec itself up to the point where the
#     kernel enables the counters), and
#   - after the kernel detached its counters at exit (PERF_RECORD_EXIT,
#     written by perf_event_exit_task) until its last switch-out.
# Prints "PROCESSES EXITS BEFORE_EXEC_S AFTER_DETACH_S".
function field(re, off,  s) {
	if (!match(rest, re))
		return ""
	s = substr(rest, RSTART + off, RLENGTH - off)
	sub(/[^0-9]+$/, "", s)
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
rest ~ /^PERF_RECORD_COMM/ {
	# "PERF_RECORD_COMM[ exec]: NAME:PID/TID"
	n = rest
	sub(/^PERF_RECORD_COMM[^:]*: /, "", n)
	p = n
	sub(/^.*:/, "", p)
	sub(/\/.*$/, "", p)
	sub(/:[0-9]+\/[0-9]+$/, "", n)
	if (n == "timeit" && root == "")
		root = p
	if (rest ~ /exec/ && p == top && !execd) {
		execd = 1
		if (on[p]) {
			before += t - on[p]
			on[p] = t
		}
	}
	next
}
rest ~ /^PERF_RECORD_FORK/ {
	# "PERF_RECORD_FORK(PID:TID):(PPID:PTID)"
	c = field("^PERF_RECORD_FORK\\([0-9]+", 17)
	pp = field("\\):\\([0-9]+", 3)
	if (root != "" && (pp == root || (pp in tree))) {
		tree[c] = 1
		if (pp == root && top == "") {
			# vfork: the child runs from here (if its switch-in
			# is missing, from its fork record).
			top = c
			on[c] = t
		}
	}
	next
}
rest ~ /^PERF_RECORD_EXIT/ {
	c = field("^PERF_RECORD_EXIT\\([0-9]+", 17)
	if (c in tree) {
		gone[c] = t
		exits++
	}
	next
}
rest ~ /sched_switch/ {
	pv = field("prev_pid=[0-9]+", 9)
	nx = field("next_pid=[0-9]+", 9)
	# A process writes its exit record itself, on a CPU: from there to
	# its next switch-out it ran (its switch-in may be missing from the
	# recording, and is not needed).
	if (pv in gone)
		after += t - (on[pv] > gone[pv] ? on[pv] : gone[pv])
	else if (pv == top && !execd && on[pv])
		before += t - on[pv]
	# Every switch-in is kept: a child can be switched in on another CPU
	# a moment before its fork record (the clocks of two CPUs differ by
	# that much).
	on[pv] = 0
	if (nx != 0)
		on[nx] = t
}
END {
	n = 0
	for (c in tree)
		n++
	printf "%d %d %.9f %.9f\n", n, exits, before, after
}
