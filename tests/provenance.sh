#!/bin/sh
# run.json says what a run was made of: the scenario file and the platform
# with their SHA-256, the data files the world read (the URS calibration
# table, a JSSP instance) with theirs, their copies and what named them (a
# parameter, or their name in the data directory), the role mapping, the fault
# processes, SimGrid's options and version, every resolved parameter.
# A calibration table chosen by parameter (world.table, or a scenario's
# <world table="FILE"> relative to the scenario) is the one read and
# recorded; a missing file or one that is not a table: one line, exit 2.
# TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/json-compact.sh"
echo "1..9"
sum() { sha256sum "$1" | cut -d' ' -f1; }
"$T" run "$top/scenarios/urs-smoke.xml" -o "$tmp/u" -q -c trivium --set run.episodes=3 --set posterior.lambda=0.9 \
  --fault 'link-flap:tower-*:30:1' --cfg=network/model:CM02 >"$tmp/log" 2>&1 || sed 's/^/# /' "$tmp/log"
j="$tmp/u/compact"
json_compact "$tmp/u/run.json" >"$j"
if grep -q "\"scenario_file\":{\"path\":\"$top/scenarios/urs-smoke.xml\",\"copy\":\"inputs/scenarios/urs-smoke.xml\",\"sha256\":\"$(sum "$top/scenarios/urs-smoke.xml")\"}" "$j" &&
   grep -q "\"platform_file\":{\"path\":\"$top/platforms/urs-sf.xml\",\"copy\":\"inputs/platforms/urs-sf.xml\",\"sha256\":\"$(sum "$top/platforms/urs-sf.xml")\"}" "$j" &&
   cmp -s "$tmp/u/inputs/platforms/urs-sf.xml" "$top/platforms/urs-sf.xml"; then
  echo "ok 1 - the scenario and the platform, each with its SHA-256 and its copy in the run directory"
else echo "not ok 1 - scenario or platform missing or wrong"; sed 's/^/# /' "$tmp/u/run.json" | head -14; fi
if grep -q "sf.cal\",\"sha256\":\"$(sum "$top/data/urs/sf.cal")\"" "$j"; then
  echo "ok 2 - the calibration table the world read, with its SHA-256"
else echo "not ok 2 - no calibration table in inputs"; sed 's/^/# /' "$tmp/u/run.json" | head -20; fi
if grep -q '"roles":{"controller":null,"ctl":null,"agent":"tower-\*"}' "$j" &&
   grep -q '{"kind":"link-flap","pattern":"tower-\*","mtbf":30,"mttr":1,"start":0,"stop":null' "$j" &&
   grep -q '"simgrid_options":\["--cfg=network/model:CM02"\]' "$j" && grep -q '"simgrid":"3\.' "$j"; then
  echo "ok 3 - roles, the fault process, SimGrid's options and version"
else echo "not ok 3 - roles, faults, options or version missing"; sed 's/^/# /' "$tmp/u/run.json" | head -40; fi
"$T" run "$top/scenarios/jssp-ft06.xml" -o "$tmp/j" -q -c trivium --set run.seeds=1 --set run.episodes=2 >"$tmp/log" 2>&1
if json_compact "$tmp/j/run.json" |
   grep -q "\"inputs\":\[{\"path\":\"$top/platforms/jssp/ft06/jobs.txt\",\"copy\":\"inputs/platforms/jssp/ft06/jobs.txt\",\"data\":\"platforms/jssp/ft06/jobs.txt\",\"sha256\":\"$(sum "$top/platforms/jssp/ft06/jobs.txt")\"}\]" &&
   cmp -s "$tmp/j/inputs/platforms/jssp/ft06/jobs.txt" "$top/platforms/jssp/ft06/jobs.txt"; then
  echo "ok 4 - a JSSP run lists its shipped instance file with its SHA-256, its copy and its name in the data directory"
else echo "not ok 4 - no instance in inputs"; sed 's/^/# /' "$tmp/j/run.json" | head -20; sed 's/^/# /' "$tmp/log"; fi
if grep -q '"run.episodes":3,' "$j" && grep -q '"posterior.lambda":0\.9,' "$j" && grep -q '"posterior.slab":"separated",' "$j"; then
  echo "ok 5 - parameters: integers and doubles as numbers, each double as its shortest decimal, names as text"
