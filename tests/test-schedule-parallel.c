/* The parallel scheduler (plugin/core/schedule-parallel.c; docs/controller.md,
 * "Probes and scheduling"): a budget planned and assigned to the agents at
 * once, by marginal gain per marginal episode makespan. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test-schedule-util.h"

/* Per agent: the probes planned; the makespan of equal agents is the
 * largest. */
static int largest_load(const int *agent_of, int n_probes, int agents, int *load) {
  memset(load, 0, sizeof(int) * (size_t)agents);
  int most = 0;
  for (int i = 0; i < n_probes; i++) {
    int l = ++load[agent_of[i]];
    most = MAX(most, l);
  }
  return most;
}

static void parallel_with_equal_gains_balances_loads(void) {
  TrvPosterior *post = posterior(); /* all three at the prior: equal gains */
  bool el[3] = {true, true, true};
  int plan[16], agent_of[16], load[4], count[3];
  /* 9 probes, 3 components, 3 agents, disjoint: one component per agent,
   * 3 probes each (IGScore's plan also has 3 each, but splits the same way
   * only because the gains are equal) */
  g_assert_cmpint(trv_schedule_parallel(post, &cand, el, 9, 3, 1, NULL, NULL, 1.0, NULL, plan, agent_of), ==, 9);
  g_assert_cmpint(largest_load(agent_of, 9, 3, load), ==, 3);
  int owner[3] = {-1, -1, -1};
  memset(count, 0, sizeof count);
  for (int i = 0; i < 9; i++) {
    count[plan[i]]++;
    if (owner[plan[i]] < 0) owner[plan[i]] = agent_of[i];
    g_assert_cmpint(agent_of[i], ==, owner[plan[i]]);
  }
  for (int j = 0; j < 3; j++) g_assert_cmpint(count[j], ==, 3);
  g_assert_cmpint(owner[0] + owner[1] + owner[2], ==, 0 + 1 + 2); /* three distinct agents */
  /* 10 probes: the last one lengthens the episode by one probe, no more */
  trv_schedule_parallel(post, &cand, el, 10, 3, 1, NULL, NULL, 1.0, NULL, plan, agent_of);
  g_assert_cmpint(largest_load(agent_of, 10, 3, load), ==, 4);
  g_assert_cmpint(load[0] + load[1] + load[2], ==, 10);
  g_assert_cmpint(MIN(load[0], MIN(load[1], load[2])), ==, 3);
  /* 8 probes over 2 agents: 4 each (3 components on 2 agents) */
  trv_schedule_parallel(post, &cand, el, 8, 2, 1, NULL, NULL, 1.0, NULL, plan, agent_of);
  g_assert_cmpint(largest_load(agent_of, 8, 2, load), ==, 4);
  /* one eligible component, a coalition of up to 3 of 4 agents: 3 agents of 3 */
  bool one[3] = {false, true, false};
  trv_schedule_parallel(post, &cand, one, 9, 4, 3, NULL, NULL, 1.0, NULL, plan, agent_of);
  g_assert_cmpint(largest_load(agent_of, 9, 4, load), ==, 3);
  g_assert_cmpint(load[3], ==, 0);
  for (int i = 0; i < 9; i++) g_assert_cmpint(plan[i], ==, 1);
  /* and of up to 2: 5 and 4 */
  trv_schedule_parallel(post, &cand, one, 9, 4, 2, NULL, NULL, 1.0, NULL, plan, agent_of);
  g_assert_cmpint(largest_load(agent_of, 9, 4, load), ==, 5);
  g_assert_cmpint(load[0] + load[1], ==, 9);
  trv_posterior_free(post);
}

/* IGScore spends a budget on the component whose gain is largest; the
 * parallel scheduler gives the idle agent the other component, since a
 * probe there costs no time: half the makespan for the same budget. */
