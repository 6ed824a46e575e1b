#!/bin/sh
# A run directory is self-contained: it keeps a copy of every file the run
# read (OUT/inputs/, at their places relative to each other: the scenario,
# its fault trace, the platform and the state profile the platform names;
# a URS calibration table, a JSSP instance or a recorded LLM stream given
# by path; a calibration table found in the data directory), and run.json names each copy beside
# the original path and SHA-256.  Moved to a new path, with the originals
# deleted, `trivium run --replay-config DIR/run.json` replays it to
# identical outputs, which it could not do without the copies (the
# originals are gone, and the data directory's table is another city's).
# A platform whose profile changed since the run is replayed from the
# copies, all of them, and every profile the platform names must be one
# run.json lists.  A copy named outside
# inputs/, or a copy that changed, is refused (exit 2) rather than
# replayed on other inputs.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
. "$top/tests/json-compact.sh"
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..11"
# $1 test number, $2 description, $3 the run directory, $4 its replay: identical
# outputs; $5 (optional) text that the run's run.json must hold
same_outputs() {
  diffs=""
  for f in episodes.csv summary.csv summary.md; do cmp -s "$3/$f" "$4/$f" || diffs="$diffs $f"; done
  if [ -n "${5:-}" ] && ! grep -qF "$5" "$3/run.json"; then diffs="$diffs (run.json without $5)"; fi
  if [ -z "$diffs" ] && [ -s "$3/episodes.csv" ]; then echo "ok $1 - $2"
  else echo "not ok $1 - $2: differs:$diffs"; sed 's/^/# /' "$tmp/log" | head; fi
}
mkdir -p "$tmp/src/scenarios/faults" "$tmp/src/platforms/profiles"
# the uplink's state profile: down from 1 s to 60 s of every run (an episode is about 51 s)
printf '0 1\n1 0\n60 1\n' >"$tmp/src/platforms/profiles/uplink.profile"
sed 's|<link id="agent-0-uplink" bandwidth="10MBps" latency="25ms"/>|<link id="agent-0-uplink" bandwidth="10MBps" latency="25ms" state_file="profiles/uplink.profile"/>|' \
  "$top/platforms/causalbench.xml" >"$tmp/src/platforms/lan.xml"
printf '200 agent-0-uplink down\n260 agent-0-uplink up\n' >"$tmp/src/scenarios/faults/cut.trace"
sed -e 's|\.\./platforms/causalbench\.xml|../platforms/lan.xml|' \
  -e 's|</trivium-scenario>|  <faults><fault-trace file="faults/cut.trace"/></faults>\n</trivium-scenario>|' \
  "$top/scenarios/default.xml" >"$tmp/src/scenarios/mine.xml"
cp -R "$tmp/src" "$tmp/src2" # the same files, for a run whose originals stay
"$T" run "$tmp/src/scenarios/mine.xml" -q -o "$tmp/run" -c trivium,rlvr --set run.seeds=2 --set run.episodes=30 \
  >"$tmp/log" 2>&1
rc=$?
ok=1
for f in scenarios/mine.xml scenarios/faults/cut.trace platforms/lan.xml platforms/profiles/uplink.profile; do
  cmp -s "$tmp/run/inputs/$f" "$tmp/src/$f" && grep -q "\"copy\" : \"inputs/$f\"" "$tmp/run/run.json" || ok=0
done
if [ $rc -eq 0 ] && [ $ok = 1 ]; then
  echo "ok 1 - the run keeps its scenario, fault trace, platform and profile in inputs/, at their places, named in run.json"
else
  echo "not ok 1 - exit $rc; $(find "$tmp/run/inputs" 2>&1 | tr '\n' ' ')"; sed 's/^/# /' "$tmp/log" | head
