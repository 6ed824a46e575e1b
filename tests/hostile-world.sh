#!/bin/sh
# A world is the user's code, and what its functions return is input:
# tests/hostile-world (a program of the public API alone) registers a
# world that answers out of bounds in one way per run, from its episode 2
# on (or, for what it declares, before the first).  Every way ends the run
# with trivium_plugin_finished()'s error, code TRV_ERROR_INPUT (exit 2),
# whose message names the world, the function, the answer and what was
# expected; the run stops there: episodes 0 and 1 are its results, none
# after.  Never an abort, a crash or a sanitizer's report.  The same world
# answering well runs its 6 episodes, with one agent, with three, and with
# an actor of the program as its agent (trivium/agent.h).  TAP.
set -u
top=${srcdir:-..}
prog=${HOSTILE_WORLD:-tests/hostile-world}
one="$top/platforms/causalbench.xml"
three="$top/platforms/causalbench-multi.xml --cfg=trivium/agents.count:3 --cfg=trivium/role.agent:agent-*"
outcome=--cfg=trivium/controller:rlvr     # an outcome-only learner: it reads the observational pairs
by_value=--cfg=trivium/budget.probe_value:1 # probes go by the world's probe values
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..43"
n=0

# $1 the platform and its settings, $2 the way, then --cfg settings
run() {
  plat=$1 way=$2
  shift 2
  # shellcheck disable=SC2086
  "$prog" $plat "$way" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  n=$((n + 1))
}
crashed() {
  grep -qE 'AddressSanitizer|LeakSanitizer|runtime error|Assertion|assertion failed|Oops|Segmentation' "$tmp/err"
}

# $1 the platform, $2 the way, $3 the function the message must name, $4
# what it must say of the answer (then "; expected ..."), $5 the property,
# then --cfg settings
refused() {
  plat=$1 way=$2 fn=$3 said=$4 what=$5
  shift 5
  run "$plat" "$way" "$@"
  line=$(grep -F "hostile-world: world hostile: $fn " "$tmp/err")
  if [ $rc -eq 2 ] && [ -n "$line" ] && echo "$line" | grep -qF "$said" && echo "$line" | grep -q "; expected" &&
     [ "$(cat "$tmp/out")" = "$closed episodes" ] && ! crashed; then
    echo "ok $n - $what: an error naming $fn, exit 2, the run stopped after $closed episodes"
  else
    echo "not ok $n - $what: exit $rc, $(cat "$tmp/out"), no error of $fn saying '$said'"
    sed 's/^/# /' "$tmp/err" | tail -5
  fi
}

# $1 the platform, $2 the property, then --cfg settings
runs_through() {
  plat=$1 what=$2
  shift 2
  run "$plat" none "$@"
  if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "6 episodes" ] && ! crashed; then echo "ok $n - $what"
  else echo "not ok $n - $what: exit $rc"; sed 's/^/# /' "$tmp/err" | tail -5; fi
}

runs_through "$one" "the world answering well runs its 6 episodes under trivium" $by_value
runs_through "$three" "the world answering well runs its 6 episodes with 3 agents under rlvr" $outcome
runs_through "$one" "the world answering well runs its 6 episodes with the program's own actor as agent" \
  own $outcome

# the room for observational pairs is 48 (one per component), for context 8, metrics 8, change-points 1024
closed=2 # answers during the run: bad from episode 2 on
pairs=observational_pairs
refused "$one" pairs-over-max $pairs "returned 49; expected a count in [0, 48]" \
  "observational_pairs claiming one pair more than its max" $outcome
refused "$one" pairs-1000 $pairs "returned 1000;" "observational_pairs claiming 1000 pairs" $outcome
refused "$one" pairs-negative $pairs "returned -1;" "observational_pairs returning -1" $outcome
refused "$one" pairs-nan-z $pairs "returned z = nan" "observational_pairs giving z = NaN" $outcome
refused "$one" pairs-inf-w $pairs "w = inf in pair 0" "observational_pairs giving w = +Inf" $outcome
refused "$one" pairs-component $pairs "returned component 3 in pair 0; expected a component in [0, 3)" \
  "observational_pairs naming a component past G_inf" $outcome
