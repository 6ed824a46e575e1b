/* world.c - the URS world (docs/urs.md, "The URS world"): urban ride-share
 * dispatch on a city built from a calibration table (data/urs/CITY.cal),
 * and its parameters (world.*, world-params.h).
 *
 * Candidates: G_inf = the 12 edges "Z_j -> demand" (all observed), truth
 * kappa_j for the informative confounders (world.informative,
 * world.informative_after from episode world.change_at on), 0 otherwise:
 * for weather (2), time of day (3) and airport (10) the effect the city's
 * table estimated from its trace (0 where the trace cannot identify it,
 * where its spread over the trace's days or months does not exclude 0
 * robustly (urs_ground_effects), or where it is below world.effect_floor;
 * world.grounded=0 turns this off), for the others world.effect: the
 * report (world-report.c) says which is which.
 * The agents are the drivers and share one city: agent_instance() returns
 * a handle on driver a (passing the world itself plays driver 0); act()
 * records the driver's decision (0 stay, 1 reposition with the graph given
 * to plan(): to the best neighbouring cell, or a draw from the
 * repositioning distribution at world.temperature > 0; offers beyond
 * world.accept_rings declined, world-fleet.c); step_end() moves the city
 * one minute; step_payoff() is the
 * requests the driver took in that minute.  Episode e is set up by the
 * first episode_begin(., e), whether on the world or a handle.
 *
 * Probe of component j (an A/B slice of the driver's cell and minute, the
 * other confounders clamped at 0): each arm has the calibrated demand of
 * the cell's zone in the slot, m = URS_PROBE_VOLUME x rate / probe_ref_rate
 * expected requests (world-city.c), treatment n_T ~ Poisson(m exp(kappa_j
 * z)), control n_C ~ Poisson(m), w_hat = log(n_T + 0.5) - log(n_C + 0.5).
 * The control arm shares B_e and the base rate, which cancel, so E[w_hat] =
 * kappa_j z up to O(1/m^2) and, by the delta method, Var(w_hat) =
 * (exp(-kappa_j z) + 1)/m: a quiet cell at night gives a noisy reading.
 * The world declares one noise variance for every probe (noise_var), so
 * the reading is w = w_hat sqrt(m / URS_PROBE_VOLUME): its variance is the
 * declared (exp(-kappa_j z) + 1)/URS_PROBE_VOLUME whatever m, and what a
 * small volume loses shows as a smaller mean, kappa_j z sqrt(m /
 * URS_PROBE_VOLUME): the Fisher information about kappa_j of one reading is
 * z^2 m / (1 + exp(-kappa_j z)), that of the volume the probe had.
 * probe_ref_rate makes the mean of sqrt(m / URS_PROBE_VOLUME) over the
 * zones and slots of the week 1.  noise_var() declares the mean over z =
 * +-zabs for an informative j, (1 + cosh(effect zabs))/URS_PROBE_VOLUME
 * (0.106 for the defaults; a null j has 2/m = 0.1).  Probes never touch the
 * fleets' request stream.
 *
 * Observation of driver a at step t (7 doubles): requests that appeared in
 * its cell at t-1, the demand index w = sum_j kappa_j Z_j + gamma B_e +
 * N(0, URS_OBS_NOISE^2) of its cell (the log of the cell's demand rate over
 * its calibrated base, as the platform estimates it), k in {0, 4, 8}
 * rotating with t + a, and Z_k .. Z_{k+3} there; observational_pairs()
 * gives (j, Z_j, w) for those 4.  Across episodes B_e moves w and the
 * busyness-raised confounders together: their pooled slope is about
 * gamma * URS_CONF_LOADING (0.48 by default) although they have no effect.
 *
 * Regrets and metrics: the oracle fleet repositions with the true graph,
 * the stay fleet never moves, the baseline fleet rebalances toward the
 * forecast demand (world-baseline.c); R_out = oracle served - actual
 * served, the metric baseline_regret = oracle served - baseline served;
 * Delta_e = (oracle served - stay served) / (D T), at least 0. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/datadir.h"
#include "urs/world-internal.h"

static const char *const city_names[] = {"sf", "nyc", "sg", NULL};
static const char *const travel_names[] = {"table", "hops", NULL};

#define I(k, f, d, lo, hi, doc) TRV_ROW_INT(TrvUrsParams, k, f, d, lo, hi, doc)
#define D(k, f, d, lo, hi, doc) TRV_ROW_DOUBLE(TrvUrsParams, k, f, d, lo, hi, doc)
static const TrvParamSpec specs[] = {
    TRV_ROW_ENUM(TrvUrsParams, "world.city", city, "sf", city_names,
                 "URS: the city whose calibration table (data/urs/CITY.cal) the world samples"),
    TRV_ROW_TEXT(TrvUrsParams, "world.table", table,
                 "URS: empty for the city's shipped table (data/urs/CITY.cal); else a calibration table file "
                 "(`trivium trace import`)"),
    I("world.informative", informative, 15, 0, 4095,
      "URS: bitmask of the informative confounders among the 12 (bit j = confounder j)"),
    I("world.informative_after", informative_after, 240, 0, 4095,
      "URS: the informative bitmask from episode world.change_at on"),
    I("world.change_at", change_at, 0, 0, 1e7, "URS: episode at which the informative set changes (0 = never)"),
    D("world.effect", effect, 0.5, -1e3, 1e3,
      "URS: log-demand effect kappa of an informative confounder (per standard deviation)"),
    I("world.grounded", grounded, 1, 0, 1,
      "URS: 1 = the effects of weather (2), time of day (3) and airport (10), when informative, are the calibration "
      "table's estimates whose interval excludes 0 robustly, else 0 (docs/urs.md); 0 = world.effect like the others"),
    D("world.effect_floor", effect_floor, 0.1, 0, 1e3,
      "URS: a table estimate smaller than this in absolute value (per standard deviation) counts as no effect"),
    D("world.load", load, 3.0, 1e-3, 1e3,
      "URS: city-wide requests per driver per hour, averaged over the week (scales the table's rates)"),
    D("world.busyness", busyness, 0.8, 0, 1e3,
      "URS: log-demand effect of the hidden per-episode city busyness B_e (the confounding)"),
    D("world.temperature", temperature, 0, 0, 1e3,
      "URS: an idle driver's repositioning distribution over its cell and the 6 neighbours, P(c) proportional to "
      "exp((s_c / s_max - 1) / temperature), s its graph's score; 0: the best cell (greedy)"),
    I("world.accept_rings", accept_rings, 2, 0, 2,
      "URS: a driver accepts a dispatch offer whose pickup is at most this many rings away and declines farther "
      "ones (2: every offer of the matching disc)"),
    TRV_ROW_ENUM(TrvUrsParams, "world.travel", travel, "table", travel_names,
                 "URS: how long trips, pickups and moves take: table = the calibration table's travel times by "
                 "origin, destination and band of the day (hops when the table has none); hops = a minute a cell and "
                 "trip times drawn from the city's duration histogram "
                 "(docs/urs.md)"),
};
const TrvParamBlock trv_urs_params = TRV_BLOCK(TrvUrsParams, specs);

static const char *const var_names[] = {"surge",        "event_proximity",   "weather",     "time_of_day",
                                        "road_closure", "rider_mix",         "driver_tier", "competitor_pricing",
                                        "ev_battery",   "traffic_incidents", "airport",     "event_queue",
                                        "demand"};
#define C(j, n)                                                                                                        \
  { n "->demand", j, URS_NCONF, true }
static const TrvComponent components[URS_NCONF] = {
    C(0, "surge"),        C(1, "event_proximity"),   C(2, "weather"),     C(3, "time_of_day"),
    C(4, "road_closure"), C(5, "rider_mix"),         C(6, "driver_tier"), C(7, "competitor_pricing"),
    C(8, "ev_battery"),   C(9, "traffic_incidents"), C(10, "airport"),    C(11, "event_queue"),
};
#undef C
static const TrvCandidates candidates = {URS_NCONF + 1, var_names, URS_NCONF, components};
static const char *const city_files[] = {"sf", "nyc", "sg"};
static const char *const metric_names[] = {"served",   "served_rate",  "wait_mean",         "wait_p95",
                                           "empty_km", "probes_quiet", "probe_information", "baseline_regret",
                                           NULL};

static UrsWorld *world_of(void *p) { return *(uint32_t *)p == URS_MAGIC_WORLD ? p : ((UrsDriverHandle *)p)->w; }

static UrsDriverHandle *handle_of(void *p) {
  if (*(uint32_t *)p == URS_MAGIC_WORLD) return &((UrsWorld *)p)->self;
  g_assert(*(uint32_t *)p == URS_MAGIC_DRIVER);
  return p;
}

static void handle_init(UrsDriverHandle *h, UrsWorld *w, int driver) {
  h->magic = URS_MAGIC_DRIVER;
  h->w = w;
  h->driver = driver;
  trv_rng_init(&h->probe_rng, w->seed, TRV_STREAM_PROBE_NOISE + 100 * (uint64_t)driver);
  trv_rng_init(&h->obs_rng, w->seed, TRV_STREAM_DISPATCH + 100 * (uint64_t)driver);
}

/* A calibration table shared by the worlds that read the same file: a run
 * builds its world once to check it and again in every cell (a child
 * process, which inherits the parent's copy), and parsing a table costs
 * milliseconds per megabyte.  A parsed table is never modified.  The last
 * table read stays cached for the next world and is used again only for
 * the same path and the same file (device, inode, size and modification
 * time as stat(2) gives them before the read); each world holds a
 * reference. */
