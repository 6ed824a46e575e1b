#!/bin/sh
# A fault trace replayed end to end: scenarios/urs-smoke-outages.xml is the
# URS smoke run with faults/tower-outages.trace (tower-0's uplink down from
# 600 s to 1200 s, tower-1's from 25 to 40 minutes, tower-2 off from 70 to
# 80 minutes).  The fault driver turns each resource off and on exactly at
# the trace's times; tower-0's outage falls among its driver's steps (10 of
# them start in it), when no message crosses the link, and alone changes
# nothing; tower-1's spans the close of episode 0 and costs agent 1 its
# commit of episode 0 and its plan of episode 1, so p_f = 2/160; the same
# outages written as fixed link-flaps and a host-crash give the same
# episodes byte for byte; run.json records the trace's path and SHA-256,
# --replay-config reruns it and refuses a changed trace; a trace outside
# the scenario's directory or with a bad line is one line, exit 2.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
T=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/err-lines.sh"
. "$top/tests/json-compact.sh"
echo "1..8"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; }
metric() { awk -F, -v m="$2" '$2 == m { print $3 }' "$1/summary.csv"; }
# "EPISODE:COMMIT_FAILURES" of every episode with a failed commit
failures() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "episode") e = i; if ($i == "commit_failures") f = i }; next }
           $f > 0 { printf "%s%s:%s", s, $e, $f; s = " " } END { print "" }' "$1/episodes.csv"
}
# "STATE@TIME ..." of the fault driver's lines about resource $2 in log $1
events() {
  awk -v r="$2" '/trivium_faults\/INFO\] (link|host) / && $(NF - 1) == r { t = $2; sub(/\]$/, "", t); printf "%s%s@%s", s, $NF, t; s = " " }
                 END { print "" }' "$1"
}
trace=$top/scenarios/faults/tower-outages.trace
scenario=$top/scenarios/urs-smoke-outages.xml

# 1. trivium validate reads the trace
out=$("$T" validate "$scenario" 2>&1)
rc=$?
if [ $rc -eq 0 ] && echo "$out" | grep -q ': ok (world urs, 4 controllers, 20 episodes x 1 seed, 1 fault (6 events from a fault trace), no sweeps)$'; then
  ok "trivium validate: the scenario and its trace of 6 events"
else notok "validate: exit $rc: $out"; fi

# 2. the driver plays the trace at its times; tower-0's outage spans 10 of agent 0's steps
"$T" run "$scenario" -q -j1 -c trivium -o "$tmp/trace" --log=trivium_faults.thres:info \
  --log=trivium_clock.thres:debug 2> "$tmp/trace.log"
rc=$?
t0=$(events "$tmp/trace.log" tower-0-uplink)
t1=$(events "$tmp/trace.log" tower-1-uplink)
t2=$(events "$tmp/trace.log" tower-2)
steps=$(awk '/trivium_clock\/DEBUG\] agent 0 episode/ && $NF >= 600 && $NF < 1200 { k++ } END { print k + 0 }' "$tmp/trace.log")
if [ $rc -eq 0 ] && [ "$t0" = "down@600.000000 up@1200.000000" ] && [ "$t1" = "down@1500.000000 up@2400.000000" ] &&
   [ "$t2" = "off@4200.000000 on@4800.000000" ] && [ "$steps" = 10 ]; then
  ok "tower-0-uplink down exactly on [600 s, 1200 s) (10 of agent 0's steps start in it), tower-1-uplink on [1500, 2400), tower-2 off on [4200, 4800)"
else notok "exit $rc; tower-0-uplink '$t0', tower-1-uplink '$t1', tower-2 '$t2', agent 0's steps in the outage: $steps"; fi

