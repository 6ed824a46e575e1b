/* effects.c - the effects of time of day, airports, weekends, rain and
 * temperature on zone demand, estimated from a trace at import.
 *
 * The importers report each counted request with its local time and cell
 * (trv_effects_add_demand) and the hours of data behind each 15-minute
 * slot of each local day (trv_effects_add_exposure); trv_effects_estimate
 * then fits the Poisson regression (urs/poisson.c)
 *
 *   count(day, slot, g) ~ Poisson(hours(day, slot) * zones(g) *
 *       exp(b0 + b_tod tod(slot) + b_air g + b_wkd weekend(day)
 *           + b_rain rain(day) + b_temp temp(day)))
 *
 * where g says whether the zones lie within TRV_URS_AIRPORT_KM of an
 * airport, tod is the URS world's time-of-day band index and rain, temp
 * are the day's log(1 + mm) and mean temperature standardized over the
 * table's weather days, as the world standardizes them: an estimate is the
 * world's effect in the world's units (caleffects.c).  Counts of zones
 * with equal covariates are pooled; that changes neither the estimates
 * nor their standard errors, which come from the inverse Fisher
 * information.  They assume Poisson counts; the Pearson dispersion is
 * stored beside them (stat effects_pearson_dispersion) for the reader who
 * wants quasi-Poisson errors (se * sqrt(dispersion)).
 *
 * An effect the trace cannot identify is left unestimated, with the
 * reason: a day-level effect (weekend, rain, temperature) needs at least
 * TRV_EFFECTS_MIN_DAYS days of trace, since with fewer each day's own
 * circumstances stand in for the covariate and the Poisson error, which
 * counts requests and not days, would hide that; rain and temperature
 * need weather on those days, varying; airports need demand both in
 * airport zones and elsewhere.  A covariate that turns out collinear with
 * the others is dropped and said so.  Deterministic: rows are built in
 * key order, not hash order.  Once the fit stands, the requests of its
 * rows summed per day, band and airport flag (the design, import.h) go to
 * effects-spread.c, which measures how far each estimate moves with the
 * days behind it. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "urs/import.h"
#include "urs/poisson.h"

static gint64 *new_key(gint64 v) {
  gint64 *k = g_new(gint64, 1);
  *k = v;
  return k;
}

static void add_to(GHashTable **h, gint64 key, double amount) {
  if (!*h) *h = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
  double *v = g_hash_table_lookup(*h, &key);
  if (!v) {
    v = g_new0(double, 1);
    g_hash_table_insert(*h, new_key(key), v);
  }
  *v += amount;
}

static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

void trv_effects_add_demand(TrvCalTable *t, TrvHexCell cell, int64_t local_seconds, double count) {
  int64_t day = floor_div(local_seconds, 86400), slot = (local_seconds - day * 86400) / 900;
  gint64 key = ((day * TRV_SLOTS_PER_DAY + slot) << 1) | (trv_cal_table_airport_cell(t, cell) ? 1 : 0);
  add_to(&t->fit_counts, key, count);
}

void trv_effects_add_exposure(TrvCalTable *t, int64_t local_seconds, double hours) {
  int64_t day = floor_div(local_seconds, 86400), slot = (local_seconds - day * 86400) / 900;
  add_to(&t->fit_exposure, day * TRV_SLOTS_PER_DAY + slot, hours);
}

static int compare_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

typedef struct {
  int64_t day;
  bool weekend;
  double rain, temp; /* standardized; NAN when the weather table has no value that day */
} Day;

enum { K = TRV_EFFECT_COUNT }; /* covariates: one per effect, the intercept first */

/* year * 12 + month - 1 of a count of days since 1970-01-01 (proleptic
 * Gregorian; the inverse of trv_days_from_civil). */
static int month_of_day(int64_t z) {
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  int64_t m = mp < 10 ? mp + 3 : mp - 9;
  int64_t y = yoe + era * 400 + (m <= 2);
  return (int)(y * 12 + m - 1);
}

/* The design of the fit (import.h): its days with their requests summed
 * per band and airport flag, over the rows the fit used. */
