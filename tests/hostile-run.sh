#!/bin/sh
# trivium run against hostile or careless input and a failing machine:
# every bad value is one line and exit 2, lost work is never silent, a run
# never overwrites or deletes a log, an interrupted or failed run is
# recognisable and leaves no half-written file under a final name, and
# memory does not grow with the episodes.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
T=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/json-compact.sh"
. "$top/tests/err-lines.sh"
echo "1..29"
n=0
# $1 description, then the command; passes when it exits 2 with one line on stderr
exit2() {
  d=$1
  shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  n=$((n + 1))
  lines=$(grep -c . "$tmp/err")
  if [ $rc -eq 2 ] && [ "$lines" -eq 1 ]; then echo "ok $n - $d: exit 2, one line"
  else echo "not ok $n - $d: exit $rc, $lines lines"; head -5 "$tmp/err" | sed 's/^/# /'; fi
}
small="-q -c trivium --set run.seeds=1 --set run.episodes=5"
# shellcheck disable=SC2086
exit2 "--jobs 0" "$T" run $small -j0 -o "$tmp/a"
# shellcheck disable=SC2086
exit2 "--sweep twice (GLib would keep the last)" "$T" run $small --sweep agents.count=1,2 --sweep=run.steps=5,6 -o "$tmp/s2"
n=$((n + 1))
if [ ! -e "$tmp/s2" ] && grep -q "sweep given 2 times; expected one" "$tmp/err"; then echo "ok $n - the refusal says why, nothing written"
else echo "not ok $n - $(cat "$tmp/err")"; fi
# shellcheck disable=SC2086
exit2 "a link-flap faster than a millisecond" "$T" run $small --fault 'link-flap:*:1e-300:1e-300' -o "$tmp/b"
# one range for a fault's times, wherever the value comes from: a scenario's <sweep>, --fault, --sweep; a bad
# --sweep value is refused before any point runs, not when its point comes
cat > "$tmp/flap.xml" <<XML
<?xml version="1.0"?>
<trivium-scenario version="1">
  <platform file="$top/platforms/causalbench.xml"/>
  <world name="causalbench"/>
  <faults><link-flap links="agent-*-uplink" mtbf="2" mttr="0.5"/></faults>
  <sweep param="link-flap.mtbf" values="2,1e-300"/>
</trivium-scenario>
XML
# shellcheck disable=SC2086
exit2 "--sweep link-flap.mtbf=2,1e-300" timeout 120 "$T" run $small --fault 'link-flap:*:1:1' --sweep link-flap.mtbf=2,1e-300 -o "$tmp/b2"
cp "$tmp/err" "$tmp/sweep.err"
# shellcheck disable=SC2086
"$T" run $small --fault 'link-flap:*:1e-300:1' -o "$tmp/b3" >/dev/null 2>"$tmp/fault.err"
# shellcheck disable=SC2086
"$T" run $small "$tmp/flap.xml" -o "$tmp/b4" >/dev/null 2>"$tmp/scenario.err"
range='expected a number of simulated seconds in \[0.001, 1e+09\]'
n=$((n + 1))
if [ ! -e "$tmp/b2" ] && grep -q "1e-300'; $range" "$tmp/sweep.err" && grep -q "1e-300'; $range" "$tmp/fault.err" &&
   grep -q "1e-300' of link-flap.mtbf; $range" "$tmp/scenario.err"; then
  echo "ok $n - mtbf 1e-300 refused alike from --sweep (before any point runs), --fault and a scenario's <sweep>"
else echo "not ok $n - the refusals:"; cat "$tmp/sweep.err" "$tmp/fault.err" "$tmp/scenario.err" | sed 's/^/# /'; fi
# what a user gave is quoted printable: an escape sequence in a value never reaches the terminal raw
esc=$(printf '\033[2J')
"$T" run -q --set run.seeds=1 --set "run.episodes=5$esc" -c "trivium,x$esc" --fault "y$esc" -o "$tmp/q" \
  >/dev/null 2>"$tmp/q.err"
