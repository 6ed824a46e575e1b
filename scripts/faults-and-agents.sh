#!/bin/sh
# faults-and-agents.sh - the faults-and-agents study in one command: runs
# the study's scenarios (scenarios/faults-agents-WORLD.xml: URS San
# Francisco, New York and Singapore, CausalBench-Seq and the JSSP stream,
# each a grid of agents.count x link-flap.mtbf on the world's clock) into
# DIR/WORLD, then writes the study's tables and figures into DIR:
#
#   study.csv             one row per world, controller, MTBF and M: the
#                         median time to identify and its paired speedups
#                         (speedup.csv), p_f, bits lost, time lost, episodes
#                         closed by the failure detector, t_task and the run
#                         time (means over the seeds, sweep.csv)
#   study-saturation.csv  one row per world, controller, MTBF and measure:
#                         the saturation point (saturation.csv)
#   study.md              per world, the same against M and against the
#                         fault rate, as Markdown tables
#   figures/WORLD-agents.*   six panels against M, a line per MTBF
#   figures/WORLD-faults.*   six panels against the MTBF, a line per M
#   figures/saturation.*     the saturation point against the MTBF
#
# docs/experiments/faults-and-agents.md ("The study") defines every measure
# and quotes the tables.
#
#   scripts/faults-and-agents.sh [-t] [-j JOBS] [-o DIR] [-s SCENARIO_DIR]
#                                [-w "WORLD..."] [-- TRIVIUM_RUN_OPTION...]
#
# -j: parallel cells (default 2); -o: the output directory (default
# results/faults-and-agents-DATE; a directory of an interrupted study is
# finished, its complete cells kept); -s: where the faults-agents-*.xml
# scenarios are (default: this tree's scenarios/); -w: a subset of the
# worlds sf nyc sg causalbench jssp; -t: run nothing, write the study's
# tables and figures again from the runs already in DIR (their sweep.csv,
# speedup.csv and saturation.csv); options after -- go to every `trivium
# run` (e.g. --set run.seed_base=101).  TRIVIUM names the program
# (default: trivium on PATH).  Writes nothing outside DIR.  Exit 2 on a bad
# option, 1 when a run fails.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${TRIVIUM_SRC:-$(dirname "$here")}
T=${TRIVIUM:-trivium}
jobs=2
out=
scen=$src/scenarios
worlds="sf nyc sg causalbench jssp"
tables_only=0
usage() {
  echo "usage: faults-and-agents.sh [-t] [-j JOBS] [-o DIR] [-s SCENARIO_DIR] [-w \"WORLD...\"] [-- TRIVIUM_RUN_OPTION...]" >&2
  exit 2
}
while getopts tj:o:s:w:h opt; do
  case $opt in
    t) tables_only=1 ;;
    j) jobs=$OPTARG ;;
    o) out=$OPTARG ;;
    s) scen=$OPTARG ;;
    w) worlds=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
case $jobs in '' | *[!0-9]*) echo "faults-and-agents.sh: -j $jobs: expected a number of jobs" >&2; exit 2 ;; esac
[ -n "$worlds" ] || usage
for w in $worlds; do
  case $w in
    sf | nyc | sg | causalbench | jssp) ;;
    *) echo "faults-and-agents.sh: -w: unknown world '$w' (expected sf, nyc, sg, causalbench or jssp)" >&2; exit 2 ;;
  esac
  [ -f "$scen/faults-agents-$w.xml" ] || { echo "faults-and-agents.sh: $scen/faults-agents-$w.xml: no such scenario" >&2; exit 2; }
done
if [ $tables_only = 1 ]; then
  [ -n "$out" ] && [ -d "$out" ] || { echo "faults-and-agents.sh: -t needs -o DIR, the directory of a study that ran" >&2; exit 2; }
fi
[ -n "$out" ] || out=results/faults-and-agents-$(date +%Y%m%d-%H%M%S)
case $out in -*) out=./$out ;; esac
mkdir -p "$out/figures"

