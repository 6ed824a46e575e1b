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
 * pooled over them: grounding.csv and grounding.md in the point's
 * directory.  Over a sweep, L, L_w1 and c are the system's constants (see
 * sweep_constants): grounding.csv, grounding.md and figures/grounding.* in
 * the sweep's directory, the table after the sweep's on the terminal. */
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
  int point, controller, seed; /* seed -1: the point's row, over its seeds */
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

/* A point's table, and its rows (one per controller) kept for the sweep. */
static bool grounding_point(TrvReport *r, void **state, GError **error) {
  const TrvParams *params = trivium_report_params(r);
  double eps = 0, eta = 0, delta = 0;
  if (!trivium_params_get(params, "world.eps", &eps, error) || !trivium_params_get(params, "world.eta", &eta, error) ||
      !trivium_params_get(params, "world.fd_step", &delta, error))
    return false;
  int point = trivium_report_point(r);
  GArray *rows = g_array_new(FALSE, FALSE, sizeof(Row));
  GString *csv = g_string_new(csv_head), *md = g_string_new(NULL);
  g_string_append_printf(md,
                         "Grounding: W1(deployed, ideal replay) against L (eps + eta) + L rho_c p_f; eps = %g, "
                         "eta = %g, L by finite differences at delta = %g\n\n| controller | seeds | p_f | W1 | L | "
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
      csv_row(csv, r, &g);
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
    g_array_append_val(rows, all);
  }
  bool ok = trivium_report_table(r, "grounding", csv->str, md->str, error);
  g_string_free(csv, TRUE);
  g_string_free(md, TRUE);
  if (ok)
    *state = rows;
  else
    g_array_free(rows, TRUE);
  return ok;
}

/* Over a sweep, L, L_w1 and c are the system's constants: per controller,
 * L and L_w1 the mean of the points' estimates and c the pooled outcome
 * lost per failed commit over every point; each point's bound uses them
 * with the point's own eps, eta and measured p_f. */
static void sweep_constants(void *const *states, int n_points, int c, double *L, double *L_w1, double *cost) {
  double n = 0, lost = 0, failures = 0;
  *L = *L_w1 = 0;
  for (int p = 0; p < n_points; p++)
    for (guint i = 0; states[p] && i < ((GArray *)states[p])->len; i++) {
      const Row *g = &g_array_index((GArray *)states[p], Row, i);
      if (g->controller != c) continue;
      n++;
      *L += g->L, *L_w1 += g->L_w1, lost += g->lost, failures += g->failures;
    }
  *L /= n, *L_w1 /= n;
  *cost = failures > 0 ? lost / failures : 0.0;
}

/* The first row of controller c over the points, or NULL. */
static const Row *any_row(void *const *states, int n_points, int c) {
  for (int p = 0; p < n_points; p++)
    for (guint i = 0; states[p] && i < ((GArray *)states[p])->len; i++)
      if (g_array_index((GArray *)states[p], Row, i).controller == c)
        return &g_array_index((GArray *)states[p], Row, i);
  return NULL;
}

