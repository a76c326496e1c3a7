#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-ab: run lit on two built test directories in interleaved rounds
# until timeit-compare has decided every test, then print its verdict.
#
# A round is one lit run on A and one on B (the order alternated, or drawn,
# per round), each writing its own -o JSON into the output directory.
# With --samples auto, after --min-samples rounds and every --look-every
# rounds after that, timeit-compare --undecided names the tests that more
# samples could still decide, and the next rounds run only those (lit
# --filter).  It stops when none is left, after --max-samples rounds, or
# when the next round would not end within --budget seconds.  Every
# round's file is kept; the verdict is timeit-compare's over all of them,
# the k-th file of A paired with the k-th of B.
#
# Exit statuses are handled explicitly, hence no `set -e`.
set -u

prog=timeit-ab
version='@PACKAGE_VERSION@'
bugreport='@PACKAGE_BUGREPORT@'
# Its own exit statuses (timeit-ab(1), EXIT STATUS); otherwise timeit-compare's.
st_usage=2 st_error=2 st_interrupted=130

usage() {
	cat <<EOF
usage: $prog [options] BUILD_A BUILD_B [-- LIT_ARGUMENTS ...]

Run lit on two configured and built lit test directories (e.g. two
llvm-test-suite build trees) in interleaved rounds, sample again only the
tests that are still undecided, and print timeit-compare's verdict over
every round.

options:
  -o, --output DIR           keep every round's lit -o JSON in DIR (default
                             timeit-ab.out; it must not exist or be empty)
      --lit PATH             the lit program (default: lit, llvm-lit or
                             Debian's lit.py)
      --compare PATH         the timeit-compare program (default: next to
                             $prog, or in PATH)
  -C, --compare-option OPT   pass OPT to every timeit-compare call
                             (repeatable), e.g. -C --min-change=2
  -n, --samples N|auto       N rounds, or auto (the default): until every
                             test is decided
      --min-samples N        rounds before the first look (default 6)
      --max-samples N        rounds at most (default 30)
      --look-every N         rounds between looks (default 6)
      --budget SECONDS       start no round that would end later than SECONDS
                             after the first (0: none)
      --order ORDER          alternate (A B, B A, ...; the default) or random
      --seed N               the seed of --order random (default 1)
  -q, --quiet                no progress on stderr
  -h, --help                 show this help and exit
      --version              show the version and exit

lit runs as LIT -j1 LIT_ARGUMENTS -o FILE [--filter REGEX] BUILD: one test at
a time unless LIT_ARGUMENTS say otherwise.

Exit status: timeit-compare's on the final table (0 no significant regression,
1 a significant regression); 2 on a usage error or when lit or timeit-compare
fails; 130 when interrupted.  See timeit-ab(1).
EOF
	[ -z "$bugreport" ] || printf '\nReport bugs to: %s\n' "$bugreport"
}

die() {
	echo "$prog: $*" >&2
	exit $st_usage
}

# quote WORD: WORD as one shell word, for eval.
quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# posint NAME VALUE: VALUE is a positive integer, or a usage error.
posint() {
	case $2 in
	'' | *[!0-9]* | 0*) die "$1: expected a positive integer, not '$2'" ;;
	esac
}

out=timeit-ab.out lit='' compare='' cargs='' samples=auto min=6 max=30 step=6 budget=0
order=alternate seed=1 quiet=
while [ $# -gt 0 ]; do
	opt=$1
	case $opt in
	--*=*) val=${opt#*=} opt=${opt%%=*} has=1 ;;
	*) val='' has='' ;;
	esac
	case $opt in
	-o | --output | --lit | --compare | -C | --compare-option | -n | --samples | --min-samples | \
		--max-samples | --look-every | --budget | --order | --seed)
		if [ -z "$has" ]; then
			[ $# -ge 2 ] || die "$opt: needs an argument"
			val=$2
			shift
		fi
		;;
	-h | --help | --version | -q | --quiet)
		[ -z "$has" ] || die "$opt: takes no argument"
		;;
	esac
	case $opt in
	-o | --output) out=$val ;;
	--lit) lit=$val ;;
	--compare) compare=$val ;;
	-C | --compare-option) cargs="$cargs $(quote "$val")" ;;
	-n | --samples) samples=$val ;;
	--min-samples) min=$val ;;
	--max-samples) max=$val ;;
	--look-every) step=$val ;;
	--budget) budget=$val ;;
	--order) order=$val ;;
	--seed) seed=$val ;;
	-q | --quiet) quiet=1 ;;
	-h | --help)
		usage || exit $st_error
		exit 0
		;;
	--version)
		echo "$prog $version" || exit $st_error
		exit 0
		;;
	--) shift; break ;;
	-?*) die "$opt: unknown option (see $prog --help)" ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 2 ] || die "expected two lit test directories, BUILD_A BUILD_B (see $prog --help)"
