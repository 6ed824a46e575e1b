#!/bin/sh
# The example programs (examples/dispatch-example.c and its C++ twin):
# their own actors on their own platform, Trivium attached as a plugin,
# the cars playing the built-in world through the agent API.  TAP.
set -u
top=${srcdir:-..}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "1..8"
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
