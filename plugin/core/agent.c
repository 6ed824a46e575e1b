/* agent.c - what a dispatch agent does in one episode, and the readouts that
 * every controller shares.  No simulator here: the SimGrid attachment calls
 * trv_agent_run_episode from inside an agent actor.
 *
 * Per step t: take the observational sample; if the plan has a probe for
 * step t, run it (z = +-|z|, sign from the probe stream) and update the local
 * posterior snapshot; add -log P_t(G_hat) to the operational tally and gate:
 * while R_hat_epi/t > rho the head plays the world's safe action; act; write
 * the record. */
#include <math.h>

#include "controller.h"
#include "replay.h"
#include "regret.h"

void trv_plan_clear(TrvPlan *plan) {
  trv_posterior_free(plan->snapshot);
  plan->snapshot = NULL;
}

TrvRecord trv_episode_end_record(int episode) {
  TrvRecord r = {.seq = (1ULL << 40) + (uint64_t)episode, .agent = TRV_AGENT_CONTROLLER, .episode = (uint32_t)episode,
                 .kind = TRV_RECORD_EPISODE_END, .a_int = -1, .snapshot_ref = (uint32_t)episode,
                 .commit_status = TRV_COMMIT_COMMITTED};
  return r;
}

int trv_agent_run_episode(const TrvWorldClass *wc, void *world, const TrvPlan *plan, uint32_t agent, uint64_t *seq,
                          TrvRng *probe_rng, GArray *recs, const TrvStepSync *sync) {
  int steps = wc->steps(world), gated = 0;
  double tally = 0;
  int planned = wc->plan(world, &plan->ghat);
  bool ghat_flags[TRV_MAX_COMPONENTS];
  for (int j = 0; j < plan->ghat.n; j++) ghat_flags[j] = plan->ghat.present[j];
  for (int t = 0; t < steps; t++) {
    TrvRecord r = {.seq = (*seq)++, .agent = agent, .episode = plan->episode, .step = t,
                   .snapshot_ref = plan->episode, .kind = TRV_RECORD_STEP, .a_int = -1};
    r.n_context = wc->observe(world, t, r.context);
    if (t < plan->n_probes) {
      r.a_int = plan->probes[t];
      r.z = trv_rng_sign(probe_rng) * plan->zabs;
      r.outcome = wc->probe(world, r.a_int, r.z);
      if (plan->snapshot && !plan->observational) trv_posterior_observe(plan->snapshot, r.a_int, r.z, r.outcome);
    }
    if (plan->snapshot && plan->observational) {
      int j[4];
      double z[4], w[4];
      int m = wc->observational_pairs(world, r.context, r.n_context, j, z, w);
      for (int i = 0; i < m; i++) trv_posterior_observe(plan->snapshot, j[i], z[i], w[i]);
    }
    bool safe = false;
    if (plan->gate && plan->snapshot) {
      tally += -trv_posterior_log_prob_graph(plan->snapshot, ghat_flags);
      safe = tally / (t + 1) > plan->rho;
    }
    r.a_disp = safe ? wc->safe_action : planned;
    gated += safe;
    r.reward = wc->act(world, r.a_disp);
    if (sync) { /* a shared city moves once every agent acted */
      sync->wait(sync->ctx, t);
      r.reward = wc->step_payoff(world);
    }
    g_array_append_val(recs, r);
  }
  return gated;
}

bool trv_graph_wrong_on_task(const TrvWorldClass *wc, void *world, const TrvGraph *g, const TrvGraph *truth) {
  for (int j = 0; j < truth->n; j++)
    if (wc->task_relevant(world, j) && g->present[j] != truth->present[j]) return true;
  return false;
}

void trv_row_fill_readouts(TrvEpisodeRow *row, const TrvWorldClass *wc, void *world, const TrvRecord *recs, size_t n) {
  TrvGraph truth;
  wc->truth(world, &truth);
  row->n_components = truth.n;
  row->truth = trv_graph_mask(&truth);
  row->r_out = 0;
  row->reward = 0;
  bool own_regret = wc->episode_outcome_regret != NULL; /* measured against the world's own oracle fleet */
  int oracle = own_regret ? 0 : wc->oracle(world);
  double best = own_regret ? 0 : wc->expected_payoff(world, oracle);
  /* Sums in fold order: they do not depend on the order records arrived in. */
  size_t *order = trv_records_fold_order(recs, n);
  for (size_t i = 0; i < n; i++) {
    const TrvRecord *r = &recs[order[i]];
    if (r->kind != TRV_RECORD_STEP) continue;
    if (!own_regret) row->r_out += trv_regret_outcome_step(best, wc->expected_payoff(world, r->a_disp));
    row->reward += r->reward;
  }
  g_free(order);
  if (own_regret) row->r_out = wc->episode_outcome_regret(world);
  row->n_world_metrics =
      wc->episode_metrics ? wc->episode_metrics(world, row->world_metrics, TRV_WORLD_METRICS_MAX) : 0;
}

void trv_row_set_beliefs(TrvEpisodeRow *row, const TrvGraph *ghat, const bool *map, const double *p) {
  int nc = row->n_components;
  g_assert(ghat->n == nc);
  row->ghat = trv_graph_mask(ghat);
  row->map = 0;
  double err = 0;
  for (int j = 0; j < nc; j++) {
    if (map[j]) row->map |= 1ULL << j;
    row->p[j] = p[j];
    /* legacy soft score: beliefs clipped to [0.01, 0.99] */
    double c = p[j] < 0.01 ? 0.01 : p[j] > 0.99 ? 0.99 : p[j];
    err += fabs(c - ((row->truth >> j & 1) ? 1.0 : 0.0));
  }
  row->soft_score = err / nc; /* 1 - acc, acc = 1 - mean |clip(p) - y| */
  row->posterior_exposure = row->map != row->truth;
  row->committed_exposure = row->ghat != row->truth;
}
