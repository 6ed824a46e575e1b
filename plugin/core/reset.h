/* reset.h - PartialReset (docs/controller.md, "Drift detectors and
 * PartialReset"): which components a detector alarm sends back to the
 * prior.
 *
 * Only components whose new-window evidence is poorly predicted by the
 * pre-trigger committed model G_hat_e are reset: for each component, the
 * probes of the active window (episodes e - w_e + 1 .. e) are scored by their
 * mean excess log-loss per probe under G_hat_e,
 *   x = r^2 / (2 s2) - 1/2,  r = w - k z,  k = kappa_hat if present else 0,
 * which is 0 on average when G_hat_e is right and (|kappa - k| z)^2/(2 s2)
 * on average when it is wrong; a component is reset when its mean exceeds
 * `threshold` with at least 3 probes. */
#ifndef TRV_RESET_H
#define TRV_RESET_H

#include <stdbool.h>
#include <stddef.h>

#include "graph.h"

typedef struct {
  int episode, j;
  double z, w;
} TrvRecentProbe;

/* Fills reset[0..ghat->n) and returns how many are set. */
int trv_partial_reset_select(const TrvRecentProbe *probes, size_t n, int episode, int window, const TrvGraph *ghat,
                             double s2, double threshold, bool *reset);

#endif