# 3. against the run without faults: agent 1 loses its commit of episode 0 and its plan of episode 1
"$T" run "$top/scenarios/urs-smoke.xml" -q -j1 -c trivium -o "$tmp/base" 2> /dev/null
pf0=$(metric "$tmp/base" p_f) pf=$(metric "$tmp/trace" p_f)
f0=$(failures "$tmp/base") f=$(failures "$tmp/trace")
closes=$(metric "$tmp/trace" detector_closes)
if [ "$pf0" = 0 ] && [ -z "$f0" ] && [ "$pf" = 0.0125 ] && [ "$f" = "0:1 1:1" ] && [ "$closes" = 1 ]; then
  ok "p_f 0 without faults, 0.0125 (2 of 160 due commits: episodes 0 and 1) with the trace; the detector closed 1 episode"
else notok "p_f $pf0 -> $pf, commit failures '$f0' -> '$f', detector closes $closes"; fi

# 4. the same outages as fixed link-flaps and a host-crash: the same run, byte for byte
sed -e "s#\.\./platforms/urs-sf.xml#$top/platforms/urs-sf.xml#" \
    -e 's#<fault-trace file="faults/tower-outages.trace"/>#<link-flap links="tower-0-uplink" mtbf="600" mttr="600" stop="1200" up="fixed" down="fixed"/><link-flap links="tower-1-uplink" mtbf="25min" mttr="15min" stop="40min" up="fixed" down="fixed"/><host-crash host="tower-2" at="70min" duration="10min"/>#' \
    "$scenario" > "$tmp/faults.xml"
"$T" run "$tmp/faults.xml" -q -j1 -c trivium -o "$tmp/faults" 2> /dev/null
if cmp -s "$tmp/faults/episodes.csv" "$tmp/trace/episodes.csv" && cmp -s "$tmp/faults/summary.csv" "$tmp/trace/summary.csv"; then
  ok "the trace and the same outages as link-flaps and a host-crash: episodes.csv and summary.csv identical"
else notok "the trace's run differs from the same faults'"; diff "$tmp/faults/summary.csv" "$tmp/trace/summary.csv" | head -5 | sed 's/^/# /'; fi

# 5. tower-0's outage alone: down on [600, 1200), and the run is the run without faults
mkdir -p "$tmp/alone/faults"
printf '# tower-0 only\n600 tower-0-uplink down\n1200 tower-0-uplink up\n' > "$tmp/alone/faults/t0.trace"
sed -e "s#\.\./platforms/urs-sf.xml#$top/platforms/urs-sf.xml#" -e 's#faults/tower-outages.trace#faults/t0.trace#' \
  "$scenario" > "$tmp/alone/s.xml"
"$T" run "$tmp/alone/s.xml" -q -j1 -c trivium -o "$tmp/alone/out" --log=trivium_faults.thres:info 2> "$tmp/alone.log"
t0=$(events "$tmp/alone.log" tower-0-uplink)
if [ "$t0" = "down@600.000000 up@1200.000000" ] && cmp -s "$tmp/alone/out/episodes.csv" "$tmp/base/episodes.csv"; then
  ok "tower-0's outage alone falls between the messages of its driver: episodes.csv as without faults"
else notok "tower-0 alone: '$t0', episodes.csv $(cmp -s "$tmp/alone/out/episodes.csv" "$tmp/base/episodes.csv" && echo same || echo differs)"; fi

