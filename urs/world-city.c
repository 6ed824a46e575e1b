/* world-city.c - the city of the URS world: the dense cell index over the
 * calibration table's grid, the 12 confounders, the request stream and the
 * cached demand predictions the repositioning policy reads.
 *
 * Confounder j at cell c and step t (docs/urs.md, "The URS world",
 * Confounders), each roughly N(0, 1):
 *   Z_j(c, t) = rho_j B_e + s_j (a_j X_j(c) + b_j Y_j(t)),
 *   s_j = sqrt(1 - rho_j^2), a_j^2 + b_j^2 = 1,
 * where B_e ~ N(0, 1) is the hidden city busyness of the episode, X_j a
 * per-episode cell field standardized over the table's zones and Y_j a
 * per-minute city series (AR(1), the day's weather, or the time-of-day
 * band).  rho_j = URS_CONF_LOADING for the confounders busy days raise
 * (competitor pricing, EV battery drain, traffic incidents, special-event
 * queues), 0 for the others.  Requests of a zone per minute are
 * Poisson(base(zone, slot) exp(sum_j kappa_j Z_j + gamma B_e - norm)), with
 * norm = half the variance of the exponent so that the week's mean demand
 * stays at world.load requests per driver-hour.  Because the exponent is a
 * cell part plus a city-wide time part, one minute's requests are drawn as
 * N ~ Poisson(total) and placed by the per-slot cumulative weights: the
 * cost is O(zones) per 15-minute slot plus O(log zones) per request. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "urs/world-internal.h"

typedef enum { FIELD_NONE, FIELD_SMOOTH, FIELD_EVENT, FIELD_CLOSURE, FIELD_IID, FIELD_AIRPORT } FieldKind;
typedef enum { SERIES_AR1, SERIES_WEATHER, SERIES_TIME_OF_DAY } SeriesKind;

typedef struct {
  FieldKind field;
  SeriesKind series;
  double a;  /* weight of the cell field in the non-busyness part */
  bool busy; /* raised by B_e */
} Confounder;

static const Confounder conf[URS_NCONF] = {
    {FIELD_SMOOTH, SERIES_AR1, 0.8, false},       /* 0 surge multiplier */
    {FIELD_EVENT, SERIES_AR1, 0.8, false},        /* 1 event proximity */
    {FIELD_NONE, SERIES_WEATHER, 0.0, false},     /* 2 weather state */
    {FIELD_NONE, SERIES_TIME_OF_DAY, 0.0, false}, /* 3 time-of-day band */
    {FIELD_CLOSURE, SERIES_AR1, 0.9, false},      /* 4 road closure */
    {FIELD_SMOOTH, SERIES_AR1, 0.9, false},       /* 5 rider-segment mix */
    {FIELD_IID, SERIES_AR1, 0.9, false},          /* 6 driver-experience tier */
    {FIELD_SMOOTH, SERIES_AR1, 0.7, true},        /* 7 competitor pricing */
    {FIELD_IID, SERIES_AR1, 0.6, true},           /* 8 EV battery state */
    {FIELD_SMOOTH, SERIES_AR1, 0.6, true},        /* 9 traffic incident stream */
    {FIELD_AIRPORT, SERIES_AR1, 1.0, false},      /* 10 airport flag */
    {FIELD_EVENT, SERIES_AR1, 0.7, true},         /* 11 special-event queue depth */
};

static const int ring_dq[URS_DISC] = {0, 1, 1, 0, -1, -1, 0, 2, 2, 2, 1, 0, -1, -2, -2, -2, -1, 0, 1};
static const int ring_dr[URS_DISC] = {0, 0, -1, -1, 0, 1, 1, 0, -1, -2, -2, -2, -1, 0, 1, 2, 2, 2, 1};
const int urs_ring_end[URS_RINGS + 1] = {1, 7, 19};

/* rho_j, s_j and b_j of the model above, computed once (they sit in the
 * per-driver, per-step confounder readout). */
static double conf_rho[URS_NCONF], conf_s[URS_NCONF], conf_b[URS_NCONF];