static void build_design(const TrvCalTable *t, const int64_t *keys, guint n, const GArray *days, const bool *use,
                         const int *cols, int p, const int zones[2], TrvEffectsDesign *d) {
  memset(d, 0, sizeof *d);
  d->p = p;
  memcpy(d->cols, cols, sizeof(int) * p);
  d->split = use[TRV_EFFECT_AIRPORT];
  d->zones[0] = zones[0], d->zones[1] = zones[1];
  for (int h = 0; h < 24; h++) {
    double v = trv_urs_time_of_day_index(h);
    int b = 0;
    while (b < d->n_bands && d->band_value[b] != v) b++;
    if (b == d->n_bands) d->band_value[d->n_bands++] = v;
  }
  d->days = g_new0(TrvEffectsDay, days->len);
  guint di = 0;
  for (guint i = 0; i < n; i++) {
    int64_t day = floor_div(keys[i], TRV_SLOTS_PER_DAY);
    while (g_array_index(days, Day, di).day != day) di++;
    const Day *dd = &g_array_index(days, Day, di);
    if ((use[TRV_EFFECT_RAIN] && isnan(dd->rain)) || (use[TRV_EFFECT_TEMPERATURE] && isnan(dd->temp))) continue;
    if (!d->n_days || d->days[d->n_days - 1].day != day)
      d->days[d->n_days++] = (TrvEffectsDay){
          .day = day, .month = month_of_day(day), .weekend = dd->weekend, .rain = dd->rain, .temp = dd->temp};
    TrvEffectsDay *e = &d->days[d->n_days - 1];
    int b = trv_effects_band(d, (int)(keys[i] % TRV_SLOTS_PER_DAY / 4));
    e->hours[b] += *(double *)g_hash_table_lookup(t->fit_exposure, &keys[i]);
    for (int h = 0; h < 2; h++) {
      gint64 ck = (keys[i] << 1) | h;
      double *c = g_hash_table_lookup(t->fit_counts, &ck);
      e->count[b][h] += c ? *c : 0;
    }
  }
}

