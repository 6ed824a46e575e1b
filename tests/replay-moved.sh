#!/bin/sh
# A run directory is self-contained: it keeps a copy of the scenario and
# the platform it read (OUT/inputs/, the two at their relative places), and
# run.json names each copy beside the original path and SHA-256.  Moved to
# a new path, with the scenario and platform deleted from where they were,
# `trivium run --replay-config DIR/run.json` replays it to identical
# outputs.  A copy named outside inputs/, or a copy that changed, is
# refused (exit 2) rather than replayed on other inputs.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..4"
mkdir -p "$tmp/src/scenarios" "$tmp/src/platforms"
cp "$top/platforms/causalbench.xml" "$tmp/src/platforms/lan.xml"
sed 's|\.\./platforms/causalbench\.xml|../platforms/lan.xml|' "$top/scenarios/default.xml" >"$tmp/src/scenarios/mine.xml"
"$T" run "$tmp/src/scenarios/mine.xml" -q -o "$tmp/run" -c trivium,rlvr --set run.seeds=2 --set run.episodes=30 \
  >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 0 ] && cmp -s "$tmp/run/inputs/scenarios/mine.xml" "$tmp/src/scenarios/mine.xml" &&
   cmp -s "$tmp/run/inputs/platforms/lan.xml" "$tmp/src/platforms/lan.xml" &&
   grep -q '"copy" : "inputs/platforms/lan.xml"' "$tmp/run/run.json" && grep -q '"copy" : "inputs/scenarios/mine.xml"' "$tmp/run/run.json"; then
  echo "ok 1 - the run keeps inputs/scenarios/mine.xml and inputs/platforms/lan.xml, named in run.json"
else
  echo "not ok 1 - exit $rc; $(find "$tmp/run/inputs" 2>&1 | tr '\n' ' ')"; sed 's/^/# /' "$tmp/log" | head
fi
mkdir "$tmp/elsewhere"
mv "$tmp/run" "$tmp/elsewhere/moved"
rm -rf "$tmp/src"
"$T" run --replay-config "$tmp/elsewhere/moved/run.json" -q -o "$tmp/again" >"$tmp/log" 2>&1
rc=$?
diffs=""
for f in episodes.csv summary.csv summary.md figures/regret.dat figures/presence.dat figures/recovery.dat; do
  cmp -s "$tmp/elsewhere/moved/$f" "$tmp/again/$f" || diffs="$diffs $f"
done
if [ $rc -eq 0 ] && [ -z "$diffs" ]; then
  echo "ok 2 - moved, its scenario and platform deleted, it replays to identical outputs"
else
  echo "not ok 2 - exit $rc, differs:$diffs"; sed 's/^/# /' "$tmp/log" | head
fi
# a hostile copy path: never read outside the run directory's inputs/
sed 's|"copy" : "inputs/platforms/lan.xml"|"copy" : "inputs/../../../../etc/passwd"|' "$tmp/elsewhere/moved/run.json" >"$tmp/elsewhere/moved/evil.json"
"$T" run --replay-config "$tmp/elsewhere/moved/evil.json" -q -o "$tmp/evil" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q 'platform_file.copy .* is not a path below the run directory' "$tmp/log" && [ ! -e "$tmp/evil" ]; then
  echo "ok 3 - a copy named outside inputs/ is refused (exit 2)"
else
  echo "not ok 3 - exit $rc"; sed 's/^/# /' "$tmp/log" | head -3
fi
echo '<!-- changed -->' >>"$tmp/elsewhere/moved/inputs/platforms/lan.xml"
"$T" run --replay-config "$tmp/elsewhere/moved/run.json" -q -o "$tmp/changed" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q 'platform_file .*cannot be read since the run.* and its copy .*lan.xml changed' "$tmp/log"; then
  echo "ok 4 - a copy that changed since the run is refused (exit 2), naming it"
else
  echo "not ok 4 - exit $rc"; sed 's/^/# /' "$tmp/log" | head -3
fi
