/* warehouse-report.c - the Warehouse world's report (trivium/report.h):
 * the grounding table, the measured Wasserstein-1 distance between the
 * deployed outcomes and the ideal replay's next to the bound
 * W1 <= L (eps + eta) + L rho_c p_f (docs/warehouse.md; its columns in
 * docs/outputs.md).
 *
 * Per episode the world measures `delivered` (what the floor did), `ideal`
 * (the same decisions replayed with perfect actuators and observations and
 * nothing lost to the log), `fd_eps` and `fd_eta` (the same replayed with
 * the noise step world.fd_step on eps, then on eta); the deployed outcome
 * is the episode's `committed_reward`: what the log committed.  Per cell
 * (controller, seed), over its episodes (the columns of episodes.csv, as
 * the program reads them back, so that a merged run gives the same table):
 *   W1      trv_wasserstein1(reward, ideal), exact for the 1-D samples;
 *   p_f     commit_failures / commits, measured by the run;
 *   L       max over eps and eta of |mean(ideal) - mean(fd_*)| / delta:
 *           the finite-difference sensitivity of the mean outcome to the
 *           noise scale; L_w1 the same with W1(fd_*, ideal) for the
 *           difference (the sensitivity of the distribution);
 *   c       sum(delivered - reward) / sum(commit_failures): outcome lost
 *           per failed commit, measured (NAN without failures);
 *   rho_c   c M / L (M due commits per episode), so that L rho_c p_f is the
 *           outcome the failed commits cost per episode;
 *   bound   L (eps + eta) + L rho_c p_f, and bound_w1 with L_w1.
 * A point's row is the mean over its seeds (W1 with its sd), p_f and c
 * pooled over them, its bound from its own L and c (in sample):
 * grounding.csv and grounding.md in the point's directory.  Over a sweep,
 * L, L_w1 and c are the system's constants, estimated on a calibration set
 * of cells and checked on the others (grounding_sweep):
 * grounding.csv, grounding.md and figures/grounding.* in the sweep's
 * directory, the table after the sweep's on the terminal. */
#include <math.h>
#include <string.h>

#include "core/stats.h"
#include "warehouse/warehouse.h"

/* The episodes.csv columns the report reads, in this order. */
enum { COL_REWARD, COL_COMMITS, COL_FAILURES, COL_DELIVERED, COL_IDEAL, COL_FD_EPS, COL_FD_ETA, N_COLS };
static const char *const columns[N_COLS + 1] = {
    "committed_reward", "commits", "commit_failures", "delivered", "ideal", "fd_eps", "fd_eta", NULL};

/* The bound's quantities of one cell, or of a point (its seeds pooled). */
typedef struct {
  int point, controller, seed; /* seed -1: a row over several seeds */
  int seed_index;              /* the seed's place in the run's seeds (a cell's row) */
  int seeds, episodes;         /* episodes per seed */
  double eps, eta;
  double w1, w1_sd; /* W1(reward, ideal); sd over seeds */
  double p_f;       /* commit_failures / commits */
  double mean_reward, mean_ideal;
  double L, L_w1;                 /* finite-difference sensitivities to the noise scale */
  double lost, failures, commits; /* sums (per seed in a point's row) */
  double lost_per_failure, rho_c;
  double bound, bound_w1; /* L (eps + eta) + L rho_c p_f; the same with L_w1 */
} Row;

static double mean_of(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i];
  return n ? s / n : NAN;
}

static void finish(Row *g) {
  g->lost_per_failure = g->failures > 0 ? g->lost / g->failures : NAN;
  g->p_f = g->commits > 0 ? g->failures / g->commits : NAN;
  double m = g->episodes > 0 ? g->commits / g->episodes : 0; /* due commits per episode */
  double fault_term = g->failures > 0 ? g->lost_per_failure * m * g->p_f : 0.0;
  g->rho_c = g->failures > 0 && g->L > 0 ? g->lost_per_failure * m / g->L : NAN;
  g->bound = g->L * (g->eps + g->eta) + fault_term;
  g->bound_w1 = g->L_w1 * (g->eps + g->eta) + fault_term;
}

