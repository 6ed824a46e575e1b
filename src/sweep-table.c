/* sweep-table.c - the table and figure of a sweep (run.h).
 *
 * sweep.csv: point (its index), one column per swept key holding the
 * point's value of it, controller, then per metric its mean and sd over the
 * seeds (9 significant digits), and along an agents.count axis `speedup`.
 * sweep.md: the same table, 4 significant digits.  Every column is
 * documented in docs/outputs.md. */
#include <config.h>

#include <math.h>
#include <string.h>

#include "core/stats.h"
#include "core/world-report.h"
#include "figures.h"
#include "run.h"

/* The metrics of a point, in the order of sweep.csv's columns. */
enum {
  M_EXPOSURE_TOTAL,
  M_EXPOSURE_STATIONARY,
  M_COMMITTED_EXPOSURE_TOTAL,
  M_R_OUT,
  M_R_TEMP,
  M_P_F,
  M_PROBES,
  M_E_ID,
  M_T_ID,
  M_E_TASK,
  M_T_TASK,
  M_ALARMS,
  M_DETECTIONS,
  M_FALSE_ALARMS,
  M_DETECTION_DELAY,
  M_E_COMMIT,
  M_T_COMMIT,
  M_RECOVERY_EPISODES,
  M_COMMIT_LAG,
  M_LRCP_CALLS,
  M_RECORDS_LOST,
  M_DETECTOR_CLOSES,
  M_TIME_LOST,
  M_BITS_LOST,
  M_SIM_TIME, /* the speedup's measure */
  N_METRICS
};
static const char *const sweep_metrics[N_METRICS] = {[M_EXPOSURE_TOTAL] = "exposure_total",
                                                     [M_EXPOSURE_STATIONARY] = "exposure_stationary",
                                                     [M_COMMITTED_EXPOSURE_TOTAL] = "committed_exposure_total",
                                                     [M_R_OUT] = "r_out",
                                                     [M_R_TEMP] = "r_temp",
                                                     [M_P_F] = "p_f",
                                                     [M_PROBES] = "probes",
                                                     [M_E_ID] = "e_id",
                                                     [M_T_ID] = "t_id",
                                                     [M_E_TASK] = "e_task",
                                                     [M_T_TASK] = "t_task",
                                                     [M_ALARMS] = "alarms",
                                                     [M_DETECTIONS] = "detections",
                                                     [M_FALSE_ALARMS] = "false_alarms",
                                                     [M_DETECTION_DELAY] = "detection_delay",
                                                     [M_E_COMMIT] = "e_commit",
                                                     [M_T_COMMIT] = "t_commit",
                                                     [M_RECOVERY_EPISODES] = "recovery_episodes",
                                                     [M_COMMIT_LAG] = "commit_lag",
                                                     [M_LRCP_CALLS] = "lrcp_calls",
                                                     [M_RECORDS_LOST] = "records_lost",
                                                     [M_DETECTOR_CLOSES] = "detector_closes",
                                                     [M_TIME_LOST] = "time_lost",
                                                     [M_BITS_LOST] = "bits_lost",
                                                     [M_SIM_TIME] = "sim_time"};
/* drawn in the sweep figure, in this order: exposure_total, r_out, p_f
 * (when some point has commit failures), probes (when they differ between
 * points or controllers), t_id, and sim_time along an agents.count axis (the
 * speedup's measure) */
#define N_FIGURE_MAX 6

void trv_sweep_table_init(TrvSweepTable *sw, char **keys, char **controllers, int n_controllers,
                          const TrvWorldClass *world_class) {
  memset(sw, 0, sizeof *sw);
  sw->world_class = world_class;
  sw->report_states = g_ptr_array_new();
  sw->keys = g_strdupv(keys);
  sw->n_keys = (int)g_strv_length(keys);
  sw->controllers = controllers;
  sw->n_controllers = n_controllers;
  sw->values = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
  sw->stats = g_array_new(FALSE, FALSE, sizeof(double));
  sw->episodes = g_array_new(FALSE, FALSE, sizeof(int));
  sw->t_id = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
  sw->sim_time = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
  sw->exposure = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
  sw->bound_m0 = g_array_new(FALSE, FALSE, sizeof(double));
  sw->coalition = g_array_new(FALSE, FALSE, sizeof(int));
}

