#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-compare --svg writes a plot that a real SVG renderer accepts
# (rsvg-convert, Debian librsvg2-bin), with names that need XML escaping,
# and with nothing to plot; a failed comparison leaves no file behind.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
COMPARE=${COMPARE:-$top_builddir/compare/timeit-compare}
GEN=${GEN:-$top_builddir/tests/compare-gen}
command -v rsvg-convert >/dev/null 2>&1 || skip "rsvg-convert (librsvg2-bin) is not installed"

# render SVG: converts to PNG and checks the PNG signature.
render() {
	rsvg-convert -o "$1.png" "$1" 2>err || fail "rsvg-convert $1: $(cat err)"
	[ "$(head -c 8 "$1.png" | od -An -c | tr -d ' \n')" = '211PNG\r\n032\n' ] ||
		fail "$1.png is not a PNG"
}

"$GEN" A 3 20 5 0.01 0 0
"$GEN" B 4 20 5 0.01 0.03 5
"$COMPARE" --no-adjust --svg plot.svg A B >/dev/null || [ $? -eq 1 ] || fail "compare --svg"
render plot.svg
[ "$(grep -c '<circle' plot.svg)" -eq 20 ] || fail "one dot per benchmark expected"
grep -q '#c62828' plot.svg || fail "regressions are not coloured"
# Sorted by change: the last row is the largest regression.
last=$(grep -o '<title>[^<]*</title>' plot.svg | tail -n 1)
case $last in *regressed*) ;; *) fail "last row '$last' is not a regression" ;; esac

# Names from lit JSON that need escaping; a side of one sample (no CI).
cat >a.json <<'JSON'
{"tests": [{"name": "s :: a&b<c>\"d\"", "code": "PASS", "metrics": {"exec_time": 1.0}},
           {"name": "s :: plain", "code": "PASS", "metrics": {"exec_time": 2.0}}]}
JSON
sed 's/"exec_time": 1.0/"exec_time": 1.5/' a.json >b.json
"$COMPARE" --svg esc.svg a.json b.json >/dev/null || fail "compare --svg with odd names"
render esc.svg
grep -q 'a&amp;b&lt;c&gt;&quot;d&quot;' esc.svg || fail "names are not escaped: $(cat esc.svg)"

# Non-ASCII names, cut where too long, and file names that are not UTF-8:
# the plot stays well-formed XML (cut by characters, not bytes; a byte
# that is not UTF-8 shown as U+FFFD).
mkdir ua ub
long=$(printf 'd\303\251j\303\240-vu-%.0s' 1 2 3 4 5 6 7 8)	# 8 x "déjà-vu-"
bad=$(printf 'latin\351')			# ISO 8859-1 "latiné"
for i in 1 2 3; do
	for d in ua ub; do
		u=1.0
		[ $d = ub ] && u=1.2
		printf 'exit 0\nuser %s%s\n' $u $i >"$d/$long.$i.time"
		printf 'exit 0\nuser %s%s\n' $u $i >"$d/$bad.$i.time"
	done
done
"$COMPARE" --svg utf8.svg ua ub >/dev/null || [ $? -eq 1 ] || fail "compare --svg, non-ASCII names"
render utf8.svg
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' utf8.svg ||
		fail "utf8.svg is not well-formed XML"
fi
iconv -f UTF-8 -t UTF-8 utf8.svg >/dev/null 2>&1 || fail "utf8.svg is not UTF-8"
grep -q "latin$(printf '\357\277\275')" utf8.svg || fail "no U+FFFD for the Latin-1 byte"
grep -q "$(printf '\342\200\246')" utf8.svg || fail "the long name is not cut with an ellipsis"

# The gate is a band; an interval wider than the plot ends in an arrowhead.
"$COMPARE" --svg gate.svg ua ub >/dev/null || true
grep -q 'fill="#e3f2fd"' gate.svg || fail "no gate band"
mkdir wa wb
printf 'exit 0\nuser 1.0\n' >wa/w.1.time
printf 'exit 0\nuser 3.0\n' >wa/w.2.time
printf 'exit 0\nuser 1.02\n' >wb/w.1.time
printf 'exit 0\nuser 3.1\n' >wb/w.2.time
for i in 1 2 3 4 5 6; do
	printf 'exit 0\nuser 1.0%s\n' $i >"wa/n.$i.time"
	printf 'exit 0\nuser 1.0%s\n' $i >"wb/n.$i.time"
done
"$COMPARE" --unpaired --svg wide.svg wa wb >/dev/null || true
render wide.svg
grep -q '<title>interval continues</title>' wide.svg || fail "no arrowhead at a cut interval: $(cat wide.svg)"

# Nothing on both sides: an error, and no picture.
printf '{"tests": [{"name": "x", "code": "PASS", "metrics": {"exec_time": 1}}]}\n' >x.json
expect_status 2 "$COMPARE" --svg empty.svg x.json b.json >/dev/null 2>err
grep -q 'no benchmark in common' err || fail "compare --svg, nothing in common: $(cat err)"
[ ! -e empty.svg ] || fail "a plot of nothing in common"

# An input error: status 2 and no plot.
printf 'exit 0\nuser x\n' >bad.time
expect_status 2 "$COMPARE" --svg none.svg A bad.time 2>/dev/null
[ ! -e none.svg ] || fail "a plot was written despite the error"
# One benchmark is said in the singular; the title starts at the left edge.
mkdir one && (cd one && "$GEN" A 3 1 5 0.01 0 0 && "$GEN" B 4 1 5 0.01 0.03 5) || fail "gen one"
"$COMPARE" --no-adjust --svg one.svg one/A one/B >/dev/null || [ $? -eq 1 ] || fail "compare one"
grep -q 'over 1 benchmark;' one.svg || fail "one benchmark not said in the singular"
grep -q '<text x="10" y="20"' one.svg || fail "the title does not start at the left edge"
exit 0
