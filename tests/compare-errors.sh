#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-compare's input and usage errors: status 2 and a message that
# names the file (and the line, where there is one); missing benchmarks and
# failed runs are reported in the table, not as errors.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
COMPARE=${COMPARE:-$top_builddir/compare/timeit-compare}

# err_is WANT ARGS...: exits 2 and the first stderr line is WANT.
err_is() {
	msg=$1
	shift
	expect_status 2 "$COMPARE" "$@" 2>err
	got=$(sed -n 1p err)
	[ "$got" = "$msg" ] || fail "'$*': got '$got', expected '$msg'"
}

mkdir A B empty
printf 'exit 0\nreal 1.0\nuser 1.0\nsys 0.0\n' >A/x.time
cp A/x.time B/x.time

# Usage.
err_is "timeit-compare: nothing to compare: give A and B"
err_is "timeit-compare: 'A': missing the other side (A B)" A
err_is "timeit-compare: too many paths: 'C' (use -a/-b for several per side)" A B C
err_is "timeit-compare: unknown option '--bogus'" --bogus A B
err_is "timeit-compare: --alpha: invalid number 'x'" --alpha x A B
# A number out of range says the range (timeit-compare.1 OPTIONS).
err_is "timeit-compare: --alpha: '0.7' is out of range (1e-12 to 0.25)" --alpha 0.7 A B
err_is "timeit-compare: --alpha: '1' is out of range (1e-12 to 0.25)" --alpha 1 A B
err_is "timeit-compare: --alpha: '1.5' is out of range (1e-12 to 0.25)" --alpha=1.5 A B
err_is "timeit-compare: --min-change: '-1' is out of range (0 to 1000)" --min-change=-1 A B
err_is "timeit-compare: --filter-short: '1e99' is out of range (0 to 1e12)" --filter-short 1e99 A B
err_is "timeit-compare: --bootstrap: '10' is out of range (100 to 10000000)" --bootstrap 10 A B
err_is "timeit-compare: --bootstrap: '99' is out of range (100 to 10000000)" --bootstrap 99 A B
err_is "timeit-compare: --bootstrap: '10000001' is out of range (100 to 10000000)" --bootstrap 10000001 A B
err_is "timeit-compare: --bootstrap: invalid number 'many'" --bootstrap many A B
expect_status 0 "$COMPARE" --bootstrap 100 --alpha 0.25 --min-change 1000 A B >/dev/null
err_is "timeit-compare: --alpha: '0.5' is out of range (1e-12 to 0.25)" --alpha 0.5 A B
# --svg never replaces an input: a file given as one (by any name), or a
# summary-file name a results directory is read for; nothing written.
cp A/x.time x.keep
err_is "timeit-compare: --svg 'A/x.time' is named like a summary file (*.time), which results directories are read for" \
	--svg A/x.time A B
err_is "timeit-compare: --svg 'B/y.1.time.wrong-output' is named like a summary file (*.time), which results directories are read for" \
	--svg B/y.1.time.wrong-output A B
ln -s A/x.time xlink
err_is "timeit-compare: --svg 'xlink' is the input 'A/x.time'" --svg xlink -a A/x.time -b B/x.time
err_is "timeit-compare: --svg './B/x.time' is the input 'B/x.time'" --svg ./B/x.time -a A/x.time -b B/x.time
cmp -s A/x.time x.keep && [ ! -e B/y.1.time.wrong-output ] || fail "--svg on an input wrote something"
rm xlink
# The largest alpha with benchmarks that are tested, paired and unpaired:
# a verdict, not a failure (0.5 once gave "Cannot allocate memory").
mkdir A8 B8
for i in 1 2 3 4 5 6 7 8; do
	printf 'exit 0\nreal 1\nuser 1.0%s\nsys 0\n' "$i" >"A8/t.$i.time"
	printf 'exit 0\nreal 1\nuser 1.1%s\nsys 0\n' "$i" >"B8/t.$i.time"
done
for mode in --paired --unpaired; do
	expect_status 1 "$COMPARE" --alpha 0.25 "$mode" A8 B8 >out 2>err
	grep -q '^t .* regressed ' out || fail "--alpha 0.25 $mode: $(cat out err)"
