#!/bin/sh
# SimGrid tracing of a run: every cell writes a trace of its own inside the
# run's output directory (OUT/traces/<controller>-seed<N>.trace; a sweep
# OUT/<point>/traces/...), nothing in the current directory, and every
# trace opens in pajeng's pj_dump with Trivium's marks in it: one
# "trivium/episode" event per episode closed, and the alarms (whose values,
# reset and no-reset, hold no blank: SimGrid writes a mark's value
# unquoted).  tracing/filename is refused (exit 2, nothing written).  The
# check of SimGrid's options before the cells leaves no trace.  pj_dump
# missing (Debian: pajeng): skipped.  TAP.
set -u
T=${TRIVIUM:-./trivium}
case $T in /*) ;; *) T=$(pwd)/$T ;; esac
if ! command -v pj_dump >/dev/null 2>&1; then
  echo "1..0 # SKIP pj_dump is not installed (Debian: apt-get install pajeng; ./dev installs it)"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/cwd"
cd "$tmp/cwd" || exit 1
echo "1..6"
E=60
"$T" run -o "$tmp/h" -q --set run.seeds=2 --set run.episodes=$E --cfg=tracing:yes --cfg=tracing/platform:yes \
  >"$tmp/log" 2>&1
rc=$?
n=$(ls "$tmp/h/traces" 2>/dev/null | grep -c '\.trace$')
cells=$(($(ls "$tmp/h/cells" | grep -c '\.csv$')))
if [ $rc -eq 0 ] && [ "$n" -eq 18 ] && [ "$cells" -eq 18 ] && [ -s "$tmp/h/traces/trivium-nolrcp-seed2.trace" ] &&
   [ -z "$(ls "$tmp/cwd")" ]; then
  echo "ok 1 - the headline run (9 controllers x 2 seeds) writes 18 traces in OUT/traces, none in the current directory"
else
  echo "not ok 1 - exit $rc, $n traces for $cells cells; current directory: $(ls "$tmp/cwd" | tr '\n' ' ')"
  sed 's/^/# /' "$tmp/log" | head -20
fi
# $1 dir: every trace opens in pj_dump (its dump in FILE.dump); says the first that does not
dump_all() {
  for f in "$1"/*.trace; do
    pj_dump "$f" >"$f.dump" 2>"$f.err" || { echo "$f: $(head -3 "$f.err" | tr '\n' ' ')"; return 1; }
  done
}
why=$(dump_all "$tmp/h/traces")
if [ $? -eq 0 ]; then echo "ok 2 - pj_dump opens every trace of the headline run"
else echo "not ok 2 - pj_dump refused $why"; fi
# $1 dump, $2 mark type, $3 value (empty: any): how many such events
events() { awk -F', ' -v t="$2" -v v="$3" '$1 == "Event" && $3 == t && (v == "" || $5 == v) {n++} END {print n + 0}' "$1"; }
ok=1
alarms=0
noreset=0
for d in "$tmp"/h/traces/*.dump; do
  e=$(events "$d" trivium/episode closed)
  [ "$e" -eq $E ] || { ok=0; echo "# $(basename "$d"): $e trivium/episode events, expected $E"; }
  alarms=$((alarms + $(events "$d" trivium/alarm "")))
  noreset=$((noreset + $(events "$d" trivium/alarm no-reset)))
done
if [ $ok = 1 ] && [ $alarms -gt 0 ] && [ $noreset -gt 0 ]; then
  echo "ok 3 - every trace marks its $E episodes; $alarms alarms, $noreset of them no-reset, read back whole"
else
  echo "not ok 3 - episodes ok=$ok, alarms $alarms, no-reset alarms $noreset"
fi
"$T" run -o "$tmp/s" -q -c trivium,rlvr --set run.seeds=2 --sweep run.episodes=8,12 --cfg=tracing:yes \
  --cfg=tracing/platform:yes >"$tmp/log" 2>&1
rc=$?
ok=$rc
for p in 8 12; do
  d="$tmp/s/run.episodes=$p/traces"
  [ "$(ls "$d" 2>/dev/null | grep -c '\.trace$')" -eq 4 ] || { ok=1; echo "# point $p: $(ls "$d" 2>/dev/null | tr '\n' ' ')"; }
  why=$(dump_all "$d") || { ok=1; echo "# pj_dump refused $why"; }
  for f in "$d"/*.dump; do
    [ "$(events "$f" trivium/episode closed)" -eq $p ] || { ok=1; echo "# $f: not $p episodes"; }
  done
done
if [ $ok -eq 0 ] && [ -z "$(ls "$tmp/cwd")" ]; then
  echo "ok 4 - a two-point sweep: OUT/<point>/traces holds each point's 4 traces, each opens and marks its point's episodes"
else
  echo "not ok 4 - the sweep's traces (exit $rc)"; sed 's/^/# /' "$tmp/log" | head -10
fi
"$T" run -o "$tmp/f" -q -c trivium --set run.seeds=1 --set run.episodes=3 --cfg=tracing:yes \
  --cfg=tracing/filename:"$tmp/elsewhere.trace" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q 'tracing/filename' "$tmp/log" && [ ! -e "$tmp/f" ] && [ ! -e "$tmp/elsewhere.trace" ]; then
  echo "ok 5 - --cfg=tracing/filename is refused (exit 2), nothing written"
else
  echo "not ok 5 - exit $rc; $(cat "$tmp/log")"
fi
ln -s "$tmp/victim" "$tmp/link"
mkdir -p "$tmp/l/traces"
ln -s "$tmp/victim" "$tmp/l/traces/trivium-seed1.trace"
"$T" run -o "$tmp/l" -q -c trivium --set run.seeds=1 --set run.episodes=3 --cfg=tracing:yes >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$tmp/victim" ]; then
  echo "ok 6 - a symbolic link planted where a trace goes is refused (exit 2), nothing written through it"
else
  echo "not ok 6 - exit $rc; victim $(ls "$tmp/victim" 2>&1)"; sed 's/^/# /' "$tmp/log" | head -5
fi
