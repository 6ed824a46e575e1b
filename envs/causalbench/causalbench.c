/* causalbench.c - the CausalBench-Seq world and its parameters (world.*,
 * causalbench.h; its opening paragraph in docs/experiments/identification.md;
 * the variants in docs/scenarios.md, "<world name=...>"; their
 * measurements in docs/experiments/).
 *
 * Variables C (hidden confounder), X, Y; G_inf = {C->X, C->Y, X->Y}.  Per
 * step C ~ N(0,1), X = a g(C) + s eps_X, Y = b g(C) + k_e g(X) + s eps_Y,
 * with g(u) = u (linear), tanh(nu u)/nu (nonlinear variant) or
 * |z| tanh(nu u)/tanh(nu |z|) (tanh variant, |z| = budget.zabs the probe
 * magnitude; g(u) -> u as nu -> 0).  The
 * observational channel shows (X, Y) only.  Probes: C->X is do(C = z)
 * observing X; C->Y is do(C = z), X clamped at 0, observing Y; X->Y is
 * do(X = z), C clamped at 0, observing Y.  Dispatch: d in {0, 1}, payoff
 * d (k_e - c) + N(0, 1), c = kappa / 2, Delta_e = |k_e - c|, safe d = 0.
 *
 * Schedules of k_e (E episodes, change-points rounded down):
 *   headline:   0 on [0, 0.3E), kappa on [0.3E, 0.6E), 0 after (E = 500:
 *               changes at 150 and 300);
 *   flips:      K flips at E i / (K + 1), i = 1..K, starting from 0;
 *   variance:   no X->Y ever; s = s_high on [0.3E, 0.6E), s elsewhere (the
 *               world still declares s^2 as the probe noise: the inflation
 *               is the hidden change);
 *   nonlinear:  the headline schedule with g = tanh(nu u)/nu: the slope a
 *               probe at |z| = 1 reads, tanh(nu)/nu, shrinks as nu grows;
 *   tanh:       the headline schedule with g = a tanh(nu u)/tanh(nu a),
 *               a = world.tanh_scale or, when 0, the probe magnitude |z|:
 *               then a probe reads the linear step at every nu
 *               (g(+-|z|) = +-|z|), while saturation compresses
 *               the observational channel (X and C, spread over several
 *               units, level off at |z|/tanh(nu |z|): 1.04 at nu = 2);
 *   separation: one episode of T steps (default 500), no X->Y;
 *   random:     X->Y flips at random change-points, starting from 0: each
 *               episode 1 .. E-1 is one with probability
 *               world.disruption_rate, drawn from stream (seed,
 *               TRV_STREAM_STRUCTURE), the same for every controller;
 *   outside:    a cause outside G_inf (the falsifier of the assumption
 *               that the candidate graph holds every cause): a logged
 *               variable Z ~ N(0,1), Z -> Y with weight m_e = kappa on
 *               [0.3E, 0.6E) and 0 elsewhere, X -> Y absent throughout;
 *               Y = b g(C) + m_e Z + s eps_Y.  The dispatch moves X and
 *               Z together, so its value is k_e + m_e - c.  Z -> Y is the
 *               fourth component, declared outside (TrvWorldClass.outside):
 *               the controllers start from {C->X, C->Y, X->Y}, whose
 *               probes clamp C and X but leave Z free, so a probe into Y
 *               reads m_e Z as extra noise (variance s^2 + m_e^2); the
 *               probe of Z -> Y sets Z and clamps C and X.  The
 *               observational channel shows (X, Y, Z).
 * Confounder-count scaling (world.components = N > 3): hidden confounders
 * C1 .. CK join, K = 1 + ceil((N - 3) / 2); after the three components
 * above come C2->X, C2->Y, C3->X, C3->Y, ... up to N components.  A
 * confounder of even index acts on X and Y (weights a and b), one of odd
 * index is inert (its candidate edges absent), so the graph to identify has
 * present and absent edges at every size.  Per step every C_k ~ N(0,1), X
 * = sum a_k g(C_k) + s eps_X, Y = sum b_k g(C_k) + k_e g(X) + s eps_Y; a
 * probe clamps every other variable at 0.  N = 3 is the model above, draw
 * for draw.
 * Random streams: observational noise, probe noise and payoff noise each
 * have their own stream of the seed, so the observational stream is the
 * same for every controller (common random numbers).  Agent a observes and
 * is paid from streams of (seed, a).  Probes are numbered
 * (TrvAgentClass.probe_number): the noise of the probe numbered n is
 * normal n of the run's probe-noise stream, whichever agent runs it, so a
 * probe measures the same at every agent count (agent 0's probe stream is
 * the run's, and one agent draws in order, as before numbering). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "causalbench.h"
#include "core/rng.h"
#include "core/params.h"
#include "core/world.h"

static const char *const variant_names[] = {"headline", "flips",  "variance", "nonlinear", "separation",
                                            "tanh",     "random", "outside",  NULL};

#define D(k, f, d, lo, hi, doc) TRV_ROW_DOUBLE(TrvCausalbenchParams, k, f, d, lo, hi, doc)
static const TrvParamSpec specs[] = {
    TRV_ROW_ENUM(TrvCausalbenchParams, "world.variant", variant, "headline", variant_names, "CausalBench-Seq variant"),
    TRV_ROW_INT(TrvCausalbenchParams, "world.flips", flips, 3, 0, 1000,
                "flips variant: K topology flips evenly spaced"),
    TRV_ROW_INT(
        TrvCausalbenchParams, "world.components", components, 3, 3, 48,
        "CausalBench-Seq: candidate components |G_inf|; beyond C->X, C->Y, X->Y, hidden confounders C2, C3, ... "
        "each a candidate cause of X then of Y, those of even index present (a, b), the odd ones absent"),
    D("world.a", a, 1.0, -1e9, 1e9, "C -> X coefficient a"),
    D("world.b", b, 1.0, -1e9, 1e9, "C -> Y coefficient b"),
    D("world.kappa", kappa, 1.0, -1e9, 1e9, "X -> Y effect kappa when present"),
    D("world.s", s, 1.0, 1e-9, 1e9, "noise scale s"),
    D("world.s_high", s_high, 2.5, 1e-9, 1e9, "variance variant: s on episodes [E*0.3, E*0.6)"),
    D("world.nu", nu, 1.0, 0, 1e9, "nonlinear and tanh variants: coupling strength nu"),
    D("world.tanh_scale", tanh_scale, 0, 0, 1e9,
      "tanh variant: the scale a of g(u) = a tanh(nu u)/tanh(nu a); 0: the probe magnitude budget.zabs, so that a "
      "probe reads the linear step at every nu"),
    D("world.disruption_rate", disruption_rate, 0.01, 0, 1,
      "random variant: per-episode probability that X->Y flips (episodes 1 .. E-1, drawn from the seed)"),
};
const TrvParamBlock trv_causalbench_params = TRV_BLOCK(TrvCausalbenchParams, specs);

enum { VAR_C, VAR_X, VAR_Y, VAR_Z };
enum { COMP_CX, COMP_CY, COMP_XY, COMP_ZY };

static const char *const var_names[] = {"C", "X", "Y", "Z"};
static const TrvComponent components[] = {
    {"C->X", VAR_C, VAR_X, false},
    {"C->Y", VAR_C, VAR_Y, false},
    {"X->Y", VAR_X, VAR_Y, true},
    {"Z->Y", VAR_Z, VAR_Y, true}, /* the outside variant's cause outside G_inf */
};
static const TrvCandidates candidates = {3, var_names, 3, components};
static const TrvCandidates candidates_outside = {4, var_names, 4, components};