refused "$one" pairs-component-negative $pairs "returned component -1 in pair 0" \
  "observational_pairs naming component -1" $outcome
refused "$three" pairs-nan-z $pairs "returned z = nan" "observational_pairs giving z = NaN, 3 agents" $outcome
refused "$one" pairs-nan-z $pairs "returned z = nan" \
  "observational_pairs giving z = NaN, the program's own actor as agent" own $outcome

refused "$one" observe-negative agent.observe "returned -1;" "agent.observe returning -1"
refused "$one" observe-over-max agent.observe "returned 9; expected a count in [0, 8]" \
  "agent.observe claiming one value more than its max"
refused "$one" probe-nan agent.probe "returned nan;" "a probe outcome of NaN"
refused "$one" act-inf agent.act "returned -inf;" "a payoff of -Inf"
refused "$three" act-inf agent.act "returned -inf;" "a payoff of -Inf, 3 agents"
refused "$three" step-payoff-nan agent.step_payoff "returned nan;" "a shared city's payoff of NaN, 3 agents"
refused "$one" probe-value-at-out agent.probe_value_at "returned -0.5; expected a number in [0, 1]" \
  "a probe value of -0.5 at a step" $by_value
refused "$one" work-negative agent.work "returned -1;" "an episode's work of -1 flops"
refused "$one" work-nan agent.work "returned nan;" "an episode's work of NaN flops"
refused "$one" operations-negative agent.operations "returned -1 operations" "agent.operations returning -1"
refused "$one" operation-nan agent.operations "returned operation 0 on machine 0 from 0 for nan s" \
  "an operation lasting NaN seconds"
refused "$one" probe-value-out probe_value "returned 1.5; expected a number in [0, 1]" \
  "an agent's probe value of 1.5" $by_value
refused "$one" metrics-negative referee.episode_metrics "returned -1;" "referee.episode_metrics returning -1"
refused "$one" metrics-over-max referee.episode_metrics "returned 9; expected a count in [0, 8]" \
  "referee.episode_metrics claiming one more than its max"
refused "$one" truth-n referee.truth "set the graph's n to 48; expected it left at 3" \
  "a truth over more components than G_inf"
refused "$one" truth-kappa-nan referee.truth "returned kappa = nan for component 2" "a true effect of NaN"
refused "$one" gap-nan referee.gap "returned nan;" "a gap of NaN"
refused "$one" gap-nan referee.gap "returned nan;" "a gap of NaN, the program's own actor as agent" own
refused "$one" gap-negative referee.gap "returned -1;" "a gap of -1"
refused "$one" expected-payoff-inf referee.expected_payoff "returned inf;" "an expected payoff of +Inf"

closed=0 # answers before the first episode
refused "$one" instance-null agent.instance "returned NULL for agent 0" "an agent's instance of NULL"
refused "$one" change-points-negative referee.change_points "returned -1;" "referee.change_points returning -1"
refused "$one" change-points-over-max referee.change_points "returned 1025; expected a count in [0, 1024]" \
  "referee.change_points claiming one more than its max"
refused "$one" change-point-decreasing referee.change_points "returned episode 2 at 1" "change-points out of order"
refused "$one" init-null init "returned NULL without an error" "init failing without a message"
refused "$one" noise-var-nan noise_var "returned nan;" "a noise variance of NaN"
refused "$one" steps-huge steps "returned 2147483647; expected 1 to 1000000" "2^31 - 1 steps per episode"
refused "$one" step-seconds-nan step_seconds "returned nan; expected a duration in (0, 1e+06] seconds" \
  "a step of NaN seconds"
refused "$one" step-seconds-zero step_seconds "returned 0; expected a duration in (0, 1e+06] seconds" \
  "a step of 0 seconds"
refused "$one" outside-all outside "returned true for every component; expected at least one inside" \
  "every component outside the candidate graph"
refused "$one" outside-hidden outside "returned true for component 0 (C->X), an edge out of a hidden variable" \
  "an outside edge out of a hidden variable"