# 6. run.json records the trace; --replay-config reruns it, and refuses it changed
real=$(cd "$(dirname "$trace")" && pwd -P)/$(basename "$trace")
sum=$(sha256sum "$trace" | cut -d' ' -f1)
j=$(json_compact "$tmp/trace/run.json")
"$T" run --replay-config "$tmp/trace/run.json" -q -j1 -o "$tmp/replay" 2> "$tmp/replay.err"
rc=$?
cp -r "$tmp/alone" "$tmp/changed"
"$T" run "$tmp/changed/s.xml" -q -j1 -c trivium -o "$tmp/changed/out" 2> /dev/null
echo '# changed' >> "$tmp/changed/faults/t0.trace"
# the run directory's own copy would stand in for it: changed too
find "$tmp/changed/out/inputs" -name t0.trace -exec sh -c 'echo "# changed" >>"$1"' sh {} \;
"$T" run --replay-config "$tmp/changed/out/run.json" -q -o "$tmp/changed/replay" > /dev/null 2> "$tmp/changed.err"
rc2=$?
if echo "$j" | grep -q "\"faults\":\[{\"kind\":\"fault-trace\",\"pattern\":\"faults/tower-outages.trace\",.*\"file\":{\"path\":\"$real\",\"copy\":\"inputs/[^\"]*tower-outages.trace\",\"sha256\":\"$sum\"}}\]" &&
   [ $rc -eq 0 ] && cmp -s "$tmp/replay/episodes.csv" "$tmp/trace/episodes.csv" &&
   [ $rc2 -eq 2 ] && [ "$(err_lines "$tmp/changed.err")" -eq 1 ] && grep -q '"faults"\[0\]\.file .*t0.trace changed since the run' "$tmp/changed.err"; then
  ok "run.json records the trace's path and SHA-256; --replay-config reruns it byte for byte and refuses a changed trace"
else notok "run.json faults $(echo "$j" | grep -o '"faults":\[[^]]*\]'), replay exit $rc, changed trace exit $rc2"; sed 's/^/# /' "$tmp/replay.err" "$tmp/changed.err"; fi

# 7. a trace outside the scenario's directory: one line, exit 2, from validate and run
mkdir -p "$tmp/evil/scn"
cp "$trace" "$tmp/evil/outside.trace"
ln -s ../outside.trace "$tmp/evil/scn/link.trace"
bad=0
for f in link.trace ../outside.trace "$tmp/evil/outside.trace"; do
  sed -e "s#\.\./platforms/urs-sf.xml#$top/platforms/urs-sf.xml#" -e "s#faults/tower-outages.trace#$f#" "$scenario" > "$tmp/evil/scn/s.xml"
  "$T" validate "$tmp/evil/scn/s.xml" > /dev/null 2> "$tmp/evil.err"
  rc=$?
  "$T" run "$tmp/evil/scn/s.xml" -q -c trivium -o "$tmp/evil/out" > /dev/null 2> "$tmp/evil-run.err"
  rc2=$?
  if [ $rc -ne 2 ] || [ $rc2 -ne 2 ] || [ "$(err_lines "$tmp/evil.err")" -ne 1 ] || [ "$(err_lines "$tmp/evil-run.err")" -ne 1 ] ||
     ! grep -q "s.xml:17:18: file=\"$f\" on <fault-trace> .*; expected a trace file inside the scenario's directory" "$tmp/evil.err" ||
     [ -e "$tmp/evil/out" ]; then
    bad=$((bad + 1)); echo "# $f: exit $rc and $rc2"; sed 's/^/# /' "$tmp/evil.err"
  fi
done
if [ $bad -eq 0 ]; then ok "a trace through a symbolic link out, with '..', or absolute: one line, exit 2, nothing run"
else notok "$bad of 3 traces outside the directory not refused as expected"; fi

# 8. a bad line: the scenario, the trace, its line, exit 2
printf '600 tower-0-uplink down\n1200 tower-0-uplink up\n1300 tower-99-uplink down\n' > "$tmp/alone/faults/t0.trace"
"$T" run "$tmp/alone/s.xml" -q -c trivium -o "$tmp/alone/bad" > /dev/null 2> "$tmp/bad.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(err_lines "$tmp/bad.err")" -eq 1 ] &&
   grep -q "s.xml:17:18: fault trace 'faults/t0.trace' refused: .*/faults/t0.trace:3: link 'tower-99-uplink' matches no link of .*urs-sf.xml; expected one of its links: " "$tmp/bad.err"; then
  ok "an unknown link on line 3 of the trace: one line naming the scenario, the trace and its line, exit 2"
else notok "exit $rc"; sed 's/^/# /' "$tmp/bad.err"; fi
