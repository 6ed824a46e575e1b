#!/bin/sh
# The posterior when its model is wrong (trivium controller, defaults):
# under variance inflation the MAP stays right in at least 95 % of the
# inflated episodes and in every stationary episode elsewhere, where the
# model with the declared noise and a fresh effect every episode is wrong in
# a quarter of them or more; in the attenuating nonlinear stress at nu = 2
# (every slope 0.48, under kappa_min) exposure stays under 50 episodes per
# seed, against more than 150 with a fresh effect every episode; in the
# saturating tanh stress exposure at nu = 2 is no higher than at nu = 0 in
# any seed, where the attenuating stress at nu = 2 is higher.
# The shipped scenarios, trivium alone (20 seeds each).  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..7"
run() { # NAME SCENARIO ARGS...
  n=$1 sc=$2
  shift 2
  "$T" run -q -j 2 -c trivium -o "$tmp/$n" "$top/scenarios/$sc.xml" "$@" >"$tmp/$n.log" 2>&1 || sed 's/^/# /' "$tmp/$n.log"
}
exposure() { awk -F, '$1=="trivium" && $2=="exposure_total" {print $3}' "$1/summary.csv"; }
# episodes.csv: episode 3, phase 4, truth 7, map 8; inflation on [150, 300)
inflated() {
  awk -F, 'NR > 1 { if ($3 >= 150 && $3 < 300) { n++; w += $7 != $8 } else if ($4 == "stationary") o += $7 != $8 }
    END {printf "%d %d %d", w, n, o}' "$1/episodes.csv"
}
run v variance
run v1 variance --set posterior.noise=known --set posterior.redraw=1
set -- $(inflated "$tmp/v") $(inflated "$tmp/v1")
if [ "$2" = 3000 ] && [ $(($1 * 20)) -le "$2" ] && [ "$3" = 0 ]; then
  echo "ok 1 - variance inflation: MAP wrong in $1 of $2 inflated episodes, $3 stationary episodes elsewhere"
else echo "not ok 1 - variance inflation: MAP wrong in $1 of $2 inflated episodes, $3 stationary episodes elsewhere"; fi
if [ $(($4 * 4)) -ge "$5" ]; then
  echo "ok 2 - the declared noise with fresh effects: wrong in $4 of $5"
else echo "not ok 2 - the declared noise with fresh effects: wrong in only $4 of $5"; fi
run n nonlinear-nu2
run n1 nonlinear-nu2 --set posterior.redraw=1
a=$(exposure "$tmp/n") b=$(exposure "$tmp/n1")
if awk -v a="$a" 'BEGIN {exit !(a != "" && a < 50)}'; then echo "ok 3 - nonlinear nu = 2: exposure $a"
else echo "not ok 3 - nonlinear nu = 2: exposure '$a'"; fi
if awk -v b="$b" 'BEGIN {exit !(b != "" && b > 150)}'; then echo "ok 4 - nonlinear nu = 2, fresh effects: exposure $b"
else echo "not ok 4 - nonlinear nu = 2, fresh effects: exposure '$b'"; fi
run t nonlinear-tanh --sweep world.nu=0,2
# per seed: episodes with a wrong MAP (trivium); nu = 2 against nu = 0
perseed() { awk -F, 'NR > 1 {w[$1] += $7 != $8} END {for (s in w) print s, w[s]}' "$1/episodes.csv" | sort -n; }
perseed "$tmp/t/world.nu=0" >"$tmp/t0"
perseed "$tmp/t/world.nu=2" >"$tmp/t2"
set -- $(join "$tmp/t0" "$tmp/t2" | awk '{n++; s0 += $2; s2 += $3; if ($3 > $2) up++} END {printf "%d %.4f %.4f %d", n, s0 / n, s2 / n, up}')
# the saturating form at nu = 2 no higher than the linear model in any seed,
# where the attenuating form at nu = 2 (run above) is higher
if [ "${1:-0}" = 20 ] && [ "$4" = 0 ] && awk -v t0="$2" -v t2="$3" -v n="$a" 'BEGIN {exit !(t2 <= t0 && n > t2 + 5)}'; then
  echo "ok 5 - tanh: exposure at nu = 2 $3 against $2 at nu = 0 (higher in $4 of $1 seeds); attenuating nu = 2: $a"
else echo "not ok 5 - tanh: exposure at nu = 2 '$3' against '$2' at nu = 0 (higher in '$4' of '$1' seeds); attenuating nu = 2: '$a'"; fi

# 6: the variance stress under the residual-ratio detector: every seed
# alarms within two episodes of the onset at 150, and LRCP runs in under
# 5 % of the inflated episodes [150, 300)
run r variance-residual-ratio --set run.seeds=5
set -- $(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
  { e = $col["episode"] + 0
    if ($col["alarm"] == 1 && e >= 150 && e <= 152) seen[$col["seed"]] = 1
    if (e >= 150 && e < 300) { n++; l += $col["lrcp_status"] != "none" } }
  END { k = 0; for (s in seen) k++; printf "%d %d %d", k, l, n }' "$tmp/r/episodes.csv")
if [ "${1:-0}" = 5 ] && [ "${3:-0}" -gt 0 ] && [ $(($2 * 20)) -lt "$3" ]; then
  echo "ok 6 - residual-ratio: onset seen within two episodes on $1 of 5 seeds; LRCP ran in $2 of $3 inflated episodes"
else echo "not ok 6 - residual-ratio: onset seen on '${1:-}' of 5 seeds; LRCP ran in '${2:-}' of '${3:-}' inflated episodes"; fi

# 7: the saturating form with its scale at half the probe magnitude: the
# probes read the saturated slope (0.63 at nu = 2), and the exposure rises
run s nonlinear-tanh-scale --sweep world.nu=0,2 --set run.seeds=5
e0=$(awk -F, '$1 == "trivium" && $2 == "exposure_total" {print $3}' "$tmp/s/world.nu=0/summary.csv")
e2=$(awk -F, '$1 == "trivium" && $2 == "exposure_total" {print $3}' "$tmp/s/world.nu=2/summary.csv")
if [ -n "$e0" ] && [ -n "$e2" ] && awk -v a="$e0" -v b="$e2" 'BEGIN {exit !(b > a + 2)}'; then
  echo "ok 7 - tanh at scale 0.5: exposure $e2 at nu = 2 against $e0 at nu = 0"
else echo "not ok 7 - tanh at scale 0.5: exposure '$e2' at nu = 2 against '$e0' at nu = 0"; fi
