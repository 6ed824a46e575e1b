#!/bin/sh
# trivium run --replay-config RUN.json reruns the point a run.json
# describes and gives the same episodes.csv, byte for byte: a point of the
# fault sweep (its link-flap MTBF comes from run.json, not from the
# scenario's sweep) and a URS run with a SimGrid option.  A run.json whose
# scenario changed since, one of a run that did not finish, one that is not
# JSON, and other options next to it are one line each, exit 2, and so is
# a data file's record that could point the world elsewhere: a data name
# that climbs out of the data directory, a parameter that is not a text
# parameter, a list of profiles that is not a list.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..10"
. "$top/tests/err-lines.sh"
. "$top/tests/json-compact.sh"
"$T" run "$top/scenarios/fault-sweep.xml" -o "$tmp/f" -q -j2 --set run.seeds=2 --set run.episodes=30 >/dev/null 2>&1
"$T" run --replay-config "$tmp/f/link-flap.mtbf=1/run.json" -o "$tmp/f1" -q -j2 >/dev/null 2>"$tmp/err"
if cmp -s "$tmp/f/link-flap.mtbf=1/episodes.csv" "$tmp/f1/episodes.csv"; then
  echo "ok 1 - a fault-sweep point replayed: episodes.csv identical"
else echo "not ok 1 - the replayed fault-sweep point differs"; sed 's/^/# /' "$tmp/err"; fi
cp "$top/scenarios/urs-smoke.xml" "$tmp/u.xml"
sed -i "s|\.\./platforms|$top/platforms|" "$tmp/u.xml"
"$T" run "$tmp/u.xml" -o "$tmp/u" -q -j2 --set run.episodes=5 --cfg=network/model:CM02 >/dev/null 2>&1
"$T" run --replay-config "$tmp/u/run.json" -o "$tmp/u1" -q -j2 >/dev/null 2>"$tmp/err"
if cmp -s "$tmp/u/episodes.csv" "$tmp/u1/episodes.csv"; then
  echo "ok 2 - a URS run replayed: episodes.csv identical"
else echo "not ok 2 - the replayed URS run differs"; sed 's/^/# /' "$tmp/err"; fi
# $1 description, $2 expected text, then the command: exit 2, one line holding the text
exit2() {
  d=$1 want=$2
  shift 2
  "$@" >/dev/null 2>"$tmp/err"
  rc=$?
  if [ $rc -eq 2 ] && [ "$(err_lines "$tmp/err")" -eq 1 ] && grep -q -- "$want" "$tmp/err"; then echo "ok $n - $d"
  else echo "not ok $n - $d: exit $rc"; sed 's/^/# /' "$tmp/err"; fi
  n=$((n + 1))
}
n=3
# a data file's record that would point the world elsewhere
json_compact "$tmp/u/run.json" | sed 's|"data":"data/urs/sf.cal"|"data":"../../../etc/passwd"|' >"$tmp/u/climb.json"
exit2 "a data name that climbs out of the data directory is refused" '"inputs"\[0\].data is not one; expected a relative path of plain names' \
  "$T" run --replay-config "$tmp/u/climb.json" -o "$tmp/c" -q
json_compact "$tmp/u/run.json" | sed 's|"data":"data/urs/sf.cal"|"parameter":"run.seeds"|' >"$tmp/u/param.json"
exit2 "a data file's parameter that is not a text parameter is refused" '"inputs"\[0\].parameter is not a text parameter' \
  "$T" run --replay-config "$tmp/u/param.json" -o "$tmp/p" -q
json_compact "$tmp/u/run.json" | sed 's|"profiles":\[\]|"profiles":"x"|' >"$tmp/u/profiles.json"
exit2 "profiles that are not a list are refused" '"profiles" is .*; expected an array' \
  "$T" run --replay-config "$tmp/u/profiles.json" -o "$tmp/q" -q
echo "<!-- changed -->" >>"$tmp/u.xml"
# the run's own copy of the scenario (OUT/inputs/...) would stand in for it: changed too
find "$tmp/u/inputs" -name u.xml -exec sh -c 'echo "<!-- changed -->" >>"$1"' sh {} \;
exit2 "a scenario changed since the run (and its copy in the run directory) is refused" "scenario_file $tmp/u.xml changed since the run" \
  "$T" run --replay-config "$tmp/u/run.json" -o "$tmp/u2" -q
json_compact "$tmp/f/link-flap.mtbf=1/run.json" | sed 's/"status":"complete"/"status":"running"/' >"$tmp/running.json"
exit2 "the run.json of an unfinished run is refused" '"status" is not "complete"' \
  "$T" run --replay-config "$tmp/running.json" -o "$tmp/r" -q
printf '{"status": ' >"$tmp/bad.json"
exit2 "a run.json that is not JSON is refused" "not JSON" "$T" run --replay-config "$tmp/bad.json" -o "$tmp/b" -q
exit2 "other options next to it are refused" "give only -o, -j, -q, --figures or --ctl" \
  "$T" run --replay-config "$tmp/f/link-flap.mtbf=1/run.json" -o "$tmp/o" --set run.seeds=3
json_compact "$tmp/f/link-flap.mtbf=1/run.json" | sed 's|"path":"[^"]*fault-sweep.xml"|"path":"/dev/zero"|' >"$tmp/dev.json"
exit2 "a run.json naming a device as its scenario is refused at once" "scenario_file /dev/zero cannot be read" \
  "$T" run --replay-config "$tmp/dev.json" -o "$tmp/d" -q