void trv_sweep_table_free(TrvSweepTable *sw) {
  g_strfreev(sw->keys);
  g_ptr_array_free(sw->values, TRUE);
  g_array_free(sw->stats, TRUE);
  g_array_free(sw->episodes, TRUE);
  for (guint i = 0; i < sw->report_states->len; i++)
    trv_world_report_state_free(sw->world_class, g_ptr_array_index(sw->report_states, i));
  g_ptr_array_free(sw->report_states, TRUE);
  g_ptr_array_free(sw->t_id, TRUE);
  g_ptr_array_free(sw->sim_time, TRUE);
  g_ptr_array_free(sw->exposure, TRUE);
  g_array_free(sw->bound_m0, TRUE);
  g_array_free(sw->coalition, TRUE);
}

void trv_sweep_table_add(TrvSweepTable *sw, const TrvRunResult *res, char **values, void *report_state) {
  g_assert(values && (int)g_strv_length(values) == sw->n_keys);
  g_ptr_array_add(sw->values, g_strdupv(values));
  g_ptr_array_add(sw->report_states, report_state);
  g_array_append_val(sw->episodes, res->layout->episodes);
  double m0 = res->params->m0 > 0 ? res->params->m0 : res->layout->cand->n_components;
  g_array_append_val(sw->bound_m0, m0);
  g_array_append_val(sw->coalition, res->params->coalition);
  const TrvRefereeClass *ref = res->world_class ? res->world_class->referee : NULL;
  sw->regret_nonnegative = ref && ref->oracle && ref->expected_payoff;
  for (int c = 0; c < sw->n_controllers; c++) {
    GArray *t = g_array_sized_new(FALSE, FALSE, sizeof(double), (guint)res->n_seeds);
    g_array_set_size(t, (guint)res->n_seeds);
    trv_run_metric_values(res, c, "t_id", (double *)t->data);
    g_ptr_array_add(sw->t_id, t);
    GArray *st = g_array_sized_new(FALSE, FALSE, sizeof(double), (guint)res->n_seeds);
    g_array_set_size(st, (guint)res->n_seeds);
    trv_run_metric_values(res, c, "sim_time", (double *)st->data);
    g_ptr_array_add(sw->sim_time, st);
    GArray *ex = g_array_sized_new(FALSE, FALSE, sizeof(double), (guint)res->n_seeds);
    g_array_set_size(ex, (guint)res->n_seeds);
    trv_run_metric_values(res, c, "exposure_total", (double *)ex->data);
    g_ptr_array_add(sw->exposure, ex);
  }
  for (int c = 0; c < sw->n_controllers; c++)
    for (int k = 0; k < N_METRICS; k++) {
      TrvSummary s = trv_run_metric(res, c, sweep_metrics[k]);
      g_array_append_val(sw->stats, s.mean);
      g_array_append_val(sw->stats, s.sd);
      g_array_append_val(sw->stats, s.lo);
      g_array_append_val(sw->stats, s.hi);
    }
}

static const double *stat(const TrvSweepTable *sw, int point, int c, int k) {
  return &g_array_index(sw->stats, double, ((size_t)(point * sw->n_controllers + c) * N_METRICS + k) * 4);
}

void trv_md_value(GString *md, double v) {
  if (isfinite(v))
    g_string_append_printf(md, "%.4g", v);
  else
    g_string_append(md, isinf(v) ? "never" : "nan");
}

void trv_md_interval(GString *md, double v, double lo, double hi) {
  trv_md_value(md, v);
  g_string_append(md, " [");
  trv_md_value(md, lo);
  g_string_append(md, ", ");
  trv_md_value(md, hi);
  g_string_append_c(md, ']');
}

bool trv_sweep_write_table(const char *dir, const char *name, const GString *csv, const GString *doc, FILE *table,
                           GError **error) {
  char *base = g_build_filename(dir, name, NULL);
  char *pcsv = g_strconcat(base, ".csv", NULL), *pmd = g_strconcat(base, ".md", NULL);
  bool ok = trv_write_file_atomic(pcsv, csv->str, (gssize)csv->len, error) &&
            trv_write_file_atomic(pmd, doc->str, (gssize)doc->len, error);
  if (ok && table) fprintf(table, "\n%s", doc->str);
  g_free(base), g_free(pcsv), g_free(pmd);
  return ok;
}