static void conf_init(void) {
  static gsize done = 0;
  if (g_once_init_enter(&done)) {
    for (int j = 0; j < URS_NCONF; j++) {
      conf_rho[j] = conf[j].busy ? URS_CONF_LOADING : 0.0;
      conf_s[j] = sqrt(1.0 - conf_rho[j] * conf_rho[j]);
      conf_b[j] = sqrt(1.0 - conf[j].a * conf[j].a);
    }
    g_once_init_leave(&done, 1);
  }
}

static double rho_of(int j) { return conf_rho[j]; }
static double s_of(int j) { return conf_s[j]; }
static double b_of(int j) { return conf_b[j]; }

bool urs_confounder_spatial(int j) { return conf[j].a > 0; }

int urs_cell_index(const UrsWorld *w, int q, int r) {
  q -= w->qmin;
  r -= w->rmin;
  if (q < 0 || r < 0 || q >= w->nq || r >= w->nr) return -1;
  return q * w->nr + r;
}

void urs_cell_qr(const UrsWorld *w, int idx, int *q, int *r) {
  *q = idx / w->nr + w->qmin;
  *r = idx % w->nr + w->rmin;
}

static void disc_compute(const UrsWorld *w, int idx, int out[URS_DISC]) {
  int q, r;
  urs_cell_qr(w, idx, &q, &r);
  for (int i = 0; i < URS_DISC; i++) out[i] = urs_cell_index(w, q + ring_dq[i], r + ring_dr[i]);
}

static void cell_xy(const UrsWorld *w, int idx, double *x, double *y) {
  int q, r;
  urs_cell_qr(w, idx, &q, &r);
  TrvHexCell c = {q, r};
  trv_hex_cell_center_xy(&w->table->grid, c, x, y);
}

