#!/bin/sh
# Modules that own their parameters: tests/trivium-toys is the `trivium`
# program with a toy world (two parameters), a toy controller and a toy
# drift detector (one each), each one file of tests/ and one registration
# line (tests/trivium-toys.c).  Their parameters are rows of the one table
# like the shipped ones: `trivium params` lists them, and adds nothing else
# (the shipped rows are the same, the detectors' choices aside); --set and
# a scenario's attributes set them, within their ranges; run.json records
# them; and each reaches its module: the world's payoff and steps make an
# episode's reward, the controller's probes its budget and the probes that
# came back, the detector's level its statistic (docs/hacking.md).  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
toys=${TRV_BUILDDIR:-.}/tests/trivium-toys
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..10"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; sed 's/^/# /' "$tmp/err" 2> /dev/null | tail -5; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
. "$top/tests/columns.sh"

# 1-2: listed with their defaults, and nothing else changes
"$toys" params > "$tmp/toys.txt" 2> "$tmp/err"
"$T" params > "$tmp/plain.txt"
check "trivium params lists the toys' four parameters with their defaults" \
  'grep -q "^world.toy_payoff  *1  *\[-100, 100\]  *toy world: the payoff of every step" "$tmp/toys.txt" &&
   grep -q "^world.toy_steps  *4  *\[1, 50\]" "$tmp/toys.txt" && grep -q "^toy.probes  *0  *\[0, 8\]" "$tmp/toys.txt" &&
   grep -q "^detector.toy_level  *0.5 " "$tmp/toys.txt" && grep -q "^detector.name .*loglik-cusum | toy" "$tmp/toys.txt"'
grep -v "toy" "$tmp/toys.txt" > "$tmp/toys-shipped.txt"
grep -v "^detector.name " "$tmp/plain.txt" > "$tmp/plain-shipped.txt"
check "the shipped rows are unchanged and in their order, the toys' come after them" \
  'cmp -s "$tmp/toys-shipped.txt" "$tmp/plain-shipped.txt" &&
   [ "$(tail -4 "$tmp/toys.txt" | cut -d" " -f1 | tr "\n" " ")" = "world.toy_payoff world.toy_steps toy.probes detector.toy_level " ]'

# 3: the table's checks apply to them
"$toys" run -q -o "$tmp/bad" --set world.toy_steps=51 > /dev/null 2> "$tmp/err"; rc=$?
check "--set world.toy_steps=51 is refused with the row's range (exit 2)" \
  '[ $rc -eq 2 ] && grep -q "world.toy_steps: 51 is out of range \[1, 50\]" "$tmp/err"'

# 4-8: a run with the defaults, one with every toy parameter set
cat > "$tmp/toy.xml" << XML
<?xml version="1.0"?>
<trivium-scenario version="1">
  <platform file="$top/platforms/causalbench.xml"/>
  <world name="toy"/>
  <controllers names="toy"/>
  <run seeds="1" episodes="3"/>
</trivium-scenario>
XML
"$toys" run -q -j 1 -o "$tmp/default" "$tmp/toy.xml" > /dev/null 2> "$tmp/err"
"$toys" run -q -j 1 -o "$tmp/set" --set world.toy_payoff=2.5 --set world.toy_steps=3 --set toy.probes=2 \
  --set detector.name=toy --set detector.toy_level=0.75 "$tmp/toy.xml" > /dev/null 2>> "$tmp/err"
all() { [ "$(col "$1" "$2" | sort -u | tr "\n" " ")" = "$3 " ] && [ "$(col "$1" "$2" | wc -l)" -eq 3 ]; }
check "defaults: 4 steps paying 1 each, a budget of 0, no probe" \
  'all "$tmp/default" reward 4 && all "$tmp/default" budget 0 && all "$tmp/default" probes 0'
check "world.toy_payoff=2.5 and world.toy_steps=3 reach the world: every episode's reward is 7.5" \
  'all "$tmp/set" reward 7.5'
check "toy.probes=2 reaches the controller: a budget of 2, and both probes came back" \
  'all "$tmp/set" budget 2 && all "$tmp/set" probes 2'
check "detector.name=toy and detector.toy_level=0.75 reach the detector: its statistic is 0.75" \
  'all "$tmp/set" detector_stat 0.75'
check "run.json records the toys' parameters as set" \
  'grep -q "\"world.toy_payoff\" : 2.5," "$tmp/set/run.json" && grep -q "\"world.toy_steps\" : 3," "$tmp/set/run.json" &&
   grep -q "\"toy.probes\" : 2," "$tmp/set/run.json" && grep -q "\"detector.name\" : \"toy\"" "$tmp/set/run.json" &&
   grep -q "\"detector.toy_level\" : 0.75" "$tmp/set/run.json"'

# 9-10: a scenario sets them as attributes of their sections' elements
sed 's|<world name="toy"/>|<world name="toy" toy_payoff="-2" toy_steps="5"/>\n  <toy probes="1"/>|' "$tmp/toy.xml" > "$tmp/attrs.xml"
"$toys" run -q -j 1 -o "$tmp/attrs" "$tmp/attrs.xml" > /dev/null 2> "$tmp/err"
check "a scenario's <world toy_payoff toy_steps> and <toy probes> set them: reward -10, budget 1" \
  'all "$tmp/attrs" reward -10 && all "$tmp/attrs" budget 1'
sed 's|<toy probes="1"/>|<toy probe="1"/>|' "$tmp/attrs.xml" > "$tmp/typo.xml"
"$toys" validate "$tmp/typo.xml" > /dev/null 2> "$tmp/err"; rc=$?
check "a misspelt toy attribute is refused with the row's name suggested (exit 2)" \
  '[ $rc -eq 2 ] && grep -q "unknown attribute .probe. on <toy>.*did you mean .probes." "$tmp/err"'
