/* commit.c - executed-snapshot and ideal-frozen commit rules.  See commit.h. */
#include "commit.h"

#include <math.h>

bool trv_commit_executed(const TrvPosterior *post, const bool *active, double h_ent, TrvGraph *ghat) {
  int n = trv_posterior_n_components(post);
  if (active) {
    double h = 0; /* the same sum as trv_posterior_entropy_bits, over the active components */
    for (int j = 0; j < n; j++)
      if (active[j]) h += trv_posterior_component_entropy_bits(post, j);
    if (h > h_ent) return false;
  } else if (trv_posterior_entropy_bits(post) > h_ent) {
    return false;
  }
  trv_graph_clear(ghat, n);
  for (int j = 0; j < n; j++) {
    if (active && !active[j]) continue; /* outside the graph: absent */
    double mu, v;
    trv_posterior_effect(post, j, &mu, &v);
    ghat->present[j] = trv_posterior_map(post, j);
    ghat->kappa[j] = ghat->present[j] ? mu : 0.0;
  }
  return true;
}

bool trv_commit_ideal(const TrvPosterior *post, int steps, double kappa_min, double zabs, TrvGraph *ghat) {
  int n = trv_posterior_n_components(post);
  double threshold = log((double)steps) / steps; /* nats */
  bool changed = false;
  if (ghat->n != n) trv_graph_clear(ghat, n);
  for (int j = 0; j < n; j++) {
    if (ghat->frozen[j]) continue;
    double mu, v;
    trv_posterior_effect(post, j, &mu, &v);
    double eig_nats = trv_posterior_eig_bits(post, j, 1, zabs) * M_LN2;
    if (eig_nats < threshold && fabs(mu) >= kappa_min && trv_posterior_map(post, j)) {
      ghat->frozen[j] = ghat->present[j] = true;
      ghat->kappa[j] = mu;
      changed = true;
    }
  }
  return changed;
}
