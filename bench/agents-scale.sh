#!/bin/sh
# agents-scale.sh [AGENTS...] - the cost of many agents sharing one log:
# scenarios/multi-agent.xml, Trivium, seed 1, M agents (default 1024 4096
# 16384), EPISODES episodes each (default 20), `--figures none -j 1`.
# For each M it prints a markdown row: the run's CPU seconds (user +
# system), the cost per agent-episode, the maximum RSS and what it is
# per agent, the commits, commit failures and retries (attempts beyond
# the first, from episodes.csv), then the exponent of CPU against agents
# (least squares of log CPU on log M over the rows).  Past about 28,000
# agents the run turns SimGrid's stack guard pages off by itself (the
# mappings they take exceed vm.max_map_count; docs/simgrid-plugin.md).
# Run from the project root after `make trivium`.
# Environment: TRIVIUM (default _build/trivium), EPISODES (default 20).
set -eu
T=${TRIVIUM:-_build/trivium}
E=${EPISODES:-20}
[ -x "$T" ] || { echo "$0: build first ($T)" >&2; exit 2; }
case $E in '' | *[!0-9]* | 0) echo "$0: EPISODES '$E' is not a positive number" >&2; exit 2 ;; esac
agents=${*:-1024 4096 16384}
for m in $agents; do
  case $m in '' | *[!0-9]* | 0) echo "$0: '$m' is not a number of agents" >&2; exit 2 ;; esac
done
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
echo "| agents | episodes | CPU s | us / agent-episode | max RSS (MB) | kB / agent | commits | commit failures | retries |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for m in $agents; do
  /usr/bin/time -f "%U %S %M" -o "$w/t$m" "$T" run scenarios/multi-agent.xml -c trivium --set run.seeds=1 \
    --set run.episodes="$E" --sweep=agents.count="$m" --figures none -q -j 1 -o "$w/r$m" >/dev/null 2>"$w/err$m" ||
    { cat "$w/err$m" >&2; exit 1; }
  read -r user sys rss < "$w/t$m"
  awk -F, -v m="$m" -v e="$E" -v cpu="$(echo "$user $sys" | awk '{print $1 + $2}')" -v rss="$rss" '
    NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "commits") c = i; if ($i == "commit_attempts") a = i
                                          if ($i == "commit_failures") f = i } next }
    { commits += $c; attempts += $a; fail += $f }
    END {
      printf "| %d | %d | %.2f | %.1f | %.0f | %.1f | %d | %d | %d |\n", m, e, cpu, cpu / (m * e) * 1e6, rss / 1024,
        rss / m, commits, fail, attempts - commits
      print m, cpu > "/dev/stderr"
    }' "$w/r$m/agents.count=$m/episodes.csv" 2>>"$w/points"
done
echo
awk '{ x = log($1); y = log($2); n++; sx += x; sy += y; sxx += x * x; sxy += x * y }
     END { if (n > 1 && n * sxx - sx * sx > 0) printf "CPU ~ agents^%.2f over %d sizes\n", (n * sxy - sx * sy) / (n * sxx - sx * sx), n }' "$w/points"
echo "(load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores)"
