#!/bin/sh
# Paired speedup of the time to identify, seed by seed, over an
# agents.count sweep: for every point DIR/agents.count=M and controller,
# each seed's episodes to identify e_id and time to identify t_id (as
# summary.csv defines them: the end of the first episode from which the
# MAP stays right up to the first change-point of the point's run.json, or
# the end), and the ratio t_id(M = 1) / t_id(M) of the same seed: its
# median and geometric mean over the seeds identified at both points, with
# the smallest and largest.  With a controller named as BASE, also the
# ratio to BASE's t_id at M = 1 (the same seed).  Prints a Markdown table.
#
#   scripts/paired-speedup.sh DIR [BASE]
#
# Seeds that never identify count in `identified`, not in the ratios.
set -eu
dir=${1:?usage: paired-speedup.sh DIR [BASE]}
base=${2:-}
for d in "$dir"/agents.count=*; do
  [ -f "$d/episodes.csv" ] || continue
  m=${d##*agents.count=}
  # the first change-point, or none (-1)
  cp=$(awk '/"change_points"/ { on = 1; next } on { gsub(/[^0-9]/, ""); print ($0 == "" ? -1 : $0); exit }' "$d/run.json")
  awk -F, -v m="$m" -v cp="${cp:--1}" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
      c = $col["controller"]; s = $col["seed"]; e = $col["episode"] + 0
      if (cp >= 0 && e >= cp) next
      k = c SUBSEP s
      if (!(k in last)) { last[k] = -1; t[k] = "nan" }
      if ($col["posterior_exposure"] != 0) { last[k] = e; t[k] = "nan" }
      else if (e == last[k] + 1) t[k] = $col["sim_time"]
    }
    END { for (k in last) { split(k, p, SUBSEP); print m, p[1], p[2], (t[k] == "nan" ? "nan" : last[k] + 2), t[k] } }
  ' "$d/episodes.csv"
done | sort -k1,1n -k2,2 -k3,3n | awk -v base="$base" '
  { m[NR] = $1; c[NR] = $2; s[NR] = $3; e[NR] = $4; t[NR] = $5; n = NR
    if ($1 == 1) one[$2, $3] = $5
    key = $1 SUBSEP $2; if (!(key in seen)) { seen[key] = 1; order[++nk] = key } }
  function median(a, k,    i, j, x) {
    for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  function stats(ref,    i, k, lg, lo, hi, r) {
    k = 0; lg = 0
    for (i = 1; i <= n; i++) {
      if (m[i] SUBSEP c[i] != cur || t[i] == "nan" || !((ref, s[i]) in one) || one[ref, s[i]] == "nan") continue
      r[++k] = one[ref, s[i]] / t[i]; lg += log(r[k])
      if (k == 1 || r[k] < lo) lo = r[k]
      if (k == 1 || r[k] > hi) hi = r[k]
    }
    if (k == 0) return " - | - | - |"
    return sprintf(" %.2f | %.2f | %.2f-%.2f |", median(r, k), exp(lg / k), lo, hi)
  }
  END {
    printf "| M | controller | identified | e_id mean | t_id mean | t_id median | t_id(1)/t_id(M) median | geo. mean | range |"
    if (base != "") printf " %s t_id(1)/t_id(M) median | geo. mean | range |", base
    printf "\n|---|---|---|---|---|---|---|---|---|%s\n", base != "" ? "---|---|---|" : ""
    for (q = 1; q <= nk; q++) {
      cur = order[q]; split(cur, p, SUBSEP); ns = 0; ni = 0; se = 0; st = 0; delete tt
      for (i = 1; i <= n; i++) {
        if (m[i] SUBSEP c[i] != cur) continue
        ns++
        if (t[i] != "nan") { ni++; se += e[i]; st += t[i]; tt[ni] = t[i] }
      }
      printf "| %s | %s | %d / %d | %s | %s | %s |", p[1], p[2], ni, ns, ni ? sprintf("%.2f", se / ni) : "-",
             ni ? sprintf("%.4g", st / ni) : "-", ni ? sprintf("%.4g", median(tt, ni)) : "-"
      printf "%s", stats(p[2])
      if (base != "") printf "%s", stats(base)
      printf "\n"
    }
  }'