double trv_sweep_mean(const TrvSweepTable *sw, int point, int c, const char *metric) {
  for (int k = 0; k < N_METRICS; k++)
    if (!strcmp(sweep_metrics[k], metric)) return stat(sw, point, c, k)[0];
  return NAN;
}

int trv_sweep_agents_axis(const TrvSweepTable *sw) {
  for (int i = 0; i < sw->n_keys; i++)
    if (!strcmp(sw->keys[i], "agents.count")) return i;
  return -1;
}

int trv_sweep_speedup_base(const TrvSweepTable *sw, int point) {
  int axis = trv_sweep_agents_axis(sw);
  if (axis < 0) return -1;
  char **mine = g_ptr_array_index(sw->values, point);
  int base = -1;
  double best = INFINITY;
  for (guint q = 0; q < sw->values->len; q++) {
    char **v = g_ptr_array_index(sw->values, q);
    bool same = true;
    for (int i = 0; i < sw->n_keys && same; i++) same = i == axis || !strcmp(v[i], mine[i]);
    double m = g_ascii_strtod(v[axis], NULL);
    if (same && m < best) best = m, base = (int)q;
  }
  return base;
}

TrvMedianInterval trv_sweep_paired_speedup(const GArray *base, const GArray *point) {
  guint n = MIN(base->len, point->len), k = 0;
  double *r = g_new(double, MAX(n, 1));
  for (guint s = 0; s < n; s++) {
    double b = g_array_index(base, double, s), m = g_array_index(point, double, s);
    bool b_never = !isfinite(b), m_never = !isfinite(m);
    if (b_never && m_never) continue;
    r[k++] = m_never ? 0.0 : b_never ? INFINITY : b / m;
  }
  TrvMedianInterval mi = trv_median_interval(r, k);
  g_free(r);
  return mi;
}

double trv_sweep_speedup_bound(const TrvSweepTable *sw, int point, int base) {
  int axis = trv_sweep_agents_axis(sw);
  char **v = g_ptr_array_index(sw->values, (guint)point), **vb = g_ptr_array_index(sw->values, (guint)base);
  double m = g_ascii_strtod(v[axis], NULL), m_base = g_ascii_strtod(vb[axis], NULL);
  double m0 = g_array_index(sw->bound_m0, double, point);
  if (g_array_index(sw->coalition, int, point) != 1) return m / m_base;
  return fmin(m, m0) / fmin(m_base, m0);
}

void trv_sweep_cells(GString *csv, GString *md, char *const *texts, int n) { trv_report_cells(csv, md, texts, n); }

static void md_num(GString *s, double v) {
  if (isfinite(v))
    g_string_append_printf(s, "%.4g", v);
  else
    g_string_append(s, "nan");
}

/* A single numeric key: least squares of each controller's mean exposure,
 * outcome regret and commit time (e_commit) on x (a + b x) and, when every
 * x > 0, on 1/x (a + b/x), over the points; for the outcome regret also the regret-bound
 * shape a sqrt(E) + b x ln(E) (E the point's episodes; the rho sweep's
 * sqrt(E) + rho log E).  A grid of a numeric key x and run.episodes: that
 * shape alone, over every point of the grid (E read per point; the rho
 * sweep over several horizons), since the lines in x would mix horizons.
 * sweep-fits.csv and a table for sweep.md.  False (nothing written) for
 * another grid, a key with a non-numeric value or fewer than three
 * points. */
static const int fit_metrics[] = {M_EXPOSURE_TOTAL, M_R_OUT, M_R_TEMP, M_E_COMMIT};
enum { FIT_LINE, FIT_INVERSE, FIT_BOUND, N_FITS };
static const char *const fit_names[N_FITS] = {"a+b*x", "a+b/x", "a*sqrt(E)+b*x*ln(E)"};

static void fit_row(const TrvSweepTable *sw, GString *csv, GString *md, int c, int metric, int model, TrvLinFit f,
                    int n) {
  g_string_append_printf(csv, "%s,%s,%s,%.9g,%.9g,%.9g,%d\n", sw->controllers[c], sweep_metrics[metric],
                         fit_names[model], f.a, f.b, f.r2, n);
  g_string_append_printf(md, "| %s | %s | %s | ", sw->controllers[c], sweep_metrics[metric], fit_names[model]);
  md_num(md, f.a);
  g_string_append(md, " | ");
  md_num(md, f.b);
  g_string_append(md, " | ");
  md_num(md, f.r2);
  g_string_append(md, " |\n");
}

