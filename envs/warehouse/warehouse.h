/* warehouse.h - the Warehouse world's parameters, floor and fleets
 * (docs/warehouse.md, "The floor"), shared by floor.c (the layout and the
 * robots' kinematics, plain C), warehouse.c (the world class and its rows)
 * and its report (warehouse-report.c).
 *
 * The floor is 10 m x 10 m: a packing station along y = 0.5 where each
 * robot has its home spot, a cross aisle at y = 1.5, five picking aisles
 * at x = 1, 3, 5, 7, 9 with six shelf locations each (y = 2.5 .. 8.5, 1.2 m
 * apart): 30 shelves.  A robot's delivery cycle: take an order from the
 * fleet's pool at home, drive home -> cross aisle -> aisle -> shelf, pick
 * (a service time), drive back, drop at home (1 s): one delivery.
 *
 * A fleet is one complete simulation of the robots over an episode: the
 * deployed fleet runs with the actuator noise eps and the pose observation
 * noise eta, the replays with other noise scales, all on the same random
 * streams (every draw is made whatever the noise scale, so a fleet with
 * eps = eta = 0 that takes the same decisions as the deployed one at
 * eps = eta = 0 is identical to it, bit for bit). */
#ifndef TRV_WAREHOUSE_H
#define TRV_WAREHOUSE_H

#include <stdbool.h>
#include <stdint.h>
#include <trivium/report.h>
#include <trivium/world.h>

#include "core/rng.h"

/* The world's parameters (world.*; rows in warehouse.c). */
typedef struct {
  double eps, eta;        /* actuator and pose observation noise */
  double delay;           /* seconds of a pick per unit of an informative cause */
  int causes;             /* bitmask of the informative causes */
  double fd_step;         /* noise step of the finite-difference replays */
  int calibration_seeds;  /* the run's first seeds that calibrate the grounding bound's constants */
  double calibration_p_f; /* the points calibrating them have at most this p_f */
} TrvWarehouseParams;

extern const TrvParamBlock trv_warehouse_params;

#define WH_SHELVES 30
#define WH_AISLES 5
#define WH_CAUSES 5    /* congestion, friction, shelf_height, battery, charger */
#define WH_POOL 12     /* pending orders of a fleet */
#define WH_SUBSTEPS 10 /* kinematic substeps per step (a step is 1 simulated second) */
#define WH_MAX_ROBOTS 64
#define WH_BASE_PICK 3.0 /* seconds a pick takes when every cause is at its mean */
#define WH_PROBE_SD 0.5  /* sd (s) of a timed test pick's clock reading */

enum { WH_CONGESTION, WH_FRICTION, WH_HEIGHT, WH_BATTERY, WH_CHARGER };

typedef struct {
  double x, y;
} WhPoint;

/* The floor of one seed: shelf places, the causes that belong to shelves,
 * the episode's aisle congestion, and the true effects. */
typedef struct {
  WhPoint shelf[WH_SHELVES];
  double friction[WH_SHELVES], height[WH_SHELVES], charger[WH_SHELVES]; /* standardised causes */
  double congestion[WH_AISLES];                                         /* this episode's, N(0, 1) per aisle */
  double kappa[WH_CAUSES]; /* seconds of pick time per unit of each cause (0: not a cause) */
} WhFloor;

typedef struct {
  WhPoint pos, seen, err; /* true pose, last observed pose, this step's velocity error */
  WhPoint integral;       /* integral of the seen position error toward the current waypoint (m s) */
  WhPoint way[6];
  int n_way, at_way, phase, wait;
  int order;           /* the shelf being served */
  double z[WH_CAUSES]; /* the causes of the order being served */
  double pick_s;       /* its pick time */
  double battery;      /* state of charge in [0, 1] */
  double cycle_start;  /* fleet clock when the order was taken */
  int delivered_step;  /* deliveries completed in the current step */
  /* the last completed pick, as the robot reports it */
  bool has_pick;
  double last_z[WH_CAUSES], last_excess;
  TrvRng act_rng, obs_rng;
} WhRobot;

typedef struct {
  double eps, eta; /* m/s and m, sd per axis */
  int n;
  WhRobot robots[WH_MAX_ROBOTS];
  int pool[WH_POOL]; /* pending orders (shelves), oldest first */
  TrvRng order_rng;
  double clock; /* simulated seconds into the episode */
  int deliveries, misses, cycles;
  double cycle_sum;
} WhFleet;

/* The floor of `seed`: shelf places and causes; kappa from delay and the
 * causes bitmask. */
void wh_floor_init(WhFloor *f, uint64_t seed, double delay, int causes);
/* Episode e's aisle congestion. */
void wh_floor_episode(WhFloor *f, uint64_t seed, int e);
/* Robots at home, the pool filled, every stream seeded from (seed, e). */
void wh_fleet_reset(WhFleet *fl, const WhFloor *f, int n, double eps, double eta, uint64_t seed, int e);
/* One step (1 s) of every robot.  policy[r]: 0 takes the oldest order
 * (first come, first served), 1 the order with the smallest predicted
 * cycle time under weights[r * WH_CAUSES + j] (seconds per unit of cause
 * j).  Sets each robot's delivered_step. */
void wh_fleet_step(WhFleet *fl, const WhFloor *f, const int *policy, const double *weights);
/* The excess (s) over its noise-free time of a 1 m docking manoeuvre at a
 * test bay, under eps and eta, drawn from rng: the part of a timed test
 * pick that the robot's own noise adds. */
double wh_dock_excess(double eps, double eta, TrvRng *rng);

/* The world's report (warehouse-report.c): the grounding table of each
 * point and of a sweep, and its figure. */
extern const TrvReportClass trv_warehouse_report;

#endif
