/* test-urs-world-util.h - helpers the URS world tests share
 * (test-urs-world.c, test-urs-fleet.c): the world's parameter block and
 * the fleets' invariants checked after a step. */
#ifndef TRV_TEST_URS_WORLD_UTIL_H
#define TRV_TEST_URS_WORLD_UTIL_H

#include <glib.h>

#include "urs/world-internal.h"

/* The URS world's parameters in p, to change. */
static inline TrvUrsParams *urs(TrvParams *p) { return trv_params_block_mut(p, &trv_urs_params); }

/* Every fleet's invariants (urs_fleet_check) and its state counts summing
 * to its drivers; aborts with the fleet and step otherwise. */
static inline void check_fleets(const UrsWorld *w) {
  for (int f = 0; f < URS_NFLEETS; f++) {
    const char *why = NULL;
    if (!urs_fleet_check(w, &w->fleet[f], &why)) g_error("fleet %d at step %d: %s", f, w->t, why);
    int sum = 0;
    for (int s = 0; s < URS_NSTATES; s++) sum += w->fleet[f].state_count[s];
    g_assert_cmpint(sum, ==, w->fleet[f].n);
  }
}

#endif