static void parallel_fills_idle_agents_first(void) {
  TrvPosterior *post = posterior();
  for (int i = 0; i < 30; i++) trv_posterior_observe(post, 0, 1, 1.0); /* C->X settled, C->Y at the prior */
  bool el[3] = {true, true, false};
  int ig[4], plan[4], agent_of[4], load[2], cursor = 0;
  TrvRng rng;
  trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
  trv_schedule_probes(TRV_SCHED_IG, post, &cand, el, 4, 1, 1.0, NULL, &cursor, &rng, ig);
  for (int b = 0; b < 4; b++) g_assert_cmpint(ig[b], ==, 1);
  trv_schedule_parallel(post, &cand, el, 4, 2, 1, NULL, NULL, 1.0, NULL, plan, agent_of);
  int want[4] = {1, 0, 1, 0}; /* C->Y first (largest gain), then C->X on the idle agent, ... */
  for (int b = 0; b < 4; b++) g_assert_cmpint(plan[b], ==, want[b]);
  g_assert_cmpint(largest_load(agent_of, 4, 2, load), ==, 2);
  g_assert_cmpint(agent_of[0], ==, agent_of[2]);
  g_assert_cmpint(agent_of[1], ==, agent_of[3]);
  g_assert_cmpint(agent_of[0], !=, agent_of[1]);
  trv_posterior_free(post);
}

/* Agents of different speeds: agent 1 runs a probe in 0.5 s, agent 0 in
 * 1 s; C->X and C->Y at the prior, where one probe gains EIG(1) = 0.081
 * bits and a second 0.098 more (EIG(2) = 0.179: the gain first grows).
 * Probe 1 goes to the fast agent, which ends first (C->X, the smaller id);
 * probe 2 lengthens the episode by 0.5 s whether it is C->X's second on
 * agent 1 or C->Y's first on agent 0 (both end at 1 s): the larger gain,
 * C->X; probe 3, C->Y on the idle agent 0, ends at 1 s with agent 1: free.
 * Makespan 1 s, where one probe each on agents 0 and 1 plus a third
 * would take 1.5 s or more. */
static void parallel_weighs_the_agents_speeds(void) {
  TrvPosterior *post = posterior();
  bool el[3] = {true, true, false};
  int plan[3], agent_of[3];
  TrvAgentCost cost[2] = {{0.0, 1.0}, {0.0, 0.5}};
  trv_schedule_parallel(post, &cand, el, 3, 2, 1, cost, NULL, 1.0, NULL, plan, agent_of);
  int want_plan[3] = {0, 0, 1}, want_agent[3] = {1, 1, 0};
  for (int b = 0; b < 3; b++) {
    g_assert_cmpint(plan[b], ==, want_plan[b]);
    g_assert_cmpint(agent_of[b], ==, want_agent[b]);
  }
  /* agent 0's steps take 2 s, agent 1's none, probes 1 s on both: two
   * probes on agent 1 end by the time agent 0 does (free), so both go
   * there; equal agents would have split them */
  TrvAgentCost based[2] = {{2.0, 1.0}, {0.0, 1.0}};
  trv_schedule_parallel(post, &cand, el, 2, 2, 1, based, NULL, 1.0, NULL, plan, agent_of);
  g_assert_cmpint(agent_of[0], ==, 1);
  g_assert_cmpint(agent_of[1], ==, 1);
  trv_schedule_parallel(post, &cand, el, 2, 2, 1, NULL, NULL, 1.0, NULL, plan, agent_of);
  g_assert_cmpint(agent_of[0], !=, agent_of[1]);
  trv_posterior_free(post);
}

/* Candidates of n components (n <= 12) over n + 1 variables: component j
 * is V(j/2) -> V(n), so out-degrees differ and ties exercise them. */
static const char *const many_vars[] = {"V0", "V1", "V2", "V3",  "V4",  "V5", "V6",
                                        "V7", "V8", "V9", "V10", "V11", "V12"};
static TrvComponent many_comps[12];
static TrvCandidates many(int n) {
  for (int j = 0; j < n; j++) many_comps[j] = (TrvComponent){"e", j / 2, n, false};
  return (TrvCandidates){n + 1, many_vars, n, many_comps};
}

/* A posterior over n components with random evidence. */
static TrvPosterior *random_posterior(GRand *r, int n) {
  TrvPosterior *post = posterior_of(n);
  for (int j = 0; j < n; j++)
    for (int i = g_rand_int_range(r, 0, 6); i > 0; i--)
      trv_posterior_observe(post, j, 1, g_rand_double_range(r, -1, 2));
  return post;
}

