/* schedule.c - budget rule and probe schedulers.  See schedule.h. */
#include "schedule.h"

#include <glib.h>
#include <math.h>
#include <stdlib.h>

#include "stats.h"

int trv_budget(int episode, int window, double alpha, double m0, int steps) {
  int base = episode > window ? episode : window;
  double b = ceil(alpha * m0 * log((double)base + 1.0));
  if (b < 0) b = 0;
  return b > steps ? steps : (int)b;
}

#define IG_CHOICES_PER_COMPONENT 4

static int ig_schedule(const TrvPosterior *post, const TrvCandidates *cand, const bool *eligible, int budget, int unit,
                       double zabs, TrvEigMemo *memo, int *plan) {
  int n = cand->n_components;
  int k[TRV_MAX_COMPONENTS] = {0};
  double eig[TRV_MAX_COMPONENTS], gain[TRV_MAX_COMPONENTS];
  int outdeg[TRV_MAX_COMPONENTS];
  int size = MIN(unit, budget); /* the probes of the next choice */
  for (int j = 0; j < n; j++) {
    eig[j] = 0.0;
    outdeg[j] = trv_candidates_out_degree(cand, j);
    gain[j] = eligible[j] ? trv_posterior_eig_bits_memo(post, j, size, zabs, memo) : -1.0;
  }
  for (int b = 0; b < budget;) {
    int best = -1;
    for (int j = 0; j < n; j++) {
      if (!eligible[j]) continue;
      if (best < 0 || gain[j] > gain[best] ||
          (gain[j] == gain[best] && (outdeg[j] < outdeg[best] || (outdeg[j] == outdeg[best] && j < best))))
        best = j;
    }
    if (best < 0) return b;
    for (int s = 0; s < size; s++) plan[b++] = best;
    eig[best] += gain[best];
    k[best] += size;
    if (b >= budget) break;  /* the last choice's next gain is never compared */
    if (budget - b < size) { /* a last, smaller choice: every gain for its size */
      size = budget - b;
      for (int j = 0; j < n; j++)
        if (eligible[j]) gain[j] = trv_posterior_eig_bits_memo(post, j, k[j] + size, zabs, memo) - eig[j];
    } else {
      gain[best] = trv_posterior_eig_bits_memo(post, best, k[best] + size, zabs, memo) - eig[best];
    }
  }
  return budget;
}

/* log P(component j takes the truth's value) under post. */
static double log_prob_truth(const TrvPosterior *post, const TrvGraph *truth, int j) {
  double absent, present;
  trv_posterior_losses(post, j, &absent, &present);
  return -(truth->present[j] ? present : absent);
}

/* Two probes of component j at z = zabs whose outcomes are the truth's
 * mean plus and minus one noise sd: together they add the statistics two
 * probes have in expectation under the truth (sum zw = 2 kappa z^2, sum
 * w^2 = 2 (kappa^2 z^2 + s2)). */
static void observe_expected_pair(TrvPosterior *post, const TrvGraph *truth, int j, double zabs) {
  double mean = truth->kappa[j] * zabs, sd = sqrt(trv_posterior_noise_var(post));
  trv_posterior_add_probe(post, j, zabs, mean + sd);
  trv_posterior_add_probe(post, j, zabs, mean - sd);
  trv_posterior_settle(post, j);
}

int trv_schedule_oracle(const TrvPosterior *post, const TrvGraph *truth, const bool *eligible, int budget, double zabs,
                        int *plan) {
  const int n = trv_posterior_n_components(post);
  g_assert(truth && truth->n == n);
  TrvPosterior *work = trv_posterior_copy(post), *trial = trv_posterior_copy(post);
  int b = 0;
  while (b < budget) {
    /* the best rate of gain per pair over the next 1 .. (pairs left)
     * pairs of each component: evidence for a present effect pays off
     * only after several probes (increasing returns), which one pair's
     * gain alone would not see */
    int best = -1, pairs_left = (budget - b + 1) / 2;
    double best_rate = -INFINITY;
    for (int j = 0; j < n; j++) {
      if (!eligible[j]) continue;
      trv_posterior_assign(trial, work);
      double before = log_prob_truth(work, truth, j);
      for (int m = 1; m <= pairs_left; m++) {
        observe_expected_pair(trial, truth, j, zabs);
        double rate = (log_prob_truth(trial, truth, j) - before) / m;
        if (rate > best_rate) best_rate = rate, best = j;
      }
    }
    if (best < 0) break;
    observe_expected_pair(work, truth, best, zabs);
    plan[b++] = best;
    if (b < budget) plan[b++] = best;
  }
  trv_posterior_free(work);
  trv_posterior_free(trial);
  return b;
}