struct UrsSharedTable {
  TrvCalTable *table;
  char *path;
  struct stat st;
  int refs; /* the worlds that hold it, plus one while it is the cache's */
};

G_LOCK_DEFINE_STATIC(table_cache);
static UrsSharedTable *table_cache;

static bool same_file(const struct stat *a, const struct stat *b) {
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
         a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Drops one reference (under the lock). */
static void shared_table_unref_locked(UrsSharedTable *s) {
  if (--s->refs > 0) return;
  trv_cal_table_free(s->table);
  g_free(s->path);
  g_free(s);
}

static void shared_table_unref(UrsSharedTable *s) {
  G_LOCK(table_cache);
  shared_table_unref_locked(s);
  G_UNLOCK(table_cache);
}

/* The table at path, from the cache when it holds that file, else read
 * (and cached); NULL with *error when the reader refuses it. */
static UrsSharedTable *shared_table_get(const char *path, GError **error) {
  struct stat st;
  bool known = stat(path, &st) == 0 && S_ISREG(st.st_mode);
  G_LOCK(table_cache);
  UrsSharedTable *s = table_cache;
  if (known && s && !strcmp(s->path, path) && same_file(&s->st, &st))
    s->refs++;
  else
    s = NULL;
  G_UNLOCK(table_cache);
  if (s) return s;
  TrvCalTable *t = trv_cal_table_read(path, error);
  if (!t) return NULL;
  s = g_new0(UrsSharedTable, 1);
  s->table = t;
  s->path = g_strdup(path);
  s->st = st;
  s->refs = 1;
  if (known) { /* a file that stat(2) could not describe is not cached */
    s->refs++;
    G_LOCK(table_cache);
    if (table_cache) shared_table_unref_locked(table_cache);
    table_cache = s;
    G_UNLOCK(table_cache);
  }
  return s;
}

/* The calibration table: the file world.table names, else the city's
 * (core/datadir.h: $TRIVIUM_DATADIR, the installed data directory, the
 * source tree).  The reader refuses anything but a calibration table. */
static UrsSharedTable *load_table(const char *file, const char *city, char **found, GError **error) {
  if (file && *file) {
    *found = g_strdup(file);
    return shared_table_get(file, error);
  }
  char *name = g_strdup_printf("%s.cal", city), *tried = NULL;
  char *path = trv_find_data("data/urs", name, &tried);
  *found = g_strdup(path);
  UrsSharedTable *t = NULL;
  if (path)
    t = shared_table_get(path, error);
  else
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "calibration table %s not found (tried %s); set TRIVIUM_DATADIR to the directory holding data/urs/ or "
                "regenerate it with `trivium trace import` (docs/urs.md)",
                name, tried);
  g_free(path);
  g_free(tried);
  g_free(name);
  return t;
}

