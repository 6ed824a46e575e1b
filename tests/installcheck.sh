#!/bin/sh
# make installcheck: what a user gets from `make install`, used the way a
# user would, out of the build tree.  TAP.
#   installcheck.sh PREFIX LIBDIR DOCDIR BINDIR PKGDATADIR MANDIR INCLUDEDIR
# The examples are copied from the installed doc directory into a scratch
# directory and built there by their own Makefile with pkg-config alone:
# the C example, its C++ twin, the couriers world of its own (written
# against the public headers only), which must identify its true graph on 5
# seeds while an outcome-only learner does not, and SimGrid's master-worker
# shape, whose workers stop, leave and crash (tests/masterworker.sh); built again with the
# rpath of `pkg-config --variable=libdir trivium`, the C example runs with
# no LD_LIBRARY_PATH.  man(1), given the installed man directory alone,
# finds the page of every function the installed headers declare and
# renders it without a warning.  The installed `trivium` runs its installed
# default scenario and a job-shop scenario.
set -u
prefix=$1 libdir=$2 docdir=$3 bindir=$4 pkgdatadir=$5 mandir=$6 includedir=$7
here=$(cd "$(dirname "$0")" && pwd)
. "$here/json-compact.sh"
. "$here/public-api.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "1..12"
n=0
check() { n=$((n + 1)); if eval "$2" > "$work/out" 2>&1; then echo "ok $n - $1"; else echo "not ok $n - $1"; tail -15 "$work/out" | sed 's/^/# /'; fi; }

check "the library, its headers, trivium.pc, the man pages and the examples are installed" \
  "test -f '$libdir/libtrivium.so' && test -f '$libdir/libtrivium.a' && test -f '$libdir/pkgconfig/trivium.pc' &&
   test -f '$includedir/trivium/trivium.h' && test -f '$includedir/trivium/world.h' && test -f '$includedir/trivium/agent.h' &&
   test -f '$includedir/trivium/export.h' &&
   test -f '$mandir/man1/trivium.1' && test -f '$mandir/man5/trivium-scenario.5' && test -f '$mandir/man3/trivium.3' &&
   test -f '$pkgdatadir/scenarios/trivium-scenario.dtd' && test -f '$docdir/examples/Makefile.example' &&
   test -f '$docdir/plugin-api.md'"

# man FUNCTION for every function of the installed headers, with MANPATH
# the installed man directory alone: found under man3 (a link page of
# docs/man/links.sh, or the page itself), rendered with every groff
# warning on (--warnings=w) and none given, and naming the function
man_pages() {
  fns=$(public_functions "$includedir"/trivium/*.h)
  [ -n "$fns" ] || { echo "no function in $includedir/trivium/*.h"; return 1; }
  for f in $fns; do
    page=$(env -u MANOPT MANPATH="$mandir" man -w "$f" 2>&1) || { echo "man -w $f: $page"; return 1; }
    case $page in "$mandir"/man3/*) ;; *) echo "man -w $f: $page, not under $mandir/man3"; return 1 ;; esac
    env -u MANOPT MANPATH="$mandir" MANWIDTH=80 man --warnings=w -P cat "$f" > "$work/page" 2> "$work/warn" ||
      { echo "man $f failed"; cat "$work/warn"; return 1; }
    if [ -s "$work/warn" ]; then echo "man $f:"; cat "$work/warn"; return 1; fi
    grep -q "$f" "$work/page" || { echo "man $f: the page does not name $f"; return 1; }
  done
}
if command -v man > /dev/null 2>&1; then
  check "man finds the page of every function of the installed headers and renders it without a warning" man_pages
else
  n=$((n + 1))
  echo "ok $n # SKIP man is not installed (Debian: man-db)"
fi

cp "$docdir"/examples/* "$work"/
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG=pkg-config
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
check "pkg-config --cflags --libs trivium names the installed prefix only" \
  "$PKG_CONFIG --cflags --libs trivium | grep -q -- '-I$includedir' && ! $PKG_CONFIG --cflags --libs trivium | grep -q '/plugin/include'"
check "the examples build out of tree with pkg-config alone (C, C++, the couriers world, master-worker)" \
  "cd '$work' && make -f Makefile.example PKG_CONFIG='$PKG_CONFIG' TRIVIUM_CFLAGS=\"\$($PKG_CONFIG --cflags trivium)\" TRIVIUM_LIBS=\"\$($PKG_CONFIG --libs trivium)\""
check "the C example runs against the installed library" \
  "cd '$work' && ./dispatch-example dispatch-platform.xml dispatch-deployment.xml 40 > c.out && grep -q 'Trivium finished 40 episodes' c.out && ldd ./dispatch-example | grep -q '$libdir/libtrivium.so'"
check "built with the rpath of pkg-config's libdir, the C example runs with no LD_LIBRARY_PATH" \
  "cd '$work' && \${CC:-cc} -o rpath-example dispatch-example.c \$($PKG_CONFIG --cflags trivium) \$($PKG_CONFIG --libs trivium) -Wl,-rpath,\$($PKG_CONFIG --variable=libdir trivium) &&
   env -u LD_LIBRARY_PATH ./rpath-example dispatch-platform.xml dispatch-deployment.xml 20 > rpath.out && grep -q 'Trivium finished 20 episodes' rpath.out &&
   env -u LD_LIBRARY_PATH ldd ./rpath-example | grep -q '$libdir/libtrivium.so'"
check "the C++ example runs and prints what the C one prints" \
  "cd '$work' && ./dispatch-example-cxx dispatch-platform.xml dispatch-deployment.xml 40 > cxx.out && diff c.out cxx.out"
check "the couriers world: Trivium exact in every stationary episode, the outcome-only learner not (5 seeds)" \
  "COURIERS='$work/couriers' COURIERS_PLATFORM='$work/couriers-platform.xml' COURIERS_DEPLOYMENT='$work/couriers-deployment.xml' sh '$here/couriers.sh' | tee '$work/tap' && ! grep -q '^not ok' '$work/tap'"
check "the master-worker example: workers that stop, leave and crash end the run early, within 2x of the program without Trivium" \
  "MASTERWORKER='$work/masterworker' MASTERWORKER_DIR='$work' TRIVIUM='$bindir/trivium' sh '$here/masterworker.sh' | tee '$work/tap' && ! grep -q '^not ok' '$work/tap'"
check "the installed trivium runs its installed default scenario" \
  "cd '$work' && env -u TRIVIUM_DATADIR '$bindir/trivium' run -q -c trivium --set run.seeds=1 --set run.episodes=30 -o run && json_compact run/run.json > run/compact && grep -q '\"platform\":\"$pkgdatadir/platforms/causalbench.xml\"' run/compact && grep -q '\"status\":\"complete\"' run/compact"
check "the installed trivium runs an installed job-shop scenario on its installed instance and platform" \
  "cd '$work' && env -u TRIVIUM_DATADIR '$bindir/trivium' run '$pkgdatadir/scenarios/jssp-ft06.xml' -q -c trivium --set run.seeds=1 --set run.episodes=5 -o jssp && json_compact jssp/run.json > jssp/compact && grep -q '\"platform\":\"$pkgdatadir/platforms/jssp/ft06/platform.xml\"' jssp/compact && grep -q '\"status\":\"complete\"' jssp/compact"
check "the installed trivium knows its version" "'$bindir/trivium' --version | grep -q '^trivium '"
