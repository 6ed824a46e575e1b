/* Budget rule and probe schedulers (docs/controller.md, "Probes and
 * scheduling"). */
#include <glib.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test-schedule-util.h"

static void budget_is_the_spec_formula(void) {
  /* B_e = ceil(alpha m0 ln(max(e, w_e) + 1)), capped at T */
  g_assert_cmpint(trv_budget(0, 1, 1.0, 3, 50), ==, 3);      /* ceil(3 ln 2) = ceil(2.079) */
  g_assert_cmpint(trv_budget(150, 1, 1.0, 3, 50), ==, 16);   /* ceil(3 ln 151) = ceil(15.05) */
  g_assert_cmpint(trv_budget(499, 1, 1.0, 3, 50), ==, 19);   /* ceil(3 ln 500) = ceil(18.64) */
  g_assert_cmpint(trv_budget(2, 8, 1.0, 3, 50), ==, 7);      /* the window dominates: ceil(3 ln 9) */
  g_assert_cmpint(trv_budget(150, 1, 0.125, 3, 50), ==, 2);  /* ceil(0.375 ln 151) = ceil(1.88) */
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
  g_assert_cmpint(trv_schedule_probes(TRV_SCHED_IG, post, &cand, el, 4, 1, 1.0, NULL, &cursor, &rng, plan), ==, 4);
  for (int b = 0; b < 4; b++) g_assert_cmpint(plan[b], ==, 2);
  trv_posterior_free(post);
}

/* The truth of the three components: presence and effect. */
static TrvGraph truth_graph(bool cx, bool cy, bool xy) {
  TrvGraph g;
  trv_graph_clear(&g, 3);
  const bool present[3] = {cx, cy, xy};
  for (int j = 0; j < 3; j++) g.present[j] = present[j], g.kappa[j] = present[j] ? 1.0 : 0.0;
  return g;
}

static void oracle_probes_where_the_truth_is_least_settled(void) {
  TrvPosterior *post = posterior();
  for (int i = 0; i < 30; i++) { /* C->X and C->Y settled on the truth, X->Y at the prior */
    trv_posterior_observe(post, 0, 1, 1.0);
    trv_posterior_observe(post, 1, 1, 1.0);
  }
  TrvPosterior *before = trv_posterior_copy(post);
  bool el[3] = {true, true, true};
  int plan[5];
  for (int xy = 0; xy <= 1; xy++) {
    TrvGraph truth = truth_graph(true, true, xy);
    g_assert_cmpint(trv_schedule_oracle(post, &truth, el, 5, 1.0, plan), ==, 5);
    for (int b = 0; b < 5; b++) g_assert_cmpint(plan[b], ==, 2);
  }
  g_assert_true(trv_posterior_equal(post, before)); /* planning leaves the belief alone */
  el[2] = false;                                    /* frozen: never probed */
  TrvGraph truth = truth_graph(true, true, false);
  g_assert_cmpint(trv_schedule_oracle(post, &truth, el, 4, 1.0, plan), ==, 4);
  for (int b = 0; b < 4; b++) g_assert_cmpint(plan[b], !=, 2);
  el[0] = el[1] = false;
  g_assert_cmpint(trv_schedule_oracle(post, &truth, el, 4, 1.0, plan), ==, 0);
  trv_posterior_free(before);
  trv_posterior_free(post);
}

static void oracle_corrects_a_wrong_belief_first(void) {
  /* C->X believed present after ten readings, the others at the prior:
   * when the truth says C->X is absent, the oracle spends its first pair
   * there (its belief is wrong); when the truth agrees, elsewhere */
  TrvPosterior *post = posterior();
  for (int i = 0; i < 10; i++) trv_posterior_observe(post, 0, 1, 1.0);
  g_assert_cmpfloat(trv_posterior_presence(post, 0), >, 0.95);
  bool el[3] = {true, true, true};
  int plan[2];
  TrvGraph wrong = truth_graph(false, true, true), right = truth_graph(true, true, true);
  trv_schedule_oracle(post, &wrong, el, 2, 1.0, plan);
  g_assert_cmpint(plan[0], ==, 0);
  g_assert_cmpint(plan[1], ==, 0); /* a pair */
  trv_schedule_oracle(post, &right, el, 2, 1.0, plan);
  g_assert_cmpint(plan[0], !=, 0);
  g_assert_cmpint(plan[1], ==, plan[0]);
  trv_posterior_free(post);
}

