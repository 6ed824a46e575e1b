#!/bin/sh
# trivium status DIR: for a run directory or a job list (--emit), each
# point's cells complete, running (a live process holds the cell's lock)
# and missing, and a total line; exit 0 when every cell is complete, 1
# otherwise; it writes nothing.  TAP.
set -u
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..4"
"$T" run -q -o "$tmp/r" -c trivium,rlvr --set run.seeds=2 --sweep run.episodes=6,8 >/dev/null 2>&1
"$T" status "$tmp/r" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "^run.episodes=6: 4 complete, 0 running, 0 missing of 4 cells" "$tmp/out" &&
   grep -q "^run.episodes=8: 4 complete, 0 running, 0 missing of 4 cells" "$tmp/out" &&
   grep -q ": complete (8 complete, 0 running, 0 missing of 8 cells)$" "$tmp/out" && [ ! -s "$tmp/err" ]; then
  echo "ok 1 - a finished sweep: every point complete, exit 0"
else echo "not ok 1 - exit $rc"; sed 's/^/# /' "$tmp/out" "$tmp/err"; fi
rm "$tmp/r/run.episodes=8/cells/rlvr-seed2.sum"
before=$(find "$tmp/r" | sort | cksum)
"$T" status "$tmp/r" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "^run.episodes=8: 3 complete, 0 running, 1 missing of 4 cells" "$tmp/out" &&
   grep -q ": incomplete (7 complete, 0 running, 1 missing of 8 cells)$" "$tmp/out" &&
   [ "$(find "$tmp/r" | sort | cksum)" = "$before" ]; then
  echo "ok 2 - a missing cell: named by its point, exit 1, nothing written"
else echo "not ok 2 - exit $rc"; sed 's/^/# /' "$tmp/out"; fi
if command -v flock >/dev/null 2>&1; then
  : >"$tmp/r/run.episodes=8/cells/rlvr-seed2.started"
  flock -x "$tmp/r/run.episodes=8/cells/rlvr-seed2.started" sleep 5 &
  sleep 1
  "$T" status "$tmp/r" >"$tmp/out" 2>&1
  rc=$?
  wait
  if [ $rc -eq 1 ] && grep -q "^run.episodes=8: 3 complete, 1 running, 0 missing of 4 cells" "$tmp/out" &&
     grep -q ": running (7 complete, 1 running, 0 missing of 8 cells)$" "$tmp/out"; then
    echo "ok 3 - a cell whose lock a live process holds is running"
  else echo "not ok 3 - exit $rc"; sed 's/^/# /' "$tmp/out"; fi
else
  echo "ok 3 # SKIP flock(1) is not installed"
fi
"$T" run -q -c trivium,rlvr --set run.episodes=5 --sweep run.seeds=1,2 --emit parallel -o "$tmp/e" >/dev/null 2>&1
"$T" status "$tmp/e" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "^run.seeds=1: 0 complete, 0 running, 2 missing of 2 cells" "$tmp/out" &&
   grep -q ": incomplete (0 complete, 0 running, 6 missing of 6 cells)$" "$tmp/out" && [ ! -e "$tmp/e/run.seeds=1" ]; then
  echo "ok 4 - a job list not run yet: every cell missing, per point, nothing created"
else echo "not ok 4 - exit $rc"; sed 's/^/# /' "$tmp/out"; fi
