#!/bin/sh
# Trivium attached by SimGrid's plugin mechanism: tests/plugin-cfg.c is a
# program whose main() makes no Trivium call; --cfg=plugin:trivium attaches
# the plugin, its marked actors play their episodes, and
# --cfg=trivium/output:DIR writes the run's directory when the simulation
# ends, the same as the program attaching Trivium through the API.  A bad
# setting or a missing role ends the program at time 0 with one message and
# exit 2.  Actors the deployment starts later join late, in the slots
# agents.count leaves beyond the agents marked at the start.  TAP.
set -u
top=${srcdir:-..}
exe=tests/plugin-cfg
T=./trivium
plat=$top/examples/masterworker-platform.xml
dep=$top/tests/plugin-cfg-deployment.xml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/err-lines.sh"
echo "1..12"
# the program's stderr without SimGrid's notices of the --cfg settings
errs() { grep -v '\[xbt_cfg/INFO\]' "$1" > "$1.own"; err_lines "$1.own"; }
short="--cfg=trivium/run.episodes:20 --cfg=trivium/run.steps:10 --cfg=trivium/sim.clock:compute"

"$exe" "$plat" "$dep" --cfg=plugin:help > "$tmp/help" 2>&1
if grep -q '^  trivium: ' "$tmp/help"; then echo "ok 1 - --cfg=plugin:help lists trivium"
else echo "not ok 1 - trivium not in SimGrid's plugin list"; tail -3 "$tmp/help" | sed 's/^/# /'; fi

# shellcheck disable=SC2086
"$exe" "$plat" "$dep" --cfg=plugin:trivium $short "--cfg=trivium/output:$tmp/cfg" > "$tmp/cfg.out" 2> "$tmp/cfg.err"
rc=$?
rows=$(($(wc -l < "$tmp/cfg/episodes.csv" 2>/dev/null || echo 1) - 1))
if [ $rc -eq 0 ] && [ $rows -eq 20 ] && [ "$(grep -c ': 20 episodes, ' "$tmp/cfg.out")" -eq 2 ] &&
   [ "$(errs "$tmp/cfg.err")" -eq 0 ]; then
  echo "ok 2 - --cfg=plugin:trivium: both marked workers play the 20 episodes; output:DIR holds their 20 rows"
else echo "not ok 2 - exit $rc, $rows rows"; tail -3 "$tmp/cfg.err" | sed 's/^/# /'; fi

# shellcheck disable=SC2086
"$exe" "$plat" "$dep" --attach "$tmp/api" $short > "$tmp/api.out" 2> "$tmp/api.err"
if cmp -s "$tmp/cfg/episodes.csv" "$tmp/api/episodes.csv" &&
   [ "$(grep -v -e '"output"' -e '"command_line"' "$tmp/cfg/run.json" | cksum)" = \
     "$(grep -v -e '"output"' -e '"command_line"' "$tmp/api/run.json" | cksum)" ]; then
  echo "ok 3 - the same run attached through the API: episodes.csv and run.json identical"
else echo "not ok 3 - the two attachments differ"; diff "$tmp/cfg/run.json" "$tmp/api/run.json" | head -5 | sed 's/^/# /'; fi

if "$T" report -q "$tmp/cfg" > /dev/null 2> "$tmp/report.err" && [ -s "$tmp/cfg/summary.csv" ]; then
  echo "ok 4 - trivium report accepts the directory the plugin wrote"
else echo "not ok 4 - trivium report"; tail -3 "$tmp/report.err" | sed 's/^/# /'; fi

# fail early: a bad setting, a role with no host
"$exe" "$plat" "$dep" --cfg=plugin:trivium --cfg=trivium/run.episodes:0 "--cfg=trivium/output:$tmp/bad" \
  > "$tmp/bad.out" 2> "$tmp/bad.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(errs "$tmp/bad.err")" -eq 1 ] && grep -q '^\[[^]]* 0\.000000\] .*run\.episodes: 0 is out of range' "$tmp/bad.err" &&
   ! grep -q episodes "$tmp/bad.out" && [ ! -e "$tmp/bad" ]; then
  echo "ok 5 - a bad setting: one message at time 0 naming the key, exit 2, no actor of the program ran to its end"
else echo "not ok 5 - exit $rc"; sed 's/^/# /' "$tmp/bad.err" | tail -4; fi
"$exe" "$plat" "$dep" --cfg=plugin:trivium '--cfg=trivium/role.ctl:nohost*' > "$tmp/role.out" 2> "$tmp/role.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(errs "$tmp/role.err")" -eq 1 ] && grep -q "role ctl: no host matches 'nohost\*'" "$tmp/role.err"; then
  echo "ok 6 - a role with no host: one message naming the role, exit 2"
else echo "not ok 6 - exit $rc"; sed 's/^/# /' "$tmp/role.err" | tail -4; fi

# not attached: the agents' calls say so once and return NULL
"$exe" "$plat" "$dep" > "$tmp/none.out" 2> "$tmp/none.err"
rc=$?
if [ $rc -eq 0 ] && [ "$(errs "$tmp/none.err")" -eq 1 ] && grep -q 'Trivium is not attached' "$tmp/none.err" &&
   [ "$(grep -c ': 0 episodes, ' "$tmp/none.out")" -eq 2 ]; then
  echo "ok 7 - without the plugin: one warning that Trivium is not attached, the program runs"
else echo "not ok 7 - exit $rc"; sed 's/^/# /' "$tmp/none.err" | tail -3; fi

