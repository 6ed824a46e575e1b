#!/bin/sh
# scripts/docs-results.sh covers docs/experiments/: every experiment a page
# runs with `trivium run -e NAME` and every script it names is in the
# script's list for that page (so a number added to a page without its
# regeneration fails here), every city scenario docs/urs.md runs
# (`trivium run scenarios/urs-CITY.xml`, CITY standing for sf, nyc and
# sg) is in its urs page, and it refuses an unknown page and a missing
# program with exit 2.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..4"
sh "$top/scripts/docs-results.sh" -l >"$tmp/list" 2>"$tmp/err"
rc=$?
missing=""
for f in "$top"/docs/experiments/*.md; do
  page=$(basename "$f" .md)
  # the experiments the page runs, and the scripts it names (without the
  # ones that are not experiments: docs-results itself)
  for n in $(tr '\n' ' ' <"$f" | grep -o 'trivium run -e [a-z0-9.-]*' | sed 's/.* //' | sort -u); do
    grep -q "^$page [^ ]* -e $n\( \|$\)" "$tmp/list" || missing="$missing $page:-e:$n"
  done
  for s in $(grep -o 'scripts/[a-z-]*\.sh' "$f" | sort -u); do
    [ "$s" = scripts/docs-results.sh ] && continue
    grep -q "^$page .* $s\( \|$\)" "$tmp/list" || missing="$missing $page:$s"
  done
done
for n in $(tr '\n' ' ' <"$top/docs/urs.md" | grep -o 'trivium run scenarios/urs-[A-Za-z-]*\.xml' | sed 's|.*/||; s|\.xml$||' |
  sed 's/^urs-CITY$/urs-sf urs-nyc urs-sg/' | tr ' ' '\n' | sort -u); do
  grep -q "^urs [^ ]* -e $n\( \|$\)" "$tmp/list" || missing="$missing urs:-e:$n"
done
if [ "$rc" -eq 0 ] && [ -s "$tmp/list" ] && [ -z "$missing" ]; then
  echo "ok 1 - docs-results lists every experiment and script of docs/experiments/ and docs/urs.md ($(wc -l <"$tmp/list") entries)"
else
  echo "not ok 1 - exit $rc; missing from scripts/docs-results.sh:$missing"
fi
# the pages it knows are the pages there are (and urs.md)
pages=$(cut -d' ' -f1 "$tmp/list" | sort -u | tr '\n' ' ')
files=$({ for f in "$top"/docs/experiments/*.md; do basename "$f" .md; done; echo urs; } | sort | tr '\n' ' ')
if [ "$pages" = "$files" ]; then echo "ok 2 - one list per page of docs/experiments/ ($pages)"
else echo "not ok 2 - pages listed: $pages; pages there are: $files"; fi
sh "$top/scripts/docs-results.sh" -l nosuch >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "unknown page 'nosuch'" "$tmp/err"; then echo "ok 3 - an unknown page: exit 2"
else echo "not ok 3 - exit $rc: $(cat "$tmp/err")"; fi
sh "$top/scripts/docs-results.sh" -t "$tmp/none" -o "$tmp/out" detection >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "is not an executable trivium program" "$tmp/err" && [ ! -e "$tmp/out" ]; then
  echo "ok 4 - no program: exit 2 before any output"
else echo "not ok 4 - exit $rc: $(cat "$tmp/err")"; fi
