#!/bin/sh
# The job shop as a world of `trivium run` (SimGrid agents, the log over
# the simulated network): the machine stream's table with the regret fits,
# one agent giving exactly the direct transport's episodes (the C test
# checks those against the stand-alone reference); link flapping costing
# commits (p_f) only when there are faults; more agents shortening the
# simulated episodes; the shipped JSSP scenarios validate; a malformed
# instance file is one line naming its file and line, exit 2, in validate
# and in run; on an instance the production runs operation by operation on
# the machine hosts: the simulated time covers every episode's makespan, a
# missing machine host is an input error and a host two machines share
# (stretched operations) fails the run.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
T=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..11"
. "$top/tests/err-lines.sh"
# $1 file, $2 controller, $3 metric: the mean from summary.csv
metric() { awk -F, -v c="$2" -v m="$3" '$1 == c && $2 == m {print $3}' "$1/summary.csv"; }

# 1-2: the stream's table: fits shown, trivium log-shaped, rlvr linear
"$T" run "$top/scenarios/jssp-stream.xml" -o "$tmp/s" -q -j2 >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^| trivium | .* | log |$' "$tmp/s/summary.md" && grep -q '^| rlvr | .* | linear |$' "$tmp/s/summary.md"; then
  echo "ok 1 - jssp-stream: trivium's cumulative regret is better fit by a + b ln(e), rlvr's by a line"
else
  echo "not ok 1 - jssp-stream: exit $rc or fits not as expected"; grep -i 'fit\|^| ' "$tmp/s/summary.md" 2>/dev/null | sed 's/^/# /'; sed 's/^/# /' "$tmp/out"
fi
t=$(metric "$tmp/s" trivium r_out) r=$(metric "$tmp/s" rlvr r_out)
if awk -v t="${t:-nan}" -v r="${r:-nan}" 'BEGIN {exit !(t > 0 && t < 120 && r > 3 * t)}'; then
  echo "ok 2 - jssp-stream: trivium loses $t episodes of 500, rlvr $r"
else
  echo "not ok 2 - jssp-stream: trivium r_out $t, rlvr $r"
fi

# 3: p_f under link flapping, 0 without faults
"$T" run "$top/scenarios/jssp-stream-faults.xml" -o "$tmp/f" -q -j2 --set run.seeds=2 --set run.episodes=100 \
  --sweep=link-flap.mtbf=0.5 >"$tmp/out" 2>&1
pf=$(metric "$tmp/f/link-flap.mtbf=0.5" trivium p_f)
"$T" run "$top/scenarios/jssp-stream.xml" -o "$tmp/n" -q -j2 -c trivium --set run.seeds=2 --set run.episodes=100 \
  --set agents.count=5 >>"$tmp/out" 2>&1
p0=$(metric "$tmp/n" trivium p_f)
if awk -v a="${pf:-0}" -v b="${p0:-1}" 'BEGIN {exit !(a > 0.01 && b == 0)}'; then
  echo "ok 3 - link flapping at MTBF 0.5 s: p_f $pf; no faults: $p0"
else
  echo "not ok 3 - p_f $pf with faults, $p0 without"; sed 's/^/# /' "$tmp/out"
fi

# 4: the episodes' work spread over more agents ends sooner in simulated time
"$T" run "$top/scenarios/jssp-stream-agents.xml" -o "$tmp/a" -q -j2 --set run.seeds=2 --set run.episodes=50 \
  --sweep=agents.count=1,4 >"$tmp/out" 2>&1
s1=$(metric "$tmp/a/agents.count=1" trivium sim_time) s4=$(metric "$tmp/a/agents.count=4" trivium sim_time)
if awk -v a="${s1:-0}" -v b="${s4:-0}" 'BEGIN {exit !(b > 0 && a > 1.5 * b)}'; then
  echo "ok 4 - 16 machines: 50 episodes take $s1 simulated seconds on 1 agent, $s4 on 4"
else
  echo "not ok 4 - simulated time $s1 on 1 agent, $s4 on 4"; sed 's/^/# /' "$tmp/out"
fi

# 5: a real instance under the controller: the probing controller plans the slow set right, the outcome-only one not
"$T" run "$top/scenarios/jssp-ft06.xml" -o "$tmp/i" -q -j2 -c trivium-roundrobin,rlvr --set run.seeds=5 \
  --set run.episodes=60 >"$tmp/out" 2>&1
