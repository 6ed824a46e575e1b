#!/bin/sh
# The built-in worlds run through the public plugin API (tests/api-run.c)
# give the same episodes.csv, byte for byte, as `trivium run` for the same
# scenario, controllers and seeds: CausalBench-Seq (headline schedule) and
# URS (the smoke scenario: 8 drivers sharing San Francisco).  Also: every
# --cfg=trivium/KEY is the --set KEY of the command line; agents.count is
# honoured by the plugin; --log=trivium.thres:info shows the changes of
# G_hat, the alarms and the resets; a program's run directory
# (trivium_results_write_dir) is accepted by `trivium report`, which writes
# the summary `trivium run` writes for the same cell, and it is written
# inside its directory only.  TAP.
set -u
top=${srcdir:-..}
T=${TRIVIUM:-./trivium}
api=${API_RUN:-tests/api-run}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..14"

# $1 name, $2 platform, $3 scenario, $4 controllers, $5 seeds, then --cfg settings
compare() {
  name=$1 plat=$2 scn=$3 ctls=$4 seeds=$5
  shift 5
  sets=""
  for c in "$@"; do
    kv=${c#--cfg=trivium/}
    case "$kv" in world:*|role.*) ;; # the scenario's world and roles
      fault:*) sets="$sets --fault ${kv#fault:}" ;;
      *) sets="$sets --set $(echo "$kv" | sed 's/:/=/')" ;; esac
  done
  # shellcheck disable=SC2086
  "$T" run -q "$scn" -c "$ctls" --set run.seeds=$seeds $sets -o "$tmp/$name-run" >/dev/null 2>"$tmp/$name.err" || return 1
  first=1
  : > "$tmp/$name.csv"
  for c in $(echo "$ctls" | tr ',' ' '); do
    s=1
    while [ $s -le "$seeds" ]; do
      h=""
      [ $first = 1 ] && h=--header
      "$api" "$plat" "$@" --cfg=trivium/controller:$c --cfg=trivium/seed:$s $h >>"$tmp/$name.csv" 2>>"$tmp/$name.err" || return 1
      first=0
      s=$((s + 1))
    done
  done
  cmp -s "$tmp/$name.csv" "$tmp/$name-run/episodes.csv"
}

if compare cb "$top/platforms/causalbench.xml" "$top/scenarios/default.xml" trivium,rlvr,reactive 2 \
    --cfg=trivium/run.episodes:120; then
  echo "ok 1 - CausalBench-Seq through the public API: episodes.csv identical to trivium run (3 controllers x 2 seeds)"
else
  echo "not ok 1 - CausalBench-Seq differs"; diff "$tmp/cb.csv" "$tmp/cb-run/episodes.csv" | head -5 | sed 's/^/# /'
  sed 's/^/# /' "$tmp/cb.err" | tail -5
fi

if compare urs "$top/platforms/urs-sf.xml" "$top/scenarios/urs-smoke.xml" trivium,rlvr 1 \
    --cfg=trivium/world:urs --cfg=trivium/world.city:sf --cfg=trivium/world.informative:15 \
    --cfg=trivium/world.informative_after:240 --cfg=trivium/world.effect:0.5 --cfg=trivium/world.effect_floor:0.3 --cfg=trivium/world.change_at:10 \
    --cfg=trivium/world.travel:hops \
    --cfg=trivium/posterior.kappa_min:0.3 --cfg=trivium/posterior.noise:known --cfg=trivium/posterior.redraw:1 \
    --cfg=trivium/detector.ll_delta:0.3 --cfg=trivium/run.episodes:20 \
    --cfg=trivium/run.steps:30 --cfg=trivium/agents.count:8 --cfg=trivium/role.agent:tower-*; then
  echo "ok 2 - URS (8 drivers, San Francisco) through the public API: episodes.csv identical to trivium run"
else
  echo "not ok 2 - URS differs"; diff "$tmp/urs.csv" "$tmp/urs-run/episodes.csv" | head -5 | sed 's/^/# /'
  sed 's/^/# /' "$tmp/urs.err" | tail -5
fi

# --cfg=trivium/KEY:VALUE and --set KEY=VALUE on the command line
"$T" run -q -c trivium --set run.seeds=2 --set run.episodes=50 -o "$tmp/set" >/dev/null 2>&1
"$T" run -q -c trivium --set run.seeds=2 --cfg=trivium/run.episodes:50 -o "$tmp/cfg" >/dev/null 2>&1
if cmp -s "$tmp/set/episodes.csv" "$tmp/cfg/episodes.csv" && cmp -s "$tmp/set/summary.csv" "$tmp/cfg/summary.csv" &&
   [ "$(grep -c ',trivium,' "$tmp/cfg/episodes.csv")" -eq 100 ]; then
  echo "ok 3 - trivium run: --cfg=trivium/run.episodes:50 and --set run.episodes=50 give identical outputs"
