/* controller-trivium.c - the Trivium controller and its interventional
 * relatives, and their parameters (gate.rho, detector.reset_threshold,
 * epistemic_reset.matched; the detector's own are the detector's).
 *
 * Variants (one implementation, switches set by the registry):
 *   trivium               IGScore, executed snapshot, LRCP, the configured
 *                         detector with PartialReset, dispatch gate;
 *   trivium-nocusum       no detector;
 *   trivium-nolrcp        no LRCP;
 *   trivium-ideal-commit  ideal frozen commit instead of the snapshot;
 *   trivium-roundrobin    front-loaded round-robin scheduler;
 *   trivium-parallel      the parallel scheduler: the budget planned and
 *                         assigned to the agents by gain per second of the
 *                         episode's makespan (schedule-parallel.c);
 *   epistemic-reset       Trivium's probes and update, posterior reset to the
 *                         prior after every episode (probe-matched budget by
 *                         default; a probe every step with matched = 0);
 *   trivium-oracle        a yardstick, not a learner: Trivium whose
 *                         scheduler is handed the episode's truth
 *                         (trv_schedule_oracle): how soon the budget lets
 *                         any design identify;
 *   trivium-grow          Trivium that grows its candidate graph: when the
 *                         residuals of its probes into a variable show
 *                         more variance than the graph explains, it adds
 *                         the logged variables' edges into it that the
 *                         world lists outside G_inf (below).
 * The graph a controller reasons over: the world's components but those
 * declared outside (TrvWorldClass.outside), which stay absent from G_hat,
 * unprobed, out of the entropy and the MAP, with the posterior they start
 * with (no evidence reaches them).  trivium-grow adds them back: per
 * variable v with an outside edge into it, a CUSUM of the variance of its
 * committed graph's probe residuals into v, S_v = max(0, S_v + (1 - 1/r)
 * u / 2 - (log r) / 2), u = resid^2 / s2 (the log-likelihood ratio of
 * variance r s2 against s2, r = grow.ratio), tested while G_hat is live;
 * when S_v > grow.h, every outside edge into v joins the graph (a reset
 * record brings it to the prior: the fold is the log's) and the budget
 * window doubles, as after an alarm.  Only the interventional probes of
 * the new edge then decide whether it is present.
 * Budget: B_e (schedule.h), raised to ceil(budget.front x steps) while the
 * belief the episode starts from has more than commit.h_ent bits of
 * entropy (front-loading; 0, the default, is B_e alone).
 * Boundary e -> e+1 (absorb): fold e's committed records into the posterior
 * (replay.h, the same fold the log replays), readouts and regrets, the
 * detector on e's probe residuals against G_hat_e, PartialReset on alarm,
 * then the commit rule and LRCP produce G_hat_{e+1}. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commit.h"
#include "controller.h"
#include "detector.h"
#include "replay.h"
#include "reset.h"
#include "schedule.h"

enum { V_TRIVIUM, V_NOCUSUM, V_NOLRCP, V_IDEAL, V_ROUNDROBIN, V_EPI_RESET, V_PARALLEL, V_ORACLE, V_GROW };

static const TrvParamSpec trivium_specs[] = {
    TRV_ROW_DOUBLE(TrvTriviumParams, "detector.reset_threshold", reset_threshold, 0.25, 0, 1e9,
                   "PartialReset: reset a component whose window excess log-loss per probe exceeds this (nats)"),
    TRV_ROW_DOUBLE(TrvTriviumParams, "gate.rho", rho, 1.0, 0, 1e9,
                   "dispatch gate: play the safe action while R_hat_epi/t > rho (nats per step)"),
    TRV_ROW_DOUBLE(TrvTriviumParams, "budget.front", front, 0, 0, 1,
                   "front-loading: while the belief an episode starts from has more than commit.h_ent bits of "
                   "entropy, at least ceil(front x steps) of its steps are probes (0: the budget B_e alone)"),
};
const TrvParamBlock trv_trivium_params = TRV_BLOCK(TrvTriviumParams, trivium_specs);

static const TrvParamSpec epistemic_reset_specs[] = {
    TRV_ROW_INT(TrvEpistemicResetParams, "epistemic_reset.matched", matched, 1, 0, 1,
                "epistemic-reset: 1 = probe-matched budget, 0 = a probe every step"),
};
const TrvParamBlock trv_epistemic_reset_params = TRV_BLOCK(TrvEpistemicResetParams, epistemic_reset_specs);

static const TrvParamSpec grow_specs[] = {
    TRV_ROW_DOUBLE(TrvGrowParams, "grow.ratio", ratio, 2.0, 1.01, 1e3,
                   "trivium-grow: the residual variance, in units of the noise variance, its CUSUM tests for"),
    TRV_ROW_DOUBLE(TrvGrowParams, "grow.h", h, 8.0, 0.1, 1e6,
                   "trivium-grow: the CUSUM threshold (nats) at which outside edges into a variable join the graph"),
};
const TrvParamBlock trv_grow_params = TRV_BLOCK(TrvGrowParams, grow_specs);

typedef struct {
  TrvParams p;
  TrvTriviumParams tp;
  TrvEpistemicResetParams ep;
  TrvGrowParams gp;
  const TrvCandidates *cand;
  bool active[TRV_MAX_COMPONENTS]; /* the graph reasoned over: every component not declared outside, and grown ones */
  int n_outside;                   /* outside components not grown yet */
  double grow_s[2 * TRV_MAX_COMPONENTS]; /* trivium-grow: the residual-variance CUSUM per target variable */
  int variant, steps, budget;
  double s2, m0;
  TrvSchedulerKind sched;
  TrvCommitRule rule;
  bool lrcp_on;
  TrvLrcpParams lp;
  const TrvDetectorClass *det;
  void *det_state;
  TrvPosterior *post;
  TrvGraph ghat;
  TrvProbeWindows *win;
  int window;     /* active window w_e, doubled on each alarm */
  bool ghat_live; /* G_hat came from a commit since the last alarm: the detector tests it */
  int rr_cursor;
  TrvRng sched_rng;
  TrvEigMemo *eig_memo; /* IGScore's quadrature nodes, kept across episodes */
  double h_prev;
  GArray *recent; /* TrvRecentProbe: evidence for PartialReset */
  /* absorb's scratch, kept from one episode to the next: the
   * probes' residuals, components and z for the detector */
  GArray *resid, *comp, *zs;
  uint64_t seq; /* sequence of the controller's own records */
} Trivium;

