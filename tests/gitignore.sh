#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Everything the build makes is ignored by git and none of it is tracked:
# a "git add -A" after a build must not commit a binary.
. "$top_srcdir/tests/setup"
: "${BUILT_PROGRAMS:?}"
cd "$top_srcdir"
command -v git > /dev/null 2>&1 || skip "git is not installed"
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || skip "$top_srcdir is not a git checkout (a release tarball)"

bad=
for p in $BUILT_PROGRAMS; do
	git check-ignore -q "$p" || bad="$bad $p"
done
[ -z "$bad" ] || fail "built but not in .gitignore:$bad"
tracked=$(git ls-files -- $BUILT_PROGRAMS)
[ -z "$tracked" ] || fail "built files tracked by git: $tracked"
# No executable binary at all is tracked.
elf=$(git ls-files -z | xargs -0 grep -l "$(printf '^\177ELF')" 2>/dev/null || true)
[ -z "$elf" ] || fail "binaries tracked by git: $elf"
