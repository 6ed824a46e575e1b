#!/bin/sh
# Three experiments on their own seeds and on held-out seeds 101-200, each
# printed as the Markdown tables its page shows:
#   flips    the K-sweep with its no-CUSUM arm (scenarios/flips-sweep.xml,
#            seeds 1-10; docs/experiments/identification.md, "K-sweep");
#   kappa    the kappa_min sweep (scenarios/kappa-min-sweep.xml, seeds 1-20;
#            docs/experiments/robustness.md, "The separation bound
#            kappa_min"), with trivium-nocusum at kappa_min 1, 1.25, 1.5;
#   rho      the rho sweep at E = 250, 500, 1000 (scenarios/rho-sweep.xml,
#            seeds 1-20; docs/experiments/dispatch.md).
# Seeds 101-200 are the same scenarios with --set run.seed_base=101 --set
# run.seeds=100.  Tables: columns of the runs' sweep.csv (mean ± sd over
# the seeds, 4 significant digits, as in sweep.md), fits from sweep-fits.csv,
# and what is computed here from sweep.csv or episodes.csv (said under each
# table).  Runs take about 4 (flips), 1 (kappa) and 8 (rho) minutes on two
# cores.
# Usage: scripts/held-out-experiments.sh [TRIVIUM] [JOBS] [OUT] [flips] [kappa] [rho]
# (OUT keeps the runs, and a second call reuses their finished cells; default a
# temporary directory, removed at the end.  No experiment named: all three.)
set -eu
. "$(dirname "$0")/seed-sets.sh"
seed_sets_init "$@"
if [ $# -ge 3 ]; then shift 3; else shift $#; fi
which=${*:-flips kappa rho}
held="--set run.seed_base=101 --set run.seeds=100"

# run NAME DIR [ARGS...]: the shipped scenario NAME into OUT/DIR
run() {
  name=$1 dir=$2
  shift 2
  "$T" run -q --jobs "$J" --out "$out/$dir" "$@" "$here/scenarios/$name.xml"
}

# table CSV CONTROLLER-FILTER COLUMN...: a Markdown table of sweep.csv's
# swept keys, controller and the named metrics (mean ± sd, %.4g); rows of
# the controllers matching the filter (an awk regex; "" every controller)
table() {
  csv=$1 filter=$2
  shift 2
  awk -F, -v cols="$*" -v filter="$filter" '
    function num(v) { return (v == "nan" || v == "-nan") ? "nan" : (v == "inf" ? "inf" : sprintf("%.4g", v)) }
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; nk = col["controller"] - 2; nc = split(cols, c, " ")
      line = "|"; rule = "|"
      for (i = 2; i <= nk + 1; i++) { line = line " " $i " |"; rule = rule "---|" }
      line = line " controller |"; rule = rule "---|"
      for (i = 1; i <= nc; i++) { line = line " " c[i] " |"; rule = rule "---|" }
      print line; print rule; next }
    filter == "" || $col["controller"] ~ filter {
      line = "|"
      for (i = 2; i <= nk + 1; i++) line = line " " $i " |"
      line = line " " $col["controller"] " |"
      for (i = 1; i <= nc; i++) line = line " " num($col[c[i]]) " ± " num($col[c[i] "_sd"]) " |"
      print line }' "$csv"
}

# fit DIR CONTROLLER METRIC MODEL: "b (R^2 r2)" and "a" from sweep-fits.csv
fit_b() { awk -F, -v c="$2" -v m="$3" -v f="$4" '$1 == c && $2 == m && $3 == f {printf "%.4g (R^2 %.3f)", $5, $6}' "$out/$1/sweep-fits.csv"; }
fit_a() { awk -F, -v c="$2" -v m="$3" -v f="$4" '$1 == c && $2 == m && $3 == f {printf "%.4g", $4}' "$out/$1/sweep-fits.csv"; }

flips() {
  run flips-sweep flips-1-10
  # shellcheck disable=SC2086
  run flips-sweep flips-101-200 $held
  cols="exposure_total exposure_stationary r_out recovery_episodes commit_lag alarms false_alarms"
  echo "## K-sweep (scenarios/flips-sweep.xml)"
  echo
  echo "Seeds 1-10 (as shipped), sweep.csv:"
  echo
  table "$out/flips-1-10/sweep.csv" "" "$cols"
  echo
  echo "Seeds 101-200, sweep.csv:"
  echo
  table "$out/flips-101-200/sweep.csv" "" "$cols"
  echo
  echo "Slopes per flip (a + b K, least squares of the means over the 6 points; sweep-fits.csv):"
  echo
  echo "| controller | metric | a, seeds 1-10 | b, seeds 1-10 | a, seeds 101-200 | b, seeds 101-200 |"
  echo "|---|---|---|---|---|---|"
  for c in trivium trivium-nocusum; do
    for m in exposure_total r_out; do
      echo "| $c | $m | $(fit_a flips-1-10 $c $m 'a+b*x') | $(fit_b flips-1-10 $c $m 'a+b*x') |" \
        "$(fit_a flips-101-200 $c $m 'a+b*x') | $(fit_b flips-101-200 $c $m 'a+b*x') |"
    done
  done
  echo
  echo "What the detector buys per K (computed here from sweep.csv: trivium-nocusum's mean minus trivium's):"
  echo
  echo "| world.flips | exposure_total, seeds 1-10 | r_out, seeds 1-10 | exposure_total, seeds 101-200 | r_out, seeds 101-200 |"
  echo "|---|---|---|---|---|"
  for d in flips-1-10 flips-101-200; do
    awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
      $col["controller"] == "trivium" {e[$2] = $col["exposure_total"]; r[$2] = $col["r_out"]}
      $col["controller"] == "trivium-nocusum" {printf "%s %.4g %.4g\n", $2, $col["exposure_total"] - e[$2], $col["r_out"] - r[$2]}' \
      "$out/$d/sweep.csv" >"$out/$d/nocusum-difference.txt"
  done
  join "$out/flips-1-10/nocusum-difference.txt" "$out/flips-101-200/nocusum-difference.txt" |
    awk '{printf "| %s | %+g | %+g | %+g | %+g |\n", $1, $2, $3, $4, $5}'
  echo
}

