#!/bin/sh
# `trivium merge OUT DIR...` on the run directories of a program's
# processes (tests/api-run: one controller and one seed each, written by
# trivium_results_write_dir): the merge of 2 controllers x 2 seeds, given in
# any order, writes the episodes.csv, summary.csv and figure data that
# `trivium run` writes for the same cells; directories that are not one
# experiment's full grid are refused with one line and exit 2, nothing
# written.  TAP.
set -u
top=${srcdir:-..}
T=./trivium
api=tests/api-run
plat=$top/platforms/causalbench.xml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/err-lines.sh"
echo "1..7"
for c in trivium rlvr; do
  for s in 1 2; do
    "$api" "$plat" --cfg=trivium/run.episodes:60 "--cfg=trivium/controller:$c" "--cfg=trivium/seed:$s" \
      --out "$tmp/$c-$s" > /dev/null 2>> "$tmp/api.err"
  done
done
"$api" "$plat" --cfg=trivium/run.episodes:60 --cfg=trivium/budget.alpha:2 --cfg=trivium/controller:rlvr --cfg=trivium/seed:3 --out "$tmp/other" \
  > /dev/null 2>> "$tmp/api.err"
"$T" run -q "$top/scenarios/default.xml" -c trivium,rlvr --set run.seeds=2 --set run.episodes=60 -o "$tmp/run" \
  > /dev/null 2> "$tmp/run.err"

"$T" merge -q "$tmp/out" "$tmp/rlvr-2" "$tmp/trivium-1" "$tmp/rlvr-1" "$tmp/trivium-2" > /dev/null 2> "$tmp/merge.err"
rc=$?
same=0
for f in episodes.csv summary.csv figures/regret.dat figures/presence.dat figures/recovery.dat; do
  cmp -s "$tmp/out/$f" "$tmp/run/$f" || { same=1; echo "# $f differs"; }
done
if [ $rc -eq 0 ] && [ $same -eq 0 ] && [ "$(wc -l < "$tmp/out/episodes.csv")" -eq 241 ]; then
  echo "ok 1 - four processes merged in any order: episodes.csv, summary.csv and figure data identical to trivium run's"
else echo "not ok 1 - exit $rc"; sed 's/^/# /' "$tmp/merge.err" | tail -3; fi

# refused FILE-LINE-TEXT N DESCRIPTION DIR...: exit 2, one line holding TEXT, no OUT
refused() {
  want=$1 num=$2 what=$3
  shift 3
  rm -rf "$tmp/bad"
  "$T" merge -q "$tmp/bad" "$@" > /dev/null 2> "$tmp/bad.err"
  rc=$?
  if [ $rc -eq 2 ] && [ "$(err_lines "$tmp/bad.err")" -eq 1 ] && grep -q -- "$want" "$tmp/bad.err" && [ ! -e "$tmp/bad" ]; then
    echo "ok $num - $what: one line, exit 2, nothing written"
  else echo "not ok $num - $what: exit $rc"; sed 's/^/# /' "$tmp/bad.err" | tail -3; fi
}
refused "no run of controller rlvr with seed 2" 2 "a cell missing from the grid" \
  "$tmp/trivium-1" "$tmp/trivium-2" "$tmp/rlvr-1"
refused "both are the run of controller trivium, seed 1" 3 "the same cell twice" "$tmp/trivium-1" "$tmp/trivium-1"
refused "the setting budget.alpha: 2, where" 4 "a run of another experiment" "$tmp/rlvr-1" "$tmp/other"
refused "not the run directory of a program" 5 "a directory of trivium run" "$tmp/trivium-1" "$tmp/run"
cp -r "$tmp/rlvr-1" "$tmp/cut"
head -c 300 "$tmp/rlvr-1/episodes.csv" > "$tmp/cut/episodes.csv"
refused "cut/episodes.csv: expected a header line and rows" 6 "an episodes.csv cut mid-line" "$tmp/trivium-1" "$tmp/cut"

# OUT is written inside itself only: a link planted where episodes.csv goes is refused
mkdir "$tmp/trap"
ln -s "$tmp/outside.csv" "$tmp/trap/episodes.csv"
"$T" merge -q "$tmp/trap" "$tmp/trivium-1" > /dev/null 2> "$tmp/trap.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$tmp/outside.csv" ] && grep -q "episodes.csv: a symbolic link" "$tmp/trap.err"; then
  echo "ok 7 - a link planted in OUT: refused (exit 2), nothing written through it"
else echo "not ok 7 - exit $rc"; sed 's/^/# /' "$tmp/trap.err" | tail -3; fi
