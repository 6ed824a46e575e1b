#!/bin/sh
# ctl-crash-test.sh [TRIALS] - the long form of the CTL crash test
# (acceptance 1 of issue 3): TRIALS (default 300) SIGKILLs of a writer
# appending under fsync=always, each followed by recovery and the checks of
# tests/test-ctl-crash.c (a prefix holding every acknowledged record, verify
# passes).  Builds the test in _build/ (configured like ./dev) if needed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
trials=${1:-300}
build=${TRV_BUILD_DIR:-$top/_build}
if [ ! -f "$build/Makefile" ]; then
  (cd "$top" && { [ -x configure ] || autoreconf -fi >&2; })
  mkdir -p "$build"
  (cd "$build" && "$top/configure" --enable-werror >&2)
fi
make -C "$build" -s tests/test-ctl-crash >&2
start=$(date +%s)
TRV_CTL_CRASH_TRIALS=$trials "$build/tests/test-ctl-crash" --verbose
echo "ctl-crash-test: $trials trials passed in $(( $(date +%s) - start )) s"