/* The row of the cell of controller c and seed s; false when it has no
 * episodes in the table. */
static bool cell_row(const TrvReport *r, int c, int s, double eps, double eta, double delta, Row *g) {
  const double *v[N_COLS];
  int n = 0;
  for (int k = 0; k < N_COLS; k++) {
    int nk;
    v[k] = trivium_report_episode_values(r, c, s, columns[k], &nk);
    if (k == 0) n = nk;
    if (!v[k] || nk != n) return false;
  }
  memset(g, 0, sizeof *g);
  g->controller = c;
  g->seed = trivium_report_seed(r, s);
  g->seed_index = s;
  g->seeds = 1;
  g->eps = eps, g->eta = eta;
  g->episodes = n;
  g->w1 = trv_wasserstein1(v[COL_REWARD], (size_t)n, v[COL_IDEAL], (size_t)n);
  g->w1_sd = 0;
  g->mean_reward = mean_of(v[COL_REWARD], n);
  g->mean_ideal = mean_of(v[COL_IDEAL], n);
  double m_eps = mean_of(v[COL_FD_EPS], n), m_eta = mean_of(v[COL_FD_ETA], n);
  g->L = fmax(fabs(g->mean_ideal - m_eps), fabs(g->mean_ideal - m_eta)) / delta;
  g->L_w1 = fmax(trv_wasserstein1(v[COL_FD_EPS], (size_t)n, v[COL_IDEAL], (size_t)n),
                 trv_wasserstein1(v[COL_FD_ETA], (size_t)n, v[COL_IDEAL], (size_t)n)) /
            delta;
  for (int i = 0; i < n; i++) {
    g->lost += v[COL_DELIVERED][i] - v[COL_REWARD][i];
    g->failures += v[COL_FAILURES][i];
    g->commits += v[COL_COMMITS][i];
  }
  finish(g);
  return true;
}

static const char *csv_head = "controller,seed,episodes,eps,eta,p_f,w1,w1_sd,mean_reward,mean_ideal,L,L_w1,"
                              "lost_per_failure,rho_c,bound,bound_w1,holds,holds_w1\n";

static void csv_row(GString *s, const TrvReport *r, const Row *g) {
  g_string_append_printf(s, "%s,", trivium_report_controller(r, g->controller));
  if (g->seed >= 0)
    g_string_append_printf(s, "%d", g->seed);
  else
    g_string_append(s, "all");
  g_string_append_printf(s, ",%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%d\n", g->episodes,
                         g->eps, g->eta, g->p_f, g->w1, g->w1_sd, g->mean_reward, g->mean_ideal, g->L, g->L_w1,
                         g->lost_per_failure, g->rho_c, g->bound, g->bound_w1, g->w1 <= g->bound, g->w1 <= g->bound_w1);
}

/* What a point keeps for the sweep: its cells' rows, and the calibration
 * settings (read here: a sweep's report reads no parameter). */
typedef struct {
  GArray *cells; /* Row, one per controller and seed */
  int calibration_seeds;
  double calibration_p_f;
} PointCells;

static void point_cells_free(void *state) {
  PointCells *k = state;
  g_array_free(k->cells, TRUE);
  g_free(k);
}

/* A point's table (its own constants: an in-sample check), and its cells'
 * rows kept for the sweep. */
