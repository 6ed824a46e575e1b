#!/bin/sh
# trivium validate has SimGrid's own parser load the platform: a platform
# the scenario loader reads but SimGrid refuses (a <cluster> beside <host>
# elements in a routing="Full" zone) is refused on one line naming
# SimGrid's complaint, exit 2, as the run refuses it; every shipped
# scenario still validates.  On a platform of a <cluster>, whose links
# only SimGrid names (c_link_N_UP, ...), a link-flap pattern and a fault
# trace's link lines are checked against the links SimGrid built: one that
# matches a cluster link passes, one that matches none is one line,
# FILE:LINE with the links there are, exit 2.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..6"
. "$top/tests/err-lines.sh"
"$T" validate "$top/tests/scenarios/cluster-beside-hosts.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
   grep -q "cluster-beside-hosts.xml: SimGrid refused the platform .*cluster-beside-hosts-platform.xml: .*<cluster> is not allowed here" "$tmp/err"; then
  echo "ok 1 - validate refuses a platform SimGrid refuses, one line with SimGrid's reason, exit 2"
else
  echo "not ok 1 - exit $rc"; sed 's/^/# /' "$tmp/out" "$tmp/err"
fi
"$T" run "$top/tests/scenarios/cluster-beside-hosts.xml" -q -o "$tmp/r" -c trivium --set run.seeds=1 \
  --set run.episodes=2 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "<cluster> is not allowed here" "$tmp/err"; then
  echo "ok 2 - the run refuses it with the same reason (exit 2)"
else
  echo "not ok 2 - exit $rc"; sed 's/^/# /' "$tmp/err"
fi
"$T" validate "$top"/scenarios/*.xml >"$tmp/out" 2>"$tmp/err"
rc=$?
n=$(ls "$top"/scenarios/*.xml | wc -l)
if [ $rc -eq 0 ] && [ "$(grep -c ': ok (' "$tmp/out")" -eq "$n" ]; then
  echo "ok 3 - every shipped scenario's platform loads in SimGrid ($n scenarios ok)"
else
  echo "not ok 3 - exit $rc"; sed 's/^/# /' "$tmp/err" | head
fi
# a cluster's links: SimGrid names them c_link_N_UP, c_link_N_DOWN, c_backbone
mkdir -p "$tmp/cl/faults"
cat >"$tmp/cl/cluster.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" radical="0-3" suffix="" speed="1Gf" bw="125MBps" lat="50us" bb_bw="2.25GBps" bb_lat="500us"/>
</platform>
XML
scenario() { # file, then the fault element
  cat >"$tmp/cl/$1" <<XML
<?xml version="1.0"?>
<trivium-scenario version="1">
  <platform file="cluster.xml">
    <role name="controller" hosts="node-0"/>
    <role name="ctl" hosts="node-1"/>
    <role name="agent" hosts="node-2,node-3"/>
  </platform>
  <world name="causalbench"/>
  <controllers names="trivium"/>
  <run episodes="20" seeds="1"/>
  <faults>
    $2
  </faults>
</trivium-scenario>
XML
}
scenario good.xml '<link-flap links="c_link_[23]_*" mtbf="60" mttr="5"/>'
scenario bad.xml '<link-flap links="node-*-uplink" mtbf="60" mttr="5"/>'
scenario trace.xml '<fault-trace file="faults/cut.trace"/>'
printf '10 c_link_2_UP down\n20 c_link_2_UP up\n30 c_lnk_3_UP down\n' >"$tmp/cl/faults/cut.trace"
"$T" validate "$tmp/cl/good.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q 'good.xml: ok (world causalbench, 1 controller, 20 episodes x 1 seed, 1 fault' "$tmp/out" &&
   [ "$(err_lines "$tmp/err")" -eq 0 ]; then
  echo "ok 4 - a link-flap pattern matching a cluster's links (c_link_[23]_*) validates"
else
  echo "not ok 4 - exit $rc"; sed 's/^/# /' "$tmp/out" "$tmp/err"
fi
"$T" validate "$tmp/cl/bad.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(err_lines "$tmp/err")" -eq 1 ] &&
   grep -q "^$tmp/cl/bad.xml:12: link-flap pattern 'node-\*-uplink' matches no link of $tmp/cl/cluster.xml as SimGrid builds it; expected one of its links: c_backbone, c_link_0_DOWN, c_link_0_UP, .* (10 in all)$" "$tmp/err"; then
  echo "ok 5 - a link-flap pattern matching none of a cluster's links: FILE:LINE and the links SimGrid built, exit 2"
else
  echo "not ok 5 - exit $rc"; sed 's/^/# /' "$tmp/out" "$tmp/err"
fi
"$T" validate "$tmp/cl/trace.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(err_lines "$tmp/err")" -eq 1 ] &&
   grep -q "^$tmp/cl/trace.xml:12: fault trace 'faults/cut.trace' refused: $tmp/cl/faults/cut.trace:3: link 'c_lnk_3_UP' matches no link of .*; did you mean 'c_link_3_UP'?$" "$tmp/err"; then
  echo "ok 6 - a fault trace's link line matching none of a cluster's links: the trace's line, a suggestion, exit 2"
else
  echo "not ok 6 - exit $rc"; sed 's/^/# /' "$tmp/out" "$tmp/err"
fi
