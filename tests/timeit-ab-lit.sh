#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-ab as an adversarial user would try it, on a lit suite of
# made-up results (tests/lit-fake): micro-results selected by the filter;
# names with blanks, glob characters, non-ASCII, quotes and backslashes
# kept whole, never globbed, decoded; a test that vanishes reported
# missing while the others' verdicts are given; SIGTERM stopping the
# running lit at once and keeping the finished rounds; every test failing
# on a side stopping the run (exit 2, the side and the first failure
# named); a test failing on one side reported failed; the duet's barrier,
# pinning and swap recorded per run; a duet refused on one CPU.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compare=$top_builddir/compare/timeit-compare
find_lit

# mkbuild DIR SIDE SCALE: a lit test directory of side SIDE, its times
# SCALE times A's; the tests are added by the caller.
mkbuild() {
	fake_lit "$1" "$2" "$3"
}
# put NAME TEXT DIR...: the test NAME, its lines TEXT, in each DIR.
put() {
	_n=$1 _t=$2
	shift 2
	for _d do printf '%s\n' "$_t" > "$_d/$_n"; done
}

# By default the first look is at round 3 (the t has no floor, and a
# suite of 40 or more moderates it there; alone, 2 degrees of freedom
# are enough for a part-in-a-thousand noise): a test twice as slow on B in
# every round is decided there.
mkbuild "$tmp/first/a" A 1.0
mkbuild "$tmp/first/b" B 2.0
put 'slow.test' 'time: 0.5' "$tmp/first/a" "$tmp/first/b"
expect_status 1 "$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/first/o" --max-samples 6 -q -C --no-color \
	"$tmp/first/a" "$tmp/first/b" > first.out 2> first.err
grep -Eq '^slow +3  decided$' first.out || fail "slow.test not decided at round 3: $(cat first.out first.err)"

# With a budget, --max-samples auto (the default) plans the rounds, and
# the looks over them, by what round 1 cost: not 30 rounds where a few
# fit.
mkbuild "$tmp/bud/a" A 1.0
mkbuild "$tmp/bud/b" B 1.02
put 'x.test' 'time: 0.5' "$tmp/bud/a" "$tmp/bud/b"
# The budget is 8 rounds as one costs here and now (a loaded machine or
# a sanitizer build takes seconds a round; a quiet one a fraction of a
# second, which whole seconds of the clock would round up to room for
# more than 30): its two lit runs' wall in samples.tsv, as the driver
# costs a round.  Room for round 2, not for 30.
"$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/bud/o1" -n 1 \
	"$tmp/bud/a" "$tmp/bud/b" > bud1.out 2> bud1.err || true
t1=$(awk -F '\t' 'NR > 1 && $1 == 1 { s += $7 } END { printf "%.3f", s }' "$tmp/bud/o1/samples.tsv")
budget=$(awk -v t="$t1" 'BEGIN { printf "%.3f", 8 * t + 1 }')
"$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/bud/o" --budget $budget \
	"$tmp/bud/a" "$tmp/bud/b" > bud.out 2> bud.err || true
n=$(sed -n 's/.*round 2 (at most \([0-9]*\)).*/\1/p' bud.err | head -n 1)
[ -n "$n" ] && [ "$n" -ge 2 ] && [ "$n" -lt 30 ] ||
	fail "--budget $budget (a round: $t1 s), rounds planned: $(cat bud.err)"
budget=$(awk -v b="$budget" 'BEGIN { print b < 30 ? 30 : b }')
"$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/bud/o30" --budget $budget \
	--max-samples 30 "$tmp/bud/a" "$tmp/bud/b" > bud30.out 2> bud30.err || true
grep -q 'round 2 (at most 30)' bud30.err || fail "--max-samples 30 with a budget: $(cat bud30.err)"

# Odd names and micro-results: three fixed rounds, so that rounds 2 and
# 3 run through timeit-ab's --filter.  A file named like a glob's match
# sits in the working directory: no name may be globbed against it.
mkbuild "$tmp/n/a" A 1.0
mkbuild "$tmp/n/b" B 1.0
e=$(printf '\303\251')
for name in 'a b.test' 'star*.test' "caf$e.test" 'q"uote.test' 'back\slash.test' 'x.test' \
	'[br].test' 'plain.test'; do
	put "$name" 'time: 0.5' "$tmp/n/a" "$tmp/n/b"