#define RECENT_MAX 4096

/* H(P) over the graph reasoned over (trv_posterior_entropy_bits when no
 * component is outside). */
static double active_entropy(const Trivium *c, const TrvPosterior *post) {
  if (c->n_outside == 0) return trv_posterior_entropy_bits(post);
  double h = 0;
  for (int j = 0; j < c->cand->n_components; j++)
    if (c->active[j]) h += trv_posterior_component_entropy_bits(post, j);
  return h;
}

/* The mask of the graph reasoned over, or NULL when it is every component. */
static const bool *active_mask(const Trivium *c) {
  for (int j = 0; j < c->cand->n_components; j++)
    if (!c->active[j]) return c->active;
  return NULL;
}

static void *tr_create(const TrvParams *p, const TrvWorldInfo *world, uint64_t seed, int variant) {
  Trivium *c = g_new0(Trivium, 1);
  c->p = *p;
  c->tp = *(const TrvTriviumParams *)trv_params_block(p, &trv_trivium_params);
  if (variant == V_EPI_RESET)
    c->ep = *(const TrvEpistemicResetParams *)trv_params_block(p, &trv_epistemic_reset_params);
  if (variant == V_GROW) c->gp = *(const TrvGrowParams *)trv_params_block(p, &trv_grow_params);
  c->cand = world->cand;
  for (int j = 0; j < c->cand->n_components; j++) {
    c->active[j] = !world->outside[j];
    c->n_outside += !c->active[j];
  }
  c->variant = variant;
  c->steps = world->steps;
  c->s2 = world->noise_var;
  c->m0 = p->m0 > 0 ? p->m0 : c->cand->n_components;
  c->sched = variant == V_ROUNDROBIN ? TRV_SCHED_ROUNDROBIN
             : variant == V_PARALLEL ? TRV_SCHED_PARALLEL
                                     : (TrvSchedulerKind)p->scheduler;
  c->rule = variant == V_IDEAL ? TRV_COMMIT_IDEAL : TRV_COMMIT_EXECUTED;
  c->lrcp_on = variant != V_NOLRCP;
  c->lp = (TrvLrcpParams){p->lrcp_window, p->lrcp_zmax, p->lrcp_radius, p->lrcp_beta_max, (TrvLrcpEdit)p->lrcp_edit};
  /* Binary probes (Bernoulli) have no residuals for LRCP, the detectors or
   * PartialReset to test against G_hat: those worlds run without them. */
  bool binary = world->likelihood == TRV_LIKELIHOOD_BERNOULLI;
  if (binary) c->lrcp_on = false;
  if (variant != V_NOCUSUM && variant != V_EPI_RESET && !binary) {
    const TrvModule *det = trv_detector_selected(p);
    c->det = det->klass;
    c->det_state = trv_detector_create(det, p, c->cand->n_components);
  }
  TrvPosteriorParams pp = binary ? trv_params_posterior_bernoulli(p, world->theta0) : trv_params_posterior(p, c->s2);
  c->post = trv_posterior_new(c->cand->n_components, &pp);
  trv_graph_clear(&c->ghat, c->cand->n_components);
  c->win = trv_probe_windows_new(c->cand->n_components, p->lrcp_window);
  c->window = 1;
  trv_rng_init(&c->sched_rng, seed, TRV_STREAM_SCHEDULE);
  c->eig_memo = trv_eig_memo_new();
  c->h_prev = active_entropy(c, c->post);
  c->recent = g_array_new(FALSE, FALSE, sizeof(TrvRecentProbe));
  c->resid = g_array_new(FALSE, FALSE, sizeof(double));
  c->comp = g_array_new(FALSE, FALSE, sizeof(int));
  c->zs = g_array_new(FALSE, FALSE, sizeof(double));
  return c;
}

