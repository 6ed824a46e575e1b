/* lrcp.h - ConstraintViolated and LRCP local repair (docs/controller.md,
 * "LRCP").
 *
 * Each component keeps a rolling window of its last `window` probes (z, w).
 * ConstraintViolated(G_hat): component j is violated when the signed,
 * standardized residual of its window against G_hat's prediction,
 *   Z_j = sum_i z_i (w_i - k_j z_i) / (s * sqrt(sum_i z_i^2)),
 *   k_j = kappa_hat_j if j in G_hat else 0,
 * has |Z_j| > z_max.  LRCP repairs each violating component and its
 * radius-r neighbourhood in G_inf (components sharing a variable, r hops)
 * toward the posterior MAP (presence and kappa_hat = mu), recomputes the
 * violation count eps_{k+1}, and iterates while it contracts:
 *   eps_{k+1} = 0                       -> converged
 *   eps_{k+1} / eps_k > beta_max        -> flagged (stops)
 * and at most max_iter repairs.  The whole trace eps_0..eps_k is returned.
 *
 * Two repairs (lrcp.edit):
 *   map    every violator's neighbourhood at once, each component to the
 *          posterior MAP (presence, kappa_hat = mu);
 *   local  one node per iteration: the violator of largest posterior
 *          uncertainty h2(p_j) (ties: larger |Z_j|, then lower id); each
 *          violated component of its radius-r neighbourhood takes the
 *          edit, absent or present, of larger posterior-predictive fit of
 *          its window,
 *            log P(absent)  + log N(w; 0, s2 I)        or
 *            log P(present) + log N(w; k z, s2 I),
 *          k the posterior's effect updated by the window,
 *          (mu/v + S_zw/s2) / (1/v + S_zz/s2), held to |k| >= kappa_min
 *          under a separated or soft slab (what "present" means there);
 *          the others, which fit their windows, stay.  The window can then
 *          overrule a posterior that lags a change, which the MAP repair
 *          cannot. */
#ifndef TRV_LRCP_H
#define TRV_LRCP_H

#include <stdbool.h>

#include "graph.h"
#include "posterior.h"
#include <trivium/results.h> /* TRV_LRCP_MAX_ITER, TrvLrcpStatus */

typedef enum { TRV_LRCP_EDIT_MAP = 0, TRV_LRCP_EDIT_LOCAL = 1 } TrvLrcpEdit;

typedef struct {
  int window;      /* probes kept per component (default 20) */
  double z_max;    /* violation threshold on |Z_j| (default 3) */
  int radius;      /* repair neighbourhood radius r (default 1) */
  double beta_max; /* flag when eps_{k+1}/eps_k exceeds this (default 0.9) */
  TrvLrcpEdit edit;
} TrvLrcpParams;

typedef struct TrvProbeWindows TrvProbeWindows;

TrvProbeWindows *trv_probe_windows_new(int n_components, int window);
void trv_probe_windows_free(TrvProbeWindows *pw);
void trv_probe_windows_push(TrvProbeWindows *pw, int j, double z, double w);
void trv_probe_windows_clear(TrvProbeWindows *pw, int j);
/* Z_j of the window of component j under G_hat; 0 for an empty window. */
double trv_lrcp_residual_z(const TrvProbeWindows *pw, int j, const TrvGraph *ghat, double s2);
/* Number of violated components; violated[] (may be NULL) receives flags. */
int trv_constraint_violated(const TrvProbeWindows *pw, const TrvGraph *ghat, double s2, double z_max, bool *violated);

typedef struct {
  TrvLrcpStatus status;
  int n_eps;                      /* entries in eps[] */
  int eps[TRV_LRCP_MAX_ITER + 1]; /* residual counts eps_0..eps_k */
} TrvLrcpResult;

/* Runs LRCP if anything is violated (status NONE otherwise, G_hat untouched). */
TrvLrcpResult trv_lrcp(const TrvProbeWindows *pw, const TrvPosterior *post, const TrvCandidates *cand,
                       const TrvLrcpParams *params, TrvGraph *ghat);

#endif