/* The key a sweep's fits read as x: the only one, or in a grid of two keys
 * of which one is run.episodes the other (*horizons set); -1: no fits. */
static int fit_key(const TrvSweepTable *sw, bool *horizons) {
  *horizons = false;
  if (sw->n_keys == 1) return 0;
  if (sw->n_keys != 2) return -1;
  bool e0 = !strcmp(sw->keys[0], "run.episodes"), e1 = !strcmp(sw->keys[1], "run.episodes");
  if (e0 == e1) return -1;
  *horizons = true;
  return e0 ? 1 : 0;
}

static bool sweep_fits(const TrvSweepTable *sw, GString *csv, GString *md) {
  int n = (int)sw->values->len;
  bool horizons;
  int key = fit_key(sw, &horizons);
  if (key < 0 || n < 3) return false;
  double *x = g_new(double, n), *inv = g_new(double, n), *y = g_new(double, n);
  double *root_e = g_new(double, n), *x_log_e = g_new(double, n);
  bool numeric = true, positive = true;
  for (int p = 0; p < n && numeric; p++) {
    const char *v = ((char **)g_ptr_array_index(sw->values, p))[key];
    char *end;
    x[p] = g_ascii_strtod(v, &end);
    numeric = end != v && !*end && isfinite(x[p]);
    positive = positive && x[p] > 0;
    inv[p] = positive ? 1.0 / x[p] : NAN;
    double e = g_array_index(sw->episodes, int, p);
    root_e[p] = sqrt(e);
    x_log_e[p] = x[p] * log(e);
  }
  if (numeric) {
    g_string_append(csv, "controller,metric,model,a,b,r2,points\n");
    g_string_append_printf(md,
                           "\nFits over the points (least squares of the means; x = %s, E = episodes%s)\n\n"
                           "| controller | metric | model | a | b | R^2 |\n|---|---|---|---|---|---|\n",
                           sw->keys[key], horizons ? " of each point; the grid's lines in x are not fitted" : "");
    for (int c = 0; c < sw->n_controllers; c++)
      for (size_t m = 0; m < G_N_ELEMENTS(fit_metrics); m++) {
        if (horizons && fit_metrics[m] != M_R_OUT) continue;
        for (int p = 0; p < n; p++) y[p] = stat(sw, p, c, fit_metrics[m])[0];
        if (horizons) {
          fit_row(sw, csv, md, c, fit_metrics[m], FIT_BOUND, trv_basis_fit(root_e, x_log_e, y, (size_t)n), n);
          continue;
        }
        fit_row(sw, csv, md, c, fit_metrics[m], FIT_LINE, trv_linear_fit(x, y, (size_t)n), n);
        if (positive) fit_row(sw, csv, md, c, fit_metrics[m], FIT_INVERSE, trv_linear_fit(inv, y, (size_t)n), n);
        if (fit_metrics[m] == M_R_OUT)
          fit_row(sw, csv, md, c, fit_metrics[m], FIT_BOUND, trv_basis_fit(root_e, x_log_e, y, (size_t)n), n);
      }
  }
  g_free(root_e);
  g_free(x_log_e);
  g_free(x);
  g_free(inv);
  g_free(y);
  return numeric;
}

/* figures/sweep.*: rows (per point and controller, n_figure (mean, lo, hi)
 * triples) against the points, one series per controller; for a grid of
 * run.episodes and one other key (the fits' horizons), against the other
 * key's values, one series per controller and horizon (a point missing
 * from the grid: no value). */
