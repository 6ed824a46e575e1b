#!/bin/sh
# Measures the change-tracking and slab choices (docs/controller.md,
# "Posterior: ...") on the headline stream (20 seeds): one line per setting
# with trivium's hard exposure by phase, committed exposure and regrets.  Used
# to choose the defaults in docs/controller.md.
# Usage: scripts/measure-tracking.sh [TRIVIUM] [JOBS]
set -eu
T=${1:-_build/trivium}
J=${2:-2}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
row() {
  name=$1; shift
  $T run -q --jobs "$J" --controllers trivium --out "$out/$name" "$@"
  awk -F, -v n="$name" '$1=="trivium" {v[$2]=$3; s[$2]=$4}
    END {printf "| %s | %.2f | %.2f | %.2f | %.2f ± %.2f | %.2f | %.1f | %.0f |\n", n, v["exposure_init"],
      v["exposure_recovery"], v["exposure_stationary"], v["exposure_total"], s["exposure_total"],
      v["committed_exposure_total"], v["r_out"], v["r_epi"]}' "$out/$name/summary.csv"
}
echo "| setting | init | recovery | stationary | total (± sd) | committed | R_out | R_epi |"
echo "|---|---|---|---|---|---|---|---|"
for h in 0.01 0.003 0.001 0.0001; do
  row "hazard h=$h, lambda=0.9, separated" --set posterior.hazard=$h
done
row "hazard h=0.001, lambda=0.98, separated" --set posterior.lambda=0.98
row "hazard h=0.001, gaussian slab" --set posterior.slab=gaussian
row "hazard h=0.01, gaussian slab" --set posterior.slab=gaussian --set posterior.hazard=0.01
for l in 0.9 0.8; do
  row "forgetting lambda=$l, separated" --set posterior.track=forgetting --set posterior.lambda=$l
done
row "forgetting lambda=0.9, gaussian slab" --set posterior.track=forgetting --set posterior.slab=gaussian
row "none (pooled since episode 0), separated" --set posterior.track=none
