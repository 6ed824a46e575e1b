/* schedule-parallel.c - the parallel probe scheduler: an episode's budget
 * planned and assigned to the agents at once, for information per
 * simulated second (schedule.h, trv_schedule_parallel).
 *
 * The agents run their probes in parallel, each one after another on its
 * host, so an episode lasts about as long as its busiest agent: its
 * makespan max_a (base_a + n_a probe_a) (TrvAgentCost), plus messaging that
 * no plan changes.  The greedy places the budget probe by probe; a choice
 * is a component j and the agent its probe would run on: the agent of j's
 * coalition that would finish it first, or, while the coalition has fewer
 * than `cap` agents (1: disjoint assignment), the agent of all that would
 * finish it first.  It takes the choice of largest marginal expected
 * information gain per marginal makespan, gain_j(k_j) / delta_j:
 *   - a choice that does not lengthen the episode (delta_j = 0: the agent
 *     finishes the probe before the busiest one is done) comes before any
 *     that does, the largest gain first: idle agents are filled with the
 *     most informative components they may take;
 *   - otherwise the ratio, compared exactly as gain_x delta_y against
 *     gain_y delta_x, or as gains when the two deltas are equal.
 * Ties: the smaller out-degree, then the smaller id (IGScore's).  The gain
 * is IGScore's marginal gain of one more probe given those planned
 * (schedule.c), accumulated the same way, so with one agent (every delta
 * the same) the plan is IGScore's probe for probe.  Agents that would
 * finish at the same time are taken with the fewest probes first, then by
 * value (highest first, when given), then by index, so that probes which
 * cost no time (a probe that fits in its step) still spread over agents.
 * The plan holds exactly `budget` probes of eligible components; a
 * component's probes run on at most `cap` agents.
 * With coalitions that may hold every agent (cap >= M) every component's
 * next probe goes to the same least-loaded agent, so the plan is IGScore's
 * run in parallel; with disjoint assignment a short episode needs the
 * budget spread over the components, and settled ones get probes that
 * IGScore would have spent on the open one (docs/controller.md,
 * docs/experiments/faults-and-agents.md).  Cost: B choices over the n
 * components, each O(cap) or a heap top, O(log M) per placement, and the
 * value order O(M log M). */
#include <glib.h>
#include <math.h>

#include "schedule.h"
#include "stats.h"

/* The agents, in a binary min-heap by the time they would finish one more
 * probe (load + probe), then their probes, then their rank in value
 * order: the top is where a component free to take a new agent goes. */
typedef struct {
  double *load;        /* simulated seconds of the agent's episode so far */
  const double *probe; /* what one more probe adds */
  int *count;          /* probes planned on the agent */
  int *rank;           /* position in value order (0: most valuable) */
  int *heap, *where;   /* heap of agents; where[a]: a's index in heap */
  int n;
} Agents;

static bool agent_before(const Agents *g, int a, int b) {
  double fa = g->load[a] + g->probe[a], fb = g->load[b] + g->probe[b];
  if (fa != fb) return fa < fb;
  if (g->count[a] != g->count[b]) return g->count[a] < g->count[b];
  return g->rank[a] < g->rank[b];
}

static void heap_place(Agents *g, int i, int a) {
  g->heap[i] = a;
  g->where[a] = i;
}

static void sift_up(Agents *g, int i) {
  int a = g->heap[i];
  for (; i > 0 && agent_before(g, a, g->heap[(i - 1) / 2]); i = (i - 1) / 2) heap_place(g, i, g->heap[(i - 1) / 2]);
  heap_place(g, i, a);
}

static void sift_down(Agents *g, int i) {
  int a = g->heap[i];
  for (;;) {
    int c = 2 * i + 1;
    if (c >= g->n) break;
    if (c + 1 < g->n && agent_before(g, g->heap[c + 1], g->heap[c])) c++;
    if (!agent_before(g, g->heap[c], a)) break;
    heap_place(g, i, g->heap[c]);
    i = c;
  }
  heap_place(g, i, a);
}

/* Coalitions: the agents probing each component, in the order they joined. */
typedef struct {
  GArray *members[TRV_MAX_COMPONENTS]; /* int */
} Coalitions;

/* The agent that would run j's next probe. */
static int agent_for(const Agents *g, const Coalitions *co, int j, int cap) {
  const GArray *m = co->members[j];
  if ((int)m->len < cap) return g->heap[0]; /* any agent: a member or a new one */
  int best = g_array_index(m, int, 0);
  for (guint i = 1; i < m->len; i++) {
    int a = g_array_index(m, int, i);
    if (agent_before(g, a, best)) best = a;
  }
  return best;
}

