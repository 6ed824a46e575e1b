/* regret.h - the three regrets (r_out, r_epi, r_temp of docs/outputs.md,
 * "episodes.csv"), as pure functions of what an episode produced, so that
 * each can be checked by hand.
 *  R_out  (what):  sum over steps of the oracle's expected payoff minus the
 *                  expected payoff of the action played;
 *  R_epi  (why):   sum over steps of -log P_{e,t}(G_true_e); its operational
 *                  proxy R_hat_epi uses G_hat_e instead of the truth;
 *  R_temp (when):  Delta_e * min(tau_e, T) for episodes in M (the graph the
 *                  agents act on is wrong on the task-relevant components,
 *                  or no commit put it there), 0 otherwise; tau_e = first
 *                  step at which the scheduler commits to the correct
 *                  structure (T if it never does: a controller that never
 *                  commits has tau_e = T in every episode).  referee.c
 *                  also keeps the variant with tau_e from the in-episode
 *                  belief (R_temp_belief). */
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
