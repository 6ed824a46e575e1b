#!/bin/sh
# The project's skeleton of its protocol (bench/skeleton.c) does the same
# simulated work as `trivium run`: fed the schedule of a run's logs, the
# simulated time at which it closes every episode equals the run's
# (episodes.csv, sim_time), on a cell of the default world, with three log
# replicas, with 8 independent agents whose probe steps outlast their
# step (scenarios/multi-agent.xml), and in a city of 300 drivers (one
# actor per tower steps its drivers; more than 256 plans and reports go
# through helper actors), where every driver's commit is also counted
# once and none fails; with 64 agents whose commits and plans crowd a
# 30 kB/s centre LAN (the waits that follow the load on the platform,
# plugin/sim/transfer.c), every commit still in; and the check notices a
# skeleton that places the probes by the budget rule instead of the run's schedule.  No
# timing: bench/skeleton-ratio.sh measures.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
S=${TRV_BUILDDIR:-.}/bench/skeleton
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..6"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; [ -f "$tmp/err" ] && sed 's/^/# /' "$tmp/err"; }
cd "$top" || exit 1

# run NAME SKELETON-ARGS -- TRIVIUM-ARGS: the run with its logs, the
# schedule, the skeleton's times; leaves $tmp/NAME.csv and $tmp/NAME.skel
run() {
  name=$1; shift
  sargs=
  while [ "$1" != -- ]; do sargs="$sargs $1"; shift; done
  shift
  "$T" run "$@" --figures none -j 1 -q -o "$tmp/$name" --ctl "$tmp/$name-ctl" >/dev/null 2>"$tmp/err" &&
    csv=$(find "$tmp/$name" -name episodes.csv | head -1) && cp "$csv" "$tmp/$name.csv" &&
    "$S" --schedule-from-ctl $(find "$tmp/$name-ctl" -name '*.ctl') > "$tmp/$name.schedule" 2>>"$tmp/err" &&
    "$S" $sargs --schedule "$tmp/$name.schedule" -v > "$tmp/$name.skel" 2>>"$tmp/err"
}
# the sim_time column against the skeleton's times, row by row
agree() {
  python3 - "$tmp/$1.csv" "$tmp/$1.skel" 2>>"$tmp/err" <<'PY'
import csv, sys
want = [r['sim_time'] for r in csv.DictReader(open(sys.argv[1]))]
got = [l.split()[5] for l in open(sys.argv[2]) if ' episode ' in l]
bad = [(i, a, b) for i, (a, b) in enumerate(zip(want, got)) if a != b]
if len(want) != len(got) or bad or not want:
    sys.exit(f"{len(want)} episodes, {len(got)} in the skeleton; first differences: {bad[:3]}")
PY
}

run cell --episodes 40 -- -c trivium --set run.seeds=1 --set run.episodes=40 && agree cell &&
  ok "one cell of the default world, 40 episodes: every episode closes at the run's simulated time" ||
  notok "one cell of the default world: the skeleton's simulated times differ from the run's"

run replicas --episodes 20 --replicas 3 -- -c trivium --set run.seeds=1 --set run.episodes=20 --set ctl.replicas=3 &&
  agree replicas && ok "three log replicas (a majority closes): the run's simulated times" ||
  notok "three log replicas: the skeleton's simulated times differ from the run's"

margs="--platform platforms/causalbench-multi.xml --agent-hosts agent-* --agents 8 --episodes 4 --step-seconds 0.01 --probe-flops 1e9"
run multi $margs -- scenarios/multi-agent.xml -c trivium --set run.seeds=1 --set run.episodes=4 --sweep=agents.count=8 &&
  agree multi && ok "8 agents, probe steps longer than a step: the run's simulated times" ||
  notok "8 agents: the skeleton's simulated times differ from the run's"

"$S" $margs -v > "$tmp/multi.skel" 2>"$tmp/err" && ! agree multi 2>/dev/null &&
  ok "the same skeleton without the run's schedule (probes by the budget rule) closes at other times" ||
  notok "a skeleton without the run's probe schedule still agrees: the check is blind to where probes go"

cargs="--platform platforms/urs-sf.xml --agent-hosts tower-* --agents 300 --steps 30 --episodes 3 --barrier --step-seconds 60"
run city $cargs -- scenarios/urs-smoke.xml -c trivium --set run.episodes=3 --set agents.count=300 && agree city &&
  awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) {if ($i == "commits") c = i; if ($i == "commit_failures") f = i}; next}
           $c != 300 || $f != 0 {bad++} END {exit bad || NR != 4}' "$tmp/city.csv" &&
  ok "a city of 300 drivers on 16 towers: the run's simulated times, 300 commits an episode, none failed" ||
  notok "a city of 300 drivers: the skeleton's simulated times differ from the run's, or commits were lost"

# the centre's LAN at 30 kB/s: the commits and plans of 64 agents take
# longer than ctl.timeout, and every wait that follows the load does so in both
sed 's/id="centre-lan" bandwidth="125MBps"/id="centre-lan" bandwidth="30kBps"/' platforms/causalbench-multi.xml \
  > "$tmp/slow.xml"
slargs="--platform $tmp/slow.xml --agent-hosts agent-* --agents 64 --episodes 3 --step-seconds 0.01 --probe-flops 1e9"
grep -q 'id="centre-lan" bandwidth="30kBps"' "$tmp/slow.xml" &&
  run slow $slargs -- scenarios/multi-agent.xml -c trivium --set run.seeds=1 --set run.episodes=3 \
    --sweep=agents.count=64 --platform "$tmp/slow.xml" && agree slow &&
  awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) {if ($i == "commits") c = i; if ($i == "commit_failures") f = i}; next}
           $c != 64 || $f != 0 {bad++} END {exit bad || NR != 4}' "$tmp/slow.csv" &&
  ok "64 agents on a 30 kB/s LAN (waits longer than ctl.timeout): the run's simulated times, every commit in" ||
  notok "64 agents on a slow LAN: the skeleton's simulated times differ from the run's, or commits were lost"
