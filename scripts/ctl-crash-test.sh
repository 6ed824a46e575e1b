#!/bin/sh
# ctl-crash-test.sh [TRIALS] - the long form of the CTL's crash tests, with
# figures.  TRIALS (default 1000) of each:
#   - SIGKILL of a writer appending under each fsync policy (always, group,
#     none), each followed by recovery and the checks of
#     tests/test-ctl-crash.c: the log is accepted without salvage, holds a
#     prefix of the stream, and holds every acknowledged record;
#   - a simulated power cut under always and group (tests/test-ctl-powercut.c):
#     an I/O shim drops everything written after the last completed fsync
#     ("dropped"), or keeps a prefix of it torn at a random byte ("torn");
#     every record acknowledged as durable must be recovered.
# Prints one line per test: trials, acknowledged records, recovered, lost,
# and what else recovery found.  Exits non-zero if any check fails.
# Builds the tests in _build/ (configured like ./dev) if needed; set
# TRV_BUILD_DIR to use another build directory.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
trials=${1:-1000}
build=${TRV_BUILD_DIR:-$top/_build}
if [ ! -f "$build/Makefile" ]; then
  (cd "$top" && { [ -x configure ] || autoreconf -fi >&2; })
  mkdir -p "$build"
  (cd "$build" && "$top/configure" --enable-werror >&2)
fi
make -C "$build" -s tests/test-ctl-crash tests/test-ctl-powercut >&2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s)
status=0
TRV_CTL_CRASH_TRIALS=$trials "$build/tests/test-ctl-crash" --verbose >"$out" 2>&1 || status=1
TRV_CTL_POWERCUT_TRIALS=$trials "$build/tests/test-ctl-powercut" --verbose >>"$out" 2>&1 || status=1
secs=$(( $(date +%s) - start ))
printf '%-9s %-7s %-8s %7s %13s %10s %5s %14s %6s %8s\n' test policy model trials acknowledged recovered lost \
  unacked-whole torn prealloc
sed -n 's/^# figures: //p' "$out" | awk '{
  for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
  kind = $1; model = ("model" in v) ? v["model"] : "-"
  printf "%-9s %-7s %-8s %7s %13s %10s %5s %14s %6s %8s\n", kind, v["policy"], model, v["trials"], v["acknowledged"],
    v["recovered"], v["lost"], v["unacknowledged-whole"], v["torn-frames"], ("preallocated-tail" in v) ? v["preallocated-tail"] : "-"
  delete v
}'
if [ $status -ne 0 ]; then
  echo "ctl-crash-test: FAILED after $secs s; the tests said:" >&2
  grep -v '^ok\|^# figures' "$out" | tail -20 >&2
  exit 1
fi
echo "ctl-crash-test: all checks passed ($trials trials each, $secs s); acknowledged = records acknowledged as" \
  "durable under the policy during the trials, lost = acknowledged records missing after recovery"
