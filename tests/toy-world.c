/* toy-world.c - the smallest world with parameters of its own, written
 * against the public headers alone: what docs/hacking.md walks through.
 *
 * One candidate component, Z -> Y, never present; every step pays
 * world.toy_payoff, and an episode lasts world.toy_steps steps, so an
 * episode's reward in episodes.csv is their product: the two parameters
 * are read in init(), from the world's own block (trivium_params_block),
 * and what a run set shows in its results (tests/toys.sh).  A probe reads
 * 0: there is nothing to find. */
#include <stddef.h>
#include <trivium/world.h>

typedef struct {
  double payoff; /* world.toy_payoff */
  int steps;     /* world.toy_steps */
} ToyParams;

static const TrvParamSpec toy_specs[] = {
    {.key = "world.toy_payoff",
     .type = TRV_PARAM_DOUBLE,
     .offset = offsetof(ToyParams, payoff),
     .def = 1.0,
     .min = -100,
     .max = 100,
     .doc = "toy world: the payoff of every step"},
    {.key = "world.toy_steps",
     .type = TRV_PARAM_INT,
     .offset = offsetof(ToyParams, steps),
     .def = 4,
     .min = 1,
     .max = 50,
     .doc = "toy world: steps per episode"},
};
static const TrvParamBlock toy_params = {toy_specs, G_N_ELEMENTS(toy_specs), sizeof(ToyParams)};

typedef struct {
  ToyParams p;
  int episodes;
} Toy;

static const char *const var_names[] = {"Z", "Y"};
static const TrvComponent components[] = {{"Z->Y", 0, 1, true}};
static const TrvCandidates candidates = {2, var_names, 1, components};

static void *toy_init(const TrvParams *params, uint64_t seed, GError **error) {
  (void)seed;
  double episodes;
  if (!trivium_params_get(params, "run.episodes", &episodes, error)) return NULL;
  Toy *w = g_new0(Toy, 1);
  w->p = *(const ToyParams *)trivium_params_block(params, &toy_params);
  w->episodes = (int)episodes;
  return w;
}

static const TrvCandidates *toy_candidates(void *world) {
  (void)world;
  return &candidates;
}
static double toy_noise_var(void *world) {
  (void)world;
  return 1.0;
}
static int toy_episodes(void *world) { return ((Toy *)world)->episodes; }
static int toy_steps(void *world) { return ((Toy *)world)->p.steps; }
static void toy_episode_begin(void *world, int episode) { (void)world, (void)episode; }

/* The agents share the world: it never changes. */
static void *toy_agent_instance(void *world, int agent) {
  (void)agent;
  return g_memdup2(world, sizeof(Toy));
}
static int toy_observe(void *agent, int step, double *context, int max) {
  (void)agent, (void)step, (void)context, (void)max;
  return 0;
}
static double toy_probe(void *agent, int component, double z) {
  (void)agent, (void)component, (void)z;
  return 0.0;
}
static int toy_plan(void *agent, const TrvGraph *ghat) {
  (void)agent, (void)ghat;
  return 0;
}
static double toy_act(void *agent, int action) {
  (void)action;
  return ((Toy *)agent)->p.payoff;
}
static void toy_truth(void *world, TrvGraph *g) {
  (void)world;
  g->present[0] = false;
  g->kappa[0] = 0.0;
}

static const TrvAgentClass toy_agent = {
    .instance = toy_agent_instance,
    .free = g_free,
    .episode_begin = toy_episode_begin,
    .observe = toy_observe,
    .probe = toy_probe,
    .plan = toy_plan,
    .act = toy_act,
};
static const TrvRefereeClass toy_referee = {.truth = toy_truth};

const TrvWorldClass trv_toy_world = {
    .name = "toy",
    .init = toy_init,
    .free = g_free,
    .candidates = toy_candidates,
    .likelihood = TRV_LIKELIHOOD_GAUSSIAN,
    .noise_var = toy_noise_var,
    .episodes = toy_episodes,
    .steps = toy_steps,
    .safe_action = 0,
    .episode_begin = toy_episode_begin,
    .agent = &toy_agent,
    .referee = &toy_referee,
    .params = &toy_params,
};
