#!/bin/sh
# trivium validate has SimGrid's own parser load the platform: a platform
# the scenario loader reads but SimGrid refuses (a <cluster> beside <host>
# elements in a routing="Full" zone) is refused on one line naming
# SimGrid's complaint, exit 2, as the run refuses it; every shipped
# scenario still validates.  TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..3"
"$T" validate "$top/tests/scenarios/cluster-beside-hosts.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
   grep -q "cluster-beside-hosts.xml: SimGrid refused the platform .*cluster-beside-hosts-platform.xml: .*<cluster> is not allowed here" "$tmp/err"; then
  echo "ok 1 - validate refuses a platform SimGrid refuses, one line with SimGrid's reason, exit 2"
else
  echo "not ok 1 - exit $rc"; sed 's/^/# /' "$tmp/out" "$tmp/err"
fi
"$T" run "$top/tests/scenarios/cluster-beside-hosts.xml" -q -o "$tmp/r" -c trivium --set run.seeds=1 \
  --set run.episodes=2 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "<cluster> is not allowed here" "$tmp/err"; then
  echo "ok 2 - the run refuses it with the same reason (exit 2)"
else
  echo "not ok 2 - exit $rc"; sed 's/^/# /' "$tmp/err"
fi
"$T" validate "$top"/scenarios/*.xml >"$tmp/out" 2>"$tmp/err"
rc=$?
n=$(ls "$top"/scenarios/*.xml | wc -l)
if [ $rc -eq 0 ] && [ "$(grep -c ': ok (' "$tmp/out")" -eq "$n" ]; then
  echo "ok 3 - every shipped scenario's platform loads in SimGrid ($n scenarios ok)"
else
  echo "not ok 3 - exit $rc"; sed 's/^/# /' "$tmp/err" | head
fi
