/* Budget rule and probe schedulers (SPEC 3.3). */
#include <glib.h>
#include <math.h>

#include "core/posterior.h"
#include "core/schedule.h"

static const char *const vars[] = {"C", "X", "Y"};
static const TrvComponent comps[] = {{"C->X", 0, 1, false}, {"C->Y", 0, 2, false}, {"X->Y", 1, 2, true}};
static const TrvCandidates cand = {3, vars, 3, comps};

static TrvPosterior *posterior(void) {
  TrvPosteriorParams p = {.pi0 = 0.5, .tau2 = 1, .s2 = 1, .kappa_min = 0.5, .hazard = 0.001, .lambda = 0.9,
                          .slab = TRV_SLAB_SEPARATED, .track = TRV_TRACK_FORGETTING};
  return trv_posterior_new(3, &p);
}

static void budget_is_the_spec_formula(void) {
  /* B_e = ceil(alpha m0 ln(max(e, w_e) + 1)), capped at T */
  g_assert_cmpint(trv_budget(0, 1, 1.0, 3, 50), ==, 3);    /* ceil(3 ln 2) = ceil(2.079) */
  g_assert_cmpint(trv_budget(150, 1, 1.0, 3, 50), ==, 16); /* ceil(3 ln 151) = ceil(15.05) */
  g_assert_cmpint(trv_budget(499, 1, 1.0, 3, 50), ==, 19); /* ceil(3 ln 500) = ceil(18.64) */
  g_assert_cmpint(trv_budget(2, 8, 1.0, 3, 50), ==, 7);    /* the window dominates: ceil(3 ln 9) */
  g_assert_cmpint(trv_budget(150, 1, 0.125, 3, 50), ==, 2); /* ceil(0.375 ln 151) = ceil(1.88) */
  g_assert_cmpint(trv_budget(499, 1, 100.0, 3, 50), ==, 50); /* capped by T */
  g_assert_cmpint(trv_budget(10, 1, 0.0, 3, 50), ==, 0);
}

static void ig_probes_the_most_uncertain_component_first(void) {
  TrvPosterior *post = posterior();
  for (int i = 0; i < 30; i++) { /* resolve C->X and C->Y, leave X->Y at the prior */
    trv_posterior_observe(post, 0, 1, 1.0);
    trv_posterior_observe(post, 1, 1, 1.0);
  }
  bool el[3] = {true, true, true};
  int plan[4], cursor = 0;
  TrvRng rng;
  trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
  g_assert_cmpint(trv_schedule_probes(TRV_SCHED_IG, post, &cand, el, 4, 1.0, NULL, &cursor, &rng, plan), ==, 4);
  for (int b = 0; b < 4; b++) g_assert_cmpint(plan[b], ==, 2);
  trv_posterior_free(post);
}

static void ig_ties_go_to_smaller_out_degree_then_smaller_id(void) {
  TrvPosterior *post = posterior(); /* all three at the prior: equal EIG */
  bool el[3] = {true, true, true};
  int plan[1], cursor = 0;
  TrvRng rng;
  trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
  trv_schedule_probes(TRV_SCHED_IG, post, &cand, el, 1, 1.0, NULL, &cursor, &rng, plan);
  g_assert_cmpint(plan[0], ==, 2); /* X has out-degree 1, C has 2 */
  el[2] = false;
  trv_schedule_probes(TRV_SCHED_IG, post, &cand, el, 1, 1.0, NULL, &cursor, &rng, plan);
  g_assert_cmpint(plan[0], ==, 0); /* C->X and C->Y tie on degree: smaller id */
  trv_posterior_free(post);
}

static void ig_spreads_probes_by_marginal_gain(void) {
  TrvPosterior *post = posterior();
  bool el[3] = {true, true, true};
  int plan[9], cursor = 0, count[3] = {0};
  TrvRng rng;
  trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
  trv_schedule_probes(TRV_SCHED_IG, post, &cand, el, 9, 1.0, NULL, &cursor, &rng, plan);
  for (int b = 0; b < 9; b++) count[plan[b]]++;
  /* equal priors and diminishing returns: 3 each */
  for (int j = 0; j < 3; j++) g_assert_cmpint(count[j], ==, 3);
  trv_posterior_free(post);
}

static void round_robin_cycles_and_skips_frozen(void) {
  TrvPosterior *post = posterior();
  bool el[3] = {true, false, true};
  int plan[5], cursor = 0;
  TrvRng rng;
  trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
  trv_schedule_probes(TRV_SCHED_ROUNDROBIN, post, &cand, el, 5, 1.0, NULL, &cursor, &rng, plan);
  int want[5] = {0, 2, 0, 2, 0};
  for (int b = 0; b < 5; b++) g_assert_cmpint(plan[b], ==, want[b]);
  trv_schedule_probes(TRV_SCHED_ROUNDROBIN, post, &cand, el, 1, 1.0, NULL, &cursor, &rng, plan);
  g_assert_cmpint(plan[0], ==, 2); /* continues where the last episode stopped */
  trv_posterior_free(post);
}

static void random_scheduler_uses_only_eligible_components(void) {
  TrvPosterior *post = posterior();
  bool el[3] = {false, true, true};
  int plan[600], cursor = 0, count[3] = {0};
  TrvRng rng;
  trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
  trv_schedule_probes(TRV_SCHED_RANDOM, post, &cand, el, 600, 1.0, NULL, &cursor, &rng, plan);
  for (int b = 0; b < 600; b++) count[plan[b]]++;
  g_assert_cmpint(count[0], ==, 0);
  g_assert_cmpint(abs(count[1] - 300), <, 60); /* binomial sd 12.2: 5 sigma */
  bool none[3] = {false, false, false};
  g_assert_cmpint(trv_schedule_probes(TRV_SCHED_IG, post, &cand, none, 5, 1.0, NULL, &cursor, &rng, plan), ==, 0);
  trv_posterior_free(post);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/schedule/budget_is_the_spec_formula", budget_is_the_spec_formula);
  g_test_add_func("/schedule/ig_probes_the_most_uncertain_component_first", ig_probes_the_most_uncertain_component_first);
  g_test_add_func("/schedule/ig_ties_go_to_smaller_out_degree_then_smaller_id", ig_ties_go_to_smaller_out_degree_then_smaller_id);
  g_test_add_func("/schedule/ig_spreads_probes_by_marginal_gain", ig_spreads_probes_by_marginal_gain);
  g_test_add_func("/schedule/round_robin_cycles_and_skips_frozen", round_robin_cycles_and_skips_frozen);
  g_test_add_func("/schedule/random_scheduler_uses_only_eligible_components", random_scheduler_uses_only_eligible_components);
  return g_test_run();
}
