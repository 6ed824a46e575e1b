#!/bin/sh
# scripts/memory-bench.sh [TRIVIUM] - memory per cell against the length of
# a run: max RSS of a cell (one seed of the default world, CausalBench-Seq,
# under each of trivium and rlvr-memory) at 1e3, 1e4 and 1e5 episodes, and
# of the parent process.  Memory must not grow with the episodes: rows are
# streamed to disk and decided episodes dropped once every log replica
# holds them.  Prints a Markdown table; `make bench` runs it.
set -eu
T=${1:-./trivium}
echo "| controller | episodes | wall (s) | max RSS of the cell (MB) | max RSS of the parent (MB) |"
echo "|---|---|---|---|---|"
for c in trivium rlvr-memory; do
  for e in 1000 10000 100000; do
    out=$("$T" bench -c "$c" --set run.seeds=1 --set run.episodes="$e" -j1)
    wall=$(echo "$out" | sed -n 's/^bench: wall time \([0-9.]*\) s.*/\1/p')
    cell=$(echo "$out" | sed -n 's/^bench: max RSS \([0-9.]*\) MB (the largest cell), \([0-9.]*\) MB (the parent)/\1/p')
    parent=$(echo "$out" | sed -n 's/^bench: max RSS \([0-9.]*\) MB (the largest cell), \([0-9.]*\) MB (the parent)/\2/p')
    echo "| $c | $e | $wall | $cell | $parent |"
  done
done