done
err_is "timeit-compare: --format: unknown format 'xml' (text, md, csv, json)" --format xml A B
err_is "timeit-compare: --noise-floor: needs two paths, A1 A2" A B --noise-floor A
err_is "timeit-compare: --seed: invalid number '-3'" --seed -3 A B
err_is "timeit-compare: 'A': give the sides either as A B or with -a/-b, not both" -a A A B
# One path beside -a and -b is the same mistake, not a missing side.
err_is "timeit-compare: 'C': give the sides either as A B or with -a/-b, not both" -a A -b B C
err_is "timeit-compare: 'C': give the sides either as A B or with -a/-b, not both" -a A C
# A flag given a value is refused, not taken as the flag ('--fdr=no' is
# not Benjamini-Hochberg).
for flag in --only-changed --fdr --no-adjust --no-color --no-colour --strict --help --version; do
	err_is "timeit-compare: $flag: takes no value ('$flag=0')" "$flag=0" A B
done
err_is "timeit-compare: --fdr: takes no value ('--fdr=no')" --fdr=no A B
grep -q "Try 'timeit-compare --help'" err || fail "usage errors point to --help"
expect_status 2 "$COMPARE" -p '(' A B 2>err
grep -q "^timeit-compare: -p: '(': " err || fail "bad regex: $(cat err)"

# Unreadable, empty, malformed inputs: file and line.
err_is "timeit-compare: nosuch: No such file or directory" nosuch B
err_is "timeit-compare: empty: no *.time summary files in this directory (JSON results are given as file paths)" empty B
: >empty.time
err_is "timeit-compare: empty.time: empty file" empty.time B
printf 'exit 0\nsys 0.1\nuser zero\n' >bad.time
err_is "timeit-compare: bad.time:3: user: bad number 'zero'" A bad.time
printf 'exit 0\nsys 0.1x\nuser 1.0\n' >bad3.time
err_is "timeit-compare: bad3.time:2: sys: bad number '0.1x'" -m sys A bad3.time
printf 'exit 0\nuser 1.0 2.0\n' >bad2.time
err_is "timeit-compare: bad2.time:2: expected 'key value'" bad2.time B
# The values used must be plain non-negative decimals, the form timeit
# writes and lit reads ([0-9.]+): strtod's hex, signs, exponents and
# infinities would be read as numbers lit never sees.
for v in 0x10 -1 +1 1e-3 inf nan . 1.2.3 " 0x1p4"; do
	printf 'exit 0\nreal 1.0\nuser %s\n' "$v" >val.time
	err_is "timeit-compare: val.time:3: user: bad number '${v# }'" val.time B
done
printf 'exit 0\ninstructions -5\nuser 1\n' >insn.time
err_is "timeit-compare: insn.time:2: instructions: bad number '-5'" insn.time B
for v in -1 0x1 1.5 1e2; do
	printf 'exit %s\nuser 1\n' "$v" >ex.time
	err_is "timeit-compare: ex.time:1: exit: bad status '$v'" ex.time B