fi
mkdir "$tmp/elsewhere"
mv "$tmp/run" "$tmp/elsewhere/moved"
rm -rf "$tmp/src"
"$T" run --replay-config "$tmp/elsewhere/moved/run.json" -q -o "$tmp/again" >"$tmp/log" 2>&1
rc=$?
diffs=""
for f in episodes.csv summary.csv summary.md figures/regret.dat figures/presence.dat figures/recovery.dat; do
  cmp -s "$tmp/elsewhere/moved/$f" "$tmp/again/$f" || diffs="$diffs $f"
done
if [ $rc -eq 0 ] && [ -z "$diffs" ]; then
  echo "ok 2 - moved, its scenario, fault trace, platform and profile deleted, it replays to identical outputs"
else
  echo "not ok 2 - exit $rc, differs:$diffs"; sed 's/^/# /' "$tmp/log" | head
fi
# a hostile copy path: never read outside the run directory's inputs/
sed 's|"copy" : "inputs/platforms/lan.xml"|"copy" : "inputs/../../../../etc/passwd"|' "$tmp/elsewhere/moved/run.json" >"$tmp/elsewhere/moved/evil.json"
"$T" run --replay-config "$tmp/elsewhere/moved/evil.json" -q -o "$tmp/evil" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q 'platform_file.copy .* is not a path below the run directory' "$tmp/log" && [ ! -e "$tmp/evil" ]; then
  echo "ok 3 - a copy named outside inputs/ is refused (exit 2)"
else
  echo "not ok 3 - exit $rc"; sed 's/^/# /' "$tmp/log" | head -3
fi
echo '<!-- changed -->' >>"$tmp/elsewhere/moved/inputs/platforms/lan.xml"
"$T" run --replay-config "$tmp/elsewhere/moved/run.json" -q -o "$tmp/changed" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q 'platform_file .*cannot be read since the run.* and its copy .*lan.xml changed' "$tmp/log"; then
  echo "ok 4 - a copy that changed since the run is refused (exit 2), naming it"
else
  echo "not ok 4 - exit $rc"; sed 's/^/# /' "$tmp/log" | head -3
fi
# the originals stay but the profile changes (the uplink never down): the
# platform and its profile must not be mixed, the copies are read, all of them
"$T" run "$tmp/src2/scenarios/mine.xml" -q -o "$tmp/stay" -c trivium --set run.seeds=1 --set run.episodes=10 \
  >"$tmp/log" 2>&1
printf '0 1\n' >"$tmp/src2/platforms/profiles/uplink.profile"
"$T" run --replay-config "$tmp/stay/run.json" -q -o "$tmp/stay-again" >"$tmp/log" 2>&1
same_outputs 5 "a profile changed beside its unchanged platform: the replay reads the copies and is identical" \
  "$tmp/stay" "$tmp/stay-again"
# a URS calibration table given by path
mkdir -p "$tmp/tables"
cp "$top/data/urs/nyc.cal" "$tmp/tables/city.cal"
"$T" run "$top/scenarios/urs-smoke.xml" -q -o "$tmp/urs" -c trivium --set run.seeds=1 --set run.episodes=4 \
  --set agents.count=2 --set world.table="$tmp/tables/city.cal" >"$tmp/log" 2>&1
mv "$tmp/urs" "$tmp/elsewhere/urs"
rm -rf "$tmp/tables"
"$T" run --replay-config "$tmp/elsewhere/urs/run.json" -q -o "$tmp/urs-again" >>"$tmp/log" 2>&1
same_outputs 6 "a URS run with world.table=FILE, moved, the table deleted: replayed from its copy, identical" \
  "$tmp/elsewhere/urs" "$tmp/urs-again" '"parameter" : "world.table"'
# a JSSP instance file
mkdir -p "$tmp/instances"
cp "$top/platforms/jssp/ft06/jobs.txt" "$tmp/instances/ft06.txt"
"$T" run "$top/scenarios/jssp-ft06.xml" -q -o "$tmp/jssp" -c trivium --set run.seeds=1 --set run.episodes=10 \
  --set world.instance="$tmp/instances/ft06.txt" >"$tmp/log" 2>&1
