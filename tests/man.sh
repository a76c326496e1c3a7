#!/bin/sh
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

# Every --long option of PROGRAM's --help appears in PAGE (escaped hyphens).
options_documented() {
	"$1" --help | grep -o -- '--[a-z][a-z-]*' | sort -u | while read -r opt; do
		esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
		grep -q -- "$esc" "$2" || fail "$2 does not document $opt"
	done
}

lint "$top_srcdir/man/timeit.1"
options_documented "$TIMEIT" "$top_srcdir/man/timeit.1"
for page in "$top_srcdir"/man/*.1; do
	lint "$page"
done
exit 0