build_a=$1 build_b=$2
shift 2
if [ $# -gt 0 ]; then
	[ "$1" = -- ] || die "'$1': lit arguments come after '--'"
	shift
fi
# "$@" is now the extra lit arguments.

[ "$samples" = auto ] || posint --samples "$samples"
posint --min-samples "$min"
posint --max-samples "$max"
posint --look-every "$step"
[ "$min" -le "$max" ] || die "--min-samples $min is above --max-samples $max"
case $budget in '' | *[!0-9]*) die "--budget: expected seconds, not '$budget'" ;; esac
case $order in alternate | random) ;; *) die "--order: expected alternate or random, not '$order'" ;; esac
case $seed in '' | *[!0-9]*) die "--seed: expected a non-negative integer, not '$seed'" ;; esac
for d in "$build_a" "$build_b"; do
	[ -d "$d" ] || die "$d: not a directory"
	found=
	for c in lit.site.cfg lit.site.cfg.py lit.cfg lit.cfg.py; do
		[ -f "$d/$c" ] && found=1
	done
	[ -n "$found" ] || die "$d: no lit.site.cfg or lit.cfg (not a configured lit test directory)"
done
if [ -z "$lit" ]; then
	for c in lit llvm-lit /usr/lib/llvm-*/build/utils/lit/lit.py; do
		case $c in
		/*) [ -x "$c" ] && lit=$c ;;
		*) command -v "$c" > /dev/null 2>&1 && lit=$c ;;
		esac
		[ -z "$lit" ] || break
	done
	[ -n "$lit" ] || die "no lit found (give --lit PATH; Debian: llvm-14-tools)"
fi
"$lit" --version > /dev/null 2>&1 || die "--lit $lit: cannot run it ('$lit --version' failed)"
if [ -z "$compare" ]; then
	here=$(dirname -- "$0")
	if [ -x "$here/timeit-compare" ]; then
		compare=$here/timeit-compare
	else
		compare=timeit-compare
	fi
fi
command -v "$compare" > /dev/null 2>&1 || die "--compare $compare: not found"
if [ -e "$out" ] && [ -n "$(ls -A -- "$out" 2>/dev/null)" ]; then
	die "$out: exists and is not empty (every round's results go there; give another --output)"
fi
mkdir -p -- "$out" || exit $st_error
out=$(cd -- "$out" && pwd) || exit $st_error

rounds=$max
[ "$samples" = auto ] || rounds=$samples
looks=
if [ "$samples" = auto ]; then
	# The looks: at MIN, every STEP rounds after it, and at MAX; every call
	# to timeit-compare says how many there can be.
	looks=$(awk -v lo="$min" -v hi="$max" -v k="$step" \
		'BEGIN { n = 0; for (r = lo; r <= hi; r++) n += (r - lo) % k == 0 || r == hi; print n }')
	cargs="--looks $looks$cargs"
fi
tty=
[ -z "$quiet" ] && [ -t 2 ] && tty=1

now() { date +%s; }
clock() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
say() {
	[ -z "$quiet" ] || return 0
	if [ -n "$tty" ]; then
		printf '\r\033[K%s: %s' "$prog" "$*" >&2
	else
		echo "$prog: $*" >&2
	fi
}
endline() { [ -z "$tty" ] || printf '\r\033[K' >&2; }

# The order of round R: alternate, or random from SEED and R.
round_order() {
	if [ "$order" = random ]; then
		awk -v s="$seed" -v r="$1" 'BEGIN { srand(s * 1000 + r); print (rand() < 0.5 ? "A B" : "B A") }'
	elif [ $(($1 % 2)) -eq 1 ]; then
		echo "A B"
	else
		echo "B A"
	fi
}

# names FILE: the test names of a lit -o file, without the "SUITE :: "
# lit puts before them (as timeit-compare names them), one a line.
names() {
	sed -n 's/^[[:space:]]*"name": "\(.*\)",\{0,1\}[[:space:]]*$/\1/p' "$1" | sed 's/^.* :: //'
}

# The arguments of timeit-compare: the options, then -a and -b for each
# round's files, the k-th of A paired with the k-th of B.
compare_args() {
	_a=$cargs _r=1
	while [ "$_r" -le "$round" ]; do
		_a="$_a -a $(quote "$out/A.$_r.json") -b $(quote "$out/B.$_r.json")"
		_r=$((_r + 1))
	done
	printf '%s' "$_a"
}

# filter_of NAME...: lit's --filter for exactly these tests (a regular
# expression searched in "SUITE :: NAME").
filter_of() {
	_f=
	for _n do
		_f="$_f|$(printf '%s' "$_n" | sed 's/[][\\.^$*+?(){}|]/\\&/g')"
	done
	printf ':: (%s)$' "${_f#|}"
}

stopped() {
	_why=$1 _r=$2
	shift 2
	for _t do
		printf '%s\t%s\t%s\n' "$_t" "$_r" "$_why" >> "$out/stop.tsv"
	done
}

# shellcheck disable=SC2317 # called by the trap
interrupted() {
	endline
	rm -f "$out"/*.json.tmp
	echo "$prog: interrupted; the rounds so far are in $out" >&2
	exit "$st_interrupted"
}
trap interrupted INT TERM HUP

: > "$out/rounds.log"
: > "$out/stop.tsv"
start=$(now)
round=0 filter='' active='' n=0 runs=0
while :; do
	round=$((round + 1))
	sides=$(round_order "$round")
	elapsed=$(($(now) - start))
	left=
	if [ "$runs" -gt 0 ]; then
		left=$((elapsed * n * (rounds - round + 1) / runs))
		[ "$budget" -eq 0 ] || [ "$left" -le $((budget - elapsed)) ] || left=$((budget - elapsed))
		left=$(clock "$left")
		[ "$samples" != auto ] || left="at most $left"
	fi
	if [ "$round" -eq 1 ]; then
		what="round 1: all tests"
	elif [ "$samples" = auto ]; then
		what="round $round (at most $rounds): $n undecided"
	else
		what="round $round of $rounds: $n tests"
	fi
	say "$what, $(clock "$elapsed") elapsed${left:+, $left left}, order ${sides% *}${sides#* }"
	for s in $sides; do
		if [ "$s" = A ]; then dir=$build_a; else dir=$build_b; fi
		f=$out/$s.$round.json
		# lit exits 1 when a test fails: the verdict says which.  No file
		# means lit itself failed.
		# The user's -j wins over -j1; our -o and --filter over theirs
		# (the tests left are a subset of what their --filter chose).
		"$lit" -j1 "$@" -o "$f.tmp" ${filter:+--filter "$filter"} "$dir" \
			> "$out/$s.$round.log" 2>&1
		if [ ! -s "$f.tmp" ]; then
			endline
			tail -n 20 "$out/$s.$round.log" >&2
			echo "$prog: $lit on $dir (round $round) wrote no results; see $out/$s.$round.log" >&2
			exit $st_error
		fi
		mv -f "$f.tmp" "$f" || exit $st_error
	done
	if [ "$round" -eq 1 ]; then
		active=$(names "$out/A.1.json" | sort -u)
		[ -n "$active" ] || {
			endline
			echo "$prog: lit found no tests in $build_a (see $out/A.1.log)" >&2
			exit $st_error
		}
	fi
	n=$(printf '%s\n' "$active" | wc -l)
	runs=$((runs + n))
	printf '%s %s%s %s\n' "$round" "${sides% *}" "${sides#* }" "$n" >> "$out/rounds.log"

	if [ "$samples" = auto ] && [ "$round" -ge "$min" ] &&
		{ [ $(((round - min) % step)) -eq 0 ] || [ "$round" -eq "$rounds" ]; }; then
		if ! undecided=$(eval "\"\$compare\" $(compare_args) --undecided" 2> "$out/look.err"); then
			endline
			cat "$out/look.err" >&2
			echo "$prog: $compare --undecided failed after round $round" >&2
			exit $st_error
		fi
		next=
		for t in $active; do
			if printf '%s\n' "$undecided" | grep -qxF -e "$t" -e "${t%.test}"; then
				next="$next
$t"
			else
				stopped decided "$round" "$t"
			fi
		done
		active=$(printf '%s' "$next" | sed '/^$/d')
		[ -n "$active" ] || break
		# shellcheck disable=SC2086 # one word per test name
		filter=$(filter_of $active)
		n=$(printf '%s\n' "$active" | wc -l)
	fi
	if [ "$round" -ge "$rounds" ]; then
		# shellcheck disable=SC2086
		if [ "$samples" = auto ]; then stopped "max samples" "$round" $active; else stopped fixed "$round" $active; fi
		break
	fi
	# With the order alternated a block of two rounds (AB, BA) starts only
	# if both fit, and its second always runs: an order effect cancels.
	blk=1
	[ "$order" = alternate ] && blk=2
	if [ "$budget" -gt 0 ] && [ $((round % blk)) -eq 0 ]; then
		elapsed=$(($(now) - start))
		if [ $((elapsed + blk * elapsed * n / runs)) -gt "$budget" ]; then
			# shellcheck disable=SC2086
			stopped budget "$round" $active
			break
		fi
	fi
done
endline
elapsed=$(($(now) - start))
say "$round rounds, $runs test runs a side, $(clock "$elapsed")"
[ -n "$tty" ] && [ -z "$quiet" ] && echo >&2

eval "\"\$compare\" $(compare_args)" > "$out/verdict.txt"
st=$?
cat "$out/verdict.txt"
{
	echo "rounds: how many each test got, and why its sampling stopped"
	# Named as timeit-compare names them: without ".test".
	awk -F '\t' '{ n = $1; sub(/\.test$/, "", n); printf "%-56s %6s  %s\n", n, $2, $3 }
	BEGIN { printf "%-56s %6s  %s\n", "test", "rounds", "stopped" }' "$out/stop.tsv"
} > "$out/rounds.txt"
cat "$out/rounds.txt"
echo "results: $out"
case $st in
0 | 1) exit "$st" ;;
*)
	echo "$prog: $compare failed (status $st)" >&2
	exit $st_error
	;;
esac
