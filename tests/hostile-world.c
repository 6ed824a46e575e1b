/* hostile-world.c - a SimGrid program of the public API alone
 * (trivium/trivium.h) that registers a world answering out of bounds in
 * one way, runs one cell of it with Trivium's own agents, and reports what
 * trivium_plugin_finished() returns.  tests/hostile-world.sh runs every
 * way and checks that each ends in an error naming the function, exit 2,
 * and never in an abort or a sanitizer's report.
 *
 *   hostile-world PLATFORM WAY [own] [--cfg=trivium/KEY:VALUE ...]
 *
 * WAY is `none` (the world answers well) or one of the ways below; with
 * `own`, the world has no agent class and an actor of the program on the
 * host agent-0 is its agent (trivium/agent.h), for the ways that do not
 * involve an agent class.  The
 * program prints how many episodes the run closed, and on an error the
 * error, exit 2.  Answers given during the episodes are bad from episode
 * FROM on, so the episodes before it close.  The world never writes past
 * the room it is told (max): it only claims to have, so that what is
 * tested is the check of its answer, not a crash of its own. */
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <string.h>
#include <trivium/trivium.h>

typedef enum {
  NONE,
  PAIRS_OVER_MAX,          /* observational_pairs: one pair more than max */
  PAIRS_1000,              /* observational_pairs: 1000 pairs */
  PAIRS_NEGATIVE,          /* observational_pairs: -1 */
  PAIRS_NAN_Z,             /* observational_pairs: z = NaN */
  PAIRS_INF_W,             /* observational_pairs: w = +Inf */
  PAIRS_COMPONENT,         /* observational_pairs: a component past G_inf */
  PAIRS_COMPONENT_NEG,     /* observational_pairs: component -1 */
  OBSERVE_NEGATIVE,        /* agent.observe: -1 */
  OBSERVE_OVER_MAX,        /* agent.observe: max + 1 values */
  PROBE_NAN,               /* agent.probe: NaN */
  ACT_INF,                 /* agent.act: -Inf */
  STEP_PAYOFF_NAN,         /* agent.step_payoff (a shared city): NaN */
  PROBE_VALUE_AT_OUT,      /* agent.probe_value_at: -0.5 */
  WORK_NEGATIVE,           /* agent.work: -1 flops */
  WORK_NAN,                /* agent.work: NaN */
  OPERATIONS_NEGATIVE,     /* agent.operations: -1 */
  OPERATION_NAN,           /* agent.operations: a duration of NaN */
  INSTANCE_NULL,           /* agent.instance: NULL */
  PROBE_VALUE_OUT,         /* probe_value: 1.5 */
  CHANGE_POINTS_NEGATIVE,  /* referee.change_points: -1 */
  CHANGE_POINTS_OVER_MAX,  /* referee.change_points: max + 1 */
  CHANGE_POINT_DECREASING, /* referee.change_points: 4 then 2 */
  METRICS_NEGATIVE,        /* referee.episode_metrics: -1 */
  METRICS_OVER_MAX,        /* referee.episode_metrics: max + 1 */
  TRUTH_N,                 /* referee.truth: g->n changed */
  TRUTH_KAPPA_NAN,         /* referee.truth: kappa NaN */
  GAP_NAN,                 /* referee.gap: NaN */
  GAP_NEGATIVE,            /* referee.gap: -1 */
  EXPECTED_PAYOFF_INF,     /* referee.expected_payoff: +Inf */
  INIT_NULL,               /* init: NULL without an error */
  NOISE_VAR_NAN,           /* noise_var: NaN */
  STEPS_HUGE,              /* steps: 2^31 - 1 */
  STEP_SECONDS_NAN,        /* step_seconds: NaN */
  STEP_SECONDS_ZERO,       /* step_seconds: 0 */
  OUTSIDE_ALL,             /* outside: every component */
  OUTSIDE_HIDDEN,          /* outside: an edge out of a hidden variable */
  N_WAYS
} Way;

