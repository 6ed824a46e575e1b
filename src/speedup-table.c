/* speedup-table.c - the multi-agent speedup of a sweep along agents.count
 * (run.h): per point and controller, the simulated time to identify t_id
 * over the seeds (a seed that never identifies counts as +inf) as its
 * median and the median's distribution-free interval (stats.h), and the
 * speedup S(M) = T_id(M0) / T_id(M) of the medians, M0 the smallest agent
 * count with the other keys equal, whose interval is a paired percentile
 * bootstrap over the seeds (ratio_band); the paired speedup, the median
 * over seeds of each seed's T_id(M0) / T_id(M) (trv_sweep_paired_speedup)
 * with the order-statistics interval of that median, and the same of the
 * run's simulated time; and the bound the assignment allows
 * (trv_sweep_speedup_bound), a paired point estimate above it flagged.
 * speedup.csv (9 significant digits), speedup.md (4), figures/speedup.*.
 * Every column is documented in docs/outputs.md. */
#include <config.h>

#include <math.h>
#include <string.h>

#include "core/rng.h"
#include "core/stats.h"
#include "figures.h"
#include "run.h"

static TrvMedianInterval t_id_of(const TrvSweepTable *sw, int point, int c) {
  GArray *t = g_ptr_array_index(sw->t_id, (guint)(point * sw->n_controllers + c));
  return trv_median_interval((const double *)t->data, t->len);
}

#define BOOTSTRAP 2000

static double median_of(const double *x, size_t n) { return trv_median_interval(x, n).median; }

/* The 95% percentile interval of median(base) / median(mine) over paired
 * resamples of the seeds (resamples whose ratio is undefined, both medians
 * never, are left out). */
static void ratio_band(const GArray *base, const GArray *mine, double *lo, double *hi) {
  TrvRng rng;
  trv_rng_init(&rng, 1, UINT64_C(0x53504544)); /* "SPED": the table's own fixed stream */
  trv_bootstrap_ratio_interval((const double *)base->data, (const double *)mine->data, MIN(base->len, mine->len),
                               median_of, true, &rng, BOOTSTRAP, lo, hi);
}

/* The series label of a point: the other keys' values, then the controller. */
static char *series_label(const TrvSweepTable *sw, int point, int c, int axis) {
  char **v = g_ptr_array_index(sw->values, (guint)point);
  GString *s = g_string_new(NULL);
  for (int i = 0; i < sw->n_keys; i++)
    if (i != axis) g_string_append_printf(s, "%s=%s, ", sw->keys[i], v[i]);
  g_string_append(s, sw->controllers[c]);
  return g_string_free(s, FALSE);
}

