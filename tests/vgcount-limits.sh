#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The extra valgrind run of --count-instructions costs no more than the
# measured run was allowed: it runs only after a measured run that exited,
# with the same limits and --timeout (not a multiple), an interrupt during
# it ends timeit with 137 as anywhere else, and --valgrind names the same
# program after --chdir.  A valgrind that cannot run the command leaves the
# measured summary as it was.  Most cases use a stand-in valgrind, a script
# that says it ran and what its limits are, so they need no valgrind.
. "$top_srcdir/tests/setup"

# fakevg: a stand-in for valgrind.  Records its limits and its directory
# in $FAKEVG_DIR, then does what FAKEVG_DO says: nothing (exit 0, and so
# no cachegrind output), sleep (until killed), or fail as valgrind does
# when it cannot run a program.
mkdir fv
FAKEVG_DIR=$tmp/fv
export FAKEVG_DIR
cat > fakevg <<EOF
#!/bin/sh
"$AUX" limit cpu limit data limit fsize limit nofile > "\$FAKEVG_DIR/limits"
pwd > "\$FAKEVG_DIR/pwd"
echo \$\$ > "\$FAKEVG_DIR/pid"
case \${FAKEVG_DO:-} in
sleep) exec sleep 300 ;;
fail) echo "valgrind: failed to start tool 'cachegrind' for platform 'x86-linux'" >&2; exit 1 ;;
esac
exit 0
EOF
chmod +x fakevg
FV=$tmp/fakevg

