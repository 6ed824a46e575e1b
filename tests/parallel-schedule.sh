#!/bin/sh
# The parallel scheduler end to end (trivium-parallel, schedule-parallel.c)
# on the multi-agent CausalBench-Seq scenario with expensive probes (1 s of
# compute on a 1 Gflop/s host) and short steps (0.01 s): with one agent it
# is IGScore, the same run to the last bit of simulated time; with three
# agents its run is shorter than IGScore's, whose budget mostly goes to one
# agent; and it reads the agents' speeds from the platform, so a host three
# times faster runs more of the probes.  scripts/paired-speedup.sh reads
# the sweep's seeds as summary.csv does.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
T=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..4"
n=0
. "$top/tests/columns.sh"
costly="--set sim.probe_flops=1e9 --set sim.step_seconds=0.01"

# shellcheck disable=SC2086
"$T" run "$top/scenarios/multi-agent.xml" -q -j2 -c trivium,trivium-parallel $costly --set run.seeds=2 \
  --set run.episodes=30 --sweep agents.count=1,3 -o "$tmp/run" 2> "$tmp/err"

# 1. one agent: every probe lengthens the episode alike, so the plan is IGScore's
one="$tmp/run/agents.count=1"
a=$(metric_of "$one" trivium sim_time) b=$(metric_of "$one" trivium-parallel sim_time)
ta=$(metric_of "$one" trivium t_id) tb=$(metric_of "$one" trivium-parallel t_id)
n=$((n + 1))
if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$ta" = "$tb" ]; then
  echo "ok $n - one agent: trivium-parallel runs as IGScore ($a simulated seconds, t_id $ta)"
else echo "not ok $n - one agent: sim_time $a (trivium) against $b (trivium-parallel), t_id $ta against $tb"
  sed 's/^/# /' "$tmp/err"; fi

# 2. three agents: the budget spread over the three agents' loads makes the run shorter
three="$tmp/run/agents.count=3"
a=$(metric_of "$three" trivium sim_time) b=$(metric_of "$three" trivium-parallel sim_time)
n=$((n + 1))
if [ -n "$a" ] && [ -n "$b" ] && awk -v a="$a" -v b="$b" 'BEGIN { exit !(b < 0.75 * a) }'; then
  echo "ok $n - three agents: trivium-parallel's 30 episodes take $b simulated seconds, IGScore's $a"
else echo "not ok $n - three agents: trivium-parallel takes '$b' simulated seconds, IGScore '$a'"; fi

# 3. agent-1 three times faster than agent-0: its probes take a third of the
# time, so it gets more of them (a late step is a probe: 0.33 s or 1 s of
# work in a step of 0.01 s)
sed 's/<host id="agent-1" speed="1Gf">/<host id="agent-1" speed="3Gf">/' "$top/platforms/causalbench-multi.xml" \
  > "$tmp/fast.xml"
# shellcheck disable=SC2086
"$T" run "$top/scenarios/multi-agent.xml" --platform "$tmp/fast.xml" -r 'agent=agent-[01]' -q -j1 \
  -c trivium-parallel $costly --set run.seeds=1 --set run.episodes=10 --sweep agents.count=2 -o "$tmp/fast" \
  --log=trivium_clock.thres:verbose 2> "$tmp/log"
slow=$(grep -c '^\[agent-0:.*late, ends' "$tmp/log") fast=$(grep -c '^\[agent-1:.*late, ends' "$tmp/log")
n=$((n + 1))
if [ "$fast" -ge $((2 * slow)) ] && [ "$slow" -gt 0 ]; then
  echo "ok $n - a host 3x faster runs $fast probes, the slower one $slow"
else echo "not ok $n - a host 3x faster runs $fast probes, the slower one $slow"; tail -5 "$tmp/log" | sed 's/^/# /'; fi

# 4. scripts/paired-speedup.sh: per-seed e_id and t_id whose means are summary.csv's
"$top/scripts/paired-speedup.sh" "$tmp/run" trivium > "$tmp/paired" 2>&1
row=$(grep '^| 3 | trivium-parallel |' "$tmp/paired")
e=$(metric_of "$three" trivium-parallel e_id) t=$(metric_of "$three" trivium-parallel t_id)
n=$((n + 1))
if [ -n "$row" ] && echo "$row" | awk -F'|' -v e="$e" -v t="$t" '{
     ok = $4 ~ /2 \/ 2/ && ($5 - e) ^ 2 < 1e-4 && ($6 - t) ^ 2 < (1e-3 * t) ^ 2 && $8 + 0 > 0 && $11 + 0 > 0
     exit !ok }'; then
  echo "ok $n - paired-speedup.sh: e_id $e and t_id $t as summary.csv has them"
else echo "not ok $n - paired-speedup.sh: '$row' against e_id $e, t_id $t"; sed 's/^/# /' "$tmp/paired"; fi