static bool grounding_sweep(TrvReport *r, void *const *states, int n_points, GError **error) {
  bool any = false;
  for (int p = 0; p < n_points && !any; p++) any = states[p] && ((GArray *)states[p])->len > 0;
  if (!any) return true;
  int nc = trivium_report_n_controllers(r);
  GString *csv = g_string_new("point"), *md = g_string_new(NULL);
  g_string_append(md, "Constants over the sweep (per controller): L and L_w1 the mean of the points' finite-difference "
                      "estimates, c the outcome lost per failed commit pooled over the points, rho_c = c M / L\n\n"
                      "| controller | L | L_w1 | c | rho_c |\n|---|---|---|---|---|\n");
  double *L = g_new(double, nc), *L_w1 = g_new(double, nc), *cost = g_new(double, nc);
  for (int c = 0; c < nc; c++) {
    sweep_constants(states, n_points, c, &L[c], &L_w1[c], &cost[c]);
    const Row *first = any_row(states, n_points, c);
    double m = first && first->episodes ? first->commits / first->episodes : 0;
    g_string_append_printf(md, "| %s | %.4g | %.4g | %.4g | %.4g |\n", trivium_report_controller(r, c), L[c], L_w1[c],
                           cost[c], L[c] > 0 ? cost[c] * m / L[c] : NAN);
  }
  g_string_append(md, "\n| point");
  trivium_report_point_cells(r, -1, csv, md);
  g_string_append(csv, ",controller,eps,eta,p_f,w1,w1_sd,mean_reward,mean_ideal,L_point,L,L_w1,lost_per_failure,rho_c,"
                       "bound,bound_w1,margin,holds,holds_w1\n");
  g_string_append(md, " | controller | p_f | W1 | bound | W1 / bound | holds | bound_w1 | holds_w1 |\n|");
  for (int k = 0; k < trivium_report_n_keys(r) + 9; k++) g_string_append(md, "---|");
  g_string_append_c(md, '\n');
  /* the figure: per point and controller W1 with +- its sd over seeds, and the bound (no interval) */
  int n_series = 2 * nc;
  double *fig = g_new(double, (size_t)MAX(n_points * n_series * 3, 1));
  for (int k = 0; k < n_points * n_series * 3; k++) fig[k] = NAN;
  for (int p = 0; p < n_points; p++)
    for (guint i = 0; states[p] && i < ((GArray *)states[p])->len; i++) {
      const Row *g = &g_array_index((GArray *)states[p], Row, i);
      int c = g->controller;
      double m = g->episodes ? g->commits / g->episodes : 0;
      double fault_term = cost[c] * m * g->p_f, rho_c = L[c] > 0 ? cost[c] * m / L[c] : NAN;
      double bound = L[c] * (g->eps + g->eta) + fault_term, bound_w1 = L_w1[c] * (g->eps + g->eta) + fault_term;
      g_string_append_printf(csv, "%d", g->point);
      g_string_append_printf(md, "| %d", g->point);
      trivium_report_point_cells(r, g->point, csv, md);
      const char *name = trivium_report_controller(r, c);
      g_string_append_printf(
          csv, ",%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%d\n", name, g->eps,
          g->eta, g->p_f, g->w1, g->w1_sd, g->mean_reward, g->mean_ideal, g->L, L[c], L_w1[c], g->lost_per_failure,
          rho_c, bound, bound_w1, bound - g->w1, g->w1 <= bound, g->w1 <= bound_w1);
      g_string_append_printf(md, " | %s | %.3g | %.3g ± %.2g | %.3g | %.3g | %s | %.3g | %s |\n", name, g->p_f, g->w1,
                             g->w1_sd, bound, bound > 0 ? g->w1 / bound : NAN, g->w1 <= bound ? "yes" : "no", bound_w1,
                             g->w1 <= bound_w1 ? "yes" : "no");
      double *w = &fig[(size_t)(g->point * nc + c) * 6];
      w[0] = g->w1, w[1] = g->w1 - g->w1_sd, w[2] = g->w1 + g->w1_sd;
      w[3] = w[4] = w[5] = bound;
    }
  char **series = g_new0(char *, (size_t)n_series + 1);
  for (int c = 0; c < nc; c++) {
    series[2 * c] = g_strdup_printf("W1 measured, %s", trivium_report_controller(r, c));
    series[2 * c + 1] = g_strdup_printf("bound L(eps+eta) + L rho_c p_f, %s", trivium_report_controller(r, c));
  }
  TrvReportFigure figure = {
      .name = "grounding",
      .caption = "grounding: per point and controller the measured Wasserstein-1 distance W1 between the deployed "
                 "and the ideal deliveries per episode (mean over seeds, bars +- one sd over seeds, clipped at 0) and "
                 "the bound L(eps+eta) + L rho_c p_f (one value, no interval).\n",
      .measure = "W1",
      .label = "W1 (deliveries per episode)",
      .lower = 0,
      .upper = INFINITY,
      .n_series = n_series,
      .series = (const char *const *)series,
      .rows = fig,
  };
  char *text = g_strdup_printf("\nGrounding: measured W1 against the bound per point\n\n%s", md->str);
  bool ok = trivium_report_table(r, "grounding", csv->str, md->str, error) && trivium_report_figure(r, &figure, error);
  if (ok) trivium_report_text(r, text);
  g_free(text);
  g_strfreev(series);
  g_free(fig);
  g_free(L);
  g_free(L_w1);
  g_free(cost);
  g_string_free(csv, TRUE);
  g_string_free(md, TRUE);
  return ok;
}

static void rows_free(void *state) { g_array_free(state, TRUE); }

const TrvReportClass trv_warehouse_report = {
    .episode_columns = columns,
    .point = grounding_point,
    .sweep = grounding_sweep,
    .free_state = rows_free,
};
