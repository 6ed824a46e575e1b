/* referee.c - scoring what a controller believed against the truth (the
 * readouts and regrets of docs/outputs.md, "episodes.csv").  The referee
 * of a world is the only code that reads G_true_e, the oracle and the gap;
 * this file turns its answers and the controller's TrvBeliefs into the
 * truth-relative readouts of an episode's row:
 *   truth, R_out (per step against the oracle's expected payoff, in fold
 *   order, or the world's own episode total), the world's metrics, the
 *   committed and MAP graphs with the exposures and the legacy soft score,
 *   R_epi = sum over the trajectory of -log P_{e,t}(G_true_e) and its
 *   bounded mean per step (each component's probability floored at
 *   TRV_LOGLOSS_FLOOR), tau_e and R_temp (tau_e: the first step at which the
 *   graph the agents act on, G_hat_e, is right on the task-relevant
 *   components: 0 or T, since commits happen at episode boundaries; T when
 *   nothing committed put G_hat_e there), and the belief's variant
 *   tau_belief and R_temp_belief (the first point whose MAP is right on the
 *   task-relevant components while the belief is sure enough to commit).
 * Sums run in the order the controller produced its trajectory, so a
 * replay of the same records gives the same bits.  Every answer of the
 * referee is checked (world-call.h) before it is used. */
#include <math.h>

#include "protocol.h"
#include "regret.h"
#include "replay.h"
#include "world-call.h"

void trv_beliefs_init(TrvBeliefs *b, int n) {
  memset(b, 0, sizeof *b);
  b->n = n;
  b->points = g_array_new(FALSE, FALSE, sizeof(TrvBeliefPoint));
  b->losses = g_array_new(FALSE, FALSE, sizeof(double));
}

void trv_beliefs_clear(TrvBeliefs *b) {
  g_array_set_size(b->points, 0);
  g_array_set_size(b->losses, 0);
}

void trv_beliefs_free(TrvBeliefs *b) {
  if (b->points) g_array_free(b->points, TRUE);
  if (b->losses) g_array_free(b->losses, TRUE);
  b->points = b->losses = NULL;
}

double *trv_beliefs_push(TrvBeliefs *b, int step, int repeat, uint64_t map, bool confident) {
  TrvBeliefPoint pt = {step, repeat, map, confident};
  g_array_append_val(b->points, pt);
  guint at = b->losses->len;
  g_array_set_size(b->losses, at + 2 * (guint)b->n);
  return &g_array_index(b->losses, double, at);
}

TrvBeliefPoint *trv_beliefs_last(TrvBeliefs *b) {
  return b->points->len ? &g_array_index(b->points, TrvBeliefPoint, b->points->len - 1) : NULL;
}

void trv_beliefs_push_changed(TrvBeliefs *b, const TrvPosterior *post, const bool *active, double h_ent, int step,
                              uint64_t changed, double *h) {
  int n = b->n;
  if (b->points->len == 0) changed = n >= 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
  uint64_t map = 0;
  double entropy = 0;
  for (int j = 0; j < n; j++) {
    if (active && !active[j]) continue; /* outside the model: absent, no entropy */
    if (trv_posterior_map(post, j)) map |= 1ULL << j;
    if (changed >> j & 1) h[j] = trv_posterior_component_entropy_bits(post, j);
    entropy += h[j];
  }
  double *loss = trv_beliefs_push(b, step, 1, map, entropy <= h_ent);
  const double *last = loss - 2 * n; /* the previous point's, when there is one */
  for (int j = 0; j < n; j++) {
    if (changed >> j & 1)
      trv_posterior_losses(post, j, &loss[j], &loss[n + j]);
    else
      loss[j] = last[j], loss[n + j] = last[n + j];
  }
}

static bool relevant(const TrvRefereeClass *ref, void *world, int j) {
  return !ref->task_relevant || ref->task_relevant(world, j);
}

bool trv_referee_truth(const TrvWorldClass *wc, void *world, int n, TrvGraph *truth, GError **error) {
  trv_graph_clear(truth, n);
  wc->referee->truth(world, truth);
  if (truth->n != n)
    return trv_world_refuse(error, wc->name, "referee.truth",
                            "set the graph's n to %d; expected it left at %d (the "
                            "candidate components)",
                            truth->n, n);
  for (int j = 0; j < n; j++)
    if (!isfinite(truth->kappa[j]))
      return trv_world_refuse(error, wc->name, "referee.truth",
                              "returned kappa = %g for component %d; expected a "
                              "finite effect",
                              truth->kappa[j], j);
  return true;
}

/* R_out: the world's own episode total, or per step against the oracle's
 * expected payoff (in fold order); every payoff checked finite. */