static void tr_free(void *self) {
  Trivium *c = self;
  if (c->det) c->det->free(c->det_state);
  trv_posterior_free(c->post);
  trv_eig_memo_free(c->eig_memo);
  trv_probe_windows_free(c->win);
  g_array_free(c->recent, TRUE);
  g_array_free(c->resid, TRUE);
  g_array_free(c->comp, TRUE);
  g_array_free(c->zs, TRUE);
  g_free(c);
}

static const TrvPosterior *tr_posterior(void *self) { return ((Trivium *)self)->post; }

static void tr_plan(void *self, int e, TrvPlan *plan) {
  Trivium *c = self;
  /* Plan against the belief the episode will start from (after hazard
   * mixing / forgetting), which is also the agents' snapshot. */
  TrvPosterior *prior = trv_posterior_copy(c->post);
  trv_posterior_episode_begin(prior);
  int per_team =
      c->variant == V_EPI_RESET && !c->ep.matched ? c->steps : trv_budget(e, c->window, c->p.alpha, c->m0, c->steps);
  if (c->tp.front > 0 && active_entropy(c, prior) > c->p.h_ent)
    per_team = MAX(per_team, MIN(c->steps, (int)ceil(c->tp.front * c->steps)));
  int teams = trv_teams(plan->agents, c->p.coalition, c->m0);
  long budget = (long)per_team * teams;
  if (budget > TRV_PLAN_MAX_PROBES) budget = TRV_PLAN_MAX_PROBES;
  c->budget = (int)budget;
  bool eligible[TRV_MAX_COMPONENTS];
  for (int j = 0; j < c->cand->n_components; j++) eligible[j] = c->active[j] && !c->ghat.frozen[j];
  plan->episode = e;
  plan->ghat = c->ghat;
  plan->zabs = c->p.zabs;
  if (c->sched == TRV_SCHED_PARALLEL && plan->agent_of) {
    /* planned and assigned at once, by gain per second of the makespan */
    int agents = plan->agents > 0 ? plan->agents : 1;
    plan->n_probes = trv_schedule_parallel(prior, c->cand, eligible, c->budget, agents,
                                           trv_coalition_cap(c->p.coalition, c->m0), plan->agent_cost,
                                           plan->agent_value, c->p.zabs, c->eig_memo, plan->probes, plan->agent_of);
    plan->assigned = true;
  } else if (c->variant == V_ORACLE) {
    g_assert(plan->truth); /* the session hands it to a class that sees the truth */
    plan->n_probes = trv_schedule_oracle(prior, plan->truth, eligible, c->budget, c->p.zabs, plan->probes);
  } else {
    plan->n_probes = trv_schedule_probes(c->sched, prior, c->cand, eligible, c->budget, teams, c->p.zabs, c->eig_memo,
                                         &c->rr_cursor, &c->sched_rng, plan->probes);
  }
  plan->gate = true;
  plan->rho = c->tp.rho;
  plan->snapshot = prior;
}

