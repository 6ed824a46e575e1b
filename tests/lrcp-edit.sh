#!/bin/sh
# LRCP's two repairs (lrcp.edit = map, local) on a shortened
# scenarios/lrcp-edit.xml: every call's residual trace in episodes.csv
# obeys the stopping rule (docs/controller.md, "LRCP"), the local repair
# converges at least as often as the MAP repair, and trivium-nolrcp never
# calls LRCP.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..3"
# (--sweep replaces the scenario's grid: 24 components, both repairs)
"$T" run "$top/scenarios/lrcp-edit.xml" --sweep lrcp.edit=map,local --set world.components=24 --set run.seeds=3 \
  -q -o "$tmp/r" >/dev/null 2>&1
map="$tmp/r/lrcp.edit=map/episodes.csv"
local="$tmp/r/lrcp.edit=local/episodes.csv"
if [ ! -s "$map" ] || [ ! -s "$local" ]; then
  for i in 1 2 3; do echo "not ok $i - the run wrote no episodes.csv"; done
  exit 0
fi

# 1: converged: the trace ends at 0 and every earlier step contracted by
# at most beta_max = 0.9; flagged: the last step did not contract enough,
# or the repairs ran out (9 entries); none: no trace
check='NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
  $col["controller"] != "trivium" {next}
  { s = $col["lrcp_status"]; t = $col["lrcp_trace"]
    if (s == "none") { if (t != "") bad++; next }
    calls[s]++; k = split(t, e, ";")
    for (i = 2; i < k; i++) if (e[i] / e[i - 1] > 0.9 || e[i] == 0) bad++
    if (s == "converged" && e[k] != 0) bad++
    if (s == "flagged" && !(k == 9 || (k >= 2 && e[k] / e[k - 1] > 0.9))) bad++ }
  END { printf "%d %d %d\n", bad + 0, calls["converged"] + 0, calls["flagged"] + 0 }'
m=$(awk -F, "$check" "$map")
l=$(awk -F, "$check" "$local")
if [ "${m%% *}" = 0 ] && [ "${l%% *}" = 0 ]; then
  echo "ok 1 - every LRCP trace follows the stopping rule (map: converged, flagged $m; local: $l)"
else echo "not ok 1 - traces against the stopping rule (bad, converged, flagged): map $m, local $l"; fi

# 2: the local repair, one node at a time by the window's fit, converges
# at least as often as the MAP repair
set -- $m
mc=$2 mf=$3
set -- $l
lc=$2 lf=$3
if [ $((mc + mf)) -gt 0 ] && [ $((lc + lf)) -gt 0 ] && [ $((lc * (mc + mf))) -ge $((mc * (lc + lf))) ]; then
  echo "ok 2 - the local repair converges as often as the MAP repair or more ($lc/$((lc + lf)) against $mc/$((mc + mf)))"
else echo "not ok 2 - converged: local $lc/$((lc + lf)), map $mc/$((mc + mf))"; fi

# 3: trivium-nolrcp never calls LRCP
n=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
  $col["controller"] == "trivium-nolrcp" && $col["lrcp_status"] != "none" {n++} END {print n + 0}' "$map" "$local")
if [ "$n" -eq 0 ]; then echo "ok 3 - trivium-nolrcp never calls LRCP"
else echo "not ok 3 - trivium-nolrcp called LRCP $n times"; fi
