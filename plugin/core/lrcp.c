/* lrcp.c - rolling probe windows, the residual test and local repair.
 * Windows are ring buffers of fixed capacity; the oldest probe is dropped. */
#include "lrcp.h"

#include <glib.h>
#include <math.h>
#include <string.h>

struct TrvProbeWindows {
  int n, cap;
  int *len, *head; /* per component: probes held, next write slot */
  double *z, *w;   /* n * cap */
};

TrvProbeWindows *trv_probe_windows_new(int n_components, int window) {
  g_assert(window > 0);
  TrvProbeWindows *pw = g_new0(TrvProbeWindows, 1);
  pw->n = n_components;
  pw->cap = window;
  pw->len = g_new0(int, n_components);
  pw->head = g_new0(int, n_components);
  pw->z = g_new0(double, (size_t)n_components *window);
  pw->w = g_new0(double, (size_t)n_components *window);
  return pw;
}

void trv_probe_windows_free(TrvProbeWindows *pw) {
  if (!pw) return;
  g_free(pw->len);
  g_free(pw->head);
  g_free(pw->z);
  g_free(pw->w);
  g_free(pw);
}

void trv_probe_windows_push(TrvProbeWindows *pw, int j, double z, double w) {
  size_t at = (size_t)j * pw->cap + pw->head[j];
  pw->z[at] = z;
  pw->w[at] = w;
  pw->head[j] = (pw->head[j] + 1) % pw->cap;
  if (pw->len[j] < pw->cap) pw->len[j]++;
}

void trv_probe_windows_clear(TrvProbeWindows *pw, int j) { pw->len[j] = pw->head[j] = 0; }

double trv_lrcp_residual_z(const TrvProbeWindows *pw, int j, const TrvGraph *ghat, double s2) {
  double k = ghat->present[j] ? ghat->kappa[j] : 0.0, szr = 0, szz = 0;
  for (int i = 0; i < pw->len[j]; i++) {
    size_t at = (size_t)j * pw->cap + i;
    szr += pw->z[at] * (pw->w[at] - k * pw->z[at]);
    szz += pw->z[at] * pw->z[at];
  }
  return szz > 0 ? szr / sqrt(s2 * szz) : 0.0;
}

int trv_constraint_violated(const TrvProbeWindows *pw, const TrvGraph *ghat, double s2, double z_max, bool *violated) {
  int count = 0;
  for (int j = 0; j < pw->n; j++) {
    bool v = fabs(trv_lrcp_residual_z(pw, j, ghat, s2)) > z_max;
    if (violated) violated[j] = v;
    count += v;
  }
  return count;
}

/* Marks in `region` every component within `radius` hops of a seed. */
static void neighbourhood(const TrvCandidates *cand, const bool *seed, int radius, bool *region) {
  int n = cand->n_components;
  memcpy(region, seed, sizeof(bool) * n);
  for (int r = 0; r < radius; r++) {
    bool next[TRV_MAX_COMPONENTS];
    memcpy(next, region, sizeof(bool) * n);
    for (int i = 0; i < n; i++)
      if (region[i])
        for (int j = 0; j < n; j++)
          if (trv_candidates_adjacent(cand, i, j)) next[j] = true;
    memcpy(region, next, sizeof(bool) * n);
  }
}

/* Window statistics of component j: sum z^2, sum z w, sum w^2. */
static void window_stats(const TrvProbeWindows *pw, int j, double *szz, double *szw, double *sww) {
  *szz = *szw = *sww = 0;
  for (int i = 0; i < pw->len[j]; i++) {
    size_t at = (size_t)j * pw->cap + i;
    double z = pw->z[at], w = pw->w[at];
    *szz += z * z, *szw += z * w, *sww += w * w;
  }
}

/* The local edit of component j (lrcp.h): absent or present, whichever
 * fits its window better under the posterior.  The terms common to both
 * (n log 2 pi s2) are left out. */
static void local_edit(const TrvProbeWindows *pw, const TrvPosterior *post, int j, double s2, TrvGraph *ghat) {
  const TrvPosteriorParams *pp = trv_posterior_params(post);
  double szz, szw, sww, mu, v, absent, present;
  window_stats(pw, j, &szz, &szw, &sww);
  trv_posterior_effect(post, j, &mu, &v);
  trv_posterior_losses(post, j, &absent, &present); /* -log P(absent), -log P(present) */
  double k = (mu / v + szw / s2) / (1 / v + szz / s2);
  if (pp->slab != TRV_SLAB_GAUSSIAN && fabs(k) < pp->kappa_min) k = k < 0 ? -pp->kappa_min : pp->kappa_min;
  double fit_absent = -absent - 0.5 * sww / s2;
  double fit_present = -present - 0.5 * (sww - 2 * k * szw + k * k * szz) / s2;
  ghat->present[j] = fit_present > fit_absent;
  ghat->kappa[j] = ghat->present[j] ? k : 0.0;
}

/* The violator of largest posterior uncertainty (ties: larger |Z_j|, then
 * lower id). */
static int most_uncertain(const TrvProbeWindows *pw, const TrvPosterior *post, const TrvGraph *ghat, double s2,
                          const bool *violated) {
  int best = -1;
  double best_h = -1, best_z = -1;
  for (int j = 0; j < pw->n; j++) {
    if (!violated[j]) continue;
    double h = trv_posterior_component_entropy_bits(post, j), z = fabs(trv_lrcp_residual_z(pw, j, ghat, s2));
    if (h > best_h || (h == best_h && z > best_z)) best = j, best_h = h, best_z = z;
  }
  return best;
}

TrvLrcpResult trv_lrcp(const TrvProbeWindows *pw, const TrvPosterior *post, const TrvCandidates *cand,
                       const TrvLrcpParams *params, TrvGraph *ghat) {
  TrvLrcpResult res = {.status = TRV_LRCP_NONE};
  const double s2 = trv_posterior_noise_var(post);
  bool violated[TRV_MAX_COMPONENTS], region[TRV_MAX_COMPONENTS];
  int eps = trv_constraint_violated(pw, ghat, s2, params->z_max, violated);
  if (eps == 0) return res;
  res.eps[res.n_eps++] = eps;
  for (int it = 0; it < TRV_LRCP_MAX_ITER; it++) {
    if (params->edit == TRV_LRCP_EDIT_LOCAL) {
      bool node[TRV_MAX_COMPONENTS] = {false};
      node[most_uncertain(pw, post, ghat, s2, violated)] = true;
      neighbourhood(cand, node, params->radius, region);
    } else {
      neighbourhood(cand, violated, params->radius, region);
    }
    for (int j = 0; j < cand->n_components; j++) {
      if (!region[j]) continue;
      if (params->edit == TRV_LRCP_EDIT_LOCAL) {
        if (violated[j]) local_edit(pw, post, j, s2, ghat); /* what fits its window stays */
        continue;
      }
      double mu, v;
      trv_posterior_effect(post, j, &mu, &v);
      ghat->present[j] = trv_posterior_map(post, j);
      ghat->kappa[j] = ghat->present[j] ? mu : 0.0;
    }
    int next = trv_constraint_violated(pw, ghat, s2, params->z_max, violated);
    res.eps[res.n_eps++] = next;
    if (next == 0) {
      res.status = TRV_LRCP_CONVERGED;
      return res;
    }
    if ((double)next / eps > params->beta_max) {
      res.status = TRV_LRCP_FLAGGED;
      return res;
    }
    eps = next;
  }
  res.status = TRV_LRCP_FLAGGED;
  return res;
}