static void append_reset(Trivium *c, int e, int j, GArray *out) {
  TrvRecord r = {.seq = c->seq++,
                 .agent = TRV_AGENT_CONTROLLER,
                 .episode = e,
                 .kind = TRV_RECORD_RESET,
                 .a_int = j,
                 .commit_status = TRV_COMMIT_PENDING,
                 .snapshot_ref = e};
  g_array_append_val(out, r);
  trv_posterior_reset_component(c->post, j);
  trv_probe_windows_clear(c->win, j);
}

/* trivium-grow: the residual-variance CUSUMs of the variables with an
 * outside edge into them, over the episode's probes; a variable whose
 * CUSUM passes grow.h takes its outside edges into the graph.  Returns
 * whether the graph grew. */
static bool grow(Trivium *c, int e, int probes, const int *comp, const double *resid, GArray *out) {
  const TrvComponent *k = c->cand->components;
  int nc = c->cand->n_components;
  bool watched[2 * TRV_MAX_COMPONENTS] = {false}, fired[2 * TRV_MAX_COMPONENTS] = {false};
  for (int j = 0; j < nc; j++)
    if (!c->active[j]) watched[k[j].target] = true;
  /* against the world's declared noise, which an estimated noise
   * (posterior.noise) would let the unexplained variance raise */
  double s2 = c->s2, r = c->gp.ratio;
  double a = 0.5 * (1 - 1 / r), b = 0.5 * log(r);
  for (int i = 0; i < probes; i++) {
    int v = k[comp[i]].target;
    if (!watched[v] || fired[v]) continue;
    c->grow_s[v] = MAX(0.0, c->grow_s[v] + a * resid[i] * resid[i] / s2 - b);
    if (c->grow_s[v] > c->gp.h) fired[v] = true;
  }
  bool grew = false;
  for (int j = 0; j < nc; j++) {
    if (c->active[j] || !fired[k[j].target]) continue;
    c->active[j] = true;
    c->n_outside--;
    append_reset(c, e, j, out); /* to the prior, as the log's fold will */
    grew = true;
  }
  for (int v = 0; v < 2 * TRV_MAX_COMPONENTS; v++)
    if (fired[v]) c->grow_s[v] = 0;
  return grew;
}

/* PartialReset (reset.h) of the components the active window contradicts. */
static int partial_reset(Trivium *c, int e, const TrvGraph *ghat_e, GArray *out) {
  bool reset[TRV_MAX_COMPONENTS];
  /* the last RECENT_MAX probes (c->recent holds up to twice as many) */
  guint n = MIN(c->recent->len, RECENT_MAX);
  const TrvRecentProbe *last = (const TrvRecentProbe *)c->recent->data + (c->recent->len - n);
  int resets = trv_partial_reset_select(last, n, e, c->window, ghat_e, trv_posterior_noise_var(c->post),
                                        c->tp.reset_threshold, reset);
  for (int j = 0; j < c->cand->n_components; j++)
    if (reset[j]) append_reset(c, e, j, out);
  return resets;
}

