#!/bin/sh
# urs-fault-sweep.sh [--short] - the URS smoke scenario under every single
# fault: a crash of every host of its platform and a cut of every link (a
# link-flap confined to the window, down within 2 ms of its start: MTBF
# 0.001 s, MTTR 1e9 s), each for 3 simulated seconds starting at 5 times
# spread over the run.  Every run must exit 0,
# leave a log that `trivium ctl verify` accepts, whose replayed posterior
# is the run's last one (to 5e-7; the components the last episode reset at
# the prior, as many as it reset), and whose step records are exactly those
# of the commits the run counts as done: T x (commits - commit_failures),
# so that no commit is lost without being counted in p_f.
# --short: the hosts that carry a role (controller, log, two agent towers),
# one tower without agents, the central LAN and two uplinks; that is what
# `make check` runs
# (tests/urs-faults.sh).  Output: TAP, then a table of p_f per fault.
# TRIVIUM names the program (default: trivium on PATH); TRIVIUM_SRC the
# source tree (default: this script's).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${TRIVIUM_SRC:-$(dirname "$here")}
T=${TRIVIUM:-trivium}
scenario=$src/scenarios/urs-smoke.xml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "${1-}" = --short ]; then
  hosts="controller ctl tower-0 tower-15 tower-2"
  links="centre-lan tower-0-uplink tower-2-uplink"
else
  hosts=$(sed -n 's/.*<host id="\([^"]*\)".*/\1/p' "$src/platforms/urs-sf.xml")
  links=$(sed -n 's/.*<link id="\([^"]*\)".*/\1/p' "$src/platforms/urs-sf.xml" | tr '\n' ' ')
fi
times="1 9 18 27 40"
steps=30
n=0
fails=0
nf=$(echo $hosts $links | wc -w)
echo "1..$((nf * 5))"
: >"$tmp/table"
for target in $hosts $links; do
  kind=host-crash h=$target
  case " $links " in *" $target "*) kind=link-cut ;; esac
  for at in $times; do
      n=$((n + 1))
      d="$tmp/r$n"
      if [ $kind = host-crash ]; then spec="host-crash:$h:$at:3"; else spec="link-flap:$h:0.001:1e9:$at:$((at + 3))"; fi
      "$T" run "$scenario" -c trivium -q -o "$d" --ctl "$d/ctl" --fault "$spec" >/dev/null 2>"$d.err"
      rc=$?
      log=$d/ctl/trivium-seed1.ctl
      why=""
      [ $rc -eq 0 ] || why="exit $rc: $(grep -v warning "$d.err" | head -1)"
      if [ -z "$why" ] && ! "$T" ctl verify "$log" >/dev/null 2>&1; then why="the log does not verify"; fi
      if [ -z "$why" ]; then
        "$T" ctl replay "$log" | tail -n +3 >"$d.replay"
        # the run's last posterior: the p_ columns of the last row, read before
        # that episode's resets (docs/outputs.md); the components it reset are
        # at the prior (pi0 = 0.5) in the log, as many as the row's `resets`
        awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) {if ($i ~ /^p_/ && $i != "p_f") c[++k] = i; if ($i == "resets") r = i}}
                 END {print $(r); for (j = 1; j <= k; j++) print $(c[j])}' "$d/episodes.csv" >"$d.live"
        awk 'NR == FNR {if (FNR == 1) resets = $1; else w[FNR - 1] = $1; next}
             {d = $2 - w[FNR]; if (d < 0) d = -d; if (d > 5e-7) {if ($2 == "0.500000") reset++; else bad = 1} m++}
             END {exit bad || m != 12 || reset != resets}' "$d.live" "$d.replay" ||
          why="the replayed posterior is not the run's"
      fi
      if [ -z "$why" ]; then
        logged=$("$T" ctl inspect "$log" | sed -n 's/^records .*(step \([0-9]*\),.*/\1/p')
        done_commits=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) {if ($i == "commits") c = i; if ($i == "commit_failures") f = i}}
                               NR > 1 {s += $c - $f} END {print s}' "$d/episodes.csv")
        [ "$logged" = $((steps * done_commits)) ] ||
          why="$logged step records in the log, $steps x $done_commits commits counted as done"
      fi
      pf=$(awk -F, '$2 == "p_f" {print $3}' "$d/summary.csv" 2>/dev/null)
      if [ -z "$why" ]; then
        echo "ok $n - $kind of $h at $at s: exit 0, log verified, replay = live, every lost commit in p_f ($pf)"
      else
        echo "not ok $n - $kind of $h at $at s: $why"
        fails=$((fails + 1))
      fi
      printf '%s %s %s %s\n' "$kind" "$h" "$at" "${pf:--}" >>"$tmp/table"
      rm -rf "$d" "$d".*
  done
done
echo "# p_f per fault (3 s; columns: start time in s)"
echo "# fault       target          $times"
awk '{k = $1 " " $2; if (!(k in seen)) {seen[k] = 1; order[++n] = k} v[k] = v[k] " " $4}
     END {for (i = 1; i <= n; i++) {split(order[i], a, " "); printf "# %-12s %-14s %s\n", a[1], a[2], v[order[i]]}}' "$tmp/table"
[ $fails -eq 0 ]