# missed and spurious component-episodes per seed of a point's MAP, from its episodes.csv
edges() {
  awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
    {seeds[$col["seed"]] = 1; t = $col["truth"]; m = $col["map"]
     for (j = 1; j <= length(t); j++) { a = substr(t, j, 1); b = substr(m, j, 1); missed += a == "1" && b == "0"; spurious += a == "0" && b == "1" }}
    END {n = 0; for (s in seeds) n++; printf "%.4g %.4g", missed / n, spurious / n}' "$1/episodes.csv"
}

kappa_table() {
  dir=$out/$1
  echo "| posterior.kappa_min | exposure_total | exposure_stationary | e_id | e_commit | r_out | false_alarms | alarms | missed | spurious |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  table "$dir/sweep.csv" "^trivium$" exposure_total exposure_stationary e_id e_commit r_out false_alarms alarms |
    tail -n +3 | while IFS= read -r line; do
      k=$(echo "$line" | awk -F'|' '{gsub(/ /, "", $2); print $2}')
      e=$(edges "$dir/posterior.kappa_min=$k")
      echo "$line" | sed "s/^| $k | trivium |/| $k |/; s/\$/ ${e% *} | ${e#* } |/"
    done
}

kappa() {
  run kappa-min-sweep kappa-1-20
  # shellcheck disable=SC2086
  run kappa-min-sweep kappa-101-200 $held
  run kappa-min-sweep kappa-nocusum-1-20 -c trivium-nocusum --sweep posterior.kappa_min=1,1.25,1.5
  # shellcheck disable=SC2086
  run kappa-min-sweep kappa-nocusum-101-200 -c trivium-nocusum --sweep posterior.kappa_min=1,1.25,1.5 $held
  echo "## kappa_min sweep (scenarios/kappa-min-sweep.xml)"
  echo
  echo "missed, spurious: per seed, the episodes x components where the MAP reads a present edge absent, an absent one"
  echo "present (computed here from each point's episodes.csv)."
  echo
  echo "Seeds 1-20 (as shipped):"
  echo
  kappa_table kappa-1-20
  echo
  echo "Seeds 101-200:"
  echo
  kappa_table kappa-101-200
  echo
  echo "Without the detector (-c trivium-nocusum --sweep posterior.kappa_min=1,1.25,1.5):"
  echo
  echo "| posterior.kappa_min | seeds | trivium exposure_total | trivium-nocusum exposure_total | trivium exposure_stationary | trivium-nocusum exposure_stationary | trivium false_alarms |"
  echo "|---|---|---|---|---|---|---|"
  for s in 1-20 101-200; do
    awk -F, -v s="$s" 'NR == FNR && FNR == 1 {for (i = 1; i <= NF; i++) a[$i] = i; next}
      NR == FNR {e[$2] = $a["exposure_total"]; st[$2] = $a["exposure_stationary"]; fa[$2] = $a["false_alarms"]; next}
      FNR == 1 {for (i = 1; i <= NF; i++) b[$i] = i; next}
      {printf "| %s | %s | %.4g | %.4g | %.4g | %.4g | %.4g |\n", $2, s, e[$2], $b["exposure_total"], st[$2], $b["exposure_stationary"], fa[$2]}' \
      "$out/kappa-$s/sweep.csv" "$out/kappa-nocusum-$s/sweep.csv"
  done
  echo
}

# rho_table DIR: mean r_out ± sd per gate.rho (rows) and controller x E (columns)
rho_table() {
  awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
    { r = $col["gate.rho"]; e = $col["run.episodes"]; c = $col["controller"]
      if (!(r in seen_r)) { seen_r[r] = 1; rs[++nr] = r }
      if (!((c, e) in seen_ce)) { seen_ce[c, e] = 1; ce[++nce] = c " E = " e; key[nce] = c SUBSEP e }
      v[r, c, e] = sprintf("%.4g ± %.4g", $col["r_out"], $col["r_out_sd"]) }
    END { line = "| gate.rho |"; rule = "|---|"
      for (j = 1; j <= nce; j++) { line = line " " ce[j] " |"; rule = rule "---|" }
      print line; print rule
      for (i = 1; i <= nr; i++) { line = "| " rs[i] " |"; for (j = 1; j <= nce; j++) { split(key[j], k, SUBSEP); line = line " " v[rs[i], k[1], k[2]] " |" }; print line } }' "$out/$1/sweep.csv"
}

