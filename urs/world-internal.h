/* world-internal.h - the URS world's internal types, shared by world.c (the world
 * table: parameters, handles, probes, observations, readouts),
 * world-city.c (the city: dense cell index, the 12 confounders, the request
 * stream, demand predictions), world-probe.c (the probes' volumes and
 * readings) and world-fleet.c (fleets: matching, trips, repositioning).
 * Nothing outside urs/world*.c includes it; the rest
 * of Trivium sees only `trv_world_urs` (plugin/world.h).
 *
 * Invariants, checked after every step by the tests:
 *  - a request is in exactly one state per fleet (waiting, served,
 *    expired), so created = served + expired + waiting in every fleet;
 *  - a driver is in exactly one state (idle, to-pickup, on-trip,
 *    repositioning); a driver is in its cell's idle list iff it is idle;
 *  - a cell's disc idle count is the sum of the idle counts of its disc;
 *  - the request stream (cells, destinations, durations) is a function of
 *    (seed, episode) alone: no fleet, action or probe draws from it.
 * Four fleets of D drivers play on the same stream: the actual one (the
 * agents' decisions), the oracle (repositions with the true graph), the
 * stay fleet (the safe action: stays put), which gives Delta_e, and the
 * rebalancing baseline (world-baseline.c), a published policy that
 * knows the forecast demand and no graph. */
#ifndef TRV_URS_WORLD_INTERNAL_H
#define TRV_URS_WORLD_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/graph.h"
#include "core/params.h"
#include "core/rng.h"
#include "urs/caltable.h"
#include "urs/caltable-travel.h"
#include "urs/world-params.h"
#include "core/world.h"

#define URS_NCONF 12
#define URS_RINGS 2                                      /* matching radius k, in cells */
#define URS_DISC 19                                      /* cells within URS_RINGS of a cell */
#define URS_MAX_CELLS 4000000                            /* cells of the world's grid box (about 100 bytes each) */
#define URS_MAX_WAIT 10                                  /* minutes a request waits for a driver */
#define URS_MAX_EMPTY_MIN 60                             /* minutes of an empty leg (pickup, move) at most */
#define URS_WAIT_BINS (URS_MAX_WAIT + URS_MAX_EMPTY_MIN) /* served waits: 0 .. URS_MAX_WAIT - 1 plus the pickup */
#define URS_PROBE_VOLUME 20.0       /* expected requests per arm of a probe's A/B slice at the reference rate */
#define URS_PROBE_QUIET 0.005       /* share of the zones and slots whose probes have less than URS_PROBE_VOLUME */
#define URS_GRAPH_SLOTS 8           /* distinct graphs whose predictions are cached */
#define URS_QUANTILES 1024          /* trip-duration quantile table */
#define URS_OBS_NOISE 0.5           /* sd of the observed demand index */
#define URS_CONF_LOADING 0.6        /* correlation of a busyness-raised confounder with B_e */
#define URS_SG_SPEED_KMH 24.0       /* fallback trip speed (no trips observed) */
#define URS_DISC_WEIGHT 0.2         /* weight of the disc around a cell in its score */
#define URS_BUMPS 12                /* bumps of a smooth cell field */
#define URS_ROUTE_FACTOR 1.3        /* road distance over straight-line distance */
#define URS_BASELINE_REGION_KM2 4.0 /* the rebalancing baseline's regions (world-baseline.c) */
#define URS_BASELINE_PERIOD 5       /* minutes between two rebalancing decisions */

#define URS_MAGIC_WORLD 0x55525357u  /* "URSW" */
#define URS_MAGIC_DRIVER 0x55525344u /* "URSD" */

enum { URS_IDLE, URS_TO_PICKUP, URS_ON_TRIP, URS_REPOSITIONING, URS_NSTATES };
enum { URS_WAITING, URS_SERVED, URS_EXPIRED };
enum { URS_FLEET_ACTUAL, URS_FLEET_ORACLE, URS_FLEET_STAY, URS_FLEET_BASELINE, URS_NFLEETS };

typedef struct {
  int origin, dest; /* dense cell indexes */
  int created;      /* step */
  int trip;         /* trip minutes, >= 1 */
} UrsRequest;

typedef struct {
  int state, cell;
  int busy_until; /* step at which a busy state ends */
  int pickup;     /* cell of the rider being fetched */
  int dest;       /* cell where the current trip ends */
  int trip;       /* minutes of the current trip */
  int next, prev; /* idle list of the cell, -1 terminated */
} UrsDriver;

