#!/bin/sh
# The agents' lifecycle on SimGrid's master-worker shape
# (examples/masterworker.c): workers that stop after their tasks, one that
# leaves Trivium early, and one whose host crashes and restarts.  Each run
# finishes with the episodes its agents played, a warning for the early
# end, the restarted agent under its own index, and a simulated time
# within 2x of the same program without Trivium; its run directory is
# accepted by `trivium report`.  Run by `make check`
# on the build tree and by `make installcheck` on the examples built out
# of tree (MASTERWORKER, MASTERWORKER_DIR).  TAP.
set -u
top=${srcdir:-..}
exe=${MASTERWORKER:-examples/masterworker}
T=${TRIVIUM:-./trivium}
dir=${MASTERWORKER_DIR:-$top/examples}
plat=$dir/masterworker-platform.xml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/columns.sh"
# the index of column $1 in the episodes.csv of directory $2
column_index() { awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) print i; exit }' "$2/episodes.csv"; }
echo "1..14"
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; [ -f "${3:-/dev/null}" ] && tail -8 "$3" | sed 's/^/# /'; fi; }

# $1 name, $2 deployment: runs with and without Trivium; the simulated
# times go to $tmp/$1.with and $tmp/$1.without
run() {
  "$exe" "$plat" "$2" > "$tmp/$1.out" 2> "$tmp/$1.err"
  echo $? > "$tmp/$1.rc"
  "$exe" "$plat" "$2" --without-trivium > "$tmp/$1.bare" 2>&1
  sed -n 's/^masterworker: Trivium played [0-9]* episodes, simulated time \([0-9.]*\) s$/\1/p' "$tmp/$1.out" > "$tmp/$1.with"
  sed -n 's/^masterworker: without Trivium, simulated time \([0-9.]*\) s$/\1/p' "$tmp/$1.bare" > "$tmp/$1.without"
  grep -E '^[0-9]+,trivium,' "$tmp/$1.out" > "$tmp/$1.rows"
  mkdir -p "$tmp/$1"
  { grep '^seed,' "$tmp/$1.out"; cat "$tmp/$1.rows"; } > "$tmp/$1/episodes.csv"
}
# within 2x of the program without Trivium, both times positive
within_2x() {
  awk -v w="$(cat "$tmp/$1.with")" -v b="$(cat "$tmp/$1.without")" \
    'BEGIN { printf "# %s: %.6f s with Trivium, %.6f s without (x%.3f)\n", "'"$1"'", w, b, w / b; exit !(b > 0 && w > 0 && w <= 2 * b) }'
}
# the one warning of the early end, naming the episodes played
warned() {
  [ "$(grep -c 'WARNING\] every agent left' "$tmp/$1.err")" -eq 1 ] &&
    grep -q "every agent left: the run ends after $2 of its 500 episodes" "$tmp/$1.err"
}

# workers that stop: 20 tasks for 4 workers, 5 each, one episode per task
run stop "$dir/masterworker-deployment.xml"
ok "$(cat "$tmp/stop.rc")" "workers that stop after their tasks: the program ends normally" "$tmp/stop.err"
[ "$(wc -l < "$tmp/stop.rows")" -eq 5 ] && grep -q 'Trivium played 5 episodes' "$tmp/stop.out" &&
  [ "$(grep -c ': 5 tasks, agent [0-3], 5 episodes (0 to 4)' "$tmp/stop.out")" -eq 4 ]
ok $? "the run ends with the 5 episodes the workers played, not the 500 asked for" "$tmp/stop.out"
warned stop 5; ok $? "one warning says the run ended early, after 5 of 500 episodes" "$tmp/stop.err"
within_2x stop; ok $? "simulated time within 2x of the program without Trivium"

# a worker that leaves Trivium after 2 episodes: its commits are no longer due
sed 's|<argument value="worker-1"/><prop|<argument value="worker-1"/><argument value="2"/><prop|' \
  "$dir/masterworker-deployment.xml" > "$tmp/leave.xml"
run leave "$tmp/leave.xml"
commits=$(col "$tmp/leave" commits | tr '\n' ' ')
failures=$(col "$tmp/leave" commit_failures | sort -u)
[ "$(cat "$tmp/leave.rc")" = 0 ] && [ "$commits" = "4 4 3 3 3 " ] && [ "$failures" = 0 ] &&
  grep -q 'worker-1 on worker-1: 5 tasks, agent 0, 2 episodes (0 to 1)' "$tmp/leave.out"
ok $? "trivium_agent_leave() after 2 episodes: 3 commits due from then on, none failed (commits: $commits)" "$tmp/leave.out"

