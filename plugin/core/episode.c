/* episode.c - a dispatch agent's episode: its share of the plan, the
 * dispatch gate, and the records it commits (the agent's side of
 * protocol.h; the public calls of trivium/agent.h but the one that waits
 * for a plan, which belongs to a transport).
 *
 * Invariants:
 *  - probe i of the share runs at step i; its sign is drawn when the
 *    episode is created (TrvProbeSigns: the agent's stream in order, or
 *    the run's stream at the probe's number), so the draws do not depend
 *    on how the agent calls us; a numbered probe tells the world its
 *    number before it runs (TrvAgentClass.probe_number);
 *  - the gate is a running tally over steps 0..t of -log P_t(G_hat_e)
 *    under the plan's snapshot, which takes in each probe outcome at its
 *    step; it is advanced in step order, once per step, whoever asks;
 *  - closing emits exactly one record per step, in step order, with the
 *    agent's next sequence numbers: retries of a commit carry the same
 *    (agent, seq) identities. */
#include <math.h>
#include <string.h>

#include "protocol.h"
#include "stats.h"
#include "world-call.h"

enum { HAS_STEP = 1, HAS_OUTCOME = 2 };

struct TrvEpisode {
  TrvPlan *plan;
  int agent, steps, safe_action;
  uint64_t *seq;
  int *probe_at;       /* per step: the component its probe intervenes on, or -1 */
  uint64_t *number_at; /* per step: its probe's number, when the plan numbers them */
  double *z;           /* per step: the signed intervention value of its probe */
  TrvRecord *recs;     /* per step */
  guint8 *has;         /* per step: HAS_* */
  bool *closed;        /* per step: the gate's answer */
  bool ghat_flags[TRV_MAX_COMPONENTS];
  int gate_upto; /* steps the gate has taken in */
  double tally;
  double lp_ghat; /* log P(G_hat) under the snapshot, valid while lp_valid */
  bool lp_valid;  /* the snapshot has not changed since lp_ghat */
  int gated;
  int planned; /* the action the agent's plan chose (trv_agent_play_begin) */
  TrvEpisodeSink sink;
};

TrvPlan *trv_plan_copy(const TrvPlan *plan) {
  TrvPlan *c = g_memdup2(plan, sizeof *plan);
  c->probes = plan->n_probes ? g_memdup2(plan->probes, sizeof(int) * (size_t)plan->n_probes) : NULL;
  c->numbers =
      plan->numbers && plan->n_probes ? g_memdup2(plan->numbers, sizeof(uint64_t) * (size_t)plan->n_probes) : NULL;
  c->snapshot = plan->snapshot ? trv_posterior_copy(plan->snapshot) : NULL;
  c->agent_cost = NULL; /* the whole plan's, which a copy does not own */
  c->agent_value = NULL;
  c->agent_of = NULL;
  c->assigned = false;
  c->truth = NULL;
  return c;
}

void trv_plan_free(TrvPlan *plan) {
  if (!plan) return;
  g_free(plan->probes);
  g_free(plan->numbers);
  trv_posterior_free(plan->snapshot);
  g_free(plan);
}

/* The numbers add nothing on the wire: a probe's number is the plan's
 * first number (fixed part) plus the probe's index in the plan, which the
 * 4 bytes of its component have room for (components < 2^6, indices <
 * 2^12). */
long trv_plan_wire_bytes(const TrvPlan *plan) { return 4L * plan->n_probes + 16L * plan->ghat.n + 80L * plan->ghat.n; }

TrvRecord trv_episode_end_record(int episode) {
  TrvRecord r = {.seq = (1ULL << 40) + (uint64_t)episode,
                 .agent = TRV_AGENT_CONTROLLER,
                 .episode = (uint32_t)episode,
                 .kind = TRV_RECORD_EPISODE_END,
                 .a_int = -1,
                 .snapshot_ref = (uint32_t)episode,
                 .commit_status = TRV_COMMIT_COMMITTED};
  return r;
}

void trv_probe_signs_init(TrvProbeSigns *signs, uint64_t seed, int agent) {
  memset(signs, 0, sizeof *signs);
  signs->seed = seed;
  signs->agent = agent;
  trv_rng_init(&signs->rng, seed, TRV_STREAM_PROBE + 100 * (uint64_t)agent);
}

