#!/bin/sh
# What a user's fingers expect of every subcommand: -h or --help anywhere
# prints its usage on stdout and exits 0; an unknown option is one line on
# stderr and exit 2; -j2 is -j 2; --version says the version; parameter
# defaults are printed as the shortest decimal that reads back (0.9).  TAP.
set -u
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
subs="run bench params ctl validate jssp trace llm"
echo "1..19"
n=0
for s in $subs; do
  "$T" $s --help >"$tmp/o" 2>"$tmp/e"
  rc=$?
  n=$((n + 1))
  if [ $rc -eq 0 ] && [ -s "$tmp/o" ] && [ ! -s "$tmp/e" ] && grep -qi usage "$tmp/o"; then echo "ok $n - trivium $s --help: usage on stdout, exit 0"
  else echo "not ok $n - trivium $s --help: exit $rc"; fi
done
for s in run params ctl validate jssp trace llm; do
  case $s in ctl) args="verify --bogus x" ;; jssp) args="run --bogus" ;; trace) args="import --bogus" ;; llm) args="record --bogus" ;; *) args="--bogus" ;; esac
  # shellcheck disable=SC2086
  "$T" $s $args >"$tmp/o" 2>"$tmp/e"
  rc=$?
  n=$((n + 1))
  if [ $rc -eq 2 ] && [ "$(grep -c . "$tmp/e")" -eq 1 ]; then echo "ok $n - trivium $s $args: one line, exit 2"
  else echo "not ok $n - trivium $s $args: exit $rc, $(grep -c . "$tmp/e") lines"; head -3 "$tmp/e" | sed 's/^/# /'; fi
done
"$T" ctl verify --help >"$tmp/o" 2>&1
n=$((n + 1)); if [ $? -eq 0 ] && grep -q "trivium ctl verify" "$tmp/o"; then echo "ok $n - --help after a sub-subcommand"; else echo "not ok $n - trivium ctl verify --help"; fi
"$T" run -q -j2 -c trivium --set run.seeds=1 --set run.episodes=3 -o "$tmp/j" >/dev/null 2>&1
n=$((n + 1)); if [ $? -eq 0 ] && [ -f "$tmp/j/episodes.csv" ]; then echo "ok $n - -j2 is -j 2"; else echo "not ok $n - -j2 refused"; fi
n=$((n + 1)); if "$T" --version | grep -qE '^trivium [0-9]+\.[0-9]+\.[0-9]+'; then echo "ok $n - trivium --version"; else echo "not ok $n - trivium --version"; fi
n=$((n + 1)); if "$T" params | grep -qE '^posterior\.lambda +0\.9 ' && ! "$T" params | grep -q '0000000000'; then
  echo "ok $n - defaults as the shortest decimal that reads back"; else echo "not ok $n - params prints long decimals"; fi