/* Whatever the beliefs, agents and budget: the budget is spent exactly, on
 * eligible components only; every agent is one of the agents; a component
 * never runs on more than `cap` agents (one under disjoint assignment);
 * and equal agents finish together as far as the rule allows: the
 * makespan is ceil(B / min(M, cap n_eligible)), the least any plan has. */
static void parallel_plans_respect_the_assignment_rule(void) {
  GRand *r = g_rand_new_with_seed(17);
  for (int trial = 0; trial < 400; trial++) {
    int n = g_rand_int_range(r, 1, 13), agents = g_rand_int_range(r, 1, 20);
    int cap = g_rand_boolean(r) ? 1 : g_rand_int_range(r, 1, 6);
    int budget = g_rand_int_range(r, 1, 120), plan[120], agent_of[120], load[20];
    TrvCandidates cd = many(n);
    TrvPosterior *post = random_posterior(r, n);
    bool el[12];
    int n_el = 0;
    for (int j = 0; j < n; j++) n_el += el[j] = g_rand_int_range(r, 0, 4) > 0;
    int got = trv_schedule_parallel(post, &cd, el, budget, agents, cap, NULL, NULL, 1.0, NULL, plan, agent_of);
    if (n_el == 0) {
      g_assert_cmpint(got, ==, 0);
      trv_posterior_free(post);
      continue;
    }
    g_assert_cmpint(got, ==, budget);
    uint64_t on[12] = {0};
    for (int i = 0; i < budget; i++) {
      g_assert_true(plan[i] >= 0 && plan[i] < n && el[plan[i]]);
      g_assert_true(agent_of[i] >= 0 && agent_of[i] < agents);
      on[plan[i]] |= UINT64_C(1) << agent_of[i];
    }
    for (int j = 0; j < n; j++) g_assert_cmpint(__builtin_popcountll(on[j]), <=, cap);
    int busy = MIN(agents, cap * n_el);
    g_assert_cmpint(largest_load(agent_of, budget, agents, load), ==, (budget + busy - 1) / busy);
    trv_posterior_free(post);
  }
  g_rand_free(r);
}

/* With one agent every probe lengthens the episode alike, so the plan is
 * IGScore's (probe by probe), whatever the agent costs; so is the parallel
 * kind of trv_schedule_probes. */
static void parallel_with_one_agent_is_igscore(void) {
  GRand *r = g_rand_new_with_seed(19);
  TrvAgentCost costs[3] = {{0.5, 0.991}, {0.0, 0.0}, {3.0, 1e-3}};
  for (int trial = 0; trial < 200; trial++) {
    int n = g_rand_int_range(r, 1, 13), budget = g_rand_int_range(r, 1, 60), cursor = 0;
    int ig[60], plan[60], agent_of[60], kind[60];
    TrvCandidates cd = many(n);
    TrvPosterior *post = random_posterior(r, n);
    bool el[12];
    for (int j = 0; j < n; j++) el[j] = j == 0 || g_rand_boolean(r);
    TrvRng rng;
    trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
    g_assert_cmpint(trv_schedule_probes(TRV_SCHED_IG, post, &cd, el, budget, 1, 1.0, NULL, &cursor, &rng, ig), ==,
                    budget);
    const TrvAgentCost *c = trial % 4 == 3 ? NULL : &costs[trial % 4];
    g_assert_cmpint(trv_schedule_parallel(post, &cd, el, budget, 1, 1, c, NULL, 1.0, NULL, plan, agent_of), ==, budget);
    g_assert_cmpint(trv_schedule_probes(TRV_SCHED_PARALLEL, post, &cd, el, budget, 1, 1.0, NULL, &cursor, &rng, kind),
                    ==, budget);
    for (int b = 0; b < budget; b++) {
      g_assert_cmpint(plan[b], ==, ig[b]);
      g_assert_cmpint(kind[b], ==, ig[b]);
      g_assert_cmpint(agent_of[b], ==, 0);
    }
    trv_posterior_free(post);
  }
  g_rand_free(r);
}

