#!/bin/sh
# Random disruptions (docs/experiments/identification.md, "Random
# disruptions"): runs scenarios/random-disruption.xml on seeds 1-20 (as
# shipped) and on seeds 101-200, and prints per seed set (1) per
# disruption rate and controller the mean number of change-points, the
# exposure, committed exposure, outcome regret, alarms and false alarms
# (means ± sd over the seeds, from summary.csv), and (2) per controller
# the least-squares line of a cell's exposure on its number of
# change-points over every seed and rate (read off the truth column of
# episodes.csv), with R^2.
# Usage: scripts/random-disruption.sh [TRIVIUM] [JOBS] [OUT]
# (OUT keeps the runs; default a temporary directory, removed at the end.)
set -eu
. "$(dirname "$0")/seed-sets.sh"
seed_sets_init "$@"
# per cell: controller, change-points, exposure
cells() {
  awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
    { k = $col["controller"] SUBSEP $col["seed"]
      if (!(k in first)) { first[k] = 1; order[++n] = k; prev[k] = $col["truth"] }
      if ($col["truth"] != prev[k]) cps[k]++
      prev[k] = $col["truth"]; ex[k] += $col["posterior_exposure"] }
    END { for (i = 1; i <= n; i++) { split(order[i], a, SUBSEP); print a[1], cps[order[i]] + 0, ex[order[i]] } }' "$1"
}
tables() {
  dir=$1
  echo "| world.disruption_rate | controller | change-points | exposure_total | committed_exposure_total | r_out | alarms | false_alarms |"
  echo "|---|---|---|---|---|---|---|---|"
  : > "$dir/cells.txt"
  for point in "$dir"/world.disruption_rate=*; do
    rate=${point##*=}
    cells "$point/episodes.csv" > "$point/cells.txt"
    cat "$point/cells.txt" >> "$dir/cells.txt"
    awk -F, -v rate="$rate" -v cells="$point/cells.txt" '
      BEGIN { while ((getline line < cells) > 0) { split(line, a, " "); n[a[1]]++; c[a[1]] += a[2] } }
      { m[$1, $2] = $3; sd[$1, $2] = $4; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
      END { for (i = 1; i <= k; i++) { x = order[i]; if (x == "controller") continue
          printf "| %s | %s | %.2f | %.2f ± %.2f | %.2f ± %.2f | %.0f ± %.0f | %.2f | %.2f |\n", rate, x, c[x] / n[x],
            m[x, "exposure_total"], sd[x, "exposure_total"], m[x, "committed_exposure_total"],
            sd[x, "committed_exposure_total"], m[x, "r_out"], sd[x, "r_out"], m[x, "alarms"], m[x, "false_alarms"] } }' \
      "$point/summary.csv"
  done
  echo
  echo "| controller | cells | exposure = a + b x change-points: a | b | R^2 |"
  echo "|---|---|---|---|---|"
  awk '{ c = $1; n[c]++; sx[c] += $2; sy[c] += $3; sxx[c] += $2 * $2; sxy[c] += $2 * $3; syy[c] += $3 * $3
         if (!(c in seen)) { seen[c] = 1; order[++k] = c } }
    END { for (i = 1; i <= k; i++) { c = order[i]
        vx = sxx[c] - sx[c] * sx[c] / n[c]; vy = syy[c] - sy[c] * sy[c] / n[c]; cxy = sxy[c] - sx[c] * sy[c] / n[c]
        b = vx > 0 ? cxy / vx : 0; a = (sy[c] - b * sx[c]) / n[c]
        r2 = vx > 0 && vy > 0 ? cxy * cxy / (vx * vy) : 0
        printf "| %s | %d | %.2f | %.3f | %.3f |\n", c, n[c], a, b, r2 } }' "$dir/cells.txt"
}
seed_sets_run random-disruption seeds-1-20
seed_sets_tables random-disruption seeds-1-20