static bool sweep_figure(const TrvSweepTable *sw, const char *dir, const char *const *names, int n_figure,
                         const double *rows, int seeds, GError **error) {
  int n_points = (int)sw->values->len;
  bool horizons;
  int xk = fit_key(sw, &horizons);
  if (!horizons) {
    char *key = g_strjoinv(", ", sw->keys);
    char **ticks = g_new0(char *, n_points + 1); /* a point's values, the keys on the axis' label */
    for (int p = 0; p < n_points; p++) ticks[p] = g_strjoinv(", ", g_ptr_array_index(sw->values, p));
    bool ok = trv_write_sweep_figure(dir, key, ticks, n_points, sw->controllers, sw->n_controllers, NULL, names,
                                     n_figure, rows, seeds, error);
    g_strfreev(ticks);
    g_free(key);
    return ok;
  }
  int ek = 1 - xk;
  GPtrArray *xs = g_ptr_array_new(), *es = g_ptr_array_new(); /* each key's values, in the order of the points */
  for (int p = 0; p < n_points; p++) {
    char **v = g_ptr_array_index(sw->values, p);
    bool seen_x = false, seen_e = false;
    for (guint i = 0; i < xs->len; i++) seen_x = seen_x || !strcmp(g_ptr_array_index(xs, i), v[xk]);
    for (guint i = 0; i < es->len; i++) seen_e = seen_e || !strcmp(g_ptr_array_index(es, i), v[ek]);
    if (!seen_x) g_ptr_array_add(xs, v[xk]);
    if (!seen_e) g_ptr_array_add(es, v[ek]);
  }
  int nx = (int)xs->len, ne = (int)es->len, n_series = sw->n_controllers * ne;
  char **series = g_new0(char *, n_series + 1), **ticks = g_new0(char *, nx + 1);
  for (int c = 0; c < sw->n_controllers; c++)
    for (int j = 0; j < ne; j++)
      series[c * ne + j] = g_strdup_printf("%s, E = %s", sw->controllers[c], (char *)g_ptr_array_index(es, j));
  double *grid = g_new(double, (size_t)MAX(nx * n_series * n_figure * 3, 1));
  for (size_t i = 0; i < (size_t)nx * n_series * n_figure * 3; i++) grid[i] = NAN;
  for (int p = 0; p < n_points; p++) {
    char **v = g_ptr_array_index(sw->values, p);
    int i = 0, j = 0;
    while (strcmp(g_ptr_array_index(xs, i), v[xk])) i++;
    while (strcmp(g_ptr_array_index(es, j), v[ek])) j++;
    for (int c = 0; c < sw->n_controllers; c++)
      memcpy(&grid[((size_t)i * n_series + c * ne + j) * n_figure * 3],
             &rows[((size_t)p * sw->n_controllers + c) * n_figure * 3], (size_t)n_figure * 3 * sizeof(double));
  }
  for (int i = 0; i < nx; i++) ticks[i] = g_strdup(g_ptr_array_index(xs, i));
  bool ok = trv_write_sweep_figure(dir, sw->keys[xk], ticks, nx, series, n_series, sw->keys[ek], names, n_figure, grid,
                                   seeds, error);
  g_strfreev(series);
  g_strfreev(ticks);
  g_free(grid);
  g_ptr_array_free(xs, TRUE);
  g_ptr_array_free(es, TRUE);
  return ok;
}

