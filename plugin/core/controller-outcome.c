/* ctrl-outcome.c - the outcome-only controllers (SPEC 3.9).
 *
 * They never probe.  Their causal model is the spike-and-slab regression on
 * the observational stream (the world's observational pairs, e.g. Y on X),
 * pooled without change tracking; edges out of unobserved variables are
 * absent in their readout (their belief in them stays at the prior pi0 for
 * log-loss).  The dispatch head plans with the committed MAP of that model
 * (executed snapshot over the observed components); no gate.
 *   rlvr         no persistent memory: every episode starts from the prior;
 *   rlvr-memory  persistent: the model pools every episode;
 *   reactive     persistent, but rebuilds the model from scratch after a
 *                bad outcome: an episode mean reward more than reactive.sd
 *                standard deviations below the running mean of past ones. */
#include <math.h>
#include <stdlib.h>

#include "commit.h"
#include "controller.h"
#include "regret.h"
#include "replay.h"

enum { V_RLVR, V_MEMORY, V_REACTIVE };

typedef struct {
  TrvParams p;
  void *world;
  const TrvWorldClass *wc;
  const TrvCandidates *cand;
  int variant, steps;
  TrvPosterior *post;
  TrvGraph ghat;
  double n_ep, mean_ep, m2_ep; /* Welford over episode mean rewards */
} Outcome;

static void *oc_create(const TrvParams *p, void *world, const TrvWorldClass *wc, uint64_t seed, int variant) {
  (void)seed;
  Outcome *c = g_new0(Outcome, 1);
  c->p = *p;
  c->world = world;
  c->wc = wc;
  c->cand = wc->candidates(world);
  c->variant = variant;
  c->steps = wc->steps(world);
  TrvPosteriorParams pp = trv_params_posterior(p, wc->noise_var(world));
  pp.track = TRV_TRACK_NONE;
  pp.lambda = 1.0;
  pp.hazard = 0.0;
  c->post = trv_posterior_new(c->cand->n_components, &pp);
  trv_graph_clear(&c->ghat, c->cand->n_components);
  return c;
}

static void oc_free(void *self) {
  Outcome *c = self;
  trv_posterior_free(c->post);
  g_free(c);
}

static const TrvPosterior *oc_posterior(void *self) { return ((Outcome *)self)->post; }

static void reset_model(Outcome *c) {
  for (int j = 0; j < c->cand->n_components; j++) trv_posterior_reset_component(c->post, j);
}

static double observed_entropy(const Outcome *c, const TrvPosterior *post) {
  double h = 0;
  for (int j = 0; j < c->cand->n_components; j++)
    if (c->cand->components[j].observed) h += trv_h2(trv_posterior_presence(post, j));
  return h;
}

static bool readout_map(const Outcome *c, const TrvPosterior *post, int j) {
  return c->cand->components[j].observed && trv_posterior_map(post, j);
}

/* -log P(G) with unobserved components held at the prior; observed ones
 * from the exact log-odds (no clipping: a confident wrong model pays in full). */
static double log_loss(const Outcome *c, const TrvPosterior *post, const bool *g) {
  double l = 0;
  for (int j = 0; j < c->cand->n_components; j++) {
    if (c->cand->components[j].observed) {
      double x = g[j] ? trv_posterior_log_odds(post, j) : -trv_posterior_log_odds(post, j);
      l += x >= 0 ? log1p(exp(-x)) : -x + log1p(exp(x));
    } else {
      l -= log(g[j] ? c->p.pi0 : 1.0 - c->p.pi0);
    }
  }
  return l;
}