/* When a coalition may hold every agent (cap >= M), every component's
 * next probe goes to the same least-loaded agent and lengthens the episode
 * alike, so the plan is IGScore's, probe for probe, and the loads differ
 * by one probe at most: IGScore's allocation, run in parallel. */
static void coalitions_of_every_agent_run_igscore_in_parallel(void) {
  GRand *r = g_rand_new_with_seed(23);
  for (int trial = 0; trial < 200; trial++) {
    int n = g_rand_int_range(r, 1, 13), agents = g_rand_int_range(r, 1, 9), budget = g_rand_int_range(r, 1, 60);
    int cap = agents + g_rand_int_range(r, 0, 3), ig[60], plan[60], agent_of[60], load[9], cursor = 0;
    TrvCandidates cd = many(n);
    TrvPosterior *post = random_posterior(r, n);
    bool el[12];
    for (int j = 0; j < n; j++) el[j] = j == 0 || g_rand_boolean(r);
    TrvRng rng;
    trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
    trv_schedule_probes(TRV_SCHED_IG, post, &cd, el, budget, 1, 1.0, NULL, &cursor, &rng, ig);
    trv_schedule_parallel(post, &cd, el, budget, agents, cap, NULL, NULL, 1.0, NULL, plan, agent_of);
    for (int b = 0; b < budget; b++) g_assert_cmpint(plan[b], ==, ig[b]);
    g_assert_cmpint(largest_load(agent_of, budget, agents, load), ==, (budget + agents - 1) / agents);
    trv_posterior_free(post);
  }
  g_rand_free(r);
}

/* Probes that cost no time (they fit in their steps) are all free: the
 * plan is IGScore's, and each new component goes to the agent with the
 * fewest probes, the most valuable first, then the lower index. */
static void free_probes_spread_by_count_then_value(void) {
  TrvPosterior *post = posterior();
  for (int i = 0; i < 3; i++) trv_posterior_observe(post, 2, 1, 0.4); /* unequal gains */
  trv_posterior_observe(post, 0, 1, 0.3);
  bool el[3] = {true, true, true};
  int ig[12], plan[12], agent_of[12], cursor = 0;
  TrvRng rng;
  trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
  trv_schedule_probes(TRV_SCHED_IG, post, &cand, el, 12, 1, 1.0, NULL, &cursor, &rng, ig);
  TrvAgentCost cost[4] = {{1, 0}, {1, 0}, {1, 0}, {1, 0}};
  double value[4] = {0.1, 0.9, 0.5, 0.9};
  trv_schedule_parallel(post, &cand, el, 12, 4, 1, cost, value, 1.0, NULL, plan, agent_of);
  for (int b = 0; b < 12; b++) g_assert_cmpint(plan[b], ==, ig[b]);
  /* the components in the order of their first probe: agents 1, 3, 2 */
  const int want[3] = {1, 3, 2};
  int owner[3] = {-1, -1, -1}, seen = 0;
  for (int b = 0; b < 12; b++) {
    if (owner[plan[b]] < 0) owner[plan[b]] = want[seen++];
    g_assert_cmpint(agent_of[b], ==, owner[plan[b]]);
  }
  g_assert_cmpint(seen, ==, 3);
  trv_posterior_free(post);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/schedule/parallel_with_equal_gains_balances_loads", parallel_with_equal_gains_balances_loads);
  g_test_add_func("/schedule/parallel_fills_idle_agents_first", parallel_fills_idle_agents_first);
  g_test_add_func("/schedule/parallel_weighs_the_agents_speeds", parallel_weighs_the_agents_speeds);
  g_test_add_func("/schedule/parallel_plans_respect_the_assignment_rule", parallel_plans_respect_the_assignment_rule);
  g_test_add_func("/schedule/parallel_with_one_agent_is_igscore", parallel_with_one_agent_is_igscore);
  g_test_add_func("/schedule/free_probes_spread_by_count_then_value", free_probes_spread_by_count_then_value);
  g_test_add_func("/schedule/coalitions_of_every_agent_run_igscore_in_parallel",
                  coalitions_of_every_agent_run_igscore_in_parallel);
  return g_test_run();
}
