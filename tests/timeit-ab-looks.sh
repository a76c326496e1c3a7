#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The final table of timeit-ab is one of its looks (timeit-ab(1),
# --budget; timeit-compare(1), --spent-looks): a run that ends at a look
# (here its last, round 3 of looks at 2 and 3) tests at alpha / looks; one
# the budget ends between looks (here before the first, at round 25)
# spends the rest of alpha, all of it, not alpha / looks on a test the
# looks did not plan for.  timeit-compare refuses --spent-looks that is
# not below --looks, naming it, status 2.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compare=$top_builddir/compare/timeit-compare

command -v sleep > /dev/null || skip "no sleep(1)"

# Ended at its last look: 2 looks, alpha / 2 each.
set +e
"$ab" -q --compare "$compare" --cmd 'sleep 0.05' --cmd 'sleep 0.050' --min-samples 2 \
	--look-every 1 --max-samples 3 -C --no-color -o O1 > out1 2> err1
st=$?
set -e
[ "$st" -le 1 ] || fail "at a look: status $st: $(cat out1 err1)"
grep -q 'alpha 0.05 over 2 looks (0.025 each)' out1 || fail "at a look: $(cat out1 err1)"

# Ended by the budget before its first look (round 25): the final table
# spends all of alpha.
set +e
"$ab" -q --compare "$compare" --cmd 'sleep 0.2' --cmd 'sleep 0.20' --min-samples 25 \
	--max-samples 30 --budget 2 -C --no-color -o O2 > out2 2> err2
st=$?
set -e
[ "$st" -le 1 ] || fail "the budget: status $st: $(cat out2 err2)"
rounds=$(awk -F '\t' '{ print $2 }' O2/stop.tsv)
[ "$rounds" -lt 25 ] || fail "the budget held $rounds rounds"
grep -q 'alpha 0.05 over 2 looks (0.05 here, the rest after 0)' out2 ||
	fail "the budget: $(cat out2 err2)"

# --spent-looks K needs K below --looks N.
expect_status 2 "$compare" --looks 2 --spent-looks 2 O2/A/results O2/B/results > out3 2> err3
head -n 1 err3 | grep -q -- '^timeit-compare: --spent-looks: 2 is not below --looks 2$' ||
	fail "--spent-looks 2 of 2: $(cat err3)"
set +e
"$compare" --looks 4 --spent-looks 1 --no-color O2/A/results O2/B/results > out4
st=$?
set -e
[ "$st" -le 1 ] || fail "--spent-looks 1 of 4: status $st"
grep -q 'alpha 0.05 over 4 looks (0.0375 here, the rest after 1)' out4 ||
	fail "--spent-looks 1 of 4: $(cat out4)"

# The first look of auto is at round 3 (timeit-ab(1), --min-samples): the
# moderated t gives 3 pairs the degrees of freedom of a suite of 40 or
# more.  40 benchmarks of made-up times, 3 % shared by a round's A and B
# and 2 % their own; B's b00 at x0.4: decided at round 3, by the
# moderated t (timeit-compare over its rounds says which test).
mkdir S4
cat > run4.sh <<'EOS'
mkdir -p "$OUT/$1/results"
shared=$(printf '%s %s\n' "$2" "$3" | cksum | cut -d ' ' -f 1)
own=$(printf '%s %s %s\n' "$1" "$2" "$3" | cksum | cut -d ' ' -f 1)
awk -v s="$shared" -v o="$own" -v side="$1" -v name="$2" 'BEGIN {
	srand(s % 1000003); z = 0; for (i = 0; i < 12; i++) z += rand(); t = 0.03 * (z - 6)
	srand(o % 1000003); z = 0; for (i = 0; i < 12; i++) z += rand()
	t = 0.1 * exp(t + 0.02 * (z - 6))
	if (side == "B" && name == "b00") t *= 0.4
	printf "exit 0\nreal %.6f\nuser %.6f\nsys 0\n", t, t
}' > "$OUT/$1/results/$2.$3.time"
EOS
OUT=$(cd S4 && pwd -P)
export OUT
# shellcheck disable=SC2046
"$ab" --compare "$compare" --suite run4.sh -o S4 --max-samples 6 -C --no-color -- \
	$(awk 'BEGIN { for (i = 0; i < 40; i++) printf "b%02d\n", i }') > out4 2>&1 ||
	fail "40 benchmarks: $(cat out4)"
[ "$(head -n 1 S4/ab-stop.tsv)" = "$(printf 'b00\t3\tdecided')" ] ||
	fail "x0.4 not decided at round 3: $(head -n 3 S4/ab-stop.tsv; cat out4)"
"$compare" --looks "$(cat S4/ab-looks)" --no-color S4/A/results S4/B/results > cmp4 ||
	fail "the suite's rounds: status $?"
grep -Eq '^b00 +3 +3 .* improved' cmp4 || fail "b00 not improved: $(cat cmp4)"
grep -q '^note: 1 benchmark of at most 3 pairs tested by the moderated t: 40 give' cmp4 ||
	fail "b00 not by the moderated t: $(cat cmp4)"