#define CB_MAX_CONF (1 + (TRV_MAX_COMPONENTS - 3 + 1) / 2)

typedef struct {
  TrvCausalbenchParams p;
  double zabs; /* budget.zabs, the probe magnitude (the tanh variant's scale) */
  uint64_t seed;
  int episodes, steps;
  /* the candidate graph: the fixed one (N = 3) or one built for N */
  int n_conf;                              /* K */
  double wx[CB_MAX_CONF], wy[CB_MAX_CONF]; /* C_k -> X and C_k -> Y weights (k = 0: C1) */
  int comp_conf[TRV_MAX_COMPONENTS];       /* per component: its confounder, or -1 for X->Y */
  bool comp_to_y[TRV_MAX_COMPONENTS];
  TrvCandidates cand;
  TrvComponent comps[TRV_MAX_COMPONENTS];
  const char *vnames[CB_MAX_CONF + 2];
  char names[TRV_MAX_COMPONENTS + CB_MAX_CONF][16];
  int cps[1024], n_cps;
  /* current episode */
  int episode;
  double k, m, s; /* X->Y and (outside variant) Z->Y weights, noise scale */
  TrvRng obs_rng, probe_rng, pay_rng;
  bool numbered;       /* probe_rng is the run's stream, positioned at probe_next */
  uint64_t probe_next; /* the number of its next draw */
} CausalBench;

