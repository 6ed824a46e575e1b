/* The fixtures of the scheduler tests (test-schedule.c,
 * test-schedule-parallel.c): the three components of CausalBench-Seq and a
 * posterior over them at the prior. */
#ifndef TRV_TEST_SCHEDULE_UTIL_H
#define TRV_TEST_SCHEDULE_UTIL_H

#include <glib.h>

#include "core/posterior.h"
#include "core/schedule.h"

static const char *const vars[] = {"C", "X", "Y"};
static const TrvComponent comps[] = {{"C->X", 0, 1, false}, {"C->Y", 0, 2, false}, {"X->Y", 1, 2, true}};
static const TrvCandidates cand = {3, vars, 3, comps};

/* A posterior over n components at the prior (separated slab, forgetting). */
static inline TrvPosterior *posterior_of(int n) {
  TrvPosteriorParams p = {.pi0 = 0.5,
                          .tau2 = 1,
                          .s2 = 1,
                          .kappa_min = 0.5,
                          .hazard = 0.001,
                          .lambda = 0.9,
                          .slab = TRV_SLAB_SEPARATED,
                          .track = TRV_TRACK_FORGETTING};
  return trv_posterior_new(n, &p);
}

static inline TrvPosterior *posterior(void) { return posterior_of(3); }

#endif
