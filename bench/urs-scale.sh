#!/bin/sh
# urs-scale.sh [DRIVERS...] - the cost of a city against its fleet:
# scenarios/urs-nyc.xml, Trivium, seed 1, 120-minute episodes, with D
# drivers on the city's 16 towers (default 128 512 1024 2048 4096 10000).
# For each D it runs 1 and 5 episodes (`--figures none -j 1`) and prints
# a markdown row: the CPU seconds of an episode (user + system, the
# difference of the two runs over 4: the cell's set-up cancels), the
# cost per driver-step (that over D x 120), the maximum RSS of the
# 5-episode run, its commit failures and late steps (episodes.csv), and
# the project's skeleton (bench/skeleton, the same SimGrid calls without
# maths) for the same D, its CPU per episode measured the same way.  Run
# from the project root after `make trivium bench/skeleton`.
# Environment: TRIVIUM (default _build/trivium), SKELETON (default
# _build/bench/skeleton).
set -eu
T=${TRIVIUM:-_build/trivium}
S=${SKELETON:-_build/bench/skeleton}
[ -x "$T" ] && [ -x "$S" ] || { echo "$0: build first ($T, $S)" >&2; exit 2; }
drivers=${*:-128 512 1024 2048 4096 10000}
for d in $drivers; do
  case $d in '' | *[!0-9]*) echo "$0: '$d' is not a number of drivers" >&2; exit 2 ;; esac
done
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cpu() { awk '{print $1 + $2, $3}' "$1"; } # user system maxrss(KB) -> cpu maxrss
echo "| drivers | CPU s / episode | us / driver-step | max RSS (MB) | commit failures | late steps | skeleton CPU s / episode | ratio |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for d in $drivers; do
  for e in 1 5; do
    /usr/bin/time -f "%U %S %M" -o "$w/t$e" "$T" run scenarios/urs-nyc.xml -c trivium --set run.seeds=1 \
      --set run.episodes=$e --set agents.count="$d" --figures none -q -j 1 -o "$w/r$d-$e" >/dev/null
    /usr/bin/time -f "%U %S %M" -o "$w/s$e" "$S" --platform platforms/urs-nyc.xml --agent-hosts 'tower-*' \
      --agents "$d" --steps 120 --episodes $e --barrier --step-seconds 60 >/dev/null
  done
  set -- $(cpu "$w/t1") $(cpu "$w/t5") $(cpu "$w/s1") $(cpu "$w/s5")
  awk -F, -v d="$d" -v t1="$1" -v t5="$3" -v rss="$4" -v s1="$5" -v s5="$7" '
    NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "commit_failures") f = i; if ($i == "steps_late") l = i } next }
    { fail += $f; late += $l }
    END {
      ep = (t5 - t1) / 4; sk = (s5 - s1) / 4
      printf "| %d | %.2f | %.2f | %.0f | %d | %d | %.2f | %.2fx |\n", d, ep, ep / (d * 120) * 1e6, rss / 1024, fail, late,
        sk, (sk > 0 ? ep / sk : 0)
    }' "$w/r$d-5/episodes.csv"
done
echo
echo "(load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores)"