static double g_link(const CausalBench *w, double u) {
  if (w->p.nu == 0) return u;
  if (w->p.variant == TRV_VARIANT_NONLINEAR) return tanh(w->p.nu * u) / w->p.nu;
  if (w->p.variant == TRV_VARIANT_TANH) {
    double a = w->p.tanh_scale > 0 ? w->p.tanh_scale : w->zabs;
    return a * tanh(w->p.nu * u) / tanh(w->p.nu * a);
  }
  return u;
}

/* The weight that alternates 0, kappa, 0, ... at each change-point. */
static double alternating(const CausalBench *w, int e) {
  int flips = 0;
  for (int i = 0; i < w->n_cps; i++) flips += e >= w->cps[i];
  return flips % 2 ? w->p.kappa : 0.0;
}

static double k_of(const CausalBench *w, int e) {
  /* k_e: X->Y alternates (except variance, separation and outside) */
  if (w->p.variant == TRV_VARIANT_VARIANCE || w->p.variant == TRV_VARIANT_SEPARATION ||
      w->p.variant == TRV_VARIANT_OUTSIDE)
    return 0.0;
  return alternating(w, e);
}

static bool outside(const CausalBench *w) { return w->p.variant == TRV_VARIANT_OUTSIDE; }

/* m_e: the outside variant's Z->Y alternates; no Z elsewhere. */
static double m_of(const CausalBench *w, int e) { return outside(w) ? alternating(w, e) : 0.0; }

