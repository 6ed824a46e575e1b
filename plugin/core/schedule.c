/* schedule.c - budget rule and probe schedulers.  See schedule.h. */
#include "schedule.h"

#include <math.h>

int trv_budget(int episode, int window, double alpha, double m0, int steps) {
  int base = episode > window ? episode : window;
  double b = ceil(alpha * m0 * log((double)base + 1.0));
  if (b < 0) b = 0;
  return b > steps ? steps : (int)b;
}

static int ig_schedule(const TrvPosterior *post, const TrvCandidates *cand, const bool *eligible, int budget,
                       double zabs, TrvEigMemo *memo, int *plan) {
  int n = cand->n_components;
  int k[TRV_MAX_COMPONENTS] = {0};
  double eig[TRV_MAX_COMPONENTS], gain[TRV_MAX_COMPONENTS];
  int outdeg[TRV_MAX_COMPONENTS];
  for (int j = 0; j < n; j++) {
    eig[j] = 0.0;
    outdeg[j] = trv_candidates_out_degree(cand, j);
    gain[j] = eligible[j] ? trv_posterior_eig_bits_memo(post, j, 1, zabs, memo) : -1.0;
  }
  for (int b = 0; b < budget; b++) {
    int best = -1;
    for (int j = 0; j < n; j++) {
      if (!eligible[j]) continue;
      if (best < 0 || gain[j] > gain[best] ||
          (gain[j] == gain[best] && (outdeg[j] < outdeg[best] || (outdeg[j] == outdeg[best] && j < best))))
        best = j;
    }
    if (best < 0) return b;
    plan[b] = best;
    eig[best] += gain[best];
    k[best]++;
    if (b + 1 < budget) /* the last probe's next gain is never compared */
      gain[best] = trv_posterior_eig_bits_memo(post, best, k[best] + 1, zabs, memo) - eig[best];
  }
  return budget;
}

int trv_schedule_probes(TrvSchedulerKind kind, const TrvPosterior *post, const TrvCandidates *cand,
                        const bool *eligible, int budget, double zabs, TrvEigMemo *memo, int *rr_cursor, TrvRng *rng,
                        int *plan) {
  int n = cand->n_components, n_el = 0, el[TRV_MAX_COMPONENTS];
  for (int j = 0; j < n; j++)
    if (eligible[j]) el[n_el++] = j;
  if (n_el == 0 || budget <= 0) return 0;
  switch (kind) {
    case TRV_SCHED_IG:
      return ig_schedule(post, cand, eligible, budget, zabs, memo, plan);
    case TRV_SCHED_ROUNDROBIN:
      for (int b = 0; b < budget; b++) {
        /* next eligible id at or after the cursor, cyclically */
        int c = *rr_cursor % n, j = c;
        while (!eligible[j]) j = (j + 1) % n;
        plan[b] = j;
        *rr_cursor = (j + 1) % n;
      }
      return budget;
    case TRV_SCHED_RANDOM:
      for (int b = 0; b < budget; b++) plan[b] = el[trv_rng_below(rng, (uint64_t)n_el)];
      return budget;
  }
  g_assert_not_reached();
}
