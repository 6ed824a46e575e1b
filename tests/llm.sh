#!/bin/sh
# The LLM stream as a world of `trivium run`: the shipped recorded example
# is what the simulator records today, and replaying it reproduces the run
# it was recorded from byte for byte (episodes.csv); R_temp counts every
# wrong answer before the commit, as the recorded answers say (trivium's
# above 0 and below rlvr's on that short run), and the run writes its LLM
# table, labelled simulated or replayed; every
# model of the table runs by name and an unknown one is an input error;
# malformed replay lines and out-of-range rates are one line naming the
# file and the line, exit 2, from `trivium llm check` and from a run; the
# stream's log verifies and names its Bernoulli likelihood, and link faults
# make commits fail (p_f) as in the other worlds.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
T=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..10"
. "$top/tests/err-lines.sh"
metric() { awk -F, -v c="$2" -v m="$3" '$1 == c && $2 == m {print $3}' "$1/summary.csv"; }
example="$top/data/llm/gpt-3.5-turbo-simulated.jsonl"
short="$top/tests/scenarios/llm-short.xml"

# 1: the shipped example is the simulator's recording (the command docs/llm.md gives)
"$T" llm record --set world.model=gpt-3.5-turbo --set run.seeds=4 --set run.episodes=40 -o "$tmp/rec.jsonl" >"$tmp/out" 2>&1
if cmp -s "$tmp/rec.jsonl" "$example" && [ "$(grep -c '"source":"trivium-simulator"' "$example")" -eq "$(wc -l <"$example")" ]; then
  echo "ok 1 - data/llm's example is the simulator's recording, every line marked as such"
else
  echo "not ok 1 - the recording differs from data/llm's example (or a line is not marked)"; sed 's/^/# /' "$tmp/out"
fi

# 2: the replay reproduces the simulated run byte for byte
"$T" run "$short" -o "$tmp/sim" -q -j2 >"$tmp/out" 2>&1; rc1=$?
"$T" run "$short" -o "$tmp/rep" -q -j2 --set "world.replay=$example" >>"$tmp/out" 2>&1; rc2=$?
if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s "$tmp/sim/episodes.csv" "$tmp/rep/episodes.csv" && [ -s "$tmp/sim/episodes.csv" ]; then
  echo "ok 2 - replaying the recorded stream gives the simulated run's episodes.csv byte for byte"
else
  echo "not ok 2 - exits $rc1/$rc2, or episodes.csv differs"; sed 's/^/# /' "$tmp/out"
fi

# 3: R_temp counts every wrong answer before the commit.  Worked out here
# from the replayed file alone (its recorded plain answers) and the graphs
# of episodes.csv, not from the referee: an episode is in M when the graph
# the agents acted on (ghat) is not the user's state or, for trivium, no
# commit has set it yet (committed = 1 ends an episode whose boundary
# commits); rlvr reads no component, so its readout "reliable" is committed
# from the first episode.  Its r_temp must be 1 exactly when it is in M and
# its plain answer was wrong.  Counting capitulations only (the hint
# followed) scores fewer: trivium's total must exceed them.
sed -n 's/.*"seed":\([0-9]*\),"episode":\([0-9]*\),"user":"\([RU]\)".*"base_correct":\([a-z]*\),.*/\1,\2,\3,\4/p' \
  "$example" >"$tmp/answers"
awk -F, 'FNR == NR { wrong[$1 "," $2] = $4 == "false"; unrel[$1] = $3 == "U"; next }
  FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $2 == "trivium" || $2 == "rlvr" {
    k = $2 "," $1; truth = unrel[$1] ? 1 : 0
    m = ($(c["ghat"]) + 0 != truth) || ($2 == "trivium" && !done[k])
    want = m && wrong[$1 "," $3]
    rows++; bad += ($(c["r_temp"]) + 0 != want); alarms += $(c["alarm"])
    total[$2] += want; caps[$2] += m && $(c["capitulation"]) == 1
    if ($(c["committed"]) == 1) done[k] = 1
  }
  END { printf "%d %d %d %d %d %d %d\n", rows, bad, alarms, total["trivium"], caps["trivium"], total["rlvr"], caps["rlvr"] }' \
  "$tmp/answers" "$tmp/rep/episodes.csv" >"$tmp/rtemp"
read -r rows bad alarms t_total t_caps r_total r_caps <"$tmp/rtemp"
t=$(metric "$tmp/rep" trivium r_temp); r=$(metric "$tmp/rep" rlvr r_temp)
if [ "$rows" -eq 320 ] && [ "$bad" -eq 0 ] && [ "$alarms" -eq 0 ] && [ "$t_total" -gt "$t_caps" ] &&
  [ "$t_total" -gt 0 ] && [ "$r_total" -gt "$r_caps" ] && [ "$t_total" -lt "$r_total" ] &&
  awk -v t="$t" -v r="$r" -v a="$t_total" -v b="$r_total" 'BEGIN {exit !(t * 4 == a && r * 4 == b)}'; then
  echo "ok 3 - R_temp counts the wrong answers before the commit, as the recorded answers say: trivium $t_total (of which $t_caps capitulations), rlvr $r_total ($r_caps) over 4 seeds"
