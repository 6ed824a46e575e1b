#!/bin/sh
# docs-results.sh - regenerates the numbers docs/experiments/ and
# docs/urs.md quote, on the seeds each table uses and on held-out seeds
# 101-200, in one command (`make docs-results` runs it on the built
# program).
#
#   scripts/docs-results.sh [-j JOBS] [-o OUT] [-t TRIVIUM] [-l] [PAGE...]
#
# PAGE is a page of docs/experiments/ (identification, detection, probing,
# robustness, dispatch, faults-and-agents) or urs (docs/urs.md, the city
# scenarios); none: every page.  For each
# page, every experiment the page quotes is run as shipped into
# OUT/PAGE/NAME/seeds-shipped and with --set run.seed_base=101 --set
# run.seeds=100 into OUT/PAGE/NAME/seeds-101-200; the faults-and-agents
# page's runs, as large as a city, are held out as the page documents
# them: the shipped number of seeds from 101 (OUT/PAGE/NAME/seeds-101-on).
# The pages' own scripts (which print both seed sets themselves) write
# their tables into OUT/PAGE/SCRIPT.md.  OUT/index.md
# lists what ran, where its tables are, and how long it took.  OUT
# (default results/docs-results) is kept: a second call finishes what an
# interrupted one left and reuses every finished cell.  -l lists the
# experiments and scripts of the pages without running them (one line
# each: PAGE, NAME, and the trivium run options or the script).
#
# tests/docs-results.sh checks that every `trivium run -e NAME` and every
# script docs/experiments/ names is in this list, and every scenario
# docs/urs.md runs in the urs page's.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
J=2
out=$here/results/docs-results
T=$here/_build/trivium
list=0
while getopts j:o:t:l opt; do
  case $opt in
    j) J=$OPTARG ;;
    o) out=$OPTARG ;;
    t) T=$OPTARG ;;
    l) list=1 ;;
    *) echo "usage: $0 [-j JOBS] [-o OUT] [-t TRIVIUM] [-l] [PAGE...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
pages=${*:-identification detection probing robustness dispatch faults-and-agents urs}
for p in $pages; do
  case $p in
    identification | detection | probing | robustness | dispatch | faults-and-agents | urs) ;;
    *) echo "$0: unknown page '$p'; expected identification, detection, probing, robustness, dispatch, faults-and-agents or urs" >&2; exit 2 ;;
  esac
done

# Per page: `run NAME SCENARIO [trivium run options]` (as shipped and on
# 101-200), `shifted` (the same, held out from seed 101 with the shipped
# count), and `script NAME SCENARIO COMMAND...` (a script that prints both
# sets, of the scenario it runs; - when it runs several).
experiments() {
  case $1 in
    identification)
      run headline headline
      run headline-horizons headline --sweep run.episodes=500,1000,2000
      run separation separation
      run recovery recovery
      run flips-k1 flips-k1
      run flips-k3 flips-k3
      run flips-k5 flips-k5
      run lrcp-audit lrcp-audit
      run ideal-vs-executed ideal-vs-executed
      script held-out-flips flips-sweep held-out-experiments.sh flips
      script lrcp-contraction lrcp-edit lrcp-contraction.sh
      script random-disruption random-disruption random-disruption.sh
      ;;
    detection)
      run detector-audit-loglik-cusum detector-audit-loglik-cusum
      run detector-audit-ce-eig-cusum detector-audit-ce-eig-cusum
      run detector-audit-residual-ratio detector-audit-residual-ratio
      ;;
    probing)
      run budget-sweep budget-sweep
      run ig-vs-roundrobin ig-vs-roundrobin
      run confounder-scaling confounder-scaling
      run memory-ablation memory-ablation
      script budget-front budget-front budget-front.sh
      ;;
    robustness)
      run variance variance
      run variance-residual-ratio variance-residual-ratio
      run nonlinear-sweep nonlinear-sweep
      run nonlinear-tanh nonlinear-tanh
      run nonlinear-tanh-scale nonlinear-tanh-scale
      script held-out-kappa kappa-min-sweep held-out-experiments.sh kappa
      script outside-cause outside-cause outside-cause.sh
      script measure-robustness - measure-robustness.sh
      ;;
    dispatch)
      script held-out-rho rho-sweep held-out-experiments.sh rho
      ;;
    faults-and-agents)
      shifted fault-sweep fault-sweep
      shifted ctl-atomic-vs-best-effort ctl-atomic-vs-best-effort
      shifted multi-agent multi-agent
      shifted multi-agent-coalitions multi-agent --set budget.coalition=0
      shifted urs-multi-agent urs-multi-agent
      shifted urs-multi-agent-coalition urs-multi-agent -c trivium,trivium-roundrobin,trivium-parallel \
        --set run.seeds=3 --set budget.coalition=1 --sweep agents.count=1,16,64
      speedup multi-agent-speedup
      study faults-and-agents
      ;;
    urs)
      # docs/urs.md, "Measured": the four controllers on the fleet with
      # travel times (the default), and the table's episodes to identify
      for c in sf nyc sg; do run urs-$c urs-$c -c trivium,rlvr,rlvr-memory,reactive; done
      # the figures urs.md (and controller.md) quote as measured on the
      # minute-a-cell fleet (world.travel = hops), with the options given
      for c in sf nyc sg; do run urs-$c-20-seeds urs-$c -c trivium --set run.seeds=20 --set world.travel=hops; done
      run urs-sf-drivers urs-sf --set world.temperature=0.2 --set world.accept_rings=1 --set world.travel=hops
      for c in sf nyc sg; do
        run urs-$c-one-team urs-$c -c trivium --set budget.coalition=1 --set world.travel=hops
        run urs-$c-first-minutes urs-$c -c trivium --set budget.probe_value=0 --set world.travel=hops
        run urs-$c-redraw urs-$c -c trivium --set posterior.redraw=0.1 --set world.travel=hops
        run urs-$c-noise urs-$c -c trivium --set posterior.noise=estimated --set world.travel=hops
      done
      ;;
  esac
}

