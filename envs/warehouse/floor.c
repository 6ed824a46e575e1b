/* floor.c - the Warehouse floor and its robots' kinematics (see
 * warehouse.h for the layout).
 *
 * Kinematics, per step of 1 s in WH_SUBSTEPS substeps of dt = 0.1 s:
 *  - at the start of the step each robot draws its velocity error
 *    err ~ N(0, eps^2) per axis (the actuator noise, held for the step);
 *  - at each substep it observes its pose, seen = pos + N(0, eta^2) per
 *    axis, and steers toward its next waypoint from what it saw: commanded
 *    velocity GAIN e + GAIN_I I, e the seen error vector and I its integral
 *    over the substeps spent within I_ZONE of the target (bounded by I_MAX,
 *    restarted at each waypoint), capped at V_MAX; it moves by
 *    (commanded + err) dt.  A waypoint counts as reached when the seen
 *    distance is below its tolerance (0.25 m passing through the aisles,
 *    0.05 m at a shelf or a home spot).  At a shelf the pick needs the true
 *    pose within PICK_RADIUS of it: otherwise the robot backs off and
 *    re-docks (1 s, a miss) and approaches again.
 * So eps slows the approach (the integral needs about a second to cancel
 * a held error, and the robot weaves meanwhile) and eta makes a robot
 * believe it arrived when it did not (misses).
 *
 * Pick time of an order: max(0.5, WH_BASE_PICK + sum_j kappa_j z_j)
 * seconds, with the causes z of the order: its aisle's congestion this
 * episode, its shelf's friction zone flag, its shelf's height level, the
 * robot's battery and its shelf's distance to the charger (standardised).
 *
 * Streams: the orders of a fleet, each robot's actuator errors and each
 * robot's observation noise are streams of (seed, episode, robot): a draw
 * is made every step and substep whatever the noise scale, so fleets with
 * different noise scales see the same random numbers. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "warehouse/warehouse.h"

#define DT (1.0 / WH_SUBSTEPS)
#define V_MAX 1.0        /* m/s */
#define GAIN 2.0         /* 1/s: commanded speed per metre of seen distance */
#define GAIN_I 2.0       /* 1/s^2: commanded speed per metre second of integrated seen error */
#define I_ZONE 0.25      /* m: the error is integrated only this close to a target (docking) */
#define I_MAX 0.3        /* m s: bound of the integral (GAIN_I I_MAX = 0.6 m/s, four times the largest eps) */
#define TOL_PASS 0.25    /* m */
#define TOL_DOCK 0.05    /* m */
#define PICK_RADIUS 0.10 /* m */
#define DROP_S 1.0
#define REDOCK_S 1.0
#define DRAIN 0.004 /* state of charge per second of driving */
#define CROSS_Y 1.5
#define HOME_Y 0.5
#define CHARGER_X 9.5
#define CHARGER_Y 9.5
#define WAY_PICK 2
#define WAY_HOME 5

enum { PH_IDLE, PH_DRIVE, PH_PICK, PH_REDOCK, PH_DROP };

/* Stream ids of the world's own random numbers (mixed with the seed by
 * trv_rng_init): a tag, the episode, the robot, the kind. */
static uint64_t stream(uint64_t kind, int e, int robot) {
  return 0x5748000000000000ULL ^ ((uint64_t)(uint32_t)e << 20) ^ ((uint64_t)robot << 8) ^ kind;
}
enum { S_FLOOR = 1, S_EPISODE, S_ORDERS, S_ACT, S_OBS };

void wh_floor_init(WhFloor *f, uint64_t seed, double delay, int causes) {
  memset(f, 0, sizeof *f);
  TrvRng rng;
  trv_rng_init(&rng, seed, stream(S_FLOOR, 0, 0));
  double mean_d = 0, sd_d = 0;
  for (int s = 0; s < WH_SHELVES; s++) {
    f->shelf[s] = (WhPoint){1.0 + 2.0 * (s / 6), 2.5 + 1.2 * (s % 6)};
    f->height[s] = (double)(s % 3) - 1.0; /* low, middle, high */
    double d = hypot(f->shelf[s].x - CHARGER_X, f->shelf[s].y - CHARGER_Y);
    f->charger[s] = d;
    mean_d += d / WH_SHELVES;
  }
  for (int s = 0; s < WH_SHELVES; s++) sd_d += (f->charger[s] - mean_d) * (f->charger[s] - mean_d) / WH_SHELVES;
  sd_d = sqrt(sd_d);
  for (int s = 0; s < WH_SHELVES; s++) f->charger[s] = (f->charger[s] - mean_d) / sd_d;
  /* friction zones: 10 of the 30 shelves, drawn per seed (a partial shuffle) */
  int idx[WH_SHELVES];
  for (int s = 0; s < WH_SHELVES; s++) idx[s] = s, f->friction[s] = -0.5;
  for (int k = 0; k < 10; k++) {
    int j = k + (int)trv_rng_below(&rng, WH_SHELVES - k), t = idx[k];
    idx[k] = idx[j], idx[j] = t;
    f->friction[idx[k]] = 1.0;
  }
  for (int j = 0; j < WH_CAUSES; j++) f->kappa[j] = (causes >> j & 1) ? delay : 0.0;
}