else
  echo "not ok 3 - rows $rows, r_temp differing in $bad, alarms $alarms; trivium $t_total ($t_caps capitulations), rlvr $r_total ($r_caps); summary $t, $r"
fi

# 4: the run's LLM table says what the stream was, and its ratio is finite and positive here
if grep -q '^LLM stream, simulated from the model.s rates.*no recorded run' "$tmp/sim/summary.md" &&
  grep -q '^| gpt-3.5-turbo | 4 (' "$tmp/sim/summary.md" &&
  grep -q '^LLM stream, replayed from the file world.replay names' "$tmp/rep/summary.md" &&
  grep -q '^| (replayed) | 4 (' "$tmp/rep/summary.md" &&
  awk -v t="$t" -v r="$r" 'BEGIN {exit !(t > 0 && t < r)}'; then
  echo "ok 4 - summary.md's LLM table says simulated or replayed; trivium/rlvr R_temp is $t/$r, above 0"
else
  echo "not ok 4 - the LLM table's stream, or R_temp trivium '$t', rlvr '$r'"; grep -A4 'LLM stream' "$tmp/sim/summary.md" "$tmp/rep/summary.md" | sed 's/^/# /'
fi

# 5: every model by name; an unknown name is one line, exit 2
ok=yes
for m in $("$T" llm models | awk 'NR > 1 {print $1}'); do
  "$T" run "$short" -o "$tmp/m-$m" -q -j2 -c trivium --set "world.model=$m" --set run.episodes=5 --set run.seeds=1 \
    >"$tmp/out" 2>&1 || { ok="no: $m"; sed 's/^/# /' "$tmp/out"; }
done
"$T" run "$short" -o "$tmp/bad" -q --set world.model=gpt-4 >"$tmp/out" 2>&1; rc=$?
# docs/llm.md's table is the program's table
"$T" llm models | awk 'NR > 1 {printf "%s %.3f %.3f %.3f\n", $1, $(NF-2), $(NF-1), $NF}' >"$tmp/prog"
awk -F'|' '/^\| `[a-z0-9.-]*` \|/ && $4 ~ /^ *0\.[0-9]+ *$/ {gsub(/[` ]/, "", $2); printf "%s %.3f %.3f %.3f\n", $2, $4, $5, $6}' "$top/docs/llm.md" >"$tmp/doc"
cmp -s "$tmp/prog" "$tmp/doc" || { ok="no: docs/llm.md's model table differs"; diff "$tmp/prog" "$tmp/doc" | sed 's/^/# /'; }
if [ "$ok" = yes ] && [ "$("$T" llm models | wc -l)" -eq 6 ] && [ $rc -eq 2 ] && [ "$(err_lines "$tmp/out")" -eq 1 ] &&
  grep -q "world.model = 'gpt-4': expected one of: .*gpt-4o" "$tmp/out"; then
  echo "ok 5 - the five models run by name, as docs/llm.md tabulates them; an unknown model is one line, exit 2"
else
  echo "not ok 5 - models: $ok; unknown model: exit $rc"; sed 's/^/# /' "$tmp/out"
fi

# 6-8: hostile replay files: file:line, exit 2
head -1 "$example" >"$tmp/h"
line() { sed -n "${1}p" "$example"; }
bad() { # $1 name, $2 expected line number, $3 message pattern; the file is $tmp/$1
  "$T" llm check "$tmp/$1" >"$tmp/out" 2>&1; rc=$?
  if [ $rc -eq 2 ] && [ "$(err_lines "$tmp/out")" -eq 1 ] && grep -q "$tmp/$1:$2: .*$3" "$tmp/out"; then return 0; fi
  echo "# $1: exit $rc"; sed 's/^/# /' "$tmp/out"; return 1
}
fails=0
{ cat "$tmp/h"; line 2; echo '{"kind":"episode","source":"x","seed":1,"episode":1'; } >"$tmp/trunc"; bad trunc 3 "expected" || fails=$((fails + 1))
{ cat "$tmp/h"; line 2; line 2; } >"$tmp/dup"; bad dup 3 "seed 1 episode 0" || fails=$((fails + 1))
{ cat "$tmp/h"; line 2 | sed 's/"user":"U"/"user":"X"/'; } >"$tmp/user"; bad user 2 "a user other than" || fails=$((fails + 1))
{ cat "$tmp/h"; line 2 | sed 's/}$/,"extra":1}/'; } >"$tmp/extra"; bad extra 2 'unknown key "extra"' || fails=$((fails + 1))
{ cat "$tmp/h"; line 2 | sed 's/"seed":1/"seed":1.5/'; } >"$tmp/seed"; bad seed 2 "a seed that is not an integer" || fails=$((fails + 1))
{ cat "$tmp/h"; line 2 | sed 's/true/null/'; } >"$tmp/null"; bad null 2 "not a string, number, true or false" || fails=$((fails + 1))
{ cat "$tmp/h"; printf '\n'; } >"$tmp/empty"; bad empty 2 "no JSON object" || fails=$((fails + 1))
{ cat "$tmp/h"; awk 'BEGIN {printf "{\"kind\":\""; for (i = 0; i < 5000; i++) printf "x"; print "\"}"}'; } >"$tmp/long"
bad long 2 "a line longer than 4096 bytes" || fails=$((fails + 1))
if [ $fails -eq 0 ]; then echo "ok 6 - malformed lines (truncated, repeated, bad values, extra keys, null, empty, too long) name file:line, exit 2"
else echo "not ok 6 - $fails malformed files not refused as expected"; fi