/* The sign of the probe numbered n: draw n of the run's stream.  An
 * agent's numbers grow (its shares come in plan order, episode after
 * episode): it skips the draws of the probes others run; a number behind
 * the stream (none of ours) starts it over. */
static double numbered_sign(TrvProbeSigns *signs, uint64_t n) {
  if (!signs->numbered || n < signs->next) {
    trv_rng_init(&signs->rng, signs->seed, TRV_STREAM_PROBE);
    signs->numbered = true;
    signs->next = 0;
  }
  for (; signs->next < n; signs->next++) (void)trv_rng_sign(&signs->rng);
  signs->next++;
  return trv_rng_sign(&signs->rng);
}

TrvEpisode *trv_episode_new(const TrvPlan *plan, int agent, int steps, int safe_action, uint64_t *seq,
                            TrvProbeSigns *signs, const TrvEpisodeSink *sink) {
  return trv_episode_new_taking(trv_plan_copy(plan), agent, steps, safe_action, seq, signs, sink);
}

TrvEpisode *trv_episode_new_taking(TrvPlan *plan, int agent, int steps, int safe_action, uint64_t *seq,
                                   TrvProbeSigns *signs, const TrvEpisodeSink *sink) {
  g_assert(steps > 0 && plan->n_probes >= 0);
  TrvEpisode *ep = g_new0(TrvEpisode, 1);
  ep->plan = plan;
  ep->agent = agent;
  ep->steps = steps;
  ep->safe_action = safe_action;
  ep->seq = seq;
  ep->sink = *sink;
  /* probe i runs at step i < T (unless trv_agent_play places them): a
   * share longer than the episode keeps its first T probes */
  if (ep->plan->n_probes > steps) ep->plan->n_probes = steps;
  /* the per-step arrays in one zeroed block: records, z, probes, flags */
  size_t n = (size_t)steps;
  ep->recs = g_malloc0(
      n * (sizeof(TrvRecord) + sizeof(double) + sizeof(uint64_t) + sizeof(int) + sizeof(guint8) + sizeof(bool)));
  ep->z = (double *)(ep->recs + n);
  ep->number_at = (uint64_t *)(ep->z + n);
  ep->probe_at = (int *)(ep->number_at + n);
  ep->has = (guint8 *)(ep->probe_at + n);
  ep->closed = (bool *)(ep->has + n);
  for (int t = 0; t < steps; t++) ep->probe_at[t] = t < ep->plan->n_probes ? ep->plan->probes[t] : -1;
  for (int i = 0; i < ep->plan->n_probes; i++) {
    if (plan->numbers) ep->number_at[i] = plan->numbers[i];
    ep->z[i] = (plan->numbers ? numbered_sign(signs, plan->numbers[i]) : trv_rng_sign(&signs->rng)) * plan->zabs;
  }
  for (int j = 0; j < plan->ghat.n; j++) ep->ghat_flags[j] = plan->ghat.present[j];
  return ep;
}

static void episode_free(TrvEpisode *ep) {
  trv_plan_free(ep->plan);
  g_free(ep->recs); /* and the other per-step arrays (one block) */
  g_free(ep);
}

void trv_episode_discard(TrvEpisode *ep) {
  if (ep) episode_free(ep);
}

int trivium_episode_index(const TrvEpisode *ep) { return ep->plan->episode; }
int trivium_episode_agent(const TrvEpisode *ep) { return ep->agent; }
int trivium_episode_steps(const TrvEpisode *ep) { return ep->steps; }
const TrvGraph *trivium_episode_graph(const TrvEpisode *ep) { return &ep->plan->ghat; }
int trivium_episode_n_probes(const TrvEpisode *ep) { return ep->plan->n_probes; }
int trv_episode_gated(const TrvEpisode *ep) { return ep->gated; }

bool trivium_episode_probe(const TrvEpisode *ep, int step, int *component, double *z) {
  if (step < 0 || step >= ep->steps || ep->probe_at[step] < 0) return false;
  if (component) *component = ep->probe_at[step];
  if (z) *z = ep->z[step];
  return true;
}