done
put 'x.test' "$(printf 'time: 0.5\nmicro: bench0 bench1')" "$tmp/n/a" "$tmp/n/b"
touch starX.test r.test
expect_status 0 "$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/n/o" -n 3 -q -C --no-color \
	"$tmp/n/a" "$tmp/n/b" > n.out 2> n.err
cat n.out n.err
for r in 2 3; do
	for s in A B; do
		got=$(grep -c '"name": "fake :: ' "$tmp/n/o/$s.$r.json")
		[ "$got" -eq 10 ] || fail "round $r, side $s: $got results, expected 10 (8 tests, 2 micro-results)"
	done
done
grep -q '"name": "fake :: x.test:bench0"' "$tmp/n/o/B.3.json" || fail "micro-result bench0 not in round 3"
grep -q 'starX' "$tmp/n/o/B.3.json" && fail "a file of the working directory became a test"
for want in 'a b' 'star\*' "caf$e" 'q"uote' 'back\\slash' 'x\.test:bench0' 'x\.test:bench1' '\[br\]' \
	'plain'; do
	grep -Eq "^$want +3  fixed$" n.out || fail "rounds table: '$want' not 3 rounds, fixed: $(cat n.out)"
done
[ "$(grep -c ' fixed$' n.out)" -eq 10 ] || fail "not 10 rows in the rounds table"

# A test that vanishes after round 1: reported missing, the others'
# verdicts given; another fails on side B only: reported failed.
mkbuild "$tmp/v/a" A 1.0
mkbuild "$tmp/v/b" B 1.5
put 'stay.test' 'time: 0.5' "$tmp/v/a" "$tmp/v/b"
put 'gone.test' "$(printf 'time: 0.5\nvanish: 1')" "$tmp/v/a" "$tmp/v/b"
put 'bfail.test' "$(printf 'time: 0.5\nfail: B')" "$tmp/v/a" "$tmp/v/b"
expect_status 1 "$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/v/o" --min-samples 6 --max-samples 6 -q \
	-C --no-color "$tmp/v/a" "$tmp/v/b" > v.out 2> v.err
cat v.out v.err
grep -Eq '^stay .* regressed' v.out || fail "stay.test's verdict not given: $(cat v.out)"
grep -Eq "^gone +1  missing: not in side A's and B's results of round 2$" v.out || fail "gone.test not missing"
grep -Eq '^bfail +1  failed: failed on side B in round 1$' v.out || fail "bfail.test not failed on B"
grep -Eq '^bfail .* failed' v.out || fail "bfail.test's verdict not failed"

# Every test left vanishing (lit's filter then matches none): each
# reported missing, the verdicts of round 1 given.
mkbuild "$tmp/w/a" A 1.0
mkbuild "$tmp/w/b" B 1.0
put 'w1.test' "$(printf 'time: 0.5\nvanish: 1')" "$tmp/w/a" "$tmp/w/b"
put 'w2.test' "$(printf 'time: 0.5\nvanish: 1')" "$tmp/w/a" "$tmp/w/b"
expect_status 0 "$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/w/o" -n 3 -q -C --no-color \
	"$tmp/w/a" "$tmp/w/b" > w.out 2> w.err
cat w.out w.err
grep -Eq "^w1 +1  missing: not in side A's and B's results of round 2$" w.out || fail "w1.test not missing"
grep -Eq "^w2 +1  missing" w.out || fail "w2.test not missing"
grep -Eq '^w1 +1 +1 ' w.out || fail "no verdict over round 1: $(cat w.out)"

# Every test failing on a side: exit 2, the side and the first failure named.
mkbuild "$tmp/f/a" A 1.0
mkbuild "$tmp/f/b" B 1.0
put 'one.test' "$(printf 'time: 0.5\nfail: B')" "$tmp/f/a" "$tmp/f/b"
put 'two.test' "$(printf 'time: 0.5\nfail: B')" "$tmp/f/a" "$tmp/f/b"
expect_status 2 "$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/f/o" -q "$tmp/f/a" "$tmp/f/b" > f.out 2> f.err
grep -q 'every test failed on side B .*the first: one' f.err || fail "all failed on B: $(cat f.err)"
[ ! -s f.out ] || fail "a verdict although every run of B failed: $(cat f.out)"

