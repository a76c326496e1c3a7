#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# timeit-series --lnt against answers a real server may give, through a
# stand-in curl on PATH that logs its arguments and prints canned JSON:
# two runs of one order whose first rows carry only compile_time (the
# night keeps exec_time: the union of the rows' fields), a run_id sent as
# a string, a metric no run has (status 2, naming it), an answer larger
# than --lnt-max (status 2, naming the cap), a machine's name escaped
# whole in the URL and one too long refused, curl told -q (not the user's
# ~/.curlrc) and -L (redirects followed).
# shellcheck source=tests/setup disable=SC2154
. "$top_srcdir/tests/setup"
SERIES=${SERIES:-$top_builddir/series/timeit-series}

mkdir bin
cat > bin/curl <<'EOF2'
#!/bin/sh
for a; do url=$a; done
case " $* " in *" -L "*) l=-L ;; *) l=no-L ;; esac
printf '%s %s %s\n' "$1" "$l" "$url" >> "$CURL_LOG"
case $url in
*/machines/big)
	printf '{"runs": ['
	i=0
	while [ $i -lt 40000 ]; do printf '{"id": %d, "order_by": "x"},' $i; i=$((i + 1)); done
	printf '{"id": 0}]}' ;;
*/machines/*)
	printf '%s' '{"machine": {"name": "m"}, "runs": [
	  {"id": 1, "llvm_project_revision": "10", "order_by": "llvm_project_revision", "start_time": "2026-01-01T00:00:00"},
	  {"id": 2, "llvm_project_revision": "10", "order_by": "llvm_project_revision", "start_time": "2026-01-01T01:00:00"},
	  {"id": 3, "llvm_project_revision": "11", "order_by": "llvm_project_revision", "start_time": "2026-01-02T00:00:00"}]}' ;;
*/samples*)
	printf '%s' '{"samples": [
	  {"run_id": 1, "name": "nts.t1", "compile_time": 0.5},
	  {"run_id": 2, "name": "nts.t1", "execution_time": 2.0},
	  {"run_id": "3", "name": "nts.t1", "execution_time": 2.1}]}' ;;
esac
printf '\n200'
EOF2
chmod +x bin/curl
PATH=$tmp/bin:$PATH CURL_LOG=$tmp/curl.log
export PATH CURL_LOG

"$SERIES" --lnt http://lnt.example --machine m --format json > out.json 2> err ||
	[ $? -eq 1 ] || fail "--lnt: status $?: $(cat err)"
# Night 10: run 1's row has compile_time only, run 2's exec_time; night
# 11 names its run as a string.
grep -q '"runs": *\[' out.json || fail "no runs: $(cat out.json)"
tr -d ' \n' < out.json > flat.json
grep -q '"name":"t1","runs":2,"failed_runs":0' flat.json ||
	fail "t1 not in both nights: $(cat out.json)"
[ "$(grep -o '"label":"1[01]"' flat.json | sort -u | tr -d '\n')" = '"label":"10""label":"11"' ] ||
	fail "not one night an order: $(cat out.json)"

# Every request: -q first, redirects followed.
[ "$(cut -d' ' -f1 curl.log | sort -u)" = -q ] || fail "curl without -q first: $(cat curl.log)"
! grep -q -e " no-L " curl.log || fail "redirects not followed: $(cat curl.log)"

# A metric no run has: status 2, its name said.
expect_status 2 "$SERIES" --lnt http://lnt.example --machine m -m bogus > out 2> err
grep -q 'bogus' err || fail "-m bogus: $(cat err)"
[ ! -s out ] || fail "-m bogus printed a report: $(cat out)"

# An answer past --lnt-max: status 2, the cap named.
expect_status 2 "$SERIES" --lnt http://lnt.example --machine big --lnt-max 1 > out 2> err
grep -q 'larger than 1 MiB (--lnt-max)' err || fail "--lnt-max: $(cat err)"

# A machine's name escaped whole (255 bytes that each take 3), and one
# too long for a run's machine refused before any request.
name=$(printf '%255s' '' | tr ' ' '+')
: > curl.log
"$SERIES" --lnt http://lnt.example --machine "$name" > out 2> err || [ $? -eq 1 ] ||
	fail "a 255-byte name: status $?: $(cat err)"
esc=$(printf '%255s' '' | sed 's/ /%2B/g')
grep -qF "/machines/$esc" curl.log ||
	fail "the name cut in the URL: $(head -c 300 curl.log)"
: > curl.log
expect_status 2 "$SERIES" --lnt http://lnt.example --machine "x$name" > out 2> err
grep -q -e '--machine: the name is 256 bytes' err || fail "a 256-byte name: $(cat err)"
[ ! -s curl.log ] || fail "a refused name was asked for"
exit 0
