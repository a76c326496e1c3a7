#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# report.sh: collect the statuses and summaries of a suite run into
# O/report.json (LNT report format version 2), O/report.csv (one row per
# sample) and a table on stdout.  Exit status 1 when any benchmark failed
# (build, crash, timeout, wrong output), 0 otherwise.
#
# usage: report.sh [-q] O RESULTS SAMPLES DIR/NAME...
#   SAMPLES  the samples of each benchmark, or auto: as many as ran
#            (make ab SAMPLES=auto), the statuses 1, 2, ... that exist
#   -q  write the reports but print only the failures and the totals
# environment (recorded as run and machine info): CC CFLAGS CPPFLAGS
#   LDFLAGS CC_VERSION TIMEIT SUITE_TIMEIT_FLAGS START_TIME REVISION SIZE SHARD;
#   STRIP and SIZE_TOOL, the tools for the hash and code_size metrics
set -eu
LC_ALL=C
export LC_ALL
quiet=0
if [ "${1:-}" = -q ]; then
	quiet=1
	shift
fi
out=$1 results=$2 samples=$3
shift 3

# value KEY FILE: the number on the summary line "KEY <spaces> N".
value() {
	[ -f "$2" ] && awk -v k="$1" '$1 == k { print $2; exit }' "$2"
}

# lit_hash BINARY: the hash lit's hash module (litsupport/modules/hash.py)
# gives BINARY, which LNT stores as "hash": the MD5 of a copy stripped with
# exactly its arguments.  Its second pattern reaches strip with the quotes
# in it and so matches no section: the notes (the build ID) stay, as there.
# Nothing when strip fails, as lit records "" then.
lit_hash() {
	rm -f "$1.stripped"
	if "${STRIP:-strip}" --remove-section=.comment "--remove-section='.note*'" \
		-o "$1.stripped" "$1" 2> /dev/null; then
		md5sum < "$1.stripped" | cut -d' ' -f1
	fi
	rm -f "$1.stripped"
}

# code_size BINARY: the size of its .text section in bytes, LNT's
# code_size (lit's size..text, from llvm-size); nothing where the size
# tool cannot tell.
code_size() {
	"${SIZE_TOOL:-size}" -A "$1" 2> /dev/null | awk '$1 == ".text" { print $2; exit }'
}

# valgrind_counts FILE: the --count-instructions lines of summary FILE,
# "INSTRUCTIONS/I1/D1/LL/MISPREDICTS/EST" (each empty when the line is missing:
# valgrind counts no misses, a failed count has no line).
valgrind_counts() {
	[ -f "$1" ] || return 0
	awk '{ v[$1] = $2 }
	END {
		printf "%s/%s/%s/%s/%s/%s", v["valgrind-instructions"], v["valgrind-i1-misses"],
			v["valgrind-d1-misses"], v["valgrind-ll-misses"], v["valgrind-mispredicts"],
			v["valgrind-est-cycles"]
	}' "$1"
}

# valgrind_config FILE: what FILE's cache counts depend on, as cachegrind's
# options and timeit's weights ("--I1=S,A,L --D1=S,A,L --LL=S,A,L|10,200,20"),
# or nothing without a cache-simulated count.
valgrind_config() {
	[ -f "$1" ] || return 0
	awk '{ v[$1] = $2 }
	END {
		if (v["valgrind-est-cycles"] == "")
			exit
		for (i = 1; i <= 3; i++) {
			l = substr("i1d1ll", 2 * i - 1, 2)
			printf "%s--%s=%s,%s,%s", (i > 1 ? " " : ""), toupper(l), v["valgrind-" l "-size"],
				v["valgrind-" l "-assoc"], v["valgrind-" l "-line"]
		}
		printf "|%s,%s,%s", v["valgrind-weight-l1"], v["valgrind-weight-ll"],
			v["valgrind-weight-mispredict"]
	}' "$1"
}

rows=$out/report.rows
: > "$rows"
for path in "$@"; do
	name=${path##*/}
	build=$(sed 1q "$out/Output/$name.build" 2>/dev/null || echo "fail build")
	ctime=$(value user "$out/Output/$name.compile.time" || true)
	hash= size=
	if [ -f "$out/bin/$name" ]; then
		hash=$(lit_hash "$out/bin/$name")
		size=$(code_size "$out/bin/$name")
	fi
	n=$samples
	if [ "$samples" = auto ]; then
		n=0
		while [ -f "$out/Output/$name.$((n + 1)).status" ]; do n=$((n + 1)); done
	fi
	# Samples beyond SAMPLES are left from an earlier run, maybe of another
	# binary: remove them so no comparison of RESULTS picks them up.
	for f in "$results/$name".*.time "$results/$name".*.time.wrong-output \
		"$out/Output/$name".*.status; do
		i=${f#"$results/$name".}
		i=${i#"$out/Output/$name".}
		i=${i%%.*}
		case $i in
		'' | *[!0-9]*) ;;
		*) [ "$i" -le "$n" ] || rm -f "$f" ;;
		esac
	done
	i=1
	while [ "$i" -le "$n" ]; do
		status=$(sed 1q "$out/Output/$name.$i.status" 2>/dev/null || echo "fail not run")
		t=$results/$name.$i.time
		[ -f "$t" ] || t=$t.wrong-output
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$path" "$i" \
			"$status" "$(value exit "$t" || true)" "$(value user "$t" || true)" \
			"$(value real "$t" || true)" "$(value sys "$t" || true)" \
			"$build" "$ctime" "$hash" "$(value maxrss "$t" || true)" "$size" \
			"$(valgrind_counts "$t")" "$(valgrind_config "$t")" >> "$rows"
		i=$((i + 1))
	done
done

end_time=$(date -u '+%Y-%m-%d %H:%M:%S')
cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | sed 1q)
timeit_version=$("${TIMEIT:-timeit}" --version 2>/dev/null | sed 1q || true)

