#!/bin/sh
# slurm-local.sh up|submit SCRIPT|env|stop - a throwaway one-node Slurm
# cluster on this machine, for trying Trivium's batch scripts by hand.
# Not part of CI, and not run by `make check`.
#
#   up             install slurm-wlm and munge with apt-get if missing (Debian
#                  12; needs root), then start a private munged, slurmctld and
#                  slurmd, wait until the node is idle and print `sinfo`.
#                  Re-running it reuses the daemons that are still running.
#   submit SCRIPT  bring the cluster up if needed, run `sh SCRIPT` (from
#                  SCRIPT's directory, with SLURM_CONF exported, so the
#                  script's own sbatch calls reach this cluster), wait until
#                  the queue holds no job of this user, then print `squeue`,
#                  each submitted job's final state (`scontrol show job`;
#                  there is no accounting, so no sacct) and its output files.
#                  Exits non-zero if a job did not complete.
#   compare [TRIVIUM [RUN ARGS...]]
#                  the check of Trivium's job arrays on a real Slurm: run a
#                  sweep locally (`trivium run ARGS -j 2`), emit the same
#                  sweep as a Slurm array (`--emit slurm`), submit its
#                  submit.sh (the array and the dependent merge job), wait,
#                  and compare every output file of the merge with the
#                  local run's (run.json without its "command"; jobs.json,
#                  the record of each invocation, aside).  TRIVIUM
#                  defaults to `trivium` on PATH; ARGS default to the fault
#                  sweep at 2 MTBFs x 2 controllers x 3 seeds x 100 episodes.
#                  Prints what differs, or "identical"; exits 1 on a
#                  difference.
#   env            print the `export SLURM_CONF=...` line for using sinfo,
#                  sbatch, squeue, ... on this cluster by hand.
#   stop           cancel this cluster's jobs and stop the daemons it started.
#
# The node is named after `hostname -s` and reached at 127.0.0.1; it has
# `nproc` CPUs and 90% of the memory available now.  No systemd, cgroups or
# slurmdbd: proctrack/linuxproc, task/none, accounting_storage/none.
# Everything it writes (slurm.conf, munge key and socket, controller state,
# spool, logs, pid files) is under TRV_SLURM_DIR (default
# /var/tmp/trivium-slurm); `stop` leaves it there, remove it by hand to start
# afresh.  Other settings: TRV_SLURM_PORT (slurmctld port, default 6817;
# slurmd uses the next one), TRV_SLURM_TIMEOUT (seconds `submit` waits for
# the queue to drain, default 3600), TRV_SLURM_DEBUG (daemon log level,
# default info; e.g. debug3).
set -eu

state=${TRV_SLURM_DIR:-/var/tmp/trivium-slurm}
port=${TRV_SLURM_PORT:-6817}
timeout=${TRV_SLURM_TIMEOUT:-3600}
debug=${TRV_SLURM_DEBUG:-info}
conf=$state/slurm.conf
msock=$state/munge/munge.socket
node=$(hostname -s)
SLURM_CONF=$conf
export SLURM_CONF

die() { echo "slurm-local.sh: $*" >&2; exit 1; }
say() { echo "slurm-local.sh: $*" >&2; }

# running NAME PID: process PID is running the daemon NAME.
running() {
  [ -n "$2" ] && [ -r "/proc/$2/comm" ] || return 1
  case $(cat "/proc/$2/comm" 2>/dev/null) in "$1"*) ;; *) return 1 ;; esac
  # An exited process not yet reaped is gone for our purposes.
  case $(sed 's/.*) //' "/proc/$2/stat" 2>/dev/null) in Z* | X* | "") return 1 ;; esac
}

# alive NAME PIDFILE: the daemon NAME recorded in PIDFILE is running.
alive() {
  running "$1" "$(cat "$2" 2>/dev/null)"
}

# stop_daemon NAME PIDFILE: SIGTERM, then SIGKILL after 15 s.
stop_daemon() {
  pid=$(cat "$2" 2>/dev/null) || pid=
  if ! running "$1" "$pid"; then rm -f "$2"; return 0; fi
  say "stopping $1 (pid $pid)"
  kill "$pid" 2>/dev/null || true
  i=0
  while running "$1" "$pid" && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
  if running "$1" "$pid"; then
    say "$1 (pid $pid) ignored SIGTERM; sending SIGKILL"
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$2"
}

