#!/bin/sh
# The JSON files trivium reads back, run.json (trivium run --replay-config)
# and jobs.json (trivium merge), are data, never code and never a place to
# write: a file nested 100,000 deep, one listing 100,000 controllers, a
# parameter of the wrong JSON type ("run.episodes": "5"), a SimGrid option
# that names a file (a log appender, a trace, a search path, a plugin) or an
# unknown option in jobs.json's command line are each one line naming the
# file, and exit 2.  A victim file outside the run directory keeps its
# bytes and its time, and no trace appears where the file asked for one.
# SimGrid options on the allow-list still replay.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
case $T in /*) ;; *) T=$(pwd)/$T ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/err-lines.sh"
. "$top/tests/json-compact.sh"
n=0
# the options a file may not give, one per line; VICTIM, TRACE and TMP stand for paths
forbidden='--log=root.app:file:VICTIM
--log=root.app:rollfile:1000:VICTIM
--log=root.app:splitfile:1000:VICTIM
--log=root.thres:info root.app:file:VICTIM
--log=root.fmt:%999999999c
--cfg=tracing/filename:TRACE
--cfg=tracing/comment-file:VICTIM
--cfg=path:TMP
--cfg=plugin:host_energy
--cfg=smpi/hostfile:VICTIM
--cfg=trivium/ctl.file:VICTIM
--cfg=trivium/output:VICTIM
--cfg=plugin:trivium
--cfg=network/model:CM02 tracing/filename:TRACE'
count=$(echo "$forbidden" | wc -l)
echo "1..$((2 * count + 7))"

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

# the victim: outside every run directory, with a time in the past
printf 'precious\n' >"$tmp/victim"
touch -d '2020-01-02 03:04:05' "$tmp/victim"
stamp=$(stat -c %Y "$tmp/victim")
# the victim intact and no trace written; else both put back for the next case
untouched() {
  [ "$(cat "$tmp/victim")" = precious ] && [ "$(stat -c %Y "$tmp/victim")" = "$stamp" ] &&
    [ -z "$(ls "$tmp" | grep '^stolen')" ] && return 0
  echo "# the victim changed or a trace was written: $(ls "$tmp" | tr '\n' ' ')"
  printf 'precious\n' >"$tmp/victim"
  touch -d '2020-01-02 03:04:05' "$tmp/victim"
  rm -f "$tmp"/stolen*
  return 1
}
# forbidden_case run.json|jobs.json OPTION: the option in that file is refused, nothing written
forbidden_case() {
  o=$(echo "$2" | sed "s#VICTIM#$tmp/victim#g; s#TRACE#$tmp/stolen.trace#g; s#TMP#$tmp#g")
  key=$(echo "$2" | sed 's/^--[a-z]*=//; s/[: ].*//; s/^trivium\///')
  rm -rf "$tmp/J" "$tmp/o" && mkdir "$tmp/J"
  if [ "$1" = run.json ]; then
    f="$tmp/J/run.json"
    sed "s#\"simgrid_options\":\[\]#\"simgrid_options\":[\"--cfg=tracing:yes\",\"$o\"]#" "$tmp/run.json" >"$f"
    set -- "$T" run --replay-config "$f" -o "$tmp/o" -q
  else
    f="$tmp/J/jobs.json"
    json_compact "$tmp/P/jobs.json" | sed "s#\"command\":\[\"run\"#\"command\":[\"run\",\"$o\"#" >"$f"
    set -- "$T" merge -q "$tmp/J"
  fi
  refused "$f" "$key" "$@" || { { head -c 600 "$tmp/err"; echo; } | sed 's/^/# /'; untouched; return 1; }
  untouched
}
for file in run.json jobs.json; do
  while IFS= read -r opt; do
    n=$((n + 1))
    if forbidden_case "$file" "$opt"; then echo "ok $n - $file's SimGrid option $opt: one line, exit 2, nothing written"
    else echo "not ok $n - $file's SimGrid option $opt: exit $rc"; fi
  done <<LIST
$forbidden
LIST
done

rm -rf "$tmp/J" && mkdir "$tmp/J"
json_compact "$tmp/P/jobs.json" | sed 's#"command":\["run"#"command":["run","--bogus"#' >"$tmp/J/jobs.json"
exit2 "an unknown option in jobs.json's command line names jobs.json" "$tmp/J/jobs.json" "Unknown option --bogus" \
  "$T" merge -q "$tmp/J"

allowed='"--cfg=network/model:CM02","--cfg=contexts/stack-size:8192","--log=root.thres:critical","--log=xbt.app:stderr","--log=trivium.fmt:[%p]%e%m%n"'
sed "s#\"simgrid_options\":\[\]#\"simgrid_options\":[$allowed]#" "$tmp/run.json" >"$tmp/allowed.json"
"$T" run --replay-config "$tmp/allowed.json" -o "$tmp/a" -q >/dev/null 2>"$tmp/err"
rc=$?
n=$((n + 1))
if [ $rc -eq 0 ] && [ -f "$tmp/a/episodes.csv" ] && json_compact "$tmp/a/run.json" | grep -qF "[$allowed]"; then
  echo "ok $n - a run.json with SimGrid options of the allow-list replays, and records them"
else echo "not ok $n - the allowed options: exit $rc"; { head -c 600 "$tmp/err"; echo; } | sed 's/^/# /'; fi

# the Singapore availability importer's JSON lines: single-quoted strings,
# which json-glib reads but strict JSON has not, cannot hide 100,000 levels
# of nesting from its depth check (the parser's recursion would overflow)
awk 'BEGIN { s = "[\047\"\047, "; for (i = 0; i < 100000; i++) s = s "["; for (i = 0; i < 100000; i++) s = s "]"; print s ", \047\"\047]" }' \
  >"$tmp/deep-sg.json"
"$T" trace import --format sg-availability --city sg --out "$tmp/sg.csv" "$tmp/deep-sg.json" >/dev/null 2>"$tmp/err"
rc=$?
n=$((n + 1))
if [ $rc -eq 2 ] && [ "$(err_lines "$tmp/err")" -eq 1 ] && grep -q 'bad-line' "$tmp/err"; then
  echo "ok $n - an availability line nesting 100,000 deep behind single quotes is a bad line, exit 2"
else echo "not ok $n - the deep availability line: exit $rc"; { head -c 300 "$tmp/err"; echo; } | sed 's/^/# /'; fi
