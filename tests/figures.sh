#!/bin/sh
# The figures a run draws (docs/outputs.md): for every point
# figures/regret.{dat,gp,txt,svg,png}, figures/presence.{...} and, with
# change-points, figures/recovery.{...}; for a sweep figures/sweep.{...}.  The numbers are the tables' (the last row of
# regret.dat is each controller's r_out in summary.csv; presence.dat's
# columns are the final presences of the cells, which the summary's
# table of final presences also shows), the drawings are real SVG and PNG,
# the scripts read nothing but their own data by relative name, and
# `trivium report DIR` writes tables and figures again, byte for byte;
# --figures none, svg, png choose what gnuplot draws.
# gnuplot missing: the drawings are skipped, the rest still holds.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..8"
"$T" run -e fault-sweep -c trivium,rlvr --set run.seeds=3 --set run.episodes=60 --sweep link-flap.mtbf=1,20 -q \
  -o "$tmp/r" >/dev/null 2>"$tmp/run.err"
ok=1
for p in link-flap.mtbf=1 link-flap.mtbf=20; do
  d="$tmp/r/$p"
  for c in trivium rlvr; do
    want=$(awk -F, -v c="$c" '$1 == c && $2 == "r_out" {print $3}' "$d/summary.csv")
    col=$(sed -n '1s/.*: //p' "$d/figures/regret.dat" | tr ' ' '\n' | tr -d "'" | grep -nx "$c" | cut -d: -f1)
    got=$(tail -1 "$d/figures/regret.dat" | awk -v k="$col" '{print $(3 * (k - 1) + 2)}') # mean, lo, hi per controller
    awk -v a="$want" -v b="$got" 'BEGIN {d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 1e-6 * (1 + (a < 0 ? -a : a)))}' ||
      { ok=0; echo "# $p $c: summary r_out $want, regret.dat $got"; }
  done
  [ "$(grep -cv '^#' "$d/figures/regret.dat")" -eq 60 ] || { ok=0; echo "# $p: regret.dat has not 60 episodes"; }
  [ "$(grep -cv '^#' "$d/figures/presence.dat")" -eq 3 ] || { ok=0; echo "# $p: presence.dat has not 3 components"; }
  ncp=$(grep -c '^trivium,recovery\.[0-9]*\.exposure,' "$d/summary.csv")
  [ "$ncp" -ge 1 ] && [ "$(grep -cv '^#' "$d/figures/recovery.dat")" -eq "$ncp" ] ||
    { ok=0; echo "# $p: recovery.dat has not one row per change-point ($ncp)"; }
done
if [ $ok = 1 ]; then echo "ok 1 - regret.dat ends at each controller's r_out of summary.csv; one row per episode, per component and per change-point"
else echo "not ok 1 - figure data"; fi
series() { grep -o " title '" "$1" | wc -l; } # plot series (each terminal draws them all)
if [ "$(series "$tmp/r/link-flap.mtbf=1/figures/regret.gp")" -eq $((2 * (2 + 1))) ] &&
   [ "$(series "$tmp/r/link-flap.mtbf=1/figures/presence.gp")" -eq $((2 * (2 + 1))) ] &&
   [ "$(series "$tmp/r/link-flap.mtbf=1/figures/recovery.gp")" -eq $((2 * 4 * 2)) ] &&
   [ "$(series "$tmp/r/figures/sweep.gp")" -eq $((2 * 5 * 2)) ] &&
   [ "$(grep -c '^1 ' "$tmp/r/figures/sweep.dat")" -eq 1 ] && [ "$(grep -c '^20 ' "$tmp/r/figures/sweep.dat")" -eq 1 ] &&
   [ "$(grep -cv '^#' "$tmp/r/figures/sweep.dat")" -eq 2 ] &&
   grep -q "'20' 20" "$tmp/r/figures/sweep.gp" && grep -q "set xlabel 'link-flap.mtbf (simulated s, log scale)'" "$tmp/r/figures/sweep.gp"; then
  echo "ok 2 - one series per controller, drawn for SVG and PNG (regret and presence with the change-points' and the truth's entries; recovery: in each of its 4 panels; the sweep: in each of its 5 panels); the sweep figure: one row per point at its value, ticks at the values, the key and its unit as its title"