bool urs_city_init(UrsWorld *w, GError **error) {
  conf_init();
  const TrvCalTable *t = w->table;
  const TrvHexGrid *g = &t->grid;
  double lats[2] = {g->lat_min, g->lat_max}, lons[2] = {g->lon_min, g->lon_max};
  int qmin = INT32_MAX, qmax = INT32_MIN, rmin = INT32_MAX, rmax = INT32_MIN;
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 2; k++) {
      TrvHexCell c = trv_hex_cell_of_point(g, lats[i], lons[k]);
      qmin = MIN(qmin, c.q), qmax = MAX(qmax, c.q), rmin = MIN(rmin, c.r), rmax = MAX(rmax, c.r);
    }
  w->qmin = qmin - URS_RINGS - 1;
  w->rmin = rmin - URS_RINGS - 1;
  int64_t nq = (int64_t)qmax - qmin + 2 * URS_RINGS + 3, nr = (int64_t)rmax - rmin + 2 * URS_RINGS + 3;
  if (nq * nr > URS_MAX_CELLS) { /* a table's box and cell size are data: bound what they cost */
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "calibration table of %s: its grid box holds %" G_GINT64_FORMAT " cells of %g km^2; the world "
                "takes at most %d (a larger cell size or a smaller box)",
                t->city, nq * nr, g->cell_km2, URS_MAX_CELLS);
    return false;
  }
  w->nq = (int)nq;
  w->nr = (int)nr;
  w->ncells = w->nq * w->nr;
  w->spacing_km = trv_hex_spacing_km(g);
  w->zone_of_cell = g_new(int, w->ncells);
  for (int i = 0; i < w->ncells; i++) w->zone_of_cell[i] = -1;
  w->disc_of_cell = g_new(int, (size_t)w->ncells *URS_DISC);
  for (int i = 0; i < w->ncells; i++) disc_compute(w, i, &w->disc_of_cell[(size_t)i * URS_DISC]);
  w->nzones = (int)t->zones->len;
  if (w->nzones == 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "calibration table of %s has no zones with demand", t->city);
    return false;
  }
  w->zone_cell = g_new(int, w->nzones);
  w->zone_x = g_new(double, w->nzones);
  w->zone_y = g_new(double, w->nzones);
  double week = 0;
  for (int z = 0; z < w->nzones; z++) {
    const TrvZoneDemand *zd = &g_array_index(t->zones, TrvZoneDemand, z);
    int idx = urs_cell_index(w, zd->cell.q, zd->cell.r);
    g_assert(idx >= 0); /* the reader checked zones lie in the grid's box */
    w->zone_cell[z] = idx;
    w->zone_of_cell[idx] = z;
    trv_hex_cell_center_xy(g, zd->cell, &w->zone_x[z], &w->zone_y[z]);
    for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++) week += zd->rate[s];
  }
  w->disc_zone_of_cell = g_new(int, (size_t)w->ncells *URS_DISC);
  for (size_t i = 0; i < (size_t)w->ncells * URS_DISC; i++)
    w->disc_zone_of_cell[i] = w->disc_of_cell[i] < 0 ? -1 : w->zone_of_cell[w->disc_of_cell[i]];
  week /= TRV_SLOTS_PER_WEEK; /* city-wide requests per hour, mean over the week */
  if (!(week > 0)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "calibration table of %s has no demand", t->city);
    return false;
  }
  w->rate_scale = w->p.load * w->n_drivers / week / 60.0;
  /* OD matrix by origin zone, cumulative counts */
  w->od_start = g_new0(int, w->nzones + 1);
  w->od_dest = g_new(int, MAX(1u, t->od->len));
  w->od_cum = g_new(double, MAX(1u, t->od->len));
  for (guint i = 0; i < t->od->len; i++) w->od_start[g_array_index(t->od, TrvOdEntry, i).origin + 1]++;
  for (int z = 0; z < w->nzones; z++) w->od_start[z + 1] += w->od_start[z];
  for (guint i = 0; i < t->od->len; i++) { /* sorted by (origin, destination) */
    const TrvOdEntry *o = &g_array_index(t->od, TrvOdEntry, i);
    bool first = (int)i == w->od_start[o->origin];
    w->od_dest[i] = o->destination;
    w->od_cum[i] = (first ? 0 : w->od_cum[i - 1]) + o->count;
  }
  w->has_durations = trv_histogram_total(&t->duration_s) > 0;
  for (int i = 0; i <= URS_QUANTILES; i++)
    w->dur_q[i] = w->has_durations ? trv_histogram_quantile(&t->duration_s, (double)i / URS_QUANTILES) / 60.0 : 0;
  /* weather: log(1 + rain mm) standardized over the table's days, as the
   * effect estimates standardize it (caleffects.c) */
  w->n_weather = (int)t->weather->len;
  w->weather_z = g_new0(double, MAX(1, w->n_weather));
  double mean, sd, temp_mean, temp_sd;
  trv_cal_weather_index(t, &mean, &sd, &temp_mean, &temp_sd);
  for (int k = 0; k < 7; k++) w->weather_by_weekday[k] = g_array_new(FALSE, FALSE, sizeof(int));
  for (int i = 0; i < w->n_weather; i++) {
    const TrvWeatherDay *d = &g_array_index(t->weather, TrvWeatherDay, i);
    w->weather_z[i] = isnan(d->rain_mm) || sd <= 0 ? 0 : (log1p(d->rain_mm) - mean) / sd;
    if (!g_date_valid_dmy(d->day, d->month, d->year)) continue;
    GDate *date = g_date_new_dmy(d->day, d->month, d->year);
    int wd = g_date_get_weekday(date) - G_DATE_MONDAY; /* slot 0 is Monday */
    g_date_free(date);
    g_array_append_val(w->weather_by_weekday[wd], i);
  }
  /* The effects the table estimated, in the world's units: rain and the
   * time-of-day band per standard deviation of their index, as Z_2 and Z_3
   * are; the airport coefficient is a log ratio between airport zones and
   * the others, and Z_10 is the flag standardized over the zones, so
   * kappa_10 = beta_airport x sd(flag). */
  int flagged = 0;
  for (int z = 0; z < w->nzones; z++)
    flagged += trv_cal_table_airport_cell(t, g_array_index(t->zones, TrvZoneDemand, z).cell);
  double share = (double)flagged / w->nzones;
  urs_probe_reference(w);
  const struct {
    int j, effect;
    double unit;
  } grounded[] = {
      {2, TRV_EFFECT_RAIN, 1.0}, {3, TRV_EFFECT_TIME_OF_DAY, 1.0}, {10, TRV_EFFECT_AIRPORT, sqrt(share * (1 - share))}};
  for (size_t i = 0; i < G_N_ELEMENTS(grounded); i++) {
    const TrvEffect *e = &t->effects[grounded[i].effect];
    double k = e->estimated ? e->estimate * grounded[i].unit : 0;
    w->table_kappa[grounded[i].j] = fabs(k) >= w->p.effect_floor && k != 0 ? k : 0;
  }
  /* travel times: the table's estimates of the pairs with trips (shrunk
   * toward the band's line), the line for the others */
  w->travel = w->p.travel == 0 && t->travel;
  if (w->travel) {
    const TrvTravel *tr = t->travel;
    memcpy(w->travel_a, tr->a, sizeof w->travel_a);
    memcpy(w->travel_b, tr->b, sizeof w->travel_b);
    w->travel_pairs = (const TrvTravelPair *)(const void *)tr->pairs->data;
    w->n_travel_pairs = (int)tr->pairs->len;
    w->travel_min = g_new(double, MAX(1, w->n_travel_pairs));
    for (int i = 0; i < w->n_travel_pairs; i++) {
      const TrvTravelPair *p = &w->travel_pairs[i];
      double km = trv_travel_km(t, g_array_index(t->zones, TrvZoneDemand, p->origin).cell,
                                g_array_index(t->zones, TrvZoneDemand, p->destination).cell);
      w->travel_min[i] = trv_travel_estimate(tr, p->band, km, p->trips, p->mean_min);
    }
  }
  w->zone_field = g_new0(double, (size_t)w->nzones *URS_NCONF);
  w->true_exp_a = g_new(double, w->nzones);
  w->cum = g_new(double, w->nzones);
  w->zone_rate = g_new(double, w->nzones);
  w->cell_field = g_new(double, (size_t)w->ncells *URS_NCONF);
  w->cell_field_serial = g_new0(uint64_t, w->ncells);
  w->series = g_new0(double, (size_t)w->steps *URS_NCONF);
  w->cell_count = g_new0(int, w->ncells);
  w->cell_count_step = g_new(int, w->ncells);
  for (int i = 0; i < w->ncells; i++) w->cell_count_step[i] = -1;
  w->requests = g_array_sized_new(FALSE, FALSE, sizeof(UrsRequest), 4096);
  return true;
}

