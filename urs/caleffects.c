/* caleffects.c - the effects part of the URS calibration table, and the
 * definitions the effect estimates (urs/effects.c, at import) and the URS
 * world (urs/world-city.c) must share so that an estimated coefficient is
 * the world's effect in the world's own units: the time-of-day band
 * index, the cities' airports and the airport-zone rule, and the
 * standardization of the daily weather.
 *
 * The [effects] section lists TRV_EFFECT_COUNT rows in the order of
 * trv_effect_names, each `name TAB status TAB estimate TAB se TAB method
 * TAB days TAB resamples TAB lo TAB hi TAB months TAB month_sd TAB
 * month_min TAB month_max TAB months_same_sign TAB note` (format 2 had the
 * first four and the note): status `estimated` with a finite estimate
 * (|x| <= TRV_CAL_MAX_EFFECT) and a finite se in (0,
 * TRV_CAL_MAX_EFFECT_SE], or `not-identifiable` with NA for both; the
 * method says which of the spread fields hold numbers, and the others are
 * NA or 0 (effect_problem); the note (the unit, or why the trace cannot
 * identify the effect) is non-empty text of at most TRV_CAL_MAX_TEXT
 * bytes.  [sources] lists `sha256 TAB bytes TAB name` per input file;
 * [estimator] is key=value: name, version, resamples, seed, level.  The
 * grounding rule (trv_cal_effect_robust) reads these numbers only. */
#include <config.h>

#include <errno.h>
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

const char *const trv_effect_method_names[TRV_EFFECT_METHOD_COUNT] = {"none", "poisson", "poisson+day-bootstrap",
                                                                      "poisson+day-bootstrap+months"};

/* An effect as the fit alone gives it (method poisson, or none when not
 * estimated): no interval, no months. */
static TrvEffect effect_without_spread(bool estimated, char *note) {
  return (TrvEffect){.estimated = estimated,
                     .method = estimated ? TRV_EFFECT_METHOD_POISSON : TRV_EFFECT_METHOD_NONE,
                     .lo = NAN,
                     .hi = NAN,
                     .month_sd = NAN,
                     .month_min = NAN,
                     .month_max = NAN,
                     .note = note};
}

void trv_cal_table_set_effect(TrvCalTable *t, int which, bool estimated, double estimate, double se, const char *note) {
  g_assert(which >= 0 && which < TRV_EFFECT_COUNT);
  TrvEffect *e = &t->effects[which];
  char *old = e->note;
  *e = effect_without_spread(estimated, g_strdup(note));
  e->estimate = estimated ? estimate : NAN;
  e->se = estimated ? se : NAN;
  g_free(old);
}

bool trv_cal_effect_robust(const TrvEffect *e, const char **why) {
  const char *no = NULL;
  if (!e->estimated)
    no = "not identifiable from the trace";
  else if (e->method < TRV_EFFECT_METHOD_BOOTSTRAP || isnan(e->lo) || isnan(e->hi))
    no = "no bootstrap interval (too few days)";
  else if (!((e->estimate > 0 && e->lo > 0) || (e->estimate < 0 && e->hi < 0)))
    no = "its bootstrap interval holds 0";
  else if (e->months > 0 && e->months_same_sign * TRV_EFFECTS_SIGN_SHARE_DEN < e->months * TRV_EFFECTS_SIGN_SHARE_NUM)
    no = "its sign changes in more than 1/6 of the months";
  if (why) *why = no;
  return !no;
}

static void put_int_or_zero(GString *s, int v) { g_string_append_printf(s, "\t%d", v); }

void trv_cal_effects_write(const TrvCalTable *t, GString *s) {
  g_string_append(s, "[effects]\n");
  for (int k = 0; k < TRV_EFFECT_COUNT; k++) {
    const TrvEffect *e = &t->effects[k];
    g_string_append_printf(s, "%s\t%s\t", trv_effect_names[k], e->estimated ? "estimated" : "not-identifiable");
    trv_caltable_put_double(s, e->estimate);
    g_string_append_c(s, '\t');
    trv_caltable_put_double(s, e->se);
    g_string_append_printf(s, "\t%s", trv_effect_method_names[e->method]);
    put_int_or_zero(s, e->days);
    put_int_or_zero(s, e->resamples);
    const double spread[] = {e->lo, e->hi};
    for (int i = 0; i < 2; i++) g_string_append_c(s, '\t'), trv_caltable_put_double(s, spread[i]);
    put_int_or_zero(s, e->months);
    const double month[] = {e->month_sd, e->month_min, e->month_max};
    for (int i = 0; i < 3; i++) g_string_append_c(s, '\t'), trv_caltable_put_double(s, month[i]);
    put_int_or_zero(s, e->months_same_sign);
    g_string_append_printf(s, "\t%s\n", e->note);
  }
}