# per controller and E: least squares r_out = c0 + c1 rho over the rho values, and the pooled bound fit's line at that E
rho_lines() {
  awk -F, -v fits="$out/$1/sweep-fits.csv" '
    BEGIN { while ((getline l < fits) > 0) { split(l, f, ","); if (f[2] == "r_out") { A[f[1]] = f[4]; B[f[1]] = f[5] } } }
    NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
    { x = $col["gate.rho"]; y = $col["r_out"]; c = $col["controller"]; e = $col["run.episodes"]; k = c SUBSEP e
      if (!(k in n)) order[++m] = k
      n[k]++; sx[k] += x; sy[k] += y; sxx[k] += x * x; sxy[k] += x * y; syy[k] += y * y; ex[k] = $col["exposure_total"] }
    END { for (i = 1; i <= m; i++) { k = order[i]; split(k, p, SUBSEP)
        b = (n[k] * sxy[k] - sx[k] * sy[k]) / (n[k] * sxx[k] - sx[k] * sx[k]); a = (sy[k] - b * sx[k]) / n[k]
        r2 = (n[k] * sxy[k] - sx[k] * sy[k]) ^ 2 / ((n[k] * sxx[k] - sx[k] ^ 2) * (n[k] * syy[k] - sy[k] ^ 2))
        printf "| %s | %s | %.4g | %.4g | %.3f | %.4g | %.4g |\n", p[1], p[2], a, b, r2, A[p[1]] * sqrt(p[2]), B[p[1]] * log(p[2]) } }' \
    "$out/$1/sweep.csv"
}

rho() {
  run rho-sweep rho-1-20
  # shellcheck disable=SC2086
  run rho-sweep rho-101-200 $held
  echo "## rho sweep at E = 250, 500, 1000 (scenarios/rho-sweep.xml)"
  for s in 1-20 101-200; do
    echo
    echo "Seeds $s, r_out (sweep.csv):"
    echo
    rho_table "rho-$s"
  done
  echo
  echo "Exposure per E (sweep.csv; computed here: the same at every rho when min = max):"
  echo
  echo "| controller | E | exposure_total, seeds 1-20 (min, max over rho) | exposure_total, seeds 101-200 (min, max over rho) |"
  echo "|---|---|---|---|"
  for s in 1-20 101-200; do
    awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
      { k = $col["controller"] " " $col["run.episodes"]; v = $col["exposure_total"] + 0
        if (!(k in lo)) { lo[k] = hi[k] = v; order[++m] = k } if (v < lo[k]) lo[k] = v; if (v > hi[k]) hi[k] = v }
      END { for (i = 1; i <= m; i++) printf "%s %.4g,%.4g\n", order[i], lo[order[i]], hi[order[i]] }' \
      "$out/rho-$s/sweep.csv" >"$out/rho-$s/exposure.txt"
  done
  paste -d' ' "$out/rho-1-20/exposure.txt" "$out/rho-101-200/exposure.txt" |
    awk '{split($3, a, ","); split($6, b, ","); printf "| %s | %s | %s, %s | %s, %s |\n", $1, $2, a[1], a[2], b[1], b[2]}'
  echo
  echo "The fit over all 27 points, R_out = a sqrt(E) + b rho ln(E) (sweep-fits.csv):"
  echo
  echo "| controller | a, seeds 1-20 | b, seeds 1-20 | a, seeds 101-200 | b, seeds 101-200 |"
  echo "|---|---|---|---|---|"
  for c in trivium epistemic-reset; do
    echo "| $c | $(fit_a rho-1-20 $c r_out 'a*sqrt(E)+b*x*ln(E)') | $(fit_b rho-1-20 $c r_out 'a*sqrt(E)+b*x*ln(E)') |" \
      "$(fit_a rho-101-200 $c r_out 'a*sqrt(E)+b*x*ln(E)') | $(fit_b rho-101-200 $c r_out 'a*sqrt(E)+b*x*ln(E)') |"
  done
  for s in 1-20 101-200; do
    echo
    echo "Seeds $s, per E: the least-squares line r_out = c0 + c1 rho over the 9 rho values (computed here from"
    echo "sweep.csv), against the pooled fit's a sqrt(E) and b ln(E):"
    echo
    echo "| controller | E | c0 | c1 | R^2 | a sqrt(E) | b ln(E) |"
    echo "|---|---|---|---|---|---|---|"
    rho_lines "rho-$s"
  done
  echo
}

for x in $which; do
  case $x in
  flips | kappa | rho) $x ;;
  *) echo "held-out-experiments.sh: unknown experiment '$x' (flips, kappa, rho)" >&2; exit 2 ;;
  esac
done
