#!/bin/sh
# Measures the posterior under a wrong model (the CausalBench-Seq variants of
# docs/experiments/robustness.md) for the trivium controller: variance
# inflation (MAP errors in the 150 inflated episodes, stationary exposure
# elsewhere), the attenuating nonlinear variant at nu = 2, the saturating tanh
# variant at nu = 0 and 2, and the headline stream, one line per posterior
# setting.  Used for the defaults in docs/controller.md.
# Usage: scripts/measure-robustness.sh [TRIVIUM] [JOBS] [SEEDS]
set -eu
T=${1:-_build/trivium}
J=${2:-2}
S=${3:-20}
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { # NAME SCENARIO ARGS...: one run, trivium only
  n=$1 sc=$2
  shift 2
  $T run -q --jobs "$J" --controllers trivium --set run.seeds="$S" --out "$out/$n" "$here/scenarios/$sc.xml" "$@"
}
metric() { # DIR METRIC: trivium's mean of METRIC in summary.csv
  awk -F, -v m="$2" '$1=="trivium" && $2==m {print $3}' "$1/summary.csv"
}
echo "| posterior | variance: inflated episodes with a wrong MAP | variance: stationary exposure outside them | nonlinear nu=2: exposure | tanh nu=0 / nu=2: exposure | headline: exposure (stationary) |"
echo "|---|---|---|---|---|---|"
row() {
  name=$1
  shift
  run v variance "$@"
  run n nonlinear-nu2 "$@"
  run t0 nonlinear-tanh --sweep world.nu=0 "$@"
  run t2 nonlinear-tanh --sweep world.nu=2 "$@"
  run h headline "$@"
  # episodes.csv columns: episode 3, phase 4, truth 7, map 8
  var=$(awk -F, 'NR > 1 && $2 == "trivium" {
      if ($3 >= 150 && $3 < 300) { n++; w += $7 != $8 } else if ($4 == "stationary") o += $7 != $8 }
    END {printf "%d of %d (%.1f %%)|%d", w, n, 100 * w / n, o}' "$out/v/episodes.csv")
  printf "| %s | %s | %s | %s | %s / %s | %s (%s) |\n" "$name" "${var%|*}" "${var#*|}" "$(metric "$out/n" exposure_total)" \
    "$(metric "$out/t0/world.nu=0" exposure_total)" "$(metric "$out/t2/world.nu=2" exposure_total)" \
    "$(metric "$out/h" exposure_total)" "$(metric "$out/h" exposure_stationary)"
  rm -rf "$out"/*
}
row "defaults (estimated noise, redraw 0.1)"
row "known noise, redraw 0.1" --set posterior.noise=known
row "estimated noise, redraw 1" --set posterior.redraw=1
row "estimated noise, redraw 0.3" --set posterior.redraw=0.3
row "estimated noise, redraw 0" --set posterior.redraw=0
row "known noise, redraw 1 (a fresh effect every episode)" --set posterior.noise=known --set posterior.redraw=1