if [ "$list" = 1 ]; then
  run() { n=$1 sc=$2; shift 2; echo "$page $n -e $sc $*"; }
  shifted() { run "$@"; }
  script() {
    n=$1 sc=$2
    shift 2
    if [ "$sc" = - ]; then echo "$page $n scripts/$*"; else echo "$page $n -e $sc scripts/$*"; fi
  }
  speedup() { echo "$page $1 scripts/paired-speedup.sh"; }
  study() { echo "$page $1 scripts/faults-and-agents.sh"; }
  for page in $pages; do experiments "$page"; done
  exit 0
fi

[ -x "$T" ] || { echo "$0: $T is not an executable trivium program (build it first, or -t)" >&2; exit 2; }
T=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
mkdir -p "$out"
index=$out/index.md
: >"$index.new"
stamp() { date +%s; }
note() { # PAGE NAME WHAT SECONDS
  printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" >>"$index.new"
}
# pair HELD MORE NAME SCENARIO [options]: the scenario as shipped into
# OUT/PAGE/NAME/seeds-shipped, and from seed 101 (with MORE, e.g. 100
# seeds) into OUT/PAGE/NAME/HELD
pair() {
  held=$1 more=$2 n=$3 sc=$4
  shift 4
  d=$out/$page/$n
  mkdir -p "$d"
  t0=$(stamp)
  "$T" run -q --jobs "$J" --out "$d/seeds-shipped" "$here/scenarios/$sc.xml" "$@"
  # shellcheck disable=SC2086
  "$T" run -q --jobs "$J" --out "$d/$held" "$here/scenarios/$sc.xml" "$@" --set run.seed_base=101 $more
  note "$page" "$n" "\`trivium run -e $sc${*:+ $*}\`: $page/$n/seeds-shipped, $page/$n/$held" $(($(stamp) - t0))
}
run() { pair seeds-101-200 "--set run.seeds=100" "$@"; }
shifted() { pair seeds-101-on "" "$@"; }
# the paired speedups of the multi-agent page, as it runs them
speedup() {
  n=$1
  d=$out/$page/$n
  mkdir -p "$d"
  t0=$(stamp)
  for c in 1 0; do
    for b in 1 101; do
      "$T" run -q --jobs "$J" "$here/scenarios/multi-agent.xml" -c trivium,trivium-roundrobin,trivium-parallel \
        --set run.episodes=500 --set sim.probe_flops=1e9 --set sim.step_seconds=0.001 --cfg=network/model:CM02 \
        --set budget.coalition=$c --set run.seed_base=$b -o "$d/out-$c-$b"
      sh "$here/scripts/paired-speedup.sh" "$d/out-$c-$b" trivium >"$d/speedup-$c-$b.md"
    done
  done
  note "$page" "$n" "the loop of faults-and-agents.md, \"Paired speedups\": $page/$n/speedup-COALITION-SEEDBASE.md" \
    $(($(stamp) - t0))
}
script() {
  n=$1 s=$3
  shift 3
  mkdir -p "$out/$page"
  t0=$(stamp)
  case $s in
    measure-robustness.sh) sh "$here/scripts/$s" "$T" "$J" 20 >"$out/$page/$n.md" ;;
    *) sh "$here/scripts/$s" "$T" "$J" "$out/$page/$n" "$@" >"$out/$page/$n.md" ;;
  esac
  note "$page" "$n" "\`scripts/$s $*\`: $page/$n.md" $(($(stamp) - t0))
}
study() {
  n=$1
  d=$out/$page/$n
  mkdir -p "$d"
  t0=$(stamp)
  TRIVIUM=$T sh "$here/scripts/faults-and-agents.sh" -j "$J" -o "$d/seeds-1-10" >/dev/null
  TRIVIUM=$T sh "$here/scripts/faults-and-agents.sh" -j "$J" -o "$d/seeds-101-110" -- --set run.seed_base=101 >/dev/null
  note "$page" "$n" "\`scripts/faults-and-agents.sh\`: $page/$n/seeds-1-10/study.md, $page/$n/seeds-101-110/study.md" \
    $(($(stamp) - t0))
}
for page in $pages; do experiments "$page"; done
{
  echo "# docs/experiments/ and docs/urs.md regenerated"
  echo
  echo "By \`scripts/docs-results.sh\` with $("$T" --version 2>/dev/null | head -1), $J jobs."
  echo "Each run's tables are its summary.md (sweep.md for a sweep); a script's are its .md."
  echo
  echo "| page | experiment | command and outputs | seconds |"
  echo "|---|---|---|---|"
  cat "$index.new"
} >"$index"
rm -f "$index.new"
echo "$index"