static void urs_free(void *p);

int urs_table_effect(int j) {
  return j == 2 ? TRV_EFFECT_RAIN : j == 3 ? TRV_EFFECT_TIME_OF_DAY : j == 10 ? TRV_EFFECT_AIRPORT : -1;
}

/* urs_city_init converted the table's estimates to the world's units and
 * dropped those below world.effect_floor; here an estimate whose spread
 * does not exclude 0 robustly (a bootstrap interval over the trace's days
 * holding 0, a sign that changes between months, or no interval at all)
 * is dropped too, so that a grounded truth claims no effect the data
 * cannot tell from none. */
void urs_ground_effects(UrsWorld *w) {
  for (int j = 0; j < URS_NCONF; j++) {
    int k = urs_table_effect(j);
    if (k < 0) {
      w->ground[j] = URS_EFFECT_SYNTHETIC;
      continue;
    }
    const TrvEffect *e = &w->table->effects[k];
    if (!w->p.grounded)
      w->ground[j] = URS_EFFECT_UNGROUNDED;
    else if (!e->estimated)
      w->ground[j] = URS_EFFECT_NOT_IDENTIFIABLE;
    else if (!trv_cal_effect_robust(e, NULL))
      w->ground[j] = URS_EFFECT_NOT_ROBUST;
    else if (w->table_kappa[j] == 0)
      w->ground[j] = URS_EFFECT_BELOW_FLOOR;
    else
      w->ground[j] = URS_EFFECT_GROUNDED;
    if (w->ground[j] != URS_EFFECT_GROUNDED) w->table_kappa[j] = 0;
  }
}

