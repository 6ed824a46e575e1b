# seed-sets.sh - sourced by the scripts that quote an experiment on two seed
# sets (budget-front.sh, lrcp-contraction.sh, random-disruption.sh,
# outside-cause.sh, held-out-experiments.sh): their
# arguments [TRIVIUM] [JOBS] [OUT], and the run of a scenario as shipped
# and on seeds 101-200.  Not a script of its own.
#
# seed_sets_init "$@" sets T (the trivium program, default
# _build/trivium), J (jobs, default 2), here (the source tree) and out (OUT,
# kept; absent or empty: a temporary directory removed at the end).
seed_sets_init() {
  T=${1:-_build/trivium}
  J=${2:-2}
  here=$(cd "$(dirname "$0")/.." && pwd)
  if [ -n "${3:-}" ]; then
    out=$3
    mkdir -p "$out"
  else
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
  fi
}

# seed_sets_run NAME SHIPPED: scenarios/NAME.xml as shipped into
# $out/SHIPPED (e.g. seeds-1-20) and on seeds 101-200 into
# $out/seeds-101-200.
seed_sets_run() {
  "$T" run -q --jobs "$J" --out "$out/$2" "$here/scenarios/$1.xml"
  "$T" run -q --jobs "$J" --out "$out/seeds-101-200" --set run.seed_base=101 --set run.seeds=100 \
    "$here/scenarios/$1.xml"
}
