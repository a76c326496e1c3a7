#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Regenerate the build system from configure.ac and Makefile.am.
set -eu
cd "$(dirname "$0")"
exec autoreconf --install --force
