#!/bin/sh
# The front-loaded budget (budget.front) and the oracle design
# (trivium-oracle), from the rows of a shortened scenarios/budget-front.xml:
# the budget an episode gets against the rule (docs/controller.md,
# "Probes and scheduling"), the yardstick's probes and its refusal to run
# in a world whose referee gives a truth of the wrong size.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..4"
"$T" run "$top/scenarios/budget-front.xml" --sweep budget.front=0,0.2 --set run.seeds=2 --set run.episodes=120 -q \
  -o "$tmp/r" >/dev/null 2>&1
ep0="$tmp/r/budget.front=0/episodes.csv"
ep2="$tmp/r/budget.front=0.2/episodes.csv"
if [ ! -s "$ep0" ] || [ ! -s "$ep2" ]; then
  for i in 1 2 3 4; do echo "not ok $i - the run wrote no episodes.csv"; done
  exit 0
fi

# 1: without front-loading the first episode gets B_0 = ceil(3 ln 2) = 3
# probes, whatever the controller
bad=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
  $col["episode"] == 0 && $col["budget"] != 3 {print $col["controller"], $col["seed"], $col["budget"]}' "$ep0")
if [ -z "$bad" ]; then echo "ok 1 - budget.front=0: the first episode's budget is B_0 = 3"
else echo "not ok 1 - budget.front=0: first budgets $bad"; fi

# 2: budget.front = 0.2 of T = 50 steps: an episode that starts from more
# than 0.8 bits (the first, and any after an episode that ended above
# 0.8 bits: hazard mixing only raises the entropy) gets at least 10
# probes; once the belief is confident, episodes go back to B_e (fewer
# than 10 before e = 27)
out=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
  { c = $col["controller"] SUBSEP $col["seed"]; e = $col["episode"] + 0; b = $col["budget"] + 0
    if ((e == 0 || prev[c] > 0.8) && b < 10) bad = bad " " $col["controller"] "/" $col["seed"] "/" e "/" b
    if (e < 27 && b < 10) back++
    prev[c] = $col["entropy_bits"] + 0 }
  END { print (bad == "" ? "none" : bad), back + 0 }' "$ep2")
if [ "${out%% *}" = none ] && [ "${out##* }" -gt 0 ]; then
  echo "ok 2 - budget.front=0.2: at least 10 probes while H > 0.8 bits, B_e after (${out##* } early episodes)"
else echo "not ok 2 - budget.front=0.2: $out"; fi

# 3: the oracle design spends its budget like trivium: every probe it
# plans (probes <= budget, and the whole budget in the first episode)
bad=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
  $col["controller"] == "trivium-oracle" && ($col["probes"] + 0 > $col["budget"] + 0 ||
    ($col["episode"] == 0 && $col["probes"] != $col["budget"])) {print $col["seed"], $col["episode"]}' "$ep0" "$ep2")
n=$(grep -c ',trivium-oracle,' "$ep2")
if [ -z "$bad" ] && [ "$n" -eq 240 ]; then echo "ok 3 - trivium-oracle plays every episode within its budget"
else echo "not ok 3 - trivium-oracle rows $n, out of budget: $bad"; fi

# 4: the yardstick is named, never a default (a scenario without
# <controllers> runs the defaults)
"$T" run "$top/scenarios/default.xml" --set run.seeds=1 --set run.episodes=5 -q -o "$tmp/d" >/dev/null 2>&1
if [ ! -s "$tmp/d/episodes.csv" ]; then echo "not ok 4 - the default scenario wrote no episodes.csv"
elif grep -q ',trivium-oracle,' "$tmp/d/episodes.csv"; then echo "not ok 4 - trivium-oracle ran unasked"
elif ! grep -q ',trivium,' "$tmp/d/episodes.csv"; then echo "not ok 4 - the defaults did not run trivium"
else echo "ok 4 - trivium-oracle runs only when named"; fi
