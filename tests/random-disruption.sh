#!/bin/sh
# The random-disruption variant of CausalBench-Seq on a shortened
# scenarios/random-disruption.xml: change-points drawn from the seed (the
# same for every controller of a seed), the phase column and the
# detector's false alarms measured against each seed's own change-points
# (read off the truth column), and a rate that would give more
# change-points than a run holds refused.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
. "$top/tests/err-lines.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..4"
"$T" run "$top/scenarios/random-disruption.xml" --sweep world.disruption_rate=0.02 -c trivium,rlvr --set run.seeds=4 \
  --set run.episodes=300 -q -o "$tmp/r" >/dev/null 2>&1
ep="$tmp/r/world.disruption_rate=0.02/episodes.csv"
sum="$tmp/r/world.disruption_rate=0.02/summary.csv"
if [ ! -s "$ep" ]; then
  for i in 1 2 3; do echo "not ok $i - the run wrote no episodes.csv"; done
else
  # per controller and seed: the change-points, from the truth column
  awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
    { k = $col["controller"] " " $col["seed"]
      if (k in prev && $col["truth"] != prev[k]) cps[k] = cps[k] " " $col["episode"]
      prev[k] = $col["truth"] }
    END { for (k in prev) print k ":" cps[k] }' "$ep" | sort > "$tmp/cps"
  distinct=$(cut -d: -f2 "$tmp/cps" | sort -u | wc -l)
  same=$(awk -F: '{split($1, a, " "); s[a[2]] = s[a[2]] "|" $2} END {for (k in s) {split(s[k], b, "|"); if (b[2] != b[3]) bad++}; print bad + 0}' "$tmp/cps")
  if [ "$distinct" -ge 3 ] && [ "$same" -eq 0 ]; then
    echo "ok 1 - change-points drawn from the seed ($distinct distinct schedules), the same for both controllers"
  else echo "not ok 1 - schedules: $distinct distinct, $same seeds whose controllers differ"; sed 's/^/# /' "$tmp/cps"; fi

  # phases and false alarms against each seed's own change-points
  out=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
    { k = $col["controller"] SUBSEP $col["seed"]; e = $col["episode"] + 0
      if (k in prev && $col["truth"] != prev[k]) last[k] = e
      prev[k] = $col["truth"]
      want = e < 50 ? "init" : (k in last && e < last[k] + 50) ? "recovery" : "stationary"
      if ($col["phase"] != want) badphase++
      if ($col["controller"] == "trivium" && $col["alarm"] == 1 && !(k in last && e < last[k] + 50)) false++ }
    END { print badphase + 0, false + 0 }' "$ep")
  fa=$(awk -F, '$1 == "trivium" && $2 == "false_alarms" {printf "%.0f", $3 * $7}' "$sum")
  if [ "${out%% *}" = 0 ]; then echo "ok 2 - the phase column follows each seed's own change-points"
  else echo "not ok 2 - ${out%% *} rows in the wrong phase"; fi
  if [ "${out##* }" = "$fa" ]; then echo "ok 3 - false alarms ($fa) are the alarms not within 50 episodes of the seed's change-points"
  else echo "not ok 3 - false alarms: summary $fa, recomputed ${out##* }"; fi
fi

# 4: more change-points than a run holds: refused before the run
"$T" run "$top/scenarios/random-disruption.xml" --sweep world.disruption_rate=1 -c trivium --set run.seeds=1 \
  --set run.episodes=2000 -q -o "$tmp/big" >"$tmp/big.out" 2>"$tmp/big.err"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(err_lines "$tmp/big.err")" -eq 1 ] && grep -q 'world.disruption_rate = 1: more than 1024 change-points' "$tmp/big.err"; then
  echo "ok 4 - a rate that gives more than 1024 change-points is one line, exit 2"
else echo "not ok 4 - exit $rc: $(cat "$tmp/big.err")"; fi