static bool grounding_point(TrvReport *r, void **state, GError **error) {
  const TrvParams *params = trivium_report_params(r);
  double eps = 0, eta = 0, delta = 0, cal_seeds = 0, cal_p_f = 0;
  if (!trivium_params_get(params, "world.eps", &eps, error) || !trivium_params_get(params, "world.eta", &eta, error) ||
      !trivium_params_get(params, "world.fd_step", &delta, error) ||
      !trivium_params_get(params, "world.calibration_seeds", &cal_seeds, error) ||
      !trivium_params_get(params, "world.calibration_p_f", &cal_p_f, error))
    return false;
  int point = trivium_report_point(r);
  GArray *cells = g_array_new(FALSE, FALSE, sizeof(Row));
  GString *csv = g_string_new(csv_head), *md = g_string_new(NULL);
  g_string_append_printf(md,
                         "Grounding: W1(deployed, ideal replay) against L (eps + eta) + L rho_c p_f; eps = %g, "
                         "eta = %g, L by finite differences at delta = %g; L and c are this point's own (in sample: "
                         "the sweep's table calibrates them on other points and checks them held out)\n\n"
                         "| controller | seeds | p_f | W1 | L | "
                         "L_w1 | rho_c | bound | bound_w1 | W1 <= bound |\n|---|---|---|---|---|---|---|---|---|---|\n",
                         eps, eta, delta);
  for (int c = 0; c < trivium_report_n_controllers(r); c++) {
    Row all;
    memset(&all, 0, sizeof all);
    all.controller = c, all.seed = -1, all.point = point, all.eps = eps, all.eta = eta;
    GArray *w1s = g_array_new(FALSE, FALSE, sizeof(double));
    for (int s = 0; s < trivium_report_n_seeds(r); s++) {
      Row g;
      if (!cell_row(r, c, s, eps, eta, delta, &g)) continue;
      g.point = point;
      csv_row(csv, r, &g);
      g_array_append_val(cells, g);
      g_array_append_val(w1s, g.w1);
      all.seeds++;
      all.episodes += g.episodes;
      all.mean_reward += g.mean_reward, all.mean_ideal += g.mean_ideal, all.L += g.L, all.L_w1 += g.L_w1;
      all.lost += g.lost, all.failures += g.failures, all.commits += g.commits;
    }
    if (all.seeds == 0) {
      g_array_free(w1s, TRUE);
      continue;
    }
    TrvSummary w = trv_summarize((const double *)w1s->data, w1s->len);
    g_array_free(w1s, TRUE);
    all.w1 = w.mean, all.w1_sd = w.sd;
    all.mean_reward /= all.seeds, all.mean_ideal /= all.seeds, all.L /= all.seeds, all.L_w1 /= all.seeds;
    all.episodes /= all.seeds; /* per seed, so that commits / episodes is M */
    all.commits /= all.seeds, all.failures /= all.seeds, all.lost /= all.seeds;
    finish(&all);
    csv_row(csv, r, &all);
    g_string_append_printf(md, "| %s | %d | %.4g | %.4g ± %.2g | %.4g | %.4g | %.4g | %.4g | %.4g | %s |\n",
                           trivium_report_controller(r, c), all.seeds, all.p_f, all.w1, all.w1_sd, all.L, all.L_w1,
                           all.rho_c, all.bound, all.bound_w1, all.w1 <= all.bound ? "yes" : "no");
  }
  bool ok = trivium_report_table(r, "grounding", csv->str, md->str, error);
  g_string_free(csv, TRUE);
  g_string_free(md, TRUE);
  if (ok) {
    PointCells *kept = g_new(PointCells, 1);
    *kept = (PointCells){cells, (int)cal_seeds, cal_p_f};
    *state = kept;
  } else {
    g_array_free(cells, TRUE);
  }
  return ok;
}

/* ---- the sweep: constants from a calibration set, the bound held out ----
 *
 * Over a sweep, L, L_w1 and c are constants of the system, estimated on a
 * calibration set and checked elsewhere.  The calibration set is the
 * cells of the run's first world.calibration_seeds seeds at the points
 * whose p_f, pooled over those seeds, is at most world.calibration_p_f;
 * per controller, L and L_w1 are the means of its cells' estimates and c
 * the outcome lost per failed commit pooled over them.  Every point then
 * has up to two rows per controller: its calibration seeds and its other
 * seeds, each with its own W1 (mean and sd over the row's seeds) and p_f
 * (pooled), and the bound from the calibration constants.  A row's role
 * says what it is held out from: calibration (in the set: an in-sample
 * check), new p_f (the calibration seeds at a p_f above the threshold),
 * new seeds (other seeds at a calibrated p_f), new seeds and p_f. */

enum { ROLE_CALIBRATION, ROLE_NEW_PF, ROLE_NEW_SEEDS, ROLE_NEW_BOTH, N_ROLES };
/* as grounding.md and grounding.csv name them */
static const char *const role_names[N_ROLES] = {"calibration", "held out: new p_f", "held out: new seeds",
                                                "held out: new seeds and p_f"};