typedef struct {
  int n;
  UrsDriver *drivers;
  int *idle_head, *idle_count;  /* per cell */
  int *disc_idle;               /* per cell: idle drivers within its disc (URS_RINGS) */
  GArray *status;               /* guint8 per request of the episode */
  GArray *waiting;              /* int request indexes, oldest first */
  int64_t waits[URS_WAIT_BINS]; /* served requests by wait in whole minutes */
  int64_t served, expired;
  double empty_km, wait_sum;
  int state_count[URS_NSTATES];
  double *payoff;                /* per driver: served at the last step */
  int *incoming, *incoming_step; /* per cell: drivers repositioning into it */
  int *target;                   /* per driver: the cell the baseline sends it to, -1 none */
  bool placed;                   /* the drivers are in the idle lists */
} UrsFleet;

typedef struct {
  bool used;
  double weight[URS_NCONF]; /* kappa_hat_j of present components, else 0 */
  uint64_t last_use;
  double *exp_a;        /* per zone: exp(cell part of the exponent) */
  uint64_t *exp_stamp;  /* episode serial the value belongs to */
  double *disc;         /* per cell: repositioning score (urs_predict_score) */
  uint64_t *disc_stamp; /* era the value belongs to */
} UrsGraphSlot;

typedef struct UrsWorld UrsWorld;

typedef struct {
  uint32_t magic;
  UrsWorld *w;
  int driver;
  TrvRng probe_rng, obs_rng; /* probe outcomes, observation noise */
} UrsDriverHandle;

typedef struct UrsSharedTable UrsSharedTable; /* world.c */

/* Where the effect of a confounder, when informative, comes from
 * (docs/urs.md, "Truth grounded in the city's data"). */
typedef enum {
  URS_EFFECT_SYNTHETIC,        /* world.effect: the scenario's setting */
  URS_EFFECT_UNGROUNDED,       /* a data-backed confounder with world.grounded = 0: world.effect */
  URS_EFFECT_GROUNDED,         /* the table's estimate: its interval excludes 0 robustly */
  URS_EFFECT_NOT_IDENTIFIABLE, /* 0: the trace cannot identify it */
  URS_EFFECT_NOT_ROBUST,       /* 0: the grounding rule refuses it */
  URS_EFFECT_BELOW_FLOOR,      /* 0: robust, but below world.effect_floor */
} UrsGrounding;

