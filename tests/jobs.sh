#!/bin/sh
# A sweep (2 fault rates x 2 controllers x 2 seeds) run three ways: locally
# with -j 2, through the GNU parallel job list that `trivium run --emit
# parallel` writes, and through the Slurm array script of `--emit slurm`
# run with SLURM_ARRAY_TASK_ID set for each task; after `trivium merge`
# every output file is identical to the local run's, figures included
# (run.json except its "command", the command line of the invocation;
# jobs.json, which records the invocation).  A merge with cells
# missing refuses and names them; a job run again runs nothing; a local run
# killed halfway and run again finishes only the missing cells, moves the
# interrupted cell's log aside and gives the identical result; cells of
# another configuration are run again, not reused; a damaged cell is
# refused at the merge; a job list's manifest cannot send the merge's
# outputs elsewhere.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
case $T in /*) ;; *) T=$(pwd)/$T ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..13"
. "$top/tests/err-lines.sh"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; [ -f "$tmp/err" ] && sed 's/^/# /' "$tmp/err"; }
cd "$tmp" || exit 1
cp "$top/scenarios/fault-sweep.xml" sweep.xml
sed -i "s|\.\./platforms|$top/platforms|" sweep.xml
set -- sweep.xml -c trivium,rlvr --set run.seeds=2 --set run.episodes=30 --sweep link-flap.mtbf=0.5,2

# same: every file of the local run (cells/ aside) is in DIR and identical
same() {
  files=$(cd L && find . -type f ! -path '*/cells/*' ! -name jobs.json | sort)
  count=0
  for f in $files; do
    count=$((count + 1))
    case $f in
      */run.json) sed '/"command"/,$d' "L/$f" >a.json; sed '/"command"/,$d' "$1/$f" >b.json 2>/dev/null
                  cmp -s a.json b.json || { echo "# $1/$f differs" >err; return 1; } ;;
      *) cmp -s "L/$f" "$1/$f" || { echo "# $1/$f differs or is missing" >err; return 1; } ;;
    esac
  done
  # 38 files, faults.csv and faults.md, and per point the copies of the scenario and platform (inputs/) and the
  # 7 figures' captions
  [ "$count" -eq 51 ] || { echo "# $count files compared, expected 51" >err; return 1; }
}

"$T" run "$@" -j 2 -q -o L >/dev/null 2>err
if [ -f L/sweep.csv ] && [ "$(ls L/link-flap.mtbf=2/cells/*.sum | wc -l)" -eq 4 ]; then
  ok "the local run: sweep tables, and 4 complete cells per point under cells/"
else notok "the local run"; fi

# GNU parallel, 3 cells per job
"$T" run "$@" --emit parallel --chunk 3 -o P >out 2>err
if [ "$(wc -l <P/jobs.txt)" -eq 3 ] && grep -q -- '--cells 6-7$' P/jobs.txt && grep -q '8 cells in 3 jobs' out &&
   [ ! -e P/episodes.csv ] && [ ! -e P/link-flap.mtbf=2/episodes.csv ]; then
  ok "--emit parallel: 8 cells in 3 job lines, nothing run"
else notok "--emit parallel"; fi
if command -v parallel >/dev/null 2>&1; then
  parallel --will-cite -j 2 <P/jobs.txt >/dev/null 2>err && "$T" merge -q P >/dev/null 2>>err && same P
  if [ $? -eq 0 ]; then ok "the GNU parallel job list, merged: the local run's outputs, byte for byte"
  else notok "the GNU parallel job list"; fi
else
  n=$((n + 1)); echo "ok $n # SKIP GNU parallel is not installed (./dev installs it)"
fi

# the Slurm array, each task run with its SLURM_ARRAY_TASK_ID
"$T" run "$@" --emit slurm -o S >/dev/null 2>err
tasks=$(sed -n 's/^#SBATCH --array=0-\([0-9]*\)$/\1/p' S/slurm/array.sbatch)
grep -q 'afterok' S/slurm/submit.sh && [ "$tasks" = 7 ]
rc=$?
for i in $(seq 0 "${tasks:-0}"); do SLURM_ARRAY_TASK_ID=$i sh S/slurm/array.sbatch >/dev/null 2>>err || rc=1; done
[ $rc -eq 0 ] && sh S/slurm/merge.sbatch >/dev/null 2>>err && same S
if [ $? -eq 0 ]; then ok "the Slurm array (8 tasks) and its merge job: the local run's outputs, byte for byte"
else notok "the Slurm array"; fi

# a merge with cells missing: refused, the missing cells named, nothing written
"$T" run "$@" --emit parallel --chunk 3 -o M >/dev/null 2>err
sh -c "$(sed -n 1p M/jobs.txt)" 2>err
"$T" merge -q M >/dev/null 2>err
rc=$?
if [ $rc -eq 1 ] && grep -q 'mtbf=0.5: 1 of 4 cells are not complete' err && grep -q 'rlvr-seed2.sum: missing' err &&
   [ ! -e M/episodes.csv ] && [ ! -e M/link-flap.mtbf=2/episodes.csv ]; then
  ok "a merge with cells missing exits 1, names them and writes nothing"
else notok "a merge with cells missing: exit $rc"; fi

# a job run again (a resubmission) runs nothing
before=$(ls -l --time-style=+%s.%N M/link-flap.mtbf=0.5/cells/)
sh -c "$(sed -n 1p M/jobs.txt)" 2>err
if [ "$before" = "$(ls -l --time-style=+%s.%N M/link-flap.mtbf=0.5/cells/)" ]; then
  ok "a job run again leaves its complete cells as they are"
else notok "a job run again rewrote its cells"; fi

