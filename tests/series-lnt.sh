#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-series --lnt against the stand-in LNT server (tests/lnt-server.py,
# which answers a machine's runs and their samples as LNT's REST API v4
# does): a small nightly history of the bundled suite, the ab-live knob on
# for two benchmarks from run 5, submitted with make submit, read back;
# the change is found at run 5 and nothing else; two runs of one order are
# one night; an unknown machine, a server that is not there and a page
# that is not LNT's are errors (status 2) that say so.
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
SERIES=${SERIES:-$top_builddir/series/timeit-series}
server=$top_srcdir/tests/lnt-server.py
schema=$top_srcdir/tests/lnt/nts-schema.txt
suite=$top_srcdir/test-suite
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed: no stand-in LNT server"
command -v curl > /dev/null 2>&1 || skip "curl is not installed: --lnt reads with curl"
command -v jq > /dev/null 2>&1 || skip "jq is not installed"
unset MAKEFLAGS MFLAGS MAKELEVEL

# The stand-in: 8 nights of 2 submissions each (16), then the reads.
mkdir log
python3 "$server" "$schema" port log --max 60 --idle 3600 &
server_pid=$!
trap 'kill $server_pid 2>/dev/null; rm -rf "$tmp"' EXIT
wait_for_file port
url=http://127.0.0.1:$(cat port)

# The knob for nbody and lcs only (bench/series-live.sh's wrapper), from
# night 5 on.  The runs are the suite's, but their times are not what is
# tested: the knob changes the binaries, so the change is the code's, and
# the history is made exact below.
cat > cc <<EOF
#!/bin/sh
if [ "\${SERIES_LIVE_ON:-0}" = 1 ]; then
	case " \$* " in
	*/nbody.c\\ *|*/lcs.c\\ *) exec ${CC:-cc} -DAB_LIVE "\$@" ;;
	esac
fi
exec ${CC:-cc} "\$@"
EOF
chmod +x cc
n=1
while [ "$n" -le 8 ]; do
	on=0
	[ "$n" -lt 5 ] || on=1
	SERIES_LIVE_ON=$on make -s -f "$suite/Makefile" O="$tmp/o$n" TIMEIT="$TIMEIT" CC="$tmp/cc" \
		CFLAGS=-O2 SIZE=small SAMPLES=1 REVISION="$n" \
		BENCHMARKS='nbody lcs fft' > "o$n.out" 2>&1 || fail "night $n: $(tail -n 5 "o$n.out")"
	# The times of a shared machine are not the point here: each night's
	# report gets exact times, 1 % of spread, +10 % for nbody and lcs from
	# night 5 (the hashes stay the suite's own).
	jq --argjson n "$n" '.tests |= map(.execution_time = [
		(if (.name | test("nbody|lcs")) and $n >= 5 then 1.1 else 1 end) *
		(1 + 0.01 * ((($n * 7) % 5) - 2) / 2)])' "o$n/report.json" > "o$n/r.json"
	mv "o$n/r.json" "o$n/report.json"
	make -s -f "$suite/Makefile" submit O="$tmp/o$n" LNT_URL="$url/db_default/v4/nts/submitRun" \
		LNT_MERGE=reject >> "o$n.out" 2>&1 || fail "night $n: submit: $(tail -n 3 "o$n.out")"
	# A second run of the same order (merge=append): the same night.
	make -s -f "$suite/Makefile" submit O="$tmp/o$n" LNT_URL="$url/db_default/v4/nts/submitRun" \
		LNT_MERGE=append >> "o$n.out" 2>&1 || fail "night $n: append: $(tail -n 3 "o$n.out")"
	n=$((n + 1))
done
machine=$(jq -r .machine.name o1/report.json)

"$SERIES" --lnt "$url" --machine "$machine" --since 4 --format json > out.json ||
	[ $? -eq 1 ] || fail "--lnt: status $?: $(cat out.json)"
jq -e '(.runs | length) == 8 and .runs[4].label == "5" and
	(.runs[0].path | endswith("/api/db_default/v4/nts/runs/1")) and
	([.benchmarks[] | select(.changes | length > 0) | .name] ==
	 ["SingleSource/Benchmarks/lcs", "SingleSource/Benchmarks/nbody"]) and
	([.benchmarks[].changes[]] | all(.index == 4 and .cause == "code" and
	  .change > 0.09 and .change < 0.11)) and .exit_status == 1' out.json > /dev/null ||
	fail "the history read back is not as submitted: $(cat out.json)"
# The URL of one database and suite, as make submit's LNT_URL.
"$SERIES" --lnt "$url/db_default/v4/nts/submitRun" --machine "$machine" > out.txt ||
	[ $? -eq 1 ] || fail "--lnt with a submitRun URL: status $?"
grep -q '^SingleSource/Benchmarks/lcs  *5  *4 ' out.txt || fail "--lnt .../submitRun: $(cat out.txt)"

# Errors: the server's own words, status 2.
expect_status 2 "$SERIES" --lnt "$url" --machine nobody 2> err
grep -q "machines/nobody: HTTP 404: Did not find machine 'nobody'" err || fail "404: $(cat err)"
expect_status 2 "$SERIES" --lnt "$url/db_default/v4/other" --machine "$machine" 2> err
grep -q "HTTP 404: Unknown test suite 'other'" err || fail "unknown suite: $(cat err)"
expect_status 2 "$SERIES" --lnt "http://127.0.0.1:1" --machine "$machine" --timeout 5 2> err
grep -q "curl: (7)" err || fail "no server: $(cat err)"
# Not LNT: a page that is not JSON.
mkdir www
echo '<html>hello</html>' > www/index.html
expect_status 2 env PATH="$PATH" "$SERIES" --lnt "file://$tmp/www" --machine x 2> err
grep -q "not an http:// or https:// URL" err || fail "file URL: $(cat err)"
# curl missing: said, not a crash.
mkdir nocurl
ln -s "$SERIES" nocurl/timeit-series
expect_status 2 env PATH="$tmp/nocurl" "$SERIES" --lnt "$url" --machine "$machine" 2> err
grep -q "cannot run curl" err || fail "without curl: $(cat err)"
exit 0