static void ig_ties_go_to_smaller_out_degree_then_smaller_id(void) {
  TrvPosterior *post = posterior(); /* all three at the prior: equal EIG */
  bool el[3] = {true, true, true};
  int plan[1], cursor = 0;
  TrvRng rng;
  trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
  trv_schedule_probes(TRV_SCHED_IG, post, &cand, el, 1, 1, 1.0, NULL, &cursor, &rng, plan);
  g_assert_cmpint(plan[0], ==, 2); /* X has out-degree 1, C has 2 */
  el[2] = false;
  trv_schedule_probes(TRV_SCHED_IG, post, &cand, el, 1, 1, 1.0, NULL, &cursor, &rng, plan);
  g_assert_cmpint(plan[0], ==, 0); /* C->X and C->Y tie on degree: smaller id */
  trv_posterior_free(post);
}

static void ig_spreads_probes_by_marginal_gain(void) {
  TrvPosterior *post = posterior();
  bool el[3] = {true, true, true};
  int plan[9], cursor = 0, count[3] = {0};
  TrvRng rng;
  trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
  trv_schedule_probes(TRV_SCHED_IG, post, &cand, el, 9, 1, 1.0, NULL, &cursor, &rng, plan);
  for (int b = 0; b < 9; b++) count[plan[b]]++;
  /* equal priors and diminishing returns: 3 each */
  for (int j = 0; j < 3; j++) g_assert_cmpint(count[j], ==, 3);
  trv_posterior_free(post);
}

/* IGScore in units written out on its own, with EIG evaluated afresh
 * every time (no memo): choose the component whose next `size` probes
 * gain most (ties to the smaller out-degree, then id), `size` = unit
 * except a last, smaller choice. */
static int reference_units(const TrvPosterior *post, const bool *el, int budget, int unit, int *plan) {
  int n = cand.n_components, k[3] = {0}, b = 0;
  while (b < budget) {
    int size = MIN(unit, budget - b), best = -1;
    double best_gain = 0;
    for (int j = 0; j < n; j++) {
      if (!el[j]) continue;
      double g = trv_posterior_eig_bits(post, j, k[j] + size, 1.0) - trv_posterior_eig_bits(post, j, k[j], 1.0);
      int dj = trv_candidates_out_degree(&cand, j), db = best < 0 ? 0 : trv_candidates_out_degree(&cand, best);
      if (best < 0 || g > best_gain + 1e-12 || (fabs(g - best_gain) <= 1e-12 && dj < db)) best = j, best_gain = g;
    }
    if (best < 0) break;
    for (int s = 0; s < size; s++) plan[b++] = best;
    k[best] += size;
  }
  return b;
}