done
printf 'exit 0\nuser 1.\nreal .5\n' >plain.time
"$COMPARE" --format csv -m real plain.time plain.time >plain.csv || fail "'1.' and '.5': $(cat plain.csv)"
grep -q '^plain,1,1,no,0.5,0.5,' plain.csv || fail "'.5': $(cat plain.csv)"
# Two lines of the metric (or of exit): an error, as in lit, which asserts
# one line starting with "user".
printf 'exit 0\nuser 1.0\nsys 0\nuser 2.0\n' >dup.time
err_is "timeit-compare: dup.time:4: user: second line (the first is line 2)" dup.time B
printf 'exit 0\nuser 1.0\nexit 1\n' >dup2.time
err_is "timeit-compare: dup2.time:3: exit: second line (the first is line 1)" dup2.time B
# Other metrics are the same; a line not used may repeat.
err_is "timeit-compare: dup.time:4: user: second line (the first is line 2)" -m user dup.time B
printf 'exit 0\nuser 1.0\nfuture 1\nfuture 2\n' >dup3.time
mkdir D3
cp dup3.time D3/x.time
expect_status 0 "$COMPARE" D3 B >/dev/null
# Two sides that share no benchmark: an error naming one of each, not a
# table of "missing" rows.
err_is "timeit-compare: no benchmark in common: A (dup3.time) has 1, e.g. 'dup3'; B (B) has 1, e.g. 'x'" dup3.time B
# JSON inputs: a negative metric is malformed too.
printf '{"tests": [\n {"name": "s :: t", "code": "PASS", "metrics": {"exec_time": -1}}]}\n' >neglit.json
err_is "timeit-compare: neglit.json:2: t: exec_time: negative value -1" neglit.json B
printf '{"format_version": "2", "tests": [\n {"name": "t",\n "execution_time": [1, -0.5]}]}\n' >neglnt.json
err_is "timeit-compare: neglnt.json:3: t: exec_time: negative value -0.5" neglnt.json B
printf '{"runs": [\n {"status": 0, "user": 1},\n {"status": 0, "user": -2}]}\n' >negrun.json
err_is "timeit-compare: negrun.json:3: negrun: user: negative value -2" negrun.json B
mkdir C
cp bad.time C/y.3.time
err_is "timeit-compare: C/y.3.time:3: user: bad number 'zero'" A C
printf '{\n  "runs": [\n    {"status": 0, "user": 1.0},\n    {"status": 0 "user": 2}\n  ]\n}\n' >bad.json
err_is "timeit-compare: bad.json:4: column 18: expected ',' or '}'" bad.json B
printf '{"runs": [\n  {"user": 1.0}\n]}\n' >nostatus.json
err_is "timeit-compare: nostatus.json:2: run without a numeric \"status\"" nostatus.json B
printf '{"runs": []}\n' >noruns.json
err_is "timeit-compare: noruns.json:1: no runs" noruns.json B
printf '{"tests": []}\n' >notests.json
err_is "timeit-compare: notests.json:1: no tests" notests.json B
printf '{"something": 1}\n' >other.json
err_is "timeit-compare: other.json:1: not a timeit, lit or LNT result (no \"runs\" or \"tests\")" other.json B
printf '[1, 2]\n' >array.json
err_is "timeit-compare: array.json:1: top-level array, expected an object" array.json B
printf '{"format_version": "2", "tests": [\n {"name": "t", "execution_time": [1, "x"]}]}\n' >lnt.json
err_is "timeit-compare: lnt.json:2: t: sample is a string, not a number" lnt.json B
err_is "timeit-compare: A: no run has the metric 'cycles'" -m cycles A B
if [ "$(id -u)" -ne 0 ]; then
	cp A/x.time secret.time
	chmod 000 secret.time
	err_is "timeit-compare: secret.time: Permission denied" secret.time B
fi
err_is "timeit-compare: --svg: nodir/plot.svg: No such file or directory" --svg nodir/plot.svg A B
# The table that cannot be written is an error too, not a silent 0; so
# is --help or --version.
if [ -w /dev/full ]; then
	for args in "A B" --help -h --version; do
		# shellcheck disable=SC2086 # two paths in one word
		expect_status 2 "$COMPARE" $args >/dev/full 2>err
		[ "$(cat err)" = "timeit-compare: stdout: No space left on device" ] ||
			fail "$args >/dev/full: $(cat err)"
	done
fi

# Missing and failed benchmarks are rows, not errors; x, one sample a
# side, is undecided (one sample shows no spread).
printf 'exit 0\nreal 1.0\nuser 1.0\nsys 0.0\n' >A/onlya.time
printf 'exit 0\nreal 1.0\nuser 1.0\nsys 0.0\n' >B/onlyb.time
printf 'exit 1\nreal 1.0\nuser 1.0\nsys 0.0\n' >A/bad.time
printf 'exit 0\nreal 1.0\nuser 1.0\nsys 0.0\n' >B/bad.time
"$COMPARE" --no-color A B >out || fail "missing/failed must not be errors"
grep -Eq '^onlya .* missing +only in A$' out || fail "onlya: $(cat out)"
grep -Eq '^onlyb .* missing +only in B$' out || fail "onlyb: $(cat out)"
grep -Eq '^bad .* failed +every run on A failed \(A/bad.time\)$' out || fail "bad: $(cat out)"
grep -Eq '^onlya +1 +0 ' out || fail "onlya's samples: $(cat out)"
grep -q '^0 improved, 0 regressed, 0 unchanged, 1 undecided (1 could be decided with more samples), 2 missing, 1 failed$' out ||
	fail "counts: $(cat out)"