static bool tr_absorb(void *self, int e, const TrvEpisodeRecords *er, TrvEpisodeRow *row, TrvBeliefs *beliefs,
                      GArray *out, GError **error) {
  (void)error; /* it reads committed records only: nothing of the world's to check */
  Trivium *c = self;
  int nc = c->cand->n_components;
  TrvGraph ghat_e = c->ghat;
  bool ghat_flags[TRV_MAX_COMPONENTS];
  for (int j = 0; j < nc; j++) ghat_flags[j] = ghat_e.present[j];

  /* The records the fold uses: those of a known component, in fold order;
   * the rest, plain dispatch steps, only feed the readouts. */
  const TrvRecord *f = er->probes;
  size_t n_fold = er->n_probes;

  /* The in-episode trajectory P_{e,t}: the same fold, step by step.  The
   * belief changes only at steps with a probe: one point per change, held
   * for the steps until the next. */
  TrvPosterior *traj = trv_posterior_copy(c->post);
  trv_posterior_episode_begin(traj);
  size_t i = 0;
  int probes = 0;
  double r_hat = 0, step_hat = 0, h_point[TRV_MAX_COMPONENTS];
  /* the probes' residuals, components and z, and the recent probes: room
   * for all of them, trimmed to the probes taken in after the walk */
  g_array_set_size(c->resid, (guint)n_fold);
  g_array_set_size(c->comp, (guint)n_fold);
  g_array_set_size(c->zs, (guint)n_fold);
  guint recent0 = c->recent->len;
  g_array_set_size(c->recent, recent0 + (guint)n_fold);
  double *resid = (double *)c->resid->data, *zs = (double *)c->zs->data;
  int *comp = (int *)c->comp->data;
  TrvRecentProbe *recent = (TrvRecentProbe *)c->recent->data + recent0;
  for (int t = 0; t < c->steps; t++) {
    bool changed = t == 0;
    uint64_t settled = 0; /* the components this step's probes changed */
    if (i < n_fold && f[i].kind == TRV_RECORD_STEP && (int)f[i].step == t) {
      size_t step_end = trv_fold_step(traj, f, i, n_fold, &settled);
      for (; i < step_end; i++) {
        const TrvRecord *r = &f[i];
        trv_probe_windows_push(c->win, r->a_int, r->z, r->outcome);
        double k = ghat_e.present[r->a_int] ? ghat_e.kappa[r->a_int] : 0.0;
        resid[probes] = r->outcome - k * r->z;
        comp[probes] = r->a_int;
        zs[probes] = r->z;
        recent[probes] = (TrvRecentProbe){e, r->a_int, r->z, r->outcome};
        probes++;
      }
      changed = true;
    }
    if (changed) {
      /* -log P(G_hat_e) (trv_regret_epistemic_step) from the point's loss
       * terms -log P(j as in G_hat_e): the same terms negated, summed in the
       * same order, so the same double up to the sign of a zero, which
       * r_hat (from +0) does not keep */
      trv_beliefs_push_changed(beliefs, traj, active_mask(c), c->p.h_ent, t, settled, h_point);
      const double *loss = &g_array_index(beliefs->losses, double, beliefs->losses->len - 2 * (guint)nc);
      step_hat = 0;
      for (int j = 0; j < nc; j++) step_hat += loss[(ghat_flags[j] ? nc : 0) + j];
    } else {
      trv_beliefs_last(beliefs)->repeat++;
    }
    r_hat += step_hat;
  }
  g_array_set_size(c->resid, (guint)probes);
  g_array_set_size(c->comp, (guint)probes);
  g_array_set_size(c->zs, (guint)probes);
  g_array_set_size(c->recent, recent0 + (guint)probes);
  /* The trajectory took in every record of the fold, in fold order, from
   * the same start: it is the log's fold (trv_replay_episode) call for
   * call, so its end state is the posterior, bit for bit.  A record the
   * walk over the steps did not take (a reset, a step past the episode)
   * leaves the fold to trv_replay_episode. */
  if (i == n_fold) {
    trv_posterior_assign(c->post, traj);
  } else {
    TrvRecord *copy = g_memdup2(f, n_fold * sizeof *f);
    trv_replay_episode(c->post, copy, n_fold);
    g_free(copy);
  }
  trv_posterior_free(traj);
  /* PartialReset reads the last RECENT_MAX probes: drop the older ones
   * only once there are as many again, not a memmove every episode */
  if (c->recent->len > 2 * RECENT_MAX) g_array_remove_range(c->recent, 0, c->recent->len - RECENT_MAX);

  beliefs->ghat = ghat_e;
  beliefs->committed = c->ghat_live; /* still G_hat_e's: the alarm and the commit below come after */
  for (int j = 0; j < nc; j++) {
    beliefs->map[j] = c->active[j] && trv_posterior_map(c->post, j);
    beliefs->p[j] = c->active[j] ? trv_posterior_presence(c->post, j) : 0.0;
  }
  row->entropy_bits = active_entropy(c, c->post);
  row->budget = c->budget;
  row->probes = probes;
  row->r_hat_epi = r_hat;

  /* The detector tests the committed model: with nothing committed (before
   * the first commit, or after an alarm emptied G_hat until the next one)
   * there is nothing to test, and testing the empty graph would alarm again
   * and again on every present component. */
  if (c->det && c->ghat_live) {
    TrvDetectorInput in = {c->h_prev, row->entropy_bits, probes, comp, zs, resid, trv_posterior_noise_var(c->post), nc};
    row->alarm = c->det->step(c->det_state, &in, &row->detector_stat);
    if (row->alarm) {
      row->resets = partial_reset(c, e, &ghat_e, out);
      if (c->window < (1 << 20)) c->window *= 2;
      trv_graph_clear(&c->ghat, nc);
      c->ghat_live = false;
    }
  }
  if (c->variant == V_GROW && c->n_outside > 0 && beliefs->committed && grow(c, e, probes, comp, resid, out))
    if (c->window < (1 << 20)) c->window *= 2;
  c->h_prev = active_entropy(c, c->post);

  /* G_hat_{e+1}: the commit rule, then local repair. */
  row->committed = c->rule == TRV_COMMIT_EXECUTED
                       ? trv_commit_executed(c->post, active_mask(c), c->p.h_ent, &c->ghat)
                       : trv_commit_ideal(c->post, c->steps, c->p.kappa_min, c->p.zabs, &c->ghat);
  if (row->committed) c->ghat_live = true;
  if (c->lrcp_on) {
    TrvLrcpResult lr = trv_lrcp(c->win, c->post, c->cand, &c->lp, &c->ghat);
    row->lrcp_status = lr.status;
    row->lrcp_n = lr.n_eps;
    memcpy(row->lrcp_eps, lr.eps, sizeof lr.eps);
    for (int j = 0; j < nc; j++)
      if (!c->ghat.present[j]) c->ghat.frozen[j] = false;
  }
  for (int j = 0; j < nc; j++) /* what the graph does not hold, neither does G_hat */
    if (!c->active[j]) c->ghat.present[j] = c->ghat.frozen[j] = false, c->ghat.kappa[j] = 0.0;
  if (c->variant == V_EPI_RESET)
    for (int j = 0; j < nc; j++) append_reset(c, e, j, out);
  return true;
}

const TrvControllerClass trv_controller_trivium = {
    .summary = "interventional controller: IGScore probes, posterior, commit, LRCP, detectors",
    .create = tr_create,
    .plan = tr_plan,
    .absorb = tr_absorb,
    .posterior = tr_posterior,
    .event_sourced = true,
    .free = tr_free,
};

/* The same controller for the trivium-oracle yardstick, handed the truth. */
const TrvControllerClass trv_controller_trivium_oracle = {
    .summary = "yardstick: Trivium whose scheduler is handed the episode's truth (the oracle design)",
    .create = tr_create,
    .plan = tr_plan,
    .absorb = tr_absorb,
    .posterior = tr_posterior,
    .event_sourced = true,
    .sees_truth = true,
    .free = tr_free,
};