[ $tables_only = 1 ] || for w in $worlds; do
  echo "faults-and-agents.sh: $w -> $out/$w" >&2
  "$T" run "$scen/faults-agents-$w.xml" -q -j "$jobs" -o "$out/$w" "$@" >"$out/$w.log" 2>&1 ||
    { echo "faults-and-agents.sh: the $w run failed (exit $?); its output is in $out/$w.log" >&2; exit 1; }
done

# The awk library the readers share: a CSV line's fields (RFC 4180 quotes),
# a time with a unit in seconds, a number or "nan".
lib='
function csv(line, f,    n, i, c, q, cur) {
  n = 0; cur = ""; q = 0
  for (i = 1; i <= length(line); i++) {
    c = substr(line, i, 1)
    if (q) { if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { cur = cur c; i++ } else q = 0 } else cur = cur c }
    else if (c == "\"") q = 1
    else if (c == ",") { f[++n] = cur; cur = "" }
    else cur = cur c
  }
  f[++n] = cur
  return n
}
function seconds(t,    x, u) {
  if (t !~ /^[0-9.]+([eE][-+]?[0-9]+)?(ms|s|min|m|h|d)?$/) return "nan"
  x = t; u = t; sub(/(ms|s|min|m|h|d)$/, "", x); u = substr(t, length(x) + 1)
  x += 0
  return u == "ms" ? x / 1000 : u == "min" || u == "m" ? x * 60 : u == "h" ? x * 3600 : u == "d" ? x * 86400 : x
}
function num(v) { return v ~ /^-?(inf|[0-9.]+([eE][-+]?[0-9]+)?)$/ ? v + 0 : "nan" }
function clean(s) { gsub(/[^A-Za-z0-9._-]/, "?", s); return s }
'