void urs_city_free(UrsWorld *w) {
  g_free(w->zone_of_cell);
  g_free(w->disc_of_cell);
  g_free(w->disc_zone_of_cell);
  g_free(w->zone_cell);
  g_free(w->zone_x);
  g_free(w->zone_mean_rate);
  g_free(w->travel_min);
  g_free(w->cell_probe_rate);
  g_free(w->zone_y);
  g_free(w->od_start);
  g_free(w->od_dest);
  g_free(w->od_cum);
  g_free(w->weather_z);
  for (int k = 0; k < 7; k++)
    if (w->weather_by_weekday[k]) g_array_free(w->weather_by_weekday[k], TRUE);
  g_free(w->zone_field);
  g_free(w->true_exp_a);
  g_free(w->cum);
  g_free(w->zone_rate);
  g_free(w->cell_field);
  g_free(w->cell_field_serial);
  g_free(w->series);
  g_free(w->cell_count);
  g_free(w->cell_count_step);
  if (w->requests) g_array_free(w->requests, TRUE);
  for (int s = 0; s < URS_GRAPH_SLOTS; s++) {
    g_free(w->gslot[s].exp_a);
    g_free(w->gslot[s].exp_stamp);
    g_free(w->gslot[s].disc);
    g_free(w->gslot[s].disc_stamp);
  }
}

/* A standard normal that is a function of (seed, episode, j, cell) alone. */
static double cell_normal(const UrsWorld *w, int j, int cell) {
  TrvRng r;
  trv_rng_init(&r, w->seed, ((uint64_t)(w->episode + 1) << 40) ^ ((uint64_t)(j + 1) << 32) ^ (uint32_t)cell);
  return trv_rng_normal(&r);
}