static void ig_chooses_in_units_of_teams(void) {
  TrvPosteriorParams p = {.pi0 = 0.5,
                          .tau2 = 1,
                          .s2 = 1,
                          .kappa_min = 0.5,
                          .hazard = 0.001,
                          .lambda = 0.9,
                          .slab = TRV_SLAB_SOFT,
                          .track = TRV_TRACK_HAZARD};
  TrvPosterior *post = trv_posterior_new(3, &p);
  /* different beliefs, so that the choices differ */
  for (int i = 0; i < 3; i++) trv_posterior_observe(post, 0, 1, 0.9);
  trv_posterior_observe(post, 1, 1, 0.1);
  trv_posterior_episode_begin(post); /* empty episode statistics: the memo's case */
  bool el[3] = {true, true, true};
  int cursor = 0;
  TrvRng rng;
  trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
  TrvEigMemo *memo = trv_eig_memo_new();
  /* unit, budget and the choice size: unit, or B / (4 x 3) when smaller */
  const int units[] = {1, 3, 11, 11, 4}, budgets[] = {9, 36, 200, 40, 50}, sizes[] = {1, 3, 11, 3, 4};
  for (int u = 0; u < 5; u++) {
    int got[256], free_got[256], want[256], count[3] = {0};
    int n = trv_schedule_probes(TRV_SCHED_IG, post, &cand, el, budgets[u], units[u], 1.0, memo, &cursor, &rng, got);
    g_assert_cmpint(n, ==, budgets[u]);
    /* the memo (built sparsely, k = unit, 2 unit, ...) changes nothing */
    g_assert_cmpint(
        trv_schedule_probes(TRV_SCHED_IG, post, &cand, el, budgets[u], units[u], 1.0, NULL, &cursor, &rng, free_got),
        ==, n);
    g_assert_cmpint(reference_units(post, el, budgets[u], sizes[u], want), ==, n);
    for (int b = 0; b < n; b++) {
      g_assert_cmpint(got[b], ==, free_got[b]);
      g_assert_cmpint(got[b], ==, want[b]);
      count[got[b]]++;
    }
    /* whole choices, but for the one last */
    int rest = budgets[u] % sizes[u], odd = 0;
    for (int j = 0; j < 3; j++) {
      if (count[j] % sizes[u] == 0) continue;
      odd++;
      g_assert_cmpint(count[j] % sizes[u], ==, rest);
    }
    g_assert_cmpint(odd, <=, 1);
  }
  /* the memo asked for large k first, then small ones: the same answers */
  g_assert_cmpfloat(trv_posterior_eig_bits_memo(post, 2, 40, 1.0, memo), ==, trv_posterior_eig_bits(post, 2, 40, 1.0));
  g_assert_cmpfloat(trv_posterior_eig_bits_memo(post, 2, 2, 1.0, memo), ==, trv_posterior_eig_bits(post, 2, 2, 1.0));
  trv_eig_memo_free(memo);
  trv_posterior_free(post);
}

static void round_robin_cycles_and_skips_frozen(void) {
  TrvPosterior *post = posterior();
  bool el[3] = {true, false, true};
  int plan[5], cursor = 0;
  TrvRng rng;
  trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
  trv_schedule_probes(TRV_SCHED_ROUNDROBIN, post, &cand, el, 5, 1, 1.0, NULL, &cursor, &rng, plan);
  int want[5] = {0, 2, 0, 2, 0};
  for (int b = 0; b < 5; b++) g_assert_cmpint(plan[b], ==, want[b]);
  trv_schedule_probes(TRV_SCHED_ROUNDROBIN, post, &cand, el, 1, 1, 1.0, NULL, &cursor, &rng, plan);
  g_assert_cmpint(plan[0], ==, 2); /* continues where the last episode stopped */
  trv_posterior_free(post);
}

static void random_scheduler_uses_only_eligible_components(void) {
  TrvPosterior *post = posterior();
  bool el[3] = {false, true, true};
  int plan[600], cursor = 0, count[3] = {0};
  TrvRng rng;
  trv_rng_init(&rng, 1, TRV_STREAM_SCHEDULE);
  trv_schedule_probes(TRV_SCHED_RANDOM, post, &cand, el, 600, 1, 1.0, NULL, &cursor, &rng, plan);
  for (int b = 0; b < 600; b++) count[plan[b]]++;
  g_assert_cmpint(count[0], ==, 0);
  g_assert_cmpint(abs(count[1] - 300), <, 60); /* binomial sd 12.2: 5 sigma */
  bool none[3] = {false, false, false};
  g_assert_cmpint(trv_schedule_probes(TRV_SCHED_IG, post, &cand, none, 5, 1, 1.0, NULL, &cursor, &rng, plan), ==, 0);
  trv_posterior_free(post);
}

/* The disjoint split written out on its own: whole components,
 * the heaviest first (ties to the lower id) to the least-loaded agent (ties
 * to the lower index).  An independent implementation to check cap 1. */
static void reference_disjoint(const int *probes, int n_probes, int n, int n_agents, int *agent_of) {
  int count[TRV_MAX_COMPONENTS] = {0}, owner[TRV_MAX_COMPONENTS];
  bool done[TRV_MAX_COMPONENTS] = {false};
  int *load = g_new0(int, n_agents);
  for (int i = 0; i < n_probes; i++) count[probes[i]]++;
  for (int k = 0; k < n; k++) {
    int j = -1;
    for (int c = 0; c < n; c++)
      if (!done[c] && (j < 0 || count[c] > count[j])) j = c;
    done[j] = true;
    int best = 0;
    for (int a = 1; a < n_agents; a++)
      if (load[a] < load[best]) best = a;
    owner[j] = best;
    load[best] += count[j];
  }
  for (int i = 0; i < n_probes; i++) agent_of[i] = owner[probes[i]];
  g_free(load);
}

