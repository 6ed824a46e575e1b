#!/bin/sh
# The trivium command line end to end (TAP): bad input gives one clear
# message and exit 2; runs are bit-identical for the same seed whatever
# --jobs is; the separation and headline properties of the foundation issue
# hold (the headline on 5 seeds here; the full 20-seed run is `./dev run`).
set -u
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
echo "1..21"

# -- bad input: exit 2 and a message naming the problem
$T run --controllers trivium,nosuch --out "$tmp/a" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "unknown controller exits 2" '[ $rc -eq 2 ]'
check "unknown controller is named with the known ones" 'grep -q "unknown controller .nosuch.; known controllers: trivium" "$tmp/err"'
$T run --set run.episodes=-5 --out "$tmp/b" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "negative episode count exits 2 with the range" '[ $rc -eq 2 ] && grep -q "run.episodes: -5 is out of range" "$tmp/err"'
$T run --out /etc/hostname/sub -q >"$tmp/out" 2>"$tmp/err"; rc=$?
check "unwritable output directory exits 2" '[ $rc -eq 2 ] && grep -q "output directory /etc/hostname/sub" "$tmp/err"'
$T run --set posterior.hazrd=0.1 --out "$tmp/c" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "misspelt parameter suggests the right one" '[ $rc -eq 2 ] && grep -q "did you mean .posterior.hazard." "$tmp/err"'

# -- determinism: same seed, same bytes; --jobs 1 and --jobs 2 agree
small="--set run.seeds=3 --set run.episodes=120 --controllers trivium,rlvr,epistemic-reset,trivium-roundrobin -q"
$T run $small --jobs 1 --out "$tmp/j1" && $T run $small --jobs 2 --out "$tmp/j2" && $T run $small --jobs 2 --out "$tmp/j2b"
check "same seed twice gives byte-identical episodes.csv" 'cmp -s "$tmp/j2/episodes.csv" "$tmp/j2b/episodes.csv"'
check "--jobs 1 and --jobs 2 give byte-identical episodes.csv" 'cmp -s "$tmp/j1/episodes.csv" "$tmp/j2/episodes.csv"'
check "episodes.csv has one row per controller x seed x episode" '[ $(($(wc -l <"$tmp/j1/episodes.csv") - 1)) -eq $((4 * 3 * 120)) ]'

# -- separation (T = 500, 20 seeds): outcome-only vs interventional
$T run --experiment separation --out "$tmp/sep" -q
# columns: seed,controller,episode,phase,...; p_X_Y located by header name
col=$(head -1 "$tmp/sep/episodes.csv" | tr ',' '\n' | grep -n '^p_X_Y$' | cut -d: -f1)
check "rlvr ends with P(X->Y) > 0.9 on every seed" \
  '[ $(awk -F, -v c=$col "\$2==\"rlvr\" && \$c > 0.9" "$tmp/sep/episodes.csv" | wc -l) -eq 20 ]'
check "interventional updater reads X->Y absent on >= 19 of 20 seeds" \
  '[ $(awk -F, -v c=$col "\$2==\"epistemic-reset\" && \$c < 0.5" "$tmp/sep/episodes.csv" | wc -l) -ge 19 ]'
p=$(sed -n 's/^Mann-Whitney U .*p = \([0-9.e+-]*\)$/\1/p' "$tmp/sep/summary.md")
check "two-sided Mann-Whitney p-value is printed and below 1e-6 (p = $p)" \
  '[ -n "$p" ] && awk -v p="$p" "BEGIN { exit !(p < 1e-6) }"'

# -- headline, 5 seeds: outcome-only always misidentified, trivium never in stationary episodes
$T run --set run.seeds=5 --controllers trivium,rlvr,rlvr-memory,reactive --out "$tmp/h" -q
check "outcome-only wrong in every episode, trivium right in every stationary one" \
  'awk -F, "NR>1 && \$2!=\"trivium\" && \$5!=1 {bad++} NR>1 && \$2==\"trivium\" && \$4==\"stationary\" && \$5!=0 {bad++} END {exit bad>0}" "$tmp/h/episodes.csv"'

# -- a log that never comes back: a run failure (exit 1) with a message, never a normal exit
$T run -c trivium --set run.seeds=1 --set run.episodes=20 --fault host-crash:ctl:5:1000000 -q -o "$tmp/dead" \
  >"$tmp/out" 2>"$tmp/err"; rc=$?
check "an unreachable log ends the run with exit 1 and says why" \
  '[ $rc -eq 1 ] && grep -q "no majority of the 1 log replicas answered" "$tmp/err"'

# -- the log of a real 500-episode run (--ctl): valid, and the posterior it replays is the run's,
#    from zero, from a snapshot, and after compaction
$T run -c trivium --set run.seeds=1 --ctl "$tmp/ctl" -o "$tmp/ctlrun" -q
f="$tmp/ctl/trivium-seed1.ctl"
$T ctl verify "$f" >"$tmp/verify" 2>&1; rc=$?
check "ctl verify accepts the run's log (500 episodes, snapshots match records)" \
  '[ $rc -eq 0 ] && grep -q "snapshots match the records" "$tmp/verify" && $T ctl inspect "$f" | grep -q "500 complete"'
