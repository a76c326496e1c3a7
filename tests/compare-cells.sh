#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A benchmark's name in every report, as the name and nothing else:
# Markdown gets its HTML as entities (no <img onerror=...> reaches a
# rendered table), CSV opens a name a spreadsheet would take for a
# formula (=, +, -, @) with a quote mark and leaves numbers alone, a text
# table holds a 3000-byte name whole, and the SVG shows a control
# character as its picture (new<LF>line is not newline).  The writers are
# shared with timeit-series (lib/ab/report-cell.c).
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
COMPARE=${COMPARE:-$top_builddir/compare/timeit-compare}

mkdir A B
# A name of 3000 bytes: a path of 15 directories of 199 bytes and a file.
seg=$(printf '%199s' '' | tr ' ' L)
long=$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/x
mkdir -p "A/${long%/x}" "B/${long%/x}"
nl='new
line'
for n in '<img src=x onerror=alert(1)>' '=HYPERLINK(1)' '-2+3' '@SUM(A1)' "$long" "$nl" newline; do
	printf 'exit 0\nreal 1\nuser 1.0\nsys 0\n' > "A/$n.time"
	printf 'exit 0\nreal 1\nuser 1.1\nsys 0\n' > "B/$n.time"
done
"$COMPARE" --format md A B > t.md || [ $? -eq 1 ] || fail "md: status $?"
grep -qF '| &lt;img src=x onerror=alert(1)&gt; |' t.md || fail "md: $(cat t.md)"
! grep -q '<img' t.md || fail "md: raw HTML: $(cat t.md)"
"$COMPARE" --format csv A B > t.csv || [ $? -eq 1 ] || fail "csv: status $?"
for n in '=HYPERLINK(1)' '-2+3' '@SUM(A1)'; do
	grep -qF "\"'$n\"," t.csv || fail "csv: $n not quoted as text: $(cat t.csv)"
done
grep -q '^newline,1,1,no,1,1.1,0.1,' t.csv || fail "csv: a plain row changed: $(cat t.csv)"
"$COMPARE" A B > t.txt || [ $? -eq 1 ] || fail "text: status $?"
grep -qF "$long " t.txt || fail "text: the 3000-byte name cut"
"$COMPARE" --svg t.svg A B > /dev/null || [ $? -eq 1 ] || fail "svg: status $?"
grep -qF "new$(printf '\342\220\212')line" t.svg || fail "svg: the line break not shown"
# The text table's columns by display width: a UTF-8 name (café, 5 bytes,
# 4 columns) lines up with an ASCII one.
mkdir U8A U8B
for d in U8A U8B; do
	printf 'exit 0\nreal 1\nuser 1.0\nsys 0\n' > "$d/caf$(printf '\303\251').time"
	printf 'exit 0\nreal 1\nuser 1.0\nsys 0\n' > "$d/plain.time"
done
"$COMPARE" U8A U8B > u8.txt || [ $? -eq 1 ] || fail "utf-8: status $?"
cols=$(sed -n '2,3p' u8.txt | while IFS= read -r l; do
	printf '%s' "${l%%1 *}" | iconv -f UTF-8 -t UTF-32LE | wc -c; done | sort -u | wc -l)
[ "$cols" -eq 1 ] || fail "utf-8 name misaligned: $(cat u8.txt)"
exit 0