else echo "not ok 5 - parameters"; sed -n '/"parameters"/,/}/p' "$tmp/u/run.json" | sed 's/^/# /'; fi
"$T" run "$top/scenarios/urs-smoke.xml" -o "$tmp/t" -q -c trivium --set run.episodes=3 \
  --set world.table="$top/data/urs/sg.cal" >"$tmp/log" 2>&1
if json_compact "$tmp/t/run.json" | grep -q "\"inputs\":\[{\"path\":\"$top/data/urs/sg.cal\",\"copy\":\"inputs/data/urs/sg.cal\",\"parameter\":\"world.table\",\"sha256\":\"$(sum "$top/data/urs/sg.cal")\"}\]" &&
   ! cmp -s "$tmp/t/episodes.csv" "$tmp/u/episodes.csv"; then
  echo "ok 6 - --set world.table=sg.cal: the table read and recorded is Singapore's"
else echo "not ok 6 - world.table"; sed 's/^/# /' "$tmp/log"; fi
mkdir -p "$tmp/s/sub" && cp "$top/data/urs/nyc.cal" "$tmp/s/city.cal"
sed -e "s|\.\./platforms|$top/platforms|" -e 's|<world name="urs"|<world name="urs" table="../city.cal"|' \
  "$top/scenarios/urs-smoke.xml" >"$tmp/s/sub/u.xml"
"$T" run "$tmp/s/sub/u.xml" -o "$tmp/s/out" -q -c trivium --set run.episodes=2 >"$tmp/log" 2>&1
if json_compact "$tmp/s/out/run.json" | grep -q "\"inputs\":\[{\"path\":\"$tmp/s/city.cal\",\"copy\":\"inputs/[^\"]*/city.cal\",\"parameter\":\"world.table\",\"sha256\":\"$(sum "$top/data/urs/nyc.cal")\"}\]"; then
  echo "ok 7 - <world table=\"../city.cal\">: a path relative to the scenario"
else echo "not ok 7 - a scenario's table"; sed 's/^/# /' "$tmp/log"; fi
. "$top/tests/err-lines.sh"
ok=1
"$T" run "$top/scenarios/urs-smoke.xml" -o "$tmp/x" -q --set world.table="$tmp/none.cal" >/dev/null 2>"$tmp/e1"
[ $? -eq 2 ] && [ "$(err_lines "$tmp/e1")" -eq 1 ] && grep -q "$tmp/none.cal: cannot read the calibration table" "$tmp/e1" || ok=0
"$T" run "$top/scenarios/urs-smoke.xml" -o "$tmp/y" -q --set world.table="$top/scenarios/default.xml" >/dev/null 2>"$tmp/e2"
[ $? -eq 2 ] && [ "$(err_lines "$tmp/e2")" -eq 1 ] && grep -q "not a Trivium URS calibration table" "$tmp/e2" || ok=0
if [ $ok = 1 ]; then echo "ok 8 - a missing table and a file that is not one: one line each, exit 2"
else echo "not ok 8 - bad tables"; sed 's/^/# /' "$tmp/e1" "$tmp/e2"; fi
# hostile travel times: a pair whose mean is negative, refused at its line
awk '/^pair\t/ && !done { sub(/\t[^\t]*$/, "\t-12"); done = 1 } { print }' "$top/data/urs/nyc.cal" >"$tmp/neg.cal"
n=$(grep -n -m1 "$(printf '^pair\t')" "$tmp/neg.cal" | cut -d: -f1)
"$T" run "$top/scenarios/urs-smoke.xml" -o "$tmp/z" -q --set world.table="$tmp/neg.cal" >/dev/null 2>"$tmp/e3"
if [ $? -eq 2 ] && [ "$(err_lines "$tmp/e3")" -eq 1 ] && grep -q "$tmp/neg.cal:$n: mean -12 minutes; expected 1..180" "$tmp/e3"; then
  echo "ok 9 - a table whose travel times hold a negative trip time: one line naming the file and line, exit 2"
else echo "not ok 9 - hostile travel times"; sed 's/^/# /' "$tmp/e3"; fi
