/* regret.h - the three regrets of SPEC 3.8, as pure functions of what an
 * episode produced, so that each can be checked by hand.
 *  R_out  (what):  sum over steps of the oracle's expected payoff minus the
 *                  expected payoff of the action played;
 *  R_epi  (why):   sum over steps of -log P_{e,t}(G_true_e); its operational
 *                  proxy R_hat_epi uses G_hat_e instead of the truth;
 *  R_temp (when):  Delta_e * min(tau_e, T) for episodes in M (committed graph
 *                  wrong on the task-relevant components), 0 otherwise;
 *                  tau_e = first step at which the posterior commits to the
 *                  correct structure (T if it never does). */
#ifndef TRV_REGRET_H
#define TRV_REGRET_H

#include <stdbool.h>

#include "posterior.h"

/* One step's contribution to R_out. */
double trv_regret_outcome_step(double oracle_expected, double played_expected);
/* One step's contribution to R_epi (graph = G_true) or R_hat_epi (G_hat). */
double trv_regret_epistemic_step(const TrvPosterior *post, const bool *graph);
/* One episode's R_temp. */
double trv_regret_temporal(bool in_m, double gap, int tau, int steps);

#endif
