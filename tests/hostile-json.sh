#!/bin/sh
# The JSON files trivium reads back, run.json (trivium run --replay-config)
# and jobs.json (trivium merge), are data, never code and never a place to
# write: a file nested 100,000 deep, one listing 100,000 controllers, one
# with a parameter of the wrong JSON type ("run.episodes": "5"), or an
# unknown option in jobs.json's command line is one line naming the file,
# and exit 2.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
case $T in /*) ;; *) T=$(pwd)/$T ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/err-lines.sh"
. "$top/tests/json-compact.sh"
n=0
echo "1..5"

# refused FILE TEXT COMMAND...: exit 2, and one line naming FILE and holding TEXT
refused() {
  rfile=$1 rwant=$2
  shift 2
  "$@" >/dev/null 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] && [ "$(err_lines "$tmp/err")" -eq 1 ] && grep -qF -- "$rfile" "$tmp/err" && grep -qF -- "$rwant" "$tmp/err"
}
# exit2 DESCRIPTION FILE TEXT COMMAND...: a TAP line for refused
exit2() {
  d=$1
  shift
  n=$((n + 1))
  if refused "$@"; then echo "ok $n - $d: one line, exit 2"
  else echo "not ok $n - $d: exit $rc"; { head -c 600 "$tmp/err"; echo; } | sed 's/^/# /'; fi
}

"$T" run -q -c trivium --set run.seeds=1 --set run.episodes=5 -o "$tmp/r" >/dev/null 2>"$tmp/err" ||
  sed 's/^/# /' "$tmp/err"
json_compact "$tmp/r/run.json" >"$tmp/run.json"
"$T" run -q -c trivium --set run.seeds=1 --set run.episodes=5 --emit parallel -o "$tmp/P" >/dev/null 2>"$tmp/err" ||
  sed 's/^/# /' "$tmp/err"

# an object whose "format" member holds 100,000 arrays nested in each other
mkdir -p "$tmp/deep"
awk 'BEGIN { printf "{\"format\":"; for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"
             print "}" }' >"$tmp/deep.json"
cp "$tmp/deep.json" "$tmp/deep/jobs.json"
exit2 "a run.json nested 100,000 deep" "$tmp/deep.json" "nested more than 64 deep" \
  "$T" run --replay-config "$tmp/deep.json" -o "$tmp/o" -q
exit2 "a jobs.json nested 100,000 deep" "$tmp/deep/jobs.json" "nested more than 64 deep" "$T" merge -q "$tmp/deep"

# (awk writes the list: exec takes no argument of a million bytes)
sed 's#"controllers":\[[^]]*\]#@CONTROLLERS@#' "$tmp/run.json" | awk '{
  i = index($0, "@CONTROLLERS@")
  if (!i) { print; next }
  printf "%s\"controllers\":[", substr($0, 1, i - 1)
  for (k = 0; k < 100000; k++) printf "%s\"trivium\"", k ? "," : ""
  print "]" substr($0, i + 13)
}' >"$tmp/controllers.json"
exit2 "a run.json listing 100,000 controllers, refused by their count" "$tmp/controllers.json" \
  '"controllers" holds 100000 elements' "$T" run --replay-config "$tmp/controllers.json" -o "$tmp/o" -q

sed 's/"run.episodes":5,/"run.episodes":"5",/' "$tmp/run.json" >"$tmp/episodes.json"
exit2 'a run.json with "run.episodes": "5"' "$tmp/episodes.json" \
  'parameter "run.episodes" is text; expected an integer' "$T" run --replay-config "$tmp/episodes.json" -o "$tmp/o" -q

mkdir -p "$tmp/J"
json_compact "$tmp/P/jobs.json" | sed 's#"command":\["run"#"command":["run","--bogus"#' >"$tmp/J/jobs.json"
exit2 "an unknown option in jobs.json's command line names jobs.json" "$tmp/J/jobs.json" "Unknown option --bogus" \
  "$T" merge -q "$tmp/J"
