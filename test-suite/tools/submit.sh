#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# submit.sh: post reports to an LNT server the way "lnt submit" does, and
# fail on anything but LNT's answer of success.
#
# usage: submit.sh URL REPORT...
#   URL     the server's submitRun, e.g. http://host:8000/db_default/v4/nts/submitRun
# environment:
#   LNT                  when set, run "$LNT submit" instead of posting with curl
#   LNT_MERGE            what the server does with a run of an order it has for
#                        the machine: replace (the default, as lnt submit), reject, append
#   LNT_SELECT_MACHINE   match (the default), update or split
#   SUBMIT_TIMEOUT       seconds each of connecting and the whole transfer
#                        may take (default 120); beyond is a failure
#   LNT_ANSWER           the program that reads the server's answer
#                        (lnt-answer, built from timeit's JSON reader)
#
# A report older than a sample status of its run (REPORT's directory's
# Output/*.status) is not posted: the run failed or was stopped after its
# samples and before its report, which is from an earlier run.
#
# The request is lnt submit's (lnt/util/ServerUtil.py): a form POST with
# input_data (the report), commit=1, select_machine and merge, and
# "Accept: application/json".  LNT answers a JSON object: on success
# "success": true and the run's "result_url"; on failure HTTP 400 and an
# "error" (lnt/server/ui/views.py, _do_submit).  The answer is parsed as
# JSON (lnt-answer): success only when its top-level object says
# "success": true; anything else, an HTML page or a body cut short
# included, is a failure.  Exit status: 0 every report was stored, 1
# otherwise (each failure named), 2 usage.
set -u
LC_ALL=C
export LC_ALL
me=submit
if [ "$#" -lt 2 ]; then
	echo "usage: $me URL REPORT..." >&2
	exit 2
fi
url=$1
shift
merge=${LNT_MERGE:-replace}
select=${LNT_SELECT_MACHINE:-match}
case $merge in reject | replace | append) ;; *)
	echo "$me: LNT_MERGE=$merge: expected reject, replace or append" >&2
	exit 2
	;;
esac
case $select in match | update | split) ;; *)
	echo "$me: LNT_SELECT_MACHINE=$select: expected match, update or split" >&2
	exit 2
	;;
esac
case $url in
http://* | https://*) ;;
*)
	echo "$me: LNT_URL=$url: expected http://HOST:PORT/db_NAME/v4/SUITE/submitRun" >&2
	exit 2
	;;
esac
timeout=${SUBMIT_TIMEOUT:-120}
case $timeout in
'' | *[!0-9]* | 0 | 0*)
	echo "$me: SUBMIT_TIMEOUT=$timeout: expected a positive number of seconds" >&2
	exit 2
	;;
esac
for f do
	[ -r "$f" ] || { echo "$me: $f: cannot read the report" >&2; exit 2; }
done
# A report is not older than its run's samples.
stale=0
for f do
	d=$(dirname "$f")
	[ -d "$d/Output" ] || continue
	newer=$(find "$d/Output" -name '*.status' -newer "$f" 2> /dev/null | sed 1q)
	if [ -n "$newer" ]; then
		echo "$me: $f: older than its run's results ($newer): the run ended before its report; run make (or make ab) again" >&2
		stale=1
	fi
done
[ "$stale" -eq 0 ] || exit 1

# LNT's nts suite refuses a test with a metric its schema lacks ("Metric
# 'KEY' unknown in suite"), and it has none for the counts of
# COUNT_INSTRUCTIONS: to nts the reports go without their valgrind_*
# metrics (report.sh writes one member a line; a member that was last
# leaves a comma to take off).  Another suite gets them as they are.
strip_dir=
case $url in
*/v4/nts/submitRun | */v4/nts/submitRun/ | */v4/nts/submitRun\?*)
	strip_dir=$(mktemp -d "${TMPDIR:-/tmp}/submit-nts.XXXXXX") || exit 1
	k=0
	for f do
		shift
		if grep -q '^      "valgrind_[a-z0-9_]*": ' "$f"; then
			k=$((k + 1))
			awk '/^      "valgrind_[a-z0-9_]*": / { next }
				{ line[++n] = $0 }
				END {
					for (i = 1; i <= n; i++) {
						if (i < n && line[i + 1] ~ /^    }/)
							sub(/,$/, "", line[i])
						print line[i]
					}
				}' "$f" > "$strip_dir/$k.json" || exit 1
			printf '%s\n' "$f" > "$strip_dir/$k.name"
			echo "$me: $f: LNT's nts suite stores no valgrind metrics: posted without them"
			f=$strip_dir/$k.json
		fi
		set -- "$@" "$f"
	done
	;;
esac
[ -z "$strip_dir" ] || trap 'rm -rf "$strip_dir"' EXIT

if [ -n "${LNT:-}" ]; then
	# lnt submit exits 1 when a report was refused; it prints the reason.
	"$LNT" submit --merge "$merge" --select-machine "$select" "$url" "$@" || {
		echo "$me: $LNT submit failed for $url" >&2
		exit 1
	}
	exit 0
fi
command -v curl > /dev/null 2>&1 || {
	echo "$me: curl is not installed (Debian: apt-get install curl); or give LNT=/path/to/lnt" >&2
	exit 1
}
answer=${LNT_ANSWER:-}
if [ -z "$answer" ] || [ ! -x "$answer" ]; then
	echo "$me: LNT_ANSWER=$answer: not the program that reads LNT's answer (make submit builds it)" >&2
	exit 2
fi

body=$(mktemp "${TMPDIR:-/tmp}/submit.XXXXXX") || exit 1
trap 'rm -f "$body"; [ -z "$strip_dir" ] || rm -rf "$strip_dir"' EXIT
st=0
for f do
	# A stripped copy is named by its report.
	name=$f
	if [ -n "$strip_dir" ] && [ -f "${f%.json}.name" ]; then
		name=$(cat "${f%.json}.name")
	fi
	code=$(curl -sS -o "$body" -w '%{http_code}' -H 'Accept: application/json' \
		--connect-timeout "$timeout" --max-time "$timeout" \
		--data-urlencode "input_data@$f" --data commit=1 \
		--data-urlencode "select_machine=$select" --data-urlencode "merge=$merge" \
		"$url")
	c=$?
	if [ "$c" -eq 28 ]; then
		echo "$me: $name: no answer from $url within SUBMIT_TIMEOUT=$timeout s" >&2
		st=1
		continue
	fi
	if [ "$c" -ne 0 ]; then
		echo "$me: $name: no answer from $url (curl status $c)" >&2
		st=1
		continue
	fi
	# The answer, read as JSON: the result URL, or why it is no success.
	said=$("$answer" "$body")
	a=$?
	[ "$a" -ne 2 ] || { st=1; continue; }
	case $code in
	2??) ;;
	*) [ "$a" -ne 0 ] || { said="a success with it"; a=3; } ;;
	esac
	if [ "$a" -eq 0 ]; then
		echo "$me: $name: stored${said:+ as $said}"
		continue
	fi
	st=1
	if [ "$a" -eq 1 ]; then
		echo "$me: $name: refused by $url (HTTP $code): $said" >&2
	else
		echo "$me: $name: $url answered HTTP $code without LNT's success ($said):" >&2
		head -c 300 "$body" | sed 's/^/  /' >&2
		echo >&2
	fi
done
exit $st
