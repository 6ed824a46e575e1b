/* fault-table.c - the paired effect of faults along a swept fault time
 * (run.h).  The axis is the first swept key KIND.FIELD whose field is a
 * fault time with a mildest end: mtbf, start and at (the largest value is
 * the mildest: faults rarer or later) or mttr, duration and stop (the
 * smallest is).  Each point is compared with its reference, the point
 * with the same values of the other keys and the mildest value of the
 * axis, seed by seed: the seeds, and with them the world's draws, are the
 * same at every point (common random numbers), so each contrast compares
 * one draw with itself.
 *
 * faults.csv (9 significant digits) and faults.md (4): per point and
 * controller, the reference's value of the axis, the means over the seeds
 * of p_f, bits_lost, time_lost and detector_closes, and three paired
 * contrasts, each the median over the seeds with the order-statistics
 * interval of that median (stats.h): the slowdown of the time to identify,
 * t_id(point) / t_id(reference) (a seed that identifies at the reference
 * and never at the point counts +inf, the other way round 0; never at
 * both is left out), the slowdown of the run's simulated time, and the
 * exposure the faults add, exposure_total(point) - exposure_total
 * (reference).  Every column is documented in docs/outputs.md. */
#include <config.h>

#include <math.h>
#include <string.h>

#include "core/params.h"
#include "core/stats.h"
#include "run.h"
#include "scenario/scenario.h"

/* +1: the largest value is the mildest; -1: the smallest; 0: not a fault time. */
static int mildest_direction(const char *key) {
  const char *dot = strrchr(key, '.');
  if (!dot || trv_param_lookup(key)) return 0;
  const char *field = dot + 1;
  if (!strcmp(field, "mtbf") || !strcmp(field, "start") || !strcmp(field, "at")) return 1;
  if (!strcmp(field, "mttr") || !strcmp(field, "duration") || !strcmp(field, "stop")) return -1;
  return 0;
}

/* The index of the fault axis among the swept keys (and its direction), or -1. */
static int fault_axis(const TrvSweepTable *sw, int *direction) {
  for (int i = 0; i < sw->n_keys; i++)
    if ((*direction = mildest_direction(sw->keys[i])) != 0) return i;
  return -1;
}

/* The point with the other keys equal to point's and the mildest value of
 * the axis (the first of equals in grid order). */
static int reference_of(const TrvSweepTable *sw, int point, int axis, int direction) {
  char **mine = g_ptr_array_index(sw->values, (guint)point);
  const char *field = strrchr(sw->keys[axis], '.') + 1;
  int ref = -1;
  double best = 0;
  for (guint q = 0; q < sw->values->len; q++) {
    char **v = g_ptr_array_index(sw->values, q);
    bool same = true;
    for (int i = 0; i < sw->n_keys && same; i++) same = i == axis || !strcmp(v[i], mine[i]);
    if (!same) continue;
    double x = direction * trv_fault_value(field, v[axis]);
    if (ref < 0 || x > best) best = x, ref = (int)q;
  }
  return ref;
}

/* The median over the seeds of point[s] - base[s], with its interval;
 * seeds where either is not finite are left out. */
static TrvMedianInterval paired_difference(const GArray *base, const GArray *point) {
  guint n = MIN(base->len, point->len), k = 0;
  double *d = g_new(double, MAX(n, 1));
  for (guint s = 0; s < n; s++) {
    double b = g_array_index(base, double, s), m = g_array_index(point, double, s);
    if (isfinite(b) && isfinite(m)) d[k++] = m - b;
  }
  TrvMedianInterval mi = trv_median_interval(d, k);
  g_free(d);
  return mi;
}

static void csv_value(GString *s, double v) {
  if (isnan(v))
    g_string_append(s, ",nan");
  else if (isinf(v))
    g_string_append(s, v > 0 ? ",inf" : ",-inf");
  else
    g_string_append_printf(s, ",%.9g", v);
}

static const char *const means[] = {"p_f", "bits_lost", "time_lost", "detector_closes"};
#define N_MEANS 4

