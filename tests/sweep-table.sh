#!/bin/sh
# A sweep's table (docs/outputs.md): one numeric column per swept key, a
# grid's keys in columns of their own, a speedup column only along
# agents.count, from the runs' simulated time and relative to the smallest
# agent count with the other keys equal (checked against each point's own
# summary.csv); a command-line --sweep that replaces the scenario's says
# so (unless -q); a bad swept value stops the run before any cell runs;
# a single numeric key gets its fits (a + b x, a + b/x) in sweep-fits.csv,
# checked against least squares computed here from sweep.csv; a grid none.
# Along a fault time, faults.csv: each point against the point with the
# mildest value (the largest MTBF) and the other keys equal, seed by seed:
# the run-time slowdown checked against each point's episodes.csv.
# Along agents.count, speedup.csv: the median time to identify per point,
# checked against t_id computed here from the points' episodes.csv, and the
# speedup of the medians (1 at the smallest count); its figure one series
# per other-key value in each of its two panels.
# TAP.
set -u
top=$(cd "${srcdir:-..}" && pwd)
T=${TRIVIUM:-./trivium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..9"
. "$top/tests/err-lines.sh"
"$T" run -e fault-sweep -c trivium --set run.seeds=2 --set run.episodes=20 --sweep link-flap.mtbf=1,20 -o "$tmp/a" \
  >/dev/null 2>"$tmp/a.err"
if head -1 "$tmp/a/sweep.csv" | grep -q '^point,link-flap.mtbf,controller,exposure_total,exposure_total_sd,' &&
   [ "$(cut -d, -f1,2 "$tmp/a/sweep.csv" | tail -n +2 | tr '\n' ' ')" = "0,1 1,20 " ] &&
   ! head -1 "$tmp/a/sweep.csv" | grep -q speedup; then
  echo "ok 1 - one numeric column for the swept key; no speedup off an agent-count axis"
else echo "not ok 1 - sweep.csv"; head -3 "$tmp/a/sweep.csv" | sed 's/^/# /'; fi
if grep -q "^trivium: --sweep link-flap.mtbf=1,20 replaces the scenario's sweep of link-flap.mtbf$" "$tmp/a.err"; then
  echo "ok 2 - a command-line --sweep replacing the scenario's says so"
else echo "not ok 2 - no message"; sed 's/^/# /' "$tmp/a.err"; fi
# a grid: link-flap.mtbf x agents.count
sed -e "s|\.\./platforms|$top/platforms|" \
    -e 's|<sweep param="link-flap.mtbf" values="[^"]*"/>|<sweep param="link-flap.mtbf" values="2,50"/><sweep param="agents.count" values="3,1"/>|' \
    "$top/scenarios/fault-sweep.xml" >"$tmp/grid.xml"
"$T" run "$tmp/grid.xml" -c trivium --set run.seeds=2 --set run.episodes=20 -q -o "$tmp/g" >/dev/null 2>"$tmp/g.err"
if head -1 "$tmp/g/sweep.csv" | grep -q '^point,link-flap.mtbf,agents.count,controller,.*,sim_time,sim_time_sd,speedup$' &&
   [ "$(cut -d, -f2,3 "$tmp/g/sweep.csv" | tail -n +2 | tr '\n' ' ')" = "2,3 2,1 50,3 50,1 " ]; then
  echo "ok 3 - a grid: one column per key, a speedup column along agents.count"
else echo "not ok 3 - grid columns"; head -3 "$tmp/g/sweep.csv" | sed 's/^/# /'; sed 's/^/# /' "$tmp/g.err"; fi
ok=1
# per seed: the run's simulated time (its last episode's sim_time)
runtime() { awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} $c["controller"] == "trivium" {t[$1] = $c["sim_time"]}
  END {for (s in t) print s, t[s]}' "$1/episodes.csv" | sort -n; }
for m in 2 50; do
  runtime "$tmp/g/link-flap.mtbf=${m}_agents.count=1" > "$tmp/t1"
  for a in 1 3; do
    runtime "$tmp/g/link-flap.mtbf=${m}_agents.count=$a" > "$tmp/ta"
    got=$(awk -F, -v m="$m" -v a="$a" 'NR == 1 {n = NF} NR > 1 && $2 == m && $3 == a {print $n}' "$tmp/g/sweep.csv")
    # paired: the median over the 2 seeds of each seed's ratio (the mean of the two)
    want=$(join "$tmp/t1" "$tmp/ta" | awk '{r += $2 / $3; n++} END {if (n == 2) printf "%.6g", r / 2}')
    [ -n "$want" ] && [ "$(awk -v x="$got" 'BEGIN {printf "%.6g", x}')" = "$want" ] || { ok=0; echo "# mtbf $m, M $a: speedup $got, expected $want"; }
  done
done
if [ $ok = 1 ]; then echo "ok 4 - speedup = the median over seeds of each seed's sim_time at the smallest agent count (same MTBF) / its sim_time; 1 at M = 1"
else echo "not ok 4 - speedup"; fi
"$T" run -e fault-sweep -c trivium --set run.seeds=2 --set run.episodes=20 --sweep run.episodes=20,abc -q -o "$tmp/b" \
  >/dev/null 2>"$tmp/b.err"
rc=$?
if [ $rc -eq 2 ] && grep -q "abc" "$tmp/b.err" && [ -z "$(find "$tmp/b" -name '*.sum' 2>/dev/null)" ] &&
   [ "$(grep -vc "replaces the scenario's sweep" "$tmp/b.err")" -eq 1 ]; then
  echo "ok 5 - a bad swept value: one line, exit 2, before any cell ran"
else echo "not ok 5 - bad value: exit $rc"; sed 's/^/# /' "$tmp/b.err"; fi
# the fits: least squares of trivium's mean exposure on 1/mtbf, computed here from sweep.csv
"$T" run -e fault-sweep -c trivium --set run.seeds=2 --set run.episodes=20 --sweep link-flap.mtbf=0.5,1,5,20 -q \
  -o "$tmp/f" >/dev/null 2>&1
want=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "exposure_total") e = i}
  NR > 1 && $3 == "trivium" {x = 1 / $2; y = $e; n++; sx += x; sy += y; sxx += x * x; sxy += x * y}
  END {b = (n * sxy - sx * sy) / (n * sxx - sx * sx); a = (sy - b * sx) / n; printf "%.6g %.6g", a, b}' "$tmp/f/sweep.csv")
