#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# fuzz/run.sh [SECONDS] [TARGET...]: build the libFuzzer targets with clang
# (-fsanitize=fuzzer,address,undefined) and run each for SECONDS (default
# 60) on a copy of its seed corpus fuzz/corpus/TARGET.  Targets: events
# (-e lists), options (the command line), jsonread (the JSON reader),
# readers (timeit-compare's summary, timeit/lit/LNT JSON readers), perfcsv
# (perf stat's -x output, timeit-perf).
#
# A crash, leak or sanitizer report stops that target and leaves its input
# in OUT/TARGET/ (OUT: $FUZZ_OUT, default a directory under TMPDIR, kept);
# copy it into fuzz/corpus/TARGET/ to make it a regression input, which
# make check replays (fuzz/replay.sh).  Exit status: 0 when every target
# ran clean, 1 otherwise.
#
# Environment: CLANG (default clang), FUZZ_OUT, FUZZ_BUILD (a configured
# build directory to take config.h from; default: configure one).
set -eu
LC_ALL=C
export LC_ALL
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-events options jsonread readers perfcsv}
src=$(cd "$(dirname "$0")/.." && pwd)
cc=${CLANG:-clang}
out=${FUZZ_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/timeit-fuzz.XXXXXX")}
build=$out/build
mkdir -p "$build"

command -v "$cc" > /dev/null 2>&1 || { echo "fuzz/run.sh: $cc not found" >&2; exit 1; }

# config.h and the libraries (libpfm4 when found) from a configured tree
# (configure with the same compiler).
if [ -n "${FUZZ_BUILD:-}" ] && [ -f "$FUZZ_BUILD/config.h" ]; then
	cp "$FUZZ_BUILD/config.h" "$FUZZ_BUILD/Makefile" "$build/"
else
	[ -x "$src/configure" ] || (cd "$src" && autoreconf -if)
	(cd "$build" && "$src/configure" -q CC="$cc" > /dev/null)
fi
libs=$(sed -n -e 's/^PFM_LIBS = //p' -e 's/^MATH_LIBS = //p' -e 's/^LIBS = //p' "$build/Makefile" |
	tr '\n' ' ')

flags="-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
	-fno-sanitize-recover=undefined -I$build -I$src/lib -I$src/lib/measure -I$src/lib/ab -I$src/lib/stats -I$src/timeit"
# The library and the option parser, instrumented (not the build's libtimeit.a).
objs=
for f in "$src"/lib/*.c "$src"/lib/measure/*.c "$src"/lib/ab/*.c "$src"/lib/stats/*.c "$src/timeit/options.c"; do
	o=$build/$(basename "$f" .c).o
	# shellcheck disable=SC2086
	"$cc" $flags -c "$f" -o "$o"
	objs="$objs $o"
done
rm -f "$build/libfuzz.a"
# shellcheck disable=SC2086
ar rcs "$build/libfuzz.a" $objs

status=0
for t in $targets; do
	[ -f "$src/fuzz/$t.c" ] || { echo "fuzz/run.sh: no target '$t'" >&2; exit 1; }
	# shellcheck disable=SC2086
	"$cc" $flags -fsanitize=fuzzer "$src/fuzz/$t.c" "$build/libfuzz.a" $libs -ldl -lm \
		-o "$build/fuzz-$t"
	mkdir -p "$out/$t" "$out/corpus-$t"
	cp "$src/fuzz/corpus/$t/"* "$out/corpus-$t/" 2> /dev/null || true
	echo "== $t: ${secs}s"
	if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$build/fuzz-$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 \
		-artifact_prefix="$out/$t/" -print_final_stats=1 \
		"$out/corpus-$t" > "$out/$t.log" 2>&1; then
		grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$out/$t.log" || true
		echo "   clean; corpus $(find "$out/corpus-$t" -type f | wc -l) inputs"
	else
		status=1
		echo "   FAILED: see $out/$t.log; inputs in $out/$t/:"
		ls "$out/$t/"
		grep -m 5 -E 'ERROR|runtime error|SUMMARY' "$out/$t.log" || true
	fi
done
echo "output kept in $out"
exit "$status"