static void *urs_init(const TrvParams *params, uint64_t seed, GError **error) {
  UrsWorld *w = g_new0(UrsWorld, 1);
  w->magic = URS_MAGIC_WORLD;
  const TrvUrsParams *p = trv_params_block(params, &trv_urs_params);
  w->p = *p;
  w->zabs = params->zabs;
  w->seed = seed;
  w->n_drivers = trv_params_int(params, "agents.count");
  w->episodes = params->episodes;
  w->steps = params->steps;
  w->episode = -1;
  w->shared_table = load_table(p->table, city_files[p->city], &w->table_path, error);
  if (w->shared_table) w->table = w->shared_table->table;
  if (!w->table || !urs_city_init(w, error) || !urs_baseline_init(w, error)) {
    urs_free(w);
    return NULL;
  }
  urs_ground_effects(w);
  for (int f = 0; f < URS_NFLEETS; f++) urs_fleet_init(&w->fleet[f], w->n_drivers, w->ncells);
  w->action = g_new0(int, w->n_drivers);
  w->driver_weight = g_new0(double, (size_t)w->n_drivers *URS_NCONF);
  w->driver_slot = g_new(int, w->n_drivers);
  w->oracle_policy = g_new(int, w->n_drivers);
  w->oracle_slot = g_new(int, w->n_drivers);
  w->start_cells = g_new(int, w->n_drivers);
  for (int d = 0; d < w->n_drivers; d++) w->driver_slot[d] = -1, w->oracle_policy[d] = 1;
  handle_init(&w->self, w, 0);
  return w;
}

static void *urs_agent_instance(void *world, int agent) {
  UrsWorld *w = world_of(world);
  g_assert(agent >= 0 && agent < w->n_drivers); /* agents.count drivers were built */
  UrsDriverHandle *h = g_new0(UrsDriverHandle, 1);
  handle_init(h, w, agent);
  return h;
}

