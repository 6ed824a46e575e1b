/* jssp-world.c - the job shop as a world of the one episode protocol
 * (docs/jssp.md, "The job shop as a world"); its parameters are
 * jssp-params.h.
 *
 * Variables: C (latent congestion), T (an operation's processing time) and
 * one indicator per machine, m0..m{M-1}; G_inf = {m_i -> T}: component i
 * is machine i's own effect on processing times, kappa_i.  The dispatch
 * agents are the machines, grouped onto agents.count agents (machine i
 * belongs to agent i mod agents.count).
 *
 * Two shops:
 *  - the machine stream (world.instance empty): M parallel machines,
 *    alpha_i ~ N(alpha_mean, alpha_sd^2), per step X_i = alpha_i +
 *    rho C + s eta_i, outcome Y = max_i X_i + xi, reward -Y; kappa_i =
 *    alpha_i - alpha_mean.  A probe do(assign = i) at z = +-zabs reads
 *    w = z (X_i - alpha_mean): beta z plus noise of variance
 *    zabs^2 (rho^2 + s^2).  The dispatch head assigns every task to the
 *    argmin of alpha_mean + kappa_hat_i (kappa_hat_i = 0 for a machine
 *    the committed graph calls absent).  The timing log pairs the
 *    assigned machine with Y (Y does not depend on it: the confounding).
 *    R_out of an episode: 1 when the planned machine is not argmin alpha.
 *  - a real instance (world.instance = ft06, ft10, ft20, la01 or a file):
 *    hidden slowdowns s_i (1, or U[slow_lo, slow_hi] on 1..slow_max
 *    machines), per episode a congestion C_e with durations base * s_i *
 *    exp(rho C_e); kappa_i = log s_i.  A probe times a forced operation
 *    on machine i next to a reference operation on the dispatcher under
 *    the same congestion: w = z log-ratio, noise 2 zabs^2 sigma^2.  The
 *    dispatch head picks, among the candidate plans of jssp-confounded.c,
 *    the one with the smallest makespan on exp(kappa_hat_i) for the
 *    machines it calls slow; R_out is its makespan minus the oracle
 *    plan's, both on the episode's true durations.  The shop's timing log
 *    (the busiest machine when congested, else a random one) is recorded
 *    by agent 0 at step 0 for the outcome-only learners.
 * World draws follow the stand-alone references of `trivium jssp stream`
 * and `trivium jssp confounded` (src/jssp-stream-ref.c,
 * src/jssp-confounded-ref.c) draw for draw: agent 0 of the stream
 * continues the world's stream after the alpha draws, the instance's
 * per-episode draws are the reference's, and agent k's probe noise is stream
 * TRV_STREAM_PROBE_NOISE + 100 k, so one agent faces what the reference
 * faces.  An agent's simulated work (TrvAgentClass.work), on hosts of
 * speed 1 flop/s, is the processing time of its probes and of the work
 * dealt to it: in the stream the episode's tasks are dealt in turn (task t
 * to agent t mod agents.count).  On an instance the production run is
 * simulated operation by operation (TrvAgentClass.operations): each
 * machine's operations of the planned plan, on that machine's host, at
 * the start times of the plan's semi-active execution on the episode's
 * true durations.  An episode lasts as long as its slowest agent. */
#include <math.h>
#include <string.h>

#include "core/datadir.h"
#include "core/params.h"
#include "core/rng.h"
#include "core/world.h"
#include "jssp-confounded.h"
#include "jssp-params.h"

#define MAX_M TRV_CONFOUNDED_MAX_M
G_STATIC_ASSERT(TRV_JSSP_STREAM_MAX_MACHINES <= MAX_M && MAX_M + 2 <= TRV_MAX_COMPONENTS);

enum { VAR_C, VAR_T, VAR_M0 };

/* identified: the plan's machine is argmin alpha (stream), the machines
 * planned slow are the slow ones (instance); cost: alpha of the planned
 * machine (stream) or the plan's makespan (instance), oracle_cost the
 * same for the oracle's choice. */
static const char *const metric_names[] = {"identified", "cost", "oracle_cost", NULL};

/* The machine stream's world: world.machines, world.alpha_mean,
 * world.alpha_sd, world.congestion (rho), world.machine_noise (s),
 * world.outcome_sd (xi_sd). */
typedef struct {
  int machines;
  double alpha_mean, alpha_sd, rho, s, xi_sd;
} StreamWorld;

