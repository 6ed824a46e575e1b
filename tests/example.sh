#!/bin/sh
# The example programs (examples/dispatch-example.c and its C++ twin):
# their own actors on their own platform, Trivium attached as a plugin,
# the cars playing the built-in world through the agent API.  TAP.
set -u
top=${srcdir:-..}
out=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$tmp"' EXIT
echo "1..12"
n=0
for exe in ${EXAMPLE:-examples/dispatch-example} ${EXAMPLE_CXX:-examples/dispatch-example-cxx}; do
  name=$(basename "$exe")
  "$exe" "$top/examples/dispatch-platform.xml" "$top/examples/dispatch-deployment.xml" 60 >"$out" 2>&1
  rc=$?
  n=$((n + 1)); if [ $rc -eq 0 ]; then echo "ok $n - $name runs to the end"; else echo "not ok $n - $name: exit $rc"; sed 's/^/# /' "$out"; fi
  n=$((n + 1)); if grep -q "2 cars reported in; Trivium finished 60 episodes" "$out"; then echo "ok $n - $name: its own actors ran beside the plugin"; else echo "not ok $n - $name: no summary line"; fi
  rows=$(grep -cE '^[0-9]+,trivium,' "$out")
  n=$((n + 1)); if [ "$rows" -eq 60 ]; then echo "ok $n - $name: 60 episodes.csv rows"; else echo "not ok $n - $name: $rows rows"; fi
  n=$((n + 1)); if [ "$(grep -c 'released by Trivium.*after 60 episodes' "$out")" -eq 2 ]; then echo "ok $n - $name: both cars played every episode and were released"; else echo "not ok $n - $name: cars not released"; fi
done

# Fail early: a bad setting, or a platform without a host of a role, stops the
# program at time 0 with one message from Trivium naming it, before any of
# its own actors ran (the tower never hears a car), and the program gets the
# error from trivium_plugin_finished()
exe=${EXAMPLE:-examples/dispatch-example}
early() { # $1 what, $2 the word the message must name, then the platform and extra arguments
  what=$1 word=$2
  shift 2
  "$exe" "$@" >"$out" 2>&1
  rc=$?
  lines=$(grep -c 'trivium_plugin/ERROR' "$out")
  n=$((n + 1))
  if [ $rc -ne 0 ] && [ "$lines" -eq 1 ] && grep 'trivium_plugin/ERROR' "$out" | grep -q ' 0\.000000\] .*stops now: .*'"$word" &&
     ! grep -q '^tower:' "$out" && ! grep -q 'released by Trivium' "$out"; then
    echo "ok $n - $what: one message naming $word at t = 0, none of the program's actors ran"
  else echo "not ok $n - $what: exit $rc, $lines messages"; sed 's/^/# /' "$out" | tail -5; fi
  n=$((n + 1))
  if grep -q "^dispatch-example: .*$word" "$out"; then echo "ok $n - $what: trivium_plugin_finished() returns it"
  else echo "not ok $n - $what: the program did not get the error"; fi
}
early "a bad setting" "run.episodes" "$top/examples/dispatch-platform.xml" "$top/examples/dispatch-deployment.xml" 60 \
  --cfg=trivium/run.episodes:0
sed 's|<prop id="trivium.role" value="ctl"/>||' "$top/examples/dispatch-platform.xml" > "$tmp/no-ctl.xml"
early "no host of the role ctl" "ctl" "$tmp/no-ctl.xml" "$top/examples/dispatch-deployment.xml" 60
