/* reset.c - PartialReset's choice of components.  See reset.h. */
#include "reset.h"

int trv_partial_reset_select(const TrvRecentProbe *probes, size_t n, int episode, int window, const TrvGraph *ghat,
                             double s2, double threshold, bool *reset) {
  double sum[TRV_MAX_COMPONENTS] = {0};
  int cnt[TRV_MAX_COMPONENTS] = {0}, resets = 0;
  for (size_t i = 0; i < n; i++) {
    const TrvRecentProbe *r = &probes[i];
    if (r->episode <= episode - window || r->episode > episode || r->j < 0 || r->j >= ghat->n) continue;
    double k = ghat->present[r->j] ? ghat->kappa[r->j] : 0.0, res = r->w - k * r->z;
    sum[r->j] += res * res / (2.0 * s2) - 0.5;
    cnt[r->j]++;
  }
  for (int j = 0; j < ghat->n; j++) {
    reset[j] = cnt[j] >= 3 && sum[j] / cnt[j] > threshold;
    resets += reset[j];
  }
  return resets;
}