/* The unstandardized cell field X_j at a cell whose centre is (x, y) km. */
static double field_raw(const UrsWorld *w, int j, int cell, double x, double y) {
  double v = 0;
  switch (conf[j].field) {
    case FIELD_NONE: return 0;
    case FIELD_IID: return cell_normal(w, j, cell);
    case FIELD_AIRPORT: {
      int q, r;
      urs_cell_qr(w, cell, &q, &r);
      return trv_cal_table_airport_cell(w->table, (TrvHexCell){q, r});
    }
    case FIELD_SMOOTH:
    case FIELD_EVENT:
    case FIELD_CLOSURE: {
      int nb = conf[j].field == FIELD_SMOOTH ? URS_BUMPS : conf[j].field == FIELD_CLOSURE ? 3 : 1;
      double len = conf[j].field == FIELD_SMOOTH ? 0.6 : conf[j].field == FIELD_CLOSURE ? 0.5 : 1.0;
      for (int k = 0; k < nb; k++) {
        double dx = x - w->centre[j][k][0], dy = y - w->centre[j][k][1], d2 = dx * dx + dy * dy;
        if (d2 < 16 * len * len) v += w->centre[j][k][2] * exp(-d2 / (2 * len * len));
      }
      return v;
    }
  }
  g_assert_not_reached();
}

/* The standardized fields X_j of a cell: its zone's, or, outside the zones,
 * computed from the episode's bumps when the cell is first read in the
 * episode (drivers read their cell's every minute). */
static const double *cell_fields(UrsWorld *w, int cell) {
  int z = w->zone_of_cell[cell];
  if (z >= 0) return &w->zone_field[(size_t)z * URS_NCONF];
  double *out = &w->cell_field[(size_t)cell * URS_NCONF];
  if (w->cell_field_serial[cell] == w->serial) return out;
  double x, y;
  cell_xy(w, cell, &x, &y);
  for (int j = 0; j < URS_NCONF; j++)
    out[j] = conf[j].field == FIELD_NONE || w->field_sd[j] <= 0
                 ? 0
                 : (field_raw(w, j, cell, x, y) - w->field_mean[j]) / w->field_sd[j];
  w->cell_field_serial[cell] = w->serial;
  return out;
}

void urs_city_episode(UrsWorld *w) {
  TrvRng *rng = &w->rng;
  trv_rng_init(rng, w->seed, TRV_STREAM_WORLD + 1000 * (uint64_t)(w->episode + 1));
  w->start_minute = (int)trv_rng_below(rng, 7 * 24 * 60);
  w->busy = trv_rng_normal(rng);
  GArray *days = w->weather_by_weekday[w->start_minute / (24 * 60)];
  w->weather_now =
      days->len ? w->weather_z[g_array_index(days, int, trv_rng_below(rng, days->len))] : trv_rng_normal(rng);
  /* bump centres at random zones; the two event confounders share the event */
  int event_zone = (int)trv_rng_below(rng, w->nzones);
  for (int j = 0; j < URS_NCONF; j++)
    for (int k = 0; k < URS_BUMPS; k++) {
      int z = conf[j].field == FIELD_EVENT && k == 0 ? event_zone : (int)trv_rng_below(rng, w->nzones);
      w->centre[j][k][0] = w->zone_x[z];
      w->centre[j][k][1] = w->zone_y[z];
      w->centre[j][k][2] = conf[j].field == FIELD_SMOOTH ? trv_rng_normal(rng) : 1.0;
    }
  for (int j = 0; j < URS_NCONF; j++) {
    double sum = 0, sum2 = 0;
    for (int z = 0; z < w->nzones; z++) {
      double v = field_raw(w, j, w->zone_cell[z], w->zone_x[z], w->zone_y[z]);
      w->zone_field[(size_t)z * URS_NCONF + j] = v;
      sum += v, sum2 += v * v;
    }
    double mean = sum / w->nzones, var = sum2 / w->nzones - mean * mean;
    w->field_mean[j] = mean;
    w->field_sd[j] = var > 1e-12 ? sqrt(var) : 0;
    for (int z = 0; z < w->nzones; z++) {
      double *v = &w->zone_field[(size_t)z * URS_NCONF + j];
      *v = w->field_sd[j] > 0 ? (*v - mean) / w->field_sd[j] : 0;
    }
  }
  /* time parts */
  for (int j = 0; j < URS_NCONF; j++) {
    double y = trv_rng_normal(rng), phi = 0.97;
    for (int t = 0; t < w->steps; t++) {
      double v = 0;
      switch (conf[j].series) {
        case SERIES_AR1: v = y, y = phi * y + sqrt(1 - phi * phi) * trv_rng_normal(rng); break;
        case SERIES_WEATHER: v = w->weather_now; break;
        case SERIES_TIME_OF_DAY: v = trv_urs_time_of_day_index((w->start_minute + t) / 60 % 24); break;
      }
      w->series[(size_t)t * URS_NCONF + j] = v;
    }
  }
  for (int z = 0; z < w->nzones; z++) {
    double a = 0;
    for (int j = 0; j < URS_NCONF; j++)
      a += w->kappa[j] * s_of(j) * conf[j].a * w->zone_field[(size_t)z * URS_NCONF + j];
    w->true_exp_a[z] = exp(a);
  }
  w->slot = -1;
  w->era++;
  g_array_set_size(w->requests, 0);
  w->created = 0;
}

