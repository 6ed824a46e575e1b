#!/bin/sh
# links.sh - the link pages of the library's man pages (section 3), so
# that `man trivium_plugin_init` finds the page that documents it: every
# name in the NAME section of a page, other than the page's own, gets a
# page of one line, `.so man3/PAGE.3`.  The names come from the pages
# alone (the NAME section's line, up to " \-"), so adding a function to a
# page's NAME is all it takes; tests/man-pages.sh checks that they cover
# the public headers.
#   links.sh names PAGE...            "NAME PAGE" for each link, one a line
#   links.sh install MAN3DIR PAGE...  writes MAN3DIR/NAME.3 for each link
#   links.sh uninstall MAN3DIR PAGE... removes them
set -eu
names() {
  for page in "$@"; do
    base=$(basename "$page")
    awk '/^\.SH NAME/ { getline; sub(/ \\-.*/, ""); print; exit }' "$page" | tr ',' '\n' | tr -d ' ' |
      while read -r name; do
        [ -n "$name" ] && [ "$name.3" != "$base" ] && echo "$name $base"
      done
  done
}
cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  names) names "$@" ;;
  install|uninstall)
    dir=$1
    shift
    names "$@" | while read -r name page; do
      if [ "$cmd" = install ]; then echo ".so man3/$page" > "$dir/$name.3"
      else rm -f "$dir/$name.3"; fi
    done ;;
  *) echo "usage: links.sh names PAGE... | install MAN3DIR PAGE... | uninstall MAN3DIR PAGE..." >&2; exit 2 ;;
esac