static bool outcome_regret(const TrvWorldClass *wc, void *world, const TrvRecord *recs, const size_t *order, size_t n,
                           double *r_out, GError **error) {
  const TrvRefereeClass *ref = wc->referee;
  *r_out = 0;
  if (ref->episode_outcome_regret) {
    *r_out = ref->episode_outcome_regret(world);
    return trv_world_check_number(wc->name, "referee.episode_outcome_regret", *r_out, -INFINITY, INFINITY, error);
  }
  if (!ref->oracle || !ref->expected_payoff) return true;
  const char *fn = "referee.expected_payoff";
  double best = ref->expected_payoff(world, ref->oracle(world));
  if (!trv_world_check_number(wc->name, fn, best, -INFINITY, INFINITY, error)) return false;
  for (size_t i = 0; i < n; i++) {
    const TrvRecord *r = &recs[order[i]];
    if (r->kind != TRV_RECORD_STEP) continue;
    double payoff = ref->expected_payoff(world, r->a_disp);
    if (!trv_world_check_number(wc->name, fn, payoff, -INFINITY, INFINITY, error)) return false;
    *r_out += trv_regret_outcome_step(best, payoff);
  }
  return true;
}

bool trv_referee_score_ordered(const TrvWorldClass *wc, void *world, const TrvBeliefs *b, const TrvRecord *recs,
                               const size_t *order, size_t n, int steps, TrvEpisodeRow *row, GError **error) {
  const TrvRefereeClass *ref = wc->referee;
  TrvGraph truth;
  if (!trv_referee_truth(wc, world, b->n, &truth, error)) return false;
  int nc = truth.n;
  row->n_components = nc;
  row->truth = trv_graph_mask(&truth);
  if (!outcome_regret(wc, world, recs, order, n, &row->r_out, error)) return false;
  row->n_world_metrics =
      ref->episode_metrics ? ref->episode_metrics(world, row->world_metrics, TRV_WORLD_METRICS_MAX) : 0;
  if (!trv_world_check_count(wc->name, "referee.episode_metrics", row->n_world_metrics, TRV_WORLD_METRICS_MAX, error))
    return false;

  /* beliefs at the boundary: committed and MAP graphs, soft score, exposures */
  g_assert(b->ghat.n == nc);
  row->ghat = trv_graph_mask(&b->ghat);
  row->map = 0;
  double err = 0;
  for (int j = 0; j < nc; j++) {
    if (b->map[j]) row->map |= 1ULL << j;
    row->p[j] = b->p[j];
    /* legacy soft score: beliefs clipped to [0.01, 0.99] */
    double c = b->p[j] < 0.01 ? 0.01 : b->p[j] > 0.99 ? 0.99 : b->p[j];
    err += fabs(c - ((row->truth >> j & 1) ? 1.0 : 0.0));
  }
  row->soft_score = err / nc; /* 1 - acc, acc = 1 - mean |clip(p) - y| */
  row->posterior_exposure = row->map != row->truth;
  row->committed_exposure = row->ghat != row->truth;

  /* the trajectory: R_epi, its bounded per-step form, and tau_belief */
  double r_epi = 0, bounded = 0, cap = -log(TRV_LOGLOSS_FLOOR);
  long accumulated = 0;
  int tau_belief = -1;
  const double *loss = (const double *)b->losses->data;
  for (guint i = 0; i < b->points->len; i++, loss += 2 * nc) {
    const TrvBeliefPoint *pt = &g_array_index(b->points, TrvBeliefPoint, i);
    double v = 0, vb = 0;
    for (int j = 0; j < nc; j++) {
      double l = loss[(truth.present[j] ? nc : 0) + j];
      v += l;
      vb += l < cap ? l : cap;
    }
    for (int k = 0; k < pt->repeat; k++) r_epi += v, bounded += vb;
    accumulated += pt->repeat;
    if (tau_belief >= 0 || !pt->confident) continue;
    bool right = true;
    for (int j = 0; j < nc && right; j++)
      if (relevant(ref, world, j) && (bool)(pt->map >> j & 1) != truth.present[j]) right = false;
    if (right) tau_belief = pt->step;
  }
  row->r_epi = r_epi;
  row->r_epi_step = accumulated > 0 ? bounded / (double)accumulated : 0.0;
  double gap = ref->gap ? ref->gap(world) : 0.0;
  if (!trv_world_check_number(wc->name, "referee.gap", gap, 0, INFINITY, error)) return false;
  /* R_temp: the graph the agents act on is G_hat_e for the whole episode
   * (commits happen at its boundaries), so it is right on the task from
   * step 0 or never; a G_hat_e that no commit put there (nothing committed
   * yet, or cleared by an alarm) is no commitment to the truth. */
  bool wrong = trv_graph_wrong_on_task(wc, world, &b->ghat, &truth);
  bool in_m = wrong || !b->committed;
  row->tau = in_m ? steps : 0;
  row->r_temp = trv_regret_temporal(in_m, gap, row->tau, steps);
  row->tau_belief = tau_belief < 0 ? steps : tau_belief;
  row->r_temp_belief = trv_regret_temporal(wrong, gap, row->tau_belief, steps);
  return true;
}

bool trv_referee_score(const TrvWorldClass *wc, void *world, const TrvBeliefs *beliefs, const TrvRecord *recs, size_t n,
                       int steps, TrvEpisodeRow *row, GError **error) {
  size_t *order = trv_records_fold_order(recs, n);
  bool ok = trv_referee_score_ordered(wc, world, beliefs, recs, order, n, steps, row, error);
  g_free(order);
  return ok;
}
