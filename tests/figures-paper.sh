#!/bin/sh
# The figures of the headline, a fault sweep, the multi-agent sweep and a
# URS run read as a paper's figures must (docs/outputs.md, Figures): one
# legend per figure (per terminal drawn: one `set key`, every other panel
# `unset key`); the change-points marked on the regret curves (one dashed
# line per change-point inside the run, and a legend entry) and the truth
# beside the final presences (a column of 0/1 shares, a legend entry); no
# interval below its quantity's lower bound (counts, times, exposures,
# CausalBench's regret at 0) nor a probability above 1; log x axes along an
# MTBF and an agent count; a unit, in parentheses, in every axis label;
# change-points drawn as points, not joined; a caption per figure.  TAP.
set -u
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..7"
fail=0
"$T" run -e headline -q -o "$tmp/h" --set run.seeds=2 --set run.episodes=200 >"$tmp/log" 2>&1 || fail=1
"$T" run -e fault-sweep -q -o "$tmp/f" -c trivium,rlvr --set run.seeds=2 --set run.episodes=60 \
  --sweep link-flap.mtbf=1,20 >>"$tmp/log" 2>&1 || fail=1
"$T" run -e multi-agent -q -o "$tmp/m" --set run.seeds=2 --set run.episodes=20 --sweep agents.count=1,4 \
  >>"$tmp/log" 2>&1 || fail=1
"$T" run -e urs-sf -q -o "$tmp/u" --set run.seeds=2 --set run.episodes=20 --set world.change_at=10 \
  --set run.steps=10 >>"$tmp/log" 2>&1 || fail=1
[ $fail = 0 ] || sed 's/^/# /' "$tmp/log" | head -20
scripts=$(find "$tmp" -path '*/figures/*.gp' | sort)
n=$(echo "$scripts" | grep -c .)
# 1. one legend per figure
ok=1
for g in $scripts; do
  outs=$(grep -c '^set output' "$g")
  keys=$(grep -c '^set key' "$g")
  panels=$(sed -n 's/^set multiplot layout \([0-9]*\),.*/\1/p' "$g" | head -1)
  unset_keys=$(grep -c '^unset key' "$g")
  [ "$outs" -eq 2 ] && [ "$keys" -eq 2 ] && [ "$unset_keys" -eq $((2 * (${panels:-1} - 1))) ] ||
    { ok=0; echo "# $g: $outs outputs, $keys 'set key', $unset_keys 'unset key' for ${panels:-1} panels"; }
done
if [ $fail = 0 ] && [ $ok = 1 ] && [ "$n" -ge 14 ]; then echo "ok 1 - one legend in each of the $n figures (the first panel's in a figure of panels)"
else echo "not ok 1 - legends ($n figures, runs ok: $((1 - fail)))"; fi
# 2. change-points and truth
ok=1
for d in "$tmp/h" "$tmp/u" "$tmp/f/link-flap.mtbf=1"; do
  cps=$(grep -cv '^#' "$d/figures/recovery.dat")
  arrows=$(grep -c '^set arrow from [0-9]*, graph 0 to [0-9]*, graph 1 nohead dt 2' "$d/figures/regret.gp")
  { [ "$cps" -ge 1 ] && [ "$arrows" -eq "$cps" ] && grep -q "title 'change-point (truth changes)'" "$d/figures/regret.gp"; } ||
    { ok=0; echo "# $d: $cps change-points, $arrows marked in regret.gp"; }
  nc=$(sed -n "1s/.*controllers://p" "$d/figures/presence.dat" | wc -w)
  awk -v nc="$nc" '!/^#/ { if (NF != 2 + 3 * nc || $NF == "NaN" || $NF < 0 || $NF > 1) bad = 1; rows++ }
    END { exit bad || rows < 1 }' "$d/figures/presence.dat" && grep -q "title 'truth at the last episode'" "$d/figures/presence.gp" ||
    { ok=0; echo "# $d: presence.dat has no truth column of shares in [0, 1] for its $nc controllers"; }