void trv_effects_estimate(TrvCalTable *t) {
  for (int k = 0; k < K; k++) trv_cal_table_set_effect(t, k, false, NAN, NAN, "no demand counted");
  guint n_slots = t->fit_exposure ? g_hash_table_size(t->fit_exposure) : 0;
  if (!n_slots || !t->fit_counts) return;
  /* (day, slot) keys with exposure, in order */
  int64_t *keys = g_new(int64_t, n_slots);
  GHashTableIter it;
  gpointer key, value;
  guint n = 0;
  g_hash_table_iter_init(&it, t->fit_exposure);
  while (g_hash_table_iter_next(&it, &key, &value))
    if (*(double *)value > 0) keys[n++] = *(gint64 *)key;
  qsort(keys, n, sizeof *keys, compare_i64);
  /* the days, with their weather */
  double rain_mean, rain_sd, temp_mean, temp_sd;
  trv_cal_weather_index(t, &rain_mean, &rain_sd, &temp_mean, &temp_sd);
  GHashTable *weather_of = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < t->weather->len; i++) {
    const TrvWeatherDay *w = &g_array_index(t->weather, TrvWeatherDay, i);
    g_hash_table_insert(weather_of, new_key(trv_days_from_civil(w->year, w->month, w->day)), (gpointer)w);
  }
  GArray *days = g_array_new(FALSE, FALSE, sizeof(Day));
  int n_weekend = 0, rain_days = 0, temp_days = 0;
  double rain_lo = INFINITY, rain_hi = -INFINITY, temp_lo = INFINITY, temp_hi = -INFINITY;
  for (guint i = 0; i < n; i++) {
    int64_t day = floor_div(keys[i], TRV_SLOTS_PER_DAY);
    if (days->len && g_array_index(days, Day, days->len - 1).day == day) continue;
    int weekday = (int)(((day + 3) % 7 + 7) % 7); /* Monday 0; 1970-01-01 was a Thursday */
    Day d = {day, weekday >= 5, NAN, NAN};
    const TrvWeatherDay *w = g_hash_table_lookup(weather_of, &day);
    if (w && !isnan(w->rain_mm) && rain_sd > 0) d.rain = (log1p(w->rain_mm) - rain_mean) / rain_sd;
    if (w && !isnan(w->tmax_c) && !isnan(w->tmin_c) && temp_sd > 0)
      d.temp = ((w->tmax_c + w->tmin_c) / 2 - temp_mean) / temp_sd;
    n_weekend += d.weekend;
    if (!isnan(d.rain)) rain_days++, rain_lo = fmin(rain_lo, d.rain), rain_hi = fmax(rain_hi, d.rain);
    if (!isnan(d.temp)) temp_days++, temp_lo = fmin(temp_lo, d.temp), temp_hi = fmax(temp_hi, d.temp);
    g_array_append_val(days, d);
  }
  g_hash_table_destroy(weather_of);
  int n_days = (int)days->len;
  /* zones and demand by airport flag */
  int zones[2] = {0, 0};
  double demand[2] = {0, 0};
  for (guint z = 0; z < t->zones->len; z++)
    zones[trv_cal_table_airport_cell(t, g_array_index(t->zones, TrvZoneDemand, z).cell)]++;
  g_hash_table_iter_init(&it, t->fit_counts);
  while (g_hash_table_iter_next(&it, &key, &value)) demand[*(gint64 *)key & 1] += *(double *)value;
  /* which covariates the trace can identify */
  bool use[K] = {true, true, true, true, true, true};
  char *why[K] = {NULL};
  char *few_days = g_strdup_printf("%d day%s of trace; a day-level effect needs at least %d (each weekday %d times)",
                                   n_days, n_days == 1 ? "" : "s", TRV_EFFECTS_MIN_DAYS, TRV_EFFECTS_MIN_DAYS / 7);
  double tod_lo = INFINITY, tod_hi = -INFINITY;
  for (guint i = 0; i < n; i++) {
    double v = trv_urs_time_of_day_index((int)(keys[i] % TRV_SLOTS_PER_DAY / 4));
    tod_lo = fmin(tod_lo, v), tod_hi = fmax(tod_hi, v);
  }
  if (!(tod_hi > tod_lo)) why[TRV_EFFECT_TIME_OF_DAY] = g_strdup("the trace covers a single time-of-day band");
  if (!zones[1] || !demand[1])
    why[TRV_EFFECT_AIRPORT] =
        g_strdup_printf("no demand within %g km of an airport of %s", TRV_URS_AIRPORT_KM, t->city);
  else if (!zones[0] || !demand[0])
    why[TRV_EFFECT_AIRPORT] = g_strdup_printf("all demand within %g km of an airport", TRV_URS_AIRPORT_KM);
  if (!n_weekend || n_weekend == n_days)
    why[TRV_EFFECT_WEEKEND] =
        n_days == 1
            ? g_strdup_printf("the trace's only day is a %s", n_weekend ? "weekend day" : "weekday")
            : g_strdup_printf("the trace's %d days are all %s", n_days, n_weekend ? "weekend days" : "weekdays");
  else if (n_days < TRV_EFFECTS_MIN_DAYS)
    why[TRV_EFFECT_WEEKEND] = g_strdup(few_days);
  if (!rain_days)
    why[TRV_EFFECT_RAIN] =
        g_strdup_printf("the weather table reports rain on none of the trace's %d day%s (its days serve as "
                        "climatology)",
                        n_days, n_days == 1 ? "" : "s");
  else if (!(rain_hi > rain_lo))
    why[TRV_EFFECT_RAIN] = g_strdup_printf("the same rain on all %d day%s of the trace with weather", rain_days,
                                           rain_days == 1 ? "" : "s");
  else if (rain_days < TRV_EFFECTS_MIN_DAYS)
    why[TRV_EFFECT_RAIN] = g_strdup(few_days);
  if (!temp_days)
    why[TRV_EFFECT_TEMPERATURE] = g_strdup_printf("the weather table reports temperatures on none of the trace's %d "
                                                  "day%s",
                                                  n_days, n_days == 1 ? "" : "s");
  else if (!(temp_hi > temp_lo))
    why[TRV_EFFECT_TEMPERATURE] = g_strdup("the same temperature on every day of the trace with weather");
  else if (temp_days < TRV_EFFECTS_MIN_DAYS)
    why[TRV_EFFECT_TEMPERATURE] = g_strdup(few_days);
  for (int k = 0; k < K; k++) use[k] = !why[k];
  /* the rows, pooled by (day, slot, airport flag); fitted, dropping a
   * collinear day-level covariate (the last one first) until the fit is
   * regular */
  TrvPoissonFit fit;
  TrvPoissonStatus status;
  int cols[K], p;
  size_t rows;
  for (;;) {
    p = 0;
    for (int k = 0; k < K; k++)
      if (use[k]) cols[p++] = k;
    double *x = g_new(double, (size_t)n * 2 * p), *y = g_new(double, (size_t)n * 2),
           *off = g_new(double, (size_t)n * 2);
    rows = 0;
    guint di = 0;
    for (guint i = 0; i < n; i++) {
      int64_t day = floor_div(keys[i], TRV_SLOTS_PER_DAY);
      while (g_array_index(days, Day, di).day != day) di++;
      const Day *d = &g_array_index(days, Day, di);
      if ((use[TRV_EFFECT_RAIN] && isnan(d->rain)) || (use[TRV_EFFECT_TEMPERATURE] && isnan(d->temp))) continue;
      double hours = *(double *)g_hash_table_lookup(t->fit_exposure, &keys[i]);
      bool split = use[TRV_EFFECT_AIRPORT]; /* else one row pooled over every zone */
      for (int g = 0; g < (split ? 2 : 1); g++) {
        double count = 0, nz = 0;
        for (int h = 0; h < 2; h++) {
          if (split && h != g) continue;
          gint64 ck = (keys[i] << 1) | h;
          double *c = g_hash_table_lookup(t->fit_counts, &ck);
          count += c ? *c : 0;
          nz += zones[h];
        }
        if (!(nz > 0)) continue;
        double v[K] = {
            1, trv_urs_time_of_day_index((int)(keys[i] % TRV_SLOTS_PER_DAY / 4)), g, d->weekend, d->rain, d->temp};
        for (int c = 0; c < p; c++) x[rows * p + c] = v[cols[c]];
        y[rows] = count;
        off[rows] = log(hours * nz);
        rows++;
      }
    }
    status = trv_poisson_fit(x, y, off, rows, p, &fit);
    g_free(x), g_free(y), g_free(off);
    if (status != TRV_POISSON_SINGULAR) break;
    int drop = use[TRV_EFFECT_TEMPERATURE] ? TRV_EFFECT_TEMPERATURE
               : use[TRV_EFFECT_RAIN]      ? TRV_EFFECT_RAIN
               : use[TRV_EFFECT_WEEKEND]   ? TRV_EFFECT_WEEKEND
                                           : -1;
    if (drop < 0) break;
    use[drop] = false;
    why[drop] = g_strdup("collinear with the other covariates on the trace's days");
  }
  const char *unit[K] = {"log requests per hour of one zone (the table's rate units)",
                         "per standard deviation of the time-of-day band index (URS confounder 3)",
                         NULL,
                         "log ratio of Saturday and Sunday to weekdays (no URS confounder)",
                         "per standard deviation of log(1 + rain mm) over the table's weather days (URS confounder 2)",
                         "per standard deviation of the daily mean temperature over the table's weather days (no URS "
                         "confounder)"};
  char *airport_unit = g_strdup_printf("log ratio of a zone within %g km of an airport (%d of %d zones) to another; "
                                       "URS confounder 10 takes it times the flag's sd over zones",
                                       TRV_URS_AIRPORT_KM, zones[1], zones[0] + zones[1]);
  unit[TRV_EFFECT_AIRPORT] = airport_unit;
  if (status == TRV_POISSON_OK) {
    for (int c = 0; c < p; c++) trv_cal_table_set_effect(t, cols[c], true, fit.beta[c], fit.se[c], unit[cols[c]]);
    trv_cal_table_set_stat(t, "effects_rows", (double)rows);
    trv_cal_table_set_stat(t, "effects_days", n_days);
    trv_cal_table_set_stat(t, "effects_airport_zones", zones[1]);
    trv_cal_table_set_stat(t, "effects_pearson_dispersion", fit.pearson);
    trv_cal_table_set_stat(t, "effects_iterations", fit.iterations);
    if (t->fit_design) g_free(t->fit_design->days), g_free(t->fit_design);
    t->fit_design = g_new(TrvEffectsDesign, 1);
    build_design(t, keys, n, days, use, cols, p, zones, t->fit_design);
    trv_effects_spread(t, t->fit_design);
  } else {
    char *fail = g_strdup_printf("the Poisson fit failed: %s", trv_poisson_status_text(status));
    for (int k = 0; k < K; k++)
      if (use[k]) trv_cal_table_set_effect(t, k, false, NAN, NAN, fail);
    g_free(fail);
  }
  for (int k = 0; k < K; k++)
    if (why[k]) trv_cal_table_set_effect(t, k, false, NAN, NAN, why[k]);
  for (int k = 0; k < K; k++) g_free(why[k]);
  g_free(airport_unit);
  g_free(few_days);
  g_array_free(days, TRUE);
  g_free(keys);
}