# study.csv and study-saturation.csv
echo "world,controller,mtbf,mtbf_s,agents,t_id_median,paired_speedup_t_id,paired_speedup_t_id_lo,paired_speedup_t_id_hi,paired_speedup_time,above_bound,p_f,bits_lost,time_lost,detector_closes,t_task,sim_time" >"$out/study.csv.tmp"
echo "world,controller,mtbf,mtbf_s,measure,m_sat,speedup_at_sat,m_max,speedup_max,speedup_max_lo,speedup_max_hi" >"$out/study-saturation.csv.tmp"
for w in $worlds; do
  d=$out/$w
  for f in sweep.csv speedup.csv saturation.csv; do
    [ -f "$d/$f" ] || { echo "faults-and-agents.sh: $d/$f: missing (is $w's scenario a grid of link-flap.mtbf x agents.count?)" >&2; exit 1; }
  done
  awk -v world="$w" "$lib"'
    FNR == 1 { file++; n = csv($0, h); delete col; for (i = 1; i <= n; i++) col[h[i]] = i
               if (!("link-flap.mtbf" in col) || !("agents.count" in col)) { print "no link-flap.mtbf x agents.count grid in " FILENAME > "/dev/stderr"; exit 1 }
               next }
    { csv($0, f); k = f[col["point"]] SUBSEP f[col["controller"]] }
    file == 1 { sp[k] = num(f[col["t_id_median"]]) "," num(f[col["paired_speedup_t_id"]]) "," num(f[col["paired_speedup_t_id_lo"]]) "," \
                        num(f[col["paired_speedup_t_id_hi"]]) "," num(f[col["paired_speedup_time"]]) "," num(f[col["above_bound"]]); next }
    file == 2 { if (!(k in sp)) sp[k] = "nan,nan,nan,nan,nan,nan"
                m = f[col["link-flap.mtbf"]]
                printf "%s,%s,%s,%s,%s,%s", world, clean(f[col["controller"]]), clean(m), seconds(m), num(f[col["agents.count"]]), sp[k]
                printf ",%s,%s,%s,%s,%s,%s\n", num(f[col["p_f"]]), num(f[col["bits_lost"]]), num(f[col["time_lost"]]),
                       num(f[col["detector_closes"]]), num(f[col["t_task"]]), num(f[col["sim_time"]]) }
  ' "$d/speedup.csv" "$d/sweep.csv" >>"$out/study.csv.tmp"
  awk -v world="$w" "$lib"'
    FNR == 1 { n = csv($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; next }
    { csv($0, f); m = f[col["link-flap.mtbf"]]
      printf "%s,%s,%s,%s,%s", world, clean(f[col["controller"]]), clean(m), seconds(m), clean(f[col["measure"]])
      printf ",%s,%s,%s,%s,%s,%s\n", num(f[col["m_sat"]]), num(f[col["speedup_at_sat"]]), num(f[col["m_max"]]),
             num(f[col["speedup_max"]]), num(f[col["speedup_max_lo"]]), num(f[col["speedup_max_hi"]]) }
  ' "$d/saturation.csv" >>"$out/study-saturation.csv.tmp"
done
mv "$out/study.csv.tmp" "$out/study.csv"
mv "$out/study-saturation.csv.tmp" "$out/study-saturation.csv"

# study.md: per world and controller, tables against M (rows) and the MTBF
# (columns), then the saturation point against the MTBF
awk -F, "$lib"'
  function g(v) { return v == "nan" ? "nan" : v == "inf" ? "never" : sprintf("%.4g", v) }
  function mtbf_name(m) { return m + 0 >= 1e8 ? "no faults" : m }
  NR == FNR { if (FNR > 1) { r++; for (i = 1; i <= NF; i++) row[r, i] = $i
              wc = $1 SUBSEP $2; if (!(wc in seen)) { seen[wc] = 1; order[++nwc] = wc }
              if (!(($1, $3) in seenm)) { seenm[$1, $3] = 1; ms[$1, ++nm[$1]] = $3; msec[$1, $3] = $4 }
              if (!(($1, $5) in seena)) { seena[$1, $5] = 1; as[$1, ++na[$1]] = $5 } }
              next }
  FNR > 1 { s++; for (i = 1; i <= NF; i++) sat[s, i] = $i }
  function sortm(w,    i, j, x) { for (i = 2; i <= nm[w]; i++) { x = ms[w, i]; for (j = i - 1; j >= 1 && msec[w, ms[w, j]] < msec[w, x]; j--) ms[w, j + 1] = ms[w, j]; ms[w, j + 1] = x } }
  function sorta(w,    i, j, x) { for (i = 2; i <= na[w]; i++) { x = as[w, i]; for (j = i - 1; j >= 1 && as[w, j] + 0 > x + 0; j--) as[w, j + 1] = as[w, j]; as[w, j + 1] = x } }
  function cell(w, c, m, a, what,    i) {
    for (i = 1; i <= r; i++)
      if (row[i, 1] == w && row[i, 2] == c && row[i, 3] == m && row[i, 5] == a) {
        if (what == "tid") return g(row[i, 6]) " (" g(row[i, 7]) ")" (row[i, 11] == 1 ? " **above**" : "")
        if (what == "time") return g(row[i, 10])
        if (what == "pf") return g(row[i, 12])
        if (what == "bits") return g(row[i, 13])
        if (what == "lost") return g(row[i, 14]) " (" g(row[i, 15]) ")"
        if (what == "wait") return g(row[i, 14])
        if (what == "tid1") return g(row[i, 6])
        if (what == "task") return g(row[i, 16])
      }
    return "-"
  }
  function pivot(w, c, what, title,    i, j, line) {
    printf "%s\n\n| M |", title
    for (j = 1; j <= nm[w]; j++) printf " %s |", mtbf_name(ms[w, j])
    printf "\n|---|"; for (j = 1; j <= nm[w]; j++) printf "---|"; printf "\n"
    for (i = 1; i <= na[w]; i++) {
      printf "| %s |", as[w, i]
      for (j = 1; j <= nm[w]; j++) printf " %s |", cell(w, c, ms[w, j], as[w, i], what)
      printf "\n"
    }
    printf "\n"
  }
  END {
    printf "# The faults-and-agents study\n\n"
    printf "Columns: the uplinks'"'"' MTBF (each outage lasts a mean 10 minutes; no faults: MTBF 1e9 s); rows: the agent count M.  "
    printf "Times in the world'"'"'s seconds; means over the seeds unless a median is said; paired speedups: the median over the seeds of each seed'"'"'s ratio to M = 1 (the same seed and MTBF).\n\n"
    # the summary: one row per world, controller and MTBF, at the smallest and the largest M
    printf "## Summary\n\nPer world, controller and MTBF: at the smallest and the largest agent count (M = first / last), "
    printf "p_f, bits lost and time lost per seed; the median t_id at the smallest M; the largest paired speedup of t_id "
    printf "and of the run time with M_max and the saturation point M_sat.\n\n"
    printf "| world | controller | MTBF | M | p_f | bits lost | time lost (s) | median t_id (s) at the first M | t_id: largest paired speedup [interval] at M_max; M_sat | run time: largest paired speedup at M_max; M_sat |\n"
    printf "|---|---|---|---|---|---|---|---|---|---|\n"
    for (q = 1; q <= nwc; q++) {
      split(order[q], p, SUBSEP); w = p[1]; c = p[2]
      if (!(w in sorted)) { sorted[w] = 1; sortm(w); sorta(w) }
      lo = as[w, 1]; hi = as[w, na[w]]
      for (j = 1; j <= nm[w]; j++) {
        m = ms[w, j]; st = ""; sr = ""
        for (i = 1; i <= s; i++)
          if (sat[i, 1] == w && sat[i, 2] == c && sat[i, 3] == m) {
            x = sat[i, 9] == "nan" ? "-" : g(sat[i, 9]) (sat[i, 5] == "t_id" ? " [" g(sat[i, 10]) ", " g(sat[i, 11]) "]" : "") " at " g(sat[i, 8]) "; " g(sat[i, 6])
            if (sat[i, 9] == "nan") x = "-"
            if (sat[i, 5] == "t_id") st = x; else sr = x
          }
        printf "| %s | %s | %s | %s / %s | %s / %s | %s / %s | %s / %s | %s | %s | %s |\n", w, c, mtbf_name(m), lo, hi,
               cell(w, c, m, lo, "pf"), cell(w, c, m, hi, "pf"), cell(w, c, m, lo, "bits"), cell(w, c, m, hi, "bits"),
               cell(w, c, m, lo, "wait"), cell(w, c, m, hi, "wait"), cell(w, c, m, lo, "tid1"), st, sr
      }
    }
    printf "\n"
    for (q = 1; q <= nwc; q++) {
      split(order[q], p, SUBSEP); w = p[1]; c = p[2]
      if (!(w in sorted)) { sorted[w] = 1; sortm(w); sorta(w) }
      printf "## %s, %s\n\n", w, c
      pivot(w, c, "tid", "Median time to identify t_id (s) and, in brackets, its paired speedup; **above**: above the assignment'"'"'s bound")
      pivot(w, c, "time", "Paired speedup of the run'"'"'s simulated time")
      pivot(w, c, "pf", "p_f, failed commit operations over commit operations")
      pivot(w, c, "bits", "Bits lost to failed commits, per seed")
      pivot(w, c, "lost", "Time lost waiting (s per seed) and, in brackets, episodes closed by the failure detector")
      pivot(w, c, "task", "t_task, the time to a stable right dispatch (s)")
      printf "Saturation point M_sat (the smallest M whose paired speedup reaches the lower end of the largest one'"'"'s interval), M_max and the largest paired speedup [interval]\n\n"
      printf "| MTBF | measure | M_sat | speedup at M_sat | M_max | largest speedup [interval] |\n|---|---|---|---|---|---|\n"
      for (j = 1; j <= nm[w]; j++)
        for (i = 1; i <= s; i++)
          if (sat[i, 1] == w && sat[i, 2] == c && sat[i, 3] == ms[w, j])
            printf "| %s | %s | %s | %s | %s | %s [%s, %s] |\n", mtbf_name(ms[w, j]), sat[i, 5], g(sat[i, 6]), g(sat[i, 7]), g(sat[i, 8]), g(sat[i, 9]), g(sat[i, 10]), g(sat[i, 11])
      printf "\n"
    }
  }
' "$out/study.csv" "$out/study-saturation.csv" >"$out/study.md.tmp"
mv "$out/study.md.tmp" "$out/study.md"

# The figures: data files of numbers only (titles built from numbers and
# cleaned names), one gnuplot script per figure of fixed text.
command -v gnuplot >/dev/null 2>&1 || { echo "faults-and-agents.sh: no gnuplot: tables written, figures not" >&2; exit 0; }
fig=$out/figures
for w in $worlds; do
  # against M: a block per (controller, MTBF); columns M, t_id median, S(t_id), S(run time), p_f, bits lost, time lost
  awk -F, -v world="$w" '
    function d(v) { return v ~ /inf/ ? "nan" : v }
    function hours(s) { return s >= 3600 ? sprintf("%g h", s / 3600) : sprintf("%g min", s / 60) }
    NR > 1 && $1 == world { k = $2 SUBSEP $4; if (!(k in seen)) { seen[k] = 1; key[++n] = k; title[k] = $2 ", " ($4 >= 1e8 ? "no faults" : "MTBF " hours($4)) }
      data[k] = data[k] sprintf("%s %s %s %s %s %s %s\n", $5, d($6), d($7), d($10), d($12), d($13), d($14)) }
    END { for (i = 1; i <= n; i++) { printf "\"%s\" t_id S_tid S_time p_f bits lost\n%s\n\n", title[key[i]], data[key[i]] } }
  ' "$out/study.csv" >"$fig/$w-agents.dat"
  # against the MTBF (faults only): a block per (controller, M) for the smallest, a middle and the largest M
  awk -F, -v world="$w" '
    function d(v) { return v ~ /inf/ ? "nan" : v }
    NR > 1 && $1 == world && $4 + 0 < 1e8 { if (!(($5) in seenm)) { seenm[$5] = 1; m[++nm] = $5 + 0 }
      k = $2 SUBSEP ($5 + 0); if (!(k in seen)) { seen[k] = 1; key[++n] = k; title[k] = $2 ", M = " ($5 + 0) }
      data[k] = data[k] sprintf("%.9g %s %s %s %s %s %s\n", $4 / 3600, d($6), d($7), d($10), d($12), d($13), d($14)) }
    END { for (i = 2; i <= nm; i++) { x = m[i]; for (j = i - 1; j >= 1 && m[j] > x; j--) m[j + 1] = m[j]; m[j + 1] = x }
          keep[m[1]] = 1; keep[m[int((nm + 1) / 2)]] = 1; keep[m[nm]] = 1
          for (i = 1; i <= n; i++) { split(key[i], p, SUBSEP); if (p[2] in keep) printf "\"%s\" t_id S_tid S_time p_f bits lost\n%s\n\n", title[key[i]], data[key[i]] } }
  ' "$out/study.csv" >"$fig/$w-faults.dat"
done
# the saturation point against the MTBF: a block per (world, controller,
# measure), but for the series whose M_sat is 1 at every MTBF (no speedup)
awk -F, '
  NR > 1 && $4 + 0 < 1e8 && $6 != "nan" { k = $1 SUBSEP $2 SUBSEP $5; if (!(k in seen)) { seen[k] = 1; key[++n] = k; title[k] = $1 ", " $2 ", " ($5 == "t_id" ? "t_id" : "run time") }
    data[k] = data[k] sprintf("%.9g %s\n", $4 / 3600, $6); if ($6 + 0 != 1) rises[k] = 1 }
  END { for (i = 1; i <= n; i++) if (key[i] in rises) printf "\"%s\" m_sat\n%s\n\n", title[key[i]], data[key[i]] }
' "$out/study-saturation.csv" >"$fig/saturation.dat"

# $1 figure name, $2 and $3 width and height: the lines of a figure's
# script that draw its .plot as SVG and as PNG.
terminals() {
  cat <<EOF
set terminal svg size $2,$3 dynamic noenhanced font 'Helvetica,11'
set output '$1.svg'
load '$1.plot'
set terminal pngcairo size $2,$3 noenhanced font 'Helvetica,10'
set output '$1.png'
load '$1.plot'
EOF
}

# $1 figure name, $2 x label, $3 x log base: six panels, one legend (below
# the panels); a panel whose column holds no number says so rather than
# failing.  The ranges and flags are numbers computed from the data file.
panels() {
  terminals "$1" 1200 900
  # x range, then per column 2..7 whether it holds a number
  set -- "$1" "$2" "$3" $(awk '!/^"/ && NF >= 7 {
      if (!n++ || $1 < lo) lo = $1; if (n == 1 || $1 > hi) hi = $1
      for (i = 2; i <= 7; i++) if ($i != "nan") has[i] = 1 }
    END { if (!n) { lo = 1; hi = 2 } if (lo == hi) { lo /= 2; hi *= 2 }
          printf "%.9g %.9g", lo, hi; for (i = 2; i <= 7; i++) printf " %d", has[i] + 0 }' "$fig/$1.dat")
  name=$1 xlabel=$2 base=$3 xlo=$4 xhi=$5
  shift 5
  {
    echo "nb = $(grep -c '^"' "$fig/$name.dat")"
    echo "set datafile missing 'nan'"
    echo "set grid"
    echo "set logscale x $base"
    echo "set xrange [$xlo:$xhi]"
    echo "set xlabel '$xlabel'"
    echo "set multiplot layout 2,3 margins 0.07,0.98,0.3,0.96 spacing 0.08,0.1"
    echo "unset key"
    col=2
    for label in 'median t_id (s, log scale)' 'paired speedup of t_id' 'paired speedup of the run time' \
                 'p_f (failed commits / commits)' 'bits lost per seed (bits)' 'time lost per seed (s)'; do
      echo "set ylabel '$label'"
      if [ $col = 2 ]; then echo "set logscale y"; else echo "unset logscale y"; fi
      [ $col = 7 ] && echo "set key outside below horizontal maxcols 3 width 2 at screen 0.5, screen 0.2 center top"
      title=notitle
      [ $col = 7 ] && title='title columnheader(1)'
      if [ "$1" = 1 ]; then
        echo "set autoscale y"
        echo "plot for [i=0:nb-1] '$name.dat' index i using 1:$col with linespoints $title"
      else
        echo "unset logscale y"
        echo "set yrange [0:1]"
        echo "set label 1 'no number (no seed identifies)' at graph 0.5, graph 0.5 center"
        echo "plot for [i=0:nb-1] '$name.dat' index i using 1:(NaN) with linespoints $title"
        echo "unset label 1"
        echo "set autoscale y"
      fi
      col=$((col + 1))
      shift
    done
    echo "unset multiplot"
  } >"$fig/$name.plot"
}
for w in $worlds; do
  panels "$w-agents" 'agents M (log scale)' 2 >"$fig/$w-agents.gp"
  panels "$w-faults" 'uplink MTBF (h, log scale)' 10 >"$fig/$w-faults.gp"
done
terminals saturation 800 500 >"$fig/saturation.gp"
cat >"$fig/saturation.plot" <<EOF
nb = $(grep -c '^"' "$fig/saturation.dat")
set grid
set logscale x 10
set xrange [$(awk '!/^"/ && NF >= 2 { if (!n++ || $1 < lo) lo = $1; if (n == 1 || $1 > hi) hi = $1 } END { if (!n) { lo = 1; hi = 2 } printf "%.9g:%.9g", lo / 1.5, hi * 1.5 }' "$fig/saturation.dat")]
set logscale y 2
set xlabel 'uplink MTBF (h, log scale)'
set ylabel 'saturation point M_sat (agents, log scale)'
set key outside right top
plot for [i=0:nb-1] 'saturation.dat' index i using 1:2 with linespoints title columnheader(1)
EOF
# no saturation point under faults (no series with a number): no figure of it
[ "$(grep -c '^"' "$fig/saturation.dat")" -gt 0 ] || rm -f "$fig/saturation.gp" "$fig/saturation.plot"
for g in "$fig"/*.gp; do
  (cd "$fig" && gnuplot "$(basename "$g")") 2>"$g.err" || { echo "faults-and-agents.sh: gnuplot failed on $g:" >&2; cat "$g.err" >&2; exit 1; }
  rm -f "$g.err"
done
echo "faults-and-agents.sh: $out/study.md, $out/study.csv, $out/study-saturation.csv, $out/figures/" >&2