static const char *const way_names[N_WAYS] = {
    "none",
    "pairs-over-max",
    "pairs-1000",
    "pairs-negative",
    "pairs-nan-z",
    "pairs-inf-w",
    "pairs-component",
    "pairs-component-negative",
    "observe-negative",
    "observe-over-max",
    "probe-nan",
    "act-inf",
    "step-payoff-nan",
    "probe-value-at-out",
    "work-negative",
    "work-nan",
    "operations-negative",
    "operation-nan",
    "instance-null",
    "probe-value-out",
    "change-points-negative",
    "change-points-over-max",
    "change-point-decreasing",
    "metrics-negative",
    "metrics-over-max",
    "truth-n",
    "truth-kappa-nan",
    "gap-nan",
    "gap-negative",
    "expected-payoff-inf",
    "init-null",
    "noise-var-nan",
    "steps-huge",
    "step-seconds-nan",
    "step-seconds-zero",
    "outside-all",
    "outside-hidden",
};

static Way way;

#define FROM 2 /* the first episode the way's answer is bad in */
#define EPISODES 6
#define STEPS 10
enum { C_X, C_Y, X_Y, N_COMPONENTS };
static const char *const var_names[] = {"C", "X", "Y"};
static const TrvComponent components[N_COMPONENTS] = {
    {"C->X", 0, 1, true},
    {"C->Y", 0, 2, true},
    {"X->Y", 1, 2, true},
};
static const TrvCandidates candidates = {3, var_names, N_COMPONENTS, components};
/* the same with C hidden, for outside-hidden */
static const TrvComponent components_hidden_c[N_COMPONENTS] = {
    {"C->X", 0, 1, false},
    {"C->Y", 0, 2, false},
    {"X->Y", 1, 2, true},
};
static const TrvCandidates candidates_hidden_c = {3, var_names, N_COMPONENTS, components_hidden_c};

/* ---- the world: X -> Y with effect 1, nothing else ---- */
typedef struct {
  int episode;
} World;
typedef struct {
  World *w;
  int episode;
  unsigned state; /* the agent's own noise (a small LCG) */
} Agent;

/* Whether the world answers in way w in this episode. */
static bool bad(Way w, int episode) { return way == w && episode >= FROM; }

static void *hw_init(const TrvParams *params, uint64_t seed, GError **error) {
  (void)params, (void)seed, (void)error;
  if (way == INIT_NULL) return NULL;
  return g_new0(World, 1);
}
static const TrvCandidates *hw_candidates(void *w) {
  return (void)w, way == OUTSIDE_HIDDEN ? &candidates_hidden_c : &candidates;
}
/* outside-all: every component; outside-hidden: C->X, out of hidden C */
static bool hw_outside(void *w, int j) { return (void)w, way == OUTSIDE_ALL || j == C_X; }
static double hw_noise_var(void *w) { return (void)w, way == NOISE_VAR_NAN ? NAN : 1.0; }
static int hw_episodes(void *w) { return (void)w, EPISODES; }
static int hw_steps(void *w) { return (void)w, way == STEPS_HUGE ? 2147483647 : STEPS; }
static double hw_step_seconds(void *w) { return (void)w, way == STEP_SECONDS_NAN ? NAN : 0.0; }
static void hw_episode_begin(void *w, int e) { ((World *)w)->episode = e; }
static double hw_probe_value(void *w, int a) {
  (void)a;
  return bad(PROBE_VALUE_OUT, ((World *)w)->episode) ? 1.5 : 1.0;
}

/* An observation (x, y, episode): one pair (X->Y, x, y), or the way's bad
 * answer.  Claiming more pairs than max, it fills all max of them, each
 * good: only the count is wrong. */
static int hw_pairs(const double *ctx, int n, int *component, double *z, double *w, int max) {
  if (n < 3 || max < 1) return 0;
  int e = (int)ctx[2];
  int claimed = bad(PAIRS_OVER_MAX, e) ? max + 1 : bad(PAIRS_1000, e) ? 1000 : bad(PAIRS_NEGATIVE, e) ? -1 : 1;
  for (int i = 0; i < (claimed < max ? claimed : max); i++) {
    component[i] = X_Y;
    z[i] = ctx[0];
    w[i] = ctx[1];
  }
  if (bad(PAIRS_COMPONENT, e)) component[0] = N_COMPONENTS;
  if (bad(PAIRS_COMPONENT_NEG, e)) component[0] = -1;
  if (bad(PAIRS_NAN_Z, e)) z[0] = NAN;
  if (bad(PAIRS_INF_W, e)) w[0] = INFINITY;
  return claimed;
}

