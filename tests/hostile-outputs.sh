#!/bin/sh
# Outputs are data too: what a run writes never runs a command and never
# leaves the run's directory.  Scenario file names and output directories
# made of every byte 1-255 reach the gnuplot scripts and the job scripts as
# text only (a canary file never appears) and the figures still draw;
# links planted where a run, a merge or a report writes (the write probe,
# temporaries, cells/, figures/, drawings, .started) are refused with one
# line and exit 2, and a victim file outside is left as it was (bytes and
# modification time).  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
T=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/err-lines.sh"
echo "1..17"
n=0
small="-q -c trivium --set run.seeds=1 --set run.episodes=20"
victim="$tmp/victim"
printf 'precious\n' > "$victim"
touch -d '2020-01-02 03:04:05' "$victim"
want=$(stat -c '%s %Y' "$victim"; cksum < "$victim")
victim_intact() { [ "$(stat -c '%s %Y' "$victim"; cksum < "$victim")" = "$want" ]; }
scenario() { # $1: path of a scenario of the headline world on the built-in platform
  printf '<?xml version="1.0"?>\n<trivium-scenario version="1">\n  <platform file="%s/platforms/causalbench.xml"/>\n  <world name="causalbench" variant="headline"/>\n</trivium-scenario>\n' "$top" > "$1"
}
# $1 description; then the command: passes on exit 2, one line on stderr, the victim intact
refused() {
  d=$1
  shift
  "$@" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  n=$((n + 1))
  lines=$(err_lines "$tmp/err")
  if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && victim_intact; then
    echo "ok $n - $d: exit 2, one line, the file outside untouched"
  else
    echo "not ok $n - $d: exit $rc, $lines lines, victim $(victim_intact && echo intact || echo CHANGED)"
    head -5 "$tmp/err" | sed 's/^/# /'
  fi
}