bool trv_sweep_table_write(const TrvSweepTable *sw, const char *dir, FILE *table, const char *experiment, int seeds,
                           GError **error) {
  int n_points = (int)sw->values->len;
  bool speedup = n_points > 0 && trv_sweep_speedup_base(sw, 0) >= 0;
  GString *csv = g_string_new("point"), *md = g_string_new("| point");
  trv_sweep_cells(csv, md, sw->keys, sw->n_keys);
  g_string_append(csv, ",controller");
  g_string_append(md, " | controller");
  for (int k = 0; k < N_METRICS; k++) {
    g_string_append_printf(csv, ",%s,%s_sd", sweep_metrics[k], sweep_metrics[k]);
    g_string_append_printf(md, " | %s", sweep_metrics[k]);
  }
  if (speedup) g_string_append(csv, ",speedup"), g_string_append(md, " | speedup");
  g_string_append(csv, "\n");
  g_string_append(md, " |\n|");
  for (int k = 0; k < 2 + sw->n_keys + N_METRICS + speedup; k++) g_string_append(md, "---|");
  g_string_append(md, "\n");
  for (int p = 0; p < n_points; p++) {
    char **v = g_ptr_array_index(sw->values, p);
    int base = speedup ? trv_sweep_speedup_base(sw, p) : -1;
    for (int c = 0; c < sw->n_controllers; c++) {
      g_string_append_printf(csv, "%d", p);
      g_string_append_printf(md, "| %d", p);
      trv_sweep_cells(csv, md, v, sw->n_keys);
      g_string_append_printf(csv, ",%s", sw->controllers[c]);
      g_string_append_printf(md, " | %s", sw->controllers[c]);
      for (int k = 0; k < N_METRICS; k++) {
        const double *m = stat(sw, p, c, k);
        g_string_append_printf(csv, ",%.9g,%.9g", m[0], m[1]);
        g_string_append(md, " | ");
        md_num(md, m[0]);
        g_string_append(md, " ± ");
        md_num(md, m[1]);
      }
      if (speedup) { /* paired: the median over seeds of sim_time at the smallest agent count over this one's */
        double sp = trv_sweep_paired_speedup(g_ptr_array_index(sw->sim_time, (guint)(base * sw->n_controllers + c)),
                                             g_ptr_array_index(sw->sim_time, (guint)(p * sw->n_controllers + c)))
                        .median;
        g_string_append_printf(csv, ",%.9g", sp);
        g_string_append(md, " | ");
        md_num(md, sp);
      }
      g_string_append(csv, "\n");
      g_string_append(md, " |\n");
    }
  }
  GString *fits = g_string_new(NULL);
  char *pfit = g_build_filename(dir, "sweep-fits.csv", NULL);
  bool fitted = sweep_fits(sw, fits, md);
  char *pcsv = g_build_filename(dir, "sweep.csv", NULL), *pmd = g_build_filename(dir, "sweep.md", NULL);
  bool ok = trv_write_file_atomic(pcsv, csv->str, (gssize)csv->len, error) &&
            trv_write_file_atomic(pmd, md->str, (gssize)md->len, error) &&
            (!fitted || trv_write_file_atomic(pfit, fits->str, (gssize)fits->len, error));
  g_string_free(fits, TRUE);
  g_free(pfit);
  if (ok && table) fprintf(table, "Sweep of %s (mean ± sd over %d seeds)\n\n%s", experiment, seeds, md->str);
  /* the figure's metrics, per point and controller */
  bool any_failure = false, probes_vary = false;
  for (int p = 0; p < n_points; p++)
    for (int c = 0; c < sw->n_controllers; c++) {
      any_failure = any_failure || stat(sw, p, c, M_P_F)[0] > 0;
      probes_vary = probes_vary || stat(sw, p, c, M_PROBES)[0] != stat(sw, 0, 0, M_PROBES)[0];
    }
  int figure_metrics[N_FIGURE_MAX], n_figure = 0;
  figure_metrics[n_figure++] = M_EXPOSURE_TOTAL;
  figure_metrics[n_figure++] = M_R_OUT;
  if (any_failure) figure_metrics[n_figure++] = M_P_F;
  if (probes_vary) figure_metrics[n_figure++] = M_PROBES;
  figure_metrics[n_figure++] = M_T_ID;
  if (speedup) figure_metrics[n_figure++] = M_SIM_TIME;
  const char *names[N_FIGURE_MAX];
  for (int m = 0; m < n_figure; m++) names[m] = sweep_metrics[figure_metrics[m]];
  double *rows = g_new(double, (size_t)MAX(n_points * sw->n_controllers * n_figure * 3, 1));
  for (int p = 0; p < n_points; p++)
    for (int c = 0; c < sw->n_controllers; c++)
      for (int m = 0; m < n_figure; m++) {
        const double *st = stat(sw, p, c, figure_metrics[m]); /* mean, sd, lo, hi */
        double *dst = &rows[((size_t)(p * sw->n_controllers + c) * n_figure + m) * 3];
        dst[0] = st[0], dst[1] = st[2], dst[2] = st[3];
        if (figure_metrics[m] == M_R_OUT && sw->regret_nonnegative && dst[1] < 0) dst[1] = 0; /* its domain */
      }
  ok = ok && trv_world_report_sweep(sw, dir, table, experiment, seeds, error);
  ok = ok && trv_speedup_write(sw, dir, table, error);
  ok = ok && trv_fault_table_write(sw, dir, table, error);
  ok = ok && trv_saturation_write(sw, dir, table, error);
  ok = ok && sweep_figure(sw, dir, names, n_figure, rows, seeds, error);
  g_free(rows);
  g_free(pcsv);
  g_free(pmd);
  g_string_free(csv, TRUE);
  g_string_free(md, TRUE);
  return ok;
}