ti=$(metric "$tmp/i" trivium-roundrobin world.identified) ri=$(metric "$tmp/i" rlvr world.identified)
if awk -v a="${ti:-0}" -v b="${ri:-1}" 'BEGIN {exit !(a > 0.6 && b < 0.2)}'; then
  echo "ok 5 - ft06: the slow machines are planned right in a fraction $ti of the episodes by trivium, $ri by rlvr"
else
  echo "not ok 5 - ft06: identified $ti (trivium-roundrobin), $ri (rlvr)"; sed 's/^/# /' "$tmp/out"
fi

# 6: the shipped JSSP scenarios validate
if "$T" validate "$top"/scenarios/jssp-*.xml >"$tmp/out" 2>&1; then
  echo "ok 6 - the JSSP scenarios validate"
else
  echo "not ok 6 - validate refused a JSSP scenario"; sed 's/^/# /' "$tmp/out"
fi

# 7-8: a job visiting a machine twice: file:line, exit 2, one line
printf '2 2\n0 1 1 2\n1 3 1 4\n' >"$tmp/twice.txt"
sed -e 's|instance="ft06"|instance="twice.txt"|' -e "s|\.\./platforms|$top/platforms|" \
  "$top/scenarios/jssp-ft06.xml" >"$tmp/twice.xml"
for cmd in validate run; do
  if [ $cmd = run ]; then n=8; else n=7; fi
  if [ $cmd = run ]; then "$T" run "$tmp/twice.xml" -o "$tmp/t" -q >/dev/null 2>"$tmp/err"; else "$T" validate "$tmp/twice.xml" >/dev/null 2>"$tmp/err"; fi
  rc=$?
  if [ $rc -eq 2 ] && [ "$(err_lines "$tmp/err")" -eq 1 ] && grep -q "twice.txt:3: job 1 visits machine 1 twice" "$tmp/err"; then
    echo "ok $n - $cmd: a job visiting a machine twice is file:line, exit 2"
  else
    echo "not ok $n - $cmd: exit $rc"; sed 's/^/# /' "$tmp/err"
  fi
done

# 9: the production runs in simulated time: the run lasts at least the sum of its makespans
"$T" run "$top/scenarios/jssp-ft06.xml" -o "$tmp/p" -q -c trivium --set run.seeds=1 --set run.episodes=20 >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) {if ($i == "cost") c = i; if ($i == "sim_time") t = i}; next}
    {sum += $c; last = $t} END {print "# makespans " sum ", simulated " last; exit !(c && t && sum > 0 && last >= sum)}' "$tmp/p/episodes.csv"; then
  echo "ok 9 - ft06: the 20 production runs take at least the sum of their makespans in simulated time"
else
  echo "not ok 9 - ft06: exit $rc, or the simulated time is shorter than the makespans"; sed 's/^/# /' "$tmp/out"
fi

# 10: no host for a machine: one line, exit 2
"$T" run "$top/scenarios/jssp-ft06.xml" -o "$tmp/q" -q -c trivium --set run.seeds=1 --set run.episodes=2 \
  --platform "$top/platforms/causalbench-multi.xml" --role controller=controller --role ctl=ctl-0 --role 'agent=agent-*' \
  >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ "$(err_lines "$tmp/err")" -eq 1 ] && grep -q "no host for machine 0" "$tmp/err"; then
  echo "ok 10 - a platform without machine hosts: exit 2, one line"
else
  echo "not ok 10 - no machine host: exit $rc"; sed 's/^/# /' "$tmp/err"
fi

# 11: machines 0 and 1 on one host (m0 says it is machine 1, and machine 0 falls back to the name m0):
# their operations stretch, which the agents see
sed -e 's/id="m1"/id="mx1"/; s/dst="m1"/dst="mx1"/; s/src="m1"/src="mx1"/' \
  -e '/<host id="m0"/,/<\/host>/ s/trivium.machine" value="0"/trivium.machine" value="1"/' \
  -e '/<host id="mx1"/,/<\/host>/ s/<prop id="trivium.machine" value="1"\/>//' \
  "$top/platforms/jssp/ft06/platform.xml" >"$tmp/shared-host.xml"
"$T" run "$top/scenarios/jssp-ft06.xml" -o "$tmp/r" -q -c trivium --set run.seeds=1 --set run.episodes=3 \
  --platform "$tmp/shared-host.xml" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "an operation of machine [01] ran at t=.*expected" "$tmp/err"; then
  echo "ok 11 - two machines on one host: the stretched operations fail the run (exit 1)"
else
  echo "not ok 11 - shared machine host: exit $rc"; sed 's/^/# /' "$tmp/err"
fi
