#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Result and redirect files under adversarial use, in timeit and
# timeit-perf alike:
# - every result file (summary, JSON, --append-exitstatus) survives what
#   the command does to its directory (removed and made again, moved, its
#   temporary file deleted: make clean), and no temporary file is left in
#   a directory the command moved;
# - in a sticky directory another user's writable summary is rewritten in
#   place, and an unwritable one is refused before the command runs;
# - two outputs that are one file are a usage error also when the file
#   does not exist yet, is a dangling symlink, or is reached through one;
# - a failing redirect leaves no file behind.
. "$top_srcdir/tests/setup"

PERFWRAP=$top_builddir/perfwrap/timeit-perf
tools=$TIMEIT
if perf_counts; then
	TIMEIT_PERF=$perf_bin
	export TIMEIT_PERF
	tools="$tools $PERFWRAP"
else
	echo "note: perf cannot count here: timeit-perf is not checked" >&2
fi

leftovers() {
	find . -name '.timeit.tmp.*'
}

for tool in $tools; do
	name=${tool##*/}
	rm -rf bd bd.old
	mkdir bd

	# The command removes the directory and makes it again (make clean).
	expect_status 0 "$tool" --summary bd/c.time sh -c 'rm -rf bd; mkdir bd'
	[ "$(sed -n 1p bd/c.time 2>/dev/null)" = "exit 0" ] ||
		fail "$name: no summary after the command recreated its directory"
	expect_status 0 "$tool" --summary s --redirect-stdout bd/out --append-exitstatus \
		sh -c 'echo hi; rm -rf bd; mkdir bd'
	[ "$(cat bd/out)" = "exit 0" ] ||
		fail "$name: --append-exitstatus after the directory was recreated: $(cat bd/out)"

	# It moves the directory away and makes a new one: the summary goes
	# into the new one, and nothing of timeit's stays in the old.
	expect_status 0 "$tool" --summary bd/c.time sh -c 'mv bd bd.old; mkdir bd'
	[ "$(sed -n 1p bd/c.time 2>/dev/null)" = "exit 0" ] ||
		fail "$name: no summary after the command moved its directory"
	[ -z "$(leftovers)" ] || fail "$name: temporary files left: $(leftovers)"

	# It deletes every dot file beside the summary.
	expect_status 3 "$tool" --summary bd/c.time sh -c 'rm -f bd/.timeit.tmp.*; exit 3'
	[ "$(sed -n 1p bd/c.time)" = "exit 3" ] ||
		fail "$name: no summary after the command removed the temporary file"

	# Removed and not made again: an error, after the command ran.
	expect_status 66 "$tool" --summary bd/c.time sh -c 'rm -rf bd' 2>err
	grep -q -- "--summary: bd/c.time" err || fail "$name: no error for a vanished directory"
	[ -z "$(leftovers)" ] || fail "$name: temporary files left: $(leftovers)"

	# Nothing of the tool's is beside its results while the command runs:
	# killed with SIGKILL (an outer timeout -s KILL, the OOM killer), it
	# leaves no temporary file.
	rm -rf bd
	mkdir bd
	json=
	[ "$name" = timeit ] && json="--json bd/j"
	# shellcheck disable=SC2086 # json is a word list
	"$tool" --summary bd/s $json "$AUX" pidfile bd/pid sleep 30000 &
	tpid=$!
	wait_for_file bd/pid
	[ -z "$(leftovers)" ] || fail "$name: temporary files while the command runs: $(leftovers)"
	kill -KILL "$tpid"
	wait "$tpid" 2>/dev/null || true
	kill -KILL "$(cat bd/pid)" 2>/dev/null || true
	[ -z "$(leftovers)" ] || fail "$name: temporary files after SIGKILL: $(leftovers)"
done

# timeit's --json is the same kind of file.
rm -rf bd
mkdir bd
expect_status 0 "$TIMEIT" --summary /dev/null --json bd/j sh -c 'rm -rf bd; mkdir bd'
grep -q '"runs"' bd/j || fail "--json: no file after the command recreated its directory"
expect_status 0 "$TIMEIT" --summary bd/s --json bd/j sh -c 'mv bd bd.2; mkdir bd'
if ! [ -s bd/s ] || ! [ -s bd/j ]; then
	fail "--summary and --json after the directory moved"
fi
[ -z "$(leftovers)" ] || fail "temporary files left: $(leftovers)"

# Two outputs that are one file, though it does not exist yet.
mkdir sub
ln -s t dangling
ln -s dangling chain
ln -s sub/t into
ln -s ../x sub/up
ln -s sub subdir
for tool in $tools; do
	name=${tool##*/}
	while read -r a b; do
		for opt in --redirect-stdout --redirect-stderr --redirect-input; do
			expect_status 1 "$tool" --summary "$a" "$opt" "$b" "$AUX" print ran >out 2>err
			[ ! -s out ] || fail "$name --summary $a $opt $b: the command ran"
			grep -q "are the same file" err ||
				fail "$name --summary $a $opt $b: $(cat err)"
		done
		if [ "$name" = timeit ]; then
			expect_status 1 "$tool" --summary "$a" --json "$b" true 2>err
			grep -q "are the same file" err || fail "timeit --summary $a --json $b"
		fi
	done <<EOF
dangling t
t dangling
chain t
into sub/t
sub/up x
subdir/y sub/y
EOF
	for f in t x sub/t sub/y; do
		[ ! -e "$f" ] || fail "$name: a refused run created $f"
	done
done

# A failing redirect leaves no file behind: neither a new file nor the
# target of a dangling symlink.
for tool in $tools; do
	name=${tool##*/}
	ln -s made-by-link link
	for out in newout link; do
		expect_status 66 "$tool" --redirect-stdout "$out" --redirect-stderr /nonexistent/e \
			"$AUX" print ran >o 2>err
		if [ -e newout ] || [ -e made-by-link ]; then
			fail "$name --redirect-stdout $out: a failing --redirect-stderr left $(ls)"
		fi
	done
	echo keep >old
	expect_status 66 "$tool" --redirect-stdout old --redirect-stderr /nonexistent/e true 2>err
	[ "$(cat old)" = keep ] || fail "$name: an existing stdout file was changed"
	rm -f link old
done

# Sticky shared directories (/tmp): another user's world-writable summary
# is rewritten in place by the user running timeit, a read-only one is
# refused before the command runs.
if unprivileged; then
	mkdir "$tmp/u/shared"
	chmod 1777 "$tmp/u/shared"
	for tool in $tools; do
		name=${tool##*/}
		cp "$tool" "$tmp/u/$name"
		for f in s j; do
			echo old >"$tmp/u/shared/$f"
			chown 12345 "$tmp/u/shared/$f"
			chmod 666 "$tmp/u/shared/$f"
		done
		json=
		[ "$name" = timeit ] && json="--json $tmp/u/shared/j"
		# shellcheck disable=SC2086 # AS_USER and json are word lists
		expect_status 0 $AS_USER "$tmp/u/$name" --summary "$tmp/u/shared/s" $json \
			"$U_AUX" print ran >out 2>err
		[ "$(sed -n 1p "$tmp/u/shared/s")" = "exit 0" ] ||
			fail "$name: sticky directory: summary not rewritten: $(cat err)"
		[ -z "$json" ] || grep -q '"runs"' "$tmp/u/shared/j" ||
			fail "$name: sticky directory: JSON not rewritten"
		chmod 644 "$tmp/u/shared/s"
		# shellcheck disable=SC2086 # AS_USER is a word list
		expect_status 1 $AS_USER "$tmp/u/$name" --summary "$tmp/u/shared/s" \
			"$U_AUX" print ran >out 2>err
		[ ! -s out ] || fail "$name: sticky directory: ran with a summary it cannot write"
		grep -q -- "--summary: $tmp/u/shared/s: Permission denied" err ||
			fail "$name: sticky directory: $(cat err)"
		[ -z "$(find "$tmp/u/shared" -name '.timeit.tmp.*')" ] ||
			fail "$name: sticky directory: temporary files left"
	done
	# A directory the user may search but not write: a new file there is
	# refused as open(2) refuses it, nothing runs (timeit-perf once said
	# "Is a directory" and "No such file or directory").
	mkdir "$tmp/u/ro"
	chmod 555 "$tmp/u/ro"
	for tool in $tools; do
		name=${tool##*/}
		opts="--summary --redirect-stdout --redirect-stderr --redirect-output"
		[ "$name" = timeit ] && opts="$opts --json"
		for opt in $opts; do
			# shellcheck disable=SC2086 # AS_USER is a word list
			set +e
			$AS_USER "$tmp/u/$name" "$opt" "$tmp/u/ro/f" "$U_AUX" print ran >out 2>err
			st=$?
			set -e
			[ "$st" = 1 ] || [ "$st" = 66 ] || fail "$name $opt in an unwritable directory: status $st"
			[ "$(cat err)" = "$name: $opt: $tmp/u/ro/f: Permission denied" ] ||
				fail "$name $opt in an unwritable directory: $(cat err)"
			[ ! -s out ] && [ ! -e "$tmp/u/ro/f" ] || fail "$name $opt: ran, or made the file"
		done
	done
	# The command makes its directory unwritable: an existing summary is
	# rewritten in place, a new one cannot be made (66); nothing is left
	# beside it either way.
	for tool in $tools; do
		name=${tool##*/}
		# shellcheck disable=SC2086 # AS_USER is a word list
		$AS_USER mkdir "$tmp/u/cd"
		# shellcheck disable=SC2086 # AS_USER is a word list
		expect_status 66 $AS_USER "$tmp/u/$name" --summary "$tmp/u/cd/s" \
			sh -c "chmod 555 '$tmp/u/cd'" 2>err
		grep -q -- "--summary: $tmp/u/cd/s: Permission denied" err ||
			fail "$name: a new summary in a directory made unwritable: $(cat err)"
		[ -z "$(ls -A "$tmp/u/cd")" ] || fail "$name: left in the directory: $(ls -A "$tmp/u/cd")"
		# shellcheck disable=SC2086 # AS_USER is a word list
		$AS_USER chmod 755 "$tmp/u/cd"
		echo old >"$tmp/u/cd/s"
		chmod 666 "$tmp/u/cd/s"
		# shellcheck disable=SC2086 # AS_USER is a word list
		expect_status 0 $AS_USER "$tmp/u/$name" --summary "$tmp/u/cd/s" \
			sh -c "chmod 555 '$tmp/u/cd'" 2>err
		[ "$(sed -n 1p "$tmp/u/cd/s")" = "exit 0" ] ||
			fail "$name: an existing summary in a directory made unwritable: $(cat "$tmp/u/cd/s") $(cat err)"
		[ "$(ls -A "$tmp/u/cd")" = s ] || fail "$name: left in the directory: $(ls -A "$tmp/u/cd")"
		# shellcheck disable=SC2086 # AS_USER is a word list
		$AS_USER chmod 755 "$tmp/u/cd"
		rm -rf "$tmp/u/cd"
	done
else
	skip "everything else checked; not the sticky directory (running as root without setpriv: no unprivileged user)"
fi
exit 0
