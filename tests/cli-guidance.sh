#!/bin/sh
# What the command line tells a user: a misspelt shipped scenario gets a
# suggestion; a refused --sweep leaves no output directory behind; -q
# silences SimGrid's configuration lines and the per-cell warnings, and
# without -q a sweep's warnings name their point; SimGrid's own
# --help-models, --help-tracing and --help-log-categories print its help
# (exit 0); docs/parameters.md is what `trivium params --markdown` prints;
# the README says `man trivium` needs `make install`.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
. "$top/tests/err-lines.sh"
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..8"
"$T" run -e seperation -o "$tmp/e" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "no shipped scenario 'seperation'.*did you mean 'separation'?" "$tmp/err" && [ ! -e "$tmp/e" ]; then
  echo "ok 1 - -e seperation: exit 2, did you mean 'separation'?"
else
  echo "not ok 1 - exit $rc: $(cat "$tmp/err")"
fi
ok=1
for sw in foo.bar=1,2 world.variant=a,b agents.count=1,x run.episodes=10,-5; do
  "$T" run --sweep "$sw" -o "$tmp/s" -q -c trivium --set run.seeds=1 >"$tmp/out" 2>"$tmp/err"
  rc=$?
  { [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/s" ]; } ||
    { ok=0; echo "# --sweep $sw: exit $rc, $(ls -A "$tmp/s" 2>&1 | tr '\n' ' '); $(cat "$tmp/err")"; }
  rm -rf "$tmp/s"
done
if [ $ok = 1 ]; then echo "ok 2 - a refused --sweep is one line, exit 2, and leaves no output directory"
else echo "not ok 2 - a refused --sweep"; fi
# mtbf 0.2 s: most episodes commit nothing, which a run warns about per cell
run_faulty() {
  "$T" run -e fault-sweep -c trivium --set run.seeds=2 --set run.episodes=12 --sweep link-flap.mtbf=0.2,1 \
    --cfg=tracing:no "$@"
}
run_faulty -q -o "$tmp/q" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$tmp/out" ] && [ "$(err_lines "$tmp/err")" -eq 0 ] &&
   [ "$(awk -F, '$2 == "uncommitted_episodes" && $3 > 0' "$tmp/q/link-flap.mtbf=0.2/summary.csv" | wc -l)" -eq 1 ]; then
  echo "ok 3 - -q: nothing on stdout or stderr (no xbt_cfg lines, no per-cell warnings); summary.csv keeps the uncommitted episodes"
else
  echo "not ok 3 - exit $rc"; sed 's/^/# /' "$tmp/out" "$tmp/err" | head
fi
run_faulty -o "$tmp/v" >"$tmp/out" 2>"$tmp/err"
rc=$?
w=$(grep -c "^trivium: warning: " "$tmp/err")
named=$(grep -c "^trivium: warning: link-flap\.mtbf=[0-9.]*: trivium, seed [12]: " "$tmp/err")
if [ $rc -eq 0 ] && [ "$w" -ge 2 ] && [ "$w" -eq "$named" ] && grep -q "warning: link-flap.mtbf=0.2: " "$tmp/err"; then
  echo "ok 4 - without -q each of the $w per-cell warnings names its sweep point"
else
  echo "not ok 4 - exit $rc, $w warnings, $named naming their point"; grep warning "$tmp/err" | sed 's/^/# /'
fi
ok=1
for h in --help-models:"host models" --help-tracing:"tracing options" --help-log-categories:"log category"; do
  o=${h%%:*}
  "$T" run "$o" >"$tmp/out" 2>&1
  rc=$?
  { [ $rc -eq 0 ] && grep -q "${h#*:}" "$tmp/out"; } || { ok=0; echo "# $o: exit $rc; $(head -2 "$tmp/out")"; }
done
if [ $ok = 1 ]; then echo "ok 5 - trivium run --help-models, --help-tracing, --help-log-categories print SimGrid's help, exit 0"
else echo "not ok 5 - SimGrid's help options"; fi
"$T" params --markdown >"$tmp/params.md"
if cmp -s "$tmp/params.md" "$top/docs/parameters.md"; then
  echo "ok 6 - docs/parameters.md is exactly trivium params --markdown"
else
  echo "not ok 6 - docs/parameters.md has drifted from trivium params --markdown (regenerate it):"
  diff "$tmp/params.md" "$top/docs/parameters.md" | head | sed 's/^/# /'
fi
if grep -q 'man trivium.*make install\|make install.*man trivium' "$top/README.md" ||
   tr '\n' ' ' <"$top/README.md" | grep -q '`man trivium`[^.]*`make install`'; then
  echo "ok 7 - the README says man trivium needs make install"
else
  echo "not ok 7 - the README does not say man trivium needs make install"
fi
"$T" run --sweep run.seeds=1,2 -c trivium --set run.episodes=3 -q -o "$tmp/n" --cfg=tracing/filename:x.trace \
  >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$tmp/n" ]; then echo "ok 8 - an option refused after parsing leaves no output directory"
else echo "not ok 8 - exit $rc, $(ls -A "$tmp/n" 2>&1 | tr '\n' ' ')"; fi
