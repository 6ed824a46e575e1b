#!/bin/sh
# fuzz/run.sh SECONDS - build the CTL reader's libFuzzer harness with clang
# (ASan + UBSan) and run it for SECONDS (default 60) over fuzz/corpus.
# Exits non-zero if the fuzzer finds a crash (the reproducer is left in
# fuzz/artifacts/).  Needs clang and libclang-rt-14-dev (Debian 12).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
secs=${1:-60}
out=${TRV_FUZZ_BUILD:-$top/_build-fuzz}
mkdir -p "$out" "$here/artifacts"
cc=${CC_FUZZ:-clang}
config="$out/config.h"
[ -f "$config" ] || echo '/* fuzz build */' > "$config"
flags="-std=gnu11 -g -O1 -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$top/plugin -I$top/plugin/include -I$top/plugin/log -I$top/plugin/core -I$out"
# shellcheck disable=SC2046
$cc $flags $(pkg-config --cflags glib-2.0) -o "$out/ctl-fuzz" "$here/ctl-fuzz.c" \
  "$top"/plugin/log/ctl.c "$top"/plugin/log/ctl-format.c "$top"/plugin/log/ctl-recover.c \
  "$top"/plugin/log/ctl-view.c "$top"/plugin/log/ctl-compact.c \
  "$top"/plugin/core/posterior.c "$top"/plugin/core/replay.c "$top"/plugin/core/error.c \
  $(pkg-config --libs glib-2.0) -lm
work="$out/corpus"
mkdir -p "$work"
cp "$here"/corpus/* "$work"/ 2>/dev/null || true
# Two halves: with the CRCs checked (framing, recovery, torn-tail search),
# then with them waived (TRV_FUZZ_NO_CRC) so that mutations reach the record,
# snapshot and posterior decoders.  New inputs go to a scratch corpus, so the
# committed seeds stay as they are.
half=$(( (secs + 1) / 2 ))
run() {
  ASAN_OPTIONS=detect_leaks=1 "$out/ctl-fuzz" -max_total_time="$half" -max_len=65536 -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$here/artifacts/" -print_final_stats=1 "$work" "$here/corpus"
}
run
TRV_FUZZ_NO_CRC=1 run