got=$(awk -F, '$1 == "trivium" && $2 == "exposure_total" && $3 == "a+b/x" {printf "%.6g %.6g", $4, $5}' "$tmp/f/sweep-fits.csv")
if [ -n "$want" ] && [ "$want" = "$got" ] && [ "$(grep -c ',a+b\*x,' "$tmp/f/sweep-fits.csv")" -eq 4 ] &&
   grep -q '^Fits over the points' "$tmp/f/sweep.md" && [ ! -e "$tmp/g/sweep-fits.csv" ]; then
  echo "ok 6 - sweep-fits.csv: a + b/x of the exposure is the least-squares line ($got); a grid has none"
else echo "not ok 6 - fits: want '$want', got '$got'"; fi
# speedup.csv of the grid: per point, the median over the seeds of t_id (the
# end of the first episode from which the MAP stays right up to the first
# change of the truth; never: "inf"), computed here from each point's
# episodes.csv
ok=1
for m in 2 50; do
  for a in 1 3; do
    want=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
      {s = $c["seed"]; e = $c["episode"] + 0; end[s, e] = $c["sim_time"]; seeds[s] = 1
       if (e == 0) first[s] = $c["truth"]; else if (!(s in cp) && $c["truth"] != first[s]) cp[s] = e
       if (!(s in cp) && $c["map"] != $c["truth"]) bad[s] = e + 1; last[s] = e}
      END {n = 0; for (s in seeds) {b = (s in bad) ? bad[s] : 0; stop = (s in cp) ? cp[s] : last[s] + 1
           v[++n] = (b >= stop) ? 1e300 : end[s, b]}
           if (n == 2) {x = (v[1] > 1e299 || v[2] > 1e299) ? "inf" : sprintf("%.6g", (v[1] + v[2]) / 2)} print x}' \
      "$tmp/g/link-flap.mtbf=${m}_agents.count=$a/episodes.csv")
    got=$(awk -F, -v m="$m" -v a="$a" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
      $2 == m && $3 == a {x = $c["t_id_median"]; print (x == "inf") ? x : sprintf("%.6g", x)}' "$tmp/g/speedup.csv")
    [ -n "$want" ] && [ "$got" = "$want" ] || { ok=0; echo "# mtbf $m, M $a: t_id median $got, expected $want"; }
  done
  sp=$(awk -F, -v m="$m" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    $2 == m {t[$3] = $c["t_id_median"]; s[$3] = $c["speedup_t_id"]}
    END {if (t[1] == "inf") e = (t[3] == "inf") ? "nan" : "inf"; else if (t[3] == "inf") e = "0"
         else e = sprintf("%.6g", t[1] / t[3])
         printf "%s %d", s[1], (s[3] == e || (s[3] + 0 == s[3] && sprintf("%.6g", s[3]) == e)) ? 0 : 1}' "$tmp/g/speedup.csv")
  # 1 at the smallest count, or nan when its median is never
  case "$sp" in "1 "*|"nan "*) ;; *) ok=0; echo "# mtbf $m: speedup at M = 1, then its error at M = 3: $sp";; esac
  [ "${sp#* }" = 0 ] || { ok=0; echo "# mtbf $m: speedup at M = 3 not the medians' ratio"; }
