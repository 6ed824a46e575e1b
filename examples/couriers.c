/* couriers.c - a world of its own under Trivium, written only against the
 * installed headers (trivium/trivium.h).
 *
 * A parcel firm runs three courier vans.  Every minute a courier picks a
 * route: the ring road (1) or the back streets (0, the safe default).  The
 * firm suspects four causes of delivery delay D:
 *   rain R -> traffic T,  rain R -> delay D,  traffic T -> delay D,
 *   van load L -> delay D;
 * rain is not measured (a hidden confounder), T, L and D are.  Rain makes
 * both traffic and delay worse, so traffic and delay move together even
 * when traffic does not delay anything: the ring road looks bad in the
 * observational data for the wrong reason.  In truth, traffic delays
 * deliveries only while roadworks narrow the ring road, from the middle of
 * the run on (a change-point): before it the ring road saves time
 * (payoff 0.5 a minute), after it costs (-0.5).
 *
 * Trivium learns the graph with probes the couriers run for it: do(R = z)
 * is a rain test (spray the sensors, read traffic or delay with traffic
 * held), do(T = z) a closed lane (read delay with rain held at 0), do(L = z)
 * an extra parcel.  The couriers are the program's own actors: each asks
 * for its plan, runs the probes assigned to it, picks its routes with its
 * own rule on the committed graph (ring road unless G_hat says traffic
 * delays deliveries), and closes the episode, which commits its records to
 * the firm's ledger over the vans' cellular links.  Only the referee knows
 * the truth.
 *
 *   couriers PLATFORM DEPLOYMENT [--cfg=trivium/KEY:VALUE ...]
 * prints one line per metric of the run (trivium/results.h) and, with
 * --cfg=trivium/ctl.file:F, keeps the ledger's log. */
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trivium/trivium.h>

enum { VAR_R, VAR_T, VAR_L, VAR_D };
enum { RAIN_TRAFFIC, RAIN_DELAY, TRAFFIC_DELAY, LOAD_DELAY, N_CAUSES };
#define COURIERS_MAX 16
#define STEPS 40

static const char *const var_names[] = {"rain", "traffic", "load", "delay"};
static const TrvComponent causes[N_CAUSES] = {
    {"rain->traffic", VAR_R, VAR_T, false},
    {"rain->delay", VAR_R, VAR_D, false},
    {"traffic->delay", VAR_T, VAR_D, true},
    {"load->delay", VAR_L, VAR_D, true},
};
static const TrvCandidates candidates = {4, var_names, N_CAUSES, causes};
static const double effect[N_CAUSES] = {1.0, 1.0, 1.0, 0.8}; /* traffic->delay only during roadworks */

/* A small generator of the program's own (xorshift64* and Box-Muller): the
 * world's randomness is its own business. */
