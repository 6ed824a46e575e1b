/* warehouse.c - the Warehouse world and its parameters (world.*,
 * warehouse.h): robots delivering orders on
 * a 10 m x 10 m floor of 30 shelves (warehouse.h, floor.c), the world where
 * the grounding bound W1(P_Y, P(Y|do)) <= L (eps + eta) + L rho_c p_f is
 * measured (docs/warehouse.md).
 *
 * Candidates: G_inf = the five edges "Z_j -> pick_time", Z_j in congestion
 * (of the order's aisle, this episode), friction (the shelf is in a
 * friction zone), shelf_height, battery (of the robot), charger (the
 * shelf's distance to the charger).  Congestion and friction are hidden
 * (robots do not report them: outcome-only learners never see them);
 * world.causes says which are causes, each of world.delay seconds per unit.
 * The agents are the robots (agents.count of them) and share the floor:
 * agent_instance() is a handle on robot a (the world itself plays robot
 * 0); plan() keeps the committed graph's effects as the robot's dispatch
 * weights and returns 1 (take the order with the smallest predicted cycle
 * time); the safe action 0 takes the oldest order; act() records the
 * robot's action; step_end() moves every fleet one second; step_payoff()
 * is the robot's deliveries in that second of the deployed fleet.
 *
 * Fleets, all on the same random streams (floor.c):
 *   deployed  eps = world.eps, eta = world.eta, the robots' actions;
 *   ideal     eps = eta = 0, the same actions: the ideal replay;
 *   fd_eps    eps = world.fd_step, eta = 0, the same actions;
 *   fd_eta    eps = 0, eta = world.fd_step, the same actions;
 *   oracle    eps, eta of the deployed fleet, every robot planning with the
 *             true effects: R_out = oracle - delivered.
 * Commit failures are not the world's: a robot whose records the log lost
 * has its deliveries of the episode missing from the episode's
 * committed_reward (the committed outcome), while `delivered` and `reward`
 * count what the floor did.
 *
 * Probe of component j by a robot (a timed test pick at a bay, the other
 * causes clamped at their means): w = kappa_j z + the excess of the dock
 * manoeuvre under the robot's eps and eta + N(0, WH_PROBE_SD^2) seconds;
 * noise_var() declares WH_PROBE_SD^2, the noise-free robot's.
 *
 * Observation of a robot (7 doubles): its seen pose x, y; then, for its
 * last completed pick (has_pick = 1) or zeros: has_pick, shelf_height,
 * battery, charger and the pick's seconds over the base;
 * observational_pairs() gives (j, Z_j, excess) for the three observed
 * causes. */
#include <math.h>
#include <string.h>

#include "core/params.h"
#include "core/rng.h"
#include "core/world.h"
#include "warehouse/warehouse.h"

#define D(k, f, d, lo, hi, doc) TRV_ROW_DOUBLE(TrvWarehouseParams, k, f, d, lo, hi, doc)
static const TrvParamSpec specs[] = {
    D("world.eps", eps, 0, 0, 0.15,
      "Warehouse: actuator noise, sd of a robot's velocity error (m/s, per axis, redrawn every step)"),
    D("world.eta", eta, 0, 0, 0.1,
      "Warehouse: pose observation noise, sd of a robot's observed position (m, per axis)"),
    D("world.delay", delay, 1.5, 0, 10, "Warehouse: seconds a pick takes per unit of an informative cause"),
    TRV_ROW_INT(TrvWarehouseParams, "world.causes", causes, 7, 0, 31,
                "Warehouse: bitmask of the informative causes of pick time among congestion (1), friction (2), "
                "shelf_height (4), battery (8), charger (16)"),
    D("world.fd_step", fd_step, 0.05, 1e-3, 0.15,
      "Warehouse: noise step delta of the replays that estimate L by finite differences (eps = delta, then eta = "
      "delta)"),
    TRV_ROW_INT(TrvWarehouseParams, "world.calibration_seeds", calibration_seeds, 1, 1, 1000000,
                "Warehouse: the run's first seeds on which a sweep's grounding table estimates L and the loss per "
                "failed commit; the bound is checked held out on the others"),
    D("world.calibration_p_f", calibration_p_f, 0.1, 0, 1,
      "Warehouse: a sweep's grounding table estimates L and the loss per failed commit at the points whose p_f is "
      "at most this; the bound is checked held out at the others"),
};
const TrvParamBlock trv_warehouse_params = TRV_BLOCK(TrvWarehouseParams, specs);

#define MAGIC_WORLD 0x57484657u /* "WHFW" */
#define MAGIC_ROBOT 0x57485242u /* "WHRB" */

enum { FLEET_DEPLOYED, FLEET_IDEAL, FLEET_FD_EPS, FLEET_FD_ETA, FLEET_ORACLE, N_FLEETS };

