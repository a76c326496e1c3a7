#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-ab --compile --jobs N: sequential rounds (--schedule auto says
# why) in blocks of N units, the block's compiles of one side at once,
# then the same units of the other side: in samples.tsv runs of one side
# overlap, an A never overlaps a B; one at a time without it.  --jobs
# with a duet, without --compile or out of range: one line, status 2,
# nothing made.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compile_sources cc1
# A compile long enough that runs started together overlap.
printf '#!/bin/sh\nsleep 0.3\nexec "%s/cc1" "$@"\n' "$tmp" > cc2
chmod +x cc2
for u in c d e f; do printf 'int %s(void) { return 0; }\n' "$u" > "src/$u.c"; done

# tree DIR: six units of program p.
tree() {
	mkdir -p "$1/p/CMakeFiles/p.dir"
	{
		printf '['
		sep=
		for u in a b c d e f; do
			printf '%s\n{"directory": "%s/p", "arguments": ["%s/cc2", "-c", "-o", "CMakeFiles/p.dir/%s.c.o", "%s/src/%s.c"], "file": "%s/src/%s.c"}' \
				"$sep" "$tmp/$1" "$tmp" "$u" "$tmp" "$u" "$tmp" "$u"
			sep=,
		done
		printf '\n]\n'
	} > "$1/compile_commands.json"
}
tree A
tree B

# Sequential, one compile at a time.
expect_status 0 "$ab" -q -o O1 -n 1 --schedule sequential --no-identity --compile A B \
	> out 2> err || fail "sequential: $(cat out err)"

# overlaps FILE: "same N cross M": pairs of runs of one round whose times
# overlap, of one side and of the two sides (by more than samples.tsv's
# rounding to milliseconds).
overlaps() {
	awk -F '\t' 'NR > 1 { r[NR] = $1; s[NR] = $2; t0[NR] = $6; t1[NR] = $6 + $7; n = NR }
	END {
		for (i = 2; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (r[i] == r[j] && t0[i] < t1[j] - 0.002 && t0[j] < t1[i] - 0.002) {
					if (s[i] == s[j]) same++; else cross++
				}
		printf "same %d cross %d\n", same, cross
	}' "$1"
}
[ "$(overlaps O1/samples.tsv)" = "same 0 cross 0" ] ||
	fail "one at a time: $(overlaps O1/samples.tsv)"

# Blocks of 3 units (6 units, 2 rounds): each block's 3 runs of a side
# together (3 overlapping pairs), 2 blocks a side, 2 sides, 2 rounds.
expect_status 0 "$ab" -o O2 -n 2 -j 3 --no-identity --compile A B > out 2> err ||
	fail "-j 3: $(cat out err)"
grep -q 'schedule sequential (auto: --jobs)' err || fail "-j 3: the schedule's reason: $(cat err)"
awk -F '\t' 'NR > 1 && $4 != "sequential" { bad = 1 } END { exit bad }' O2/samples.tsv ||
	fail "-j 3: not sequential: $(cat O2/samples.tsv)"
[ "$(overlaps O2/samples.tsv)" = "same 24 cross 0" ] ||
	fail "-j 3: $(overlaps O2/samples.tsv): $(cat O2/samples.tsv)"
[ "$(awk 'END { print NR - 1 }' O2/samples.tsv)" = 24 ] ||
	fail "-j 3: not 24 runs: $(cat O2/samples.tsv)"
grep -Eq '^p +2 +2 ' out || fail "-j 3: p's samples: $(cat out)"

# Wrong input.  A duet where the platform cannot pin is refused for that
# first.
duet_msg=--jobs:.only.with.--schedule.sequential
timeit_has --cpu || duet_msg=pinning.a.process.to.a.CPU.is.not.supported
while read -r msg args; do
	# shellcheck disable=SC2086 # $args: the words, split on purpose
	expect_status 2 "$ab" -q -o O3 $args > out 2> err < /dev/null
	grep -q -- "$msg" err || fail "$args: $(cat err)"
	[ "$(wc -l < err)" -eq 1 ] || fail "$args: not one line: $(cat err)"
	[ ! -e O3 ] || fail "$args: -o made"
done <<EOS
$duet_msg -j 2 --schedule duet --cpu 0,0 --compile A B
--jobs:.only.with.--compile --jobs 2 --cmd true --cmd true
--jobs:.expected.a.positive.integer,.not.'0' --jobs 0 --compile A B
--jobs:.'1025'.is.out.of.range --jobs=1025 --compile A B
EOS
exit 0
