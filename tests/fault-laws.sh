#!/bin/sh
# A link-flap whose up times are Weibull and down times lognormal: the
# fault sweep at one point (written without a point directory) runs, its
# run.json records both laws with their shapes, the laws change the
# schedule (episodes.csv differs from the exponential flap of the same
# means), and --replay-config reruns it byte for byte.  An unknown law, in
# a scenario or in a run.json, is one line, exit 2.  --sweep over a shape
# sets it on the link-flap, and is refused for an exponential one.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..6"
. "$top/tests/err-lines.sh"
. "$top/tests/json-compact.sh"
sed -e "s|\.\./platforms|$top/platforms|" -e 's|values="1,2,5,10,20,50,1e9"|values="5"|' \
  "$top/scenarios/fault-sweep.xml" >"$tmp/exp.xml"
sed 's|mttr="0.5"/>|mttr="0.5" up="weibull" up_shape="0.6" down="lognormal" down_shape="1.2"/>|' \
  "$tmp/exp.xml" >"$tmp/heavy.xml"
run() { "$T" run "$1" -o "$2" -q -j1 --set run.seeds=2 --set run.episodes=20 >"$tmp/log" 2>&1; }
run "$tmp/heavy.xml" "$tmp/h"
rc=$?
j=$(json_compact "$tmp/h/run.json" 2>/dev/null)
if [ $rc -eq 0 ] && [ -s "$tmp/h/episodes.csv" ]; then echo "ok 1 - a Weibull/lognormal link-flap runs"
else echo "not ok 1 - exit $rc"; sed 's/^/# /' "$tmp/log"; fi
if echo "$j" | grep -q '{"kind":"link-flap","pattern":"agent-\*-uplink","mtbf":5,"mttr":0\.5,"start":0,"stop":null,"at":0,"duration":0,"up":"weibull","down":"lognormal","up_shape":0\.6,"down_shape":1\.2}'; then
  echo "ok 2 - run.json records the laws and their shapes"
else echo "not ok 2 - faults in run.json:"; echo "$j" | grep -o '"faults":\[[^]]*\]' | sed 's/^/# /'; fi
run "$tmp/exp.xml" "$tmp/e"
if ! cmp -s "$tmp/h/episodes.csv" "$tmp/e/episodes.csv" &&
   json_compact "$tmp/e/run.json" | grep -q '"up":"exponential","down":"exponential","up_shape":null,"down_shape":null}'; then
  echo "ok 3 - the laws change the schedule; the exponential flap says so in run.json"
else echo "not ok 3 - same episodes with and without the laws, or no exponential law in run.json"; fi
"$T" run --replay-config "$tmp/h/run.json" -o "$tmp/r" -q -j1 >/dev/null 2>"$tmp/err"
if cmp -s "$tmp/h/episodes.csv" "$tmp/r/episodes.csv"; then
  echo "ok 4 - the heavy-tailed point replayed: episodes.csv identical"
else echo "not ok 4 - the replay differs"; sed 's/^/# /' "$tmp/err"; fi
sed 's|"weibull"|"pareto"|' "$tmp/h/run.json" >"$tmp/bad.json"
sed 's|up="weibull"|up="pareto"|' "$tmp/heavy.xml" >"$tmp/bad.xml"
"$T" run "$tmp/bad.xml" -o "$tmp/b" -q >/dev/null 2>"$tmp/err1"
rc1=$?
"$T" run --replay-config "$tmp/bad.json" -o "$tmp/b2" -q >/dev/null 2>"$tmp/err2"
rc2=$?
ln=$(grep -n 'up="pareto"' "$tmp/bad.xml" | cut -d: -f1)
if [ $rc1 -eq 2 ] && [ "$(err_lines "$tmp/err1")" -eq 1 ] &&
   grep -q "bad.xml:$ln:60: up=\"pareto\" on <link-flap>; expected exponential, weibull, lognormal or fixed" "$tmp/err1" &&
   [ $rc2 -eq 2 ] && [ "$(err_lines "$tmp/err2")" -eq 1 ] && grep -q 'bad.json: "faults"\[[0-9]*\]\.up is "pareto"; expected exponential, weibull, lognormal, fixed or null' "$tmp/err2"; then
  echo "ok 5 - an unknown law in a scenario or a run.json: one line, exit 2"
else echo "not ok 5 - exit $rc1 and $rc2"; sed 's/^/# /' "$tmp/err1" "$tmp/err2"; fi
"$T" run "$tmp/heavy.xml" -o "$tmp/s" -q -j1 --set run.seeds=1 --set run.episodes=5 \
  --sweep link-flap.down_shape=0.3,2 >/dev/null 2>"$tmp/err1"
rc1=$?
"$T" run "$tmp/exp.xml" -o "$tmp/s2" -q -j1 --sweep link-flap.up_shape=0.5 >/dev/null 2>"$tmp/err2"
rc2=$?
if [ $rc1 -eq 0 ] && json_compact "$tmp/s/link-flap.down_shape=2/run.json" | grep -q '"down":"lognormal","up_shape":0\.6,"down_shape":2}' &&
   [ $rc2 -eq 2 ] && [ "$(err_lines "$tmp/err2")" -eq 1 ] && grep -q "whose up times are exponential" "$tmp/err2"; then
  echo "ok 6 - --sweep over a shape sets it; over an exponential law it is refused"
else echo "not ok 6 - exit $rc1 and $rc2"; sed 's/^/# /' "$tmp/err1" "$tmp/err2"; fi