static void disjoint_assignment_matches_the_reference(void) {
  GRand *r = g_rand_new_with_seed(7);
  for (int trial = 0; trial < 500; trial++) {
    int n = g_rand_int_range(r, 1, 13), agents = g_rand_int_range(r, 1, 20), np = g_rand_int_range(r, 0, 80);
    int probes[80], got[80], want[80];
    for (int i = 0; i < np; i++) probes[i] = g_rand_int_range(r, 0, n);
    trv_assign_probes(probes, np, n, agents, 1, NULL, got);
    reference_disjoint(probes, np, n, agents, want);
    for (int i = 0; i < np; i++) g_assert_cmpint(got[i], ==, want[i]);
  }
  g_rand_free(r);
}

static void coalitions_split_a_component_evenly(void) {
  int probes[12], agent_of[12], load[4] = {0};
  for (int i = 0; i < 12; i++) probes[i] = 2;
  /* 12 probes of one component over 4 agents: the even load is 3, so the
   * coalition is 4 agents of 3 probes each */
  trv_assign_probes(probes, 12, 3, 4, 4, NULL, agent_of);
  for (int i = 0; i < 12; i++) load[agent_of[i]]++;
  for (int a = 0; a < 4; a++) g_assert_cmpint(load[a], ==, 3);
  for (int i = 0; i < 12; i++) g_assert_cmpint(agent_of[i], ==, i / 3); /* plan order fills chunk 0 first */
  /* capped at 2: two agents of 6 */
  memset(load, 0, sizeof load);
  trv_assign_probes(probes, 12, 3, 4, 2, NULL, agent_of);
  for (int i = 0; i < 12; i++) load[agent_of[i]]++;
  g_assert_cmpint(load[0], ==, 6);
  g_assert_cmpint(load[1], ==, 6);
  g_assert_cmpint(load[2] + load[3], ==, 0);
  /* 7 probes of 0 and 2 of 1 over 3 agents, cap 3: L = 3, so 0 gets
   * ceil(7/3) = 3 agents (3, 2, 2), 1 one agent; LPT puts 1 beside a 2 */
  int p2[9] = {0, 0, 1, 0, 0, 1, 0, 0, 0}, a2[9], l2[3] = {0};
  trv_assign_probes(p2, 9, 2, 3, 3, NULL, a2);
  for (int i = 0; i < 9; i++) l2[a2[i]]++;
  g_assert_cmpint(l2[0], ==, 3);
  g_assert_cmpint(l2[1], ==, 4);
  g_assert_cmpint(l2[2], ==, 2);
  g_assert_cmpint(a2[2], ==, 1);
  g_assert_cmpint(a2[5], ==, 1);
}

/* Invariants of any split: every probe goes to an agent; a component's
 * coalition is min(cap, agents, ceil(k / L)) agents whose shares differ by
 * at most one; the largest load is at most L + the largest chunk. */
static void coalition_invariants_hold(void) {
  GRand *r = g_rand_new_with_seed(11);
  for (int trial = 0; trial < 500; trial++) {
    int n = g_rand_int_range(r, 1, 13), agents = g_rand_int_range(r, 1, 64), cap = g_rand_int_range(r, 1, 16);
    int np = g_rand_int_range(r, 1, 300), probes[300], agent_of[300];
    for (int i = 0; i < np; i++) probes[i] = g_rand_int_range(r, 0, g_rand_boolean(r) ? 1 : n);
    trv_assign_probes(probes, np, n, agents, cap, NULL, agent_of);
    int even = (np + agents - 1) / agents, max_chunk = 0, max_load = 0;
    int *share = g_new0(int, (size_t)agents *n), *load = g_new0(int, agents);
    for (int i = 0; i < np; i++) {
      g_assert_cmpint(agent_of[i], >=, 0);
      g_assert_cmpint(agent_of[i], <, agents);
      share[agent_of[i] * n + probes[i]]++;
      load[agent_of[i]]++;
    }
    for (int j = 0; j < n; j++) {
      int k = 0, members = 0, lo = INT_MAX, hi = 0;
      for (int a = 0; a < agents; a++)
        if (share[a * n + j])
          members++, k += share[a * n + j], lo = MIN(lo, share[a * n + j]), hi = MAX(hi, share[a * n + j]);
      if (!k) continue;
      g_assert_cmpint(members, ==, MIN(MIN(cap, agents), (k + even - 1) / even));
      g_assert_cmpint(hi - lo, <=, 1);
      max_chunk = MAX(max_chunk, hi);
    }
    for (int a = 0; a < agents; a++) max_load = MAX(max_load, load[a]);
    g_assert_cmpint(max_load, <=, even + max_chunk);
    g_free(share);
    g_free(load);
  }
  g_rand_free(r);
}