static void *cb_init(const TrvParams *params, uint64_t seed, GError **error) {
  CausalBench *w = g_new0(CausalBench, 1);
  const TrvCausalbenchParams *p = trv_params_block(params, &trv_causalbench_params);
  w->p = *p;
  w->zabs = params->zabs;
  w->episodes = params->episodes;
  w->steps = params->steps;
  if (p->variant == TRV_VARIANT_SEPARATION) w->episodes = 1;
  int E = w->episodes;
  switch (p->variant) {
    case TRV_VARIANT_HEADLINE:
    case TRV_VARIANT_OUTSIDE:
    case TRV_VARIANT_NONLINEAR:
    case TRV_VARIANT_TANH:
    case TRV_VARIANT_VARIANCE:
      w->cps[w->n_cps++] = (int)(0.3 * E);
      w->cps[w->n_cps++] = (int)(0.6 * E);
      break;
    case TRV_VARIANT_FLIPS:
      if (p->flips >= (int)G_N_ELEMENTS(w->cps) || p->flips >= E) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "world.flips = %d: at most %d flips fit in %d episodes",
                    p->flips, MIN(E - 1, (int)G_N_ELEMENTS(w->cps) - 1), E);
        g_free(w);
        return NULL;
      }
      for (int i = 1; i <= p->flips; i++) w->cps[w->n_cps++] = (int)((double)E * i / (p->flips + 1));
      break;
    case TRV_VARIANT_RANDOM: {
      TrvRng r;
      trv_rng_init(&r, seed, TRV_STREAM_STRUCTURE);
      for (int e = 1; e < E; e++) {
        if (trv_rng_uniform(&r) >= p->disruption_rate) continue;
        if (w->n_cps == (int)G_N_ELEMENTS(w->cps)) {
          g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                      "world.disruption_rate = %g: more than %d change-points in %d episodes (seed %" PRIu64
                      "); expected a lower rate or fewer episodes",
                      p->disruption_rate, (int)G_N_ELEMENTS(w->cps), E, seed);
          g_free(w);
          return NULL;
        }
        w->cps[w->n_cps++] = e;
      }
      break;
    }
    case TRV_VARIANT_SEPARATION: break;
  }
  int n = p->components;
  if (p->variant == TRV_VARIANT_OUTSIDE && n != 3) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "world.components = %d with world.variant = outside; expected 3 (the outside variant adds Z->Y "
                "to C->X, C->Y, X->Y)",
                n);
    g_free(w);
    return NULL;
  }
  w->n_conf = 1 + (n - 3 + 1) / 2;
  w->wx[0] = p->a, w->wy[0] = p->b;
  for (int k = 1; k < w->n_conf; k++) { /* C2, C3, ...: the even-numbered act, the odd are inert */
    bool acts = (k + 1) % 2 == 0;
    w->wx[k] = acts ? p->a : 0.0;
    w->wy[k] = acts ? p->b : 0.0;
  }
  if (n == 3) {
    w->cand = p->variant == TRV_VARIANT_OUTSIDE ? candidates_outside : candidates;
  } else {
    for (int k = 0; k < w->n_conf; k++) {
      snprintf(w->names[k], sizeof w->names[k], "C%d", k + 1);
      w->vnames[k] = w->names[k];
    }
    int vx = w->n_conf, vy = w->n_conf + 1;
    w->vnames[vx] = "X";
    w->vnames[vy] = "Y";
    for (int j = 0; j < n; j++) {
      int k = j < 2 ? 0 : j == 2 ? -1 : 1 + (j - 3) / 2;
      bool to_y = j == 1 || (j >= 3 && (j - 3) % 2 == 1);
      char *name = w->names[CB_MAX_CONF + j];
      if (k < 0)
        snprintf(name, sizeof w->names[0], "X->Y");
      else
        snprintf(name, sizeof w->names[0], "C%d->%s", k + 1, to_y ? "Y" : "X");
      w->comps[j] = (TrvComponent){name, k < 0 ? vx : k, k < 0 || to_y ? vy : vx, k < 0};
    }
    w->cand = (TrvCandidates){w->n_conf + 2, w->vnames, n, w->comps};
  }
  for (int j = 0; j < n; j++) {
    w->comp_conf[j] = j < 2 ? 0 : j == 2 ? -1 : 1 + (j - 3) / 2;
    w->comp_to_y[j] = j == 1 || (j >= 3 && (j - 3) % 2 == 1);
  }
  w->seed = seed;
  trv_rng_init(&w->obs_rng, seed, TRV_STREAM_WORLD);
  trv_rng_init(&w->probe_rng, seed, TRV_STREAM_PROBE_NOISE);
  trv_rng_init(&w->pay_rng, seed, TRV_STREAM_DISPATCH);
  return w;
}

/* The candidate graph's names point into the world: a copy points into itself. */
static void cb_rebase(CausalBench *w) {
  if (w->p.components == 3) return;
  for (int k = 0; k < w->n_conf; k++) w->vnames[k] = w->names[k];
  for (int j = 0; j < w->p.components; j++) w->comps[j].name = w->names[CB_MAX_CONF + j];
  w->cand.var_names = w->vnames;
  w->cand.components = w->comps;
}

