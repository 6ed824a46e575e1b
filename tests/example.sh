#!/bin/sh
# The example program (examples/dispatch-example.c): its own actors on its
# own platform, Trivium attached as a plugin.  TAP.
set -u
top=${srcdir:-..}
exe=${EXAMPLE:-examples/dispatch-example}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "1..4"
"$exe" "$top/examples/dispatch-platform.xml" "$top/examples/dispatch-deployment.xml" 60 >"$out" 2>&1
rc=$?
if [ $rc -eq 0 ]; then echo "ok 1 - the example runs to the end"; else echo "not ok 1 - exit $rc"; sed 's/^/# /' "$out"; fi
if grep -q "2 cars reported in; Trivium finished every episode" "$out"; then echo "ok 2 - its own actors ran beside the plugin"; else echo "not ok 2 - no summary line"; fi
n=$(grep -cE '^[0-9]+,' "$out")
if [ "$n" -eq 60 ]; then echo "ok 3 - 60 episodes reported"; else echo "not ok 3 - $n episodes"; fi
if [ "$(grep -c 'released by Trivium' "$out")" -eq 2 ]; then echo "ok 4 - both cars were released when the run ended"; else echo "not ok 4 - cars not released"; fi