rc1=$?
"$T" run -q --set run.seeds=1 --sweep "run.episodes=1,x$esc" -o "$tmp/q" >/dev/null 2>"$tmp/q2.err"
rc2=$?
"$T" run -q --set "run.episodes=5$esc" --sweep "run.episodes=1,x$esc" -o "$tmp/q" >/dev/null 2>>"$tmp/q2.err"
rc3=$?
n=$((n + 1))
if [ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && [ $rc3 -eq 2 ] && [ "$(grep -c . "$tmp/q.err")" -eq 1 ] && grep -q 'x\\x1b\[2J' "$tmp/q2.err" &&
   ! grep -q "$(printf '\033')" "$tmp/q.err" "$tmp/q2.err"; then
  echo "ok $n - an escape sequence in a value is written as \\x1b in the one line that refuses it"
else echo "not ok $n - exit $rc1, $rc2, $rc3"; od -c "$tmp/q.err" "$tmp/q2.err" | head -5 | sed 's/^/# /'; fi
# shellcheck disable=SC2086
exit2 "an unknown SimGrid --cfg" "$T" run $small --cfg=bogus/key:1 -o "$tmp/c"
# shellcheck disable=SC2086
exit2 "an invalid SimGrid model" "$T" run $small --cfg=network/model:Foo -o "$tmp/d"
# SimGrid takes parallel actors; a cell refuses them (its actors share the world and the log)
# shellcheck disable=SC2086
exit2 "actors on two threads (--cfg=contexts/nthreads:2)" "$T" run $small --cfg=contexts/nthreads:2 -o "$tmp/d2"
# shellcheck disable=SC2086
exit2 "actor stacks of 4 KiB (--cfg=contexts/stack-size:4)" "$T" run $small --cfg=contexts/stack-size:4 -o "$tmp/d3"
# a --set of a swept parameter would run every point with one value under the points' labels
exit2 "--set of the scenario's swept parameter" "$T" run "$top/scenarios/multi-agent.xml" --set agents.count=4 -q -o "$tmp/d4"
exit2 "--set and --sweep of one parameter" "$T" run "$top/scenarios/multi-agent.xml" --set agents.count=4 \
  --sweep=agents.count=2,3 -q -o "$tmp/d5"
# shellcheck disable=SC2086
"$T" run $small --cfg=contexts/nthreads:2 -o "$tmp/d2" >/dev/null 2>"$tmp/err"
n=$((n + 1))
if grep -q 'contexts/nthreads is 2' "$tmp/err" && [ ! -e "$tmp/d2/episodes.csv" ]; then
  echo "ok $n - the refusal names contexts/nthreads, before any cell runs"
else echo "not ok $n - the refusal: $(head -c 200 "$tmp/err")"; fi
# shellcheck disable=SC2086
exit2 "a platform SimGrid cannot read" "$T" run $small --platform "$top/README.md" -o "$tmp/e"

# a log is never overwritten: a second run into the same --ctl directory stops before running
# shellcheck disable=SC2086
"$T" run $small --ctl "$tmp/ctl" -o "$tmp/f1" >/dev/null 2>&1
sum1=$(cksum < "$tmp/ctl/trivium-seed1.ctl")
# shellcheck disable=SC2086
exit2 "a second run into the same --ctl directory" "$T" run $small --ctl "$tmp/ctl" -o "$tmp/f2"
n=$((n + 1))
if [ "$(cksum < "$tmp/ctl/trivium-seed1.ctl")" = "$sum1" ] && [ ! -e "$tmp/f2/run.json" ]; then
  echo "ok $n - the earlier log is untouched and nothing ran"
else echo "not ok $n - the earlier log changed or the run started"; fi

# lost work is never silent: every commit lost gives p_f = 1, a warning (without -q) and run.json's count
"$T" run -c trivium --set run.seeds=1 --set run.episodes=20 --fault 'link-flap:*:0.05:0.05' -o "$tmp/g" \
  >/dev/null 2>"$tmp/g.err"
n=$((n + 1))
pf=$(awk -F, '$2 == "p_f" {print $3}' "$tmp/g/summary.csv")
if [ "$pf" = 1 ] && grep -q 'in 20 of 20 episodes no agent' "$tmp/g.err" &&
   json_compact "$tmp/g/run.json" | grep -q '"uncommitted_episodes":20,'; then
  echo "ok $n - an unreachable log: p_f = 1, a warning, and run.json counts 20 uncommitted episodes"
else echo "not ok $n - p_f '$pf'"; sed 's/^/# /' "$tmp/g.err"; fi

# a full disk (a file-size limit): one line naming the file, exit 1, no half file left
( ulimit -f 20; "$T" run -q -c trivium --set run.seeds=1 --set run.episodes=400 -o "$tmp/h" >/dev/null 2>"$tmp/h.err" )
rc=$?
n=$((n + 1))
if [ $rc -eq 1 ] && grep -q 'too large\|No space' "$tmp/h.err" && [ ! -e "$tmp/h/episodes.csv" ] &&
   [ -z "$(ls "$tmp"/h/cells/*.sum 2>/dev/null)" ] && json_compact "$tmp/h/run.json" | grep -q '"status":"running"'; then
  echo "ok $n - a full disk: one message, exit 1, run.json says the run never completed, no partial outputs"
else echo "not ok $n - exit $rc"; sed 's/^/# /' "$tmp/h.err"; ls -a "$tmp/h" | sed 's/^/# /'; fi

# an interrupted run is recognisable: killed mid-way, no output under its final name but run.json "running"
"$T" run -q -c trivium,rlvr --set run.seeds=20 -j1 -o "$tmp/k" >/dev/null 2>&1 &
pid=$!
i=0
while [ ! -e "$tmp/k/run.json" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.5
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
n=$((n + 1))
if json_compact "$tmp/k/run.json" | grep -q '"status":"running"' && [ ! -e "$tmp/k/episodes.csv" ] && [ ! -e "$tmp/k/summary.csv" ]; then
  echo "ok $n - a killed run: run.json says running, no episodes.csv or summary under their names"
else echo "not ok $n - a killed run looks complete"; ls -a "$tmp/k" | sed 's/^/# /'; fi

# memory does not grow with the run (a shortened form of scripts/memory-bench.sh)
if [ "${TRIVIUM_SANITIZERS:-no}" = yes ]; then
  n=$((n + 1))
  echo "ok $n # SKIP memory is not measured under the sanitizers"
else
o1=$(TRIVIUM_SKELETON_DIR="$tmp/no-skeleton" "$T" bench -c trivium --set run.seeds=1 --set run.episodes=300 -j1)
r1=$(echo "$o1" | sed -n 's/^bench: max RSS \([0-9.]*\) MB (the largest cell).*/\1/p')
r2=$(TRIVIUM_SKELETON_DIR="$tmp/no-skeleton" "$T" bench -c trivium --set run.seeds=1 --set run.episodes=6000 -j1 | sed -n 's/^bench: max RSS \([0-9.]*\) MB (the largest cell).*/\1/p')
n=$((n + 1))
if awk -v a="$r1" -v b="$r2" 'BEGIN {exit !(a > 0 && b < 1.25 * a && b < 100)}'; then
  echo "ok $n - a cell's max RSS: $r1 MB at 300 episodes, $r2 MB at 6000"
else echo "not ok $n - max RSS $r1 MB at 300 episodes, $r2 MB at 6000"; fi
fi
n=$((n + 1))
if [ "${TRIVIUM_SANITIZERS:-no}" = yes ]; then
  echo "ok $n # SKIP bench is not run under the sanitizers"
elif echo "$o1" | grep -q '^bench: per episode [0-9.]* ms of CPU' &&
     echo "$o1" | grep -q '^bench: skeleton ratio not measured: no skeleton' &&
     echo "$o1" | awk '/^bench: controller / {found = 1; ok = $7 > 0 && $12 + 0 > 0 && $12 + 0 < 100} END {exit !(found && ok)}'; then
  echo "ok $n - bench reports CPU per episode and the controller's share of it (timed: above 0), and says when there is no skeleton to compare with"
else echo "not ok $n - bench output:"; echo "$o1" | sed 's/^/# /'; fi

# with the skeleton there, bench compares a city run whose agent hosts are
# named by pattern: the pattern picks the hosts the platform's properties
# give the role, so the skeleton places alike; a pattern that picks others
# is said not to be comparable
n=$((n + 1))
if [ "${TRIVIUM_SANITIZERS:-no}" = yes ]; then
  echo "ok $n # SKIP bench is not run under the sanitizers"
elif [ ! -f "$top/../shared/bench/skeleton.c" ] || ! pkg-config --exists simgrid; then
  echo "ok $n # SKIP no ../shared/bench/skeleton.c next to the source tree"
else
  o2=$(TRIVIUM_SKELETON_DIR="$top/../shared/bench" "$T" bench -e urs-smoke -c trivium --set run.seeds=1 --set run.episodes=4 -j1 2>&1)
  o3=$(TRIVIUM_SKELETON_DIR="$top/../shared/bench" "$T" bench -e urs-smoke -c trivium --set run.seeds=1 --set run.episodes=4 -j1 --role agent=tower-1,tower-2 2>&1)
  if echo "$o2" | awk '/^bench: skeleton \(/ {found = 1; ok = $0 ~ /Trivium [0-9.]+x of it \(figures apart\)$/} END {exit !(found && ok)}' &&
     echo "$o3" | grep -q '^bench: skeleton ratio not measured: roles by host name that the platform'; then
    echo "ok $n - bench gives the skeleton ratio of a run whose agent pattern is the platform's roles, and not of one whose pattern is not"
  else echo "not ok $n - bench outputs:"; echo "$o2" "$o3" | grep skeleton | sed 's/^/# /'; fi
fi

# a scenario's <ctl file> is inside the run's output directory, never through a link out of it
cat > "$tmp/ctl.xml" <<XML
<?xml version="1.0"?>
<trivium-scenario version="1">
  <platform file="$top/platforms/causalbench.xml"/>
  <world name="causalbench"/>
  <controllers names="trivium"/>
  <run episodes="5" seeds="1"/>
  <ctl file="logs/run.ctl"/>
</trivium-scenario>
XML
( cd "$tmp" && "$T" run -q ctl.xml -o out1 >/dev/null 2>&1 )
n=$((n + 1))
if [ -f "$tmp/out1/logs/run.ctl" ] && [ ! -e "$tmp/logs" ]; then echo "ok $n - the scenario's log is written inside the run's directory"
else echo "not ok $n - the scenario's log is not at out1/logs/run.ctl"; fi
mkdir -p "$tmp/out2" "$tmp/elsewhere"
ln -s "$tmp/elsewhere" "$tmp/out2/logs"
( cd "$tmp" && "$T" run -q ctl.xml -o out2 >/dev/null 2>"$tmp/ln.err" )
rc=$?
n=$((n + 1))
if [ $rc -eq 2 ] && [ -z "$(ls -A "$tmp/elsewhere")" ] && grep -q 'symbolic link' "$tmp/ln.err"; then
  echo "ok $n - a symbolic link in the run's directory does not lead the scenario's log out of it"
else echo "not ok $n - exit $rc"; sed 's/^/# /' "$tmp/ln.err"; fi
# a failed cell's message comes back through a file (cells/*.err): shown on one line, its control characters
# escaped (here a cell cannot create its log, whose name is too long, in a directory whose name holds an escape
# sequence), never raw
long=$(printf 'x%.0s' $(seq 1 251))
sed "s|logs/run.ctl|$long.ctl|; s|seeds=\"1\"|seeds=\"2\"|" "$tmp/ctl.xml" >"$tmp/long.xml"
esc=$(printf 'o\033[2Jut')
( cd "$tmp" && "$T" run -q long.xml -j1 -o "$esc" >/dev/null 2>"$tmp/esc.err" )
rc=$?
n=$((n + 1))
if [ $rc -eq 1 ] && [ "$(err_lines "$tmp/esc.err")" -eq 1 ] && grep -q 'o\\x1b\[2Jut/x*-trivium-seed1.ctl' "$tmp/esc.err" &&
   ! grep -q "$(printf '\033')" "$tmp/esc.err"; then
  echo "ok $n - a failed cell's message: one line, the escape sequence in it written as \\x1b"
else echo "not ok $n - exit $rc"; sed 's/^/# /' "$tmp/esc.err" | od -c | head -5; fi
# a platform that SimGrid would load as a library is refused before anything runs
exit2 "--platform naming a shared library" "$T" run $small --platform "$top/tests/scenarios/payload.so" -o "$tmp/so"

# a log unreachable for longer than 600 simulated seconds fails the run (exit 1), as documented
"$T" run -q -c trivium --set run.seeds=1 --set run.episodes=40 --fault host-crash:ctl:20:3500 -o "$tmp/outage" \
  >/dev/null 2>"$tmp/outage.err"
rc=$?
n=$((n + 1))
if [ $rc -eq 1 ] && grep -q 'no majority of the 1 log replicas answered for 600 simulated seconds' "$tmp/outage.err"; then
  echo "ok $n - a 3500 s log outage ends the run with exit 1 after 600 simulated seconds"
else echo "not ok $n - exit $rc"; sed 's/^/# /' "$tmp/outage.err"; fi

# fault processes last to the end of the run: a link that starts flapping at 1e5 s still fails commits
"$T" run -q -c trivium --set run.seeds=1 --set run.episodes=2200 --set sim.step_flops=1e9 \
  --fault 'link-flap:agent-0-uplink:20:2:100000' -o "$tmp/late" >/dev/null 2>&1
n=$((n + 1))
late=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) {if ($i == "commit_failures") f = i; if ($i == "sim_time") t = i}}
  NR > 1 && $f > 0 {n++; if ($t < 1e5) early++} END {print n + 0, early + 0}' "$tmp/late/episodes.csv")
if [ "${late% *}" -gt 0 ] && [ "${late#* }" -eq 0 ]; then
  echo "ok $n - a link-flap starting at 1e5 simulated seconds fails ${late% *} commits, all after it started"
else echo "not ok $n - failed commits (total, before 1e5 s): $late"; fi
