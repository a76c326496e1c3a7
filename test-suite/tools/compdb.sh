#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# compdb.sh: the compilation database of a suite tree (make compdb, for
# make ab WHAT=compile): one entry a benchmark, its source compiled to an
# object as CMake lays it out (CMakeFiles/NAME.dir/NAME.c.o under O), so
# that timeit-ab --compile takes NAME as the program.  Only the compile
# (-c): the link is not timed.  CC, CPPFLAGS and CFLAGS are split into
# words as make's recipes split them (by the shell, without globbing).
# Written atomically.
#
# usage: compdb.sh O SRCDIR DIR/NAME...
# environment: CC CPPFLAGS CFLAGS
set -u
out=$1 srcdir=$2
shift 2

# json STRING: STRING as a JSON string.
json() {
	printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/	/\\t/g')"
}

tmp=$out/compile_commands.json.tmp
{
	printf '['
	sep=
	for p in "$@"; do
		n=${p##*/}
		src=$srcdir/$p.c
		printf '%s\n{"directory": %s, "file": %s, "output": %s,\n "arguments": [' \
			"$sep" "$(json "$out")" "$(json "$src")" "$(json "CMakeFiles/$n.dir/$n.c.o")"
		set -f
		# CC and the flags are split into words on purpose.
		# shellcheck disable=SC2086
		set -- ${CC:-cc} ${CPPFLAGS:-} ${CFLAGS:-} -c -o "CMakeFiles/$n.dir/$n.c.o" "$src"
		set +f
		a=
		for w do
			printf '%s%s' "$a" "$(json "$w")"
			a=', '
		done
		printf ']}'
		sep=,
	done
	printf '\n]\n'
} > "$tmp" && mv -f "$tmp" "$out/compile_commands.json" || { rm -f "$tmp"; exit 1; }
