#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-ab on a small lit suite of its own (tests/lit-ab: lit's test
# format, programs built two ways): rounds alternate A and B, each round's
# lit -o file kept; with --samples auto only the tests the verdict
# engine's looks leave undecided run again (lit --filter), identical
# binaries decided after round 1; the stop at --max-samples and the
# budget; the verdict over all rounds and its exit status; bad input
# (numbers out of range too) refused before lit runs.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compare=$top_builddir/compare/timeit-compare
find_lit
suite=$top_srcdir/tests/lit-ab

# mkbuild DIR SLOW FAST: a lit test directory; the program of slow.test
# does SLOW % more work than the base, fast.test's FAST %, same.test's 0.
mkbuild() {
	mkdir -p "$1/bin"
	for t in slow:$2 fast:$3 same:0; do
		"${CC:-cc}" -O2 -DEXTRA="${t#*:}" -o "$1/bin/${t%:*}" "$suite/spin.c"
		cp "$suite/${t%:*}.test" "$1/"
	done
	cat > "$1/lit.site.cfg" <<EOS
config.timeit = '$TIMEIT'
config.bindir = '$1/bin'
config.test_source_root = '$1'
config.test_exec_root = '$1'
lit_config.load_config(config, '$suite/lit.cfg')
EOS
}
mkbuild "$tmp/a" 0 0
mkbuild "$tmp/b" 100 -50

# fake-compare: logs its arguments, prints a table and exits 1 (the
# looks are the verdict engine's, in timeit-ab itself: only the final
# table is timeit-compare's).
cat > fake-compare <<EOS
#!/bin/sh
[ "\$1" = --check ] && exit 0
echo "\$*" >> "$tmp/calls"
echo "the verdict table"
exit 1
EOS
chmod +x fake-compare

# Looks at rounds 2, 4 and 5 (the last): same.test's binaries are the
# same on both sides (lit's hash metric), so it is decided after round 1
# and runs no more; with the rank tests (-C --rank), slow.test (+100 %)
# and fast.test (-50 %) cannot be decided before 5 rounds at alpha 0.05 /
# 3 looks, and stop at round 5.
: > calls
expect_status 1 "$ab" --schedule sequential --lit "$lit" --compare "$tmp/fake-compare" -o "$tmp/o" --min-samples 2 \
	--max-samples 5 --look-every 2 -C --no-color -C --rank "$tmp/a" "$tmp/b" -- -v > out 2> err
cat out err
ls "$tmp/o" > files
for r in 1 2 3 4 5; do
	grep -qx "A.$r.json" files && grep -qx "B.$r.json" files || fail "round $r's files missing: $(cat files)"