/* NULL if the numbers lie within +-bound (lo <= hi when ordered), else
 * what is wrong. */
static char *finite_within(const char *what, double x, double bound) {
  if (fabs(x) <= bound) return NULL;
  return g_strdup_printf("%s %g; expected a finite value within +-%g", what, x, bound);
}

/* NULL if the effect is one the reader accepts, else what is wrong. */
static char *effect_problem(const TrvEffect *e) {
  if (!e->note || !*e->note) return g_strdup("its note is empty");
  if (strlen(e->note) > TRV_CAL_MAX_TEXT) return g_strdup_printf("its note is over %d bytes", TRV_CAL_MAX_TEXT);
  const char *bad = NULL;
  if (!g_utf8_validate(e->note, -1, &bad)) return g_strdup("its note is not UTF-8");
  for (const char *p = e->note; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) return g_strdup("its note holds a control character");
  if (e->method < 0 || e->method >= TRV_EFFECT_METHOD_COUNT) return g_strdup("its method is unknown");
  if (!e->estimated) {
    if (!isnan(e->estimate) || !isnan(e->se)) return g_strdup("not identifiable but with numbers; expected NA and NA");
    if (e->method != TRV_EFFECT_METHOD_NONE)
      return g_strdup_printf("not identifiable with method %s; expected none", trv_effect_method_names[e->method]);
  } else {
    char *p = finite_within("estimate", e->estimate, TRV_CAL_MAX_EFFECT);
    if (p) return p;
    if (!(e->se > 0 && e->se <= TRV_CAL_MAX_EFFECT_SE))
      return g_strdup_printf("standard error %g; expected a finite value in (0, %g]", e->se, TRV_CAL_MAX_EFFECT_SE);
    if (e->method == TRV_EFFECT_METHOD_NONE) return g_strdup("estimated with method none; expected poisson or more");
    if (e->days < 0 || e->days > TRV_CAL_MAX_DAYS) /* 0: not recorded (format 2) */
      return g_strdup_printf("%d days behind an estimate; expected 0 to %d", e->days, TRV_CAL_MAX_DAYS);
  }
  bool boot = e->method >= TRV_EFFECT_METHOD_BOOTSTRAP, months = e->method == TRV_EFFECT_METHOD_MONTHS;
  const char *method = trv_effect_method_names[e->method];
  if (!e->estimated && e->days != 0) return g_strdup_printf("%d days behind no estimate; expected 0", e->days);
  if (boot) {
    if (e->resamples < 1 || e->resamples > TRV_CAL_MAX_RESAMPLES)
      return g_strdup_printf("%d resamples with method %s; expected 1 to %d", e->resamples, method,
                             TRV_CAL_MAX_RESAMPLES);
    char *p = finite_within("interval end", e->lo, TRV_CAL_MAX_EFFECT);
    if (!p) p = finite_within("interval end", e->hi, TRV_CAL_MAX_EFFECT);
    if (p) return p;
    if (!(e->lo <= e->hi)) return g_strdup_printf("interval %g .. %g; expected lo <= hi", e->lo, e->hi);
  } else if (e->resamples != 0 || !isnan(e->lo) || !isnan(e->hi)) {
    return g_strdup_printf("an interval with method %s; expected 0 resamples and NA NA", method);
  }
  if (months) {
    if (e->months < 2 || e->months > TRV_CAL_MAX_MONTHS)
      return g_strdup_printf("%d months with method %s; expected 2 to %d", e->months, method, TRV_CAL_MAX_MONTHS);
    char *p = finite_within("monthly minimum", e->month_min, TRV_CAL_MAX_EFFECT);
    if (!p) p = finite_within("monthly maximum", e->month_max, TRV_CAL_MAX_EFFECT);
    if (p) return p;
    if (!(e->month_min <= e->month_max))
      return g_strdup_printf("monthly range %g .. %g; expected min <= max", e->month_min, e->month_max);
    if (!(e->month_sd >= 0 && e->month_sd <= e->month_max - e->month_min))
      return g_strdup_printf("monthly sd %g; expected a value in [0, max - min]", e->month_sd);
    if (e->months_same_sign < 0 || e->months_same_sign > e->months)
      return g_strdup_printf("%d months of the same sign; expected 0 to %d", e->months_same_sign, e->months);
  } else if (e->months != 0 || e->months_same_sign != 0 || !isnan(e->month_sd) || !isnan(e->month_min) ||
             !isnan(e->month_max)) {
    return g_strdup_printf("monthly figures with method %s; expected 0 months and NA", method);
  }
  return NULL;
}

