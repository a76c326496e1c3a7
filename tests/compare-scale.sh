#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-compare on one benchmark of 10 000 runs a side (two timeit --json
# files), paired and unpaired, within 64 MB of address space: the
# Hodges-Lehmann estimates select from the implicit matrix of differences
# instead of forming the 10^8 of them (1.6 GB before).  Not timed.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
COMPARE=${COMPARE:-$top_builddir/compare/timeit-compare}

# The sanitizers reserve terabytes of address space: no limit can hold.
[ -z "${TIMEIT_SANITIZED:-}" ] || skip "an address-space limit cannot be tested under ASan"
mkdir a b
for side in a b; do
	awk -v side=$side 'BEGIN {
		srand(side == "a" ? 3 : 4)
		printf "{\"runs\": ["
		for (i = 0; i < 10000; i++)
			printf "%s{\"status\": 0, \"user\": %.6f}", i ? ", " : "",
				(side == "a" ? 1 : 1.05) * (1 + 0.02 * (rand() - 0.5))
		print "]}"
	}' >"$side/big.json"
done
# Under qemu-user the emulator's own reservations exceed any such limit:
# there the bound is on the peak RSS that timeit reports instead (the
# emulator's share included; the 10^8 differences were 1.6 GB).
if (ulimit -v 65536 && "$COMPARE" --version) >/dev/null 2>&1; then
	limit() { (ulimit -v 65536 && "$@"); }
else
	emulated || fail "timeit-compare --version does not run within 64 MB"
	echo "note: under an emulator: peak RSS under 128 MB instead of 64 MB of address space" >&2
	limit() {
		"$TIMEIT" --summary rss.time --report-maxrss "$@"
		_rc=$?
		awk '$1 == "maxrss" && $2 < 128 * 1048576 { ok = 1 } END { exit !ok }' rss.time ||
			fail "peak RSS: $(cat rss.time)"
		return "$_rc"
	}
fi
for mode in "" --unpaired; do
	# shellcheck disable=SC2086 # an empty mode is no word
	limit "$COMPARE" --format csv $mode a/big.json b/big.json >out.csv 2>err ||
		[ $? -eq 1 ] || fail "10 000 a side ${mode:-paired}: $(cat err)"
	grep -q '^big,10000,10000,.*,regressed,' out.csv || fail "10 000 a side ${mode:-paired}: $(cat out.csv)"
	# The estimate of a 5 % shift, to within its interval.
	awk -F, 'NR == 2 && !($7 > 0.045 && $7 < 0.055) { exit 1 }' out.csv ||
		fail "estimate: $(cat out.csv)"
done
exit 0