ran() { [ -e "$FAKEVG_DIR/pid" ]; }
reset() { rm -f "$FAKEVG_DIR"/*; }

# 1. A measured run killed by --limit-cpu gets no count run (it would be
# killed again, after costing many times as long).
expect_status 137 "$TIMEIT" --summary s --json j --limit-cpu 1 \
	--count-instructions=valgrind --valgrind "$FV" "$AUX" burn 5000 2>err
! ran || fail "valgrind ran after a run killed by --limit-cpu"
! grep -q '^valgrind-' s || fail "a count line after a killed run: $(cat s)"
! grep -q 'count-instructions' err || fail "a count warning after a killed run: $(cat err)"
grep -q '"error": *"the measured run did not exit normally"' j ||
	fail "JSON does not say why there is no count: $(cat j)"
# ... nor one killed by a signal of its own, nor one that timed out.
reset
expect_status 139 "$TIMEIT" --summary s --count-instructions=valgrind --valgrind "$FV" \
	"$AUX" signal 11 2>err
! ran || fail "valgrind ran after a run killed by SIGSEGV"
reset
expect_status 137 "$TIMEIT" --summary s --timeout 1 --count-instructions=valgrind \
	--valgrind "$FV" "$AUX" sleep 5000 2>err
! ran || fail "valgrind ran after a run that timed out"

# 2. The count run has the measured run's limits, exactly.
reset
lims="--limit-cpu 7 --limit-data-size 3000000000 --limit-file-size 1000000 --limit-file-count 50"
# shellcheck disable=SC2086
expect_status 0 "$TIMEIT" --summary s --json j $lims --timeout 9 --redirect-output measured \
	--count-instructions=valgrind --valgrind "$FV" "$AUX" limit cpu limit data limit fsize \
	limit nofile 2>err
ran || fail "valgrind did not run: $(cat err)"
cmp -s measured "$FAKEVG_DIR/limits" ||
	fail "limits of the count run: $(cat "$FAKEVG_DIR/limits"), of the measured run: $(cat measured)"
tr -d ' \n' < j | grep -q '"valgrind":{[^}]*"timeout":9,' || fail "not the measured timeout: $(cat j)"
grep -q "^timeit: warning: --count-instructions: valgrind wrote no cachegrind output: no valgrind-instructions\$" err ||
	fail "stand-in valgrind: $(cat err)"

# ... and its --timeout: killed after 3 s, not 150 (3 s: the measured run
# must end within it on a loaded or emulated machine).
reset
start=$(date +%s)
expect_status 0 env FAKEVG_DO=sleep "$TIMEIT" --summary s --timeout 3 \
	--count-instructions=valgrind --valgrind "$FV" "$AUX" exit 0 2>err
elapsed=$(($(date +%s) - start))
[ "$elapsed" -le 20 ] || fail "the count run lasted $elapsed s under --timeout 3"
grep -q "^timeit: warning: --count-instructions: the run under valgrind timed out (after 3 s; see --valgrind-timeout): no valgrind-instructions\$" err ||
	fail "no timeout warning: $(cat err)"
[ "$(summary_value s exit)" = 0 ] || fail "the measured status did not stand: $(cat s)"

# 3. An interrupt during the count run: 137, like an interrupt anywhere
# else; the summary says so, the measured times stand, valgrind is gone.
for sig in TERM INT; do
	reset
	FAKEVG_DO=sleep "$TIMEIT" --summary s --count-instructions=valgrind --valgrind "$FV" \
		"$AUX" burn 20 2>err &
	pid=$!
	wait_for_file "$FAKEVG_DIR/pid"
	vgpid=$(cat "$FAKEVG_DIR/pid")
	kill -s "$sig" "$pid"
	wait_status "$pid"
	[ "$got" -eq 137 ] || fail "SIG$sig during the count run: exit $got, expected 137: $(cat err)"
	[ "$(summary_value s exit)" = 137 ] || fail "SIG$sig: summary exit: $(cat s)"
	[ -n "$(summary_value s user)" ] || fail "SIG$sig: no measured times: $(cat s)"
	case $sig in TERM) signum=15 ;; INT) signum=2 ;; esac
	grep -q "^timeit: error: received signal $signum. killing monitored process(es): " err ||
		fail "SIG$sig: no interrupt message: $(cat err)"
	group_gone "$vgpid"
done

# 4. A relative --valgrind path names the same program after --chdir, and
# so does a valgrind found through a relative PATH entry.
mkdir sub
reset
expect_status 0 "$TIMEIT" --summary s --chdir sub --count-instructions=valgrind \
	--valgrind ./fakevg "$AUX" exit 0 2>err
ran || fail "--valgrind ./fakevg with --chdir sub did not run: $(cat err)"
[ "$(cat "$FAKEVG_DIR/pwd")" = "$(cd sub && pwd)" ] || fail "valgrind ran in $(cat "$FAKEVG_DIR/pwd")"
reset
ln -s fakevg valgrind
expect_status 0 env PATH=".:$PATH" "$TIMEIT" --summary s --chdir sub \
	--count-instructions=valgrind "$AUX" exit 0 2>err
ran || fail "valgrind from PATH=. with --chdir sub did not run: $(cat err)"
rm valgrind

# A sibling: timeit-perf's scratch directory, under a relative TMPDIR, is
# written after the --chdir too (the exec error of a missing command).
PERFWRAP=$top_builddir/perfwrap/timeit-perf
if [ -x "$PERFWRAP" ]; then
	mkdir rt
	expect_status 127 env TMPDIR=rt "$PERFWRAP" --fallback --chdir sub --summary ps \
		./no-such-command 2>err
	grep -q "^timeit-perf: execv: ./no-such-command: No such file or directory\$" err ||
		fail "timeit-perf with TMPDIR=rt and --chdir: $(cat err)"
	[ "$(summary_value ps exit)" = 127 ] || fail "timeit-perf summary: $(cat ps)"
	rmdir rt || fail "timeit-perf left files in TMPDIR: $(ls -R rt)"
fi

# 5. A valgrind that cannot run the command: a warning, and the summary the
# measured run alone would have written (the same keys, its status).
reset
expect_status 3 "$TIMEIT" --summary plain "$AUX" exit 3 2>err
expect_status 3 env FAKEVG_DO=fail "$TIMEIT" --summary s --count-instructions=valgrind-cache \
	--valgrind "$FV" "$AUX" exit 3 2>err
grep -q "^timeit: warning: --count-instructions: the command ended differently under valgrind (exit status 1 under valgrind, 3 in the measured run): no valgrind-instructions or cache counts\$" err ||
	fail "no warning: $(cat err)"
[ "$(cut -d' ' -f1 s)" = "$(cut -d' ' -f1 plain)" ] ||
	fail "the summary is not the measured run's: $(cat s)"
[ "$(summary_value s exit)" = 3 ] || fail "summary exit: $(cat s)"

# 5b. A process of the count run's group that outlived it and was killed
# before valgrind opened its log left no trace: the kill of the group
# tells, and there is no count (the sum would lack it).  The stand-in
# writes its own count and log, and leaves a sleeper behind.
cat > leavevg <<'EOF'
#!/bin/sh
for a do
	case $a in
	--cachegrind-out-file=*) out=${a#*=} ;;
	--log-file=*) log=${a#*=} ;;
	esac
done
out=$(printf '%s' "$out" | sed "s/%p/$$/")
log=$(printf '%s' "$log" | sed "s/%p/$$/")
printf 'desc: I1 cache: 32768 B, 64 B, 8-way associative\ncmd: x\nevents: Ir\nsummary: 1000\n' > "$out"
echo "==$$== Using Valgrind-3.19.0" > "$log"
sleep 30 &
exit 0
EOF
chmod +x leavevg
expect_status 0 "$TIMEIT" --summary s --count-instructions=valgrind --valgrind "$tmp/leavevg" \
	"$AUX" exit 0 2>err
grep -q "^timeit: warning: --count-instructions: a process under valgrind was killed before it could write its count: no valgrind-instructions\$" err ||
	fail "a process killed with the group, unseen: $(cat err; cat s)"
! grep -q '^valgrind-instructions' s || fail "a count that lacks a killed process: $(cat s)"

# 6. With a real valgrind: a command whose run under valgrind needs more
# CPU time than --limit-cpu allows gets a warning that says so.
if valgrind_runs; then
	# About 0.2 s of work natively, several seconds under valgrind.
	expect_status 0 "$TIMEIT" --summary s --limit-cpu 1 --count-instructions=valgrind \
		"$top_builddir/tests/vgcount-work" work 2000000 2>err
	grep -q "^timeit: warning: --count-instructions: the run under valgrind reached --limit-cpu (1 s of CPU time, as the measured run): no valgrind-instructions\$" err ||
		fail "no --limit-cpu warning: $(cat err)"
	[ "$(summary_value s exit)" = 0 ] || fail "the measured status did not stand: $(cat s)"
	! grep -q '^valgrind-' s || fail "a count from a run cut short: $(cat s)"
	# A relative --valgrind that is valgrind itself, with --chdir: counted.
	printf '#!/bin/sh\nexec "%s" "$@"\n' "$(command -v valgrind)" > vg
	chmod +x vg
	expect_status 0 "$TIMEIT" --summary s --chdir sub --count-instructions=valgrind \
		--valgrind ./vg "$AUX" exit 0 2>err
	[ -n "$(summary_value s valgrind-instructions)" ] || fail "no count with --valgrind ./vg: $(cat err)"
else
	echo "valgrind is not installed: the real --limit-cpu case is not run"
fi
exit 0