done
# the bound of disjoint assignment on CausalBench-Seq (m0 = 3): min(M, 3) / min(1, 3); above_bound iff a
# paired point estimate exceeds it
bad=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
  {b = ($3 < 3 ? $3 : 3); if ($c["bound"] + 0 != b) print "bound " $0
   above = ($c["paired_speedup_t_id"] + 0 > b * (1 + 1e-9) || $c["paired_speedup_time"] + 0 > b * (1 + 1e-9))
   if ($c["above_bound"] + 0 != above) print "flag " $0}' "$tmp/g/speedup.csv")
[ -z "$bad" ] || { ok=0; echo "$bad" | sed 's/^/# /'; }
if [ $ok = 1 ] && head -1 "$tmp/g/speedup.csv" | grep -q '^point,link-flap.mtbf,agents.count,controller,seeds,identified,t_id_median,t_id_lo,t_id_hi,coverage,speedup_t_id,speedup_t_id_lo,speedup_t_id_hi,paired_speedup_t_id,paired_speedup_t_id_lo,paired_speedup_t_id_hi,paired_speedup_time,paired_speedup_time_lo,paired_speedup_time_hi,bound,above_bound$'; then
  echo "ok 7 - speedup.csv: the median time to identify per point (checked against episodes.csv), the medians' ratio, the bound and its flag"
else echo "not ok 7 - speedup.csv"; sed 's/^/# /' "$tmp/g/speedup.csv"; fi
series() { grep -o " title '" "$1" | wc -l; }
if [ "$(series "$tmp/g/figures/speedup.gp")" -eq $((2 * 2 * 2)) ] && grep -q "title 'link-flap.mtbf=50, trivium'" "$tmp/g/figures/speedup.gp" &&
   [ ! -e "$tmp/a/speedup.csv" ] && { [ -z "$(command -v gnuplot)" ] || grep -q '</svg>' "$tmp/g/figures/speedup.svg"; }; then
  echo "ok 8 - the speedup figure: one series per MTBF in each of its two panels (drawn twice: SVG, PNG); no speedup table off an agent-count axis"
else echo "not ok 8 - speedup figure"; fi
# faults.csv of the grid: the reference is MTBF 50 at the same agent count; the paired slowdown of the
# run time is the median over the 2 seeds (the mean) of each seed's sim_time(MTBF 2) / sim_time(MTBF 50)
ok=1
for a in 1 3; do
  runtime "$tmp/g/link-flap.mtbf=50_agents.count=$a" > "$tmp/r50"
  runtime "$tmp/g/link-flap.mtbf=2_agents.count=$a" > "$tmp/r2"
  want=$(join "$tmp/r2" "$tmp/r50" | awk '{r += $2 / $3; n++} END {if (n == 2) printf "%.6g", r / 2}')
  got=$(awk -F, -v a="$a" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    $2 == 2 && $3 == a && $c["reference"] == 50 {printf "%.6g", $c["slowdown_time"]}' "$tmp/g/faults.csv")
  ref=$(awk -F, -v a="$a" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    $2 == 50 && $3 == a {print $c["reference"], $c["slowdown_time"], $c["slowdown_t_id"] == "nan" ? 1 : $c["slowdown_t_id"], $c["exposure_added"]}' \
    "$tmp/g/faults.csv")
  [ -n "$want" ] && [ "$got" = "$want" ] && [ "$ref" = "50 1 1 0" ] ||
    { ok=0; echo "# M $a: slowdown $got, expected $want; reference row: $ref"; }
done
if [ $ok = 1 ] && [ "$(cut -d, -f4,5 "$tmp/a/faults.csv" | tail -n +2 | tr '\n' ' ')" = "2,20 2,20 " ] &&
   head -1 "$tmp/g/faults.csv" | grep -q '^point,link-flap.mtbf,agents.count,controller,seeds,reference,p_f,bits_lost,time_lost,detector_closes,slowdown_t_id,'; then
  echo "ok 9 - faults.csv: each point against the largest MTBF at the same agent count, the paired run-time slowdown as episodes.csv gives it"
else echo "not ok 9 - faults.csv"; sed 's/^/# /' "$tmp/g/faults.csv"; fi