static void urs_free(void *p) {
  if (*(uint32_t *)p == URS_MAGIC_DRIVER) {
    g_free(p);
    return;
  }
  UrsWorld *w = p;
  urs_city_free(w);
  urs_baseline_free(w);
  for (int f = 0; f < URS_NFLEETS; f++)
    if (w->fleet[f].drivers) urs_fleet_free(&w->fleet[f]);
  g_free(w->action);
  g_free(w->driver_weight);
  g_free(w->driver_slot);
  g_free(w->oracle_policy);
  g_free(w->oracle_slot);
  g_free(w->start_cells);
  if (w->shared_table) shared_table_unref(w->shared_table);
  g_free(w->table_path);
  g_free(w);
}

static const TrvCandidates *urs_candidates(void *world) {
  (void)world;
  return &candidates;
}

static double urs_noise_var(void *world) {
  UrsWorld *w = world_of(world);
  return (1.0 + cosh(w->p.effect * w->zabs)) / URS_PROBE_VOLUME;
}

static int urs_episodes(void *world) { return world_of(world)->episodes; }
static int urs_steps(void *world) { return world_of(world)->steps; }

static int urs_change_points(void *world, int *out, int max) {
  UrsWorld *w = world_of(world);
  if (w->p.change_at <= 0 || w->p.change_at >= w->episodes || max < 1) return 0;
  if (w->p.informative == w->p.informative_after) return 0;
  out[0] = w->p.change_at;
  return 1;
}

static void urs_episode_begin(void *world, int e) {
  UrsWorld *w = world_of(world);
  if (w->started && w->episode == e) return; /* already set up by another caller */
  w->episode = e;
  w->started = true;
  w->serial++;
  w->t = 0;
  w->informative = (uint32_t)(w->p.change_at > 0 && e >= w->p.change_at ? w->p.informative_after : w->p.informative);
  for (int j = 0; j < URS_NCONF; j++) {
    bool synthetic = w->ground[j] == URS_EFFECT_SYNTHETIC || w->ground[j] == URS_EFFECT_UNGROUNDED;
    double k = synthetic ? w->p.effect : w->table_kappa[j];
    w->truth_weight[j] = w->kappa[j] = (w->informative >> j & 1) ? k : 0;
  }
  urs_city_episode(w);
  w->probes = w->probes_quiet = 0;
  w->probe_information = 0;
  for (int d = 0; d < w->n_drivers; d++) {
    w->start_cells[d] = w->zone_cell[trv_rng_below(&w->rng, w->nzones)];
    w->action[d] = 0;
  }
  for (int f = 0; f < URS_NFLEETS; f++) urs_fleet_reset(w, &w->fleet[f], w->start_cells);
}

static int urs_observe(void *world, int t, double *ctx, int max) {
  UrsDriverHandle *h = handle_of(world);
  UrsWorld *w = h->w;
  g_assert(w->started);
  if (max < 7) return 0; /* no room for the driver's reading */
  int cell = w->fleet[URS_FLEET_ACTUAL].drivers[h->driver].cell, k = 4 * ((t + h->driver) % 3);
  double z[URS_NCONF];
  double log_mult = urs_confounders(w, cell, t, z);
  ctx[0] = w->cell_count_step[cell] == t - 1 ? w->cell_count[cell] : 0;
  ctx[1] = log_mult + URS_OBS_NOISE * trv_rng_normal(&h->obs_rng);
  ctx[2] = k;
  for (int i = 0; i < 4; i++) ctx[3 + i] = z[k + i];
  return 7;
}

static int urs_observational_pairs(const double *ctx, int n, int *j, double *z, double *wv, int max) {
  if (n < 7 || max < 4) return 0;
  int k = (int)ctx[2];
  if (k != 0 && k != 4 && k != 8) return 0;
  for (int i = 0; i < 4; i++) {
    j[i] = k + i;
    z[i] = ctx[3 + i];
    wv[i] = ctx[1];
  }
  return 4;
}

