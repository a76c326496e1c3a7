#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The man pages are well-formed and describe every option --help lists.
. "$top_srcdir/tests/setup"

lint() {
	if [ -n "${MANDOC:-}" ]; then
		"$MANDOC" -Tlint -W warning "$1" || fail "mandoc -Tlint: $1"
	elif command -v groff >/dev/null 2>&1; then
		out=$(groff -t -man -ww -z "$1" 2>&1)
		[ -z "$out" ] || fail "groff -ww: $1: $out"
	else
		skip "neither mandoc nor groff is installed"
	fi
}

lint "$top_srcdir/man/timeit.1"
options_documented "$TIMEIT" "$top_srcdir/man/timeit.1"
options_documented "$top_builddir/series/timeit-series" "$top_srcdir/man/timeit-series.1"

# Every program's --help reads in an 80-column terminal.
for prog in "$TIMEIT" "$top_builddir/compare/timeit-compare" "$top_builddir/perfwrap/timeit-perf" \
	"$top_builddir/abrun/timeit-ab" "$top_builddir/series/timeit-series"; do
	"$prog" --help >help || fail "${prog##*/} --help exited $?"
	awk 'length > 79 { print; bad = 1 } END { exit bad }' help >long ||
		fail "${prog##*/} --help: lines over 79 columns: $(cat long)"
done

# documented WORD: timeit.1 mentions WORD (its hyphens escaped, as roff
# source writes them).
man1=$top_srcdir/man/timeit.1
documented() {
	grep -qF -- "$(printf '%s' "$1" | sed 's/-/\\-/g')" "$man1"
}

# Every key of a real summary, --repeat's min-/mad- pairs as min-KEY and
# mad-KEY, and the keys no quick run here prints.
"$TIMEIT" --summary s --repeat 2 --report-maxrss "$AUX" exit 0 2>/dev/null ||
	fail "summary run"
for key in $(awk '{ print $1 }' s | sed 's/^min-.*/min-/; s/^mad-.*/mad-/') \
	tsc-ticks noise-flags valgrind-instructions valgrind-i1-misses valgrind-d1-misses \
	valgrind-ll-misses valgrind-mispredicts valgrind-est-cycles valgrind-i1-size valgrind-i1-assoc \
	valgrind-i1-line valgrind-d1-size valgrind-d1-assoc valgrind-d1-line valgrind-ll-size \
	valgrind-ll-assoc valgrind-ll-line valgrind-weight-l1 valgrind-weight-ll \
	valgrind-weight-mispredict; do
	documented "$key" || fail "timeit.1 does not document the summary key $key"
done

# EXIT STATUS names every way to a status that is not the command's.
exits=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$man1")
for what in --strict-events --list-events --check-env --version --cpu --chdir \
	--append-exitstatus JSON --count-instructions; do
	w=$(printf '%s' "$what" | sed 's/-/\\-/g')
	printf '%s\n' "$exits" | grep -qF -- "$w" || fail "EXIT STATUS does not mention $what"
done

for page in "$top_srcdir"/man/*.1; do
	lint "$page"
done

# The Makefile example's recipe line starts with a tab: rendered, it must
# sit a tab's width in, not at the tab stop a table before it left (groff
# -t, as man(1) formats it).
for fmt in groff mandoc; do
	command -v "$fmt" > /dev/null 2>&1 || continue
	case $fmt in
	groff) groff -t -man -Tascii -P-c -P-b -P-u "$man1" 2> /dev/null ;;
	mandoc) mandoc -Tascii "$man1" | sed 's/.\x08//g' ;;
	esac > rendered
	# shellcheck disable=SC2016 # a literal make variable
	line=$(grep -F -- '$(TIMEIT) --summary' rendered) || fail "$fmt: no Makefile example"
	lead=${line%%[! ]*}
	[ "${#lead}" -le 30 ] || fail "$fmt renders the Makefile example's tab as ${#lead} columns"
done

# Every key of the --json documents of a repeated, a failed, a signalled
# and an uncounted run is in the man page (the schema).
command -v jq >/dev/null 2>&1 || skip "jq is not installed: the JSON schema was not checked"
"$TIMEIT" --json j1 --repeat 2 --report-maxrss "$AUX" exit 0 2>/dev/null || fail "json run"
"$TIMEIT" --json j2 -c no-such-dir "$AUX" exit 0 2>/dev/null && fail "chdir run"
"$TIMEIT" --json j3 "$AUX" signal 15 2>/dev/null && fail "signal run"
"$TIMEIT" -q --json j4 -e cycles "$AUX" exit 0 2>/dev/null || fail "cycles run"
# With valgrind, a cache-simulated count's object too.
: > j5
if valgrind_runs; then
	"$TIMEIT" --json j5 --count-instructions=valgrind-cache "$AUX" exit 0 2>/dev/null ||
		fail "valgrind-cache run"
	jq -e '.valgrind.caches.LL.size' j5 > /dev/null || fail "no cache geometry in j5"
fi
for key in $(jq -r '[.. | objects | keys[]] | unique[]' j1 j2 j3 j4 j5 | sort -u); do
	documented "$key" || fail "timeit.1 does not document the JSON key $key"
done
exit 0