st=0
# The run info reaches awk through ENVIRON, not -v: awk -v would turn the
# backslashes of a flag (-DQ=\"v\", \$ORIGIN) into escape sequences.
R_HOST=$(uname -n) R_OS=$(uname -sr) R_HW=$(uname -m) R_CPU=$cpu \
R_NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1) \
R_START=${START_TIME:-$end_time} R_END=$end_time R_REV=${REVISION:-0} \
R_CC=${CC:-cc} R_CCV=${CC_VERSION:-unknown} R_CFLAGS=${CFLAGS:-} \
R_CPPFLAGS=${CPPFLAGS:-} R_LDFLAGS=${LDFLAGS:-} R_TIMEIT=${TIMEIT:-timeit} \
R_TVERSION=$timeit_version R_TFLAGS=${SUITE_TIMEIT_FLAGS:-} R_SAMPLES=$samples \
R_SIZE=${SIZE:-default} R_SHARD=${SHARD:-} R_JSON=$out/report.json.tmp \
R_CSV=$out/report.csv.tmp R_QUIET=$quiet \
	awk -F '\t' '
# JSON string escaping (RFC 8259 section 7): quote and backslash escaped,
# tab and CR as \t and \r, other controls as spaces.  Character by
# character: the meaning of "\\" in a gsub replacement differs between awks.
function q(s,    r, i, ch) {
	r = ""
	for (i = 1; i <= length(s); i++) {
		ch = substr(s, i, 1)
		if (ch == "\\" || ch == "\"")
			r = r "\\" ch
		else if (ch == "\t")
			r = r "\\t"
		else if (ch == "\r")
			r = r "\\r"
		else if (ch < " ")
			r = r " "
		else
			r = r ch
	}
	return "\"" r "\""
}
# CSV field (RFC 4180): quoted when it holds a comma or a quote.
function c(s) {
	if (s ~ /[",]/) {
		gsub(/"/, "\"\"", s)
		return "\"" s "\""
	}
	return s
}
# One "key": "value" member of the machine or run object.
function kv(k, v, last) {
	printf "    %s: %s%s\n", q(k), q(v), last ? "" : "," > json
}
{
	if (!($1 in seen)) {
		seen[$1] = 1
		order[++n] = $1
		build[$1] = $8
		ctime[$1] = $9
		hash[$1] = $10
		csize[$1] = $12
	}
	total[$1]++
	# $13: the valgrind counts (vgm[] order), $14: the caches and weights.
	nv = split($13, vg, "/")
	cfg[1] = cfg[2] = ""
	if ($14 != "") {
		split($14, cfg, "|")
		if (vgcaches == "")
			vgcaches = cfg[1]
		else if (vgcaches != cfg[1])
			vgcaches = "mixed"
		if (vgweights == "")
			vgweights = cfg[2]
		else if (vgweights != cfg[2])
			vgweights = "mixed"
	}
	if ($3 == "pass") {
		passed[$1]++
		times[$1] = times[$1] (times[$1] == "" ? "" : ", ") $5
		if ($11 != "")
			mem[$1] = mem[$1] (mem[$1] == "" ? "" : ", ") $11
		for (m = 1; m <= nv; m++)
			if (vg[m] != "")
				vgv[$1, m] = vgv[$1, m] (vgv[$1, m] == "" ? "" : ", ") vg[m]
	} else if (!($1 in why)) {
		why[$1] = $3
	}
	line = c($1) "," $2 "," c($3) "," $4 "," $5 "," $6 "," $7 "," $9 "," $10 "," $11 "," $12
	for (m = 1; m <= nvgm; m++)
		line = line "," (m <= nv ? vg[m] : "")
	print line "," c(cfg[1]) "," c(cfg[2]) > csv
}
BEGIN {
	quiet = ENVIRON["R_QUIET"] + 0; json = ENVIRON["R_JSON"]; csv = ENVIRON["R_CSV"]
	host = ENVIRON["R_HOST"]; os = ENVIRON["R_OS"]; hw = ENVIRON["R_HW"]
	cpu = ENVIRON["R_CPU"]; ncpu = ENVIRON["R_NCPU"]; start = ENVIRON["R_START"]
	end = ENVIRON["R_END"]; rev = ENVIRON["R_REV"]; cc = ENVIRON["R_CC"]
	ccv = ENVIRON["R_CCV"]; cflags = ENVIRON["R_CFLAGS"]; cppflags = ENVIRON["R_CPPFLAGS"]
	ldflags = ENVIRON["R_LDFLAGS"]; timeit = ENVIRON["R_TIMEIT"]
	tversion = ENVIRON["R_TVERSION"]; tflags = ENVIRON["R_TFLAGS"]
	samples = ENVIRON["R_SAMPLES"]; size = ENVIRON["R_SIZE"]; shard = ENVIRON["R_SHARD"]
	# --count-instructions: summary key and metric name of each count.
	nvgm = split("instructions i1_misses d1_misses ll_misses mispredicts est_cycles", vgm, " ")
	print "name,sample,status,exit,user,real,sys,compile_time,hash,maxrss,code_size," \
		"valgrind_instructions,valgrind_i1_misses,valgrind_d1_misses,valgrind_ll_misses," \
		"valgrind_mispredicts,valgrind_est_cycles,valgrind_caches,valgrind_cost_weights" > csv
}
END {
	printf "{\n  \"format_version\": \"2\",\n  \"machine\": {\n" > json
	kv("name", host, 0); kv("os", os, 0); kv("hardware", hw, 0); kv("cpu", cpu, 0)
	kv("ncpu", ncpu, 1)
	printf "  },\n  \"run\": {\n" > json
	kv("start_time", start, 0); kv("end_time", end, 0); kv("llvm_project_revision", rev, 0)
	kv("cc", cc, 0); kv("cc_version", ccv, 0); kv("cflags", cflags, 0)
	kv("cppflags", cppflags, 0); kv("ldflags", ldflags, 0); kv("timeit", timeit, 0)
	kv("timeit_version", tversion, 0); kv("timeit_flags", tflags, 0)
	kv("samples", samples, 0); kv("size", size, 0); kv("shard", shard, vgcaches == "")
	# What the valgrind_*misses and valgrind_est_cycles of every test depend
	# on: two runs compare only when both are the same.
	if (vgcaches != "") {
		kv("valgrind_caches", vgcaches, 0); kv("valgrind_cost_weights", vgweights, 1)
	}
	printf "  },\n" > json
	printf "  \"tests\": [" > json
	for (k = 1; k <= n; k++) {
		b = order[k]
		# The names LNT itself gives (lnt runtest test-suite, importreport,
		# the v1 upgrade): the path without a suite prefix; the suite is
		# named by the submitRun URL.
		printf "%s\n    {\n      \"name\": %s", (k > 1 ? "," : ""), q(b) > json
		if (ctime[b] != "")
			printf ",\n      \"compile_time\": [%s]", ctime[b] > json
		if (build[b] != "pass")
			printf ",\n      \"compile_status\": 1" > json
		if (times[b] != "")
			printf ",\n      \"execution_time\": [%s]", times[b] > json
		# LNT status convention (lnt.testing): PASS 0, FAIL 1; only
		# failures are reported, as LNT itself does.
		if (passed[b] + 0 < total[b])
			printf ",\n      \"execution_status\": 1" > json
		if (mem[b] != "")
			printf ",\n      \"mem_bytes\": [%s]", mem[b] > json
		if (csize[b] != "")
			printf ",\n      \"code_size\": %s", csize[b] > json
		# --count-instructions: one value per passing sample, as
		# execution_time (exact counts: the same on every sample).
		for (m = 1; m <= nvgm; m++)
			if (vgv[b, m] != "")
				printf ",\n      \"valgrind_%s\": [%s]", vgm[m], vgv[b, m] > json
		if (hash[b] != "")
			printf ",\n      \"hash\": %s", q(hash[b]) > json
		printf "\n    }" > json
	}
	printf "\n  ]\n}\n" > json

	bad = 0
	if (!quiet)
		printf "%-36s %-6s %7s %10s %10s  %s\n", "benchmark", "status", "samples", "min user", "median", "note"
	for (k = 1; k <= n; k++) {
		b = order[k]
		m = passed[b] + 0
		ok = m == total[b]
		bad += !ok
		if (quiet && ok)
			continue
		# Sort the passing samples for the minimum and the median.
		split(times[b], v, ", ")
		for (i = 2; i <= m; i++)
			for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			}
		med = m == 0 ? "-" : (m % 2 ? v[(m + 1) / 2] : sprintf("%.4f", (v[m / 2] + v[m / 2 + 1]) / 2))
		printf "%-36s %-6s %3d/%-3d %10s %10s  %s\n", b, ok ? "pass" : "FAIL", m, total[b],
			m ? v[1] : "-", med, ok ? "" : why[b]
	}
	printf "%d benchmarks, %d passed, %d failed\n", n, n - bad, bad
	exit (bad > 0)
}' "$rows" || st=$?
mv -f "$out/report.json.tmp" "$out/report.json"
mv -f "$out/report.csv.tmp" "$out/report.csv"
rm -f "$rows"
exit $st
