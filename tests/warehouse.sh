#!/bin/sh
# The Warehouse world and its grounding table (scenarios/warehouse-w1.xml,
# docs/warehouse.md), on short runs of the shipped scenario: W1 between the
# committed deliveries and the ideal replay is 0 at eps = eta = 0 without
# faults (the deployed and ideal fleets are the same simulation there:
# every episode's reward equals its ideal replay), and grows with eps, with
# eta and with the Wi-Fi fault rate; p_f in the table is the failed commits
# of episodes.csv over the due ones; the table and figure are written per
# sweep; out-of-range noise and too many robots are refused with exit 2.
# TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..7"
run() { # OUT SWEEP: the scenario with 150 episodes and one swept key
  "$T" run -e warehouse-w1 --set run.episodes=150 --sweep "$2" -q -o "$tmp/$1" >/dev/null 2>"$tmp/$1.err"
}
# column NAME of grounding.csv's point P
col() {
  awk -F, -v name="$2" -v p="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
    $1 == p { print $c }' "$tmp/$1/grounding.csv"
}
run eps world.eps=0,0.15
run eta world.eta=0,0.1
run flap link-flap.mtbf=1e9,2

# 1: W1 = 0 exactly at eps = eta = 0 without faults, and the reward equals the ideal replay in every episode
zero=$(col eps w1 0)
same=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "reward") r = i; if ($i == "ideal") d = i }; next }
  $r != $d { n++ } END { print n + 0 }' "$tmp/eps/world.eps=0/episodes.csv" 2>/dev/null)
if [ "$zero" = "0" ] && [ "$same" = "0" ] && [ "$(col eps p_f 0)" = "0" ]; then
  echo "ok 1 - W1 is 0 at eps = eta = 0 with no faults: every episode's reward is its ideal replay"
else echo "not ok 1 - W1 at zero noise: '$zero', episodes differing: '$same'"; sed 's/^/# /' "$tmp/eps.err"; fi

# 2, 3: W1 grows with eps and with eta (by more than half a delivery per episode at the top of each range)
grows() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(b > a + 0.5) }'; }
if grows "$(col eps w1 0)" "$(col eps w1 1)"; then echo "ok 2 - W1 grows with eps: $(col eps w1 0) -> $(col eps w1 1)"
else echo "not ok 2 - W1 against eps: $(col eps w1 0) -> $(col eps w1 1)"; fi
if grows "$(col eta w1 0)" "$(col eta w1 1)"; then echo "ok 3 - W1 grows with eta: $(col eta w1 0) -> $(col eta w1 1)"
else echo "not ok 3 - W1 against eta: $(col eta w1 0) -> $(col eta w1 1)"; fi

# 4: W1 grows with the fault rate, and p_f is the measured failed commits over the due ones
pf=$(col flap p_f 1)
counted=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "commits") c = i; if ($i == "commit_failures") f = i }; next }
  { due += $c; failed += $f } END { printf "%.9g", failed / due }' "$tmp/flap/link-flap.mtbf=2/episodes.csv" 2>/dev/null)
if grows "$(col flap w1 0)" "$(col flap w1 1)" && [ "$pf" = "$counted" ] &&
   awk -v p="$pf" 'BEGIN { exit !(p > 0.05 && p < 0.4) }'; then
  echo "ok 4 - W1 grows with the fault rate (p_f $pf, counted from the failed commits)"
else echo "not ok 4 - faults: W1 $(col flap w1 0) -> $(col flap w1 1), p_f '$pf' vs counted '$counted'"
  sed 's/^/# /' "$tmp/flap.err"; fi

# 5: the table has the bound next to W1 for every point, each point its own table, and the figure
if [ "$(tail -n +2 "$tmp/flap/grounding.csv" | wc -l)" -eq 2 ] && [ -n "$(col flap bound 1)" ] &&
   [ -n "$(col flap holds 1)" ] && [ -f "$tmp/flap/link-flap.mtbf=2/grounding.csv" ] &&
   grep -q '| W1 |' "$tmp/flap/grounding.md" && [ "$(grep -cv '^#' "$tmp/flap/figures/grounding.dat")" -eq 2 ]; then
  echo "ok 5 - grounding.csv, grounding.md and the grounding figure, a row per point"
else echo "not ok 5 - grounding outputs"; ls -R "$tmp/flap" | sed 's/^/# /'; fi

# 6, 7: hostile values
"$T" run -e warehouse-w1 --sweep world.eps=0.2 -q -o "$tmp/bad" >/dev/null 2>"$tmp/bad.err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'world.eps: 0.2 is out of range \[0, 0.15\]' "$tmp/bad.err"; then echo "ok 6 - world.eps out of [0, 0.15]: exit 2, named"
else echo "not ok 6 - world.eps=0.2: exit $rc"; sed 's/^/# /' "$tmp/bad.err"; fi
"$T" run -e warehouse-w1 --set agents.count=65 --set run.episodes=2 -q -o "$tmp/bad2" >/dev/null 2>"$tmp/bad2.err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'robots' "$tmp/bad2.err"; then echo "ok 7 - 65 robots: exit 2, with the limit"
else echo "not ok 7 - agents.count=65: exit $rc"; sed 's/^/# /' "$tmp/bad2.err"; fi