typedef struct {
  double zabs; /* budget.zabs */
  uint64_t seed;
  bool stream;
  int M, episodes, steps, n_agents;
  char names[MAX_M][24], var_text[MAX_M][8];
  const char *var_names[MAX_M + 2];
  TrvComponent comps[MAX_M];
  TrvCandidates cand;
  TrvRng world_rng;
  /* the stream */
  StreamWorld sp;
  double alpha[MAX_M];
  int best;
  /* a real instance */
  TrvJsspInstance *inst;
  TrvConfoundedPlans *plans;
  TrvConfoundedParams cp;
  TrvConfoundedWorld cw;
  double *true_ms, *noise, mean_base[MAX_M];
  int oracle, naive;
  /* the current episode */
  int episode;
  double C, timed_reading;
  int timed;
  /* written by the agents' dispatch heads (they agree: same G_hat) */
  int planned;
  uint32_t called_slow;
  /* the production run of the planned plan on the episode's durations */
  int run_episode, run_plan;
  double *run_start, *run_end, *run_dur;
  char *instance_path; /* the instance file read, or NULL (the stream) */
} Jssp;

typedef struct {
  Jssp *w;
  int index, step;
  TrvRng obs_rng, probe_rng;
  double x[MAX_M], y; /* the stream's current step */
  double work;
  int planned;
  TrvOperation *ops; /* this agent's machines' operations of the production run */
} JsspAgent;

/* ---- set-up ---------------------------------------------------------------- */

/* A shipped instance name (letters and digits) or a path; *found: the file. */
static TrvJsspInstance *load_instance(const char *what, char **found, GError **error) {
  bool name = *what != '\0';
  for (const char *c = what; *c; c++) name &= g_ascii_isalnum(*c);
  if (!name) {
    *found = g_strdup(what);
    return trv_jssp_instance_load(what, error);
  }
  char *dir = g_build_filename("platforms", "jssp", what, NULL), *tried = NULL;
  char *path = trv_find_data(dir, "jobs.txt", &tried);
  g_free(dir);
  TrvJsspInstance *inst = NULL;
  if (!path)
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "world.instance = %s: no shipped instance of that name (looked for %s); expected ft06, ft10, ft20, "
                "la01 or the path of an instance file",
                what, tried);
  else
    inst = trv_jssp_instance_load(path, error);
  *found = path;
  g_free(tried);
  return inst;
}

static void jssp_free(void *world) {
  Jssp *w = world;
  if (!w) return;
  trv_confounded_plans_free(w->plans);
  trv_jssp_instance_free(w->inst);
  g_free(w->true_ms);
  g_free(w->noise);
  g_free(w->run_start);
  g_free(w->run_end);
  g_free(w->run_dur);
  g_free(w->instance_path);
  g_free(w);
}