# attached with nowhere to write: a warning at the end
# shellcheck disable=SC2086
"$exe" "$plat" "$dep" --cfg=plugin:trivium $short > "$tmp/noout.out" 2> "$tmp/noout.err"
rc=$?
if [ $rc -eq 0 ] && [ "$(errs "$tmp/noout.err")" -eq 1 ] && grep -q 'no --cfg=trivium/output:DIR' "$tmp/noout.err"; then
  echo "ok 8 - attached without output: one warning that the episodes are not written"
else echo "not ok 8 - exit $rc"; sed 's/^/# /' "$tmp/noout.err" | tail -3; fi

# late join: worker-3 and worker-4 start at 2 s; agents.count = 3 leaves one slot
# shellcheck disable=SC2086
"$exe" "$plat" "$top/tests/plugin-cfg-late-deployment.xml" --cfg=plugin:trivium $short --cfg=trivium/run.episodes:40 \
  --cfg=trivium/agents.count:3 "--cfg=trivium/output:$tmp/late" > "$tmp/late.out" 2> "$tmp/late.err"
rc=$?
from=$(sed -n 's/^worker-3: [0-9]* episodes, agent 2 from episode \([0-9]*\),.*/\1/p' "$tmp/late.out")
col() { awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) print i; exit }' "$tmp/late/episodes.csv"; }
if [ $rc -eq 0 ] && [ -n "$from" ] && [ "$from" -gt 0 ] &&
   awk -F, -v e="$from" -v c="$(col commits)" -v f="$(col commit_failures)" \
     'NR > 1 { n++; if ($c != ($3 < e ? 2 : 3) || $f != 0) bad = 1 } END { exit bad || n != 40 }' "$tmp/late/episodes.csv" &&
   grep -q '^worker-4: 0 episodes' "$tmp/late.out" && [ "$(grep -c 'joins no agent: every slot is taken' "$tmp/late.err")" -eq 1 ]; then
  echo "ok 9 - a late worker joins as agent 2 at episode $from: 2 commits an episode before, 3 from then on, none failed; a second finds no slot (one warning)"
else echo "not ok 9 - exit $rc, joined at '$from'"; grep -v xbt_cfg "$tmp/late.err" | tail -3 | sed 's/^/# /'; fi

# a shared city (URS, agents stepping together) after one of its two agents
# left: the episodes go on at their pace, not waiting for the agent gone
"$exe" "$plat" "$top/tests/plugin-cfg-leave-deployment.xml" --cfg=plugin:trivium --cfg=trivium/world:urs \
  --cfg=trivium/sim.clock:compute --cfg=trivium/run.episodes:10 "--cfg=trivium/output:$tmp/leave" \
  > "$tmp/leave.out" 2> "$tmp/leave.err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^worker-1: 3 episodes' "$tmp/leave.out" && grep -q '^worker-2: 10 episodes' "$tmp/leave.out" &&
   awk -F, -v t="$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "sim_time") print i; exit }' "$tmp/leave/episodes.csv")" \
     'NR > 1 { d = $t - prev; prev = $t; if ($3 < 3) { if (d > before) before = d } else if (d > after) after = d; n++ }
      END { printf "# longest episode %.3f s before the leave, %.3f s after\n", before, after; exit !(n == 10 && after < 3 * before) }' \
     "$tmp/leave/episodes.csv"; then
  echo "ok 10 - a shared city after an agent left: no episode waits for it (each within 3x the longest before)"
else echo "not ok 10 - exit $rc"; grep -v xbt_cfg "$tmp/leave.err" | tail -3 | sed 's/^/# /'; fi

# an agent busy with its own work when the plan comes (worker-1 computes
# 5 s before each episode) does not hold up the others' commits: the
# controller takes worker-2's report while worker-1's plan waits
"$exe" "$plat" "$top/tests/plugin-cfg-busy-deployment.xml" --cfg=plugin:trivium $short --cfg=trivium/run.episodes:10 \
  > "$tmp/busy.out" 2> "$tmp/busy.err"
rc=$?
longest=$(sed -n 's/^worker-2: 10 episodes, .*longest commit \([0-9.]*\) s$/\1/p' "$tmp/busy.out")
if [ $rc -eq 0 ] && [ -n "$longest" ] && grep -q '^worker-1: 10 episodes' "$tmp/busy.out" &&
   awk -v l="$longest" 'BEGIN { exit !(l < 2) }'; then
  echo "ok 11 - a busy agent's plan does not hold up the other's commit (longest $longest s, the busy one computes 5 s)"
else echo "not ok 11 - exit $rc, worker-2's longest commit '$longest' s"; grep -v xbt_cfg "$tmp/busy.err" | tail -3 | sed 's/^/# /'; fi

# a program compiled against another interface of the headers: stopped at time 0
"$exe" "$plat" "$dep" --attach "$tmp/abi" --abi 2 > "$tmp/abi.out" 2> "$tmp/abi.err"
rc=$?
if [ $rc -eq 2 ] && grep -q "^plugin-cfg: this program was compiled against Trivium's headers of interface 2, and the library" "$tmp/abi.err" &&
   ! grep -q 'episodes,' "$tmp/abi.out" && [ ! -e "$tmp/abi" ]; then
  echo "ok 12 - a program of another header interface: the simulation stops at time 0, exit 2 naming both interfaces"
else echo "not ok 12 - exit $rc"; grep -v xbt_cfg "$tmp/abi.err" | tail -3 | sed 's/^/# /'; fi