else echo "not ok 2 - sweep figure"; fi
bad=$(grep -lE "(^|[^a-z_])(load|system|cd|call|shell|print) |'/|\`" "$tmp"/r/figures/*.gp "$tmp"/r/*/figures/*.gp 2>/dev/null)
if [ -z "$bad" ]; then echo "ok 3 - the scripts read and write by relative name only and run nothing else"
else echo "not ok 3 - $bad"; fi
if command -v gnuplot >/dev/null 2>&1; then
  ok=1
  n=0
  for d in "$tmp"/r/figures/*.dat "$tmp"/r/*/figures/*.dat; do
    f=${d%.dat}
    n=$((n + 1))
    [ "$(head -c 8 "$f.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { ok=0; echo "# $f.png is not a PNG"; }
    grep -q '<svg' "$f.svg" && grep -q '</svg>' "$f.svg" || { ok=0; echo "# $f.svg is not SVG"; }
  done
  [ $n -eq 7 ] || { ok=0; echo "# $n figures, expected 7"; }
  ! grep -q 'could not draw' "$tmp/run.err" || { ok=0; grep 'could not draw' "$tmp/run.err" | sed 's/^/# /'; }
  # a panel with nothing defined (rlvr never recovers): drawn all the same
  "$T" run -e headline -c rlvr --set run.seeds=2 --set run.episodes=20 -q -o "$tmp/n" >/dev/null 2>"$tmp/n.err"
  [ -s "$tmp/n/figures/recovery.png" ] && ! grep -q 'could not draw' "$tmp/n.err" ||
    { ok=0; echo "# a figure with an empty panel was not drawn"; sed 's/^/# /' "$tmp/n.err"; }
  if [ $ok = 1 ]; then echo "ok 4 - every figure (7) drawn as PNG and SVG, one whose panel has no value too"; else echo "not ok 4 - drawings"; fi
else
  echo "ok 4 # SKIP gnuplot is not installed (./dev installs gnuplot-nox)"
fi
cp -r "$tmp/r" "$tmp/before"
rm -rf "$tmp"/r/figures "$tmp"/r/*/figures "$tmp"/r/sweep.* "$tmp"/r/*/summary.* "$tmp"/r/*/episodes.csv
"$T" report -q "$tmp/r" >/dev/null 2>"$tmp/err"
rc=$?
diffs=$(cd "$tmp/before" && find . -type f ! -path '*/cells/*' ! -name run.json ! -name jobs.json | while read -r f; do
  cmp -s "$f" "$tmp/r/$f" || echo "$f"; done)
if [ $rc -eq 0 ] && [ -z "$diffs" ] && [ -f "$tmp/r/link-flap.mtbf=1/figures/regret.svg" -o -z "$(command -v gnuplot)" ]; then
  echo "ok 5 - trivium report writes the tables and figures again, byte for byte"
else echo "not ok 5 - report: exit $rc, differs: $diffs"; sed 's/^/# /' "$tmp/err"; fi

# 6: --figures none: each figure's data, script (both terminals) and
# caption, and no drawing; report --figures svg draws the SVGs from them
"$T" run -e ig-vs-roundrobin --set run.seeds=2 --set run.episodes=60 --figures none -q -o "$tmp/fn" >/dev/null 2>&1
f="$tmp/fn/figures"
drawn=$(find "$f" -name '*.svg' -o -name '*.png' | wc -l)
both=0
grep -q 'set terminal svg' "$f/regret.gp" && grep -q 'set terminal pngcairo' "$f/regret.gp" && both=1
"$T" report "$tmp/fn" --figures svg -q >/dev/null 2>&1
if [ -s "$f/regret.dat" ] && [ -s "$f/regret.txt" ] && [ $both -eq 1 ] && [ "$drawn" -eq 0 ] &&
  { [ -s "$f/regret.svg" ] && [ ! -e "$f/regret.png" ] || [ -z "$(command -v gnuplot)" ]; }; then
  echo "ok 6 - --figures none writes data, scripts and captions and draws nothing; report --figures svg draws SVGs"
else echo "not ok 6 - --figures none: $drawn drawings, $(ls "$f" 2>/dev/null | tr '\n' ' ')"; fi

# 7: --figures png draws PNGs only, and its scripts say only pngcairo
"$T" run -e ig-vs-roundrobin --set run.seeds=2 --set run.episodes=60 --figures png -q -o "$tmp/fp" >/dev/null 2>&1
f="$tmp/fp/figures"
if ! grep -q 'set terminal svg' "$f"/*.gp && [ -z "$(find "$f" -name '*.svg')" ] &&
  { [ -s "$f/regret.png" ] || [ -z "$(command -v gnuplot)" ]; }; then
  echo "ok 7 - --figures png: PNGs only, scripted and drawn"
else echo "not ok 7 - --figures png: $(ls "$f" | tr '\n' ' ')"; fi

# 8: a bad value: one line, exit 2, no output directory
"$T" run -e ig-vs-roundrobin --figures pdf -q -o "$tmp/bad" >/dev/null 2>"$tmp/bad.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$tmp/bad" ] && grep -q -- '--figures=pdf: expected none, svg, png or all' "$tmp/bad.err"; then
  echo "ok 8 - --figures pdf: one line, exit 2, nothing written"
else echo "not ok 8 - --figures pdf: exit $rc, $(cat "$tmp/bad.err")"; fi