static char *text_field_problem(const char *what, const char *s, bool may_be_empty) {
  if (!may_be_empty && !*s) return g_strdup_printf("%s is empty", what);
  if (strlen(s) > TRV_CAL_MAX_TEXT) return g_strdup_printf("%s is over %d bytes", what, TRV_CAL_MAX_TEXT);
  if (!g_utf8_validate(s, -1, NULL)) return g_strdup_printf("%s is not UTF-8", what);
  for (const char *p = s; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) return g_strdup_printf("%s holds a control character", what);
  return NULL;
}

static bool sha256_ok(const char *s) {
  if (strlen(s) != 64) return false;
  for (const char *p = s; *p; p++)
    if (!g_ascii_isdigit(*p) && !(*p >= 'a' && *p <= 'f')) return false;
  return true;
}

static char *estimator_problem(const TrvEstimator *m) {
  char *p = text_field_problem("the estimator's name", m->name ? m->name : "", false);
  if (p) return p;
  if (m->version < 0 || m->version > 1000)
    return g_strdup_printf("estimator version %d; expected 0 (not recorded) to 1000", m->version);
  if (m->resamples < 0 || m->resamples > TRV_CAL_MAX_RESAMPLES)
    return g_strdup_printf("%d resamples; expected 0 to %d", m->resamples, TRV_CAL_MAX_RESAMPLES);
  if (!(m->level > 0 && m->level < 1)) return g_strdup_printf("level %g; expected a value in (0, 1)", m->level);
  return NULL;
}