static const char *const role_ids[N_ROLES] = {"calibration", "new_p_f", "new_seeds", "new_seeds_and_p_f"};

typedef struct {
  double L, L_w1, cost; /* cost: outcome lost per failed commit (NAN: no failed commit in the set) */
  int cells, points;    /* calibration cells and points */
} Constants;

/* The cells of controller c at point p whose seed is (cal) or is not (!cal)
 * among the first n_cal seeds, pooled into one row; false when none. */
static bool pool_cells(const GArray *cells, int c, bool cal, int n_cal, Row *out) {
  memset(out, 0, sizeof *out);
  double w1 = 0, w1_sq = 0;
  for (guint i = 0; cells && i < cells->len; i++) {
    const Row *g = &g_array_index(cells, Row, i);
    if (g->controller != c || (g->seed_index < n_cal) != cal) continue;
    if (out->seeds == 0) out->point = g->point, out->controller = c, out->eps = g->eps, out->eta = g->eta;
    out->seeds++;
    out->episodes += g->episodes;
    w1 += g->w1, w1_sq += g->w1 * g->w1;
    out->mean_reward += g->mean_reward, out->mean_ideal += g->mean_ideal, out->L += g->L, out->L_w1 += g->L_w1;
    out->lost += g->lost, out->failures += g->failures, out->commits += g->commits;
  }
  if (out->seeds == 0) return false;
  double n = out->seeds;
  out->seed = -1;
  out->w1 = w1 / n;
  out->w1_sd = n > 1 ? sqrt(fmax(0, (w1_sq - n * out->w1 * out->w1) / (n - 1))) : 0;
  out->mean_reward /= n, out->mean_ideal /= n, out->L /= n, out->L_w1 /= n; /* episodes and the sums stay totals */
  out->p_f = out->commits > 0 ? out->failures / out->commits : NAN;
  out->lost_per_failure = out->failures > 0 ? out->lost / out->failures : NAN;
  return true;
}

/* Whether point p's p_f, pooled over controller c's calibration seeds, is
 * at most the threshold (no calibration seed there: false). */
static bool calibrated_point(const GArray *cells, int c, int n_cal, double threshold) {
  Row g;
  return pool_cells(cells, c, true, n_cal, &g) && !(g.p_f > threshold);
}

static Constants calibrate(void *const *states, int n_points, int c, int n_cal, double threshold) {
  Constants k = {0, 0, NAN, 0, 0};
  double lost = 0, failures = 0;
  for (int p = 0; p < n_points; p++) {
    const GArray *cells = states[p] ? ((const PointCells *)states[p])->cells : NULL;
    if (!calibrated_point(cells, c, n_cal, threshold)) continue;
    k.points++;
    for (guint i = 0; i < cells->len; i++) {
      const Row *g = &g_array_index(cells, Row, i);
      if (g->controller != c || g->seed_index >= n_cal) continue;
      k.cells++;
      k.L += g->L, k.L_w1 += g->L_w1, lost += g->lost, failures += g->failures;
    }
  }
  if (k.cells == 0) return (Constants){NAN, NAN, NAN, 0, 0};
  k.L /= k.cells, k.L_w1 /= k.cells;
  if (failures > 0) k.cost = lost / failures;
  return k;
}

/* The fault term c M p_f of a row (0 without failures; NAN when it failed
 * commits but the calibration measured no cost). */
static double fault_term(const Constants *k, const Row *g) {
  if (!(g->p_f > 0)) return 0.0;
  double m = g->episodes > 0 ? g->commits / g->episodes : 0; /* due commits per episode (both totals over seeds) */
  return k->cost * m * g->p_f;
}

typedef struct {
  int held[N_ROLES], judged[N_ROLES], unjudged[N_ROLES];
} Verdicts;

/* The sweep's cells of point p (-1: the keys' names) into csv or md alone. */
static void key_cells(const TrvReport *r, int p, GString *csv, GString *md) {
  GString *scratch = g_string_new(NULL);
  trivium_report_point_cells(r, p, csv ? csv : scratch, md ? md : scratch);
  g_string_free(scratch, TRUE);
}

