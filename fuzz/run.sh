#!/bin/sh
# fuzz/run.sh SECONDS [NAME...] - build every libFuzzer harness (or the
# named ones) with clang (ASan + UBSan) and run each for SECONDS (default
# 60) over its corpus.
#
# A harness NAME is three things: fuzz/NAME-fuzz.c (LLVMFuzzerTestOneInput),
# fuzz/NAME.sources (the project's sources it links, one path per line from
# the top of the tree; `pkg:MODULE` lines add a pkg-config module) and the
# seed corpus fuzz/corpus/NAME/.  New inputs go to a scratch corpus in the
# build directory, so the committed seeds stay as they are.  A harness may
# set its own extra libFuzzer options in fuzz/NAME.options (one line), and
# in fuzz/NAME.env an environment assignment for a second half of its time
# (the CTL reader waives its CRCs there, so that mutations reach the
# decoders behind them).
# Prints one line per harness with its executions; exits non-zero if any
# harness finds a crash (the reproducer is left in fuzz/artifacts/) or does
# not build (the other harnesses still run).
# Needs clang and libclang-rt-14-dev (Debian 12).  make check builds each
# harness without libFuzzer (fuzz/replay.c) and replays its seeds
# (tests/fuzz-corpus.sh): a source list that no longer links fails there.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
secs=${1:-60}
[ $# -gt 0 ] && shift
out=${TRV_FUZZ_BUILD:-$top/_build-fuzz}
mkdir -p "$out" "$here/artifacts"
cc=${CC_FUZZ:-clang}
config="$out/config.h"
[ -f "$config" ] || printf '/* fuzz build */\n#define PACKAGE_VERSION "fuzz"\n#define TRV_GIT_REVISION "fuzz"\n' > "$config"
names="$*"
if [ -z "$names" ]; then
  for f in "$here"/*-fuzz.c; do names="$names $(basename "$f" -fuzz.c)"; done
fi
base="-std=gnu11 -g -O1 -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=fuzzer,address,undefined \
-fno-sanitize-recover=undefined -I$top/plugin -I$top/plugin/include -I$top/envs -I$top -I$out \
-DTRV_SRCDIR=\"$top\" -DTRV_DATADIR=\"$top\""
. "$here/sources.sh"
status=0
for name in $names; do
  fuzz_sources "$top" "$here/$name.sources"
  # shellcheck disable=SC2046,SC2086
  if ! $cc $base $dirs $(pkg-config --cflags $mods) -o "$out/$name-fuzz" "$here/$name-fuzz.c" $srcs \
    $(pkg-config --libs $mods) -lm > "$out/$name.build.log" 2>&1; then
    status=1
    echo "fuzz $name: BUILD FAILED (log: $out/$name.build.log)"
    tail -20 "$out/$name.build.log"
    continue
  fi
  work="$out/corpus-$name"
  mkdir -p "$work"
  opts=""
  [ -f "$here/$name.options" ] && opts=$(cat "$here/$name.options")
  halves="plain"
  [ -f "$here/$name.env" ] && halves="plain $(cat "$here/$name.env")"
  n=$(echo $halves | wc -w)
  t=$(( (secs + n - 1) / n ))
  : > "$out/$name.log"
  ok=1
  for h in $halves; do
    env=""
    [ "$h" != plain ] && env="$h"
    # shellcheck disable=SC2086
    env ASAN_OPTIONS=detect_leaks=1 $env "$out/$name-fuzz" -max_total_time="$t" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$here/artifacts/$name-" -print_final_stats=1 $opts "$work" "$here/corpus/$name" \
      >> "$out/$name.log" 2>&1 || ok=0
  done
  if [ $ok = 1 ]; then
    execs=$(grep -h 'stat::number_of_executed_units' "$out/$name.log" | awk '{s+=$2} END {print s+0}')
    echo "fuzz $name: ${secs} s, $execs executions, no crash"
  else
    status=1
    echo "fuzz $name: CRASH (log: $out/$name.log)"
    tail -40 "$out/$name.log"
  fi
done
exit $status