typedef struct {
  uint64_t s;
} Rand;
static double uniform(Rand *r) {
  r->s ^= r->s >> 12, r->s ^= r->s << 25, r->s ^= r->s >> 27;
  return ((r->s * 2685821657736338717ULL) >> 11) * 0x1.0p-53;
}
static double normal(Rand *r) {
  double u = uniform(r), v = uniform(r);
  return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

typedef struct {
  int episodes, episode;
  double k_td; /* the current effect of traffic on delay */
  Rand noise[COURIERS_MAX];
} Town;

static void *town_init(const TrvParams *params, uint64_t seed, GError **error) {
  double episodes;
  if (!trivium_params_get(params, "run.episodes", &episodes, error)) return NULL;
  Town *t = g_new0(Town, 1);
  t->episodes = (int)episodes;
  for (int c = 0; c < COURIERS_MAX; c++) t->noise[c].s = (seed + 1) * 0x9E3779B97F4A7C15ULL + (uint64_t)c * 7919 + 1;
  return t;
}
static void town_free(void *w) { g_free(w); }
static const TrvCandidates *town_candidates(void *w) {
  (void)w;
  return &candidates;
}
static double town_noise(void *w) {
  (void)w;
  return 1.0;
}
static int town_episodes(void *w) { return ((Town *)w)->episodes; }
static int town_steps(void *w) {
  (void)w;
  return STEPS;
}
static void town_episode_begin(void *w, int e) {
  Town *t = w;
  t->episode = e;
  t->k_td = e >= t->episodes / 2 ? effect[TRAFFIC_DELAY] : 0.0; /* the roadworks start */
}
/* An observation is (traffic, load, delay): delay on traffic and on load. */
static int town_pairs(const double *ctx, int n, int *j, double *z, double *w, int max) {
  if (n < 3 || max < 2) return 0; /* the arrays hold max pairs */
  j[0] = TRAFFIC_DELAY, z[0] = ctx[0], w[0] = ctx[2];
  j[1] = LOAD_DELAY, z[1] = ctx[1], w[1] = ctx[2];
  return 2;
}

/* ---- the referee: the truth and the oracle ---- */
static void town_truth(void *w, TrvGraph *g) {
  const Town *t = w;
  for (int j = 0; j < N_CAUSES; j++) g->kappa[j] = j == TRAFFIC_DELAY ? t->k_td : effect[j];
  for (int j = 0; j < N_CAUSES; j++) g->present[j] = g->kappa[j] != 0;
}
static double ring_payoff(const Town *t) { return 0.5 - t->k_td; }
static int town_oracle(void *w) { return ring_payoff(w) > 0; }
static double town_expected(void *w, int route) { return route ? ring_payoff(w) : 0.0; }
static double town_gap(void *w) { return fabs(ring_payoff(w)); }
static bool town_relevant(void *w, int j) {
  (void)w;
  return j == TRAFFIC_DELAY;
}
static int town_change_points(void *w, int *out, int max) {
  if (max < 1) return 0;
  out[0] = ((Town *)w)->episodes / 2;
  return 1;
}

static const TrvRefereeClass town_referee = {
    .truth = town_truth,
    .gap = town_gap,
    .task_relevant = town_relevant,
    .change_points = town_change_points,
    .oracle = town_oracle,
    .expected_payoff = town_expected,
};
static const TrvWorldClass town_class = {
    .name = "couriers",
    .init = town_init,
    .free = town_free,
    .candidates = town_candidates,
    .likelihood = TRV_LIKELIHOOD_GAUSSIAN,
    .noise_var = town_noise,
    .episodes = town_episodes,
    .steps = town_steps,
    .safe_action = 0,
    .episode_begin = town_episode_begin,
    .observational_pairs = town_pairs,
    .agent = NULL, /* the couriers are this program's own actors */
    .referee = &town_referee,
};

/* ---- a courier: the program's own actor and dispatch logic ---- */

/* The probe do(Z_j = z) in the town, courier c's noise: the measured
 * effect plus noise, the other parents of the target held at 0. */
static double intervene(const Town *town, Rand *r, int j, double z) {
  double k = j == TRAFFIC_DELAY ? town->k_td : effect[j];
  return k * z + normal(r);
}

static void courier(int argc, char **argv) {
  (void)argc;
  (void)argv;
  TrvEpisode *ep;
  while ((ep = trivium_agent_next_episode()) != NULL) {
    Town *town = trivium_episode_world(ep); /* the town of this run: the couriers act in it */
    Rand *r = &town->noise[trivium_episode_agent(ep) % COURIERS_MAX];
    const TrvGraph *g = trivium_episode_graph(ep);
    /* the courier's rule: the ring road unless traffic is believed to delay */
    int planned = !(g->present[TRAFFIC_DELAY] && g->kappa[TRAFFIC_DELAY] > 0.5);
    for (int t = 0; t < trivium_episode_steps(ep); t++) {
      double rain = normal(r), traffic = rain + normal(r), load = normal(r);
      double delay = effect[RAIN_DELAY] * rain + town->k_td * traffic + effect[LOAD_DELAY] * load + normal(r);
      double seen[3] = {traffic, load, delay};
      int j;
      double z;
      if (trivium_episode_probe(ep, t, &j, &z)) trivium_episode_record_probe(ep, t, intervene(town, r, j, z));
      int route = trivium_episode_gate(ep, t) ? 0 : planned;
      double payoff = (route ? ring_payoff(town) : 0.0) + 0.3 * normal(r);
      sg_actor_sleep_for(1.0); /* a minute of driving */
      trivium_episode_record_step(ep, t, route, payoff, seen, 3);
    }
    trivium_episode_close(ep, NULL);
  }
}

int main(int argc, char **argv) {
  /* the program's defaults, before SimGrid parses --cfg=trivium/... */
  GError *err = NULL;
  if (!trivium_plugin_set("world", "couriers", &err) || !trivium_plugin_set("run.episodes", "200", &err)) {
    fprintf(stderr, "couriers: %s\n", err->message);
    return 2;
  }
  simgrid_init(&argc, argv);
  if (argc != 3) {
    fprintf(stderr, "usage: %s PLATFORM DEPLOYMENT [--cfg=trivium/KEY:VALUE ...]\n", argv[0]);
    return 2;
  }
  trivium_plugin_init();
  if (!trivium_world_register(&town_class, &err)) {
    fprintf(stderr, "couriers: %s\n", err->message);
    return 2;
  }
  simgrid_load_platform(argv[1]);
  simgrid_register_function("courier", courier);
  simgrid_load_deployment(argv[2]);
  simgrid_run();
  if (!trivium_plugin_finished(&err)) {
    fprintf(stderr, "couriers: %s\n", err->message);
    return err->code == TRV_ERROR_INPUT ? 2 : 1;
  }
  const TrvCellSummary *sum = trivium_results_summary();
  printf("couriers: %d episodes, simulated time %.0f s\n", sum->episodes, simgrid_get_clock());
  for (int m = 0; m < TRV_METRIC_COUNT; m++) printf("%s %.6g\n", trivium_metric_name(m), sum->metric[m]);
  if (g_getenv("COURIERS_CSV")) trivium_results_write_csv(stdout, true, NULL);
  return 0;
}