int trv_schedule_probes(TrvSchedulerKind kind, const TrvPosterior *post, const TrvCandidates *cand,
                        const bool *eligible, int budget, int unit, double zabs, TrvEigMemo *memo, int *rr_cursor,
                        TrvRng *rng, int *plan) {
  g_assert(unit >= 1);
  int n = cand->n_components, n_el = 0, el[TRV_MAX_COMPONENTS];
  for (int j = 0; j < n; j++)
    if (eligible[j]) el[n_el++] = j;
  if (n_el == 0 || budget <= 0) return 0;
  switch (kind) {
    case TRV_SCHED_IG: {
      /* choices fine enough that every eligible component can have four */
      int fine = budget / (IG_CHOICES_PER_COMPONENT * n_el);
      return ig_schedule(post, cand, eligible, budget, MIN(unit, MAX(fine, 1)), zabs, memo, plan);
    }
    case TRV_SCHED_ROUNDROBIN:
      for (int b = 0; b < budget; b++) {
        /* next eligible id at or after the cursor, cyclically */
        int c = *rr_cursor % n, j = c;
        while (!eligible[j]) j = (j + 1) % n;
        plan[b] = j;
        *rr_cursor = (j + 1) % n;
      }
      return budget;
    case TRV_SCHED_RANDOM:
      for (int b = 0; b < budget; b++) plan[b] = el[trv_rng_below(rng, (uint64_t)n_el)];
      return budget;
    case TRV_SCHED_PARALLEL: { /* one agent */
      int *agent_of = g_new(int, budget);
      int got = trv_schedule_parallel(post, cand, eligible, budget, 1, 1, NULL, NULL, zabs, memo, plan, agent_of);
      g_free(agent_of);
      return got;
    }
  }
  g_assert_not_reached();
}

int trv_teams(int agents, int coalition, double m0) {
  if (coalition == 1 || agents <= 1 || !(m0 > 0)) return 1;
  double t = ceil((double)agents / m0);
  return t > TRV_PLAN_TEAMS_MAX ? TRV_PLAN_TEAMS_MAX : (int)t;
}

int trv_coalition_cap(int coalition, double m0) {
  if (coalition > 0) return coalition;
  double c = ceil(m0);
  return c < 1 ? 1 : c > 4096 ? 4096 : (int)c;
}

typedef struct {
  int component, size, index;
} Chunk;

/* Heaviest chunk first; ties to the lower component, then the lower index. */
static int chunk_cmp(const void *pa, const void *pb) {
  const Chunk *a = pa, *b = pb;
  if (a->size != b->size) return a->size > b->size ? -1 : 1;
  if (a->component != b->component) return a->component < b->component ? -1 : 1;
  return (a->index > b->index) - (a->index < b->index);
}

/* A binary min-heap of positions i in order[], by (load[order[i]], i). */
typedef struct {
  int *pos;
  const int *load, *order;
  int n;
} AgentHeap;

static bool heap_less(const AgentHeap *h, int x, int y) {
  int lx = h->load[h->order[x]], ly = h->load[h->order[y]];
  return lx != ly ? lx < ly : x < y;
}

static void heap_push(AgentHeap *h, int x) {
  int i = h->n++;
  for (; i > 0 && heap_less(h, x, h->pos[(i - 1) / 2]); i = (i - 1) / 2) h->pos[i] = h->pos[(i - 1) / 2];
  h->pos[i] = x;
}

