#!/bin/sh
# Which URS effects a run takes from its city's data: the world's report
# (effects.md, summary.md) names each confounder's source, and follows the
# grounding rule on the shipped SF table (time of day, interval 0.069 ..
# 0.310, grounded once world.effect_floor allows it; airport, interval
# holding 0, never).  A table whose new [effects] fields are malformed is
# refused with one line naming FILE:LINE and exit 2.  Reads the shipped
# data/urs/sf.cal.  TAP.
set -u
T=${TRIVIUM:-./trivium}
top=$(cd "${srcdir:-..}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..4"
if [ ! -f "$top/data/urs/sf.cal" ]; then
  for i in 1 2 3 4; do echo "ok $i # SKIP no calibration table in $top/data/urs"; done
  exit 0
fi
. "$top/tests/err-lines.sh"
# $1 run directory, $2 confounder index: its row of effects.csv
row() { awk -F, -v j="$2" 'NR > 1 && $1 == j' "$1/effects.csv"; }
"$T" run "$top/scenarios/urs-smoke.xml" -c trivium -q -j 1 -o "$tmp/a" --set world.effect_floor=0.1 --set world.informative=1039 >"$tmp/a.log" 2>&1
tod=$(row "$tmp/a" 3)
air=$(row "$tmp/a" 10)
if echo "$tod" | grep -q '^3,time_of_day,1,0,0.18273379[0-9]*,grounded,time_of_day,' &&
  echo "$air" | grep -q '^10,airport,1,0,0,data: not robust,airport,' &&
  row "$tmp/a" 0 | grep -q '^0,surge,1,0,0.5,synthetic,' &&
  row "$tmp/a" 2 | grep -q ',data: not identifiable,rain,'; then
  echo "ok 1 - floor 0.1: SF time of day grounded (0.1827), airport not robust (0), surge synthetic, rain not identifiable"
else
  echo "not ok 1 - effects.csv"; sed 's/^/# /' "$tmp/a.log" "$tmp/a/effects.csv" 2>/dev/null | head -20
fi
if grep -q '^| 3 | time_of_day | yes | no | 0.1827 | grounded | time_of_day 0.1827 \[0.0693, 0.3098\], 7 days |$' "$tmp/a/summary.md" &&
  grep -q '^| 10 | airport | yes | no | 0 | data: not robust | airport -0.0388 \[-0.2887, 0.1616\], 7 days |$' "$tmp/a/summary.md"; then
  echo "ok 2 - summary.md lists the sources with the table's intervals"
else
  echo "not ok 2 - summary.md"; grep '^|' "$tmp/a/summary.md" | sed 's/^/# /' | tail -14
fi
# the shipped floor (0.3): time of day robust but below it
"$T" run "$top/scenarios/urs-smoke.xml" -c trivium -q -j 1 -o "$tmp/b" >"$tmp/b.log" 2>&1
if row "$tmp/b" 3 | grep -q '^3,time_of_day,1,0,0,data: below world.effect_floor,'; then
  echo "ok 3 - floor 0.3: time of day below the floor, kappa 0"
else
  echo "not ok 3 - below the floor"; sed 's/^/# /' "$tmp/b/effects.csv" 2>/dev/null
fi
# a malformed method, a reversed interval: one line, FILE:LINE, exit 2
ok=1
line=$(grep -n '^airport	' "$top/data/urs/sf.cal" | cut -d: -f1)
sed 's/^\(airport	estimated	[^	]*	[^	]*	\)poisson+day-bootstrap	/\1bootstrap	/' "$top/data/urs/sf.cal" >"$tmp/m.cal"
awk -F'\t' -v OFS='\t' '$1 == "airport" && $2 == "estimated" {t = $8; $8 = $9; $9 = t} {print}' "$top/data/urs/sf.cal" >"$tmp/i.cal"
for bad in m i; do
  "$T" run "$top/scenarios/urs-smoke.xml" -c trivium -q -o "$tmp/x$bad" --set world.table="$tmp/$bad.cal" >/dev/null 2>"$tmp/e$bad"
  code=$?
  [ $code -eq 2 ] && [ "$(err_lines "$tmp/e$bad")" -eq 1 ] && grep -q "$tmp/$bad.cal:$line: " "$tmp/e$bad" || ok=0
done
grep -q "method 'bootstrap'; expected none, poisson" "$tmp/em" && grep -q "expected lo <= hi" "$tmp/ei" || ok=0
if [ $ok = 1 ]; then echo "ok 4 - a bad method and a reversed interval: one line each naming $line, exit 2"
else echo "not ok 4 - malformed fields"; sed 's/^/# /' "$tmp/em" "$tmp/ei"; fi