logtail() {
  for f in "$state"/log/*.log; do
    [ -f "$f" ] || continue
    echo "==> $f <==" >&2
    tail -n 20 "$f" >&2
  done
}

install_packages() {
  need=
  for c in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
    command -v "$c" >/dev/null 2>&1 || need=yes
  done
  [ -z "$need" ] && return 0
  [ "$(id -u)" = 0 ] || die "slurm-wlm and munge are not installed, and installing them needs root"
  command -v apt-get >/dev/null 2>&1 || die "slurm-wlm and munge are not installed, and there is no apt-get"
  say "installing slurm-wlm and munge"
  # On a host running systemd this also enables (and starts) the packages'
  # own munge/slurmd/slurmctld units; this script does not use them.
  DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    slurm-wlm munge >&2
}

write_conf() {
  [ -f "$conf" ] && return 0
  cpus=$(nproc)
  avail=$(awk '/^MemAvailable:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
  [ -n "$avail" ] && [ "$avail" -gt 0 ] || avail=1000
  cat >"$conf.tmp" <<EOF
# Written by scripts/slurm-local.sh: a one-node cluster for testing.
ClusterName=trivium-local
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$msock
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/run/slurmctld.pid
SlurmdPidFile=$state/run/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
SlurmctldDebug=$debug
SlurmdDebug=$debug
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
DependencyParameters=kill_invalid_depend
ReturnToService=2
MinJobAge=3600
MaxArraySize=10001
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$avail State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$conf.tmp" "$conf"
}

start_munge() {
  if alive munged "$state/munge/munged.pid"; then return 0; fi
  # munged refuses a socket directory others may write to, or whose parents
  # are not searchable by all.
  mkdir -p "$state/munge"
  chmod 755 "$state" "$state/munge"
  if [ ! -s "$state/munge/munge.key" ]; then
    mungekey --create --keyfile="$state/munge/munge.key"
  fi
  chmod 600 "$state/munge/munge.key"
  rm -f "$msock" "$msock.lock"
  say "starting munged"
  munged --key-file="$state/munge/munge.key" --socket="$msock" \
    --pid-file="$state/munge/munged.pid" \
    --log-file="$state/munge/munged.log" \
    --seed-file="$state/munge/munged.seed" ||
    { tail -n 5 "$state/munge/munged.log" >&2; die "munged did not start"; }
  munge -n -S "$msock" | unmunge -S "$msock" >/dev/null ||
    die "munged does not answer on $msock"
}

start_slurm() {
  if ! alive slurmctld "$state/run/slurmctld.pid"; then
    mkdir -p "$state/ctld" "$state/run" "$state/log"
    chmod 700 "$state/ctld"
    say "starting slurmctld"
    slurmctld -f "$conf" || { logtail; die "slurmctld did not start"; }
  fi
  if ! alive slurmd "$state/run/slurmd.pid"; then
    mkdir -p "$state/spool" "$state/run" "$state/log"
    say "starting slurmd"
    slurmd -f "$conf" || { logtail; die "slurmd did not start"; }
  fi
  i=0
  while :; do
    st=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
    case $st in
      idle | mixed | allocated | completing) break ;;
    esac
    if [ $i -ge 60 ] ||
        ! alive slurmctld "$state/run/slurmctld.pid" ||
        ! alive slurmd "$state/run/slurmd.pid"; then
      sinfo -N -l >&2 || true
      logtail
      die "node $node did not come up (state: ${st:-none}); if the logs" \
        "say the address is in use, another Slurm has port $port or" \
        "$((port + 1)): set TRV_SLURM_PORT"
    fi
    sleep 1
    i=$((i + 1))
  done
}

up() {
  install_packages
  mkdir -p "$state"
  write_conf
  start_munge
  start_slurm
}

# field KEY LINE: the value of KEY=VALUE in a line of `scontrol -o show job`.
field() {
  echo " $2" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"
}

# show_jobs: the final state and output files of the jobs (array tasks
# each on their own) described by the `scontrol -o show job` lines on stdin.
show_jobs() {
  while IFS= read -r line; do
    task=$(field ArrayTaskId "$line")
    echo "job $(field JobId "$line")${task:+ (array job $(field ArrayJobId "$line") task $task)}:" \
      "$(field JobState "$line"), exit code $(field ExitCode "$line")"
    out=$(field StdOut "$line")
    err=$(field StdErr "$line")
    [ "$err" != "$out" ] || err=
    for f in $out $err; do
      if [ -f "$f" ]; then
        echo "  --- $f"
        sed 's/^/  | /' "$f"
      else
        echo "  --- $f (missing)"
      fi
    done
  done
}

# job_ids: the ids of the jobs slurmctld still has a record of.
job_ids() {
  scontrol -o show job 2>/dev/null | sed -n 's/^JobId=\([0-9]*\) .*/\1/p' | sort
}

