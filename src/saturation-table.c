/* saturation-table.c - where a multi-agent speedup stops rising (run.h).
 *
 * Along an agents.count axis, a series is the points that share the values
 * of every other swept key, for one controller; a measure is the paired
 * speedup of the time to identify (t_id) or of the run's simulated time
 * (run_time), as speedup.csv defines them: S(M), the median over the seeds
 * of each seed's x(M0) / x(M), with the order-statistics interval
 * [lo(M), hi(M)] of that median.  Per series and measure:
 *
 *   M_max  the smallest M whose S(M) is the largest of the series;
 *   M_sat  the saturation point: the smallest M whose S(M) is at least
 *          lo(M_max), the lower end of the largest speedup's interval, so
 *          that no larger agent count's speedup can be told from S(M_sat)
 *          by that interval.  M_sat = M0 says no agent count's speedup is
 *          distinguishable from none.
 *
 * Points whose S is NaN (no seed identifies at either count) are left out;
 * a series with none left has M_sat and M_max NaN.  saturation.csv (9
 * significant digits) and saturation.md (4); docs/outputs.md defines every
 * column. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/out-file.h"
#include "run.h"

typedef struct {
  double m;            /* the point's agent count */
  TrvMedianInterval s; /* its paired speedup over the series' base */
} SatPoint;

static int cmp_agents(const void *a, const void *b) {
  double x = ((const SatPoint *)a)->m, y = ((const SatPoint *)b)->m;
  return (x > y) - (x < y);
}

/* M_sat, M_max and S(M_max) with its interval over n points sorted by m. */
static void saturation_of(const SatPoint *pts, int n, double *m_sat, double *s_sat, double *m_max,
                          TrvMedianInterval *s_max) {
  int best = -1;
  for (int i = 0; i < n; i++)
    if (!isnan(pts[i].s.median) && (best < 0 || pts[i].s.median > pts[best].s.median)) best = i;
  *m_sat = *s_sat = *m_max = NAN;
  s_max->median = s_max->lo = s_max->hi = NAN;
  if (best < 0) return;
  *m_max = pts[best].m;
  *s_max = pts[best].s;
  for (int i = 0; i <= best; i++)
    if (!isnan(pts[i].s.median) && pts[i].s.median >= pts[best].s.lo) {
      *m_sat = pts[i].m, *s_sat = pts[i].s.median;
      return;
    }
}

static void csv_num(GString *s, double v) {
  if (isnan(v))
    g_string_append(s, ",nan");
  else
    g_string_append_printf(s, ",%.9g", v);
}

static void md_num(GString *s, double v) {
  if (isfinite(v))
    g_string_append_printf(s, " | %.4g", v);
  else
    g_string_append(s, isinf(v) ? " | inf" : " | nan");
}

bool trv_saturation_write(const TrvSweepTable *sw, const char *dir, FILE *table, GError **error) {
  int axis = trv_sweep_agents_axis(sw), n_points = (int)sw->values->len, nc = sw->n_controllers;
  if (axis < 0 || n_points == 0) return true;
  char **others = g_new0(char *, sw->n_keys + 1); /* the other keys' names */
  for (int i = 0, k = 0; i < sw->n_keys; i++)
    if (i != axis) others[k++] = sw->keys[i];
  int n_others = sw->n_keys - 1;
  GString *csv = g_string_new("series"), *md = g_string_new("| series");
  trv_sweep_cells(csv, md, others, n_others);
  g_string_append(csv, ",controller,measure,points,m_sat,speedup_at_sat,m_max,speedup_max,speedup_max_lo,"
                       "speedup_max_hi\n");
  g_string_append(md, " | controller | measure | points | M_sat | speedup at M_sat | M_max | largest speedup | "
                      "its interval |\n|");
  for (int k = 0; k < n_others + 9; k++) g_string_append(md, "---|");
  g_string_append_c(md, '\n');
  SatPoint *pts = g_new(SatPoint, n_points);
  bool *done = g_new0(bool, n_points);
  int series = 0;
  for (int p = 0; p < n_points; p++) {
    int base = trv_sweep_speedup_base(sw, p);
    if (done[base]) continue;
    char **bv = g_ptr_array_index(sw->values, (guint)base);
    char **texts = g_new0(char *, sw->n_keys + 1);
    for (int i = 0, k = 0; i < sw->n_keys; i++)
      if (i != axis) texts[k++] = bv[i];
    for (int c = 0; c < nc; c++)
      for (int measure = 0; measure < 2; measure++) {
        GPtrArray *xs = measure == 0 ? sw->t_id : sw->sim_time;
        int n = 0;
        for (int q = 0; q < n_points; q++) {
          if (trv_sweep_speedup_base(sw, q) != base) continue;
          char **v = g_ptr_array_index(sw->values, (guint)q);
          pts[n].m = g_ascii_strtod(v[axis], NULL);
          pts[n].s = trv_sweep_paired_speedup(g_ptr_array_index(xs, (guint)(base * nc + c)),
                                              g_ptr_array_index(xs, (guint)(q * nc + c)));
          n++;
        }
        qsort(pts, (size_t)n, sizeof *pts, cmp_agents);
        double m_sat, s_sat, m_max;
        TrvMedianInterval s_max;
        saturation_of(pts, n, &m_sat, &s_sat, &m_max, &s_max);
        const char *name = measure == 0 ? "t_id" : "run_time";
        g_string_append_printf(csv, "%d", series);
        g_string_append_printf(md, "| %d", series);
        trv_sweep_cells(csv, md, texts, n_others);
        g_string_append_printf(csv, ",%s,%s,%d", sw->controllers[c], name, n);
        g_string_append_printf(md, " | %s | %s | %d", sw->controllers[c], name, n);
        const double cols[6] = {m_sat, s_sat, m_max, s_max.median, s_max.lo, s_max.hi};
        for (int k = 0; k < 6; k++) csv_num(csv, cols[k]);
        g_string_append_c(csv, '\n');
        for (int k = 0; k < 4; k++) md_num(md, cols[k]);
        if (isnan(s_max.median))
          g_string_append(md, " | |\n");
        else
          g_string_append_printf(md, " | [%.4g, %.4g] |\n", s_max.lo, s_max.hi);
      }
    g_free(texts);
    series++;
    for (int q = 0; q < n_points; q++)
      if (trv_sweep_speedup_base(sw, q) == base) done[q] = true;
  }
  char *pcsv = g_build_filename(dir, "saturation.csv", NULL), *pmd = g_build_filename(dir, "saturation.md", NULL);
  GString *doc = g_string_new(NULL);
  g_string_append_printf(doc,
                         "Saturation of the paired speedups (speedup.md) per series (the other keys' values "
                         "and the controller): M_max, the smallest agent count with the largest paired "
                         "speedup; M_sat, the smallest agent count whose paired speedup is at least the lower "
                         "end of the largest one's interval (t_id: of the time to identify; run_time: of the "
                         "run's simulated time)\n\n%s",
                         md->str);
  bool ok = trv_write_file_atomic(pcsv, csv->str, (gssize)csv->len, error) &&
            trv_write_file_atomic(pmd, doc->str, (gssize)doc->len, error);
  if (ok && table) fprintf(table, "\n%s", doc->str);
  g_free(pts);
  g_free(done);
  g_free(others);
  g_free(pcsv);
  g_free(pmd);
  g_string_free(doc, TRUE);
  g_string_free(csv, TRUE);
  g_string_free(md, TRUE);
  return ok;
}