static void *cb_agent_instance(void *world, int agent) {
  CausalBench *w = g_memdup2(world, sizeof(CausalBench));
  cb_rebase(w);
  uint64_t off = 100 * (uint64_t)agent;
  trv_rng_init(&w->obs_rng, w->seed, TRV_STREAM_WORLD + off);
  trv_rng_init(&w->probe_rng, w->seed, TRV_STREAM_PROBE_NOISE + off);
  trv_rng_init(&w->pay_rng, w->seed, TRV_STREAM_DISPATCH + off);
  return w;
}

static const TrvCandidates *cb_candidates(void *world) { return &((CausalBench *)world)->cand; }
static bool cb_outside(void *world, int j) { return outside(world) && j == COMP_ZY; }
static double cb_noise_var(void *world) {
  CausalBench *w = world;
  return w->p.s * w->p.s;
}
static int cb_episodes(void *world) { return ((CausalBench *)world)->episodes; }
static int cb_steps(void *world) { return ((CausalBench *)world)->steps; }

static int cb_change_points(void *world, int *out, int max) {
  CausalBench *w = world;
  int n = w->n_cps < max ? w->n_cps : max;
  memcpy(out, w->cps, sizeof(int) * n);
  return n;
}

static void cb_episode_begin(void *world, int e) {
  CausalBench *w = world;
  w->episode = e;
  w->k = k_of(w, e);
  w->m = m_of(w, e);
  w->s = w->p.s;
  if (w->p.variant == TRV_VARIANT_VARIANCE && w->n_cps == 2 && e >= w->cps[0] && e < w->cps[1]) w->s = w->p.s_high;
}

static int cb_observe(void *world, int t, double *ctx, int max) {
  CausalBench *w = world;
  (void)t;
  if (max < (outside(w) ? 3 : 2)) return 0; /* no room for (X, Y) or (X, Y, Z) */
  double x = 0, y = 0;
  for (int k = 0; k < w->n_conf; k++) {
    double c = g_link(w, trv_rng_normal(&w->obs_rng));
    x += w->wx[k] * c;
    y += w->wy[k] * c;
  }
  x += w->s * trv_rng_normal(&w->obs_rng);
  y += w->k * g_link(w, x) + w->s * trv_rng_normal(&w->obs_rng);
  ctx[0] = x;
  if (outside(w)) {
    double z = trv_rng_normal(&w->obs_rng);
    y += w->m * z;
    ctx[2] = z;
  }
  ctx[1] = y;
  return outside(w) ? 3 : 2;
}

/* The next probe is the run's number n: position the run's probe-noise
 * stream at its normal n (forward, or over from the start). */
static void cb_probe_number(void *agent, uint64_t n) {
  CausalBench *w = agent;
  if (!w->numbered || n < w->probe_next) {
    trv_rng_init(&w->probe_rng, w->seed, TRV_STREAM_PROBE_NOISE);
    w->numbered = true;
    w->probe_next = 0;
  }
  for (; w->probe_next < n; w->probe_next++) (void)trv_rng_normal(&w->probe_rng);
}

static double cb_probe(void *world, int j, double z) {
  CausalBench *w = world;
  g_assert(j >= 0 && j < w->cand.n_components);
  /* The outside variant's probes into Y leave Z free: m Z joins the noise,
   * one normal of variance s^2 + m^2 (one draw per probe, as elsewhere). */
  bool free_z = outside(w) && (j == COMP_CY || j == COMP_XY);
  double noise = (free_z ? sqrt(w->s * w->s + w->m * w->m) : w->s) * trv_rng_normal(&w->probe_rng);
  w->probe_next++;
  if (outside(w) && j == COMP_ZY) return w->m * z + noise; /* do(Z = z), C and X clamped */
  int k = w->comp_conf[j];
  if (k < 0) return w->k * g_link(w, z) + noise; /* X->Y */
  return (w->comp_to_y[j] ? w->wy[k] : w->wx[k]) * g_link(w, z) + noise;
}