static const char *const var_names[] = {"congestion", "friction", "shelf_height", "battery", "charger", "pick_time"};
static const TrvComponent components[WH_CAUSES] = {
    {"congestion->pick_time", WH_CONGESTION, WH_CAUSES, false}, {"friction->pick_time", WH_FRICTION, WH_CAUSES, false},
    {"shelf_height->pick_time", WH_HEIGHT, WH_CAUSES, true},    {"battery->pick_time", WH_BATTERY, WH_CAUSES, true},
    {"charger->pick_time", WH_CHARGER, WH_CAUSES, true},
};
static const TrvCandidates candidates = {WH_CAUSES + 1, var_names, WH_CAUSES, components};
static const char *const metric_names[] = {"delivered", "ideal",  "fd_eps",  "fd_eta",
                                           "oracle",    "misses", "cycle_s", NULL};

typedef struct Warehouse Warehouse;
typedef struct {
  uint32_t magic;
  Warehouse *w;
  int robot;
  TrvRng probe_rng;
} Robot;

struct Warehouse {
  uint32_t magic;
  TrvWarehouseParams p;
  uint64_t seed;
  int n_robots, episodes, steps;
  int episode, t;
  bool started;
  WhFloor floor;
  WhFleet fleet[N_FLEETS];
  int action[WH_MAX_ROBOTS];
  double weight[WH_MAX_ROBOTS * WH_CAUSES]; /* each robot's dispatch weights (committed graph) */
  int oracle_action[WH_MAX_ROBOTS];
  double oracle_weight[WH_MAX_ROBOTS * WH_CAUSES]; /* the true effects */
  Robot self;
};

static Warehouse *world_of(void *p) { return *(uint32_t *)p == MAGIC_WORLD ? p : ((Robot *)p)->w; }

static Robot *robot_of(void *p) {
  if (*(uint32_t *)p == MAGIC_WORLD) return &((Warehouse *)p)->self;
  g_assert(*(uint32_t *)p == MAGIC_ROBOT);
  return p;
}

static void robot_init(Robot *r, Warehouse *w, int index) {
  r->magic = MAGIC_ROBOT;
  r->w = w;
  r->robot = index;
  trv_rng_init(&r->probe_rng, w->seed, TRV_STREAM_PROBE_NOISE + 100 * (uint64_t)index);
}

static void *wh_init(const TrvParams *params, uint64_t seed, GError **error) {
  int agents = trv_params_int(params, "agents.count");
  if (agents > WH_MAX_ROBOTS) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "the warehouse world runs 1 to %d robots; agents.count = %d",
                WH_MAX_ROBOTS, agents);
    return NULL;
  }
  Warehouse *w = g_new0(Warehouse, 1);
  w->magic = MAGIC_WORLD;
  w->p = *(const TrvWarehouseParams *)trv_params_block(params, &trv_warehouse_params);
  w->seed = seed;
  w->n_robots = agents;
  w->episodes = params->episodes;
  w->steps = params->steps;
  w->episode = -1;
  wh_floor_init(&w->floor, seed, w->p.delay, w->p.causes);
  for (int r = 0; r < w->n_robots; r++) {
    w->oracle_action[r] = 1;
    memcpy(&w->oracle_weight[r * WH_CAUSES], w->floor.kappa, sizeof w->floor.kappa);
  }
  robot_init(&w->self, w, 0);
  return w;
}

static void *wh_agent_instance(void *world, int agent) {
  Warehouse *w = world_of(world);
  g_assert(agent >= 0 && agent < w->n_robots); /* agents.count robots were built */
  Robot *r = g_new0(Robot, 1);
  robot_init(r, w, agent);
  return r;
}

/* A robot's handle and the world are single allocations. */
static void wh_free(void *p) { g_free(p); }

static const TrvCandidates *wh_candidates(void *world) {
  (void)world;
  return &candidates;
}

static double wh_noise_var(void *world) {
  (void)world;
  return WH_PROBE_SD * WH_PROBE_SD;
}

static int wh_episodes(void *world) { return world_of(world)->episodes; }
static int wh_steps(void *world) { return world_of(world)->steps; }

static void wh_episode_begin(void *world, int e) {
  Warehouse *w = world_of(world);
  if (w->started && w->episode == e) return; /* already set up by another caller */
  w->episode = e;
  w->started = true;
  w->t = 0;
  wh_floor_episode(&w->floor, w->seed, e);
  const double eps = w->p.eps, eta = w->p.eta, d = w->p.fd_step;
  const double noise[N_FLEETS][2] = {{eps, eta}, {0, 0}, {d, 0}, {0, d}, {eps, eta}};
  for (int f = 0; f < N_FLEETS; f++)
    wh_fleet_reset(&w->fleet[f], &w->floor, w->n_robots, noise[f][0], noise[f][1], w->seed, e);
  for (int r = 0; r < w->n_robots; r++) w->action[r] = 0;
}

