#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/series-live.sh LNT_URL [NIGHTS [SAMPLES [PASSES [FROM]]]]: a
# history of the bundled suite on this machine, against a known truth, read
# back from an LNT server (docs/LNT.md, "A history read back").
#
# NIGHTS (default 20) "nights", each PASSES (default 5) runs of
# make -C test-suite SIZE=small SAMPLES=SAMPLES (default 4) with
# REVISION=N, submitted to LNT_URL (http://HOST:PORT/db_default/v4/nts/
# submitRun) with make submit, the first pass with LNT_MERGE=reject, the
# others appended to its order: samples run back to back share the
# machine's load, so a night's samples are spread over it in passes (LNT
# shows the runs of one order as one point; so does timeit-series).
# From night FROM (default 12) on, nbody and lcs are compiled with the
# ab-live knob -DAB_LIVE (3 % more work of the same kind, after their
# output; test-suite/SingleSource/Benchmarks/*.c): a compiler wrapper adds
# it to those two sources only, so their binaries change there and the
# other ten benchmarks' do not.  Then timeit-series --lnt reads the
# machine's history back; its output is printed and its exit status
# returned.
#
# Environment: TIMEIT, TIMEIT_SERIES (make bench-series-live sets both), CC,
# MACHINE (default: the host name the suite's reports carry), KEEP=DIR,
# SERIES_FLAGS (more timeit-series options, e.g. --machine-factor).
set -eu
LC_ALL=C
export LC_ALL
: "${TIMEIT:?TIMEIT must name the timeit binary}"
: "${TIMEIT_SERIES:?TIMEIT_SERIES must name the timeit-series binary}"
url=${1:?usage: series-live.sh LNT_URL [NIGHTS [SAMPLES [PASSES [FROM]]]]}
nights=${2:-20}
samples=${3:-4}
passes=${4:-5}
from=${5:-12}
suite=$(cd "$(dirname "$0")/../test-suite" && pwd)
work=${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/timeit-series-live.XXXXXX")}
mkdir -p "$work"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT INT TERM
unset MAKEFLAGS MFLAGS MAKELEVEL

# The knob for two sources only, from night FROM on.
cat > "$work/cc" <<EOF
#!/bin/sh
if [ "\${SERIES_LIVE_ON:-0}" = 1 ]; then
	case " \$* " in
	*/nbody.c\ *|*/lcs.c\ *) exec ${CC:-cc} -DAB_LIVE "\$@" ;;
	esac
fi
exec ${CC:-cc} "\$@"
EOF
chmod +x "$work/cc"

echo "series-live: $nights nights of $passes passes of $samples samples, the knob from" \
	"night $from; load $(uptime | sed 's/.*load average: //')" >&2
n=1
while [ "$n" -le "$nights" ]; do
	on=0
	[ "$n" -lt "$from" ] || on=1
	p=1
	while [ "$p" -le "$passes" ]; do
		o=$work/night-$n-$p
		merge=append
		[ "$p" -gt 1 ] || merge=reject
		SERIES_LIVE_ON=$on make -s -f "$suite/Makefile" O="$o" TIMEIT="$TIMEIT" \
			CC="$work/cc" CFLAGS=-O2 SIZE=small SAMPLES="$samples" REVISION="$n" \
			> "$o.out" 2>&1 ||
			{ tail -n 20 "$o.out" >&2; echo "series-live: night $n failed ($o.out)" >&2; exit 2; }
		make -s -f "$suite/Makefile" submit O="$o" LNT_URL="$url" LNT_MERGE="$merge" \
			>> "$o.out" 2>&1 ||
			{ tail -n 5 "$o.out" >&2; echo "series-live: night $n: submit failed" >&2; exit 2; }
		p=$((p + 1))
	done
	echo "  night $n: knob $on, load $(uptime | sed 's/.*load average: //')" >&2
	n=$((n + 1))
done
machine=${MACHINE:-$(sed -n 's/^    "name": "\(.*\)",$/\1/p' "$work/night-1-1/report.json" | sed 1q)}
root=$(printf '%s\n' "$url" | sed 's|/db_.*||')
status=0
# shellcheck disable=SC2086 # SERIES_FLAGS: more options, split on purpose
"$TIMEIT_SERIES" --lnt "$root" --machine "$machine" --since 9 --svg "$work/series.svg" \
	${SERIES_FLAGS:-} || status=$?
echo "series-live: timeit-series exit status $status; load $(uptime | sed 's/.*load average: //')" >&2
exit "$status"