void trivium_episode_record_probe(TrvEpisode *ep, int step, double outcome) {
  g_return_if_fail(step >= 0 && step < ep->steps && ep->probe_at[step] >= 0);
  ep->recs[step].outcome = outcome;
  ep->has[step] |= HAS_OUTCOME;
}

/* Takes steps gate_upto..upto into the gate. */
static void gate_advance(TrvEpisode *ep, int upto) {
  const TrvPlan *p = ep->plan;
  for (; ep->gate_upto <= upto; ep->gate_upto++) {
    int t = ep->gate_upto;
    if (!p->snapshot) continue;
    if (ep->probe_at[t] >= 0 && (ep->has[t] & HAS_OUTCOME)) {
      trv_posterior_observe(p->snapshot, ep->probe_at[t], ep->z[t], ep->recs[t].outcome);
      ep->lp_valid = false;
    }
    if (!p->gate) continue;
    if (!ep->lp_valid) { /* log P(G_hat) changes only when a probe outcome came in */
      ep->lp_ghat = trv_posterior_log_prob_graph(p->snapshot, ep->ghat_flags);
      ep->lp_valid = true;
    }
    ep->tally += -ep->lp_ghat;
    ep->closed[t] = ep->tally / (t + 1) > p->rho;
    ep->gated += ep->closed[t];
  }
}

bool trivium_episode_gate(TrvEpisode *ep, int step) {
  g_return_val_if_fail(step >= 0 && step < ep->steps, false);
  gate_advance(ep, step);
  return ep->closed[step];
}

void trivium_episode_record_step(TrvEpisode *ep, int step, int action, double reward, const double *context,
                                 int n_context) {
  g_return_if_fail(step >= 0 && step < ep->steps);
  g_return_if_fail(n_context >= 0 && n_context <= TRV_RECORD_CONTEXT_MAX && (context || n_context == 0));
  TrvRecord *r = &ep->recs[step];
  r->a_disp = action;
  r->reward = reward;
  r->n_context = (uint16_t)n_context;
  if (n_context) memcpy(r->context, context, sizeof(double) * (size_t)n_context);
  ep->has[step] |= HAS_STEP;
}

bool trivium_episode_close(TrvEpisode *ep, GError **error) {
  g_return_val_if_fail(ep != NULL, false);
  gate_advance(ep, ep->steps - 1);
  GArray *records = g_array_sized_new(FALSE, FALSE, sizeof(TrvRecord), (guint)ep->steps);
  g_array_set_size(records, (guint)ep->steps);
  /* the step records, bytes and all (the block is zeroed: so is padding) */
  memcpy(records->data, ep->recs, sizeof(TrvRecord) * (size_t)ep->steps);
  for (int t = 0; t < ep->steps; t++) {
    TrvRecord *r = &g_array_index(records, TrvRecord, t);
    r->seq = (*ep->seq)++;
    r->agent = (uint32_t)ep->agent;
    r->episode = (uint32_t)ep->plan->episode;
    r->step = (uint32_t)t;
    r->snapshot_ref = (uint32_t)ep->plan->episode;
    r->kind = TRV_RECORD_STEP;
    r->commit_status = TRV_COMMIT_PENDING;
    if (!(ep->has[t] & HAS_STEP)) r->a_disp = ep->safe_action, r->reward = 0, r->n_context = 0;
    r->a_int = -1;
    if (ep->probe_at[t] >= 0 && (ep->has[t] & HAS_OUTCOME)) { /* a probe never run gives no measurement */
      r->a_int = ep->probe_at[t];
      r->z = ep->z[t];
    } else {
      r->z = r->outcome = 0;
    }
  }
  bool ok = ep->sink.close(ep->sink.ctx, ep, records, error);
  g_array_unref(records); /* messages still in flight may hold it */
  episode_free(ep);
  return ok;
}

/* When to probe: the plan's probes, in order, at the n steps of the
 * highest probe value (ties to the earlier step), in step order; their
 * signs stay those drawn for them. */
static int cmp_int(const void *pa, const void *pb) {
  int a = *(const int *)pa, b = *(const int *)pb;
  return (a > b) - (a < b);
}

