#!/bin/sh
# One clock: simulated time is the world's time.  A URS step is a city
# minute, so 20 episodes of 30 minutes last at least 36,000 simulated
# seconds; a tower uplink down 10 minutes every hour (a fixed schedule, in
# the world's units) is down for exactly 10 of its driver's steps; a
# CausalBench-Seq step is a nominal second, and a probe that costs more
# than a step makes that step late (steps_late), one per probe; sim.clock
# compute gives back steps that last their work alone; agents that crowd
# their hosts make steps as long as their work, and the failure detector
# waits for that, not for the clock alone; a fleet that crowds its network
# is given the time its plans and commits take.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
T=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..8"
n=0
. "$top/tests/columns.sh"
total() { col "$1" "$2" | awk '{ k += $1 } END { print k + 0 }'; }

# 1. urs-smoke as shipped (one controller): 20 episodes of 30 city minutes
"$T" run -e urs-smoke -q -j1 -c rlvr -o "$tmp/smoke" 2> /dev/null
t=$(metric "$tmp/smoke" sim_time)
short=$(col "$tmp/smoke" sim_time | awk 'BEGIN { p = 0 } { if ($1 - p < 1800) k++; p = $1 } END { print k + 0 }')
n=$((n + 1))
if [ -n "$t" ] && awk -v t="$t" 'BEGIN { exit !(t >= 36000) }' && [ "$short" = 0 ]; then
  echo "ok $n - urs-smoke: 20 episodes of 30 city minutes last $t simulated seconds, none shorter than 1800 s"
else echo "not ok $n - urs-smoke lasts '$t' simulated seconds, $short episodes shorter than 1800 s"; fi

# 2. the same with sim.clock compute: steps last their work (the former clock)
"$T" run -e urs-smoke -q -j1 -c rlvr --set sim.clock=compute -o "$tmp/compute" 2> /dev/null
t=$(metric "$tmp/compute" sim_time)
n=$((n + 1))
if [ -n "$t" ] && awk -v t="$t" 'BEGIN { exit !(t > 0 && t < 600) }'; then
  echo "ok $n - sim.clock=compute: the same 20 episodes last $t simulated seconds"
else echo "not ok $n - sim.clock=compute: '$t' simulated seconds"; fi

# 3. tower-0's uplink down 10 minutes every hour: count the steps of its
# driver (agent 0 is on tower-0) that start in each outage it played through
# (from 15 minutes on, so that outages fall inside episodes of 30)
sed -e "s#\.\./platforms/urs-sf.xml#$top/platforms/urs-sf.xml#" \
    -e 's#<agents count="8" hosts="tower-\*"/>#<agents count="8" hosts="tower-*"/><faults><link-flap links="tower-0-uplink" mtbf="50min" mttr="10min" up="fixed" down="fixed" start="15min"/></faults>#' \
    "$top/scenarios/urs-smoke.xml" > "$tmp/flap.xml"
"$T" run "$tmp/flap.xml" -q -j1 -c rlvr -o "$tmp/flap" --log=trivium_clock.thres:debug \
  --log=trivium_faults.thres:info 2> "$tmp/log"
awk '
  /trivium_faults\/INFO\] link tower-0-uplink down/ { t = $2; sub(/\]$/, "", t); d[++nd] = t + 0 }
  /trivium_faults\/INFO\] link tower-0-uplink up/ { t = $2; sub(/\]$/, "", t); u[++nu] = t + 0 }
  /trivium_clock\/DEBUG\] agent 0 episode/ { s[++ns] = $NF + 0; e[ns] = $(NF - 5) }
  END {
    full = 0; bad = 0
    for (k = 1; k <= nu; k++) {
      if (u[k] - d[k] != 600) { print "# outage " k " lasts " u[k] - d[k] " s"; bad++ }
      inside = 0; before = ""; after = ""
      for (i = 1; i <= ns; i++) {
        if (s[i] >= d[k] && s[i] < u[k]) inside++
        if (s[i] < d[k] && s[i] >= d[k] - 60) before = e[i]
        if (s[i] >= u[k] && s[i] < u[k] + 60) after = e[i]
      }
      if (before != "" && before == after) {
        full++
        if (inside != 10) { print "# outage " k " (" d[k] " s): " inside " steps"; bad++ }
      }
    }
    print full, bad, nu
  }' "$tmp/log" > "$tmp/count"
read -r full bad outages < "$tmp/count"
n=$((n + 1))
if [ "${full:-0}" -ge 2 ] && [ "${bad:-1}" = 0 ]; then
  echo "ok $n - down 10 minutes every hour: $outages outages of 600 s, 10 of the driver's steps in each of the $full it played through"
else echo "not ok $n - $full outages played through, $bad wrong"; grep '^#' "$tmp/count"; fi

# 4. every tower cut off for the first 2 hours: the 4 episodes nobody
# plays still last their 30 city minutes each (an empty round is not free)
"$T" run -e urs-smoke -q -j1 -c rlvr --fault 'partition:tower-*:0:2h' -o "$tmp/cut" 2> /dev/null
gaps=$(col "$tmp/cut" sim_time | awk 'BEGIN { p = 0 } { printf "%d ", $1 - p; p = $1 }')
empty=$(metric "$tmp/cut" uncommitted_episodes)
n=$((n + 1))
if [ "$empty" = 4 ] && echo "$gaps" | awk '{ for (i = 1; i <= NF; i++) if ($i < 1800) bad = 1 } END { exit bad || NF != 20 }'; then
  echo "ok $n - towers cut off for 2 h: 4 episodes with nobody, each still 1800 s of the world's time"
