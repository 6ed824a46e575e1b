#!/bin/sh
# The man pages (docs/man/) against the code they document: every page
# renders without a warning (groff -man -ww -z), every function of the
# public headers is named under NAME by a section 3 page (so that `man
# FUNCTION` finds it once installed: docs/man/links.sh), each page's
# SYNOPSIS gives the prototype the header declares, blanks aside, and no
# page names a function or macro that the headers do not have.
# tests/installcheck.sh checks the installed pages through man(1).  TAP.
srcdir=${srcdir:-.}
. "$srcdir/tests/public-api.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
headers="$srcdir/plugin/include/trivium/*.h"
pages3=$(ls "$srcdir"/docs/man/*.3)
echo "1..4"

# 1: every page renders without a warning
if ! command -v groff > /dev/null 2>&1; then
  echo "ok 1 # SKIP groff is not installed (Debian: groff-base)"
else
  bad=""
  for p in "$srcdir"/docs/man/*.[0-9]; do
    out=$(groff -man -ww -z "$p" 2>&1)
    [ -n "$out" ] && bad="$bad $(basename "$p"): $(echo "$out" | head -2 | tr '\n' ' ')"
  done
  if [ -z "$bad" ]; then echo "ok 1 - every man page renders without a warning (groff -ww)"
  else echo "not ok 1 - warnings:$bad"; fi
fi

# 2: every public function is named by a page
# shellcheck disable=SC2086
public_declarations $headers > "$tmp/decls"
cut -d' ' -f1 "$tmp/decls" | sort -u > "$tmp/functions"
# shellcheck disable=SC2086
sh "$srcdir/docs/man/links.sh" names $pages3 | sort -k1,1 > "$tmp/names"
cut -d' ' -f1 "$tmp/names" | sort -u > "$tmp/named"
missing=$(comm -23 "$tmp/functions" "$tmp/named" | tr '\n' ' ')
if [ "$(wc -l < "$tmp/functions")" -ge 20 ] && [ -z "$missing" ]; then
  echo "ok 2 - the $(wc -l < "$tmp/functions") functions of the public headers are each named by a man page"
else echo "not ok 2 - functions no page names: ${missing:-(the header reader found none)}"; fi

# 3: each page's SYNOPSIS declares its functions as the headers do.  The
# SYNOPSIS lines lose their font macros, quotes and escapes, then every
# blank; its statements (up to each ";") are matched by name.
bad=""
while read -r name page; do
  decl=$(awk -v n="$name" '$1 == n {print $2}' "$tmp/decls")
  [ -z "$decl" ] && continue # a macro (checked by 4)
  syn=$(awk '/^\.SH SYNOPSIS/ {on = 1; next} /^\.SH/ {on = 0} on' "$srcdir/docs/man/$page" |
    grep -v '^\.\(PP\|nf\|fi\|br\)\|#include' | sed 's/^\.[A-Z][A-Z]* //; s/"//g; s/\\-/-/g; s/\\e/\\/g; s/\\&//g' |
    tr -d ' \t\n' | tr ';' '\n' | grep -F "$name(" | head -1)
  [ "$syn" = "$decl" ] || bad="$bad
#   $page: $name: ${syn:-(no prototype)} against the header's $decl"
done < "$tmp/names"
if [ -z "$bad" ]; then echo "ok 3 - every SYNOPSIS prototype is the header's declaration"
else echo "not ok 3 - prototypes that differ from the headers:$bad"; fi

# 4: no page names what the headers do not declare (a function) or define
# (a macro)
# shellcheck disable=SC2086
sed -n 's/^#define \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' $headers | sort -u > "$tmp/macros"
sort -u "$tmp/functions" "$tmp/macros" > "$tmp/known"
stale=$(comm -23 "$tmp/named" "$tmp/known" | tr '\n' ' ')
if [ -z "$stale" ]; then echo "ok 4 - every name under NAME is a function or macro of the public headers"
else echo "not ok 4 - names the headers do not have: $stale"; fi