static void place_probes(TrvEpisode *ep, const double *value) {
  int n = ep->plan->n_probes, T = MAX(ep->steps, 1), *order = g_new(int, (size_t)MAX(n, 1));
  trv_top_desc(value, T, n, order);
  qsort(order, (size_t)n, sizeof *order, cmp_int);
  double *z = g_new(double, (size_t)T);
  uint64_t *number = g_new(uint64_t, (size_t)T);
  memcpy(z, ep->z, sizeof(double) * (size_t)T);
  memcpy(number, ep->number_at, sizeof(uint64_t) * (size_t)T);
  for (int t = 0; t < T; t++) ep->probe_at[t] = -1, ep->z[t] = 0, ep->number_at[t] = 0;
  for (int i = 0; i < n; i++)
    ep->probe_at[order[i]] = ep->plan->probes[i], ep->z[order[i]] = z[i], ep->number_at[order[i]] = number[i];
  g_free(number);
  g_free(z);
  g_free(order);
}

/* The probe values of the episode's steps, checked in [0, 1], placed. */
static bool place_by_value(const TrvWorldClass *wc, void *aw, TrvEpisode *ep, GError **error) {
  double *value = g_new(double, (size_t)MAX(ep->steps, 1));
  bool ok = true;
  for (int t = 0; t < ep->steps && ok; t++) {
    value[t] = wc->agent->probe_value_at(aw, t);
    ok = trv_world_check_number(wc->name, "agent.probe_value_at", value[t], 0, 1, error);
  }
  if (ok) place_probes(ep, value);
  g_free(value);
  return ok;
}

bool trv_agent_play_begin(const TrvWorldClass *wc, void *aw, TrvEpisode *ep, GError **error) {
  ep->planned = wc->agent->plan(aw, &ep->plan->ghat);
  return !(ep->plan->place_probes && wc->agent->probe_value_at && ep->plan->n_probes > 0) ||
         place_by_value(wc, aw, ep, error);
}

bool trv_agent_play_act(const TrvWorldClass *wc, void *aw, TrvEpisode *ep, int t, GError **error) {
  const TrvAgentClass *ac = wc->agent;
  const char *world = wc->name;
  double context[TRV_RECORD_CONTEXT_MAX];
  int n = ac->observe(aw, t, context, TRV_RECORD_CONTEXT_MAX);
  if (!trv_world_check_count(world, "agent.observe", n, TRV_RECORD_CONTEXT_MAX, error)) return false;
  int j;
  double z;
  if (trivium_episode_probe(ep, t, &j, &z)) {
    if (ep->plan->numbers && ac->probe_number) ac->probe_number(aw, ep->number_at[t]);
    double outcome = ac->probe(aw, j, z);
    if (!trv_world_check_number(world, "agent.probe", outcome, -INFINITY, INFINITY, error)) return false;
    trivium_episode_record_probe(ep, t, outcome);
  }
  int a = trivium_episode_gate(ep, t) ? ep->safe_action : ep->planned;
  double reward = ac->act(aw, a);
  if (!trv_world_check_number(world, "agent.act", reward, -INFINITY, INFINITY, error)) return false;
  trivium_episode_record_step(ep, t, a, reward, context, n);
  return true;
}

bool trv_agent_play_payoff(const TrvWorldClass *wc, void *aw, TrvEpisode *ep, int t, GError **error) {
  double reward = wc->agent->step_payoff(aw);
  if (!trv_world_check_number(wc->name, "agent.step_payoff", reward, -INFINITY, INFINITY, error)) return false;
  ep->recs[t].reward = reward;
  return true;
}

bool trv_agent_play(const TrvWorldClass *wc, void *aw, TrvEpisode *ep, const TrvStepSync *sync, GError **error) {
  if (!trv_agent_play_begin(wc, aw, ep, error)) return false;
  for (int t = 0; t < ep->steps; t++) {
    if (!trv_agent_play_act(wc, aw, ep, t, error)) return false;
    if (sync) sync->wait(sync->ctx, t); /* the step's end: a shared city moves once every agent acted */
    if (sync && wc->agent->step_end && !trv_agent_play_payoff(wc, aw, ep, t, error)) return false;
  }
  return true;
}