# A results tree with an unreadable corner (a lost+found, a directory of
# someone else's): the rest is compared, with a warning naming it; the
# path given itself must be readable.  As nobody when root, so that CI
# tests it too.
if unprivileged; then
	mkdir -p "$tmp/u/tree/a/sub" "$tmp/u/tree/b" "$tmp/u/tree/a/lost+found"
	for d in a b; do
		printf 'exit 0\nuser 1.0\n' >"$tmp/u/tree/$d/x.time"
	done
	printf 'exit 0\nuser 1.0\n' >"$tmp/u/tree/a/sub/y.time"
	chmod -R a+rX "$tmp/u/tree"
	chmod 0700 "$tmp/u/tree/a/lost+found"
	cp "$COMPARE" "$tmp/u/timeit-compare"
	if [ "$AS_USER" != env ] || [ ! -r "$tmp/u/tree/a/lost+found/." ]; then
		$AS_USER "$tmp/u/timeit-compare" --format csv "$tmp/u/tree/a" "$tmp/u/tree/b" \
			>lf.csv 2>lf.err || fail "an unreadable subdirectory: exit $?: $(cat lf.err)"
		grep -q '^x,1,1,' lf.csv || fail "the readable rest: $(cat lf.csv)"
		grep -q '^sub/y,1,0,.*,missing,' lf.csv || fail "the readable subdirectory: $(cat lf.csv)"
		[ "$(cat lf.err)" = "timeit-compare: warning: A: left out 1 unreadable directory ($tmp/u/tree/a/lost+found: Permission denied)" ] ||
			fail "warning: $(cat lf.err)"
		chmod 0700 "$tmp/u/tree/a"
		expect_status 2 $AS_USER "$tmp/u/timeit-compare" "$tmp/u/tree/a" "$tmp/u/tree/b" 2>lf2.err
		grep -q 'tree/a: Permission denied' lf2.err || fail "the path given: $(cat lf2.err)"
	fi
fi
# A path given twice on a side would count its samples twice.
mkdir -p dup
printf 'exit 0\nuser 1.0\n' >dup/d.time
expect_status 2 "$COMPARE" -a dup -a dup/ -b dup 2>dup.err
[ "$(head -1 dup.err)" = "timeit-compare: -a 'dup' and -a 'dup/' are the same directory: each path is one round of samples" ] ||
	fail "a path twice: $(cat dup.err)"
expect_status 0 "$COMPARE" dup dup >/dev/null

# A signal while the plot is being written: no temporary file is left,
# the plot is either whole or absent.  strace holds the write of the plot
# (its second write, after the shell's) for 1.5 s and the signal comes
# meanwhile.
if command -v strace >/dev/null 2>&1 && strace -o /dev/null -e inject=write:delay_exit=1:when=1 true 2>/dev/null; then
	mkdir sig
	# LeakSanitizer cannot run under a tracer.
	(cd sig && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -o /dev/null -e trace=write -e inject=write:delay_exit=1500000:when=2 \
		sh -c 'echo $$ >pid; exec "$1" --svg out.svg ../dup ../dup >/dev/null' sh "$COMPARE" &)
	n=0
	while [ ! -s sig/pid ] && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
	sleep 0.5
	kill -TERM "$(cat sig/pid)"
	n=0
	while kill -0 "$(cat sig/pid)" 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	ls -a sig | grep -q '^\.timeit\.tmp' && fail "a signal left a temporary file: $(ls -a sig)"
	[ ! -e sig/out.svg ] || tail -n 1 sig/out.svg | grep -q '^</svg>$' || fail "half a plot"
fi
# A file that is no summary among the summaries is an error naming it; a
# summary without the metric stays a failed run, said in the why.
mkdir G H
cp A/x.time G/x.time
cp A/x.time H/x.time
echo garbage > G/y.time
cp A/x.time H/y.time
err_is "timeit-compare: G/y.time: not a timeit summary (no 'exit' line)" G H
printf 'exit 0\nreal 1.0\n' > G/y.time
expect_status 0 "$COMPARE" --format csv G H > gh.csv 2>err || true
grep -q '^y,.*failed' gh.csv || grep -q '^y,.*no exec_time' gh.csv ||
	fail "a summary without the metric: $(cat gh.csv)"
# A run's machine name too long for its field is refused, not cut.
long=$(printf '%300s' '' | tr ' ' m)
printf '{"format_version": "2", "machine": {"name": "%s"}, "run": {}, "tests": [{"name": "nts.t", "execution_time": [1]}]}\n' "$long" > long.json
err_is "timeit-compare: long.json: the machine's name, the run order or the start time is longer than 255, 255 or 63 bytes" long.json long.json
exit 0