submit() {
  [ -f "$1" ] || die "no such submit script: $1"
  up
  dir=$(cd "$(dirname "$1")" && pwd)
  base=$(basename "$1")
  me=$(id -un)
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  job_ids >"$tmp/before"
  say "running sh $dir/$base"
  (cd "$dir" && sh "$base")
  say "waiting for the queue to hold no job of $me"
  start=$(date +%s)
  last=
  while :; do
    q=$(squeue -h -u "$me" -o '%i %j %T %r')
    [ -n "$q" ] || break
    if [ "$q" != "$last" ]; then
      echo "$q" | sed 's/^/  queue: /' >&2
      last=$q
    fi
    if [ $(($(date +%s) - start)) -ge "$timeout" ]; then
      squeue -u "$me" >&2
      die "jobs still queued after $timeout s"
    fi
    sleep 1
  done
  echo "squeue -u $me (empty):"
  squeue -u "$me"
  # The jobs the script submitted: those slurmctld did not know before.
  # Their records last MinJobAge (1 h) after they end.
  job_ids | comm -13 "$tmp/before" - >"$tmp/new"
  [ -s "$tmp/new" ] || die "the submit script submitted no job"
  : >"$tmp/records"
  while read -r id; do
    scontrol -o show job "$id" | grep "^JobId=$id " >>"$tmp/records" || true
  done <"$tmp/new"
  sort -t= -k2,2n "$tmp/records" | show_jobs
  if grep -v ' JobState=COMPLETED ' "$tmp/records" | grep -q .; then
    die "some job did not complete"
  fi
  echo "all $(wc -l <"$tmp/new") jobs completed"
}

compare() {
  trivium=${1:-trivium}
  [ $# -gt 0 ] && shift
  case $trivium in */*) trivium=$(cd "$(dirname "$trivium")" && pwd)/$(basename "$trivium") ;; esac
  if [ $# -eq 0 ]; then
    set -- -e fault-sweep -c trivium,rlvr --set run.seeds=3 --set run.episodes=100 --sweep link-flap.mtbf=1,5
  fi
  work=$(mktemp -d /var/tmp/trivium-slurm-compare.XXXXXX)
  say "local run -> $work/local"
  "$trivium" run "$@" -j 2 -q -o "$work/local" 2>"$work/local.err" || { cat "$work/local.err" >&2; die "the local run failed"; }
  "$trivium" run "$@" --emit slurm -o "$work/array"
  submit "$work/array/slurm/submit.sh"
  n=0 bad=0
  for f in $(cd "$work/local" && find . -type f ! -path '*/cells/*' ! -name jobs.json | sort); do
    n=$((n + 1))
    case $f in
      */run.json) sed '/"command"/,$d' "$work/local/$f" >"$work/a.json"
                  sed '/"command"/,$d' "$work/array/$f" >"$work/b.json" 2>/dev/null || : >"$work/b.json"
                  cmp -s "$work/a.json" "$work/b.json" || { echo "differs: $f"; bad=$((bad + 1)); } ;;
      *) cmp -s "$work/local/$f" "$work/array/$f" || { echo "differs: $f"; bad=$((bad + 1)); } ;;
    esac
  done
  echo "compared $n files of the local run with the Slurm array's merge: $bad differ"
  [ "$bad" -eq 0 ] && echo "identical (run.json without \"command\")" && rm -rf "$work"
  [ "$bad" -eq 0 ] || die "outputs differ; both runs are in $work"
}

stop() {
  if alive slurmctld "$state/run/slurmctld.pid"; then
    jobs=$(squeue -h -o %A 2>/dev/null || true)
    if [ -n "$jobs" ]; then
      say "cancelling jobs: $(echo "$jobs" | paste -s -d ' ' -)"
      # shellcheck disable=SC2086
      scancel $jobs || true
      i=0
      while [ -n "$(squeue -h -o %A 2>/dev/null)" ] && [ $i -lt 30 ]; do
        sleep 1
        i=$((i + 1))
      done
    fi
  fi
  stop_daemon slurmd "$state/run/slurmd.pid"
  stop_daemon slurmctld "$state/run/slurmctld.pid"
  stop_daemon munged "$state/munge/munged.pid"
}

case ${1-} in
  up)
    [ $# = 1 ] || die "usage: $0 up"
    up
    sinfo
    ;;
  submit)
    [ $# = 2 ] || die "usage: $0 submit SCRIPT"
    submit "$2"
    ;;
  compare)
    shift
    compare "$@"
    ;;
  env)
    echo "export SLURM_CONF=$conf"
    ;;
  stop)
    stop
    ;;
  *)
    die "usage: $0 up | submit SCRIPT | compare [TRIVIUM [RUN ARGS...]] | env | stop"
    ;;
esac