struct UrsWorld {
  uint32_t magic;
  TrvUrsParams p; /* world.* */
  double zabs;    /* budget.zabs */
  uint64_t seed;
  int n_drivers, episodes, steps;
  const TrvCalTable *table; /* read-only: shared with other worlds (world.c) */
  UrsSharedTable *shared_table;
  char *table_path; /* where the table was read from */
  /* dense cell index over the grid's box: idx = (q - qmin) * nr + (r - rmin) */
  int qmin, rmin, nq, nr, ncells;
  int *zone_of_cell;      /* -1 outside the table's zones */
  int *disc_of_cell;      /* per cell: its URS_DISC disc cells (urs_disc), computed once */
  int *disc_zone_of_cell; /* per cell: the zones of its disc cells, in disc order (-1: none) */
  int nzones;
  int *zone_cell;
  double *zone_x, *zone_y; /* zone centres, km */
  double rate_scale;       /* table rate (per hour) -> expected requests per minute */
  double spacing_km;
  /* trips: OD matrix by origin (CSR), duration quantiles */
  int *od_start;
  int *od_dest;
  double *od_cum;
  bool has_durations;
  double dur_q[URS_QUANTILES + 1];
  /* weather: standardized index per table day, days by weekday */
  int n_weather;
  double *weather_z;
  GArray *weather_by_weekday[7];
  /* the effects of confounders 2, 3, 10 the city's table estimated, in
   * the world's units (0: not identifiable, not robust by the grounding
   * rule, or below world.effect_floor); ground[j] says which */
  double table_kappa[URS_NCONF];
  UrsGrounding ground[URS_NCONF];
  /* travel times (world.travel = table and the table has them): per band
   * the line a + b km and the estimates of the pairs with trips */
  bool travel;
  double travel_a[TRV_TRAVEL_BANDS], travel_b[TRV_TRAVEL_BANDS];
  const TrvTravelPair *travel_pairs; /* the table's, increasing (origin, destination, band) */
  int n_travel_pairs;
  double *travel_min; /* per pair: its estimate, minutes */
  /* the baseline's regions: per cell its region, per region its centre
   * (km), its target cell (its busiest zone's, -1 without zones) and the
   * zones' base rate now; the regions with zones */
  int *region_of_cell;
  int nregions;
  double *region_x, *region_y, *region_rate, *region_count, *region_desired;
  int *region_cell, *demand_regions, n_demand_regions;
  /* probes: a zone's mean rate over the week, the city's profile over the
   * slots (rate / week mean), and the smoothed rate zone mean x profile at
   * which a probe has URS_PROBE_VOLUME requests per arm (world-city.c) */
  double *zone_mean_rate;
  double *cell_probe_rate; /* per cell: its disc's (else the nearest zone's) mean rate; < 0 until first asked */
  double slot_profile[TRV_SLOTS_PER_WEEK];
  double probe_ref_rate;
  /* the episode */
  int episode;
  bool started;
  uint64_t serial, era;
  int start_minute, t, slot;
  double busy, weather_now;
  uint32_t informative;
  double kappa[URS_NCONF];
  double centre[URS_NCONF][URS_BUMPS][3]; /* per confounder: bump x, y, amplitude */
  double field_mean[URS_NCONF], field_sd[URS_NCONF];
  double *zone_field; /* nzones * URS_NCONF standardized cell fields */
  double *series;     /* steps * URS_NCONF standardized time parts */
  double *true_exp_a; /* per zone, true graph */
  double *cum;        /* per zone: cumulative base * exp(true cell part), this slot */
  double *zone_rate;  /* per zone: base requests per minute of this slot (urs_zone_base) */
  /* per cell outside the zones: its standardized fields X_j this episode
   * (field_std), valid when cell_field_serial[cell] is the episode's serial */
  double *cell_field;
  uint64_t *cell_field_serial;
  double cum_total;
  TrvRng rng;       /* the request stream of the episode */
  GArray *requests; /* UrsRequest */
  int64_t created;
  /* the episode's probes: how many, those below URS_PROBE_VOLUME, and the
   * sum of their information fractions min(1, m / URS_PROBE_VOLUME) */
  int64_t probes, probes_quiet;
  double probe_information;
  int *cell_count;       /* requests created per cell ... */
  int *cell_count_step;  /* ... at this step */
  int *action;           /* per driver: the action recorded for the step */
  double *driver_weight; /* per driver: URS_NCONF weights of the graph plan() got */
  int *driver_slot;      /* per driver: its graph slot at this step */
  int *oracle_policy, *oracle_slot, *start_cells;
  UrsDriverHandle self; /* driver 0, when the world itself is played */
  UrsFleet fleet[URS_NFLEETS];
  UrsGraphSlot gslot[URS_GRAPH_SLOTS];
  double truth_weight[URS_NCONF];
};

/* world-city.c */
bool urs_city_init(UrsWorld *w, GError **error);
/* The table effect behind confounder j (2 rain, 3 time of day, 10
 * airport), or -1 for a confounder with none. */
int urs_table_effect(int j);
/* Applies the grounding rule (trv_cal_effect_robust) to the effects
 * urs_city_init took from the table, and records for each confounder
 * where its effect comes from (world.c; called once, after
 * urs_city_init). */
void urs_ground_effects(UrsWorld *w);
/* The world's report: where each confounder's effect comes from
 * (world-report.c). */
typedef struct TrvReportClass TrvReportClass;
extern const TrvReportClass trv_urs_report;
extern const TrvWorldClass trv_world_urs; /* world.c; also declared for the program in envs/worlds.h */
void urs_city_free(UrsWorld *w);
int urs_cell_index(const UrsWorld *w, int q, int r); /* -1 outside */
void urs_cell_qr(const UrsWorld *w, int idx, int *q, int *r);
/* The URS_DISC cells within URS_RINGS of idx, nearest first (ring 0,
 * ring 1, ring 2), -1 for cells outside; ring_end[d] is the end of ring d.
 * Computed once per cell at init; the array belongs to the world. */
static inline const int *urs_disc(const UrsWorld *w, int idx) { return &w->disc_of_cell[(size_t)idx * URS_DISC]; }
extern const int urs_ring_end[URS_RINGS + 1];
/* Draws the episode (start minute, B_e, weather, fields, series). */
void urs_city_episode(UrsWorld *w);
/* Confounder values Z_j(cell, t) of the current episode, all 12, into z;
 * returns the log demand multiplier gamma B_e + sum_j kappa_j Z_j there.
 * Fills the world's cache of the cell's fields (cell_field) when the cell
 * lies outside the zones. */