else
  echo "not ok 3 - --cfg and --set differ"
fi

# the same through the plugin: the setting and the flag
"$api" "$top/platforms/causalbench.xml" --cfg=trivium/run.episodes:50 > "$tmp/p1.csv" 2>/dev/null
n=$(grep -c '^1,trivium,' "$tmp/p1.csv")
if [ "$n" -eq 50 ]; then echo "ok 4 - the plugin honours --cfg=trivium/run.episodes:50 (50 rows)"; else echo "not ok 4 - $n rows"; fi

# agents.count is honoured by the plugin: 3 agents commit 3 times per episode
"$api" "$top/platforms/causalbench-multi.xml" --cfg=trivium/run.episodes:5 --cfg=trivium/agents.count:3 \
  --cfg=trivium/role.agent:agent-* --header > "$tmp/p3.csv" 2>"$tmp/p3.err"
commits=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "commits") c = i} NR > 1 {print $c}' "$tmp/p3.csv" | sort -u)
if [ "$commits" = 3 ]; then echo "ok 5 - agents.count=3 gives 3 agents, each committing every episode"
else echo "not ok 5 - commits per episode: '$commits'"; sed 's/^/# /' "$tmp/p3.err" | tail -3; fi

# a bad flag value is one clear line and exit 2
"$api" "$top/platforms/causalbench.xml" --cfg=trivium/run.episodes:-3 > /dev/null 2>"$tmp/bad.err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'run.episodes' "$tmp/bad.err"; then echo "ok 6 - a bad --cfg=trivium value: exit 2 naming the key"
else echo "not ok 6 - exit $rc"; sed 's/^/# /' "$tmp/bad.err" | tail -3; fi

# --log=trivium.thres:info prints the changes of G_hat and the alarms (the
# headline schedule changes at 150 and 300); quiet by default
"$api" "$top/platforms/causalbench.xml" --log=trivium.thres:info > /dev/null 2>"$tmp/log.err"
"$api" "$top/platforms/causalbench.xml" > /dev/null 2>"$tmp/quiet.err"
if grep -q 'committed graph G_hat is now' "$tmp/log.err" && grep -q 'drift alarm' "$tmp/log.err" &&
   grep -q 'reset to the prior' "$tmp/log.err" && ! grep -q 'trivium_' "$tmp/quiet.err"; then
  echo "ok 7 - --log=trivium.thres:info shows commits, alarms and resets; nothing without it"
else
  echo "not ok 7 - log lines missing"; head -3 "$tmp/log.err" | sed 's/^/# /'
fi

# parallel actors are refused by the plugin too: one clear line, exit 2, no rows
"$api" "$top/platforms/causalbench.xml" --cfg=contexts/nthreads:2 --cfg=trivium/run.episodes:5 > "$tmp/par.csv" 2>"$tmp/par.err"
rc=$?
if [ $rc -eq 2 ] && grep -q '^api-run: contexts/nthreads is 2' "$tmp/par.err" && [ ! -s "$tmp/par.csv" ]; then
  echo "ok 8 - --cfg=contexts/nthreads:2: the plugin refuses parallel actors (exit 2, no rows)"
else echo "not ok 8 - exit $rc"; sed 's/^/# /' "$tmp/par.err" | tail -3; fi

# faults for plugin users: --cfg=trivium/fault:SPEC is trivium run's --fault, row for row
if compare flap "$top/platforms/causalbench.xml" "$top/scenarios/default.xml" trivium 2 \
    --cfg=trivium/run.episodes:60 --cfg=trivium/fault:link-flap:agent-*-uplink:1:0.5 &&
   awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "commit_failures") c = i} NR > 1 {f += $c} END {exit !(f > 0)}' \
     "$tmp/flap.csv"; then
  echo "ok 9 - --cfg=trivium/fault:link-flap:... through the plugin: commits fail, episodes.csv identical to trivium run --fault"
else
  echo "not ok 9 - the plugin's faults differ"; diff "$tmp/flap.csv" "$tmp/flap-run/episodes.csv" | head -5 | sed 's/^/# /'
  sed 's/^/# /' "$tmp/flap.err" | tail -5
fi
"$api" "$top/platforms/causalbench.xml" "--cfg=trivium/fault:link-flap:agent-*-uplink:0:1" > /dev/null 2>"$tmp/badf.err"
rc=$?
if [ $rc -eq 2 ] && grep -q "fault 'link-flap:agent-\*-uplink:0:1': mtbf '0'" "$tmp/badf.err"; then
  echo "ok 10 - a bad --cfg=trivium/fault: exit 2 naming the fault and the field"
