#!/bin/sh
# LRCP's two repairs and the contraction of their residual traces
# (docs/experiments/identification.md, "LRCP's two repairs"): runs
# scenarios/lrcp-edit.xml on seeds 1-10 (as shipped) and on seeds 101-200,
# and prints one Markdown table per seed set.  Per number of components
# and repair (lrcp.edit), for trivium: from summary.csv the committed
# exposure, commit lag, stationary exposure and outcome regret (means
# over the seeds); from the lrcp_status and lrcp_trace columns of
# episodes.csv the calls per seed, the share that converged and that were
# flagged, the mean first residual count eps_0, and the geometric rate of
# the traces: beta = exp(sum_k k ln(eps_k / eps_0) / sum_k k^2), least
# squares of ln(eps_k / eps_0) = k ln(beta) over every trace's entries
# k >= 1 with eps_k > 0 (a trace that ends at 0 contributes the entries
# before its 0; "-" when no trace has one).
# Usage: scripts/lrcp-contraction.sh [TRIVIUM] [JOBS] [OUT]
# (OUT keeps the runs; default a temporary directory, removed at the end.)
set -eu
. "$(dirname "$0")/seed-sets.sh"
seed_sets_init "$@"
table() {
  dir=$1
  echo "| components | lrcp.edit | committed_exposure_total | commit_lag | exposure_stationary | r_out | LRCP calls per seed | converged | flagged | mean eps_0 | entries k >= 1 with eps_k > 0 | beta (geometric fit) |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  for n in 12 24 48; do
    for edit in map local; do
      point="$dir/world.components=${n}_lrcp.edit=$edit"
      seeds=$(awk -F, '$1 == "trivium" && $2 == "exposure_total" {print $7}' "$point/summary.csv")
      sums=$(awk -F, '$1 == "trivium" {v[$2] = $3}
        END {printf "%.2f | %.2f | %.2f | %.0f", v["committed_exposure_total"], v["commit_lag"],
          v["exposure_stationary"], v["r_out"]}' "$point/summary.csv")
      awk -F, -v n="$n" -v edit="$edit" -v seeds="$seeds" -v sums="$sums" '
        NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
        $col["controller"] != "trivium" || $col["lrcp_status"] == "none" {next}
        { calls++; st[$col["lrcp_status"]]++
          k = split($col["lrcp_trace"], e, ";"); e0 += e[1]
          for (i = 2; i <= k; i++) if (e[i] > 0 && e[1] > 0) { x = i - 1; sxy += x * log(e[i] / e[1]); sxx += x * x; m++ } }
        END { beta = sxx > 0 ? sprintf("%.3f", exp(sxy / sxx)) : "-"
          printf "| %s | %s | %s | %.1f | %.0f %% | %.0f %% | %.2f | %d | %s |\n", n, edit, sums, calls / seeds,
            calls ? 100 * st["converged"] / calls : 0, calls ? 100 * st["flagged"] / calls : 0, calls ? e0 / calls : 0,
            m, beta }' "$point/episodes.csv"
    done
  done
}
seed_sets_run lrcp-edit seeds-1-10
echo "Seeds 1-10 (scenarios/lrcp-edit.xml as shipped):"
echo
table "$out/seeds-1-10"
echo
echo "Seeds 101-200 (--set run.seed_base=101 --set run.seeds=100):"
echo
table "$out/seeds-101-200"
