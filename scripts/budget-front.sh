#!/bin/sh
# The front-loaded budget against the oracle design
# (docs/experiments/probing.md, "Front-loading against the oracle design"):
# runs scenarios/budget-front.xml on seeds 1-20 (as shipped) and on seeds
# 101-200, and prints one Markdown table per seed set: per budget.front
# point and controller, episodes to identify (e_id, e_commit), the episodes
# until the posterior entropy first falls to commit.h_ent (0.8 bits; mean
# and median over the seeds, with the probes spent by then), exposures,
# outcome regret and probes.  Means ± sd over the seeds.
# Usage: scripts/budget-front.sh [TRIVIUM] [JOBS] [OUT]
# (OUT keeps the runs; default a temporary directory, removed at the end.)
set -eu
. "$(dirname "$0")/seed-sets.sh"
seed_sets_init "$@"
table() {
  dir=$1
  echo "| budget.front | controller | e_id | e_commit | episodes to H <= 0.8 bits (mean, median) | probes by then | exposure_stationary | exposure_total | r_out | probes |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for point in "$dir"/budget.front=*; do
    f=${point##*=}
    # episodes until the entropy first reaches 0.8 bits, per seed
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      { k = $col["controller"] SUBSEP $col["seed"]
        if (k in done) next
        cum[k] += $col["probes"]
        if ($col["entropy_bits"] + 0 <= 0.8) { done[k] = 1; print $col["controller"], $col["episode"] + 1, cum[k] } }' \
      "$point/episodes.csv" | sort -k1,1 -k2,2n > "$point/h-episodes.txt"
    awk -F, -v f="$f" -v h="$point/h-episodes.txt" '
      BEGIN { while ((getline line < h) > 0) { split(line, a, " "); c = a[1]; n[c]++; s[c] += a[2]; p[c] += a[3]; v[c, n[c]] = a[2] } }
      { m[$1, $2] = $3; sd[$1, $2] = $4; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
      END { for (i = 1; i <= k; i++) { c = order[i]; if (c == "controller") continue
          med = n[c] % 2 ? v[c, (n[c] + 1) / 2] : (v[c, n[c] / 2] + v[c, n[c] / 2 + 1]) / 2
          printf "| %s | %s | %.2f ± %.2f | %.2f ± %.2f | %.2f, %g (%d seeds) | %.1f | %.2f ± %.2f | %.2f ± %.2f | %.0f ± %.0f | %.0f |\n",
            f, c, m[c, "e_id"], sd[c, "e_id"], m[c, "e_commit"], sd[c, "e_commit"], s[c] / n[c], med, n[c], p[c] / n[c],
            m[c, "exposure_stationary"], sd[c, "exposure_stationary"], m[c, "exposure_total"], sd[c, "exposure_total"],
            m[c, "r_out"], sd[c, "r_out"], m[c, "probes"] } }' "$point/summary.csv"
  done
}
seed_sets_run budget-front seeds-1-20
echo "Seeds 1-20 (scenarios/budget-front.xml as shipped):"
echo
table "$out/seeds-1-20"
echo
echo "Seeds 101-200 (--set run.seed_base=101 --set run.seeds=100):"
echo
table "$out/seeds-101-200"
