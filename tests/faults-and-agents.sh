#!/bin/sh
# The faults-and-agents study's machinery (scripts/faults-and-agents.sh) on
# its shipped scenarios cut down to a small grid (MTBF 1e9 s, 1 and 5 min, a
# few agent counts, 3 seeds of 6 episodes): study.csv has one row per
# world, controller, MTBF and M of the grid, and nothing fails without
# faults (p_f, bits lost and time lost 0 at MTBF 1e9) while commits fail
# under them; the saturation point of every series and measure, in
# saturation.csv and study-saturation.csv, is the one computed here from
# speedup.csv (the smallest M whose paired speedup reaches the lower end of
# the largest one's interval); study.md has a table per world with a row per
# M; the figures are SVG and PNG; bad options exit 2 before anything runs.
# Skips without URS San Francisco's calibration table.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-$(pwd)/trivium}
case $T in /*) ;; *) T=$(pwd)/$T ;; esac
# (a TAP skip: the driver reads the plan, not the exit status)
[ -f "$top/data/urs/sf.cal" ] || { echo "1..0 # SKIP no calibration table $top/data/urs/sf.cal"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..8"
mkdir "$tmp/scen"
for w in sf causalbench jssp; do
  case $w in sf) agents=1,2,4 ;; causalbench) agents=1,2,3 ;; jssp) agents=1,2 ;; esac
  sed -e "s|\.\./platforms|$top/platforms|" \
      -e 's|<sweep param="link-flap.mtbf" values="[^"]*"/>|<sweep param="link-flap.mtbf" values="1e9,1min,5min"/>|' \
      -e "s|<sweep param=\"agents.count\" values=\"[^\"]*\"/>|<sweep param=\"agents.count\" values=\"$agents\"/>|" \
      "$top/scenarios/faults-agents-$w.xml" >"$tmp/scen/faults-agents-$w.xml"
done
TRIVIUM=$T sh "$top/scripts/faults-and-agents.sh" -j 2 -s "$tmp/scen" -w "sf causalbench jssp" -o "$tmp/out" -- \
  --set run.seeds=3 --set run.episodes=6 >"$tmp/log" 2>&1
rc=$?
o=$tmp/out
# 1: one row per (world, controller, MTBF, M): sf 1 x 3 x 3, causalbench 2 x 3 x 3, jssp 1 x 3 x 2
rows=$(tail -n +2 "$o/study.csv" 2>/dev/null | cut -d, -f1-3,5 | sort -u | wc -l)
all=$(tail -n +2 "$o/study.csv" 2>/dev/null | wc -l)
if [ $rc -eq 0 ] && [ "$rows" -eq 33 ] && [ "$all" -eq 33 ]; then
  echo "ok 1 - study.csv: one row per world, controller, MTBF and agent count (33)"
else echo "not ok 1 - exit $rc, $all rows, $rows distinct"; sed 's/^/# /' "$tmp/log" | tail -20; fi
# 2: no faults, nothing lost; faults every minute, some commit fails in every world
bad=$(awk -F, 'NR > 1 && $3 == "1e9" && ($12 != 0 || $13 != 0 || $14 != 0)' "$o/study.csv" | wc -l)
hit=$(awk -F, 'NR > 1 && $3 == "1min" && $12 > 0 {print $1}' "$o/study.csv" | sort -u | tr '\n' ' ')
if [ "$bad" -eq 0 ] && [ "$hit" = "causalbench jssp sf " ]; then
  echo "ok 2 - p_f, bits lost and time lost 0 without faults; p_f > 0 under 1-minute MTBF in every world"
else echo "not ok 2 - $bad rows with losses at MTBF 1e9; p_f > 0 at 1 min in: $hit"; fi
# 3: the saturation point, recomputed from each world's speedup.csv
ok=1
for w in sf causalbench jssp; do
  for measure in t_id run_time; do
    case $measure in t_id) s=paired_speedup_t_id ;; run_time) s=paired_speedup_time ;; esac
    want=$(awk -F, -v s="$s" '
      NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
      $c[s] != "nan" { k = $c["link-flap.mtbf"] "," $c["controller"]; n[k]++; m[k, n[k]] = $c["agents.count"] + 0
                       v[k, n[k]] = $c[s] + 0; lo[k, n[k]] = $c[s "_lo"] + 0 }
      END { for (k in n) { b = 0
              for (i = 1; i <= n[k]; i++) if (!b || v[k, i] > v[k, b] || (v[k, i] == v[k, b] && m[k, i] < m[k, b])) b = i
              sat = ""; for (i = 1; i <= n[k]; i++) if (v[k, i] >= lo[k, b] && (sat == "" || m[k, i] < sat)) sat = m[k, i]
              print k "," sat "," m[k, b] } }' "$o/$w/speedup.csv" | sort)
    got=$(awk -F, -v ms="$measure" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
      $c["measure"] == ms && $c["m_sat"] != "nan" {print $c["link-flap.mtbf"] "," $c["controller"] "," $c["m_sat"] + 0 "," $c["m_max"] + 0}' \
      "$o/$w/saturation.csv" | sort)
    study=$(awk -F, -v w="$w" -v ms="$measure" '$1 == w && $5 == ms && $6 != "nan" {print $3 "," $2 "," $6 + 0 "," $8 + 0}' \
      "$o/study-saturation.csv" | sort)
    if [ -z "$want" ] || [ "$want" != "$got" ] || [ "$got" != "$study" ]; then
      ok=0; echo "# $w $measure: want '$want' got '$got' study '$study'"
    fi
  done
done
if [ $ok = 1 ]; then echo "ok 3 - M_sat and M_max of every series and measure are those computed from speedup.csv"
else echo "not ok 3 - saturation"; fi
# 4: a saturation point is an agent count of its series, and M_sat <= M_max
if awk -F, 'NR > 1 && $6 != "nan" && ($6 + 0 > $8 + 0 || ($6 != 1 && $6 != 2 && $6 != 3 && $6 != 4)) {bad++} END {exit bad > 0}' \
     "$o/study-saturation.csv" && [ "$(tail -n +2 "$o/study-saturation.csv" | wc -l)" -eq 24 ]; then
  echo "ok 4 - study-saturation.csv: a row per world, controller, MTBF and measure (24); M_sat <= M_max"
else echo "not ok 4 - study-saturation.csv"; sed 's/^/# /' "$o/study-saturation.csv"; fi
# 5: study.md: per world and controller a table of t_id with a row per M and a column per MTBF
ok=1
for wc in "sf, trivium:1 2 4" "causalbench, trivium-parallel:1 2 3" "jssp, trivium:1 2"; do
  head=${wc%%:*}; ms=${wc#*:}
  got=$(awk -v h="## $head" '$0 == h {on = 1; next} on && /^## / {exit} on && /^Median time to identify/ {t = 1; next}
    t && /^\| [0-9]/ {split($0, f, "|"); gsub(/ /, "", f[2]); printf "%s ", f[2]} t && /^$/ && n++ {exit}' "$o/study.md")
  [ "$got" = "$ms " ] || { ok=0; echo "# $head: rows '$got', expected '$ms '"; }
done
grep -q '^| M | no faults | 5min | 1min |$' "$o/study.md" || { ok=0; echo "# no header with the MTBF columns"; }
if [ $ok = 1 ]; then echo "ok 5 - study.md: a t_id table per world and controller, a row per M, a column per MTBF"
else echo "not ok 5 - study.md"; fi
# 6: the figures
ok=1
for f in sf-agents sf-faults causalbench-agents jssp-faults saturation; do
  grep -q '</svg>' "$o/figures/$f.svg" 2>/dev/null || { ok=0; echo "# $f.svg"; }
  [ "$(head -c 4 "$o/figures/$f.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] || { ok=0; echo "# $f.png"; }
done
[ "$(grep -c 'MTBF 1 min' "$o/figures/sf-agents.svg")" -ge 1 ] || { ok=0; echo "# no MTBF series in sf-agents.svg"; }
if [ $ok = 1 ]; then echo "ok 6 - figures: SVG and PNG per world against M and the MTBF, and the saturation point"
else echo "not ok 6 - figures"; fi
# 7: bad options
ok=1
for args in "-w nowhere" "-j x" "-s $tmp/none"; do
  # shellcheck disable=SC2086
  TRIVIUM=$T sh "$top/scripts/faults-and-agents.sh" $args -o "$tmp/bad" >/dev/null 2>"$tmp/bad.err"
  r=$?
  { [ $r -eq 2 ] && [ ! -e "$tmp/bad" ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ]; } || { ok=0; echo "# $args: exit $r"; sed 's/^/#   /' "$tmp/bad.err"; }
done
if [ $ok = 1 ]; then echo "ok 7 - an unknown world, a bad job count, a missing scenario: one line, exit 2, nothing written"
else echo "not ok 7 - bad options"; fi
# 8: -t writes the same tables again from the runs, running nothing
cp "$o/study.md" "$tmp/study.md.1"
rm -f "$o/study.md" "$o/study.csv"
TRIVIUM=false sh "$top/scripts/faults-and-agents.sh" -t -w "sf causalbench jssp" -o "$o" >/dev/null 2>&1
if cmp -s "$o/study.md" "$tmp/study.md.1" && [ -s "$o/study.csv" ]; then
  echo "ok 8 - -t writes study.md again from the runs, byte for byte, without running trivium"
else echo "not ok 8 - -t"; fi