static double urs_probe(void *world, int j, double z) {
  UrsDriverHandle *h = handle_of(world);
  g_assert(j >= 0 && j < URS_NCONF);
  UrsWorld *w = h->w;
  int cell = w->fleet[URS_FLEET_ACTUAL].placed ? w->fleet[URS_FLEET_ACTUAL].drivers[h->driver].cell : -1;
  double m = urs_probe_volume(w, cell, w->t);
  w->probes++;
  w->probes_quiet += m < URS_PROBE_VOLUME;
  w->probe_information += fmin(1.0, m / URS_PROBE_VOLUME);
  return urs_probe_reading(&h->probe_rng, w->kappa[j], z, m);
}

static double urs_act(void *world, int a) {
  UrsDriverHandle *h = handle_of(world);
  h->w->action[h->driver] = a;
  return 0;
}

static void urs_step_end(void *world, int t) {
  UrsWorld *w = world_of(world);
  g_assert(w->started && t == w->t); /* exactly once per step, in order */
  w->t = t + 1;
  urs_city_generate(w, t);
  int oracle = urs_graph_slot(w, w->truth_weight);
  for (int d = 0; d < w->n_drivers; d++) {
    w->oracle_slot[d] = oracle;
    if (w->action[d] != 1) continue;
    const double *wt = &w->driver_weight[(size_t)d * URS_NCONF];
    int s = w->driver_slot[d];
    if (s < 0 || !w->gslot[s].used || memcmp(w->gslot[s].weight, wt, sizeof(double) * URS_NCONF))
      w->driver_slot[d] = urs_graph_slot(w, wt);
  }
  for (int d = 0; d < w->n_drivers; d++) /* more distinct graphs in one step than slots would evict one in use */
    g_assert(w->action[d] != 1 || !memcmp(w->gslot[w->driver_slot[d]].weight, &w->driver_weight[(size_t)d * URS_NCONF],
                                          sizeof(double) * URS_NCONF));
  g_assert(!memcmp(w->gslot[oracle].weight, w->truth_weight, sizeof w->truth_weight));
  urs_fleet_step(w, &w->fleet[URS_FLEET_ACTUAL], t, w->action, w->driver_slot);
  urs_fleet_step(w, &w->fleet[URS_FLEET_ORACLE], t, w->oracle_policy, w->oracle_slot);
  urs_fleet_step(w, &w->fleet[URS_FLEET_STAY], t, NULL, NULL);
  urs_fleet_step(w, &w->fleet[URS_FLEET_BASELINE], t, NULL, NULL);
  urs_baseline_step(w, &w->fleet[URS_FLEET_BASELINE], t);
}

static double urs_step_payoff(void *world) {
  UrsDriverHandle *h = handle_of(world);
  return h->w->fleet[URS_FLEET_ACTUAL].payoff[h->driver];
}

static double served_per_driver_step(const UrsWorld *w, int fleet) {
  int steps = w->t > 0 ? w->t : 1;
  return (double)w->fleet[fleet].served / ((double)w->n_drivers * steps);
}

static void urs_truth(void *world, TrvGraph *g) {
  UrsWorld *w = world_of(world);
  trv_graph_clear(g, URS_NCONF);
  for (int j = 0; j < URS_NCONF; j++) {
    g->kappa[j] = w->kappa[j];
    g->present[j] = w->kappa[j] != 0;
  }
}

static double urs_gap(void *world) {
  UrsWorld *w = world_of(world);
  return fmax(0, served_per_driver_step(w, URS_FLEET_ORACLE) - served_per_driver_step(w, URS_FLEET_STAY));
}

static bool urs_task_relevant(void *world, int j) {
  (void)world;
  return urs_confounder_spatial(j);
}