static double cb_expected(void *world, int a) {
  CausalBench *w = world;
  return a ? w->k + w->m - 0.5 * w->p.kappa : 0.0;
}

static double cb_act(void *world, int a) {
  CausalBench *w = world;
  return cb_expected(world, a) + trv_rng_normal(&w->pay_rng);
}

static void cb_truth(void *world, TrvGraph *g) {
  CausalBench *w = world;
  int n = w->p.components;
  trv_graph_clear(g, w->cand.n_components);
  for (int j = 0; j < n; j++) {
    int k = w->comp_conf[j];
    g->kappa[j] = k < 0 ? w->k : w->comp_to_y[j] ? w->wy[k] : w->wx[k];
    g->present[j] = g->kappa[j] != 0.0;
  }
  if (outside(w)) {
    g->kappa[COMP_ZY] = w->m;
    g->present[COMP_ZY] = w->m != 0.0;
  }
}

static double cb_gap(void *world) {
  CausalBench *w = world;
  return fabs(w->k + w->m - 0.5 * w->p.kappa);
}

static bool cb_task_relevant(void *world, int j) { return j == COMP_XY || cb_outside(world, j); }

/* Dispatch when the graph's effects of the action (X->Y, and Z->Y in the
 * outside variant) add up to more than c. */
static int cb_plan(void *world, const TrvGraph *ghat) {
  CausalBench *w = world;
  if (!outside(w)) return ghat->present[COMP_XY] && ghat->kappa[COMP_XY] > 0.5 * w->p.kappa;
  double v = ghat->present[COMP_XY] ? ghat->kappa[COMP_XY] : 0.0;
  if (ghat->n > COMP_ZY && ghat->present[COMP_ZY]) v += ghat->kappa[COMP_ZY];
  return v > 0.5 * w->p.kappa;
}

static int cb_oracle(void *world) {
  CausalBench *w = world;
  return w->k + w->m > 0.5 * w->p.kappa;
}

/* (X, Y) as a pair of X->Y; with a logged Z (outside variant), (Z, Y) as
 * one of Z->Y. */
static int cb_observational_pairs(const double *ctx, int n, int *j, double *z, double *wv, int max) {
  if (n < 2 || max < 1) return 0;
  j[0] = COMP_XY;
  z[0] = ctx[0];
  wv[0] = ctx[1];
  if (n < 3 || max < 2) return 1;
  j[1] = COMP_ZY;
  z[1] = ctx[2];
  wv[1] = ctx[1];
  return 2;
}

static const TrvAgentClass agent_class = {
    .instance = cb_agent_instance,
    .free = g_free,
    .episode_begin = cb_episode_begin,
    .observe = cb_observe,
    .probe = cb_probe,
    .plan = cb_plan,
    .act = cb_act,
    .probe_number = cb_probe_number,
};

static const TrvRefereeClass referee_class = {
    .truth = cb_truth,
    .gap = cb_gap,
    .task_relevant = cb_task_relevant,
    .change_points = cb_change_points,
    .oracle = cb_oracle,
    .expected_payoff = cb_expected,
};

/* CausalBench-Seq is abstract: its step is a nominal second, so that a
 * probe of sim.probe_flops (0.02 s on a 1 Gflop/s host) fits in it. */
static double cb_step_seconds(void *world) {
  (void)world;
  return 1.0;
}

const TrvWorldClass trv_world_causalbench = {
    .name = "causalbench",
    .init = cb_init,
    .free = g_free,
    .candidates = cb_candidates,
    .likelihood = TRV_LIKELIHOOD_GAUSSIAN,
    .noise_var = cb_noise_var,
    .episodes = cb_episodes,
    .steps = cb_steps,
    .safe_action = 0,
    .episode_begin = cb_episode_begin,
    .observational_pairs = cb_observational_pairs,
    .agent = &agent_class,
    .referee = &referee_class,
    .step_seconds = cb_step_seconds,
    .params = &trv_causalbench_params,
    .outside = cb_outside,
};
