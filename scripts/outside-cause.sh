#!/bin/sh
# A cause outside the candidate graph (docs/experiments/robustness.md, "A
# cause outside the candidate graph"): runs scenarios/outside-cause.xml on
# seeds 1-20 (as shipped) and on seeds 101-200, and prints per seed set and
# controller the exposure (posterior and committed), outcome regret and
# alarms (means ± sd over the seeds, from summary.csv), and for trivium-grow
# the episode at which Z->Y joined its graph (the first row with p_Z_Y not
# 0: median and range), how many seeds grew before Z acts (episode 150),
# and how many never held Z->Y present within [150, 300).  The figure the
# docs show is OUT/seeds-101-200/figures/regret.svg.
# Usage: scripts/outside-cause.sh [TRIVIUM] [JOBS] [OUT]
# (OUT keeps the runs; default a temporary directory, removed at the end.)
set -eu
. "$(dirname "$0")/seed-sets.sh"
seed_sets_init "$@"
tables() {
  dir=$1
  echo "| controller | exposure_total | committed_exposure_total | r_out | alarms |"
  echo "|---|---|---|---|---|"
  awk -F, '{ m[$1, $2] = $3; sd[$1, $2] = $4; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
    END { for (i = 1; i <= k; i++) { x = order[i]; if (x == "controller") continue
        printf "| %s | %.2f ± %.2f | %.2f ± %.2f | %.0f ± %.0f | %.2f ± %.2f |\n", x, m[x, "exposure_total"],
          sd[x, "exposure_total"], m[x, "committed_exposure_total"], sd[x, "committed_exposure_total"], m[x, "r_out"],
          sd[x, "r_out"], m[x, "alarms"], sd[x, "alarms"] } }' "$dir/summary.csv"
  echo
  awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
    $col["controller"] != "trivium-grow" {next}
    { s = $col["seed"]; e = $col["episode"] + 0; if (!(s in seen)) { seen[s] = 1; n++ }
      if ($col["p_Z_Y"] + 0 != 0 && !(s in grown)) grown[s] = e
      if ($col["p_Z_Y"] + 0 > 0.5 && e >= 150 && e < 300) held[s] = 1 }
    END { for (s in grown) { g[++m] = grown[s]; if (grown[s] < 150) early++ }
      for (i = 2; i <= m; i++) { v = g[i]; for (j = i - 1; j >= 1 && g[j] > v; j--) g[j + 1] = g[j]; g[j + 1] = v }
      for (s in seen) if (!(s in held)) never++
      printf "trivium-grow: Z->Y joined the graph on %d of %d seeds, at episode %d (median; range %d to %d); ",
        m, n, m ? g[int((m + 1) / 2)] : -1, m ? g[1] : -1, m ? g[m] : -1
      printf "%d seeds before Z acts (episode 150); %d seeds never held Z->Y present within [150, 300)\n",
        early + 0, never + 0 }' "$dir/episodes.csv"
}
seed_sets_run outside-cause seeds-1-20
echo "Seeds 1-20 (scenarios/outside-cause.xml as shipped):"
echo
tables "$out/seeds-1-20"
echo
echo "Seeds 101-200 (--set run.seed_base=101 --set run.seeds=100):"
echo
tables "$out/seeds-101-200"
