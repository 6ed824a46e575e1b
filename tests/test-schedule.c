/* Budget rule and probe schedulers (docs/controller.md, "Probes and
 * scheduling"). */
#include <glib.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/posterior.h"
#include "core/schedule.h"

static const char *const vars[] = {"C", "X", "Y"};
static const TrvComponent comps[] = {{"C->X", 0, 1, false}, {"C->Y", 0, 2, false}, {"X->Y", 1, 2, true}};
static const TrvCandidates cand = {3, vars, 3, comps};

static TrvPosterior *posterior(void) {
  TrvPosteriorParams p = {.pi0 = 0.5,
                          .tau2 = 1,
                          .s2 = 1,
                          .kappa_min = 0.5,
                          .hazard = 0.001,
                          .lambda = 0.9,
                          .slab = TRV_SLAB_SEPARATED,
                          .track = TRV_TRACK_FORGETTING};
  return trv_posterior_new(3, &p);
}

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

/* ---- the parallel scheduler (schedule-parallel.c) ---- */

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
  TrvPosteriorParams p = {.pi0 = 0.5,
                          .tau2 = 1,
                          .s2 = 1,
                          .kappa_min = 0.5,
                          .hazard = 0.001,
                          .lambda = 0.9,
                          .slab = TRV_SLAB_SEPARATED,
                          .track = TRV_TRACK_FORGETTING};
  TrvPosterior *post = trv_posterior_new(n, &p);
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
