/* controller-outcome.c - the outcome-only controllers (docs/controller.md,
 * "Outcome-only controllers"), and reactive.sd.
 *
 * They never probe.  Their causal model is the spike-and-slab regression on
 * the observational stream (the world's observational pairs, e.g. Y on X),
 * pooled without change tracking; edges out of unobserved variables, and
 * edges outside the candidate graph (TrvWorldClass.outside), are absent in
 * their readout (their belief in them stays at the prior pi0 for
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
#include "world-call.h"

enum { V_RLVR, V_MEMORY, V_REACTIVE };

/* Room for the observational pairs of one observation: one per component. */
#define PAIRS_MAX TRV_MAX_COMPONENTS

static const TrvParamSpec reactive_specs[] = {
    TRV_ROW_DOUBLE(TrvReactiveParams, "reactive.sd", sd, 3.0, 0, 1e9,
                   "reactive: rebuild after an episode reward this many standard errors below its running mean"),
};
const TrvParamBlock trv_reactive_params = TRV_BLOCK(TrvReactiveParams, reactive_specs);

typedef struct {
  TrvParams p;
  double reactive_sd;        /* reactive.sd (variant reactive only) */
  const TrvWorldInfo *world; /* the declaration: candidates and the observational channel */
  const TrvCandidates *cand;
  int variant, steps;
  TrvPosterior *post;
  TrvGraph ghat;
  bool ghat_live;                     /* G_hat came from a commit (the posterior was sure enough), not a clear */
  double n_ep, mean_ep, m2_ep;        /* Welford over episode mean rewards */
  double prior_absent, prior_present; /* loss terms of a component held at the prior */
} Outcome;

static void *oc_create(const TrvParams *p, const TrvWorldInfo *world, uint64_t seed, int variant) {
  (void)seed;
  Outcome *c = g_new0(Outcome, 1);
  c->p = *p;
  if (variant == V_REACTIVE)
    c->reactive_sd = ((const TrvReactiveParams *)trv_params_block(p, &trv_reactive_params))->sd;
  c->world = world;
  c->cand = world->cand;
  c->variant = variant;
  c->steps = world->steps;
  TrvPosteriorParams pp = trv_params_posterior(p, world->noise_var);
  pp.track = TRV_TRACK_NONE;
  pp.lambda = 1.0;
  pp.hazard = 0.0;
  c->post = trv_posterior_new(c->cand->n_components, &pp);
  trv_graph_clear(&c->ghat, c->cand->n_components);
  c->prior_absent = -log(1.0 - c->p.pi0);
  c->prior_present = -log(c->p.pi0);
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

/* Whether component j is in the model: observed and in the candidate graph. */
static bool modelled(const Outcome *c, int j) { return c->cand->components[j].observed && !c->world->outside[j]; }

static double observed_entropy(const Outcome *c, const TrvPosterior *post) {
  double h = 0;
  for (int j = 0; j < c->cand->n_components; j++)
    if (modelled(c, j)) h += trv_h2(trv_posterior_presence(post, j));
  return h;
}

static bool readout_map(const Outcome *c, const TrvPosterior *post, int j) {
  return modelled(c, j) && trv_posterior_map(post, j);
}

/* The loss terms of component j: -log P(j absent), -log P(j present);
 * unobserved components held at the prior, observed ones from the exact
 * log-odds (no clipping: a confident wrong model pays in full). */
static void component_losses(const Outcome *c, const TrvPosterior *post, int j, double *absent, double *present) {
  if (!modelled(c, j)) {
    *absent = c->prior_absent;
    *present = c->prior_present;
    return;
  }
  for (int g = 0; g <= 1; g++) {
    double x = g ? trv_posterior_log_odds(post, j) : -trv_posterior_log_odds(post, j);
    *(g ? present : absent) = x >= 0 ? log1p(exp(-x)) : -x + log1p(exp(x));
  }
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
    c->ghat_live = true;
  } else if (c->variant == V_RLVR) {
    trv_graph_clear(&c->ghat, c->cand->n_components);
    c->ghat_live = false;
  }
  plan->episode = e;
  plan->ghat = c->ghat;
  plan->n_probes = 0;
  plan->zabs = c->p.zabs;
  plan->gate = false;
  plan->rho = 0;         /* no gate */
  plan->snapshot = NULL; /* no gate: the agents need no belief */
}

static bool oc_absorb(void *self, int e, const TrvEpisodeRecords *er, TrvEpisodeRow *row, TrvBeliefs *beliefs,
                      GArray *out, GError **error) {
  Outcome *c = self;
  (void)e;
  (void)out;
  int nc = c->cand->n_components;
  double r_hat = 0;
  for (size_t i = 0; i < er->n; i++) {
    const TrvRecord *r = &er->recs[er->order[i]];
    if (r->kind != TRV_RECORD_STEP) continue;
    int js[PAIRS_MAX];
    double z[PAIRS_MAX], w[PAIRS_MAX];
    int m = trv_world_observational_pairs(c->world, r->context, r->n_context, js, z, w, PAIRS_MAX, error);
    if (m < 0) return false; /* the world's answer, checked: count, components, finite z and w */
    for (int k = 0; k < m; k++)
      if (modelled(c, js[k])) trv_posterior_observe(c->post, js[k], z[k], w[k]);
    /* one point per record: the belief changes with each observation */
    uint64_t map = 0;
    for (int j = 0; j < nc; j++)
      if (readout_map(c, c->post, j)) map |= 1ULL << j;
    double *loss = trv_beliefs_push(beliefs, (int)r->step, 1, map, observed_entropy(c, c->post) <= c->p.h_ent);
    double l_hat = 0;
    for (int j = 0; j < nc; j++) {
      component_losses(c, c->post, j, &loss[j], &loss[nc + j]);
      l_hat += c->ghat.present[j] ? loss[nc + j] : loss[j];
    }
    r_hat += l_hat;
  }
  beliefs->ghat = c->ghat;
  beliefs->committed = c->ghat_live;
  for (int j = 0; j < nc; j++) {
    beliefs->map[j] = readout_map(c, c->post, j);
    beliefs->p[j] = modelled(c, j) ? trv_posterior_presence(c->post, j) : 0.0;
  }
  row->entropy_bits = observed_entropy(c, c->post);
  row->r_hat_epi = r_hat;

  if (c->variant == V_REACTIVE) {
    double m = row->reward / (c->steps > 0 ? c->steps : 1);
    double sd = c->n_ep > 1 ? sqrt(c->m2_ep / (c->n_ep - 1)) : 0.0;
    if (c->n_ep >= 5 && m < c->mean_ep - c->reactive_sd * sd) {
      reset_model(c);
      trv_graph_clear(&c->ghat, nc);
      c->ghat_live = false;
      c->n_ep = c->mean_ep = c->m2_ep = 0;
      row->alarm = 1;
    } else {
      c->n_ep += 1;
      double d = m - c->mean_ep;
      c->mean_ep += d / c->n_ep;
      c->m2_ep += d * (m - c->mean_ep);
    }
  }
  return true;
}

const TrvControllerClass trv_controller_outcome = {
    .summary = "outcome-only learners on the observational stream",
    .create = oc_create,
    .plan = oc_plan,
    .absorb = oc_absorb,
    .posterior = oc_posterior,
    .event_sourced = false,
    .free = oc_free,
};
