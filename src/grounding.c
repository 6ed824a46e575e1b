/* grounding.c - the grounding table of a run whose world replays its
 * episodes ideally (the Warehouse world, docs/warehouse.md): the measured
 * Wasserstein-1 distance between the deployed outcomes and the ideal
 * replay's, next to the bound W1 <= L (eps + eta) + L rho_c p_f.
 *
 * A world takes part by naming, among its episode metrics, `delivered`
 * (what the floor did), `ideal` (the same decisions replayed with perfect
 * actuators and observations and nothing lost to the log), `fd_eps` and
 * `fd_eta` (the same replayed with the noise step world.fd_step on eps,
 * then on eta).  The deployed outcome is the episode's `committed_reward`: what the
 * log committed.  Per cell (controller, seed), over its episodes:
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
 * pooled over them.  Reads the point's episodes.csv (grounding-read.c:
 * bounded, every field it uses checked), so a merged run (cells run
 * elsewhere) gives the same table.  Documented in docs/outputs.md. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "figures.h"
#include "grounding-read.h"
#include "run.h"

static double mean_of(const GArray *a) {
  double s = 0;
  for (guint i = 0; i < a->len; i++) s += g_array_index(a, double, i);
  return a->len ? s / a->len : NAN;
}

static double w1_of(const GArray *x, const GArray *y) {
  return trv_wasserstein1((const double *)x->data, x->len, (const double *)y->data, y->len);
}

static bool takes_part(const TrvCellLayout *l) {
  static const char *const need[] = {"delivered", "ideal", "fd_eps", "fd_eta"};
  for (size_t k = 0; k < G_N_ELEMENTS(need); k++) {
    bool found = false;
    for (int i = 0; l->metric_names && l->metric_names[i] && !found; i++) found = !strcmp(l->metric_names[i], need[k]);
    if (!found) return false;
  }
  return true;
}

/* The bound's quantities of one cell, or of pooled sums (see the top). */
static void finish(TrvGroundingRow *g) {
  g->lost_per_failure = g->failures > 0 ? g->lost / g->failures : NAN;
  g->p_f = g->commits > 0 ? g->failures / g->commits : NAN;
  double m = g->episodes > 0 ? g->commits / g->episodes : 0; /* due commits per episode */
  double fault_term = g->failures > 0 ? g->lost_per_failure * m * g->p_f : 0.0;
  g->rho_c = g->failures > 0 && g->L > 0 ? g->lost_per_failure * m / g->L : NAN;
  g->bound = g->L * (g->eps + g->eta) + fault_term;
  g->bound_w1 = g->L_w1 * (g->eps + g->eta) + fault_term;
}

static void cell_row(const TrvGroundingCell *c, double eps, double eta, double delta, TrvGroundingRow *g) {
  memset(g, 0, sizeof *g);
  g->controller = c->controller;
  g->seed = c->seed;
  g->seeds = 1;
  g->eps = eps, g->eta = eta;
  g->episodes = (int)c->v[0]->len;
  g->w1 = w1_of(c->v[0], c->v[1]);
  g->w1_sd = 0;
  g->mean_reward = mean_of(c->v[0]);
  g->mean_ideal = mean_of(c->v[1]);
  g->L = fmax(fabs(g->mean_ideal - mean_of(c->v[2])), fabs(g->mean_ideal - mean_of(c->v[3]))) / delta;
  g->L_w1 = fmax(w1_of(c->v[2], c->v[1]), w1_of(c->v[3], c->v[1])) / delta;
  g->lost = c->lost, g->failures = c->failures, g->commits = c->commits;
  finish(g);
}

static const char *csv_head = "controller,seed,episodes,eps,eta,p_f,w1,w1_sd,mean_reward,mean_ideal,L,L_w1,"
                              "lost_per_failure,rho_c,bound,bound_w1,holds,holds_w1\n";

static void csv_row(GString *s, const TrvRunResult *res, const TrvGroundingRow *g) {
  g_string_append_printf(s, "%s,", res->controllers[g->controller]);
  if (g->seed >= 0) g_string_append_printf(s, "%d", g->seed);
  else g_string_append(s, "all");
  g_string_append_printf(s, ",%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%d\n",
                         g->episodes, g->eps, g->eta, g->p_f, g->w1, g->w1_sd, g->mean_reward, g->mean_ideal, g->L,
                         g->L_w1, g->lost_per_failure, g->rho_c, g->bound, g->bound_w1, g->w1 <= g->bound,
                         g->w1 <= g->bound_w1);
}