static int urs_plan(void *world, const TrvGraph *ghat) {
  UrsDriverHandle *h = handle_of(world);
  double *wt = &h->w->driver_weight[(size_t)h->driver * URS_NCONF];
  for (int j = 0; j < URS_NCONF; j++) wt[j] = j < ghat->n && ghat->present[j] ? ghat->kappa[j] : 0.0;
  return 1;
}

static double urs_episode_outcome_regret(void *world) {
  UrsWorld *w = world_of(world);
  return (double)(w->fleet[URS_FLEET_ORACLE].served - w->fleet[URS_FLEET_ACTUAL].served);
}

static int urs_episode_metrics(void *world, double *values, int max) {
  UrsWorld *w = world_of(world);
  const UrsFleet *f = &w->fleet[URS_FLEET_ACTUAL];
  double v[8] = {(double)f->served,
                 w->created ? (double)f->served / (double)w->created : 0,
                 f->served ? f->wait_sum / (double)f->served : 0,
                 urs_fleet_wait_p95(f),
                 f->empty_km,
                 (double)w->probes_quiet,
                 w->probes ? w->probe_information / (double)w->probes : 1.0,
                 (double)(w->fleet[URS_FLEET_ORACLE].served - w->fleet[URS_FLEET_BASELINE].served)};
  int n = max < 8 ? max : 8;
  memcpy(values, v, sizeof(double) * n);
  return n;
}

/* A probe by the driver at step t, were it to stay in its current cell:
 * the cell's volume in the slot of minute t over the reference, at most 1. */
static double urs_probe_value_at(void *world, int t) {
  UrsDriverHandle *h = handle_of(world);
  UrsWorld *w = h->w;
  int cell = w->fleet[URS_FLEET_ACTUAL].placed ? w->fleet[URS_FLEET_ACTUAL].drivers[h->driver].cell : -1;
  return fmin(1.0, urs_probe_volume(w, cell, t) / URS_PROBE_VOLUME);
}

static const TrvAgentClass agent_class = {
    .instance = urs_agent_instance,
    .free = urs_free,
    .episode_begin = urs_episode_begin,
    .observe = urs_observe,
    .probe = urs_probe,
    .plan = urs_plan,
    .act = urs_act,
    .step_end = urs_step_end,
    .step_payoff = urs_step_payoff,
    .probe_value_at = urs_probe_value_at,
};

static const TrvRefereeClass referee_class = {
    .truth = urs_truth,
    .gap = urs_gap,
    .task_relevant = urs_task_relevant,
    .change_points = urs_change_points,
    .episode_outcome_regret = urs_episode_outcome_regret,
    .episode_metrics = urs_episode_metrics,
    .metric_names = metric_names,
};

/* A probe by driver a at the episode's start: its cell's volume over the
 * reference, at most 1 (world-city.c: a reading's information). */
static double urs_probe_value(void *world, int a) {
  UrsWorld *w = world_of(world);
  if (a < 0 || a >= w->n_drivers) return 1.0;
  return fmin(1.0, urs_probe_volume(w, w->start_cells[a], 0) / URS_PROBE_VOLUME);
}

static int urs_inputs(void *world, const char **paths, int max) {
  UrsWorld *w = world;
  if (max < 1 || !w->table_path) return 0;
  paths[0] = w->table_path;
  return 1;
}

/* A step is one city minute. */
static double urs_step_seconds(void *world) {
  (void)world;
  return 60.0;
}

const TrvWorldClass trv_world_urs = {
    .name = "urs",
    .init = urs_init,
    .free = urs_free,
    .candidates = urs_candidates,
    .likelihood = TRV_LIKELIHOOD_GAUSSIAN,
    .noise_var = urs_noise_var,
    .episodes = urs_episodes,
    .steps = urs_steps,
    .safe_action = 0,
    .episode_begin = urs_episode_begin,
    .observational_pairs = urs_observational_pairs,
    .agent = &agent_class,
    .referee = &referee_class,
    .inputs = urs_inputs,
    .probe_value = urs_probe_value,
    .step_seconds = urs_step_seconds,
    .params = &trv_urs_params,
    .report = &trv_urs_report,
};
