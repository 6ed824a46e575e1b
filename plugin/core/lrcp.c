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

TrvLrcpResult trv_lrcp(const TrvProbeWindows *pw, const TrvPosterior *post, const TrvCandidates *cand,
                       const TrvLrcpParams *params, TrvGraph *ghat) {
  TrvLrcpResult res = {.status = TRV_LRCP_NONE};
  const double s2 = trv_posterior_noise_var(post);
  bool violated[TRV_MAX_COMPONENTS], region[TRV_MAX_COMPONENTS];
  int eps = trv_constraint_violated(pw, ghat, s2, params->z_max, violated);
  if (eps == 0) return res;
  res.eps[res.n_eps++] = eps;
  for (int it = 0; it < TRV_LRCP_MAX_ITER; it++) {
    neighbourhood(cand, violated, params->radius, region);
    for (int j = 0; j < cand->n_components; j++) {
      if (!region[j]) continue;
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
