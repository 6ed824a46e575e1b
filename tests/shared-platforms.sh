#!/bin/sh
# The plugin on SimGrid platforms nobody here wrote (../shared/data/
# simgrid-platforms: the small platform, a 100-node cluster with a backbone,
# and the small platform whose hosts and links fail on their own state
# profiles), roles mapped by a scenario; two agents, 30 episodes each.  TAP;
# skips cleanly when ../shared is absent.
set -u
T=${TRIVIUM:-./trivium}
data=${srcdir:-..}/../shared/data/simgrid-platforms
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..4"
n=0
run() { # name platform controller ctl agents
  n=$((n + 1))
  if [ ! -f "$data/$2" ]; then echo "ok $n - $1 # SKIP ../shared/data absent"; return; fi
  cat >"$tmp/$1.xml" <<XML
<?xml version="1.0"?>
<trivium-scenario version="1">
  <platform file="$(cd "$data" && pwd)/$2">
    <role name="controller" hosts="$3"/>
    <role name="ctl" hosts="$4"/>
    <role name="agent" hosts="$5"/>
  </platform>
  <world name="causalbench"/>
  <controllers names="trivium"/>
  <run episodes="30" seeds="1"/>
  <agents count="2"/>
</trivium-scenario>
XML
  if $T run "$tmp/$1.xml" -q -o "$tmp/out-$1" >"$tmp/$1.log" 2>&1 &&
     [ "$(($(wc -l <"$tmp/out-$1/episodes.csv") - 1))" -eq 30 ]; then
    echo "ok $n - $1: 30 episodes with roles mapped by the scenario"
  else
    echo "not ok $n - $1"; sed 's/^/# /' "$tmp/$1.log" | tail -5
  fi
}
run small small_platform.xml Tremblay Jupiter "Fafard,Ginette"
run cluster cluster_backbone.xml node-0.simgrid.org node-1.simgrid.org "node-2.simgrid.org,node-3.simgrid.org"
run failures small_platform_failures.xml Tremblay Bourassa "Fafard,Ginette"
# the failures platform: its hosts go down on their own profiles, and p_f says so
n=$((n + 1))
if [ ! -f "$data/small_platform_failures.xml" ]; then echo "ok $n - failures counted # SKIP ../shared/data absent"
else
  pf=$(awk -F, '$2 == "p_f" {print $3}' "$tmp/out-failures/summary.csv")
  if awk -v p="$pf" 'BEGIN {exit !(p > 0)}'; then echo "ok $n - failures: p_f = $pf counts the commits the platform's own failures lost"
  else echo "not ok $n - failures: p_f = '$pf' although the agents' hosts go down"; fi
fi