double urs_confounders(UrsWorld *w, int cell, int t, double z[URS_NCONF]);
/* true for confounders with a cell field (they change where to go). */
bool urs_confounder_spatial(int j);
/* Base rate of a zone now (expected requests per minute, no confounders);
 * inline: the repositioning scores read it for every zone of a disc. */
static inline double urs_zone_base(const UrsWorld *w, int zone) {
  g_assert(w->slot >= 0);
  return w->zone_rate[zone];
}
/* Appends minute t's requests to w->requests (the shared stream). */
void urs_city_generate(UrsWorld *w, int t);
/* The graph slot predicting with weights, created (or recycled) if needed. */
int urs_graph_slot(UrsWorld *w, const double weight[URS_NCONF]);
/* The repositioning score of a cell under a graph: predicted requests per
 * minute in the cell plus URS_DISC_WEIGHT times those of the other cells of
 * its matching disc (up to the city-wide time factor, which does not change
 * where a driver should go). */
double urs_predict_score_compute(UrsWorld *w, int slot, int cell);
static inline double urs_predict_score(UrsWorld *w, int slot, int cell) {
  const UrsGraphSlot *g = &w->gslot[slot]; /* computed once per era (slot of the week) */
  return g->disc_stamp[cell] == w->era ? g->disc[cell] : urs_predict_score_compute(w, slot, cell);
}

/* world-probe.c */
/* A Poisson(mean) count drawn from rng. */
uint64_t urs_poisson(TrvRng *rng, double mean);
/* Fills zone_mean_rate, slot_profile, probe_ref_rate and an empty
 * cell_probe_rate (at init, once the zones are known). */
void urs_probe_reference(UrsWorld *w);
/* Expected requests per arm of a probe in a cell at step t of the episode:
 * URS_PROBE_VOLUME x the mean rate of the zones of its matching disc x the
 * city's profile in the slot over probe_ref_rate (the nearest zone's rate
 * when the disc has no demand; 0 for a cell off the grid). */
double urs_probe_volume(UrsWorld *w, int cell, int t);
/* One probe reading of an A/B slice of m expected requests per arm, n_T ~
 * Poisson(m exp(kappa z)), n_C ~ Poisson(m), w_hat = log(n_T + 0.5) -
 * log(n_C + 0.5): below URS_PROBE_VOLUME, w_hat sqrt(m / URS_PROBE_VOLUME);
 * at or above it, w_hat of an A/B slice of URS_PROBE_VOLUME.  Either way
 * the variance is the declared one. */
double urs_probe_reading(TrvRng *rng, double kappa, double z, double m);

/* Travel times (world-city.c; docs/urs.md, "Travel times"): minutes of a
 * trip between two zones that starts at minute t of the episode, and of
 * an empty leg of `rings` cells (a pickup, a move), both at least 1 (0
 * for an empty leg of 0 rings), an empty leg at most URS_MAX_EMPTY_MIN.
 * Without travel times, a trip's minutes are the request's and an empty
 * leg takes a minute a ring. */
int urs_travel_trip_minutes(const UrsWorld *w, int origin_zone, int dest_zone, int t);
int urs_travel_empty_minutes(const UrsWorld *w, int rings, int t);

/* world-baseline.c */
bool urs_baseline_init(UrsWorld *w, GError **error);
void urs_baseline_free(UrsWorld *w);
/* The baseline's decisions of minute t (after the fleet's matching). */
void urs_baseline_step(UrsWorld *w, UrsFleet *f, int t);

/* world-fleet.c */
/* Sends idle driver d one cell to `cell` (a neighbour), busy for the
 * move's minutes. */
void urs_fleet_move(UrsWorld *w, UrsFleet *f, int t, int d, int cell);
void urs_fleet_init(UrsFleet *f, int n, int ncells);
void urs_fleet_free(UrsFleet *f);
/* Places the drivers at cells[] and clears the episode's counters. */
void urs_fleet_reset(const UrsWorld *w, UrsFleet *f, const int *cells);
/* One minute of a fleet: finished trips, matching of waiting and new
 * requests, then repositioning of idle drivers: policy 0 stays, 1 uses the
 * driver's graph slot (slots[d]). */
void urs_fleet_step(UrsWorld *w, UrsFleet *f, int t, const int *policy, const int *slots);
/* Checks the conservation invariants; false (with the first violation in
 * *why, static text) if one fails. */
bool urs_fleet_check(const UrsWorld *w, const UrsFleet *f, const char **why);
double urs_fleet_wait_p95(const UrsFleet *f);

#endif