double urs_confounders(UrsWorld *w, int cell, int t, double z[URS_NCONF]) {
  const double *x = cell_fields(w, cell), *y = &w->series[(size_t)t * URS_NCONF];
  double v = w->p.busyness * w->busy;
  for (int j = 0; j < URS_NCONF; j++) {
    z[j] = rho_of(j) * w->busy + s_of(j) * (conf[j].a * x[j] + b_of(j) * y[j]);
    v += w->kappa[j] * z[j];
  }
  return v;
}

/* log of the city-wide time factor of minute t under the true graph. */
static double true_time_part(const UrsWorld *w, int t) {
  double gamma = w->p.busyness, load = gamma, var = 0, c = gamma * w->busy;
  for (int j = 0; j < URS_NCONF; j++) {
    c += w->kappa[j] * (rho_of(j) * w->busy + s_of(j) * b_of(j) * w->series[(size_t)t * URS_NCONF + j]);
    load += w->kappa[j] * rho_of(j);
    var += w->kappa[j] * w->kappa[j] * s_of(j) * s_of(j);
  }
  return c - 0.5 * (load * load + var);
}

static int search_cum(const double *cum, int n, double u) {
  int lo = 0, hi = n - 1; /* first i with cum[i] > u */
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (cum[mid] > u)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

void urs_city_generate(UrsWorld *w, int t) {
  int slot = (w->start_minute + t) / 15 % TRV_SLOTS_PER_WEEK;
  if (slot != w->slot) {
    w->slot = slot;
    w->era++;
    for (int z = 0; z < w->nzones; z++)
      w->zone_rate[z] = g_array_index(w->table->zones, TrvZoneDemand, z).rate[slot] * w->rate_scale;
    double acc = 0;
    for (int z = 0; z < w->nzones; z++) w->cum[z] = acc += urs_zone_base(w, z) * w->true_exp_a[z];
    w->cum_total = acc;
  }
  if (!(w->cum_total > 0)) return;
  uint64_t n = urs_poisson(&w->rng, w->cum_total * exp(true_time_part(w, t)));
  for (uint64_t i = 0; i < n; i++) {
    int z = search_cum(w->cum, w->nzones, trv_rng_uniform(&w->rng) * w->cum_total), dz;
    int a = w->od_start[z], b = w->od_start[z + 1];
    if (b > a)
      dz = w->od_dest[a + search_cum(w->od_cum + a, b - a, trv_rng_uniform(&w->rng) * w->od_cum[b - 1])];
    else
      dz = search_cum(w->cum, w->nzones, trv_rng_uniform(&w->rng) * w->cum_total); /* no OD row: demand-weighted */
    UrsRequest r = {.origin = w->zone_cell[z], .dest = w->zone_cell[dz], .created = t};
    double minutes;
    if (w->has_durations) {
      int k = (int)trv_rng_below(&w->rng, URS_QUANTILES);
      minutes = w->dur_q[k] + trv_rng_uniform(&w->rng) * (w->dur_q[k + 1] - w->dur_q[k]);
    } else {
      int oq, or_, dq, dr;
      urs_cell_qr(w, r.origin, &oq, &or_);
      urs_cell_qr(w, r.dest, &dq, &dr);
      TrvHexCell o = {oq, or_}, d = {dq, dr};
      minutes = trv_hex_distance(o, d) * w->spacing_km * URS_ROUTE_FACTOR / URS_SG_SPEED_KMH * 60.0;
    }
    /* with travel times the trip takes its pair's; the draws above are made
     * either way, so that both read the same request stream */
    r.trip = w->travel ? urs_travel_trip_minutes(w, z, dz, t) : MAX(1, (int)lround(minutes));
    g_array_append_val(w->requests, r);
    if (w->cell_count_step[r.origin] != t) w->cell_count_step[r.origin] = t, w->cell_count[r.origin] = 0;
    w->cell_count[r.origin]++;
  }
  w->created += (int64_t)n;
}

static int band_at(const UrsWorld *w, int t) { return trv_travel_band_of_hour((w->start_minute + t) / 60 % 24); }

int urs_travel_trip_minutes(const UrsWorld *w, int origin_zone, int dest_zone, int t) {
  int band = band_at(w, t), lo = 0, hi = w->n_travel_pairs;
  while (lo < hi) { /* the first pair at or after (origin, destination, band) */
    int mid = (lo + hi) / 2;
    const TrvTravelPair *p = &w->travel_pairs[mid];
    bool before = p->origin != origin_zone      ? p->origin < origin_zone
                  : p->destination != dest_zone ? p->destination < dest_zone
                                                : p->band < band;
    if (before)
      lo = mid + 1;
    else
      hi = mid;
  }
  double minutes;
  const TrvTravelPair *p = lo < w->n_travel_pairs ? &w->travel_pairs[lo] : NULL;
  if (p && p->origin == origin_zone && p->destination == dest_zone && p->band == band)
    minutes = w->travel_min[lo];
  else
    minutes = w->travel_a[band] + w->travel_b[band] * hypot(w->zone_x[origin_zone] - w->zone_x[dest_zone],
                                                            w->zone_y[origin_zone] - w->zone_y[dest_zone]);
  return MAX(1, (int)lround(minutes));
}

/* An empty leg drives the line's minutes per km only: the intercept is a
 * trip's own overhead (boarding, paying, the first and last blocks). */
int urs_travel_empty_minutes(const UrsWorld *w, int rings, int t) {
  if (rings <= 0) return 0;
  if (!w->travel) return rings;
  double minutes = w->travel_b[band_at(w, t)] * rings * w->spacing_km;
  return MIN(URS_MAX_EMPTY_MIN, MAX(1, (int)lround(minutes)));
}

int urs_graph_slot(UrsWorld *w, const double weight[URS_NCONF]) {
  int pick = -1;
  for (int s = 0; s < URS_GRAPH_SLOTS; s++) {
    UrsGraphSlot *g = &w->gslot[s];
    if (g->used && !memcmp(g->weight, weight, sizeof g->weight)) {
      g->last_use = w->era;
      return s;
    }
    if (pick < 0 || !g->used || (w->gslot[pick].used && g->last_use < w->gslot[pick].last_use)) pick = s;
  }
  UrsGraphSlot *g = &w->gslot[pick];
  if (!g->exp_a) {
    g->exp_a = g_new(double, w->nzones);
    g->exp_stamp = g_new(uint64_t, w->nzones);
    g->disc = g_new(double, w->ncells);
    g->disc_stamp = g_new(uint64_t, w->ncells);
  }
  memset(g->exp_stamp, 0, sizeof(uint64_t) * w->nzones);
  memset(g->disc_stamp, 0, sizeof(uint64_t) * w->ncells);
  memcpy(g->weight, weight, sizeof g->weight);
  g->used = true;
  g->last_use = w->era;
  return pick;
}

double urs_predict_score_compute(UrsWorld *w, int slot, int cell) {
  UrsGraphSlot *g = &w->gslot[slot];
  const int *zones = &w->disc_zone_of_cell[(size_t)cell * URS_DISC];
  double sum = 0;
  for (int i = 0; i < URS_DISC; i++) {
    int z = zones[i];
    if (z < 0) continue;
    if (g->exp_stamp[z] != w->serial) {
      double a = 0;
      for (int j = 0; j < URS_NCONF; j++)
        if (g->weight[j] != 0) a += g->weight[j] * s_of(j) * conf[j].a * w->zone_field[(size_t)z * URS_NCONF + j];
      g->exp_a[z] = exp(a);
      g->exp_stamp[z] = w->serial;
    }
    sum += (i == 0 ? 1.0 : URS_DISC_WEIGHT) * urs_zone_base(w, z) * g->exp_a[z];
  }
  g->disc[cell] = sum;
  g->disc_stamp[cell] = w->era;
  return sum;
}
