#!/bin/sh
# Readouts of what the agents did do not depend on what reached the log:
# the referee sees every step the agents played (reward, r_out), committed
# or not, so rlvr (whose play no fault changes) has the same reward and
# r_out in every episode with and without a flapping uplink, while p_f > 0;
# and commit_attempts counts every commit message sent, retries of failed
# commits included (more than one a commit); summary.md's caveat on the
# hard exposure stands under the table exactly for the controllers whose
# committed graph was wrong in every episode while their MAP was right in
# some (so that their exposure counts a belief nothing acted on): rlvr on
# the job-shop stream, no controller on the headline.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..3"
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

# 3: the exposure caveat, against the condition worked out from episodes.csv
"$T" run "$top/scenarios/jssp-stream.xml" -q -j2 --set run.seeds=3 --set run.episodes=100 -o "$tmp/jssp" 2>/dev/null
"$T" run -q -j2 -c trivium,rlvr --set run.seeds=2 --set run.episodes=100 -o "$tmp/head" 2>/dev/null
# per controller: "NAME yes" when every committed_exposure is 1 and the posterior exposures sum to less
unused() {
  awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    {n[$2]++; ce[$2] += $(c["committed_exposure"]); pe[$2] += $(c["posterior_exposure"])}
    END {for (k in n) print k, (ce[k] == n[k] && pe[k] < ce[k]) ? "yes" : "no"}' "$1/episodes.csv" | sort
}
fails=0 said=0 quiet=0
for run in jssp head; do
  unused "$tmp/$run" >"$tmp/$run.cond"
  while read -r ctl cond; do
    if grep -q "^Caveat: $ctl's committed graph G_hat, the one its agents acted on, was wrong in every episode" \
      "$tmp/$run/summary.md"; then
      has=yes
    else
      has=no
    fi
    [ "$has" = "$cond" ] || { fails=$((fails + 1)); echo "# $run: $ctl: condition $cond, caveat $has"; }
    if [ "$has" = yes ]; then said=$((said + 1)); else quiet=$((quiet + 1)); fi
  done <"$tmp/$run.cond"
done
if [ $fails -eq 0 ] && [ $said -eq 1 ] && [ $quiet -eq 3 ] &&
  grep -q "^Caveat: rlvr's .*(committed 100.00 ± 0.00); its exposure (total " "$tmp/jssp/summary.md"; then
  echo "ok 3 - summary.md's exposure caveat stands for rlvr on the job-shop stream (committed 100 of 100) and for no other controller, as episodes.csv says"
else
  echo "not ok 3 - caveats: $fails differ from the condition, $said said, $quiet quiet"
  grep '^Caveat' "$tmp/jssp/summary.md" "$tmp/head/summary.md" | sed 's/^/# /'
fi