bool trv_fault_table_write(const TrvSweepTable *sw, const char *dir, FILE *table, GError **error) {
  int direction = 0, axis = fault_axis(sw, &direction), n_points = (int)sw->values->len;
  int nc = sw->n_controllers;
  if (axis < 0 || n_points == 0) return true;
  GString *csv = g_string_new("point"), *md = g_string_new("| point");
  trv_sweep_cells(csv, md, sw->keys, sw->n_keys);
  g_string_append(csv, ",controller,seeds,reference");
  for (int k = 0; k < N_MEANS; k++) g_string_append_printf(csv, ",%s", means[k]);
  g_string_append(csv, ",slowdown_t_id,slowdown_t_id_lo,slowdown_t_id_hi,slowdown_time,slowdown_time_lo,"
                       "slowdown_time_hi,exposure_added,exposure_added_lo,exposure_added_hi\n");
  g_string_append(md, " | controller | reference | p_f | bits_lost | time_lost | detector_closes | "
                      "slowdown of t_id [interval] | slowdown of the run time [interval] | "
                      "exposure added [interval] |\n|");
  for (int k = 0; k < sw->n_keys + 10; k++) g_string_append(md, "---|");
  g_string_append_c(md, '\n');
  double coverage = 1;
  for (int p = 0; p < n_points; p++) {
    char **v = g_ptr_array_index(sw->values, (guint)p);
    int ref = reference_of(sw, p, axis, direction);
    const char *ref_value = ((char **)g_ptr_array_index(sw->values, (guint)ref))[axis];
    for (int c = 0; c < nc; c++) {
      guint at = (guint)(p * nc + c), rat = (guint)(ref * nc + c);
      const GArray *t = g_ptr_array_index(sw->t_id, at);
      /* trv_sweep_paired_speedup(base, point) is the median of base / point */
      TrvMedianInterval st = trv_sweep_paired_speedup(t, g_ptr_array_index(sw->t_id, rat));
      TrvMedianInterval sr =
          trv_sweep_paired_speedup(g_ptr_array_index(sw->sim_time, at), g_ptr_array_index(sw->sim_time, rat));
      TrvMedianInterval ex =
          paired_difference(g_ptr_array_index(sw->exposure, rat), g_ptr_array_index(sw->exposure, at));
      if (p != ref) coverage = fmin(coverage, fmin(st.coverage, fmin(sr.coverage, ex.coverage)));
      g_string_append_printf(csv, "%d", p);
      g_string_append_printf(md, "| %d", p);
      trv_sweep_cells(csv, md, v, sw->n_keys);
      g_string_append_printf(csv, ",%s,%u", sw->controllers[c], t->len);
      g_string_append_printf(md, " | %s", sw->controllers[c]);
      char *rv[] = {(char *)ref_value};
      trv_sweep_cells(csv, md, rv, 1); /* the reference's value, as the sweep writes it */
      for (int k = 0; k < N_MEANS; k++) {
        double m = trv_sweep_mean(sw, p, c, means[k]);
        csv_value(csv, m);
        g_string_append(md, " | ");
        trv_md_value(md, m);
      }
      const TrvMedianInterval cols[3] = {st, sr, ex};
      for (int k = 0; k < 3; k++) {
        csv_value(csv, cols[k].median), csv_value(csv, cols[k].lo), csv_value(csv, cols[k].hi);
        g_string_append(md, " | ");
        trv_md_interval(md, cols[k].median, cols[k].lo, cols[k].hi);
      }
      g_string_append_c(csv, '\n');
      g_string_append(md, " |\n");
    }
  }
  GString *doc = g_string_new(NULL);
  g_string_append_printf(doc,
                         "Paired effect of the faults along %s: each point against its reference, the point "
                         "with the other keys equal and the mildest %s (reference), seed by "
                         "seed.  p_f, bits_lost, time_lost, detector_closes: means over the seeds.  "
                         "Slowdowns: the median over the seeds of each seed's t_id(point) / t_id(reference) "
                         "(never: identified at the reference, never at the point) and of its run time's; "
                         "exposure added: the median of each seed's exposure_total(point) - "
                         "exposure_total(reference).  Intervals: order statistics of the median, coverage "
                         "at least %.3g\n\n%s",
                         sw->keys[axis], sw->keys[axis], coverage, md->str);
  bool ok = trv_sweep_write_table(dir, "faults", csv, doc, table, error);
  g_string_free(doc, TRUE);
  g_string_free(csv, TRUE);
  g_string_free(md, TRUE);
  return ok;
}
