#!/bin/sh
# Layering (docs/plugin-api.md, "Layers"): the layers of the library,
# from the bottom,
#   core (plugin/core) <- log (plugin/log) <- scenario (plugin/scenario)
#   <- sim (plugin/sim) <- worlds (envs, urs) <- api (plugin/api) <- cli (src)
# may use only what is at their own level or below.  Checked on the built
# objects, not only on the includes: every symbol an object of a layer
# leaves undefined must not be defined by a layer above it.  Worlds never
# use each other (the registry envs/worlds.c excepted), and nothing below
# the SimGrid attachment includes a SimGrid header.  Run from the build
# directory (make check).  The program's run (src/, but the worlds' own
# subcommands) names no world: what a world adds to a run's outputs is its
# report (trivium/report.h).  And every source file that opens with
# "/* NAME - what it holds" names itself there (its name, or its path's
# tail: trivium/world.h), not the name it had before a move.  TAP.
srcdir=${srcdir:-.}
build=${LAYERING_BUILD:-.}
NM=${NM:-nm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..6"

layers="core:plugin/core log:plugin/log scenario:plugin/scenario sim:plugin/sim worlds:envs,urs api:plugin/api cli:src"

# objects of a layer's directories (comma-separated): the non-PIC copies
# libtool leaves beside the .lo files (the .libs/ copies hold the same code)
objects() {
  for d in $(echo "$1" | tr ',' ' '); do find "$build/$d" -name '*.o' -not -path '*/.libs/*' 2>/dev/null; done | sort
}

# defined global symbols of each layer
n=0
for l in $layers; do
  name=${l%%:*} dir=${l#*:}
  objects "$dir" > "$tmp/$name.objs"
  if [ ! -s "$tmp/$name.objs" ]; then echo "Bail out! no objects under $build/$dir (build first)"; exit 1; fi
  xargs "$NM" -g --defined-only < "$tmp/$name.objs" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u > "$tmp/$name.def"
  n=$((n + 1))
done

# 1: no layer uses a symbol defined only above it
bad=""
i=0
for l in $layers; do
  name=${l%%:*}
  i=$((i + 1))
  j=0
  above=""
  for m in $layers; do
    j=$((j + 1))
    [ $j -gt $i ] && above="$above ${m%%:*}"
  done
  [ -z "$above" ] && continue
  for o in $(cat "$tmp/$name.objs"); do
    "$NM" -u "$o" 2>/dev/null | awk '{print $NF}' | sort -u > "$tmp/undef"
    for a in $above; do
      hit=$(comm -12 "$tmp/undef" "$tmp/$a.def" | grep -vxFf "$tmp/$name.def" | head -3 | tr '\n' ' ')
      [ -n "$hit" ] && bad="$bad
#   $o ($name) uses $a: $hit"
    done
  done
done
if [ -z "$bad" ]; then echo "ok 1 - no layer uses a symbol of a layer above it"
else echo "not ok 1 - upward references:$bad"; fi

# 2: worlds do not use each other (objects under envs/W/ or urs/ against the others)
cross=""
for w in "$build"/envs/*/ "$build"/urs/; do
  [ -d "$w" ] || continue
  wn=$(basename "$w")
  find "$w" -name '*.o' -not -path '*/.libs/*' | sort > "$tmp/w.objs"
  [ -s "$tmp/w.objs" ] || continue
  xargs "$NM" -u < "$tmp/w.objs" | awk '{print $NF}' | sort -u > "$tmp/w.undef"
  for v in "$build"/envs/*/ "$build"/urs/; do
    vn=$(basename "$v")
    [ "$vn" = "$wn" ] && continue
    find "$v" -name '*.o' -not -path '*/.libs/*' | xargs -r "$NM" -g --defined-only | awk 'NF == 3 {print $3}' |
      sort -u > "$tmp/v.def"
    hit=$(comm -12 "$tmp/w.undef" "$tmp/v.def" | head -3 | tr '\n' ' ')
    [ -n "$hit" ] && cross="$cross $wn->$vn ($hit)"
  done
done
if [ -z "$cross" ]; then echo "ok 2 - worlds do not use each other's symbols"; else echo "not ok 2 - cross references:$cross"; fi

# 3: no SimGrid header below the SimGrid attachment
inc=$(grep -lE '#include *[<"](simgrid|xbt)/' "$srcdir"/plugin/core/* "$srcdir"/plugin/log/* \
  "$srcdir"/plugin/scenario/* 2>/dev/null)
if [ -z "$inc" ]; then echo "ok 3 - core, log and scenario include no SimGrid header"
else echo "not ok 3 - SimGrid included by: $inc"; fi

# 4: the check itself sees an upward reference (a symbol the sim layer
# defines, pretended undefined in a core object): guards against a test
# that passes because it compares nothing
probe=$(grep -m1 "^trv_" "$tmp/sim.def")
if [ -n "$probe" ] && grep -qxF "$probe" "$tmp/sim.def" && ! grep -qxF "$probe" "$tmp/core.def" &&
   [ "$(wc -l < "$tmp/core.def")" -gt 50 ]; then
  echo "ok 4 - the symbol tables are not empty (sim defines $probe, core does not)"
else
  echo "not ok 4 - empty or overlapping symbol tables"
fi

# 5: a source file's opening line names the file itself.  stale_names
# prints "FILE: NAME" for each FILE whose first line (after a #! line) is
# "/* NAME - ...", "# NAME - ..." or "// NAME - ..." with NAME not its
# path's tail.
stale_names() {
  for f in "$@"; do
    first=$(head -1 "$f")
    case "$first" in '#!'*) line=$(sed -n 2p "$f") ;; *) line=$first ;; esac
    name=$(printf '%s\n' "$line" | sed -n 's@^\(/\*\|#\|//\) *\([A-Za-z0-9_./+-]*\.[a-z]\{1,3\}\) - .*@\2@p')
    [ -z "$name" ] && continue
    case "$f" in */"$name" | "$name") ;; *) echo "$f: $name" ;; esac
  done
}
find "$srcdir/plugin" "$srcdir/envs" "$srcdir/urs" "$srcdir/src" "$srcdir/tests" "$srcdir/fuzz" "$srcdir/examples" \
  "$srcdir/scripts" -path '*/fuzz/corpus' -prune -o -type f \
  \( -name '*.[ch]' -o -name '*.cpp' -o -name '*.am' -o -name '*.sh' \) -print | sort > "$tmp/sources"
