/* caleffects.c - the effects part of the URS calibration table, and the
 * definitions the effect estimates (urs/effects.c, at import) and the URS
 * world (urs/world-city.c) must share so that an estimated coefficient is
 * the world's effect in the world's own units: the time-of-day band
 * index, the cities' airports and the airport-zone rule, and the
 * standardization of the daily weather.
 *
 * The [effects] section lists TRV_EFFECT_COUNT rows in the order of
 * trv_effect_names, each `name TAB status TAB estimate TAB se TAB note`:
 * status `estimated` with a finite estimate (|x| <= TRV_CAL_MAX_EFFECT)
 * and a finite se in (0, TRV_CAL_MAX_EFFECT_SE], or `not-identifiable`
 * with NA for both; the note (the unit, or why the trace cannot identify
 * the effect) is non-empty text of at most TRV_CAL_MAX_TEXT bytes. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/posterior.h"
#include "urs/caltable.h"

const char *const trv_effect_names[TRV_EFFECT_COUNT] = {"intercept", "time_of_day", "airport",
                                                        "weekend",   "rain",        "temperature"};

/* Night, morning peak, midday, evening peak, late evening. */
static const double band_of_hour[24] = {-1.5, -1.5, -1.5, -1.5, -1.5, -1.0, 0.3, 1.2, 1.2, 1.2, 0.2, 0.2,
                                        0.2,  0.2,  0.2,  0.2,  1.2,  1.2,  1.2, 1.2, 0.4, 0.4, 0.0, -0.8};

double trv_urs_time_of_day_index(int hour) {
  double mean = 0, var = 0;
  for (int h = 0; h < 24; h++) mean += band_of_hour[h] / 24;
  for (int h = 0; h < 24; h++) var += (band_of_hour[h] - mean) * (band_of_hour[h] - mean) / 24;
  return (band_of_hour[((hour % 24) + 24) % 24] - mean) / sqrt(var);
}

int trv_urs_city_airports(const char *city, const double (**coords)[2]) {
  /* SFO; JFK, LaGuardia, Newark; Changi, Seletar. */
  static const double sf[][2] = {{37.6213, -122.3790}},
                      nyc[][2] = {{40.6413, -73.7781}, {40.7769, -73.8740}, {40.6895, -74.1745}},
                      sg[][2] = {{1.3644, 103.9915}, {1.4167, 103.8670}};
  if (!strcmp(city, "sf")) return *coords = sf, 1;
  if (!strcmp(city, "nyc")) return *coords = nyc, 3;
  if (!strcmp(city, "sg")) return *coords = sg, 2;
  *coords = NULL;
  return 0;
}

bool trv_cal_table_airport_cell(const TrvCalTable *t, TrvHexCell cell) {
  const double(*ap)[2];
  int n = trv_urs_city_airports(t->city, &ap);
  double x, y, lat, lon;
  trv_hex_cell_center_xy(&t->grid, cell, &x, &y);
  trv_hex_unproject(&t->grid, x, y, &lat, &lon);
  for (int i = 0; i < n; i++)
    if (trv_hex_point_distance_km(&t->grid, lat, lon, ap[i][0], ap[i][1]) < TRV_URS_AIRPORT_KM) return true;
  return false;
}

void trv_cal_weather_index(const TrvCalTable *t, double *rain_mean, double *rain_sd, double *temp_mean,
                           double *temp_sd) {
  double s[2] = {0}, s2[2] = {0};
  int n[2] = {0};
  for (guint i = 0; i < t->weather->len; i++) {
    const TrvWeatherDay *d = &g_array_index(t->weather, TrvWeatherDay, i);
    double v[2] = {isnan(d->rain_mm) ? NAN : log1p(d->rain_mm), (d->tmax_c + d->tmin_c) / 2};
    for (int k = 0; k < 2; k++)
      if (!isnan(v[k])) s[k] += v[k], s2[k] += v[k] * v[k], n[k]++;
  }
  double mean[2], sd[2];
  for (int k = 0; k < 2; k++) {
    mean[k] = n[k] ? s[k] / n[k] : 0;
    sd[k] = n[k] > 1 ? sqrt(fmax(s2[k] / n[k] - mean[k] * mean[k], 0)) : 0;
  }
  *rain_mean = mean[0], *rain_sd = sd[0], *temp_mean = mean[1], *temp_sd = sd[1];
}

