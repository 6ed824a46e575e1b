/* detector.h - pluggable drift detectors (docs/controller.md, "Drift
 * detectors and PartialReset") and their registry.
 *
 * A detector is a table of functions stepped once per episode with what the
 * controller saw in that episode: the entropies H(P_{e-1}), H(P_e) and the
 * probe residuals r_i = w_i - k_j z_i against the committed graph G_hat_e
 * (k_j = kappa_hat_j if j in G_hat_e, else 0), with their components.
 * Shipped detectors (name: statistic):
 *  - "ce-eig-cusum":   S_e = max(0, S_{e-1} + CE-EIG(e) - mu_bar),
 *                      CE-EIG(e) = H(P_{e-1}) - H(P_e); alarm when S_e > h.
 *                      As specified; it watches entropy *drops*, so a flip,
 *                      which raises entropy, is not what it is built to see.
 *  - "residual-ratio": mean of the last `window` squared standardized
 *                      residuals r^2/s2 over a baseline mean (the first
 *                      full window after a (re)start); alarm when the
 *                      ratio exceeds `ratio` (default 30 probes, 2.2x).
 *  - "loglik-cusum":   ours, aimed at topology flips: per component, two
 *                      one-sided CUSUMs of the log-likelihood ratio of a
 *                      shifted model (the probe slope is off from G_hat's by
 *                      +delta or -delta, delta = kappa_min) against G_hat's
 *                      prediction:  l = (+-delta z r - delta^2 z^2 / 2) / s2,
 *                      S = max(0, S + l); alarm when any S > h.  The
 *                      increment has mean -delta^2 z^2/(2 s2) while G_hat is
 *                      right and delta (|kappa| - delta/2) z^2 / s2 > 0 after
 *                      a flip of size |kappa| >= delta, so false alarms are
 *                      exponentially rare in h (Wald) while the delay is
 *                      about h / that drift.  Per component, so that the many
 *                      well-predicted components cannot mask the wrong one.
 * After an alarm every detector restarts its statistic. */
#ifndef TRV_DETECTOR_H
#define TRV_DETECTOR_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

#include "registry.h"

typedef struct {
  double h_prev_bits, h_bits; /* H(P_{e-1}), H(P_e) */
  size_t n_probes;
  const int *component; /* [n_probes] */
  const double *z;      /* [n_probes] intervention values */
  const double *resid;  /* [n_probes] residuals against G_hat_e */
  double s2;
  int n_components;
} TrvDetectorInput;

/* A detector: the entry's class (TrvModule.klass). */
typedef struct {
  /* `params` is the detector's own block of values (its entry's params),
   * or NULL when it declares none. */
  void *(*create)(const void *params, int n_components);
  /* Steps one episode; returns true on alarm and stores the statistic. */
  bool (*step)(void *state, const TrvDetectorInput *in, double *statistic);
  void (*free)(void *state);
} TrvDetectorClass;

/* The shipped detectors' parameters (detector.c). */
typedef struct {
  double mu_bar;  /* ce-eig-cusum drift (bits per episode) */
  double h_cusum; /* ce-eig-cusum threshold (bits) */
} TrvCeEigParams;
typedef struct {
  int window;   /* residual-ratio window (probes) */
  double ratio; /* residual-ratio threshold */
} TrvResidualRatioParams;
typedef struct {
  double delta; /* loglik-cusum shift delta (slope units) */
  double h;     /* loglik-cusum threshold (nats) */
} TrvLoglikParams;

/* Registers a detector (its class, TrvDetectorClass, and its parameters)
 * and, with the first one, the row detector.name that selects one of them
 * by name (default: loglik-cusum).  See trv_registry_add. */
bool trv_detector_register(const TrvModule *detector, GError **error);
/* The shipped detectors, in the order they are registered. */
const TrvModule *trv_detectors_builtin(size_t *n);
/* Registers the shipped detectors (aborts if one is refused: a bug). */
void trv_detectors_register_builtin(void);
/* The detector called `name`, or NULL. */
const TrvModule *trv_detector_lookup(const char *name);
/* The registered names, NULL-terminated, in registration order. */
const char *const *trv_detector_names(void);
/* The detector that detector.name selects in p. */
const TrvModule *trv_detector_selected(const TrvParams *p);
/* A detector's state for n_components, with its parameters from p. */
void *trv_detector_create(const TrvModule *detector, const TrvParams *p, int n_components);

#endif
