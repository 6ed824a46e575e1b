#!/bin/sh
# The example world of its own (examples/couriers.c): written only against
# the public headers, its couriers are the program's own actors.  On 5
# seeds Trivium's MAP graph is right in every stationary episode, while
# the outcome-only learner is wrong in most of them.  TAP.
set -u
top=${srcdir:-..}
exe=${COURIERS:-examples/couriers}
plat=${COURIERS_PLATFORM:-$top/examples/couriers-platform.xml}
dep=${COURIERS_DEPLOYMENT:-$top/examples/couriers-deployment.xml}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "1..3"
t_bad=0 r_low=0 fail=""
for s in 1 2 3 4 5; do
  "$exe" "$plat" "$dep" --cfg=trivium/seed:$s --cfg=trivium/controller:trivium >"$out" 2>&1 || fail="$fail trivium:$s"
  x=$(awk '$1 == "exposure_stationary" {print $2}' "$out")
  [ "$x" = 0 ] || t_bad=$((t_bad + 1))
  "$exe" "$plat" "$dep" --cfg=trivium/seed:$s --cfg=trivium/controller:rlvr >"$out" 2>&1 || fail="$fail rlvr:$s"
  y=$(awk '$1 == "exposure_stationary" {print $2}' "$out")
  # 200 episodes: 50 init, 50 recovery, 100 stationary
  [ "${y:-0}" -ge 90 ] 2>/dev/null || r_low=$((r_low + 1))
done
if [ -z "$fail" ]; then echo "ok 1 - the couriers run to the end on 5 seeds under both controllers"; else echo "not ok 1 - failed:$fail"; sed 's/^/# /' "$out"; fi
if [ $t_bad -eq 0 ]; then echo "ok 2 - trivium: MAP right in every stationary episode of 5 seeds"; else echo "not ok 2 - trivium wrong in stationary episodes on $t_bad seeds"; fi
if [ $r_low -eq 0 ]; then echo "ok 3 - rlvr: MAP wrong in at least 90 of 100 stationary episodes on every seed"; else echo "not ok 3 - rlvr right too often on $r_low seeds"; fi
