#!/bin/sh
# Readouts of what the agents did do not depend on what reached the log:
# the referee sees every step the agents played (reward, r_out), committed
# or not, so rlvr (whose play no fault changes) has the same reward and
# r_out in every episode with and without a flapping uplink, while p_f > 0;
# and commit_attempts counts every commit message sent, retries of failed
# commits included (more than one a commit).  TAP.
set -u
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..2"
run="$T run -q -j1 -c rlvr --set run.seeds=2 --set run.episodes=100"
$run -o "$tmp/calm" 2>/dev/null
$run --fault 'link-flap:agent-*-uplink:1:0.5' -o "$tmp/flap" 2>/dev/null
cols() { awk -F, -v want="$2" 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == want) k = i; next} {print $1, $3, $k}' "$1/episodes.csv"; }
pf=$(awk -F, '$2 == "p_f" {print $3}' "$tmp/flap/summary.csv")
if [ -n "$pf" ] && awk -v p="$pf" 'BEGIN {exit !(p > 0)}' &&
   [ "$(cols "$tmp/calm" reward)" = "$(cols "$tmp/flap" reward)" ] && [ "$(cols "$tmp/calm" r_out)" = "$(cols "$tmp/flap" r_out)" ] &&
   [ "$(cols "$tmp/flap" r_out | wc -l)" -eq 200 ]; then
  echo "ok 1 - rlvr: reward and r_out of every episode are those without faults, though p_f is $pf"
else echo "not ok 1 - rewards or r_out moved with the faults (p_f '$pf')"; fi
sum() { cols "$1" "$2" | awk '{s += $3} END {print s}'; }
att=$(sum "$tmp/flap" commit_attempts) com=$(sum "$tmp/flap" commits) fail=$(sum "$tmp/flap" commit_failures)
if [ "$fail" -gt 0 ] && [ "$att" -gt $((com + fail)) ] && [ "$(sum "$tmp/calm" commit_attempts)" = "$(sum "$tmp/calm" commits)" ]; then
  echo "ok 2 - commit_attempts counts every attempt: $att for $com commits of which $fail failed (one each without faults)"
else echo "not ok 2 - attempts $att, commits $com, failures $fail"; fi