done
! grep -q '\.tmp$' files || fail "temporary files left: $(cat files)"
for want in 1:3 2:2 3:2 4:2 5:2; do
	r=${want%:*} n=${want#*:}
	for s in A B; do
		got=$(grep -c '"name": "timeit-ab-selftest :: ' "$tmp/o/$s.$r.json")
		[ "$got" -eq "$n" ] || fail "round $r, side $s: $got tests, expected $n"
	done
done
grep -q '"name": "timeit-ab-selftest :: slow.test"' "$tmp/o/B.5.json" || fail "round 5 did not run slow.test"
! grep -q '"name": "timeit-ab-selftest :: same.test"' "$tmp/o/B.2.json" || fail "same.test ran again"
grep -q '"exec_time"' "$tmp/o/A.1.json" || fail "no exec_time metric"
grep -q '"hash"' "$tmp/o/A.1.json" || fail "no hash metric"
printf '%s\n' '1 AB 3' '2 BA 2' '3 AB 2' '4 BA 2' '5 AB 2' > want
cmp -s want "$tmp/o/rounds.log" || fail "rounds.log: $(cat "$tmp/o/rounds.log")"
# The extra lit arguments reach lit.
grep -q 'PASS: timeit-ab-selftest :: same.test' "$tmp/o/A.1.log" || fail "lit -v not passed: $(cat "$tmp/o/A.1.log")"
# One call, the final table: --looks 3, the options, every round's files in pairs.
[ "$(grep -c -- '--looks 3 --no-color' calls)" -eq 1 ] || fail "calls: $(cat calls)"
tail -n 1 calls | grep -q -- "-a $tmp/o/A.1.json -b $tmp/o/B.1.json .*-a $tmp/o/A.5.json -b $tmp/o/B.5.json\$" ||
	fail "final call: $(tail -n 1 calls)"
grep -qx 'the verdict table' out || fail "no verdict"
grep -Eq '^same +1  same binary$' out || fail "same.test: $(cat out)"
grep -Eq '^fast +5  (decided|max samples)$' out || fail "fast.test: $(cat out)"
grep -Eq '^slow +5  (decided|max samples)$' out || fail "slow.test: $(cat out)"
grep -q '^schedule: sequential$' out || fail "schedule not said: $(cat out)"
grep -q "^timeit-ab: round 3 (at most 5): 2 undecided" err || fail "progress: $(cat err)"
# Every run is recorded with its schedule.
[ "$(grep -c '	sequential	-	' "$tmp/o/samples.tsv")" -eq 10 ] || fail "samples.tsv: $(cat "$tmp/o/samples.tsv")"

# An output directory with results in it is never reused.
expect_status 2 "$ab" --schedule sequential --lit "$lit" --compare "$tmp/fake-compare" -o "$tmp/o" "$tmp/a" "$tmp/b" 2> err
grep -q "$tmp/o: holds an earlier run of timeit-ab ([0-9]* rounds in rounds.log): give another --output, e.g. -o $tmp/o.2, or --replace" err || fail "reused output: $(cat err)"
grep -q -- "-o $tmp/o.2" err || fail "reused output: no way out said: $(cat err)"

# For real: ten fixed rounds, timeit-compare over them: slow.test
# regressed, fast.test improved, the exit status 1.  Ten, not six: the
# rounds are paired, and six pairs leave no room for one disturbed round
# (one pair the wrong way and the exact signed-rank p is at least 4/64;
# once on a loaded CI lane, slow.test was not called regressed).
expect_status 1 "$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/r" -n 10 -q \
	-C --no-color "$tmp/a" "$tmp/b" > real.out 2> real.err
cat real.out
[ ! -s real.err ] || fail "--quiet printed: $(cat real.err)"
grep -Eq '^slow(\.test)? +10 +10 .* regressed' real.out || fail "slow.test not regressed"
grep -Eq '^fast(\.test)? +10 +10 .* improved' real.out || fail "fast.test not improved"
grep -Eq '^slow +10  fixed$' real.out || fail "no rounds table"
head -n "$(wc -l < "$tmp/r/verdict.txt")" real.out | cmp -s - "$tmp/r/verdict.txt" ||
	fail "verdict.txt differs from what was printed"

# For real, adaptively: same.test's binaries are the same on both sides
# (lit's hash metric), so it is decided after its first round.  With the
# rank tests (-C --rank) 2 pairs cannot decide slow.test, which samples on;
# by default the t on its log-ratios may decide it at the first look.
"$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/auto" --min-samples 2 --max-samples 4 \
	--look-every 2 -q -C --no-color -C --rank "$tmp/a" "$tmp/b" > auto.out || true
cat auto.out
grep -Eq '^same(\.test)? .* unchanged +same binary' auto.out || fail "same.test not the same binary"
grep -Eq '^same +1  same binary$' auto.out || fail "same.test not decided after round 1"
grep -Eq '^slow +[34]  (decided|max samples)$' auto.out || fail "slow.test stopped early"

# By default the first look is at round 3 (the t has no floor; a suite
# of 40 or more moderates it there): slow.test (+100 % in every round)
# is decided there or at the last of at most 4, under a loaded lane's
# noise (tests/timeit-ab-lit.sh checks round 3 on made-up times).
"$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/auto2" --max-samples 4 -q -C --no-color \
	"$tmp/a" "$tmp/b" > auto2.out || true
grep -Eq '^slow +[34]  (decided|max samples)$' auto2.out || fail "slow.test: $(cat auto2.out)"

# From the build tree, timeit-ab finds the tree's timeit-compare.
PATH=/usr/bin:/bin "$ab" --schedule sequential --lit "$lit" -o "$tmp/tree" -n 2 -q -C --no-color "$tmp/a" "$tmp/b" > tree.out 2> tree.err || true
grep -Eq '^slow +2  fixed$' tree.out || fail "build tree's timeit-compare not found: $(cat tree.err)"

# The budget is a bound: a lit that takes a second more makes a round
# last over 2 s; with a budget of 3 s no second round starts (it would
# end after 4 s), whatever the order.
printf '#!/bin/sh\nsleep 1\nexec %s "$@"\n' "'$lit'" > slow-lit
chmod +x slow-lit
: > calls
expect_status 1 "$ab" --schedule sequential --lit "$tmp/slow-lit" --compare "$tmp/fake-compare" -o "$tmp/bud" --budget 3 \
	"$tmp/a" "$tmp/b" > bud.out 2> /dev/null
grep -Eq '^slow +1  budget$' bud.out || fail "budget: $(cat bud.out)"

# Bad input: refused, nothing run, nothing written.
for bad in '--samples 0' '--min-samples x' '--max-samples' '--min-samples 9 --max-samples 3' \
	'--budget -1' '--order abba' '--seed x' '--bogus' '--quiet=1' '--budget 99999999999999999999' \
	'--seed 99999999999999999999' '--max-samples 99999999999' '--budget 1e400' '--budget nan' \
	'--schedule trio' '--cpu x' '--cpu 0 --schedule duet'; do
	# shellcheck disable=SC2086 # one or two words
	expect_status 2 "$ab" --schedule sequential --lit "$lit" -o "$tmp/rej" $bad "$tmp/a" "$tmp/b" 2> err
	[ -s err ] || fail "$bad: no message"
	[ ! -e "$tmp/rej" ] || fail "$bad: something was written"
done
# -C options timeit-compare refuses: before any round, --check too.
for check in --check ''; do
	# shellcheck disable=SC2086
	expect_status 2 "$ab" $check --schedule sequential --lit "$lit" -o "$tmp/rej" -C --bogus \
		"$tmp/a" "$tmp/b" 2> err
	grep -q "unknown option '--bogus'" err && grep -q -- "-C: .*refused the options" err ||
		fail "$check -C --bogus: $(cat err)"
	[ ! -e "$tmp/rej" ] || fail "$check -C --bogus: something was written"
done
expect_status 2 "$ab" --schedule sequential --lit "$lit" -o "$tmp/rej" "$tmp/a" 2> err
grep -q 'expected two lit test directories' err || fail "one directory: $(cat err)"
expect_status 2 "$ab" --schedule sequential --lit "$lit" -o "$tmp/rej" "$tmp/a" "$tmp" 2> err
grep -q "$tmp: no lit.site.cfg or lit.cfg" err || fail "not a lit directory: $(cat err)"
expect_status 2 "$ab" --schedule sequential --lit "$tmp/nope" -o "$tmp/rej" "$tmp/a" "$tmp/b" 2> err
grep -q -- "--lit $tmp/nope: cannot run it" err || fail "bad lit: $(cat err)"
expect_status 2 "$ab" --schedule sequential --lit "$lit" -o "$tmp/rej" "$tmp/a" "$tmp/b" -v 2> err
grep -q "'-v': lit arguments come after '--'" err || fail "lit argument without --: $(cat err)"
[ ! -e "$tmp/rej" ] || fail "something was written on bad input"
# --cpu: a CPU this process may not run on, a duet's sets that share one,
# a list as long as 0-100000 (checked against the allowed CPUs first:
# at once), each refused in --check too.
if timeit_has --cpu; then
	over=$(($(getconf _NPROCESSORS_CONF 2> /dev/null || echo 64) + 100))
	for bad in "--cpu 0,$over" '--cpu 0 --cpu 0' '--cpu 0-100000'; do
		for check in --check ''; do
			# shellcheck disable=SC2086
			expect_status 2 "$ab" $check --schedule duet --lit "$lit" -o "$tmp/rej" $bad "$tmp/a" \
				"$tmp/b" 2> err
			grep -Eq -- "--cpu: CPU [0-9]+ (is not one timeit-ab may run on|is in both sets of a duet)" err ||
				fail "$check $bad: $(cat err)"
			[ ! -e "$tmp/rej" ] || fail "$check $bad: something was written"
		done
	done
fi
# --check: the options checked, nothing run or written.
expect_status 0 "$ab" --check --lit "$lit" -o "$tmp/chk" "$tmp/a" "$tmp/b"
[ ! -e "$tmp/chk" ] || fail "--check wrote something"
expect_status 2 "$ab" --check --lit "$lit" -o "$tmp/chk" --seed -1 "$tmp/a" "$tmp/b" 2> err
grep -q -- '--seed' err || fail "--check: $(cat err)"
"$ab" --help > help.out
grep -q '^usage: timeit-ab ' help.out || fail "--help"
exit 0
