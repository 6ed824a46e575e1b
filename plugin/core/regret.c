/* regret.c - see regret.h. */
#include "regret.h"

double trv_regret_outcome_step(double oracle_expected, double played_expected) {
  return oracle_expected - played_expected;
}

double trv_regret_epistemic_step(const TrvPosterior *post, const bool *graph) {
  return -trv_posterior_log_prob_graph(post, graph);
}

double trv_regret_temporal(bool in_m, double gap, int tau, int steps) {
  if (!in_m) return 0.0;
  return gap * (tau < steps ? tau : steps);
}