static void *jssp_init(const TrvParams *params, uint64_t seed, GError **error) {
  Jssp *w = g_new0(Jssp, 1);
  const TrvJsspParams *p = trv_params_block(params, &trv_jssp_params);
  w->zabs = params->zabs;
  w->seed = seed;
  w->episodes = params->episodes;
  w->steps = params->steps;
  w->n_agents = trv_params_int(params, "agents.count");
  w->stream = p->instance[0] == '\0';
  w->planned = -1;
  if (w->stream) {
    w->sp = (StreamWorld){.machines = p->machines,
                          .alpha_mean = p->alpha_mean,
                          .alpha_sd = p->alpha_sd,
                          .rho = p->congestion,
                          .s = p->machine_noise,
                          .xi_sd = p->outcome_sd};
    w->M = w->sp.machines;
    trv_rng_init(&w->world_rng, seed, TRV_STREAM_WORLD);
    for (int i = 0; i < w->M; i++) w->alpha[i] = w->sp.alpha_mean + w->sp.alpha_sd * trv_rng_normal(&w->world_rng);
    for (int i = 1; i < w->M; i++)
      if (w->alpha[i] < w->alpha[w->best]) w->best = i;
  } else {
    if (p->slow_lo > p->slow_hi) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "world.slow_lo = %g is above world.slow_hi = %g", p->slow_lo,
                  p->slow_hi);
      jssp_free(w);
      return NULL;
    }
    if (!(w->inst = load_instance(p->instance, &w->instance_path, error)) ||
        !trv_confounded_instance_fits(w->inst, p->instance, error)) {
      jssp_free(w);
      return NULL;
    }
    trv_confounded_params_from(p, &w->cp);
    w->M = w->inst->n_machines;
    w->plans = trv_confounded_plans_new(w->inst);
    int N = w->inst->n_jobs * w->inst->n_ops, count[MAX_M] = {0};
    for (int op = 0; op < N; op++) {
      w->mean_base[w->inst->machine[op]] += w->inst->duration[op];
      count[w->inst->machine[op]]++;
    }
    for (int i = 0; i < w->M; i++) w->mean_base[i] = count[i] ? w->mean_base[i] / count[i] : 0;
    trv_confounded_world_draw(w->inst, &w->cp, seed, &w->cw, &w->world_rng);
    w->true_ms = g_new(double, trv_confounded_plans_count(w->plans));
    w->noise = g_new(double, N);
    w->run_start = g_new(double, N);
    w->run_end = g_new(double, N);
    w->run_dur = g_new(double, N);
    w->run_episode = -1;
    w->oracle = trv_confounded_best_plan(w->plans, w->cw.slowdown, w->true_ms);
    double ones[MAX_M];
    for (int i = 0; i < w->M; i++) ones[i] = 1.0;
    w->naive = trv_confounded_best_plan(w->plans, ones, NULL);
  }
  for (int i = 0; i < w->M; i++) {
    g_snprintf(w->var_text[i], sizeof w->var_text[i], "m%d", i);
    g_snprintf(w->names[i], sizeof w->names[i], "m%d->T", i);
    w->var_names[VAR_M0 + i] = w->var_text[i];
    w->comps[i] = (TrvComponent){w->names[i], VAR_M0 + i, VAR_T, true};
  }
  w->var_names[VAR_C] = "C";
  w->var_names[VAR_T] = "T";
  w->cand = (TrvCandidates){w->M + 2, w->var_names, w->M, w->comps};
  return w;
}

static const TrvCandidates *jssp_candidates(void *world) { return &((Jssp *)world)->cand; }

static double jssp_noise_var(void *world) {
  Jssp *w = world;
  double z2 = w->zabs * w->zabs;
  return w->stream ? z2 * (w->sp.rho * w->sp.rho + w->sp.s * w->sp.s) : z2 * 2 * w->cp.sigma * w->cp.sigma;
}

static int jssp_episodes(void *world) { return ((Jssp *)world)->episodes; }
static int jssp_steps(void *world) { return ((Jssp *)world)->steps; }

/* The world's draws of episode e, in the reference's order. */
static void jssp_episode_begin(void *world, int e) {
  Jssp *w = world;
  w->episode = e;
  w->planned = -1;
  w->called_slow = 0;
  if (w->stream) return;
  const int N = w->inst->n_jobs * w->inst->n_ops;
  w->C = trv_rng_normal(&w->world_rng);
  int random_machine = (int)trv_rng_below(&w->world_rng, (uint64_t)w->M);
  for (int op = 0; op < N; op++) w->noise[op] = trv_rng_normal(&w->world_rng);
  w->timed = w->C > 0 ? w->cw.busiest : random_machine;
  double sum = 0;
  int count = 0;
  for (int op = 0; op < N; op++)
    if (w->inst->machine[op] == w->timed) {
      sum += log(w->cw.slowdown[w->timed]) + w->cp.rho * w->C + w->cp.sigma * w->noise[op];
      count++;
    }
  w->timed_reading = count ? sum / count : NAN;
}

/* Outcome-only learners: the timing log shows machine c[0]'s reading c[1]. */
static int jssp_observational_pairs(const double *ctx, int n, int *j, double *z, double *wv, int max) {
  if (n < 2 || max < 1 || !isfinite(ctx[1]) || ctx[0] < 0 || ctx[0] >= MAX_M) return 0;
  j[0] = (int)ctx[0];
  z[0] = 1.0;
  wv[0] = ctx[1];
  return 1;
}

/* ---- agents ------------------------------------------------------------------ */

static void *jssp_agent_instance(void *world, int agent) {
  Jssp *w = world;
  JsspAgent *a = g_new0(JsspAgent, 1);
  a->w = w;
  a->index = agent;
  a->planned = -1;
  if (agent == 0)
    a->obs_rng = w->world_rng; /* the reference's stream, after the world's own draws */
  else
    trv_rng_init(&a->obs_rng, w->seed, TRV_STREAM_WORLD + 100 * (uint64_t)agent);
  trv_rng_init(&a->probe_rng, w->seed, TRV_STREAM_PROBE_NOISE + 100 * (uint64_t)agent);
  return a;
}

