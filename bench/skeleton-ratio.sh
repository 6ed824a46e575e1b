#!/bin/sh
# skeleton-ratio.sh WHAT [N] - `trivium run`'s CPU time over the engine's
# floor: the project's skeleton of its protocol (bench/skeleton.c: the same
# SimGrid calls per episode, no maths) doing the same simulated work, and,
# when ../shared/bench is there, the shared skeleton (an older protocol: a
# ring of posted receives at the log, one execution per episode instead of
# the world's clock).  Run from the project root after a build.
#   WHAT: cell      trivium, seed 1, 500 episodes
#         headline  9 controllers x 20 seeds x 500 episodes, -j 1 (180 cells)
#         urs       scenarios/urs-sf.xml, trivium, seed 1, 128 drivers, 50 episodes
#         agents M  scenarios/multi-agent.xml, trivium, seed 1, 6 episodes, M agents
#   N: interleaved pairs (triples with the shared skeleton), default 5.
# A first run of trivium with --ctl gives the skeleton its schedule (which
# steps each agent probed, the controller's own records), and the script
# checks that the skeleton's simulated time at every episode's close equals
# episodes.csv's sim_time (it stops, exit 1, when one differs).  Then it
# prints the median CPU seconds (user + system, /usr/bin/time) of each
# program and the ratios, with the load average.  Trivium is timed with
# `--figures none`: drawing is output, not simulation.
# Environment: TRIVIUM (default _build/trivium), SKELETON (default
# _build/bench/skeleton), SHARED (default ../shared/bench).
set -eu
what=${1:-cell}
case $what in agents) m=${2:?agents needs M}; n=${3:-5} ;; *) n=${2:-5} ;; esac
T=${TRIVIUM:-_build/trivium}; S=${SKELETON:-_build/bench/skeleton}; shared=${SHARED:-../shared/bench}
[ -x "$T" ] && [ -x "$S" ] || { echo "$0: build first ($T, $S; make bench/skeleton)" >&2; exit 2; }
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
point=
case $what in
  cell)     targs="-c trivium --set run.seeds=1"; sargs=""; shargs="" ;;
  headline) targs=""; sargs="--cells 180 --jobs 1"; shargs="--cells 180 --jobs 1" ;;
  urs)      targs="scenarios/urs-sf.xml -c trivium --set run.seeds=1 --set run.episodes=50"
            sargs="--platform platforms/urs-sf.xml --agent-hosts tower-* --agents 128 --steps 120 --episodes 50 --barrier --step-seconds 60"
            shargs="--platform platforms/urs-sf.xml --agents 128 --steps 120 --episodes 50 --ncomp 12 --barrier" ;;
  agents)   targs="scenarios/multi-agent.xml -c trivium --set run.seeds=1 --set run.episodes=6 --sweep=agents.count=$m"
            point=agents.count=$m
            sargs="--platform platforms/causalbench-multi.xml --agent-hosts agent-* --agents $m --episodes 6 --step-seconds 0.01 --probe-flops 1e9"
            shargs="--platform platforms/causalbench-multi.xml --agents $m --episodes 6 --probe-flops 1e9" ;;
  *) echo "usage: $0 cell|headline|urs|agents M [N]" >&2; exit 2 ;;
esac
targs="$targs --figures none -j 1 -q"

# the reference run: its episodes, its logs, the skeleton's schedule
"$T" run $targs -o "$w/r0" --ctl "$w/ctl" >/dev/null
csv=$(find "$w/r0" -name episodes.csv | head -1)
python3 - "$csv" "$(dirname "$(find "$w/ctl" -name '*.ctl' | head -1)")" "$S" > "$w/schedule" <<'PY'
# One block per cell, in episodes.csv's order: from the cell's CTL, or, for
# a controller that keeps no log (no posterior to replay: rlvr, reactive),
# from its episodes.csv rows (one agent only: its probes at the first steps,
# the end marker and its resets as the controller's own records).
import csv, os, subprocess, sys
rows = {}
for r in csv.DictReader(open(sys.argv[1])):
    rows.setdefault((r['controller'], r['seed']), []).append(r)
for (c, s), rs in rows.items():
    f = os.path.join(sys.argv[2], f"{c}-seed{s}.ctl")
    if os.path.exists(f):
        sys.stdout.flush()
        subprocess.run([sys.argv[3], "--schedule-from-ctl", f], check=True)
        continue
    if int(rs[0].get('commits', 1)) > 1: sys.exit(f"no log for {c} seed {s}, and more than one agent")
    print("cell", sum(k.startswith("err_") for k in rs[0]), len(rs))
    for r in sorted(rs, key=lambda r: int(r['episode'])):
        p = int(r['probes'])
        print(int(r['resets']) + 1, "0:" + ",".join(map(str, range(p))) if p else "")
PY
"$S" $sargs --schedule "$w/schedule" -v > "$w/skel.out"
python3 - "$csv" "$w/skel.out" <<'PY'
import csv, sys
want = [r['sim_time'] for r in csv.DictReader(open(sys.argv[1]))]
got = [l.split()[5] for l in open(sys.argv[2]) if ' episode ' in l]
bad = [(i, a, b) for i, (a, b) in enumerate(zip(want, got)) if a != b]
if len(want) != len(got) or bad:
    sys.exit(f"end times differ: {len(want)} episodes in trivium, {len(got)} in the skeleton; first differences "
             f"(row, trivium, skeleton): {bad[:3]}")
print(f"simulated times agree: {len(want)} episodes, the last closing at {want[-1]} s")
PY
have_shared=no
if [ -f "$shared/skeleton.c" ] && [ -f "$shared/probes-from-episodes.py" ] && pkg-config --exists simgrid; then
  cc -O2 -o "$w/shared-skel" "$shared/skeleton.c" $(pkg-config --cflags --libs simgrid) -lm
  python3 "$shared/probes-from-episodes.py" "$csv" > "$w/probes"
  have_shared=yes
else
  echo "shared skeleton: skipped ($shared/skeleton.c is not there)"
fi

cpu() { /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1+$2}'; }
: > "$w/a"; : > "$w/b"; : > "$w/c"
uptime > "$w/load"
i=0; while [ "$i" -lt "$n" ]; do
  rm -rf "$w/r"; cpu "$T" run $targs -o "$w/r" >> "$w/a"
  cpu "$S" $sargs --schedule "$w/schedule" >> "$w/b"
  [ $have_shared = no ] || cpu "$w/shared-skel" $shargs --probes "$w/probes" >> "$w/c"
  i=$((i + 1))
done
uptime >> "$w/load"
python3 - "$w/a" "$w/b" "$w/c" "$what${point:+ ($point)}" "$w/load" <<'PY'
import sys, statistics as st
def col(f): return [float(x) for x in open(f)]
a, b, c = col(sys.argv[1]), col(sys.argv[2]), col(sys.argv[3])
load = [l.split('load average:')[1].strip() for l in open(sys.argv[5])]
line = (f"{sys.argv[4]}: trivium CPU median {st.median(a):.3f} s, project skeleton {st.median(b):.3f} s, "
        f"ratio {st.median(a) / st.median(b):.2f}x")
if c:
    line += f"; shared skeleton {st.median(c):.3f} s, ratio {st.median(a) / st.median(c):.2f}x"
print(line + f" (n={len(a)}; load before {load[0]}, after {load[1]})")
PY