bool trv_grounding_point(const TrvRunResult *res, const char *dir, int point, GArray *rows, GError **error) {
  if (!takes_part(res->layout)) return true;
  double eps = 0, eta = 0, delta = 0;
  if (!trivium_params_get(res->params, "world.eps", &eps, error) ||
      !trivium_params_get(res->params, "world.eta", &eta, error) ||
      !trivium_params_get(res->params, "world.fd_step", &delta, error))
    return false;
  char *path = g_build_filename(dir, "episodes.csv", NULL);
  long max_rows = (long)res->n_controllers * res->n_seeds * res->layout->episodes;
  GPtrArray *cells = trv_grounding_read(path, res->controllers, res->n_controllers, max_rows, error);
  g_free(path);
  if (!cells) return false;
  GString *csv = g_string_new(csv_head);
  GString *md = g_string_new(NULL);
  g_string_append_printf(md, "Grounding: W1(deployed, ideal replay) against L (eps + eta) + L rho_c p_f; eps = %g, "
                         "eta = %g, L by finite differences at delta = %g\n\n| controller | seeds | p_f | W1 | L | "
                         "L_w1 | rho_c | bound | bound_w1 | W1 <= bound |\n|---|---|---|---|---|---|---|---|---|---|\n",
                         eps, eta, delta);
  for (int c = 0; c < res->n_controllers; c++) {
    TrvGroundingRow all;
    memset(&all, 0, sizeof all);
    all.controller = c, all.seed = -1, all.point = point, all.eps = eps, all.eta = eta;
    GArray *w1s = g_array_new(FALSE, FALSE, sizeof(double));
    for (guint i = 0; i < cells->len; i++) {
      const TrvGroundingCell *cell = g_ptr_array_index(cells, i);
      if (cell->controller != c) continue;
      TrvGroundingRow g;
      cell_row(cell, eps, eta, delta, &g);
      csv_row(csv, res, &g);
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
    csv_row(csv, res, &all);
    g_string_append_printf(md, "| %s | %d | %.4g | %.4g ± %.2g | %.4g | %.4g | %.4g | %.4g | %.4g | %s |\n",
                           res->controllers[c], all.seeds, all.p_f, all.w1, all.w1_sd, all.L, all.L_w1, all.rho_c,
                           all.bound, all.bound_w1, all.w1 <= all.bound ? "yes" : "no");
    if (rows) g_array_append_val(rows, all);
  }
  g_ptr_array_free(cells, TRUE);
  char *pcsv = g_build_filename(dir, "grounding.csv", NULL), *pmd = g_build_filename(dir, "grounding.md", NULL);
  bool ok = trv_write_file_atomic(pcsv, csv->str, (gssize)csv->len, error) &&
            trv_write_file_atomic(pmd, md->str, (gssize)md->len, error);
  g_free(pcsv);
  g_free(pmd);
  g_string_free(csv, TRUE);
  g_string_free(md, TRUE);
  return ok;
}

/* Over a sweep, L, L_w1 and c are the system's constants: per controller,
 * L and L_w1 the mean of the points' estimates and c the pooled outcome
 * lost per failed commit over every point; each point's bound uses them
 * with the point's own eps, eta and measured p_f. */
static void sweep_constants(const GArray *rows, int c, double *L, double *L_w1, double *cost) {
  double n = 0, lost = 0, failures = 0;
  *L = *L_w1 = 0;
  for (guint i = 0; i < rows->len; i++) {
    const TrvGroundingRow *g = &g_array_index(rows, TrvGroundingRow, i);
    if (g->controller != c) continue;
    n++;
    *L += g->L, *L_w1 += g->L_w1, lost += g->lost, failures += g->failures;
  }
  *L /= n, *L_w1 /= n;
  *cost = failures > 0 ? lost / failures : 0.0;
}

bool trv_grounding_sweep_write(const TrvSweepTable *sw, const char *dir, FILE *table, GError **error) {
  const GArray *rows = sw->grounding;
  if (!rows || rows->len == 0) return true;
  int n_points = (int)sw->values->len, nc = sw->n_controllers;
  GString *csv = g_string_new("point"), *md = g_string_new(NULL);
  g_string_append(md, "Constants over the sweep (per controller): L and L_w1 the mean of the points' finite-difference "
                      "estimates, c the outcome lost per failed commit pooled over the points, rho_c = c M / L\n\n"
                      "| controller | L | L_w1 | c | rho_c |\n|---|---|---|---|---|\n");
  double *L = g_new(double, nc), *L_w1 = g_new(double, nc), *cost = g_new(double, nc);
  for (int c = 0; c < nc; c++) {
    sweep_constants(rows, c, &L[c], &L_w1[c], &cost[c]);
    const TrvGroundingRow *any = NULL;
    for (guint i = 0; i < rows->len && !any; i++)
      if (g_array_index(rows, TrvGroundingRow, i).controller == c) any = &g_array_index(rows, TrvGroundingRow, i);
    double m = any && any->episodes ? any->commits / any->episodes : 0;
    g_string_append_printf(md, "| %s | %.4g | %.4g | %.4g | %.4g |\n", sw->controllers[c], L[c], L_w1[c], cost[c],
                           L[c] > 0 ? cost[c] * m / L[c] : NAN);
  }
  g_string_append(md, "\n| point");
  trv_sweep_cells(csv, md, sw->keys, sw->n_keys);
  g_string_append(csv, ",controller,eps,eta,p_f,w1,w1_sd,mean_reward,mean_ideal,L_point,L,L_w1,lost_per_failure,rho_c,"
                       "bound,bound_w1,margin,holds,holds_w1\n");
  g_string_append(md, " | controller | p_f | W1 | bound | W1 / bound | holds | bound_w1 | holds_w1 |\n|");
  for (int k = 0; k < sw->n_keys + 9; k++) g_string_append(md, "---|");
  g_string_append_c(md, '\n');
  double *fig = g_new(double, (size_t)MAX(n_points * nc * 4, 1));
  for (int k = 0; k < n_points * nc * 4; k++) fig[k] = NAN;
  for (guint i = 0; i < rows->len; i++) {
    const TrvGroundingRow *g = &g_array_index(rows, TrvGroundingRow, i);
    int c = g->controller;
    double m = g->episodes ? g->commits / g->episodes : 0;
    double fault_term = cost[c] * m * g->p_f, rho_c = L[c] > 0 ? cost[c] * m / L[c] : NAN;
    double bound = L[c] * (g->eps + g->eta) + fault_term, bound_w1 = L_w1[c] * (g->eps + g->eta) + fault_term;
    char **v = g_ptr_array_index(sw->values, g->point);
    g_string_append_printf(csv, "%d", g->point);
    g_string_append_printf(md, "| %d", g->point);
    trv_sweep_cells(csv, md, v, sw->n_keys);
    const char *name = sw->controllers[c];
    g_string_append_printf(csv, ",%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%d\n",
                           name, g->eps, g->eta, g->p_f, g->w1, g->w1_sd, g->mean_reward, g->mean_ideal, g->L, L[c],
                           L_w1[c], g->lost_per_failure, rho_c, bound, bound_w1, bound - g->w1, g->w1 <= bound,
                           g->w1 <= bound_w1);
    g_string_append_printf(md, " | %s | %.3g | %.3g ± %.2g | %.3g | %.3g | %s | %.3g | %s |\n", name, g->p_f, g->w1,
                           g->w1_sd, bound, bound > 0 ? g->w1 / bound : NAN, g->w1 <= bound ? "yes" : "no", bound_w1,
                           g->w1 <= bound_w1 ? "yes" : "no");
    double *cell = &fig[(size_t)(g->point * nc + c) * 4];
    cell[0] = g->w1, cell[1] = g->w1_sd, cell[2] = bound, cell[3] = 0;
  }
  g_free(L);
  g_free(L_w1);
  g_free(cost);
  char *pcsv = g_build_filename(dir, "grounding.csv", NULL), *pmd = g_build_filename(dir, "grounding.md", NULL);
  bool ok = trv_write_file_atomic(pcsv, csv->str, (gssize)csv->len, error) &&
            trv_write_file_atomic(pmd, md->str, (gssize)md->len, error);
  if (ok && table) fprintf(table, "\nGrounding: measured W1 against the bound per point\n\n%s", md->str);
  char *key = g_strjoinv(", ", sw->keys);
  char **ticks = g_new0(char *, n_points + 1);
  for (int p = 0; p < n_points; p++) ticks[p] = g_strjoinv(", ", g_ptr_array_index(sw->values, p));
  ok = ok && trv_write_grounding_figure(dir, key, ticks, n_points, sw->controllers, nc, fig, error);
  g_strfreev(ticks);
  g_free(key);
  g_free(fig);
  g_free(pcsv);
  g_free(pmd);
  g_string_free(csv, TRUE);
  g_string_free(md, TRUE);
  return ok;
}
