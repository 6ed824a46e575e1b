/* replay.c - fold of one episode's records into the posterior.  See replay.h. */
#include "replay.h"

#include <stdlib.h>

int trv_record_fold_cmp(const void *pa, const void *pb) {
  const TrvRecord *a = pa, *b = pb;
#define CMP(f) if (a->f != b->f) return a->f < b->f ? -1 : 1
  CMP(kind);  /* STEP (1) before RESET (2) */
  CMP(step);
  CMP(agent);
  CMP(seq);
  CMP(a_int);
#undef CMP
  return 0;
}

void trv_replay_episode(TrvPosterior *post, TrvRecord *recs, size_t n) {
  size_t sorted = 1; /* the live controller hands records already in fold order */
  while (sorted < n && trv_record_fold_cmp(&recs[sorted - 1], &recs[sorted]) <= 0) sorted++;
  if (sorted < n) qsort(recs, n, sizeof *recs, trv_record_fold_cmp);
  trv_posterior_episode_begin(post);
  int n_comp = trv_posterior_n_components(post);
  for (size_t i = 0; i < n; i++) {
    const TrvRecord *r = &recs[i];
    if (r->a_int < 0 || r->a_int >= n_comp) continue;
    if (r->kind == TRV_RECORD_STEP)
      trv_posterior_observe(post, r->a_int, r->z, r->outcome);
    else if (r->kind == TRV_RECORD_RESET)
      trv_posterior_reset_component(post, r->a_int);
  }
}
