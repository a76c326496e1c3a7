#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# revisions.sh: the llvm_project_revision of each side of make ab.  LNT
# files a run under its machine and this order, and takes a second report
# of the same machine and order as a duplicate (refused, or replacing the
# first): the two sides must differ.
#
# usage: revisions.sh    prints "ok REV_A REV_B", or "error: WHY"
# environment: BASE_REVISION NEW_REVISION (given: used as they are),
#   AB_BASE AB_NEW (each side's make arguments, for its CC), CC (make ab's
#   own), START_EPOCH (the start of the run, in seconds)
# Unset revisions come from the compiler: the version number in the first
# line of each side's "CC --version" when the two sides' numbers differ
# (a compiler against its successor); otherwise the start time for A and
# one more for B (one compiler, two sets of flags).
set -u
LC_ALL=C
export LC_ALL

# side_cc ARGS: the CC among a side's make arguments, or make ab's.
side_cc() {
	cc=${CC:-cc}
	eval "set -- $1"
	for a do
		case $a in CC=*) cc=${a#CC=} ;; esac
	done
	printf '%s\n' "$cc"
}

# cc_version CC: the first N.N[.N...] number of its --version line.
cc_version() {
	# CC may be a command with arguments ("ccache gcc"): split on purpose.
	# shellcheck disable=SC2086
	$1 --version 2> /dev/null | sed 1q | tr '()' '  ' | awk '{ for (i = 1; i <= NF; i++) print $i }' |
		sed -n 's/^\([0-9][0-9]*\(\.[0-9][0-9]*\)\{1,\}\).*/\1/p' | sed 1q
}

a=${BASE_REVISION:-} b=${NEW_REVISION:-}
if [ -z "$a" ] || [ -z "$b" ]; then
	va=$(cc_version "$(side_cc "${AB_BASE:-}")")
	vb=$(cc_version "$(side_cc "${AB_NEW:-}")")
	if [ -n "$va" ] && [ -n "$vb" ] && [ "$va" != "$vb" ]; then
		a=${a:-$va} b=${b:-$vb}
	else
		a=${a:-${START_EPOCH:?}} b=${b:-$((START_EPOCH + 1))}
	fi
fi
for r in "$a" "$b"; do
	case $r in
	*[!A-Za-z0-9._:+~-]*)
		echo "error: revision '$r': use letters, digits and . _ : + ~ - only"
		exit 0
		;;
	esac
done
if [ "$a" = "$b" ]; then
	echo "error: BASE_REVISION and NEW_REVISION are both '$a': LNT would take the second side's report for a duplicate of the first"
	exit 0
fi
echo "ok $a $b"