# --- text of every byte through the generated scripts ---
mkdir -p "$tmp/b" && cd "$tmp/b" || exit 1
# the audit's reproducer: a newline in a scenario's name started a gnuplot command
N=$(printf 'x\nsystem "touch CANARY"\nprint "')
scenario "$N.xml"
"$T" run "$N.xml" $small -o o > /dev/null 2>&1
rc=$?
n=$((n + 1))
if [ $rc -eq 0 ] && [ ! -e CANARY ] && ! grep -rq '^system' o/figures/*.gp; then
  echo "ok $n - a scenario named with a newline and a gnuplot command runs nothing"
else echo "not ok $n - exit $rc; canary $(ls CANARY 2>/dev/null)"; fi
# every byte 1-255 but '/', in four names, each also the name of the run's
# output directory; with gnuplot, every figure drawn
fails=0
gp=$(command -v gnuplot || true)
for range in "1 63" "64 127" "128 191" "192 255"; do
  set -- $range
  name=$(awk -v lo="$1" -v hi="$2" 'BEGIN { s = "s"; for (b = lo; b <= hi; b++) if (b != 47) s = s sprintf("%c", b); printf "%sz", s }')
  scenario "$tmp/b/$name.xml" || { fails=$((fails + 1)); continue; }
  "$T" run "$tmp/b/$name.xml" $small -c trivium,rlvr -o "$tmp/b/o-$name" > /dev/null 2> "$tmp/err"
  rc=$?
  if [ $rc -ne 0 ]; then echo "# bytes $1-$2: exit $rc: $(head -2 "$tmp/err")"; fails=$((fails + 1)); continue; fi
  for f in regret presence recovery; do
    [ -s "$tmp/b/o-$name/figures/$f.gp" ] || { echo "# bytes $1-$2: no $f.gp"; fails=$((fails + 1)); }
    if [ -n "$gp" ] && { [ ! -s "$tmp/b/o-$name/figures/$f.svg" ] || [ ! -s "$tmp/b/o-$name/figures/$f.png" ]; }; then
      echo "# bytes $1-$2: $f not drawn"
      fails=$((fails + 1))
    fi
  done
  # the report draws them again from the cells
  "$T" report -q "$tmp/b/o-$name" > /dev/null 2> "$tmp/err" || { echo "# bytes $1-$2: report: $(head -2 "$tmp/err")"; fails=$((fails + 1)); }
done
n=$((n + 1))
left=$(find "$tmp" -name 'CANARY*' | wc -l)
if [ $fails -eq 0 ] && [ "$left" -eq 0 ]; then
  echo "ok $n - scenario and output directory names of every byte 1-255 run, report and draw${gp:+ (with gnuplot)}, and nothing else appears"
else echo "not ok $n - $fails failures; $left canary files"; fi

# sweep values reach the sweep figure's tick labels and the points'
# directory names: every printable ASCII byte that quotes or expands in
# gnuplot or a shell (control bytes are refused in a text value, and the
# command line takes what the locale can convert)
V=$(printf 'a\047b`touch CANARY4`$(touch CANARY5)";system(\047touch CANARY6\047)@x\\')
"$T" run $small --sweep "world.model=$V,plain" -o "$tmp/b/sw" > /dev/null 2> "$tmp/err"
rc=$?
n=$((n + 1))
if [ $rc -eq 0 ] && [ "$(find "$tmp" -name 'CANARY*' | wc -l)" -eq 0 ] && [ -s "$tmp/b/sw/figures/sweep.gp" ] &&
   { [ -z "$gp" ] || [ -s "$tmp/b/sw/figures/sweep.svg" ]; }; then
  echo "ok $n - sweep values with quotes, backquotes and \$( ) label the sweep figure and name its points, and run nothing"
else echo "not ok $n - exit $rc: $(head -2 "$tmp/err")"; fi

# the Slurm scripts: an output directory named to run a command if expanded
cd "$tmp" || exit 1
D='r$(touch CANARY2)`touch CANARY3`"'
"$T" run $small --emit slurm -o "$D" > /dev/null 2> "$tmp/err"
rc=$?
(cd "$D/slurm" && SLURM_ARRAY_TASK_ID=99 sh array.sbatch > /dev/null 2> "$tmp/sb.err")
sb=$?
n=$((n + 1))
if [ $rc -eq 0 ] && [ $sb -eq 2 ] && grep -q 'no line 100 in' "$tmp/sb.err" && [ ! -e CANARY2 ] && [ ! -e CANARY3 ] &&
   [ ! -e "$D/slurm/CANARY2" ] && [ ! -e "$D/slurm/CANARY3" ]; then
  echo "ok $n - array.sbatch with no line for its task says so and expands nothing of the directory's name"
else echo "not ok $n - emit exit $rc, array.sbatch exit $sb: $(cat "$tmp/sb.err")"; fi

# --- links planted where a run writes ---
# the probe is .write-test-PID: the shell plants the link at its own pid's
# name, then becomes the run
mkdir o1
# shellcheck disable=SC2016,SC2086
refused "a link at the output directory's write probe" sh -c 'ln -s "$1" o1/.write-test-$$ && shift && exec "$@"' \
  _ "$victim" "$T" run $small -o o1
"$T" run $small -o o2 2> /dev/null
ln -s "$victim" o2/episodes.csv.tmp
refused "a link at episodes.csv's temporary (the resumed run's merge)" "$T" run $small -o o2
rm o2/episodes.csv.tmp
ln -s "$victim" o2/summary.csv.tmp
refused "a link at summary.csv's temporary (trivium report)" "$T" report -q o2
rm o2/summary.csv.tmp
mkdir -p o3/cells && ln -s "$victim" o3/cells/trivium-seed1.csv.tmp
refused "a link at a cell's .csv temporary" "$T" run $small -o o3
mkdir -p o4/cells && ln -s "$victim" o4/cells/trivium-seed1.sum.tmp
refused "a link at a cell's .sum temporary" "$T" run $small -o o4
mkdir -p o5/cells && ln -s "$victim" o5/cells/trivium-seed1.started
refused "a link at a cell's .started lock" "$T" run $small -o o5
mkdir -p o6 outside && ln -s "$tmp/outside" o6/cells
refused "cells/ a link to a directory outside" "$T" run $small -o o6
mkdir -p o7 && ln -s "$tmp/outside" o7/figures
refused "figures/ a link to a directory outside" "$T" run $small -o o7
"$T" run $small -o o8 2> /dev/null
ln -sf "$victim" o8/figures/regret.svg
refused "a drawing's name a link (trivium report)" "$T" report -q o8
ln -sf "$victim" o8/figures/regret.gp
refused "a gnuplot script's name a link (trivium report)" "$T" report -q o8
n=$((n + 1))
if [ -z "$(ls -A "$tmp/outside")" ] && victim_intact; then echo "ok $n - nothing was written outside the run directories"
else echo "not ok $n - outside: $(ls -A "$tmp/outside")"; fi

# trivium bench compiles and runs the skeleton only from the directory
# $TRIVIUM_SKELETON_DIR names, never from a path fixed at build time, and
# not when another user may change its files
n=$((n + 1))
o=$(env -u TRIVIUM_SKELETON_DIR "$T" bench -c trivium --set run.seeds=1 --set run.episodes=5 -j1 2>&1)
if echo "$o" | grep -q '^bench: skeleton ratio not measured: no skeleton (set TRIVIUM_SKELETON_DIR'; then
  echo "ok $n - bench without TRIVIUM_SKELETON_DIR runs no skeleton"
else echo "not ok $n - bench: $(echo "$o" | grep skeleton)"; fi
mkdir -p "$tmp/skel"
printf 'int main(void) { return 0; }\n' > "$tmp/skel/skeleton.c"
printf 'print("")\n' > "$tmp/skel/probes-from-episodes.py"
chmod o+w "$tmp/skel/skeleton.c"
n=$((n + 1))
o=$(TRIVIUM_SKELETON_DIR="$tmp/skel" "$T" bench -c trivium --set run.seeds=1 --set run.episodes=5 -j1 2>&1)
if echo "$o" | grep -q '^bench: skeleton ratio not measured: .*skeleton.c is writable by others'; then
  echo "ok $n - bench refuses a skeleton another user may write"
else echo "not ok $n - bench: $(echo "$o" | grep skeleton)"; fi