void wh_floor_episode(WhFloor *f, uint64_t seed, int e) {
  TrvRng rng;
  trv_rng_init(&rng, seed, stream(S_EPISODE, e, 0));
  for (int a = 0; a < WH_AISLES; a++) f->congestion[a] = trv_rng_normal(&rng);
}

static WhPoint home_of(int r, int n) { return (WhPoint){1.0 + 8.0 * (r + 0.5) / n, HOME_Y}; }

static void order_causes(const WhFloor *f, int shelf, double battery, double *z) {
  z[WH_CONGESTION] = f->congestion[shelf / 6];
  z[WH_FRICTION] = f->friction[shelf];
  z[WH_HEIGHT] = f->height[shelf];
  z[WH_BATTERY] = (battery - 0.75) / 0.15;
  z[WH_CHARGER] = f->charger[shelf];
}

void wh_fleet_reset(WhFleet *fl, const WhFloor *f, int n, double eps, double eta, uint64_t seed, int e) {
  (void)f;
  g_assert(n >= 1 && n <= WH_MAX_ROBOTS);
  memset(fl, 0, sizeof *fl);
  fl->eps = eps, fl->eta = eta, fl->n = n;
  trv_rng_init(&fl->order_rng, seed, stream(S_ORDERS, e, 0));
  for (int k = 0; k < WH_POOL; k++) fl->pool[k] = (int)trv_rng_below(&fl->order_rng, WH_SHELVES);
  TrvRng charge;
  trv_rng_init(&charge, seed, stream(S_EPISODE, e, 1));
  for (int r = 0; r < n; r++) {
    WhRobot *b = &fl->robots[r];
    b->pos = b->seen = home_of(r, n);
    b->phase = PH_IDLE;
    b->battery = 0.5 + 0.5 * trv_rng_uniform(&charge);
    trv_rng_init(&b->act_rng, seed, stream(S_ACT, e, r));
    trv_rng_init(&b->obs_rng, seed, stream(S_OBS, e, r));
  }
}

static double route_length(const WhFloor *f, WhPoint home, int shelf) {
  return 2.0 * (fabs(home.x - f->shelf[shelf].x) + (f->shelf[shelf].y - HOME_Y));
}

/* The pool slot of the order robot r takes. */
static int choose(const WhFleet *fl, const WhFloor *f, int r, int policy, const double *w) {
  if (policy == 0) return 0;
  const WhRobot *b = &fl->robots[r];
  WhPoint home = home_of(r, fl->n);
  int best = 0;
  double best_t = INFINITY;
  for (int k = 0; k < WH_POOL; k++) {
    double z[WH_CAUSES], t = route_length(f, home, fl->pool[k]) / V_MAX + WH_BASE_PICK;
    order_causes(f, fl->pool[k], b->battery, z);
    for (int j = 0; j < WH_CAUSES; j++) t += w[j] * z[j];
    if (t < best_t) best_t = t, best = k; /* ties: the older order */
  }
  return best;
}

static void take_order(WhFleet *fl, const WhFloor *f, int r, int policy, const double *w) {
  WhRobot *b = &fl->robots[r];
  int k = choose(fl, f, r, policy, w);
  b->order = fl->pool[k];
  memmove(&fl->pool[k], &fl->pool[k + 1], sizeof(int) * (WH_POOL - 1 - k));
  fl->pool[WH_POOL - 1] = (int)trv_rng_below(&fl->order_rng, WH_SHELVES);
  order_causes(f, b->order, b->battery, b->z);
  double pick = WH_BASE_PICK;
  for (int j = 0; j < WH_CAUSES; j++) pick += f->kappa[j] * b->z[j];
  b->pick_s = fmax(0.5, pick);
  WhPoint home = home_of(r, fl->n), s = f->shelf[b->order];
  b->way[0] = (WhPoint){home.x, CROSS_Y};
  b->way[1] = (WhPoint){s.x, CROSS_Y};
  b->way[2] = s;
  b->way[3] = (WhPoint){s.x, CROSS_Y};
  b->way[4] = (WhPoint){home.x, CROSS_Y};
  b->way[5] = home;
  b->n_way = 6;
  b->at_way = 0;
  b->phase = PH_DRIVE;
  b->cycle_start = fl->clock;
}

/* Steers one substep toward target with a proportional-integral law on the
 * seen error: the integral, accumulated only within I_ZONE of the target
 * and bounded by I_MAX (no wind-up over a long drive), cancels a held
 * velocity error within about a second.  True when the robot saw itself
 * within tol (the integral then restarts for the next target). */