static double noise(Agent *a) {
  a->state = a->state * 1103515245u + 12345u;
  return ((a->state >> 8) & 0xffff) / 65536.0 - 0.5;
}

static void *hw_instance(void *w, int agent) {
  if (way == INSTANCE_NULL) return NULL;
  Agent *a = g_new0(Agent, 1);
  a->w = w;
  a->state = 17u + (unsigned)agent;
  return a;
}
static void hw_agent_begin(void *agent, int e) { ((Agent *)agent)->episode = e; }
static int hw_observe(void *agent, int t, double *ctx, int max) {
  Agent *a = agent;
  (void)t;
  if (bad(OBSERVE_NEGATIVE, a->episode)) return -1;
  if (bad(OBSERVE_OVER_MAX, a->episode)) return max + 1;
  if (max < 3) return 0;
  ctx[0] = noise(a);
  ctx[1] = ctx[0] + 0.1 * noise(a);
  ctx[2] = a->episode;
  return 3;
}
static double hw_probe(void *agent, int j, double z) {
  if (bad(PROBE_NAN, ((Agent *)agent)->episode)) return NAN;
  return (j == X_Y ? z : 0.0) + 0.1 * noise(agent);
}
static int hw_plan(void *agent, const TrvGraph *ghat) { return (void)agent, ghat->present[X_Y]; }
static double hw_act(void *agent, int action) {
  return bad(ACT_INF, ((Agent *)agent)->episode) ? -INFINITY : (double)action;
}
static void hw_step_end(void *w, int t) { (void)w, (void)t; }
static double hw_step_payoff(void *agent) { return bad(STEP_PAYOFF_NAN, ((Agent *)agent)->episode) ? NAN : 1.0; }
static double hw_work(void *agent) {
  int e = ((Agent *)agent)->episode;
  return bad(WORK_NEGATIVE, e) ? -1.0 : bad(WORK_NAN, e) ? NAN : 1e6;
}
static int hw_operations(void *agent, const TrvOperation **ops) {
  static const TrvOperation lasting_nan = {0, 0.0, NAN};
  int e = ((Agent *)agent)->episode;
  *ops = &lasting_nan;
  return bad(OPERATIONS_NEGATIVE, e) ? -1 : bad(OPERATION_NAN, e) ? 1 : 0;
}
static double hw_probe_value_at(void *agent, int t) {
  return bad(PROBE_VALUE_AT_OUT, ((Agent *)agent)->episode) ? -0.5 : 1.0 - 0.05 * t;
}

/* ---- the referee ---- */
static void hw_truth(void *w, TrvGraph *g) {
  int e = ((World *)w)->episode;
  g->present[X_Y] = true;
  g->kappa[X_Y] = bad(TRUTH_KAPPA_NAN, e) ? NAN : 1.0;
  if (bad(TRUTH_N, e)) g->n = TRV_MAX_COMPONENTS;
}
static double hw_gap(void *w) {
  int e = ((World *)w)->episode;
  return bad(GAP_NAN, e) ? NAN : bad(GAP_NEGATIVE, e) ? -1.0 : 0.5;
}
static int hw_oracle(void *w) { return (void)w, 1; }
static double hw_expected(void *w, int a) {
  return bad(EXPECTED_PAYOFF_INF, ((World *)w)->episode) ? INFINITY : (double)a;
}
static int hw_change_points(void *w, int *out, int max) {
  (void)w;
  if (way == CHANGE_POINTS_NEGATIVE) return -1;
  if (way == CHANGE_POINTS_OVER_MAX) return max + 1;
  if (max < 2) return 0;
  out[0] = way == CHANGE_POINT_DECREASING ? 4 : 2;
  out[1] = way == CHANGE_POINT_DECREASING ? 2 : 4;
  return 2;
}
static const char *const metric_names[] = {"episode", NULL};
static int hw_metrics(void *w, double *values, int max) {
  int e = ((World *)w)->episode;
  if (bad(METRICS_NEGATIVE, e)) return -1;
  if (bad(METRICS_OVER_MAX, e)) return max + 1;
  if (max < 1) return 0;
  values[0] = ((World *)w)->episode;
  return 1;
}