static void oc_plan(void *self, int e, TrvPlan *plan) {
  Outcome *c = self;
  if (c->variant == V_RLVR) reset_model(c);
  if (observed_entropy(c, c->post) <= c->p.h_ent) {
    trv_graph_clear(&c->ghat, c->cand->n_components);
    for (int j = 0; j < c->cand->n_components; j++) {
      double mu, v;
      trv_posterior_effect(c->post, j, &mu, &v);
      c->ghat.present[j] = readout_map(c, c->post, j);
      c->ghat.kappa[j] = c->ghat.present[j] ? mu : 0.0;
    }
  } else if (c->variant == V_RLVR) {
    trv_graph_clear(&c->ghat, c->cand->n_components);
  }
  plan->episode = e;
  plan->ghat = c->ghat;
  plan->n_probes = 0;
  plan->zabs = c->p.zabs;
  plan->observational = true;
  plan->gate = false;
  plan->rho = c->p.rho;
  plan->snapshot = trv_posterior_copy(c->post);
}

static void oc_absorb(void *self, int e, const TrvRecord *recs, size_t n, TrvEpisodeRow *row, GArray *out) {
  Outcome *c = self;
  (void)e;
  (void)out;
  int nc = c->cand->n_components;
  TrvGraph truth;
  c->wc->truth(c->world, &truth);
  bool tf[TRV_MAX_COMPONENTS], gf[TRV_MAX_COMPONENTS];
  for (int j = 0; j < nc; j++) tf[j] = truth.present[j], gf[j] = c->ghat.present[j];
  size_t *order = trv_records_fold_order(recs, n);
  double r_epi = 0, r_hat = 0;
  int tau = -1;
  for (size_t i = 0; i < n; i++) {
    const TrvRecord *r = &recs[order[i]];
    if (r->kind != TRV_RECORD_STEP) continue;
    int js[4];
    double z[4], w[4];
    int m = c->wc->observational_pairs(c->world, r->context, r->n_context, js, z, w);
    for (int k = 0; k < m; k++) trv_posterior_observe(c->post, js[k], z[k], w[k]);
    r_epi += log_loss(c, c->post, tf);
    r_hat += log_loss(c, c->post, gf);
    if (tau < 0) {
      bool ok = observed_entropy(c, c->post) <= c->p.h_ent;
      for (int j = 0; j < nc; j++)
        if (c->wc->task_relevant(c->world, j) && readout_map(c, c->post, j) != truth.present[j]) ok = false;
      if (ok) tau = (int)r->step;
    }
  }
  bool map[TRV_MAX_COMPONENTS];
  double p[TRV_MAX_COMPONENTS];
  for (int j = 0; j < nc; j++) {
    map[j] = readout_map(c, c->post, j);
    p[j] = c->cand->components[j].observed ? trv_posterior_presence(c->post, j) : 0.0;
  }
  g_free(order);
  trv_row_set_beliefs(row, &c->ghat, map, p);
  row->entropy_bits = observed_entropy(c, c->post);
  row->r_epi = r_epi;
  row->r_hat_epi = r_hat;
  row->tau = tau < 0 ? c->steps : tau;
  row->r_temp = trv_regret_temporal(trv_graph_wrong_on_task(c->wc, c->world, &c->ghat, &truth), c->wc->gap(c->world),
                                    row->tau, c->steps);

  if (c->variant == V_REACTIVE) {
    double m = row->reward / (c->steps > 0 ? c->steps : 1);
    double sd = c->n_ep > 1 ? sqrt(c->m2_ep / (c->n_ep - 1)) : 0.0;
    if (c->n_ep >= 5 && m < c->mean_ep - c->p.reactive_sd * sd) {
      reset_model(c);
      trv_graph_clear(&c->ghat, nc);
      c->n_ep = c->mean_ep = c->m2_ep = 0;
      row->alarm = 1;
    } else {
      c->n_ep += 1;
      double d = m - c->mean_ep;
      c->mean_ep += d / c->n_ep;
      c->m2_ep += d * (m - c->mean_ep);
    }
  }
}

const TrvControllerClass trv_controller_outcome = {
    .name = "outcome-only",
    .summary = "outcome-only learners on the observational stream",
    .create = oc_create,
    .plan = oc_plan,
    .absorb = oc_absorb,
    .posterior = oc_posterior,
    .event_sourced = false,
    .free = oc_free,
};