else echo "not ok $n - uncommitted episodes $empty, durations $gaps"; fi

# 5-6. CausalBench-Seq: 50 steps of a nominal second; a probe of 1e9 flops
# (1 s on its 1 Gflop/s host, plus the step's 1e6) outlasts its step
"$T" run -q -j1 -c trivium --set run.seeds=1 --set run.episodes=10 -o "$tmp/cb" 2> /dev/null
short=$(col "$tmp/cb" sim_time | awk 'BEGIN { p = 0 } { if ($1 - p < 50) k++; p = $1 } END { print k + 0 }')
late=$(metric "$tmp/cb" steps_late)
n=$((n + 1))
if [ "$short" = 0 ] && [ "$late" = 0 ]; then
  echo "ok $n - CausalBench-Seq: no episode shorter than its 50 one-second steps, no step late"
else echo "not ok $n - $short episodes shorter than 50 s, $late steps late"; fi
"$T" run -q -j1 -c trivium --set run.seeds=1 --set run.episodes=10 --set sim.probe_flops=1e9 -o "$tmp/cb9" 2> /dev/null
col "$tmp/cb9" probes > "$tmp/p"
col "$tmp/cb9" steps_late > "$tmp/l"
mismatch=$(paste -d' ' "$tmp/p" "$tmp/l" | awk '$1 != $2 { k++ } END { print k + 0 }')
probes=$(metric "$tmp/cb9" probes)
n=$((n + 1))
if [ "$mismatch" = 0 ] && [ "${probes%.*}" -gt 0 ]; then
  echo "ok $n - probes of 1 s in steps of 1 s: every episode has one late step per probe ($probes probes)"
else echo "not ok $n - $mismatch episodes where steps_late differs from probes"; fi

# 7. 64 agents on 16 one-core hosts of 1 Gflop/s, 4e8 flops a step: each
# step lasts 4 x 0.4 s, an episode's 50 steps 80 s, more than the clock's
# 0.5 s plus sim.episode_timeout (60 s).  D follows the hosts' work:
# the first deadline is 80 + 60 s, and no commit fails (with D from the
# clock alone every episode closed at 60.5 s, all 64 commits failed).
"$T" run "$top/scenarios/multi-agent.xml" -q -j1 -c trivium --set run.seeds=1 --set run.episodes=3 \
  --sweep=agents.count=64 --set sim.step_flops=4e8 --figures none -o "$tmp/crowd" 2> /dev/null
d="$tmp/crowd/agents.count=64"
first=$(col "$d" detector_timeout | head -1)
failed=$(total "$d" commit_failures)
closed=$(total "$d" detector_closed)
long=$(col "$d" sim_time | awk 'BEGIN { p = 0 } { if ($1 - p >= 80) k++; p = $1 } END { print k + 0 }')
n=$((n + 1))
if [ "$first" = 140 ] && [ "$failed" = 0 ] && [ "$closed" = 0 ] && [ "$long" = 3 ]; then
  echo "ok $n - 4 agents a host, 0.4 s of work each a step: episodes of 80 s, a first deadline of 140 s, no commit failed"
else echo "not ok $n - first deadline '$first', $failed commits failed, $closed episodes closed by the detector, $long of 80 s or more"; fi

# 8. The same 64 agents (no step work) with the centre LAN at 30 kBps: their
# 64 commits of 64 + 50 x 128 bytes share it, 13.8 s together, and the
# plans about 0.8 s.  A commit attempt waits twice the crowd's time
# (27.6 s, not ctl.timeout), the plans' first delivery likewise, and the
# detector adds what is waited beyond ctl.timeout and the plans' second:
# no commit fails, no retry, no episode closed by the detector.  (With
# waits fixed at ctl.timeout and the second, no plan arrived and every
# episode closed at 60.5 s.)
sed 's/id="centre-lan" bandwidth="125MBps"/id="centre-lan" bandwidth="30kBps"/' \
  "$top/platforms/causalbench-multi.xml" > "$tmp/slow-lan.xml"
"$T" run "$top/scenarios/multi-agent.xml" -q -j1 -c trivium --set run.seeds=1 --set run.episodes=3 \
  --sweep=agents.count=64 --platform "$tmp/slow-lan.xml" --figures none -o "$tmp/lan" 2> /dev/null
d="$tmp/lan/agents.count=64"
first=$(col "$d" detector_timeout | head -1)
failed=$(total "$d" commit_failures)
tries=$(total "$d" commit_attempts)
closed=$(total "$d" detector_closed)
n=$((n + 1))
# D = 0.5 s of steps + 27.58 - 5 s of the commit's wait; margin 60 s; plans' extra > 0
if grep -q 'id="centre-lan" bandwidth="30kBps"' "$tmp/slow-lan.xml" && [ "$failed" = 0 ] && [ "$tries" = 192 ] && [ "$closed" = 0 ] &&
  awk -v f="$first" 'BEGIN { exit !(f > 0.5 + 22.58 + 60 && f < 0.5 + 22.59 + 60 + 2) }'; then
  echo "ok $n - 64 agents on a 30 kBps LAN: first deadline $first s, 192 commits in one attempt each, none failed"
else echo "not ok $n - 30 kBps LAN: first deadline '$first', $failed commits failed, $tries attempts, $closed episodes closed by the detector"; fi