bool trv_speedup_write(const TrvSweepTable *sw, const char *dir, FILE *table, GError **error) {
  int axis = trv_sweep_agents_axis(sw), n_points = (int)sw->values->len, nc = sw->n_controllers;
  if (axis < 0 || n_points == 0) return true;
  GString *csv = g_string_new("point"), *md = g_string_new("| point");
  trv_sweep_cells(csv, md, sw->keys, sw->n_keys);
  g_string_append(csv, ",controller,seeds,identified,t_id_median,t_id_lo,t_id_hi,coverage,speedup_t_id,"
                       "speedup_t_id_lo,speedup_t_id_hi,paired_speedup_t_id,paired_speedup_t_id_lo,"
                       "paired_speedup_t_id_hi,paired_speedup_time,paired_speedup_time_lo,paired_speedup_time_hi,"
                       "bound,above_bound\n");
  g_string_append(md, " | controller | identified | t_id median [interval] | speedup of the medians [95% interval] | "
                      "paired speedup of t_id [interval] | paired speedup of the run time [interval] | bound |\n|");
  for (int k = 0; k < sw->n_keys + 8; k++) g_string_append(md, "---|");
  g_string_append_c(md, '\n');
  /* figure rows: per series (base point and controller), per point of it:
   * agents, speedup and its interval, t_id median and its interval */
  GPtrArray *labels = g_ptr_array_new_with_free_func(g_free);
  GArray *rows = g_array_new(FALSE, FALSE, sizeof(double));
  double coverage = 1;
  for (int p = 0; p < n_points; p++) {
    char **v = g_ptr_array_index(sw->values, (guint)p);
    int base = trv_sweep_speedup_base(sw, p);
    for (int c = 0; c < nc; c++) {
      GArray *t = g_ptr_array_index(sw->t_id, (guint)(p * nc + c)),
             *tb = g_ptr_array_index(sw->t_id, (guint)(base * nc + c));
      int identified = 0;
      for (guint s = 0; s < t->len; s++) identified += !isnan(g_array_index(t, double, s));
      TrvMedianInterval m = t_id_of(sw, p, c), b = t_id_of(sw, base, c);
      double sp = b.median / m.median, lo, hi;
      ratio_band(tb, t, &lo, &hi);
      TrvMedianInterval pt = trv_sweep_paired_speedup(tb, t);
      TrvMedianInterval pr = trv_sweep_paired_speedup(g_ptr_array_index(sw->sim_time, (guint)(base * nc + c)),
                                                      g_ptr_array_index(sw->sim_time, (guint)(p * nc + c)));
      double bound = trv_sweep_speedup_bound(sw, p, base);
      bool above = pt.median > bound * (1 + 1e-9) || pr.median > bound * (1 + 1e-9);
      coverage = fmin(coverage, m.coverage);
      g_string_append_printf(csv, "%d", p);
      g_string_append_printf(md, "| %d", p);
      trv_sweep_cells(csv, md, v, sw->n_keys);
      g_string_append_printf(csv, ",%s,%u,%d", sw->controllers[c], t->len, identified);
      const double cols[14] = {m.median,  m.lo,  m.hi,  m.coverage, sp,    lo,    hi,
                               pt.median, pt.lo, pt.hi, pr.median,  pr.lo, pr.hi, bound};
      for (int k = 0; k < 14; k++)
        if (isnan(cols[k]))
          g_string_append(csv, ",nan");
        else
          g_string_append_printf(csv, ",%.9g", cols[k]);
      g_string_append_printf(csv, ",%d\n", above);
      g_string_append_printf(md, " | %s | %d / %u | ", sw->controllers[c], identified, t->len);
      trv_md_interval(md, m.median, m.lo, m.hi);
      g_string_append(md, " | ");
      trv_md_interval(md, sp, lo, hi);
      g_string_append(md, " | ");
      trv_md_interval(md, pt.median, pt.lo, pt.hi);
      g_string_append(md, " | ");
      trv_md_interval(md, pr.median, pr.lo, pr.hi);
      g_string_append(md, " | ");
      trv_md_value(md, bound);
      g_string_append(md, above ? " (**above the bound**) |\n" : " |\n");
      /* the series of (base, c): its index among the series seen so far */
      char *label = series_label(sw, base, c, axis);
      guint series = 0;
      while (series < labels->len && strcmp(g_ptr_array_index(labels, series), label)) series++;
      if (series == labels->len)
        g_ptr_array_add(labels, label);
      else
        g_free(label);
      double row[8] = {(double)series, g_ascii_strtod(v[axis], NULL), sp, lo, hi, m.median, m.lo, m.hi};
      g_array_append_vals(rows, row, 8);
    }
  }
  GString *doc = g_string_new(NULL);
  g_string_append_printf(doc,
                         "Speedup of the simulated time to identify, S(M) = T_id(smallest M) / T_id(M): medians "
                         "over seeds (a seed that never identifies counts as never); intervals: order "
                         "statistics of the median, coverage at least %.3g; the speedup's: paired bootstrap "
                         "over seeds, 95%%.  Paired speedups: the median over seeds of each seed's ratio "
                         "(the same seed, and the same world draws, at every agent count) with the order "
                         "statistics' interval of that median; bound: what the assignment allows, min(M, m0) "
                         "over min(M0, m0) with disjoint assignment, M / M0 with coalitions\n\n%s",
                         coverage, md->str);
  bool ok = trv_sweep_write_table(dir, "speedup", csv, doc, table, error);
  ok = ok && trv_write_speedup_figure(dir, (char **)labels->pdata, (int)labels->len, (const double *)rows->data,
                                      (int)(rows->len / 8), error);
  g_ptr_array_free(labels, TRUE);
  g_array_free(rows, TRUE);
  g_string_free(doc, TRUE);
  g_string_free(csv, TRUE);
  g_string_free(md, TRUE);
  return ok;
}