done
if [ $ok = 1 ]; then echo "ok 2 - change-points marked on the regret curves, the truth beside the final presences (headline, URS, fault sweep)"
else echo "not ok 2 - change-points or truth missing"; fi
# 3. no interval outside the quantity's domain: every number of these files is a count, time, exposure,
# probability, CausalBench regret or speedup (>= 0); probabilities (presence, p_f) <= 1
ok=1
for f in $(find "$tmp/h" "$tmp/f" "$tmp/m" -path '*/figures/*.dat') "$tmp/u/figures/recovery.dat" "$tmp/u/figures/presence.dat"; do
  awk '!/^#/ && NF { for (i = 2; i <= NF; i++) if ($i != "NaN" && $i < 0) { print FILENAME ": field " i " = " $i; exit 1 } }' "$f" ||
    { ok=0; echo "# below 0: $f"; }
done
for f in $(find "$tmp" -name presence.dat); do
  awk '!/^#/ { for (i = 2; i <= NF; i++) if ($i != "NaN" && $i > 1) exit 1 }' "$f" || { ok=0; echo "# above 1: $f"; }
done
# p_f's columns in the fault sweep: the metric's position among the sweep's metrics
f="$tmp/f/figures/sweep.dat"
k=$(sed -n '1s/.*metrics: \(.*\); series:.*/\1/p' "$f" | tr -d "'" | tr ' ' '\n' | grep -nx p_f | cut -d: -f1)
nm=$(sed -n '1s/.*metrics: \(.*\); series:.*/\1/p' "$f" | wc -w)
if [ -n "$k" ]; then
  awk -v k="$k" -v nm="$nm" '!/^#/ { for (c = 0; c < 2; c++) for (j = 0; j < 3; j++) { v = $(2 + 3 * (c * nm + k - 1) + j); if (v != "NaN" && (v < 0 || v > 1)) exit 1 } }' "$f" ||
    { ok=0; echo "# p_f outside [0, 1] in $f"; }
else
  ok=0; echo "# the fault sweep's figure has no p_f panel"
fi
if [ $ok = 1 ]; then echo "ok 3 - no interval below its quantity's lower bound, no probability above 1 (p_f, presences)"
else echo "not ok 3 - intervals outside the domain"; fi
# 4. log axes along MTBF and agents
if grep -q '^set logscale x' "$tmp/f/figures/sweep.gp" && grep -q '^set logscale x' "$tmp/m/figures/sweep.gp" &&
   grep -q '^set logscale x' "$tmp/m/figures/speedup.gp" && grep -q "^set xlabel 'link-flap.mtbf (simulated s, log scale)'" "$tmp/f/figures/sweep.gp"; then
  echo "ok 4 - log x axes along link-flap.mtbf and agents.count (sweep and speedup)"
else echo "not ok 4 - no log axis along MTBF or agents"; fi
# 5. units in every axis label
bad=$(grep -h '^set [xy]label' $scripts | grep -v "^set [xy]label '[^']*([^)]*)[^']*'$" | sort -u)
if [ -z "$bad" ] && [ "$(grep -h '^set [xy]label' $scripts | wc -l)" -ge $((2 * n)) ]; then
  echo "ok 5 - every axis label carries its unit in parentheses"
else echo "not ok 5 - labels without a unit:"; echo "$bad" | sed 's/^/# /'; fi
# 6. categorical change-points are points, not lines
if ! grep -q yerrorlines "$tmp/h/figures/recovery.gp" && grep -q 'with yerrorbars' "$tmp/h/figures/recovery.gp" &&
   grep -q 'with yerrorlines' "$tmp/f/figures/sweep.gp"; then
  echo "ok 6 - change-points drawn as points (never joined), a numeric sweep as lines"
else echo "not ok 6 - recovery joins its change-points"; fi
# 7. a caption per figure, naming its seeds and interval
ok=1
for g in $scripts; do
  t=${g%.gp}.txt
  { [ -s "$t" ] && grep -q 'seeds' "$t" && grep -Eq 'interval|sd|band' "$t"; } || { ok=0; echo "# $t"; }
done
if [ $ok = 1 ]; then echo "ok 7 - each figure has its caption (NAME.txt: what, seeds, interval)"
else echo "not ok 7 - captions missing"; fi
