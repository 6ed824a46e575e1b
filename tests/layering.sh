#!/bin/sh
# Layering (SPEC section 2): the algorithmic core and the log include no
# SimGrid header; only the SimGrid attachment (plugin/sim*, and its public
# plugin header plugin/trivium.h) and a world's
# own simulation file (envs/WORLD/*-sim.c: worlds sit above the core) do;
# worlds never include each other.  TAP.
srcdir=${srcdir:-.}
echo "1..2"
bad=$(grep -lE '#include *[<"](simgrid|xbt)/' "$srcdir"/plugin/*.c "$srcdir"/plugin/*.h "$srcdir"/envs/*/*.c 2>/dev/null |
  grep -vE '/plugin/sim[^/]*$|/plugin/trivium\.h$|/envs/[^/]+/[^/]+-sim\.c$')
if [ -z "$bad" ]; then echo "ok 1 - no SimGrid header outside plugin/sim* and envs/*/*-sim.c"; else echo "not ok 1 - SimGrid included by: $bad"; fi
cross=""
for w in "$srcdir"/envs/*/; do
  name=$(basename "$w")
  for other in "$srcdir"/envs/*/; do
    o=$(basename "$other")
    [ "$o" = "$name" ] && continue
    grep -lE "#include *\"($o/|\\.\\./$o/)" "$w"*.c "$w"*.h 2>/dev/null && cross="$cross $name->$o"
  done
done
if [ -z "$cross" ]; then echo "ok 2 - worlds do not include each other"; else echo "not ok 2 - cross includes:$cross"; fi