/* The least position, or -1 when empty. */
static int heap_pop(AgentHeap *h) {
  if (h->n == 0) return -1;
  int top = h->pos[0], x = h->pos[--h->n], i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && heap_less(h, h->pos[c + 1], h->pos[c])) c++;
    if (!heap_less(h, h->pos[c], x)) break;
    h->pos[i] = h->pos[c];
    i = c;
  }
  if (h->n > 0) h->pos[i] = x;
  return top;
}

void trv_assign_probes(const int *probes, int n_probes, int n_components, int n_agents, int cap, const double *value,
                       int *agent_of) {
  g_assert(n_agents >= 1 && cap >= 1 && n_components <= TRV_MAX_COMPONENTS);
  if (n_probes <= 0) return;
  int count[TRV_MAX_COMPONENTS] = {0}, size[TRV_MAX_COMPONENTS] = {0};
  for (int i = 0; i < n_probes; i++) count[probes[i]]++;
  int even = (n_probes + n_agents - 1) / n_agents, n_chunks = 0;
  for (int j = 0; j < n_components; j++) {
    if (!count[j]) continue;
    int s = (count[j] + even - 1) / even;
    size[j] = MIN(MIN(s, cap), n_agents);
    n_chunks += size[j];
  }
  /* component j's probes in k = size[j] chunks, the first count % k one larger */
  Chunk *chunks = g_new(Chunk, n_chunks);
  int c = 0;
  for (int j = 0; j < n_components; j++)
    for (int i = 0; i < size[j]; i++) chunks[c++] = (Chunk){j, count[j] / size[j] + (i < count[j] % size[j]), i};
  qsort(chunks, (size_t)n_chunks, sizeof *chunks, chunk_cmp);
  /* longest processing time first: each chunk to the least-loaded agent that
   * holds no other chunk of its component, ties to the lower index */
  /* equally loaded agents are chosen by value, highest first, then index */
  int *load = g_new0(int, n_agents), *order = g_new(int, n_agents);
  if (value)
    trv_rank_desc(value, n_agents, order);
  else
    for (int a = 0; a < n_agents; a++) order[a] = a;
  uint64_t *holds = g_new0(uint64_t, n_agents);
  int *owner = g_new(int, n_chunks > 0 ? (size_t)n_chunks : 1); /* by (component, index) */
  int first[TRV_MAX_COMPONENTS + 1] = {0};
  for (int j = 0; j < n_components; j++) first[j + 1] = first[j] + size[j];
  /* The least-loaded agent first in `order`: a min-heap of positions in
   * order by (load, position); agents popped because they hold the chunk's
   * component go back after the choice (at most size[j] - 1 of them). */
  AgentHeap h = {g_new(int, n_agents), load, order, 0};
  int *aside = g_new(int, n_agents);
  for (int i = 0; i < n_agents; i++) heap_push(&h, i);
  for (int k = 0; k < n_chunks; k++) {
    const Chunk *ch = &chunks[k];
    uint64_t bit = UINT64_C(1) << ch->component;
    int n_aside = 0, pos;
    while ((pos = heap_pop(&h)) >= 0 && (holds[order[pos]] & bit)) aside[n_aside++] = pos;
    g_assert(pos >= 0); /* size[j] <= n_agents */
    int best = order[pos];
    holds[best] |= bit;
    load[best] += ch->size;
    owner[first[ch->component] + ch->index] = best;
    heap_push(&h, pos);
    for (int i = 0; i < n_aside; i++) heap_push(&h, aside[i]);
  }
  g_free(aside);
  g_free(h.pos);
  /* the probes of j, in plan order, fill its chunks in index order */
  int seen[TRV_MAX_COMPONENTS] = {0};
  for (int i = 0; i < n_probes; i++) {
    int j = probes[i], k = size[j], q = count[j] / k, r = count[j] % k, t = seen[j]++;
    /* chunk index of the t-th probe: the first r chunks hold q + 1 */
    int idx = t < r * (q + 1) ? t / (q + 1) : r + (t - r * (q + 1)) / q;
    agent_of[i] = owner[first[j] + idx];
  }
  g_free(owner);
  g_free(holds);
  g_free(order);
  g_free(load);
  g_free(chunks);
}