typedef struct {
  int j, agent, outdeg;
  double gain, delta;
  bool free; /* the probe does not lengthen the episode */
} Choice;

/* Whether choice x comes before choice y (see the file's comment). */
static bool choice_before(const Choice *x, const Choice *y) {
  if (x->free != y->free) return x->free;
  int cmp;
  if (x->free || x->delta == y->delta) {
    cmp = (x->gain > y->gain) - (x->gain < y->gain);
  } else {
    double a = x->gain * y->delta, b = y->gain * x->delta;
    cmp = (a > b) - (a < b);
  }
  if (cmp) return cmp > 0;
  if (x->outdeg != y->outdeg) return x->outdeg < y->outdeg;
  return x->j < y->j;
}

int trv_schedule_parallel(const TrvPosterior *post, const TrvCandidates *cand, const bool *eligible, int budget,
                          int n_agents, int cap, const TrvAgentCost *cost, const double *value, double zabs,
                          TrvEigMemo *memo, int *plan, int *agent_of) {
  g_assert(n_agents >= 1 && cap >= 1 && cand->n_components <= TRV_MAX_COMPONENTS);
  int n = cand->n_components, n_el = 0;
  for (int j = 0; j < n; j++) n_el += eligible[j];
  if (n_el == 0 || budget <= 0) return 0;

  /* the agents: loads from their bases, ranks from their values */
  int na = n_agents, *order = g_new(int, na);
  Agents g = {g_new(double, na), NULL, g_new0(int, na), g_new(int, na), g_new(int, na), g_new(int, na), 0};
  double *probe = g_new(double, na), makespan = 0;
  if (value)
    trv_rank_desc(value, na, order);
  else
    for (int a = 0; a < na; a++) order[a] = a;
  for (int i = 0; i < na; i++) g.rank[order[i]] = i;
  for (int a = 0; a < na; a++) {
    g.load[a] = cost ? cost[a].base : 0.0;
    probe[a] = cost ? cost[a].probe : 1.0;
    g_assert(isfinite(g.load[a]) && g.load[a] >= 0 && isfinite(probe[a]) && probe[a] >= 0);
    makespan = MAX(makespan, g.load[a]);
  }
  g.probe = probe;
  for (int a = 0; a < na; a++) {
    g.heap[g.n] = a;
    g.where[a] = g.n;
    sift_up(&g, g.n++);
  }

  Coalitions co;
  uint64_t *holds = g_new0(uint64_t, na); /* bit j: the agent is in j's coalition */
  int k[TRV_MAX_COMPONENTS] = {0}, outdeg[TRV_MAX_COMPONENTS];
  double eig[TRV_MAX_COMPONENTS], gain[TRV_MAX_COMPONENTS];
  for (int j = 0; j < n; j++) {
    co.members[j] = g_array_new(FALSE, FALSE, sizeof(int));
    eig[j] = 0.0;
    outdeg[j] = trv_candidates_out_degree(cand, j);
    gain[j] = eligible[j] ? trv_posterior_eig_bits_memo(post, j, 1, zabs, memo) : -1.0;
  }
  for (int b = 0; b < budget; b++) {
    Choice best = {.j = -1};
    for (int j = 0; j < n; j++) {
      if (!eligible[j]) continue;
      int a = agent_for(&g, &co, j, cap);
      double delta = g.load[a] + probe[a] - makespan;
      /* a probe that ends by the busiest agent's end costs nothing: a
       * relative tolerance absorbs the rounding of loads summed in other
       * orders */
      Choice c = {j, a, outdeg[j], gain[j], delta, delta <= 1e-9 * MAX(1.0, makespan)};
      if (best.j < 0 || choice_before(&c, &best)) best = c;
    }
    int j = best.j, a = best.agent;
    plan[b] = j;
    agent_of[b] = a;
    g.load[a] += probe[a];
    g.count[a]++;
    makespan = MAX(makespan, g.load[a]);
    sift_down(&g, g.where[a]); /* its key only grew */
    if (!(holds[a] >> j & 1)) {
      holds[a] |= UINT64_C(1) << j;
      g_array_append_val(co.members[j], a);
      g_assert((int)co.members[j]->len <= cap);
    }
    /* IGScore's gain of j's next probe, accumulated as schedule.c does */
    eig[j] += gain[j];
    k[j]++;
    if (b + 1 < budget) gain[j] = trv_posterior_eig_bits_memo(post, j, k[j] + 1, zabs, memo) - eig[j];
  }
  for (int j = 0; j < n; j++) g_array_free(co.members[j], TRUE);
  g_free(holds);
  g_free(probe);
  g_free(order);
  g_free(g.load);
  g_free(g.count);
  g_free(g.rank);
  g_free(g.heap);
  g_free(g.where);
  return budget;
}