void trv_cal_table_set_effect(TrvCalTable *t, int which, bool estimated, double estimate, double se, const char *note) {
  g_assert(which >= 0 && which < TRV_EFFECT_COUNT);
  TrvEffect *e = &t->effects[which];
  e->estimated = estimated;
  e->estimate = estimated ? estimate : NAN;
  e->se = estimated ? se : NAN;
  g_free(e->note);
  e->note = g_strdup(note);
}

void trv_cal_effects_write(const TrvCalTable *t, GString *s) {
  g_string_append(s, "[effects]\n");
  for (int k = 0; k < TRV_EFFECT_COUNT; k++) {
    const TrvEffect *e = &t->effects[k];
    g_string_append_printf(s, "%s\t%s\t", trv_effect_names[k], e->estimated ? "estimated" : "not-identifiable");
    trv_caltable_put_double(s, e->estimate);
    g_string_append_c(s, '\t');
    trv_caltable_put_double(s, e->se);
    g_string_append_printf(s, "\t%s\n", e->note);
  }
}

/* NULL if the effect is one the reader accepts, else what is wrong. */
static char *effect_problem(const TrvEffect *e) {
  if (!e->note || !*e->note) return g_strdup("its note is empty");
  if (strlen(e->note) > TRV_CAL_MAX_TEXT) return g_strdup_printf("its note is over %d bytes", TRV_CAL_MAX_TEXT);
  const char *bad = NULL;
  if (!g_utf8_validate(e->note, -1, &bad)) return g_strdup("its note is not UTF-8");
  for (const char *p = e->note; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) return g_strdup("its note holds a control character");
  if (e->estimated) {
    if (!(fabs(e->estimate) <= TRV_CAL_MAX_EFFECT))
      return g_strdup_printf("estimate %g; expected a finite value within +-%g", e->estimate, TRV_CAL_MAX_EFFECT);
    if (!(e->se > 0 && e->se <= TRV_CAL_MAX_EFFECT_SE))
      return g_strdup_printf("standard error %g; expected a finite value in (0, %g]", e->se, TRV_CAL_MAX_EFFECT_SE);
  } else if (!isnan(e->estimate) || !isnan(e->se)) {
    return g_strdup("not identifiable but with numbers; expected NA and NA");
  }
  return NULL;
}

bool trv_cal_effects_check(const TrvCalTable *t, GError **error) {
  for (int k = 0; k < TRV_EFFECT_COUNT; k++) {
    char *p = effect_problem(&t->effects[k]);
    if (p) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "the effect %s: %s", trv_effect_names[k], p);
      g_free(p);
      return false;
    }
  }
  return true;
}

static bool parse_number(const char *s, double *out) {
  if (!strcmp(s, "NA")) return *out = NAN, true;
  char *end;
  if (!*s || g_ascii_isspace(*s)) return false;
  *out = g_ascii_strtod(s, &end);
  return *end == '\0' && isfinite(*out);
}

char *trv_cal_effect_parse(TrvCalTable *t, int row, char **f) {
  if (row >= TRV_EFFECT_COUNT) return g_strdup_printf("more than %d effect rows", TRV_EFFECT_COUNT);
  if (strcmp(f[0], trv_effect_names[row]))
    return g_strdup_printf("effect '%.60s'; expected '%s' (row %d of [effects])", f[0], trv_effect_names[row], row + 1);
  bool estimated = !strcmp(f[1], "estimated");
  if (!estimated && strcmp(f[1], "not-identifiable"))
    return g_strdup_printf("status '%.60s'; expected estimated or not-identifiable", f[1]);
  TrvEffect e = {.estimated = estimated, .note = f[4]};
  if (!parse_number(f[2], &e.estimate) || !parse_number(f[3], &e.se))
    return g_strdup_printf("'%.60s' '%.60s'; expected two numbers or NA", f[2], f[3]);
  if (estimated && (isnan(e.estimate) || isnan(e.se))) return g_strdup("an estimated effect with NA; expected numbers");
  char *p = effect_problem(&e);
  if (p) return p;
  trv_cal_table_set_effect(t, row, estimated, e.estimate, e.se, f[4]);
  return NULL;
}

bool trv_cal_effects_equal(const TrvCalTable *a, const TrvCalTable *b) {
  for (int k = 0; k < TRV_EFFECT_COUNT; k++) {
    const TrvEffect *x = &a->effects[k], *y = &b->effects[k];
    if (x->estimated != y->estimated || strcmp(x->note, y->note)) return false;
    if (x->estimated && (x->estimate != y->estimate || x->se != y->se)) return false;
  }
  return true;
}