bool trv_cal_effects_check(const TrvCalTable *t, GError **error) {
  char *p = estimator_problem(&t->estimator);
  if (p) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "[estimator]: %s", p);
    g_free(p);
    return false;
  }
  if (t->sources->len > TRV_CAL_MAX_SOURCES) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%u sources; a table holds at most %d", t->sources->len,
                TRV_CAL_MAX_SOURCES);
    return false;
  }
  for (guint i = 0; i < t->sources->len; i++) {
    const TrvSource *src = &g_array_index(t->sources, TrvSource, i);
    if ((p = text_field_problem("its name", src->name, false)) ||
        (!sha256_ok(src->sha256) && (p = g_strdup("its SHA-256 is not 64 lower-case hex digits")))) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "source %u: %s", i + 1, p);
      g_free(p);
      return false;
    }
  }
  for (int k = 0; k < TRV_EFFECT_COUNT; k++) {
    p = effect_problem(&t->effects[k]);
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

/* A whole field of decimal digits as an int in [0, max]. */
static bool parse_count(const char *s, int max, int *out) {
  if (!*s || strlen(s) > 9) return false;
  for (const char *p = s; *p; p++)
    if (!g_ascii_isdigit(*p)) return false;
  long v = strtol(s, NULL, 10);
  if (v > max) return false;
  *out = (int)v;
  return true;
}

char *trv_cal_effect_parse(TrvCalTable *t, int version, int row, char **f) {
  if (row >= TRV_EFFECT_COUNT) return g_strdup_printf("more than %d effect rows", TRV_EFFECT_COUNT);
  if (strcmp(f[0], trv_effect_names[row]))
    return g_strdup_printf("effect '%.60s'; expected '%s' (row %d of [effects])", f[0], trv_effect_names[row], row + 1);
  bool estimated = !strcmp(f[1], "estimated");
  if (!estimated && strcmp(f[1], "not-identifiable"))
    return g_strdup_printf("status '%.60s'; expected estimated or not-identifiable", f[1]);
  const char *note = version < 3 ? f[TRV_CAL_EFFECT_FIELDS_V2 - 1] : f[TRV_CAL_EFFECT_FIELDS - 1];
  TrvEffect e = effect_without_spread(estimated, (char *)note);
  if (!parse_number(f[2], &e.estimate) || !parse_number(f[3], &e.se))
    return g_strdup_printf("'%.60s' '%.60s'; expected two numbers or NA", f[2], f[3]);
  if (estimated && (isnan(e.estimate) || isnan(e.se))) return g_strdup("an estimated effect with NA; expected numbers");
  if (version < 3) {
    e.days = 0; /* format 2 recorded neither days nor an interval: the rule grounds none of its effects */
  } else {
    int m = 0;
    while (m < TRV_EFFECT_METHOD_COUNT && strcmp(f[4], trv_effect_method_names[m])) m++;
    if (m == TRV_EFFECT_METHOD_COUNT)
      return g_strdup_printf("method '%.60s'; expected none, poisson, poisson+day-bootstrap or "
                             "poisson+day-bootstrap+months",
                             f[4]);
    e.method = m;
    if (!parse_count(f[5], TRV_CAL_MAX_DAYS, &e.days) || !parse_count(f[6], TRV_CAL_MAX_RESAMPLES, &e.resamples) ||
        !parse_count(f[9], TRV_CAL_MAX_MONTHS, &e.months) ||
        !parse_count(f[13], TRV_CAL_MAX_MONTHS, &e.months_same_sign))
      return g_strdup_printf("days '%.20s', resamples '%.20s', months '%.20s', same-sign months '%.20s'; expected "
                             "whole numbers within the table's bounds",
                             f[5], f[6], f[9], f[13]);
    if (!parse_number(f[7], &e.lo) || !parse_number(f[8], &e.hi) || !parse_number(f[10], &e.month_sd) ||
        !parse_number(f[11], &e.month_min) || !parse_number(f[12], &e.month_max))
      return g_strdup_printf("interval '%.20s' '%.20s', monthly sd, min, max '%.20s' '%.20s' '%.20s'; expected "
                             "numbers or NA",
                             f[7], f[8], f[10], f[11], f[12]);
  }
  char *p = effect_problem(&e);
  if (p) return p;
  trv_cal_table_set_effect(t, row, estimated, e.estimate, e.se, note);
  char *kept = t->effects[row].note;
  t->effects[row] = e;
  t->effects[row].note = kept;
  return NULL;
}

static bool same(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

bool trv_cal_effects_equal(const TrvCalTable *a, const TrvCalTable *b) {
  for (int k = 0; k < TRV_EFFECT_COUNT; k++) {
    const TrvEffect *x = &a->effects[k], *y = &b->effects[k];
    if (x->estimated != y->estimated || strcmp(x->note, y->note) || x->method != y->method || x->days != y->days ||
        x->resamples != y->resamples || x->months != y->months || x->months_same_sign != y->months_same_sign)
      return false;
    if (!same(x->estimate, y->estimate) || !same(x->se, y->se) || !same(x->lo, y->lo) || !same(x->hi, y->hi) ||
        !same(x->month_sd, y->month_sd) || !same(x->month_min, y->month_min) || !same(x->month_max, y->month_max))
      return false;
  }
  const TrvEstimator *m = &a->estimator, *n = &b->estimator;
  if (m->version != n->version || strcmp(m->name, n->name) || m->resamples != n->resamples || m->seed != n->seed ||
      m->level != n->level || a->sources->len != b->sources->len)
    return false;
  for (guint i = 0; i < a->sources->len; i++) {
    const TrvSource *x = &g_array_index(a->sources, TrvSource, i), *y = &g_array_index(b->sources, TrvSource, i);
    if (strcmp(x->name, y->name) || x->bytes != y->bytes || strcmp(x->sha256, y->sha256)) return false;
  }
  return true;
}

/* ---- [sources] and [estimator] ------------------------------------------ */

void trv_cal_table_add_source(TrvCalTable *t, const char *path, const char *data, size_t len) {
  char *base = g_path_get_basename(path);
  TrvSource src = {.name = trv_cal_text(base, strlen(base), TRV_CAL_MAX_TEXT), .bytes = len};
  g_free(base);
  char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, len);
  g_strlcpy(src.sha256, sum, sizeof src.sha256);
  g_free(sum);
  g_array_append_val(t->sources, src);
}

void trv_cal_sources_write(const TrvCalTable *t, GString *s) {
  g_string_append(s, "[sources]\n");
  for (guint i = 0; i < t->sources->len; i++) {
    const TrvSource *src = &g_array_index(t->sources, TrvSource, i);
    g_string_append_printf(s, "%s\t%" G_GUINT64_FORMAT "\t%s\n", src->sha256, src->bytes, src->name);
  }
}

char *trv_cal_source_parse(TrvCalTable *t, char **f) {
  if (t->sources->len >= TRV_CAL_MAX_SOURCES) return g_strdup_printf("more than %d sources", TRV_CAL_MAX_SOURCES);
  if (!sha256_ok(f[0])) return g_strdup_printf("SHA-256 '%.70s'; expected 64 lower-case hex digits", f[0]);
  char *end;
  if (!*f[1] || !g_ascii_isdigit(*f[1])) return g_strdup_printf("size '%.30s'; expected a byte count", f[1]);
  errno = 0;
  guint64 bytes = g_ascii_strtoull(f[1], &end, 10);
  if (*end || errno) return g_strdup_printf("size '%.30s'; expected a byte count below 2^64", f[1]);
  char *p = text_field_problem("the source's name", f[2], false);
  if (p) return p;
  TrvSource src = {.name = g_strdup(f[2]), .bytes = bytes};
  g_strlcpy(src.sha256, f[0], sizeof src.sha256);
  g_array_append_val(t->sources, src);
  return NULL;
}

static const char *const ESTIMATOR_KEYS[] = {"name", "version", "resamples", "seed", "level"};

void trv_cal_estimator_write(const TrvCalTable *t, GString *s) {
  const TrvEstimator *m = &t->estimator;
  g_string_append_printf(s,
                         "[estimator]\nname=%s\nversion=%d\nresamples=%d\nseed=%" G_GUINT64_FORMAT "\nlevel=", m->name,
                         m->version, m->resamples, m->seed);
  trv_caltable_put_double(s, m->level);
  g_string_append_c(s, '\n');
}

char *trv_cal_estimator_parse(TrvCalTable *t, const char *line, unsigned *seen) {
  const char *eq = strchr(line, '=');
  int k = 0;
  while (eq && k < (int)G_N_ELEMENTS(ESTIMATOR_KEYS) &&
         ((size_t)(eq - line) != strlen(ESTIMATOR_KEYS[k]) || strncmp(line, ESTIMATOR_KEYS[k], eq - line)))
    k++;
  if (!eq || k == (int)G_N_ELEMENTS(ESTIMATOR_KEYS))
    return g_strdup_printf("'%.60s' in [estimator]; expected name=, version=, resamples=, seed= or level=", line);
  if (*seen & (1u << k)) return g_strdup_printf("key '%s' repeated", ESTIMATOR_KEYS[k]);
  *seen |= 1u << k;
  const char *v = eq + 1;
  TrvEstimator *m = &t->estimator;
  char *end;
  switch (k) {
    case 0: {
      char *p = text_field_problem("the estimator's name", v, false);
      if (p) return p;
      g_free(m->name);
      m->name = g_strdup(v);
      return NULL;
    }
    case 1:
      if (!parse_count(v, 1000, &m->version)) return g_strdup_printf("version '%.30s'; expected 0 to 1000", v);
      return NULL;
    case 2:
      if (!parse_count(v, TRV_CAL_MAX_RESAMPLES, &m->resamples))
        return g_strdup_printf("resamples '%.30s'; expected 0 to %d", v, TRV_CAL_MAX_RESAMPLES);
      return NULL;
    case 3:
      errno = 0;
      if (!g_ascii_isdigit(*v) || (m->seed = g_ascii_strtoull(v, &end, 10), *end || errno))
        return g_strdup_printf("seed '%.30s'; expected a whole number below 2^64", v);
      return NULL;
    default:
      if (!parse_number(v, &m->level) || !(m->level > 0 && m->level < 1))
        return g_strdup_printf("level '%.30s'; expected a number in (0, 1)", v);
      return NULL;
  }
}

char *trv_cal_estimator_close(const TrvCalTable *t, unsigned seen) {
  (void)t;
  if (seen != (1u << G_N_ELEMENTS(ESTIMATOR_KEYS)) - 1) return g_strdup("[estimator] is incomplete");
  return NULL;
}