fails=0
sed '1s/"clean":0.924/"clean":1.2/' "$example" >"$tmp/clean"; bad clean 1 "rates clean 1.2" || fails=$((fails + 1))
sed '1s/"audit":0.894/"audit":-0.1/' "$example" >"$tmp/audit"; bad audit 1 "rates clean 0.924, hint 0.836, audit -0.1" || fails=$((fails + 1))
sed '1s/"hint":0.836/"hint":0.95/' "$example" >"$tmp/hint"; bad hint 1 "hint <= clean" || fails=$((fails + 1))
sed '1s/"audit":0.894/"audit":1/' "$example" >"$tmp/one"; bad one 1 "0 < audit < 1" || fails=$((fails + 1))
if [ $fails -eq 0 ]; then echo "ok 7 - out-of-range rates (clean 1.2, audit -0.1 and 1, hint above clean) name file:line, exit 2"
else echo "not ok 7 - $fails rate files not refused as expected"; fi

# 8: a run with a malformed or short replay file stops before any cell: one line, exit 2
"$T" run "$short" -o "$tmp/r1" -q --set "world.replay=$tmp/user" >"$tmp/out" 2>&1; rc=$?
"$T" run "$short" -o "$tmp/r2" -q --set "world.replay=$example" --set run.episodes=41 >"$tmp/out2" 2>&1; rc2=$?
if [ $rc -eq 2 ] && [ "$(err_lines "$tmp/out")" -eq 1 ] && grep -q "$tmp/user:2: " "$tmp/out" &&
  [ $rc2 -eq 2 ] && grep -q "seed 1 has 40 episodes; expected at least 41" "$tmp/out2"; then
  echo "ok 8 - trivium run refuses a malformed replay (file:line) and one too short for the run, exit 2"
else
  echo "not ok 8 - exits $rc/$rc2"; sed 's/^/# /' "$tmp/out" "$tmp/out2"
fi

# 9: the shipped scenario validates, and the run's sweep writes llm.md and llm.csv (checked on a short version)
"$T" validate "$top/scenarios/llm-stream.xml" >"$tmp/out" 2>&1; rc=$?
"$T" run "$top/scenarios/llm-stream.xml" -o "$tmp/sw" -q -j2 --set run.episodes=20 --set run.seeds=4 >>"$tmp/out" 2>&1; rc2=$?
if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(grep -c '^| [a-z]' "$tmp/sw/llm.md")" -eq 6 ] && [ "$(wc -l <"$tmp/sw/llm.csv")" -eq 6 ]; then
  echo "ok 9 - llm-stream.xml validates; its sweep writes llm.md and llm.csv, one row per model"
else
  echo "not ok 9 - validate exit $rc, run exit $rc2"; sed 's/^/# /' "$tmp/out"; cat "$tmp/sw/llm.md" 2>/dev/null | sed 's/^/# /'
fi

# 10: the log of an LLM run (Bernoulli posterior) verifies and says so; faults cost commits
"$T" run "$short" -o "$tmp/c" -q -j2 -c trivium --set run.seeds=1 --ctl "$tmp/logs" >"$tmp/out" 2>&1; rc=$?
"$T" ctl verify "$tmp/logs/trivium-seed1.ctl" >>"$tmp/out" 2>&1; rv=$?
"$T" ctl inspect "$tmp/logs/trivium-seed1.ctl" >"$tmp/inspect" 2>&1
"$T" run "$short" -o "$tmp/f" -q -j2 -c trivium -f 'link-flap:*:2:0.5' >"$tmp/out2" 2>&1; rf=$?
pf=$(metric "$tmp/f" trivium p_f)
if [ $rc -eq 0 ] && [ $rv -eq 0 ] && grep -q '^likelihood bernoulli, theta0 0.106, slab Beta(1, 1)$' "$tmp/inspect" &&
  [ $rf -eq 0 ] && awk -v p="$pf" 'BEGIN {exit !(p > 0)}'; then
  echo "ok 10 - the stream's log verifies and names its likelihood; link flapping gives p_f = $pf"
else
  echo "not ok 10 - run $rc, verify $rv, faults $rf, p_f '$pf'"; sed 's/^/# /' "$tmp/out" "$tmp/inspect" "$tmp/out2"
fi