static bool grounding_sweep(TrvReport *r, void *const *states, int n_points, GError **error) {
  const PointCells *first = NULL;
  for (int p = 0; p < n_points && !first; p++)
    if (states[p] && ((const PointCells *)states[p])->cells->len > 0) first = states[p];
  if (!first) return true;
  /* the calibration settings are the first point's (a sweep of them would
   * mix calibrations: the points all use these) */
  int n_cal = first->calibration_seeds, n_seeds = trivium_report_n_seeds(r);
  double threshold = first->calibration_p_f;
  int nc = trivium_report_n_controllers(r);
  Constants *k = g_new(Constants, nc);
  Verdicts *v = g_new0(Verdicts, nc);
  GString *csv = g_string_new("point"), *rows = g_string_new(NULL), *md = g_string_new(NULL);
  key_cells(r, -1, csv, NULL);
  g_string_append(csv, ",controller,role,seeds,eps,eta,p_f,w1,w1_sd,mean_reward,mean_ideal,L_point,L,L_w1,"
                       "lost_per_failure,cost,rho_c,bound,bound_w1,margin,holds,holds_w1\n");
  g_string_append(rows, "| point");
  key_cells(r, -1, NULL, rows);
  g_string_append(rows, " | controller | role | seeds | p_f | W1 | bound | W1 / bound | holds | bound_w1 | holds_w1 "
                        "|\n|");
  for (int i = 0; i < trivium_report_n_keys(r) + 11; i++) g_string_append(rows, "---|");
  g_string_append_c(rows, '\n');
  /* the figure: per point and controller W1 of the calibration seeds and of the others (+- sd), and the bound */
  int n_series = 3 * nc;
  double *fig = g_new(double, (size_t)MAX(n_points * n_series * 3, 1));
  for (int i = 0; i < n_points * n_series * 3; i++) fig[i] = NAN;
  for (int c = 0; c < nc; c++) k[c] = calibrate(states, n_points, c, n_cal, threshold);
  for (int p = 0; p < n_points; p++)
    for (int c = 0; c < nc; c++) {
      const GArray *cells = states[p] ? ((const PointCells *)states[p])->cells : NULL;
      bool calibrated = calibrated_point(cells, c, n_cal, threshold);
      for (int group = 0; group < 2; group++) {
        Row g;
        if (!pool_cells(cells, c, group == 0, n_cal, &g)) continue;
        int role = group == 0   ? (calibrated ? ROLE_CALIBRATION : ROLE_NEW_PF)
                   : calibrated ? ROLE_NEW_SEEDS
                                : ROLE_NEW_BOTH;
        double ft = fault_term(&k[c], &g), m = g.episodes > 0 ? g.commits / g.episodes : 0;
        double bound = k[c].L * (g.eps + g.eta) + ft, bound_w1 = k[c].L_w1 * (g.eps + g.eta) + ft;
        double rho_c = k[c].L > 0 ? k[c].cost * m / k[c].L : NAN;
        const char *name = trivium_report_controller(r, c);
        g_string_append_printf(csv, "%d", p);
        key_cells(r, p, csv, NULL);
        g_string_append_printf(
            csv, ",%s,%s,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g", name,
            role_ids[role], g.seeds, g.eps, g.eta, g.p_f, g.w1, g.w1_sd, g.mean_reward, g.mean_ideal, g.L, k[c].L,
            k[c].L_w1, g.lost_per_failure, k[c].cost, rho_c, bound, bound_w1, bound - g.w1);
        if (isnan(bound))
          g_string_append(csv, ",nan,nan\n");
        else
          g_string_append_printf(csv, ",%d,%d\n", g.w1 <= bound, g.w1 <= bound_w1);
        g_string_append_printf(rows, "| %d", p);
        key_cells(r, p, NULL, rows);
        g_string_append_printf(rows, " | %s | %s | %d | %.3g | %.3g ± %.2g | %.3g | %.3g | %s | %.3g | %s |\n", name,
                               role_names[role], g.seeds, g.p_f, g.w1, g.w1_sd, bound, bound > 0 ? g.w1 / bound : NAN,
                               isnan(bound)    ? "-"
                               : g.w1 <= bound ? "yes"
                                               : "no",
                               bound_w1,
                               isnan(bound_w1)    ? "-"
                               : g.w1 <= bound_w1 ? "yes"
                                                  : "no");
        if (isnan(bound))
          v[c].unjudged[role]++;
        else
          v[c].judged[role]++, v[c].held[role] += g.w1 <= bound;
        double *w = &fig[(size_t)(p * n_series + 3 * c) * 3];
        w[3 * group] = g.w1, w[3 * group + 1] = g.w1 - g.w1_sd, w[3 * group + 2] = g.w1 + g.w1_sd;
        if (group == 1 || isnan(w[6])) w[6] = w[7] = w[8] = bound;
      }
    }
  g_string_append_printf(
      md,
      "Calibration: the cells of the first %d of %d seeds at the points whose p_f there is at "
      "most %g; per controller L and L_w1 the mean of those cells' finite-difference estimates, "
      "c the outcome lost per failed commit pooled over them, rho_c = c M / L.  The bound is "
      "checked with these constants on every point: on the calibration set itself (in sample) "
      "and held out (new p_f: the calibration seeds at the other points; new seeds: the other "
      "seeds)\n\n| controller | calibration cells | points | L | L_w1 | c |\n|---|---|---|---|---|---|\n",
      MIN(n_cal, n_seeds), n_seeds, threshold);
  for (int c = 0; c < nc; c++)
    g_string_append_printf(md, "| %s | %d | %d | %.4g | %.4g | %.4g |\n", trivium_report_controller(r, c), k[c].cells,
                           k[c].points, k[c].L, k[c].L_w1, k[c].cost);
  g_string_append(md, "\n| controller | role | bound holds | rows without a bound |\n|---|---|---|---|\n");
  for (int c = 0; c < nc; c++)
    for (int role = 0; role < N_ROLES; role++) {
      if (v[c].judged[role] + v[c].unjudged[role] == 0) continue;
      g_string_append_printf(md, "| %s | %s | %d of %d | %d |\n", trivium_report_controller(r, c), role_names[role],
                             v[c].held[role], v[c].judged[role], v[c].unjudged[role]);
    }
  g_string_append_printf(md, "\n%s", rows->str);
  char **series = g_new0(char *, (size_t)n_series + 1);
  for (int c = 0; c < nc; c++) {
    const char *name = trivium_report_controller(r, c);
    series[3 * c] = g_strdup_printf("W1, calibration seeds, %s", name);
    series[3 * c + 1] = g_strdup_printf("W1, held-out seeds, %s", name);
    series[3 * c + 2] = g_strdup_printf("bound L(eps+eta) + L rho_c p_f, %s", name);
  }
  TrvReportFigure figure = {
      .name = "grounding",
      .caption = "grounding: per point and controller the measured Wasserstein-1 distance W1 between the deployed "
                 "and the ideal deliveries per episode (mean over the calibration seeds and over the held-out seeds, "
                 "bars +- one sd over seeds, clipped at 0) and the bound L(eps+eta) + L rho_c p_f with the "
                 "constants of the calibration set (one value, no interval; the held-out seeds' p_f where there are "
                 "any).\n",
      .measure = "W1",
      .label = "W1 (deliveries per episode)",
      .lower = 0,
      .upper = INFINITY,
      .n_series = n_series,
      .series = (const char *const *)series,
      .rows = fig,
  };
  char *text = g_strdup_printf("\nGrounding: measured W1 against the bound, calibrated and held out\n\n%s", md->str);
  bool ok = trivium_report_table(r, "grounding", csv->str, md->str, error) && trivium_report_figure(r, &figure, error);
  if (ok) trivium_report_text(r, text);
  g_free(text);
  g_strfreev(series);
  g_free(fig);
  g_free(k);
  g_free(v);
  g_string_free(csv, TRUE);
  g_string_free(rows, TRUE);
  g_string_free(md, TRUE);
  return ok;
}

const TrvReportClass trv_warehouse_report = {
    .episode_columns = columns,
    .point = grounding_point,
    .sweep = grounding_sweep,
    .free_state = point_cells_free,
};
