#!/bin/sh
# The shared library exports its public API and nothing else: the defined
# dynamic symbols of the built libtrivium.so (nm -D --defined-only) are
# exactly the functions the public headers (plugin/include/trivium/*.h)
# declare, read from the headers themselves (tests/public-api.sh), so a
# call added to a header without being exported, or an internal function
# (trv_*, a world's urs_* or wh_*, a log category, an instance of a C++
# template) leaking out of the library, fails here.  The public headers
# declare no data, so no data symbol may be exported either.  Run from the
# build directory (make check); TAP.
srcdir=${srcdir:-.}
build=${TRV_BUILDDIR:-.}
NM=${NM:-nm}
lib=$build/plugin/.libs/libtrivium.so
. "$srcdir/tests/public-api.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -f "$lib" ]; then echo "1..0 # SKIP no shared library ($lib): configured with --disable-shared"; exit 0; fi
echo "1..4"

public_functions "$srcdir"/plugin/include/trivium/*.h > "$tmp/declared"
"$NM" -D --defined-only "$lib" | awk 'NF == 3 {sub(/@.*/, "", $3); print $2, $3}' | sort -k2 -u > "$tmp/exported.types"
awk '{print $2}' "$tmp/exported.types" | sort -u > "$tmp/exported"

# 1: the header reader sees the declarations (guards against a test that
# passes because it compares nothing)
if grep -qx trivium_plugin_init_abi "$tmp/declared" && grep -qx trivium_episode_close "$tmp/declared" &&
   [ "$(wc -l < "$tmp/declared")" -ge 20 ]; then
  echo "ok 1 - the public headers declare $(wc -l < "$tmp/declared") functions"
else
  echo "not ok 1 - the header reader found: $(tr '\n' ' ' < "$tmp/declared")"
fi

# 2: nothing is exported that the public headers do not declare
comm -23 "$tmp/exported" "$tmp/declared" > "$tmp/extra"
if [ ! -s "$tmp/extra" ]; then echo "ok 2 - libtrivium.so exports no symbol outside the public headers"
else
  echo "not ok 2 - libtrivium.so exports $(wc -l < "$tmp/extra") symbols the public headers do not declare"
  head -20 "$tmp/extra" | sed 's/^/#   /'
fi

# 3: every declared function is exported
comm -13 "$tmp/exported" "$tmp/declared" > "$tmp/missing"
if [ ! -s "$tmp/missing" ]; then echo "ok 3 - every function of the public headers is exported"
else echo "not ok 3 - declared but not exported: $(tr '\n' ' ' < "$tmp/missing")"; fi

# 4: the exported symbols are functions (text), not data
data=$(awk '$1 != "T" {print $2 " (" $1 ")"}' "$tmp/exported.types" | head -10 | tr '\n' ' ')
if [ -z "$data" ]; then echo "ok 4 - every exported symbol is a function"
else echo "not ok 4 - exported symbols that are not functions: $data"; fi