/* With agents' probe values, equally loaded agents are chosen by value:
 * two components over five agents go to the two most valuable ones; with
 * equal values the split is the one without values. */
static void probes_go_to_the_most_valuable_agents(void) {
  int probes[6] = {0, 1, 0, 1, 0, 0}, agent_of[6], plain[6];
  double value[5] = {0.2, 1.0, 0.5, 1.0, 0.9};
  trv_assign_probes(probes, 6, 2, 5, 1, value, agent_of);
  for (int i = 0; i < 6; i++) g_assert_cmpint(agent_of[i], ==, probes[i] == 0 ? 1 : 3); /* ties: lower index first */
  double same[5] = {0.7, 0.7, 0.7, 0.7, 0.7};
  trv_assign_probes(probes, 6, 2, 5, 1, same, agent_of);
  trv_assign_probes(probes, 6, 2, 5, 1, NULL, plain);
  for (int i = 0; i < 6; i++) g_assert_cmpint(agent_of[i], ==, plain[i]);
  /* a coalition of 3 over the three most valuable: agents 1, 3, 4 */
  int one[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, a9[9];
  trv_assign_probes(one, 9, 1, 5, 3, value, a9);
  int load[5] = {0};
  for (int i = 0; i < 9; i++) load[a9[i]]++;
  g_assert_cmpint(load[1], ==, 3);
  g_assert_cmpint(load[3], ==, 3);
  g_assert_cmpint(load[4], ==, 3);
}

/* The split written out with a scan instead of a heap: chunks as
 * trv_assign_probes builds them, each to the least-loaded agent that holds
 * none of its component, the first such in value order. */
static int cmp_chunk(const void *pa, const void *pb) {
  const int *a = pa, *b = pb; /* {component, size, index} */
  if (a[1] != b[1]) return a[1] > b[1] ? -1 : 1;
  if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
  return (a[2] > b[2]) - (a[2] < b[2]);
}

static void reference_split(const int *probes, int np, int n, int agents, int cap, const double *value, int *agent_of) {
  int count[TRV_MAX_COMPONENTS] = {0}, size[TRV_MAX_COMPONENTS] = {0}, first[TRV_MAX_COMPONENTS + 1] = {0};
  for (int i = 0; i < np; i++) count[probes[i]]++;
  int even = (np + agents - 1) / agents, nch = 0;
  for (int j = 0; j < n; j++) {
    if (count[j]) size[j] = MIN(MIN((count[j] + even - 1) / even, cap), agents);
    nch += size[j];
    first[j + 1] = first[j] + size[j];
  }
  int(*ch)[3] = g_malloc(sizeof(int[3]) * (size_t)(nch + 1)), c = 0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < size[j]; i++)
      ch[c][0] = j, ch[c][1] = count[j] / size[j] + (i < count[j] % size[j]), ch[c++][2] = i;
  qsort(ch, (size_t)nch, sizeof *ch, cmp_chunk);
  int *order = g_new(int, agents), *load = g_new0(int, agents), *owner = g_new(int, nch + 1);
  bool *holds = g_new0(bool, (size_t)agents *n);
  for (int a = 0; a < agents; a++) order[a] = a;
  if (value) /* by value, highest first, ties to the lower index: insertion sort */
    for (int a = 1; a < agents; a++)
      for (int b = a; b > 0 && value[order[b]] > value[order[b - 1]]; b--) {
        int t = order[b];
        order[b] = order[b - 1], order[b - 1] = t;
      }
  for (int k = 0; k < nch; k++) {
    int best = -1;
    for (int i = 0; i < agents; i++) {
      int a = order[i];
      if (!holds[a * n + ch[k][0]] && (best < 0 || load[a] < load[best])) best = a;
    }
    holds[best * n + ch[k][0]] = true;
    load[best] += ch[k][1];
    owner[first[ch[k][0]] + ch[k][2]] = best;
  }
  int seen[TRV_MAX_COMPONENTS] = {0};
  for (int i = 0; i < np; i++) {
    int j = probes[i], t = seen[j]++, q = count[j] / size[j], r = count[j] % size[j];
    agent_of[i] = owner[first[j] + (t < r * (q + 1) ? t / (q + 1) : r + (t - r * (q + 1)) / q)];
  }
  g_free(holds), g_free(owner), g_free(load), g_free(order), g_free(ch);
}