static TrvAgentClass agent_class = {
    .instance = hw_instance,
    .free = g_free,
    .episode_begin = hw_agent_begin,
    .observe = hw_observe,
    .probe = hw_probe,
    .plan = hw_plan,
    .act = hw_act,
    .work = hw_work,
    .operations = hw_operations,
    .probe_value_at = hw_probe_value_at,
};
static const TrvRefereeClass referee_class = {
    .truth = hw_truth,
    .gap = hw_gap,
    .change_points = hw_change_points,
    .oracle = hw_oracle,
    .expected_payoff = hw_expected,
    .episode_metrics = hw_metrics,
    .metric_names = metric_names,
};
static TrvWorldClass world_class = {
    .name = "hostile",
    .init = hw_init,
    .free = g_free,
    .candidates = hw_candidates,
    .likelihood = TRV_LIKELIHOOD_GAUSSIAN,
    .noise_var = hw_noise_var,
    .episodes = hw_episodes,
    .steps = hw_steps,
    .safe_action = 0,
    .episode_begin = hw_episode_begin,
    .observational_pairs = hw_pairs,
    .agent = &agent_class,
    .referee = &referee_class,
    .probe_value = hw_probe_value,
};

/* The program's own agent: the same observations, probes and payoffs,
 * recorded through trivium/agent.h. */
static void own_agent(int argc, char **argv) {
  (void)argc, (void)argv;
  Agent a = {.state = 99};
  TrvEpisode *ep;
  while ((ep = trivium_agent_next_episode()) != NULL) {
    a.episode = trivium_episode_index(ep);
    for (int t = 0; t < trivium_episode_steps(ep); t++) {
      double ctx[TRV_RECORD_CONTEXT_MAX];
      int n = hw_observe(&a, t, ctx, TRV_RECORD_CONTEXT_MAX), j;
      double z;
      if (trivium_episode_probe(ep, t, &j, &z)) trivium_episode_record_probe(ep, t, hw_probe(&a, j, z));
      int action = trivium_episode_gate(ep, t) ? 0 : 1;
      trivium_episode_record_step(ep, t, action, hw_act(&a, action), ctx, n);
    }
    trivium_episode_close(ep, NULL);
  }
}

int main(int argc, char **argv) {
  simgrid_init(&argc, argv);
  bool own = argc == 4 && !strcmp(argv[3], "own");
  way = N_WAYS;
  for (int k = 0; (argc == 3 || own) && k < N_WAYS; k++)
    if (!strcmp(argv[2], way_names[k])) way = (Way)k;
  if (way == N_WAYS) {
    fprintf(stderr, "usage: %s PLATFORM WAY [own] [--cfg=trivium/KEY:VALUE ...]; WAY is one of:", argv[0]);
    for (int k = 0; k < N_WAYS; k++) fprintf(stderr, " %s", way_names[k]);
    fprintf(stderr, "\n");
    return 2;
  }
  if (own) world_class.agent = NULL; /* the program's actor is the agent */
  if (way == STEP_SECONDS_NAN || way == STEP_SECONDS_ZERO) world_class.step_seconds = hw_step_seconds;
  if (way == OUTSIDE_ALL || way == OUTSIDE_HIDDEN) world_class.outside = hw_outside;
  if (way == STEP_PAYOFF_NAN) { /* the agents share one city */
    agent_class.step_end = hw_step_end;
    agent_class.step_payoff = hw_step_payoff;
  }
  trivium_plugin_init();
  GError *err = NULL;
  if (!trivium_world_register(&world_class, &err) || !trivium_plugin_set("world", "hostile", &err)) {
    fprintf(stderr, "hostile-world: %s\n", err->message);
    return 2;
  }
  simgrid_load_platform(argv[1]);
  if (own) trivium_agent_attach(sg_actor_create("own-agent", sg_host_by_name("agent-0"), own_agent, 0, NULL));
  simgrid_run();
  bool ok = trivium_plugin_finished(&err);
  printf("%zu episodes\n", trivium_results_n_episodes());
  if (!ok) {
    fprintf(stderr, "hostile-world: %s\n", err->message);
    return err->code == TRV_ERROR_INPUT ? 2 : 1;
  }
  return 0;
}
