/* detector.h - pluggable drift detectors (docs/controller.md, "Drift
 * detectors and PartialReset").
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

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  double h_prev_bits, h_bits; /* H(P_{e-1}), H(P_e) */
  size_t n_probes;
  const int *component;  /* [n_probes] */
  const double *z;       /* [n_probes] intervention values */
  const double *resid;   /* [n_probes] residuals against G_hat_e */
  double s2;
  int n_components;
} TrvDetectorInput;

typedef struct {
  double mu_bar;   /* ce-eig-cusum drift (bits per episode) */
  double h_cusum;  /* ce-eig-cusum threshold (bits) */
  int rr_window;   /* residual-ratio window (probes) */
  double rr_ratio; /* residual-ratio threshold */
  double ll_delta; /* loglik-cusum shift delta (slope units) */
  double ll_h;     /* loglik-cusum threshold (nats) */
} TrvDetectorParams;

typedef struct TrvDetector TrvDetector;

typedef struct {
  const char *name;
  void *(*create)(const TrvDetectorParams *params, int n_components);
  /* Steps one episode; returns true on alarm and stores the statistic. */
  bool (*step)(void *state, const TrvDetectorInput *in, double *statistic);
  void (*free)(void *state);
} TrvDetectorClass;

/* NULL when no detector has that name. */
const TrvDetectorClass *trv_detector_lookup(const char *name);
/* The registered names, NULL-terminated, in registry order (the parameter
 * table's detector.name choices index this array). */
extern const char *const trv_detector_name_list[];

#endif
