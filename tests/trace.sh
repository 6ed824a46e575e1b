#!/bin/sh
# SimGrid tracing of a run: every cell writes a trace of its own
# (FILE-<controller>-seed<N>.EXT), each with Trivium's marks (one
# "trivium/episode" event per episode closed), and the check of SimGrid's
# options beforehand leaves no trace of its own.  TAP.
set -u
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..3"
"$T" run -o "$tmp/out" -q -c trivium,rlvr --set run.seeds=1 --set run.episodes=7 --cfg=tracing:yes \
  --cfg=tracing/platform:yes --cfg=tracing/filename:"$tmp/t.trace" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ -s "$tmp/t-trivium-seed1.trace" ] && [ -s "$tmp/t-rlvr-seed1.trace" ] && [ ! -e "$tmp/t.trace" ]; then
  echo "ok 1 - two cells, two traces (t-trivium-seed1.trace, t-rlvr-seed1.trace), none under the name given"
else
  echo "not ok 1 - exit $rc; files: $(ls "$tmp" | tr '\n' ' ')"; sed 's/^/# /' "$tmp/log" | head -20
fi
# $1 trace: how many events of the mark type trivium/episode it holds
episodes() {
  awk '$1 == 3 && $4 == "trivium/episode" {id = $2} $1 == 17 && id != "" && $3 == id {n++} END {print n + 0}' "$1"
}
n=2
for c in trivium rlvr; do
  e=$(episodes "$tmp/t-$c-seed1.trace" 2>/dev/null)
  if [ "$e" = 7 ]; then echo "ok $n - $c's trace marks the 7 episodes it closed"
  else echo "not ok $n - $c's trace has ${e:-no} trivium/episode events, expected 7"; fi
  n=$((n + 1))
done