static void coalition_split_matches_the_scan(void) {
  GRand *r = g_rand_new_with_seed(13);
  for (int trial = 0; trial < 400; trial++) {
    int n = g_rand_int_range(r, 1, 13), agents = g_rand_int_range(r, 1, 140), cap = g_rand_int_range(r, 1, 14);
    int np = g_rand_int_range(r, 0, 800), probes[800], got[800], want[800];
    double value[140];
    for (int a = 0; a < agents; a++) value[a] = g_rand_int_range(r, 0, 5); /* ties on purpose */
    for (int i = 0; i < np; i++) probes[i] = g_rand_int_range(r, 0, n);
    const double *v = trial % 2 ? value : NULL;
    trv_assign_probes(probes, np, n, agents, cap, v, got);
    reference_split(probes, np, n, agents, cap, v, want);
    for (int i = 0; i < np; i++) g_assert_cmpint(got[i], ==, want[i]);
  }
  g_rand_free(r);
}

static void teams_bring_a_budget_each(void) {
  g_assert_cmpint(trv_teams(256, 1, 12), ==, 1); /* disjoint: one budget */
  g_assert_cmpint(trv_teams(12, 0, 12), ==, 1);
  g_assert_cmpint(trv_teams(13, 0, 12), ==, 2);
  g_assert_cmpint(trv_teams(256, 0, 12), ==, 22); /* ceil(256 / 12) */
  g_assert_cmpint(trv_teams(0, 0, 12), ==, 1);    /* agents unknown */
  g_assert_cmpint(trv_coalition_cap(0, 12), ==, 12);
  g_assert_cmpint(trv_coalition_cap(0, 2.5), ==, 3);
  g_assert_cmpint(trv_coalition_cap(5, 12), ==, 5);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/schedule/budget_is_the_spec_formula", budget_is_the_spec_formula);
  g_test_add_func("/schedule/ig_probes_the_most_uncertain_component_first",
                  ig_probes_the_most_uncertain_component_first);
  g_test_add_func("/schedule/ig_ties_go_to_smaller_out_degree_then_smaller_id",
                  ig_ties_go_to_smaller_out_degree_then_smaller_id);
  g_test_add_func("/schedule/ig_spreads_probes_by_marginal_gain", ig_spreads_probes_by_marginal_gain);
  g_test_add_func("/schedule/ig_chooses_in_units_of_teams", ig_chooses_in_units_of_teams);
  g_test_add_func("/schedule/round_robin_cycles_and_skips_frozen", round_robin_cycles_and_skips_frozen);
  g_test_add_func("/schedule/oracle_probes_where_the_truth_is_least_settled",
                  oracle_probes_where_the_truth_is_least_settled);
  g_test_add_func("/schedule/oracle_corrects_a_wrong_belief_first", oracle_corrects_a_wrong_belief_first);
  g_test_add_func("/schedule/random_scheduler_uses_only_eligible_components",
                  random_scheduler_uses_only_eligible_components);
  g_test_add_func("/schedule/disjoint_assignment_matches_the_reference", disjoint_assignment_matches_the_reference);
  g_test_add_func("/schedule/coalitions_split_a_component_evenly", coalitions_split_a_component_evenly);
  g_test_add_func("/schedule/coalition_invariants_hold", coalition_invariants_hold);
  g_test_add_func("/schedule/coalition_split_matches_the_scan", coalition_split_matches_the_scan);
  g_test_add_func("/schedule/teams_bring_a_budget_each", teams_bring_a_budget_each);
  g_test_add_func("/schedule/probes_go_to_the_most_valuable_agents", probes_go_to_the_most_valuable_agents);
  return g_test_run();
}