mv "$tmp/jssp" "$tmp/elsewhere/jssp"
rm -rf "$tmp/instances"
"$T" run --replay-config "$tmp/elsewhere/jssp/run.json" -q -o "$tmp/jssp-again" >>"$tmp/log" 2>&1
same_outputs 7 "a JSSP run with world.instance=FILE, moved, the instance deleted: replayed from its copy, identical" \
  "$tmp/elsewhere/jssp" "$tmp/jssp-again" '"parameter" : "world.instance"'
# a table found in the data directory of another installation (here New
# York's table as sf.cal): replayed where that directory is gone, the copy
# is what the world finds, not this tree's sf.cal
mkdir -p "$tmp/datadir/data/urs"
cp "$top/data/urs/nyc.cal" "$tmp/datadir/data/urs/sf.cal"
TRIVIUM_DATADIR="$tmp/datadir" "$T" run "$top/scenarios/urs-smoke.xml" -q -o "$tmp/shipped" -c trivium \
  --set run.seeds=1 --set run.episodes=4 --set agents.count=2 >"$tmp/log" 2>&1
mv "$tmp/shipped" "$tmp/elsewhere/shipped"
rm -rf "$tmp/datadir"
env -u TRIVIUM_DATADIR "$T" run --replay-config "$tmp/elsewhere/shipped/run.json" -q -o "$tmp/shipped-again" \
  >>"$tmp/log" 2>&1
same_outputs 8 "a table from another installation's data directory, moved, that directory deleted: identical" \
  "$tmp/elsewhere/shipped" "$tmp/shipped-again" '"data" : "data/urs/sf.cal"'
# the URS table's copy changed too: refused, naming it
printf 'x' >>"$(find "$tmp/elsewhere/urs/inputs" -name city.cal)"
"$T" run --replay-config "$tmp/elsewhere/urs/run.json" -q -o "$tmp/urs-changed" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q '"inputs"\[0\] .*city.cal cannot be read since the run.* and its copy .*city.cal changed' "$tmp/log" &&
   [ ! -e "$tmp/urs-changed/episodes.csv" ]; then
  echo "ok 9 - a calibration table whose original is gone and whose copy changed is refused (exit 2)"
else
  echo "not ok 9 - exit $rc"; sed 's/^/# /' "$tmp/log" | head -3
fi
# a run.json that no longer lists the profile its platform names (which changed since): refused, not read unchecked
json_compact "$tmp/stay/run.json" | sed 's|"profiles":\[[^]]*\]|"profiles":[]|' >"$tmp/stay/unlisted.json"
"$T" run --replay-config "$tmp/stay/unlisted.json" -q -o "$tmp/unlisted" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "platform_file .*/platforms/lan.xml names the profile file .*/platforms/profiles/uplink.profile, which run.json does not record as read by the run" "$tmp/log" &&
   [ ! -e "$tmp/unlisted/episodes.csv" ]; then
  echo "ok 10 - a profile the platform names that run.json does not list is refused (exit 2), naming it"
else
  echo "not ok 10 - exit $rc"; sed 's/^/# /' "$tmp/log" | head -3
fi
# an LLM recorded stream, given relative to where the run starts
mkdir -p "$tmp/rec"
cp "$top/data/llm/gpt-3.5-turbo-simulated.jsonl" "$tmp/rec/stream.jsonl"
(cd "$tmp" && "$T" run "$top/tests/scenarios/llm-short.xml" -q -o "$tmp/llm" --set world.replay=rec/stream.jsonl) \
  >"$tmp/log" 2>&1
mv "$tmp/llm" "$tmp/elsewhere/llm"
rm -rf "$tmp/rec"
"$T" run --replay-config "$tmp/elsewhere/llm/run.json" -q -o "$tmp/llm-again" >>"$tmp/log" 2>&1
same_outputs 11 "an LLM run with world.replay=FILE (relative), moved, the stream deleted: replayed from its copy, identical" \
  "$tmp/elsewhere/llm" "$tmp/llm-again" '"parameter" : "world.replay"'