# shellcheck disable=SC2046
stale=$(stale_names $(cat "$tmp/sources"))
mkdir -p "$tmp/moved"
printf '/* old-name.c - a file that kept its old name.\n */\n' > "$tmp/moved/new-name.c"
printf '/* new-name.h - a file that names itself.\n */\n' > "$tmp/moved/new-name.h"
probe=$(stale_names "$tmp/moved/new-name.c" "$tmp/moved/new-name.h")
if [ -z "$stale" ] && [ "$probe" = "$tmp/moved/new-name.c: old-name.c" ] && [ "$(wc -l < "$tmp/sources")" -gt 100 ]; then
  echo "ok 5 - no first line of the $(wc -l < "$tmp/sources") source files names another file"
else
  echo "not ok 5 - first lines that name another file:"
  printf '%s\n' "$stale" "(a file named new-name.c that opens with old-name.c gives: ${probe:-nothing})" | sed 's/^/#   /'
fi

# 6: no source of src/ holds a registered world's name as a string, but the
# worlds' own subcommands (cmd-llm.c, cmd-jssp.c, cmd-trace.c) and main.c's
# table of them.  The names are those of the worlds' classes (envs/, urs/).
names_in() { # the world names the files' `const TrvWorldClass trv_world_*` give
  for f in "$@"; do
    sed -n '/^const TrvWorldClass trv_world_/,/^};/s/^ *\.name = "\([^"]*\)",*$/\1/p' "$f"
  done | sort -u
}
quoting() { # FILE...: the lines of the files that quote a world name
  for f in "$@"; do
    for w in $worlds; do grep -Hn "\"$w\"" "$f"; done
  done
}
# shellcheck disable=SC2046
worlds=$(names_in $(grep -l '^const TrvWorldClass trv_world_' "$srcdir"/envs/*/*.c "$srcdir"/urs/*.c))
cli=$(ls "$srcdir"/src/*.c "$srcdir"/src/*.h | grep -v '/src/\(cmd-llm\|cmd-jssp\|cmd-trace\|main\)\.c$')
# shellcheck disable=SC2086
named=$(quoting $cli)
printf 'static bool is_it(const char *w) { return !strcmp(w, "warehouse"); }\n' > "$tmp/probe.c"
caught=$(quoting "$tmp/probe.c")
if [ -z "$named" ] && [ "$(echo "$worlds" | wc -w)" -ge 5 ] && [ -n "$caught" ]; then
  echo "ok 6 - the program's run names none of the worlds ($(echo $worlds)): a world's outputs are its report"
else
  echo "not ok 6 - world names in the program's run (worlds: $(echo $worlds); a probe caught: ${caught:-nothing}):"
  printf '%s\n' "$named" | sed 's/^/#   /'
fi