$T ctl replay "$f" | tail -n +3 >"$tmp/r0"
$T ctl replay --from-snapshot 250 "$f" | tail -n +3 >"$tmp/r250"
check "replay from zero equals replay from snapshot 250" 'cmp -s "$tmp/r0" "$tmp/r250" && [ -s "$tmp/r0" ]'
last=$(tail -1 "$tmp/ctlrun/episodes.csv" | cut -d, -f13-15 | tr ',' ' ')
check "the replayed presences are the run's final ones ($last)" \
  'awk -v want="$last" "BEGIN {split(want, w, \" \")} {d = \$2 - w[NR]; if (d < 0) d = -d; if (d > 5e-7) bad = 1} END {exit bad || NR != 3}" "$tmp/r0"'
$T ctl compact --out "$tmp/compact.ctl" --no-archive "$f" >/dev/null && $T ctl replay "$tmp/compact.ctl" | tail -n +3 >"$tmp/rc"
check "compaction keeps the posterior (and shrinks the file)" \
  'cmp -s "$tmp/r0" "$tmp/rc" && [ $(wc -c <"$tmp/compact.ctl") -lt $(wc -c <"$f") ]'

# -- a soft-slab log: the header names the slab, it verifies, and replays to the run's posterior
$T run -c trivium --set run.seeds=1 --set run.episodes=40 --set posterior.slab=soft --ctl "$tmp/soft" -o "$tmp/softrun" -q
f="$tmp/soft/trivium-seed1.ctl"
last=$(tail -1 "$tmp/softrun/episodes.csv" | cut -d, -f13-15 | tr ',' ' ')
check "a soft-slab log says so, verifies and replays to the run's presences ($last)" \
  '$T ctl verify "$f" >/dev/null 2>&1 && $T ctl inspect "$f" | grep -q "slab soft" &&
   $T ctl replay "$f" | tail -n +3 | awk -v want="$last" "BEGIN {split(want, w, \" \")} {d = \$2 - w[NR]; if (d < 0) d = -d; if (d > 5e-7) bad = 1} END {exit bad || NR != 3}"'

# -- agents probing in coalitions: several probes of one component in one step are one update of
#    the fold; the live controller's snapshots are the fold of the log's records, and it replays to
#    the run's presences
$T run "${srcdir:-..}/scenarios/multi-agent.xml" -c trivium --sweep=agents.count=6 --set budget.coalition=0 --set run.seeds=1 \
  --set run.episodes=40 --ctl "$tmp/coal" -o "$tmp/coalrun" -q 2>/dev/null
f="$tmp/coal/agents.count=6/trivium-seed1.ctl"
last=$(tail -1 "$tmp/coalrun/agents.count=6/episodes.csv" | cut -d, -f13-15 | tr ',' ' ')
check "a coalition run's log verifies (snapshots match the records) and replays to its presences ($last)" \
  '$T ctl verify "$f" 2>/dev/null | grep -q "snapshots match the records" &&
   $T ctl replay "$f" | tail -n +3 | awk -v want="$last" "BEGIN {split(want, w, \" \")} {d = \$2 - w[NR]; if (d < 0) d = -d; if (d > 5e-7) bad = 1} END {exit bad || NR != 3}"'

# -- SimGrid's own options pass through: CM02 (plain latencies) instead of LV08 (x13) shortens the
#    simulated time beyond the 5 episodes' 50 one-second steps and changes nothing else
$T run -c trivium --set run.seeds=1 --set run.episodes=5 -q -o "$tmp/lv08" &&
$T run -c trivium --set run.seeds=1 --set run.episodes=5 --cfg=network/model:CM02 -q -o "$tmp/cm02" 2>/dev/null
t1=$(tail -1 "$tmp/lv08/episodes.csv" | awk -F, '{print $(NF-1)}'); t2=$(tail -1 "$tmp/cm02/episodes.csv" | awk -F, '{print $(NF-1)}')
check "--cfg=network/model:CM02 reaches SimGrid (simulated time $t1 s -> $t2 s, same readouts)" \
  'awk -v a="$t1" -v b="$t2" "BEGIN {exit !(b - 250 < (a - 250) / 3 && b > 250)}" && [ "$(cut -d, -f1-31 "$tmp/lv08/episodes.csv" | md5sum)" = "$(cut -d, -f1-31 "$tmp/cm02/episodes.csv" | md5sum)" ]'

# -- the URS smoke scenario end to end: 8 drivers sharing one city under SimGrid
$T run "${srcdir:-..}/scenarios/urs-smoke.xml" -c trivium,rlvr -q -o "$tmp/urs" >"$tmp/out" 2>&1; rc=$?
check "URS smoke run: every episode of both controllers, with the world's metrics" \
  '[ $rc -eq 0 ] && [ $(($(wc -l <"$tmp/urs/episodes.csv") - 1)) -eq 40 ] && head -1 "$tmp/urs/episodes.csv" | grep -q ",served,served_rate,wait_mean,wait_p95,empty_km,probes_quiet,probe_information,baseline_regret$"'