# SIGTERM to timeit-ab alone, in round 2 (whose runs sleep 60 s): it
# stops the running lit at once and keeps round 1.
mkbuild "$tmp/s/a" A 1.0
mkbuild "$tmp/s/b" B 1.0
put 'slow.test' "$(printf 'time: 0.5\nslow: 2 60')" "$tmp/s/a" "$tmp/s/b"
"$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/s/o" -n 3 -q "$tmp/s/a" "$tmp/s/b" > s.out 2> s.err &
pid=$!
k=0
while [ ! -s "$tmp/s/b/state/slow.pid" ] && [ ! -s "$tmp/s/a/state/slow.pid" ] && [ $k -lt 300 ]; do
	sleep 0.1
	k=$((k + 1))
done
[ $k -lt 300 ] || { kill "$pid"; fail "round 2 never started"; }
t0=$(date +%s)
kill -TERM "$pid"
set +e
wait "$pid"
st=$?
set -e
t1=$(date +%s)
[ "$st" -eq 130 ] || fail "SIGTERM: status $st: $(cat s.err)"
[ $((t1 - t0)) -le 10 ] || fail "SIGTERM: timeit-ab took $((t1 - t0)) s to stop"
spid=$(cat "$tmp/s/b/state/slow.pid" "$tmp/s/a/state/slow.pid" 2> /dev/null | sed 1q)
# lit's worker got the SIGTERM too: gone (or a zombie waiting for its
# new parent) within a second or two.
pid_gone "$spid" 30 || { kill "$spid"; fail "the running lit was not stopped"; }
[ -s "$tmp/s/o/A.1.json" ] && [ -s "$tmp/s/o/B.1.json" ] || fail "round 1 not kept: $(ls "$tmp/s/o")"
ls "$tmp/s/o" | grep -q '\.2\.json' && fail "the unfinished round 2 kept: $(ls "$tmp/s/o")"
grep -q 'interrupted; the 1 finished round are in' s.err || fail "SIGTERM: $(cat s.err)"

# The duet: the A and B runs of a test start together, each pinned to its
# CPU, the CPUs swapped in round 2; every run's record says so.
ncpu=$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)
if ! timeit_has --cpu; then
	# This platform cannot pin: a duet is refused, nothing run; auto runs
	# sequential rounds and says why.
	mkbuild "$tmp/d/a" A 1.0
	mkbuild "$tmp/d/b" B 1.0
	put 'p.test' 'time: 0.5' "$tmp/d/a" "$tmp/d/b"
	expect_status 2 "$ab" --schedule sequential --lit "$lit" -o "$tmp/d/np" --schedule duet --cpu 0,1 "$tmp/d/a" "$tmp/d/b" \
		2> np.err
	grep -q -- '--schedule duet: pinning a process to a CPU is not supported on this system' np.err ||
		fail "no pinning: $(cat np.err)"
	[ ! -e "$tmp/d/np" ] || fail "no pinning: something was written"
	expect_status 0 "$ab" --lit "$lit" --compare "$compare" -o "$tmp/d/npa" -n 1 -q --schedule auto \
		"$tmp/d/a" "$tmp/d/b" > npa.out 2> npa.err
	grep -q '^schedule: sequential (auto: this system cannot pin a process to a CPU)$' npa.out ||
		fail "auto, no pinning: $(cat npa.out npa.err)"
