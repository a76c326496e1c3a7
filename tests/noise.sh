#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Noise control for real: --cpu pins the command (its own
# /proc/self/status), --no-aslr reaches it (/proc/self/personality),
# --check-env on this machine, and the noise screen in the summary and JSON.
# A build whose platform lacks --cpu or --no-aslr must refuse the option
# (checked); the test then skips at the end, naming what it could not check.
. "$top_srcdir/tests/setup"

untested=

# unsupported OPTION ARG...: the option is refused before anything runs.
unsupported() {
	_opt=$1
	shift
	echo previous > s
	expect_status 1 "$TIMEIT" "$_opt" "$@" --summary s "$AUX" pidfile ran 2>err
	grep -qx "timeit: $_opt is not supported on this system" err ||
		fail "$_opt without support: $(cat err)"
	[ ! -e ran ] || fail "$_opt without support ran the command"
	[ "$(cat s)" = previous ] || fail "$_opt without support replaced the summary"
	case " $untested " in *" $_opt "*) ;; *) untested="$untested $_opt" ;; esac
}

if ! timeit_has --cpu; then
	unsupported --cpu 0
	unsupported --cpu 1-x
	expect_status 1 "$TIMEIT" --check-env --cpu 0 >/dev/null 2>&1
else
	# CPUs timeit may use here: pin to the first and to the last of them.
	allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status 2>/dev/null) ||
		true
	[ -n "$allowed" ] || skip "no Cpus_allowed_list in /proc/self/status"
	first=$(printf '%s\n' "$allowed" | sed 's/[-,].*//')
	last=$(printf '%s\n' "$allowed" | sed 's/.*[-,]//')
	for cpu in "$first" "$last"; do
		"$TIMEIT" --cpu "$cpu" --summary s --redirect-output out \
			sh -c 'grep Cpus_allowed_list /proc/self/status' || fail "--cpu $cpu run"
		got=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' out)
		[ "$got" = "$cpu" ] || fail "--cpu $cpu: the command may run on '$got'"
	done
	# The command's children inherit the mask.
	"$TIMEIT" --cpu "$last" --redirect-output out \
		sh -c 'sh -c "grep Cpus_allowed_list /proc/self/status"' 2>/dev/null ||
		fail "--cpu child run"
	grep -q "Cpus_allowed_list:[[:space:]]*$last\$" out || fail "grandchild not pinned: $(cat out)"
	# Without --cpu the command gets timeit's own mask.
	"$TIMEIT" --redirect-output out sh -c 'grep Cpus_allowed_list /proc/self/status' 2>/dev/null
	grep -q "Cpus_allowed_list:[[:space:]]*$allowed\$" out ||
		fail "mask changed without --cpu: $(cat out)"

	# Bad lists are usage errors naming the list; a CPU that does not
	# exist is found before anything runs (66): the command does not run,
	# and the summary and redirect files are left as they were.
	expect_status 1 "$TIMEIT" --cpu 1-x "$AUX" pidfile ran 2>err
	grep -q "'1-x'" err || fail "--cpu error does not name the list: $(cat err)"
	# Past any kernel's CPUs is out of range; a high number below that
	# (past glibc's 1024 and musl's 128 CPU_SETSIZE) is a CPU not there.
	expect_status 1 "$TIMEIT" --cpu 1048576 "$AUX" pidfile ran 2>err
	grep -qx "timeit: --cpu: CPU number out of range '1048576'" err ||
		fail "--cpu 1048576: $(cat err)"
	expect_status 66 "$TIMEIT" --cpu 100000 "$AUX" pidfile ran 2>err
	grep -q "^timeit: --cpu: 100000: not every CPU" err || fail "--cpu 100000: $(cat err)"
	echo previous > s
	echo kept > out
	expect_status 66 "$TIMEIT" --cpu 1023 --summary s --redirect-output out "$AUX" pidfile ran \
		2>err
	grep -q "^timeit: --cpu: 1023: " err || fail "unusable CPU: $(cat err)"
	[ ! -e ran ] || fail "the command ran on an unusable CPU"
	[ "$(cat s)" = previous ] || fail "an unusable CPU replaced the summary: $(cat s)"
	[ "$(cat out)" = kept ] || fail "an unusable CPU truncated the --redirect-output file"
	# The message says which CPUs are online; --check-env refuses them too.
	grep -q "^timeit: --cpu: 1023: not every CPU of the list is online and in timeit's cpuset (online: " err ||
		fail "unusable CPU message: $(cat err)"
	expect_status 66 "$TIMEIT" --check-env --cpu 1023 > out 2>err
	grep -q "^timeit: --cpu: 1023: not every CPU" err || fail "--check-env --cpu 1023: $(cat err)"
	[ ! -s out ] || fail "--check-env --cpu 1023 printed a report"
	# ... also next to a usable one: the kernel would drop it silently.
	expect_status 66 "$TIMEIT" --cpu "$last,1023" "$AUX" pidfile ran 2>err
	grep -q "^timeit: --cpu: $last,1023: " err || fail "partly unusable CPU list: $(cat err)"
	[ ! -e ran ] || fail "the command ran on fewer CPUs than --cpu asked"
	expect_status 0 "$TIMEIT" --cpu "$last" --check-env >/dev/null
fi