static void jssp_agent_episode_begin(void *agent, int e) {
  JsspAgent *a = agent;
  (void)e;
  a->work = 0;
  a->step = 0;
}

static int jssp_observe(void *agent, int t, double *ctx, int max) {
  JsspAgent *a = agent;
  Jssp *w = a->w;
  a->step = t;
  if (max < 2) return 0; /* no room for (machine, reading) */
  if (w->stream) {
    const StreamWorld *sp = &w->sp;
    double c = trv_rng_normal(&a->obs_rng), mx = -INFINITY;
    for (int i = 0; i < w->M; i++) {
      a->x[i] = w->alpha[i] + sp->rho * c + sp->s * trv_rng_normal(&a->obs_rng);
      mx = fmax(mx, a->x[i]);
    }
    a->y = mx + sp->xi_sd * trv_rng_normal(&a->obs_rng);
    ctx[0] = a->planned < 0 ? 0 : a->planned;
    ctx[1] = a->y - sp->alpha_mean;
    return 2;
  }
  if (a->index != 0 || t != 0) return 0;
  ctx[0] = w->timed;
  ctx[1] = w->timed_reading;
  return 2;
}

static double jssp_probe(void *agent, int j, double z) {
  JsspAgent *a = agent;
  Jssp *w = a->w;
  g_assert(j >= 0 && j < w->M);
  if (w->stream) { /* the step's task is forced onto machine j */
    a->work += fmax(0, a->x[j]);
    return z * (a->x[j] - w->sp.alpha_mean);
  }
  a->work += 2 * w->mean_base[j] * w->cw.slowdown[j]; /* a typical operation of j, and the reference */
  return z * trv_confounded_probe(&w->cw, &w->cp, j, &a->probe_rng);
}

static int jssp_plan(void *agent, const TrvGraph *ghat) {
  JsspAgent *a = agent;
  Jssp *w = a->w;
  if (w->stream) {
    int best = 0;
    double best_v = INFINITY;
    for (int i = 0; i < w->M; i++) {
      double v = ghat->present[i] ? ghat->kappa[i] : 0.0;
      if (v < best_v) best_v = v, best = i;
    }
    a->planned = w->planned = best;
    return best;
  }
  double factor[MAX_M];
  uint32_t called = 0;
  for (int i = 0; i < w->M; i++) {
    double s = ghat->present[i] ? exp(ghat->kappa[i]) : 1.0;
    factor[i] = s > w->cp.threshold ? s : 1.0;
    if (factor[i] != 1.0) called |= 1u << i;
  }
  a->planned = w->planned = trv_confounded_best_plan(w->plans, factor, NULL);
  w->called_slow = called;
  return a->planned;
}

static double jssp_act(void *agent, int action) {
  JsspAgent *a = agent;
  Jssp *w = a->w;
  if (w->stream) {
    g_assert(action >= 0 && action < w->M);
    if (a->step % w->n_agents == a->index) a->work += fmax(0, a->x[action]); /* the tasks dealt to this agent */
    return -a->y;
  }
  const double scale = exp(w->cp.rho * w->C);
  if (a->index != 0 || a->step != w->steps - 1) return 0;
  return -scale * w->true_ms[action]; /* the episode's makespan, once */
}

static double jssp_work(void *agent) { return ((JsspAgent *)agent)->work; }

static int cmp_op(const void *x, const void *y) {
  const TrvOperation *a = x, *b = y;
  if (a->machine != b->machine) return a->machine < b->machine ? -1 : 1;
  return a->start < b->start ? -1 : a->start > b->start;
}

/* An instance: the operations of this agent's machines in the episode's
 * production run, the planned plan executed (semi-actively) on the true
 * durations, in each machine's order. */