elif [ "$ncpu" -ge 2 ] && taskset -c 0,1 true 2> /dev/null; then
	mkbuild "$tmp/d/a" A 1.0
	mkbuild "$tmp/d/b" B 1.0
	put 'p.test' 'time: 0.5' "$tmp/d/a" "$tmp/d/b"
	put 'q.test' 'time: 0.5' "$tmp/d/a" "$tmp/d/b"
	expect_status 0 "$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/d/o" -n 2 -q --schedule duet \
		--cpu 0,1 "$tmp/d/a" "$tmp/d/b" > d.out 2> d.err
	cat d.out "$tmp/d/o/samples.tsv"
	grep -q '^schedule: duet, 1 at once (A on CPU 0, B on 1, swapped every round)$' d.out ||
		fail "the schedule not said: $(cat d.out)"
	awk -F '\t' 'NR > 1 { if ($4 != "duet") bad = 1
		want = ($1 % 2 == 1) == ($2 == "A") ? "0" : "1"; if ($5 != want) bad = 1
		start[$1 " " $3] = start[$1 " " $3] " " $6 }
		END { exit bad }' "$tmp/d/o/samples.tsv" || fail "samples.tsv: not duets, pinned and swapped"
	# A and B of a test started at one moment.
	awk -F '\t' 'NR > 1 { k = $1 " " $3; if (k in s) { d = s[k] - $6; if (d < 0) d = -d; if (d > 0.01) bad = 1 }
		else s[k] = $6 } END { exit bad }' "$tmp/d/o/samples.tsv" || fail "A and B did not start together"
	[ "$(grep -c '	duet	' "$tmp/d/o/samples.tsv")" -eq 8 ] || fail "not 8 duet runs"
	# Pinned for real: each side's runs saw only their CPU.
	grep -qx 'A p.test 0' "$tmp/d/a/state/runs" && grep -qx 'A p.test 1' "$tmp/d/a/state/runs" &&
		grep -qx 'B p.test 1' "$tmp/d/b/state/runs" && grep -qx 'B p.test 0' "$tmp/d/b/state/runs" ||
		fail "not pinned and swapped: $(cat "$tmp/d/a/state/runs" "$tmp/d/b/state/runs")"
	ls "$tmp/d/o" | grep -qx 'A.2.2.json' || fail "no run of one test and side: $(ls "$tmp/d/o")"
	# The user's --filter chooses a duet's tests too (lit's --show-tests
	# lists every test it discovers, whatever the filter): only p.test.
	expect_status 0 "$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/d/of" -n 1 -q --schedule duet \
		--cpu 0,1 "$tmp/d/a" "$tmp/d/b" -- --filter 'p\.test' > df.out 2> df.err
	[ "$(ls "$tmp/d/of" | grep -c '^A\.1\..*\.json$')" -eq 1 ] && ! grep -q 'q\.test' "$tmp/d/of/samples.tsv" ||
		fail "--filter not kept in a duet: $(ls "$tmp/d/of"; cat df.err)"
	# Four CPU sets make two duets at once: the tests of a round dealt to
	# them, running at the same time.
	expect_status 0 "$ab" --schedule sequential --lit "$lit" --compare "$compare" -o "$tmp/d/o2" -n 1 -q --schedule duet \
		--cpu 0 --cpu 1 --cpu 1 --cpu 0 "$tmp/d/a" "$tmp/d/b" > d2.out 2> d2.err
	grep -q '^schedule: duet, 2 at once' d2.out || fail "not two duets at once: $(cat d2.out d2.err)"
	awk -F '\t' 'NR > 1 { s[$3] = $6; e[$3] = $6 + $7 }
		END { p = "fake :: p.test"; q = "fake :: q.test"; exit !(s[p] < e[q] && s[q] < e[p]) }' \
		"$tmp/d/o2/samples.tsv" || fail "the two duets did not overlap: $(cat "$tmp/d/o2/samples.tsv")"
	# One CPU: refused, nothing run.
	expect_status 2 taskset -c 0 "$ab" --schedule sequential --lit "$lit" -o "$tmp/d/one" --schedule duet "$tmp/d/a" "$tmp/d/b" \
		2> one.err
	grep -q -- '--schedule duet: needs two CPUs, one for A and one for B (1 available' one.err ||
		fail "one CPU: $(cat one.err)"
	[ ! -e "$tmp/d/one" ] || fail "one CPU: something was written"
	# --schedule auto, the default: a duet where two CPUs can be pinned,
	# else sequential, and the report says why.
	expect_status 0 "$ab" --lit "$lit" --compare "$compare" -o "$tmp/d/dflt" -n 1 -q \
		"$tmp/d/a" "$tmp/d/b" > dflt.out 2> dflt.err
	grep -q '^schedule: duet, 1 at once' dflt.out || fail "the default schedule: $(cat dflt.out dflt.err)"
	expect_status 0 "$ab" --lit "$lit" --compare "$compare" -o "$tmp/d/auto" -n 1 -q --schedule auto \
		--cpu 0,1 "$tmp/d/a" "$tmp/d/b" > auto.out 2> auto.err
	grep -q '^schedule: duet, 1 at once (A on CPU 0, B on 1' auto.out || fail "auto, two CPUs: $(cat auto.out auto.err)"
	expect_status 0 taskset -c 0 "$ab" --lit "$lit" --compare "$compare" -o "$tmp/d/auto1" -n 1 -q \
		--schedule auto "$tmp/d/a" "$tmp/d/b" > auto1.out 2> auto1.err
	grep -q '^schedule: sequential (auto: one CPU)$' auto1.out || fail "auto, one CPU: $(cat auto1.out auto1.err)"
else
	echo "duet part skipped: fewer than two CPUs here"
fi
exit 0