# killed halfway (the whole process group, as by Ctrl-C or a lost node), then the same command again
set -- sweep.xml -c trivium,rlvr --set run.seeds=3 --set run.episodes=1500 --sweep link-flap.mtbf=2,5
"$T" run "$@" -j 2 -q -o R >/dev/null 2>err
set -- "$@" --ctl K.ctl
setsid "$T" run "$@" -j 1 -q -o K >/dev/null 2>&1 &
pid=$!
i=0
while [ "$(ls K/link-flap.mtbf=2/cells/*.sum 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
kill -KILL -"$pid" 2>/dev/null
wait "$pid" 2>/dev/null
done_before=$(ls K/*/cells/*.sum 2>/dev/null | wc -l)
aside=0 # cells in flight at the kill whose log had been created: their logs are moved aside
for f in K/*/cells/*.started; do
  [ -e "$f" ] || continue
  point=$(basename "$(dirname "$(dirname "$f")")")
  [ -f "K.ctl/$point/$(basename "$f" .started).ctl" ] && aside=$((aside + 1))
done
stamps=$(for f in K/*/cells/*.sum; do stat -c '%n %Y %i' "$f"; done)
"$T" run "$@" -j 1 -o K >/dev/null 2>err
rc=$?
stamps_after=$(for f in $(echo "$stamps" | cut -d' ' -f1); do stat -c '%n %Y %i' "$f"; done)
if [ $rc -eq 0 ] && [ "$done_before" -ge 2 ] && [ "$done_before" -lt 12 ] && [ "$stamps" = "$stamps_after" ] &&
   grep -q "[0-9] of 6 cells complete already" err; then
  ok "a run killed with $done_before of 12 cells complete, run again: only the missing cells run"
else notok "resume: exit $rc, $done_before cells complete at the kill"; fi
identical=0
for f in sweep.csv sweep.md link-flap.mtbf=2/episodes.csv link-flap.mtbf=5/episodes.csv link-flap.mtbf=2/summary.csv \
         link-flap.mtbf=5/summary.md; do
  cmp -s "R/$f" "K/$f" && identical=$((identical + 1))
done
logs=$(ls K.ctl/*/*.ctl | wc -l)
moved=$(ls K.ctl/* | grep -c '\.ctl\.interrupted$')
if [ $identical -eq 6 ] && [ "$logs" -eq 6 ] && [ "$moved" -eq "$aside" ]; then
  ok "the resumed run's outputs are the uninterrupted run's; every log kept, $moved interrupted one moved aside"
else notok "the resumed run: $identical of 6 files identical, $logs logs, $moved of $aside moved aside"; fi

# cells of another configuration are not reused: the run is done again
set -- sweep.xml -c trivium,rlvr --set run.seeds=2 --sweep link-flap.mtbf=0.5,2
"$T" run "$@" --set run.episodes=31 -j 2 -o L >/dev/null 2>err
rows=$(($(wc -l <L/link-flap.mtbf=2/episodes.csv) - 1))
if [ "$rows" -eq 124 ] && ! grep -q 'complete already' err; then
  ok "another configuration in the same directory: every cell runs again (124 rows)"
else notok "another configuration: $rows rows"; fi

# a damaged cell is refused at the merge, naming the file
"$T" run "$@" --set run.episodes=30 --emit parallel -o D >/dev/null 2>&1
sh -c "$(sed -n 's/--cells 0-0$/--cells 0-7/p;q' D/jobs.txt)" 2>err
printf 'x' | dd of=D/link-flap.mtbf=0.5/cells/rlvr-seed2.csv bs=1 seek=100 conv=notrunc 2>/dev/null
"$T" merge -q D >/dev/null 2>err
rc=$?
if [ $rc -eq 2 ] && [ "$(err_lines err)" -eq 1 ] && grep -q 'rlvr-seed2.csv: damaged' err; then
  ok "a damaged cell: one line naming it, exit 2"
else notok "a damaged cell: exit $rc"; fi

# the manifest cannot choose where the merge writes, nor create a log directory
sed 's|"command" : \[|"command" : [ "run", "-o", "'"$tmp"'/elsewhere", "--ctl", "'"$tmp"'/logs",|; s|\[ "run", "-o"|[ "run", "-o"|' \
  P/jobs.json >j.json
sed -i '0,/"run",$/{/"run",$/d}' j.json
mkdir -p P2 && cp -r P/link-flap.mtbf=0.5 P/link-flap.mtbf=2 P2/ && cp j.json P2/jobs.json
"$T" merge -q P2 >/dev/null 2>err
rc=$?
if [ $rc -eq 0 ] && [ ! -e elsewhere ] && [ ! -e logs ] && [ -f P2/sweep.csv ]; then
  ok "a manifest naming -o and --ctl elsewhere: the merge writes in its own directory only"
else notok "a manifest naming -o elsewhere: exit $rc"; fi

exit2() {
  d=$1 want=$2
  shift 2
  "$@" >/dev/null 2>err
  rc=$?
  if [ $rc -eq 2 ] && [ "$(err_lines err)" -eq 1 ] && grep -q -- "$want" err; then ok "$d"
  else notok "$d: exit $rc"; fi
}
exit2 "--cells past the run's cells: one line, exit 2" "the run has 8 cells (0-7)" \
  "$T" run sweep.xml -c trivium,rlvr --set run.seeds=2 --set run.episodes=30 --sweep link-flap.mtbf=0.5,2 -o X -q --cells 8-9
printf '{"format" : "trivium-jobs-1", "directory" : "relative", "command" : ["run"], "cells" : 1}' >X.json
mkdir -p X && cp X.json X/jobs.json
exit2 "a manifest with a relative directory: one line, exit 2" '"directory" is not an absolute path' "$T" merge X