refused=
if ! timeit_has --no-aslr; then
	unsupported --no-aslr
else
	# --no-aslr: the command's personality has ADDR_NO_RANDOMIZE
	# (0x0040000); without it, timeit's own personality is passed on
	# unchanged.
	[ -r /proc/self/personality ] || skip "no /proc/self/personality to check --no-aslr"
	"$TIMEIT" --no-aslr --redirect-output out cat /proc/self/personality 2>err ||
		fail "--no-aslr run: $(cat err)"
	if grep -q 'no-aslr' err; then
		# A seccomp filter may forbid personality(2): checked at the end.
		refused="personality(ADDR_NO_RANDOMIZE) refused here: $(cat err)"
	else
		p=$(cat out)
		[ $((0x$p & 0x0040000)) -ne 0 ] || fail "--no-aslr: personality is $p"
		"$TIMEIT" --redirect-output out cat /proc/self/personality
		own=$(cat /proc/self/personality)
		[ "$(cat out)" = "$own" ] || fail "personality $(cat out) without --no-aslr, timeit has $own"
		# With ASLR off the stack of two runs is at the same address.
		if [ "$(cat /proc/sys/kernel/randomize_va_space)" != 0 ]; then
			"$TIMEIT" --no-aslr --redirect-output a sh -c 'grep "\[stack\]" /proc/self/maps'
			"$TIMEIT" --no-aslr --redirect-output b sh -c 'grep "\[stack\]" /proc/self/maps'
			cmp -s a b || fail "stack moved between --no-aslr runs: $(cat a b)"
		fi
	fi
	# --no-aslr makes the ASLR item ok.
	"$TIMEIT" --no-aslr --check-env | grep -Eq '^aslr +ok ' || fail "--check-env --no-aslr"
fi

# --check-env: every item with a verdict; on Linux the values agree with
# the machine's /proc and /sys.
"$TIMEIT" --check-env >env.txt || fail "--check-env failed"
if "$TIMEIT" --version | grep -qx 'platform: linux'; then
	for item in turbo smt isolcpus load perf_event_paranoid aslr hypervisor tsc; do
		grep -Eq "^$item +(ok|noisy|unknown) " env.txt || fail "--check-env lacks $item: $(cat env.txt)"
	done
	grep -Eq '^governor cpu[0-9,-]+ +(ok|noisy|unknown) ' env.txt || fail "no governor line"
	aslr=$(cat /proc/sys/kernel/randomize_va_space)
	grep -Eq "^aslr +[a-z]+ +randomize_va_space $aslr\$" env.txt || fail "aslr: $(grep ^aslr env.txt)"
	if [ -r /proc/sys/kernel/perf_event_paranoid ]; then
		par=$(cat /proc/sys/kernel/perf_event_paranoid)
		grep -Eq "^perf_event_paranoid +[a-z]+ +$par( |\$)" env.txt ||
			fail "paranoid: $(grep ^perf env.txt)"
	fi
	if grep -qw hypervisor /proc/cpuinfo; then
		grep -Eq '^hypervisor +noisy ' env.txt || fail "a VM not reported: $(grep ^hyper env.txt)"
	fi
else
	# The portable file knows the load, and says what it does not know.
	for item in load aslr; do
		grep -Eq "^$item +(ok|noisy|unknown) " env.txt || fail "--check-env lacks $item: $(cat env.txt)"
	done
	grep -Eq '^load +(ok|noisy) +[0-9]+\.[0-9][0-9] ' env.txt || fail "no load: $(cat env.txt)"
	grep -q 'not known on this system' env.txt || fail "unknown facts not said: $(cat env.txt)"
fi
# A noisy item says how to fix it.
awk '$2 == "noisy" { getline n; if (n !~ /fix: /) exit 1 }' env.txt || fail "a noisy item without a fix"

# The noise screen: a noise-flags line, a number; reasons in the JSON with
# the environment.
"$TIMEIT" --summary s --json j "$AUX" burn 20 || fail "screen run"
flags=$(summary_value s noise-flags)
case $flags in '' | *[!0-9]*) fail "noise-flags '$flags'" ;; esac
[ "$flags" -lt 32 ] || fail "noise-flags $flags has undocumented bits"
grep -q '"noise": {' j || fail "no noise object in the JSON"
grep -q '"reasons": \[' j || fail "no reasons in the JSON"
grep -q '"environment": \[' j || fail "no environment in the JSON"
grep -q '"name": "aslr"' j || fail "the environment lacks aslr"
if timeit_has --cpu; then
	# A run that reads a file not in the page cache may fault; a sleeping
	# one never migrates on one CPU: pinned and idle is clean of
	# migrations.
	"$TIMEIT" --cpu "$last" -e cpu-migrations --summary s "$AUX" sleep 20 2>/dev/null ||
		fail "pinned run"
	m=$(summary_value s cpu-migrations)
	# (No line at all when perf events are not available.)
	[ -z "$m" ] || [ "$m" = 0 ] || fail "a pinned run migrated $m times"
	[ $(( $(summary_value s noise-flags) & 1 )) -eq 0 ] || fail "migration bit set when pinned"
fi
[ -z "$refused" ] || skip "$refused"
[ -z "$untested" ] || skip "not supported by this build's platform, refusal checked:$untested"
exit 0
