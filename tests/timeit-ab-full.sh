#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A full disk as a run ends: every file timeit-ab writes (samples.tsv,
# rounds.log, stop.tsv, make ab's ab-looks; lit's verdict.txt and
# rounds.txt) is checked, the run's rounds are reported all the same (the
# suite's DONE line; lit's final table and rounds table on stdout), and
# then the run exits 2 with one line naming the first file that failed
# and why.  A later failure never replaces an earlier message: the first
# file's, or the failed round's own.
#
# Without root, a small file system cannot be mounted, and as root (CI)
# one would be a test of the machine: the full disk is made two ways, each
# through the calls timeit-ab really makes.  /dev/full: a file of the run
# made a symlink to it, which timeit-ab's fopen(3) ("w") and the stop
# table's in-place write follow; every write there fails with ENOSPC.  For
# lit, whose output directory must start empty, a wrapper of lit plants
# the links after lit's run, before the file is written.  RLIMIT_FSIZE
# (ulimit -f, which binds root too), with SIGXFSZ ignored: a regular file
# that grows past the limit fails with EFBIG (the run file's summaries
# stay below it).
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
ab=$top_builddir/abrun/timeit-ab
compare=$top_builddir/compare/timeit-compare
[ -w /dev/full ] || skip "no /dev/full here to fill"
nospace=$(errno_text ENOSPC)

# The suite: a run file that leaves a summary for every sample.
cat > run.sh <<'EOS'
mkdir -p "$OUT/$1/results"
printf 'exit 0\nreal 0.1\nuser 0.1\nsys 0\n' > "$OUT/$1/results/$2.$3.time"
EOS
mkdir S
S=$(cd S && pwd -P)
OUT=$S
export OUT

# suite_full FILE... : a suite run with FILEs links to /dev/full: DONE
# said, status 2, one line naming the first of them.
suite_full() {
	rm -rf "${S:?}"/*
	for f do ln -s /dev/full "$S/$f"; done
	expect_status 2 "$ab" --suite run.sh -o S -n 2 -- x y > out 2> err
	grep -q '^  DONE     2 rounds' out || fail "$*: no DONE: $(cat out err)"
	[ "$(cat err)" = "timeit-ab: $S/$1: $nospace" ] || fail "$*: $(cat err)"
}
suite_full ab-samples.tsv
suite_full ab-rounds.log
suite_full ab-stop.tsv
suite_full ab-looks
# The first failure kept: samples.tsv's, from round 1, not the stop
# table's at the end.
suite_full ab-samples.tsv ab-stop.tsv

# RLIMIT_FSIZE: one block (512 bytes in POSIX's ulimit) of samples.tsv,
# a regular file, is a line or two here (a long benchmark name; rounds.log
# stays below it until samples.tsv has failed).
rm -rf "${S:?}"/*
long=$(printf '%0240d' 0)
(
	trap '' XFSZ
	ulimit -f 1 || exit 77
	rc=0
	"$ab" --suite run.sh -o S -n 2 -- "$long" 2> err || rc=$?
	echo $rc > st
) | cat > out
[ "$(cat st)" != 77 ] || skip "ulimit -f cannot be lowered here"
[ "$(cat st)" = 2 ] || fail "RLIMIT_FSIZE: status $(cat st): $(cat err)"
grep -q '^  DONE     2 rounds' out || fail "RLIMIT_FSIZE: no DONE: $(cat out err)"
[ "$(cat err)" = "timeit-ab: $S/ab-samples.tsv: $(errno_text EFBIG)" ] ||
	fail "RLIMIT_FSIZE: $(cat err)"

# lit: its wrapper plants links to /dev/full (the names in $FULL) in the
# output directory of its -o file after every run.
find_lit
cat > lit.sh <<EOS
#!/bin/sh
"$lit" "\$@"
st=\$?
out= prev=
for a do
	[ "\$prev" != -o ] || out=\${a%/*}
	prev=\$a
done
if [ -n "\$out" ]; then
	for f in \$FULL; do [ -e "\$out/\$f" ] || ln -s /dev/full "\$out/\$f"; done
fi
exit \$st
EOS
chmod +x lit.sh
mkbuild() {
	fake_lit "$1" "$2" "$3"
}
mkbuild "$tmp/a" A 1.0
mkbuild "$tmp/b" B 2.0
printf 'time: 0.5\n' > "$tmp/a/slow.test"
cp "$tmp/a/slow.test" "$tmp/b/slow.test"
# A verdict.txt on /dev/full was once read back without end (/dev/full
# reads as zeros): a bound on each run, where there is one.
bound=
! command -v timeout > /dev/null 2>&1 || bound="timeout 120"

# lit_full FILE...: a lit run with FILEs links to /dev/full: the table
# (slow regressed) and the rounds table on stdout, status 2, one line
# naming the first of them.
n=0
lit_full() {
	n=$((n + 1))
	mkdir "o$n"
	o=$(cd "o$n" && pwd -P)
	FULL=$*
	export FULL
	# shellcheck disable=SC2086 # $bound: a command's words, or none
	expect_status 2 $bound "$ab" --schedule sequential --lit ./lit.sh --compare "$compare" \
		-o "$o" -n 2 -q -C --no-color "$tmp/a" "$tmp/b" > out 2> err
	grep -Eq '^slow .* regressed' out || fail "$*: no verdict: $(cat out err)"
	grep -Eq '^slow +2  fixed$' out || fail "$*: no rounds table: $(cat out err)"
	grep -qx "results: $o" out || fail "$*: no results line: $(cat out err)"
	[ "$(cat err)" = "timeit-ab: $o/$1: $nospace" ] || fail "$*: $(cat err)"
}
lit_full stop.tsv
lit_full rounds.txt
lit_full verdict.txt
lit_full stop.tsv rounds.txt

# A failed round's own message stays the one said, though the stop table
# then fails too; no verdict (the round failed).
printf 'time: 0.5\nfail: B\n' > "$tmp/b/slow.test"
mkdir of
FULL=stop.tsv
# shellcheck disable=SC2086 # $bound: a command's words, or none
expect_status 2 $bound "$ab" --schedule sequential --lit ./lit.sh --compare "$compare" \
	-o of -n 2 -q "$tmp/a" "$tmp/b" > out 2> err
grep -q '^timeit-ab: round 1: every test failed on side B' err || fail "a failed round: $(cat err)"
[ "$(wc -l < err)" -eq 1 ] || fail "a failed round: not one line: $(cat err)"
[ ! -s out ] || fail "a failed round: a verdict: $(cat out)"
exit 0