# a worker whose host is off from t = 3 s to 5 s, restarted by SimGrid
run crash "$dir/masterworker-crash-deployment.xml"
ok "$(cat "$tmp/crash.rc")" "a worker's host crashes and restarts: the program ends normally" "$tmp/crash.err"
played=$(sed -n 's/^masterworker: Trivium played \([0-9]*\) episodes.*/\1/p' "$tmp/crash.out")
last=$(sed -n 's/^worker-[0-9] on worker-[0-9]: [0-9]* tasks, agent [0-9]*, [0-9]* episodes ([0-9]* to \([0-9]*\)).*/\1/p' "$tmp/crash.out" | sort -n | tail -1)
[ -n "$played" ] && [ "$played" -ge 5 ] && [ "$(wc -l < "$tmp/crash.rows")" -eq "$played" ] && [ "$played" -eq $((last + 1)) ]
ok $? "the run ends with the $played episodes the workers played" "$tmp/crash.out"
warned crash "$played"; ok $? "one warning for the early end" "$tmp/crash.err"
# the worker of worker-2 ran twice (before the crash, after the restart), as agent 1 both times
starts=$(grep -c '^worker-2 on worker-2: agent 1 from episode' "$tmp/crash.out")
again=$(sed -n 's/^worker-2 on worker-2: agent 1 from episode \([0-9]*\),.*/\1/p' "$tmp/crash.out" | tail -1)
[ "$starts" -eq 2 ] && [ -n "$again" ] && [ "$again" -gt 0 ]
ok $? "the restarted worker is agent 1 again (from episode $again)" "$tmp/crash.out"
# its records after the restart are in the log under its index: every
# commit of those episodes (4 agents, agent 1 among them) was committed
e=$(column_index episode "$tmp/crash") c=$(column_index commits "$tmp/crash") f=$(column_index commit_failures "$tmp/crash")
after=$(awk -F, -v from="$again" -v e="$e" 'NR > 1 && $e >= from' "$tmp/crash/episodes.csv" | wc -l)
bad=$(awk -F, -v from="$again" -v e="$e" -v c="$c" -v f="$f" 'NR > 1 && $e >= from && ($c != 4 || $f != 0)' \
  "$tmp/crash/episodes.csv" | wc -l)
[ "$after" -gt 0 ] && [ "$bad" -eq 0 ]
ok $? "after the restart, the 4 agents' records are committed every episode ($after episodes)" "$tmp/crash/episodes.csv"
within_2x crash; ok $? "simulated time within 2x of the program without Trivium (same crash)"

# a bad setting still stops the program at once
"$exe" "$plat" "$dir/masterworker-deployment.xml" --cfg=trivium/run.steps:0 > "$tmp/bad.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'run.steps' "$tmp/bad.out" && ! grep -q 'tasks' "$tmp/bad.out"
ok $? "a bad setting: exit 2 naming the key, no worker ran" "$tmp/bad.out"

# the run's directory, accepted by trivium report: its summary counts the 5 episodes played
"$exe" "$plat" "$dir/masterworker-deployment.xml" --out "$tmp/dir" > /dev/null 2> "$tmp/dir.err" &&
  "$T" report -q "$tmp/dir" 2>> "$tmp/dir.err" && [ -s "$tmp/dir/summary.md" ] && [ -s "$tmp/dir/figures/regret.dat" ] &&
  grep -q '^trivium,p_f,0,' "$tmp/dir/summary.csv" && grep -q '"ended_early": true' "$tmp/dir/run.json" &&
  [ "$(wc -l < "$tmp/dir/episodes.csv")" -eq 6 ]
ok $? "--out DIR: trivium report accepts the example's run directory (5 episodes, the early end in run.json)" "$tmp/dir.err"

# each agent's own random stream: the same draws for the same seed, one
# stream per agent, and the restarted worker continues its own
"$exe" "$plat" "$dir/masterworker-crash-deployment.xml" > "$tmp/again.out" 2>/dev/null
first=$(sed -n 's/^worker-2 on worker-2: agent 1 from episode [0-9]*, draws \([0-9.]*\),.*/\1/p' "$tmp/crash.out")
distinct=$(sed -n 's/^worker-[0-9] on worker-[0-9]: agent [0-9] from episode 0, draws \([0-9.]*\),.*/\1/p' "$tmp/crash.out" | sort -u | wc -l)
[ "$(grep -c 'draws' "$tmp/crash.out")" -eq 5 ] && [ "$distinct" -eq 4 ] &&
  [ "$(echo "$first" | wc -l)" -eq 2 ] && [ "$(echo "$first" | sort -u | wc -l)" -eq 2 ] &&
  [ "$(grep 'draws' "$tmp/crash.out")" = "$(grep 'draws' "$tmp/again.out")" ]
ok $? "trivium_episode_uniform: the same draws run after run, 4 agents' streams, the restarted agent's continued ($(echo $first))" "$tmp/crash.out"