else echo "not ok 10 - exit $rc"; sed 's/^/# /' "$tmp/badf.err" | tail -3; fi

# a program's run directory: `trivium report` writes from it the summary
# and figures `trivium run` writes for the same world, platform and seed
"$api" "$top/platforms/causalbench.xml" --cfg=trivium/run.episodes:120 --out "$tmp/prog" > /dev/null 2>"$tmp/prog.err" &&
  "$T" report -q "$tmp/prog" 2>>"$tmp/prog.err" &&
  "$T" run -q "$top/scenarios/default.xml" -c trivium --set run.seeds=1 --set run.episodes=120 -o "$tmp/prog-run" \
    > /dev/null 2>>"$tmp/prog.err"
if cmp -s "$tmp/prog/summary.csv" "$tmp/prog-run/summary.csv" && cmp -s "$tmp/prog/episodes.csv" "$tmp/prog-run/episodes.csv" &&
   cmp -s "$tmp/prog/figures/regret.dat" "$tmp/prog-run/figures/regret.dat" &&
   cmp -s "$tmp/prog/figures/presence.dat" "$tmp/prog-run/figures/presence.dat" &&
   grep -q '"format": "trivium-program-1"' "$tmp/prog/run.json" && grep -q '"--cfg=trivium/run.episodes:120"' "$tmp/prog/run.json" &&
   [ "$(wc -l < "$tmp/prog/summary.csv")" -gt 40 ]; then
  echo "ok 11 - trivium report on the plugin's run directory: summary.csv, episodes.csv and figures identical to trivium run's"
else
  echo "not ok 11 - the program's report differs"; diff "$tmp/prog/summary.csv" "$tmp/prog-run/summary.csv" | head -5 | sed 's/^/# /'
  sed 's/^/# /' "$tmp/prog.err" | tail -5
fi

# never through a link, never outside the directory
mkdir "$tmp/trap"
ln -s "$tmp/outside.csv" "$tmp/trap/episodes.csv"
"$api" "$top/platforms/causalbench.xml" --cfg=trivium/run.episodes:5 --out "$tmp/trap" > /dev/null 2>"$tmp/trap.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$tmp/outside.csv" ] && grep -q "^api-run: $tmp/trap/episodes.csv: a symbolic link" "$tmp/trap.err"; then
  echo "ok 12 - a link planted where the program writes its directory: refused (exit 2), nothing written through it"
else echo "not ok 12 - exit $rc"; sed 's/^/# /' "$tmp/trap.err" | tail -3; fi
rm -f "$tmp/prog/summary.csv"
ln -s "$tmp/outside.csv" "$tmp/prog/summary.csv"
"$T" report -q "$tmp/prog" > /dev/null 2>"$tmp/trap2.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$tmp/outside.csv" ] && grep -q "summary.csv: a symbolic link" "$tmp/trap2.err"; then
  echo "ok 13 - trivium report on a program's directory with a planted link: refused (exit 2), nothing written through it"
else echo "not ok 13 - exit $rc"; sed 's/^/# /' "$tmp/trap2.err" | tail -3; fi

# a damaged run.json, and a trivium run's directory, are refused with one line
rm -f "$tmp/prog/summary.csv"
sed 's/"seed": 1,/"seed": -4,/' "$tmp/prog/run.json" > "$tmp/run.json" && cat "$tmp/run.json" > "$tmp/prog/run.json"
"$T" report -q "$tmp/prog" > /dev/null 2>"$tmp/bad-json.err"
rc1=$?
"$api" "$top/platforms/causalbench.xml" --cfg=trivium/run.episodes:5 --out "$tmp/prog-run" > /dev/null 2>"$tmp/taken.err"
rc2=$?
if [ $rc1 -eq 2 ] && [ "$(wc -l < "$tmp/bad-json.err")" -eq 1 ] && grep -q "run.json: seed: -4; expected an integer" "$tmp/bad-json.err" &&
   [ $rc2 -eq 2 ] && grep -q "holds a run of trivium run" "$tmp/taken.err" && cmp -s "$tmp/prog-run/episodes.csv" "$tmp/prog/episodes.csv"; then
  echo "ok 14 - a program's run.json out of range, and a trivium run's directory: exit 2, one line naming the member or the run"
else echo "not ok 14 - exit $rc1, $rc2"; cat "$tmp/bad-json.err" "$tmp/taken.err" | sed 's/^/# /' | tail -4; fi
