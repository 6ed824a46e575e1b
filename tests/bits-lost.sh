#!/bin/sh
# bits_lost, what failed commits cost in plan-time information
# (docs/outputs.md), in real runs: 0 in every row without faults (every
# controller with one agent, trivium and its round-robin ablation with one
# and three); under a flapping uplink
# with one agent, positive exactly in the episodes whose commit failed
# (atomic) or whose records were lost (best effort); with several agents,
# positive only where some commit failed (an agent without probes loses
# none); the seed's summary is the episodes' sum, in summary.csv, the
# sweep table and summary.md, and `trivium report` writes it again.  The
# exact value against the posterior's EIG is tests/test-bits-lost.c's.
# TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..6"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; }
# the columns $2 ... of $1's episodes.csv, by name, space-separated
cols() {
  f=$1; shift
  awk -F, -v want="$*" 'NR == 1 { m = split(want, w, " "); for (i = 1; i <= NF; i++) c[$i] = i
                                  for (i = 1; i <= m; i++) if (!(w[i] in c)) { print "missing " w[i]; exit 1 }; next }
                        { s = ""; for (i = 1; i <= m; i++) s = s (i > 1 ? " " : "") $c[w[i]]; print s }' "$f"
}
metric() { awk -F, -v m="$2" '$1 == "trivium" && $2 == m { print $3 }' "$1/summary.csv"; }
g6() { awk -v x="$1" 'BEGIN { if (x == "") print "none"; else printf "%.6g\n", x }'; }
# the mean over seeds of the episodes' sum of bits_lost
sum_per_seed() {
  cols "$1/episodes.csv" seed bits_lost | awk '{ s += $2; seeds[$1] = 1 } END { k = 0; for (x in seeds) k++; printf "%.6g\n", s / k }'
}

# 1: no faults: every row 0 (headline, every controller; multi-agent at 1 and 3 agents)
"$T" run -e headline --set run.seeds=2 --set run.episodes=60 -q -j1 -o "$tmp/calm" >/dev/null 2>&1
"$T" run "$top/scenarios/multi-agent.xml" -c trivium,trivium-roundrobin --set run.seeds=2 --set run.episodes=60 \
  --sweep agents.count=1,3 -q -j1 -o "$tmp/calm-ma" >/dev/null 2>&1
rows=0 bad=0
for d in "$tmp/calm" "$tmp/calm-ma/agents.count=1" "$tmp/calm-ma/agents.count=3"; do
  [ -s "$d/episodes.csv" ] || { bad=1; echo "# no $d/episodes.csv"; continue; }
  r=$(cols "$d/episodes.csv" bits_lost | awk '{ n++ } $1 != "0" { bad++ } END { print n + 0, bad + 0 }')
  rows=$((rows + ${r% *})) bad=$((bad + ${r#* }))
  for c in $(awk -F, '$2 == "bits_lost" { print $1 }' "$d/summary.csv"); do
    [ "$(awk -F, -v c="$c" '$1 == c && $2 == "bits_lost" { print $3 }' "$d/summary.csv")" = 0 ] || bad=$((bad + 1))
  done
done
if [ $bad = 0 ] && [ $rows -eq $((60 * 2 * 9 + 60 * 2 * 2 * 2)) ]; then
  ok "without faults bits_lost is 0 in all $rows rows and every summary"
else notok "without faults: $bad rows or summaries with bits_lost not 0 (of $rows rows)"; fi

# 2: one agent, its uplink flapping (MTBF 1 s, MTTR 0.5 s), atomic commits
sed -e "s|\.\./platforms|$top/platforms|" "$top/scenarios/fault-sweep.xml" >"$tmp/flap.xml"
"$T" run "$tmp/flap.xml" --set run.seeds=2 --set run.episodes=200 --sweep link-flap.mtbf=1 -q -j1 \
  -o "$tmp/atomic" >/dev/null 2>&1
d="$tmp/atomic/link-flap.mtbf=1"
r=$(cols "$d/episodes.csv" commit_failures bits_lost 2>/dev/null |
  awk '{ f = $1 > 0; b = $2 > 0; if (f != b) bad++; lost += f } END { print lost + 0, bad + 0 }')
if [ -n "$r" ] && [ "${r% *}" -gt 5 ] && [ "${r#* }" = 0 ]; then
  ok "atomic, one agent: bits_lost > 0 exactly in the ${r% *} episodes whose commit failed"
else notok "atomic, one agent: failed episodes and mismatches: '$r'"; fi

# 3: the seed's bits_lost is the episodes' sum, in summary.csv and sweep.csv
want=$(sum_per_seed "$d") got=$(g6 "$(metric "$d" bits_lost)")
sw=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "bits_lost") k = i; next } $3 == "trivium" { print $k }' \
  "$tmp/atomic/sweep.csv")
if [ "$got" = "$want" ] && [ "$(g6 "$sw")" = "$want" ] && awk -v x="$want" 'BEGIN { exit !(x > 0) }' &&
   grep -q '| bits lost |' "$d/summary.md"; then
  ok "summary.csv, sweep.csv and summary.md: bits_lost per seed is the episodes' sum ($got bits)"
else notok "bits_lost: episodes' sum $want, summary.csv $got, sweep.csv $sw"; fi

# 4: trivium report writes the same summary again from the cells
cp "$d/summary.csv" "$tmp/summary.before"
rm -f "$d/summary.csv" "$d/summary.md"
"$T" report "$tmp/atomic" >/dev/null 2>"$tmp/err"
if cmp -s "$tmp/summary.before" "$d/summary.csv"; then ok "trivium report writes the same bits_lost"
else notok "trivium report: summary.csv differs"; sed 's/^/# /' "$tmp/err"; fi

# 5: best effort, one agent: bits_lost > 0 exactly where records were lost
"$T" run "$tmp/flap.xml" --set run.seeds=2 --set run.episodes=200 --set ctl.mode=best-effort \
  --sweep link-flap.mtbf=1 -q -j1 -o "$tmp/be" >/dev/null 2>&1
r=$(cols "$tmp/be/link-flap.mtbf=1/episodes.csv" records_lost bits_lost 2>/dev/null |
  awk '{ f = $1 > 0; b = $2 > 0; if (f != b) bad++; lost += f } END { print lost + 0, bad + 0 }')
if [ -n "$r" ] && [ "${r% *}" -gt 5 ] && [ "${r#* }" = 0 ]; then
  ok "best effort, one agent: bits_lost > 0 exactly in the ${r% *} episodes whose records were lost"
else notok "best effort: lossy episodes and mismatches: '$r'"; fi

# 6: four agents, every uplink flapping: bits only where a commit failed, and
# failed commits of agents that held no probe cost none
"$T" run "$top/scenarios/multi-agent.xml" -c trivium --set run.seeds=2 --set run.episodes=100 --sweep agents.count=4 \
  --fault 'link-flap:agent-*-uplink:1:0.5' -q -j1 -o "$tmp/ma" >/dev/null 2>&1
r=$(cols "$tmp/ma/agents.count=4/episodes.csv" commit_failures bits_lost 2>/dev/null |
  awk '$2 > 0 { if ($1 == 0) bad++; else both++ } $1 > 0 && $2 == 0 { free++ } END { print both + 0, free + 0, bad + 0 }')
set -- $r
if [ $# -eq 3 ] && [ "$1" -gt 0 ] && [ "$2" -gt 0 ] && [ "$3" = 0 ]; then
  ok "four agents: bits lost in $1 episodes, all with a failed commit; $2 episodes lost commits of agents without probes, no bits"
else notok "four agents: '$r' (with bits, failures without bits, bits without failures)"; fi