static int wh_observe(void *world, int t, double *ctx, int max) {
  Robot *h = robot_of(world);
  Warehouse *w = h->w;
  (void)t;
  g_assert(w->started);
  if (max < 7) return 0; /* no room for the robot's reading */
  const WhRobot *b = &w->fleet[FLEET_DEPLOYED].robots[h->robot];
  ctx[0] = b->seen.x;
  ctx[1] = b->seen.y;
  ctx[2] = b->has_pick;
  ctx[3] = b->has_pick ? b->last_z[WH_HEIGHT] : 0;
  ctx[4] = b->has_pick ? b->last_z[WH_BATTERY] : 0;
  ctx[5] = b->has_pick ? b->last_z[WH_CHARGER] : 0;
  ctx[6] = b->has_pick ? b->last_excess : 0;
  return 7;
}

static int wh_observational_pairs(const double *ctx, int n, int *j, double *z, double *wv, int max) {
  if (n < 7 || ctx[2] != 1.0 || max < 3) return 0;
  for (int i = 0; i < 3; i++) {
    j[i] = WH_HEIGHT + i;
    z[i] = ctx[3 + i];
    wv[i] = ctx[6];
  }
  return 3;
}

static double wh_probe(void *world, int j, double z) {
  Robot *h = robot_of(world);
  Warehouse *w = h->w;
  g_assert(j >= 0 && j < WH_CAUSES);
  double dock = wh_dock_excess(w->p.eps, w->p.eta, &h->probe_rng);
  return w->floor.kappa[j] * z + dock + WH_PROBE_SD * trv_rng_normal(&h->probe_rng);
}

static int wh_plan(void *world, const TrvGraph *ghat) {
  Robot *h = robot_of(world);
  double *wt = &h->w->weight[h->robot * WH_CAUSES];
  for (int j = 0; j < WH_CAUSES; j++) wt[j] = j < ghat->n && ghat->present[j] ? ghat->kappa[j] : 0.0;
  return 1;
}

static double wh_act(void *world, int a) {
  Robot *h = robot_of(world);
  h->w->action[h->robot] = a;
  return 0;
}

static void wh_step_end(void *world, int t) {
  Warehouse *w = world_of(world);
  g_assert(w->started && t == w->t); /* exactly once per step, in order */
  w->t = t + 1;
  for (int f = 0; f < FLEET_ORACLE; f++) wh_fleet_step(&w->fleet[f], &w->floor, w->action, w->weight);
  wh_fleet_step(&w->fleet[FLEET_ORACLE], &w->floor, w->oracle_action, w->oracle_weight);
}

static double wh_step_payoff(void *world) {
  Robot *h = robot_of(world);
  return h->w->fleet[FLEET_DEPLOYED].robots[h->robot].delivered_step;
}

static void wh_truth(void *world, TrvGraph *g) {
  Warehouse *w = world_of(world);
  trv_graph_clear(g, WH_CAUSES);
  for (int j = 0; j < WH_CAUSES; j++) {
    g->kappa[j] = w->floor.kappa[j];
    g->present[j] = w->floor.kappa[j] != 0;
  }
}

static double wh_episode_outcome_regret(void *world) {
  Warehouse *w = world_of(world);
  return (double)(w->fleet[FLEET_ORACLE].deliveries - w->fleet[FLEET_DEPLOYED].deliveries);
}

static int wh_episode_metrics(void *world, double *values, int max) {
  Warehouse *w = world_of(world);
  const WhFleet *d = &w->fleet[FLEET_DEPLOYED];
  double v[7] = {d->deliveries,
                 w->fleet[FLEET_IDEAL].deliveries,
                 w->fleet[FLEET_FD_EPS].deliveries,
                 w->fleet[FLEET_FD_ETA].deliveries,
                 w->fleet[FLEET_ORACLE].deliveries,
                 d->misses,
                 d->cycles ? d->cycle_sum / d->cycles : 0};
  int n = max < 7 ? max : 7;
  memcpy(values, v, sizeof(double) * n);
  return n;
}

static const TrvAgentClass agent_class = {
    .instance = wh_agent_instance,
    .free = wh_free,
    .episode_begin = wh_episode_begin,
    .observe = wh_observe,
    .probe = wh_probe,
    .plan = wh_plan,
    .act = wh_act,
    .step_end = wh_step_end,
    .step_payoff = wh_step_payoff,
};

static const TrvRefereeClass referee_class = {
    .truth = wh_truth,
    .episode_outcome_regret = wh_episode_outcome_regret,
    .episode_metrics = wh_episode_metrics,
    .metric_names = metric_names,
};

/* A step is one second of the floor (step_end moves every fleet by one). */
static double wh_step_seconds(void *world) {
  (void)world;
  return 1.0;
}

const TrvWorldClass trv_world_warehouse = {
    .name = "warehouse",
    .init = wh_init,
    .free = wh_free,
    .candidates = wh_candidates,
    .likelihood = TRV_LIKELIHOOD_GAUSSIAN,
    .noise_var = wh_noise_var,
    .episodes = wh_episodes,
    .steps = wh_steps,
    .safe_action = 0,
    .episode_begin = wh_episode_begin,
    .observational_pairs = wh_observational_pairs,
    .agent = &agent_class,
    .referee = &referee_class,
    .step_seconds = wh_step_seconds,
    .params = &trv_warehouse_params,
    .report = &trv_warehouse_report,
};
