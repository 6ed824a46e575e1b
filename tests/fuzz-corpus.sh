#!/bin/sh
# Every reader's libFuzzer harness (fuzz/NAME-fuzz.c), built with the
# build's own compiler and flags (sanitizers included when configured) from
# its source list fuzz/NAME.sources and fuzz/replay.c instead of libFuzzer,
# then run once on each input of its seed corpus fuzz/corpus/NAME/.  Fails
# when a source list no longer links (a library file was added or moved),
# when a corpus is empty, or when a harness aborts on a seed (a promise the
# reader broke: the harnesses check properties, not only crashes).  The
# fuzzing itself is fuzz/run.sh, with clang.  TAP; skips in a tree without
# fuzz/ (the harnesses are not in the tarball).
srcdir=${srcdir:-.}
CC=${TRV_FUZZ_CC:-cc}
fuzz="$srcdir/fuzz"
if [ ! -f "$fuzz/replay.c" ]; then
  echo "1..0 # SKIP no fuzz/ in this tree"
  exit 0
fi
. "$fuzz/sources.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
names=""
for f in "$fuzz"/*-fuzz.c; do names="$names $(basename "$f" -fuzz.c)"; done
set -- $names
echo "1..$#"
n=0
for name in $names; do
  n=$((n + 1))
  fuzz_sources "$srcdir" "$fuzz/$name.sources"
  # shellcheck disable=SC2086
  if ! $CC $TRV_FUZZ_CFLAGS -I"$srcdir/plugin" -I"$srcdir/plugin/include" -I"$srcdir/envs" -I"$srcdir" \
    -I"${TRV_BUILDDIR:-.}" $dirs -DTRV_SRCDIR="\"$srcdir\"" -DTRV_DATADIR="\"$srcdir\"" $(pkg-config --cflags $mods) \
    -o "$tmp/$name" "$fuzz/replay.c" "$fuzz/$name-fuzz.c" $srcs $TRV_FUZZ_LDFLAGS $(pkg-config --libs $mods) -lm \
    > "$tmp/$name.log" 2>&1; then
    echo "not ok $n - $name: does not build from fuzz/$name.sources"
    sed 's/^/# /' "$tmp/$name.log" | tail -15
    continue
  fi
  count=$(find "$fuzz/corpus/$name" -type f 2>/dev/null | wc -l)
  if [ "$count" -eq 0 ]; then
    echo "not ok $n - $name: no seed corpus in fuzz/corpus/$name"
    continue
  fi
  # shellcheck disable=SC2046
  if "$tmp/$name" $(find "$fuzz/corpus/$name" -type f | sort) > "$tmp/$name.run" 2>&1; then
    echo "ok $n - $name: builds from its source list, $count seeds replayed"
  else
    echo "not ok $n - $name: a seed of fuzz/corpus/$name fails"
    sed 's/^/# /' "$tmp/$name.run" | tail -15
  fi
done