static bool drive(WhRobot *b, WhPoint target, double tol) {
  double dx = target.x - b->seen.x, dy = target.y - b->seen.y, d = hypot(dx, dy);
  if (d < tol) {
    b->integral = (WhPoint){0, 0};
    return true;
  }
  if (d < I_ZONE) {
    b->integral.x += dx * DT;
    b->integral.y += dy * DT;
    double im = hypot(b->integral.x, b->integral.y);
    if (im > I_MAX) b->integral.x *= I_MAX / im, b->integral.y *= I_MAX / im;
  }
  double vx = GAIN * dx + GAIN_I * b->integral.x, vy = GAIN * dy + GAIN_I * b->integral.y, v = hypot(vx, vy);
  if (v > V_MAX) vx *= V_MAX / v, vy *= V_MAX / v;
  b->pos.x += (vx + b->err.x) * DT;
  b->pos.y += (vy + b->err.y) * DT;
  b->battery = fmax(0.0, b->battery - DRAIN * DT);
  return false;
}

static int substeps(double seconds) { return (int)lround(seconds * WH_SUBSTEPS); }

static void substep(WhFleet *fl, const WhFloor *f, int r, int policy, const double *w) {
  WhRobot *b = &fl->robots[r];
  b->seen.x = b->pos.x + fl->eta * trv_rng_normal(&b->obs_rng);
  b->seen.y = b->pos.y + fl->eta * trv_rng_normal(&b->obs_rng);
  if (b->phase == PH_IDLE) take_order(fl, f, r, policy, w);
  if (b->phase != PH_DRIVE) {
    if (--b->wait > 0) return;
    if (b->phase == PH_DROP) {
      b->delivered_step++;
      fl->deliveries++;
      fl->cycles++;
      fl->cycle_sum += fl->clock + DT - b->cycle_start;
      b->phase = PH_IDLE;
      return;
    }
    if (b->phase == PH_PICK) { /* the robot reports the pick's causes and its time over the base */
      b->has_pick = true;
      memcpy(b->last_z, b->z, sizeof b->z);
      b->last_excess = b->pick_s - WH_BASE_PICK;
      b->at_way++;
    }
    b->phase = PH_DRIVE;
    return;
  }
  bool dock = b->at_way == WAY_PICK || b->at_way == WAY_HOME;
  WhPoint target = b->way[b->at_way];
  if (!drive(b, target, dock ? TOL_DOCK : TOL_PASS)) return;
  if (b->at_way == WAY_PICK) {
    if (hypot(target.x - b->pos.x, target.y - b->pos.y) > PICK_RADIUS) {
      fl->misses++;
      b->phase = PH_REDOCK;
      b->wait = substeps(REDOCK_S);
    } else {
      b->phase = PH_PICK;
      b->wait = substeps(b->pick_s);
    }
  } else if (b->at_way == WAY_HOME) {
    b->phase = PH_DROP;
    b->wait = substeps(DROP_S);
  } else {
    b->at_way++;
  }
}

void wh_fleet_step(WhFleet *fl, const WhFloor *f, const int *policy, const double *weights) {
  for (int r = 0; r < fl->n; r++) {
    WhRobot *b = &fl->robots[r];
    b->delivered_step = 0;
    b->err.x = fl->eps * trv_rng_normal(&b->act_rng);
    b->err.y = fl->eps * trv_rng_normal(&b->act_rng);
  }
  for (int k = 0; k < WH_SUBSTEPS; k++) {
    for (int r = 0; r < fl->n; r++) substep(fl, f, r, policy[r], &weights[(size_t)r * WH_CAUSES]);
    fl->clock += DT;
  }
}

/* Substeps of a docking manoeuvre from (0, 0) to (1, 0) until a pick
 * succeeds (at most 100 s); the velocity error is redrawn every second. */
static int dock_substeps(double eps, double eta, TrvRng *rng) {
  WhRobot b;
  memset(&b, 0, sizeof b);
  WhPoint target = {1.0, 0.0};
  int n = 0, wait = 0;
  while (n < 1000) {
    if (n % WH_SUBSTEPS == 0) {
      b.err.x = eps * trv_rng_normal(rng);
      b.err.y = eps * trv_rng_normal(rng);
    }
    b.seen.x = b.pos.x + eta * trv_rng_normal(rng);
    b.seen.y = b.pos.y + eta * trv_rng_normal(rng);
    n++;
    if (wait > 0) {
      wait--;
      continue;
    }
    if (!drive(&b, target, TOL_DOCK)) continue;
    if (hypot(target.x - b.pos.x, target.y - b.pos.y) <= PICK_RADIUS) break;
    wait = substeps(REDOCK_S) - 1;
  }
  return n;
}

double wh_dock_excess(double eps, double eta, TrvRng *rng) {
  TrvRng quiet = *rng; /* the noise-free manoeuvre: no draw of rng counts */
  int nominal = dock_substeps(0, 0, &quiet);
  return (dock_substeps(eps, eta, rng) - nominal) * DT;
}