static int jssp_operations(void *agent, const TrvOperation **out) {
  JsspAgent *a = agent;
  Jssp *w = a->w;
  if (w->stream || w->planned < 0) return 0;
  const int N = w->inst->n_jobs * w->inst->n_ops;
  if (w->run_episode != w->episode || w->run_plan != w->planned) {
    const double scale = exp(w->cp.rho * w->C);
    for (int op = 0; op < N; op++)
      w->run_dur[op] = w->inst->duration[op] * w->cw.slowdown[w->inst->machine[op]] * scale;
    trv_confounded_plan_execute(w->plans, w->planned, w->run_dur, w->run_start, w->run_end);
    w->run_episode = w->episode;
    w->run_plan = w->planned;
  }
  if (!a->ops) a->ops = g_new(TrvOperation, N);
  int n = 0;
  for (int op = 0; op < N; op++) {
    int m = w->inst->machine[op];
    if (m % w->n_agents == a->index) a->ops[n++] = (TrvOperation){m, w->run_start[op], w->run_dur[op]};
  }
  qsort(a->ops, (size_t)n, sizeof *a->ops, cmp_op);
  *out = a->ops;
  return n;
}

static void jssp_agent_free(void *agent) {
  JsspAgent *a = agent;
  g_free(a->ops);
  g_free(a);
}

/* ---- referee ----------------------------------------------------------------- */

static void jssp_truth(void *world, TrvGraph *g) {
  Jssp *w = world;
  trv_graph_clear(g, w->M);
  for (int i = 0; i < w->M; i++) {
    g->kappa[i] = w->stream ? w->alpha[i] - w->sp.alpha_mean : log(w->cw.slowdown[i]);
    g->present[i] = g->kappa[i] != 0.0;
  }
}

/* Per step: the stream's slowness gap between the best and the next
 * machine; an instance's makespan lost by planning every machine nominal,
 * spread over the episode's steps. */
static double jssp_gap(void *world) {
  Jssp *w = world;
  if (!w->stream) return (w->true_ms[w->naive] - w->true_ms[w->oracle]) / w->steps;
  double second = INFINITY;
  for (int i = 0; i < w->M; i++)
    if (i != w->best) second = fmin(second, w->alpha[i]);
  return second - w->alpha[w->best];
}

static int planned_or_safe(const Jssp *w) { return w->planned >= 0 ? w->planned : 0; }

static double jssp_outcome_regret(void *world) {
  Jssp *w = world;
  if (w->stream) return planned_or_safe(w) != w->best;
  return exp(w->cp.rho * w->C) * (w->true_ms[planned_or_safe(w)] - w->true_ms[w->oracle]);
}

static int jssp_metrics(void *world, double *v, int max) {
  Jssp *w = world;
  if (max < 3) return 0;
  if (w->stream) {
    v[0] = planned_or_safe(w) == w->best;
    v[1] = w->alpha[planned_or_safe(w)];
    v[2] = w->alpha[w->best];
    return 3;
  }
  double scale = exp(w->cp.rho * w->C);
  v[0] = w->planned >= 0 && w->called_slow == w->cw.slow_set;
  v[1] = scale * w->true_ms[planned_or_safe(w)];
  v[2] = scale * w->true_ms[w->oracle];
  return 3;
}

static int jssp_inputs(void *world, const char **paths, int max) {
  Jssp *w = world;
  if (max < 1 || !w->instance_path) return 0;
  paths[0] = w->instance_path;
  return 1;
}

static const TrvAgentClass agent_class = {
    .instance = jssp_agent_instance,
    .free = jssp_agent_free,
    .episode_begin = jssp_agent_episode_begin,
    .observe = jssp_observe,
    .probe = jssp_probe,
    .plan = jssp_plan,
    .act = jssp_act,
    .work = jssp_work,
    .operations = jssp_operations,
};

static const TrvRefereeClass referee_class = {
    .truth = jssp_truth,
    .gap = jssp_gap,
    .episode_outcome_regret = jssp_outcome_regret,
    .episode_metrics = jssp_metrics,
    .metric_names = metric_names,
};

const TrvWorldClass trv_world_jssp = {
    .name = "jssp",
    .init = jssp_init,
    .free = jssp_free,
    .candidates = jssp_candidates,
    .likelihood = TRV_LIKELIHOOD_GAUSSIAN,
    .noise_var = jssp_noise_var,
    .episodes = jssp_episodes,
    .steps = jssp_steps,
    .safe_action = 0,
    .episode_begin = jssp_episode_begin,
    .observational_pairs = jssp_observational_pairs,
    .agent = &agent_class,
    .referee = &referee_class,
    .inputs = jssp_inputs,
    .params = &trv_jssp_params,
};
