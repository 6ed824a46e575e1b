/* caltable.c - building, writing and comparing the URS calibration table.
 *
 * The importers add raw counts (demand by cell and slot, OD pairs, trip
 * histograms, exposure hours by slot, rejections); trv_cal_table_finish
 * then turns counts into rates once.  Rates are rounded to 6 significant
 * digits at finish time, the precision the text format keeps, so that a
 * table read back from its file is equal to the one written (every other
 * double is written with as many digits as it takes to read back exactly).
 * Rejected lines and file names are stored as UTF-8 text (bad bytes and
 * control characters become '?'); every other string comes from the
 * importers or from input data they checked.  The writer refuses a table
 * whose strings are not UTF-8 text or whose text would not read back, before
 * the file is created.  The reader is caltable-read.c. */
#include <config.h>

#include "urs/caltable.h"

#include "urs/caltable-travel.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/posterior.h"
#include "core/rng.h"

static void histogram_init(TrvHistogram *h, double bin_width, int n_bins) {
  h->bin_width = bin_width;
  h->n_bins = n_bins;
  h->counts = g_new0(double, n_bins);
}

/* A hash of all 64 bits of a key: GLib's g_int64_hash keeps the low 32, and
 * an OD key (origin << 32 | destination) would then collide for every
 * origin of a destination. */
static guint key_hash(gconstpointer key) { return (guint)trv_mix64((uint64_t) * (const gint64 *)key); }

TrvCalTable *trv_cal_table_new(const char *city, const char *source, const TrvHexGrid *grid) {
  TrvCalTable *t = g_new0(TrvCalTable, 1);
  t->version = TRV_CAL_FORMAT_VERSION;
  t->city = g_strdup(city);
  t->source = g_strdup(source);
  t->timezone = g_strdup("");
  t->period_start = g_strdup("");
  t->period_end = g_strdup("");
  t->weather_station = g_strdup("");
  t->grid = *grid;
  t->zones = g_array_new(FALSE, TRUE, sizeof(TrvZoneDemand));
  t->zone_index = g_hash_table_new_full(key_hash, g_int64_equal, g_free, NULL);
  t->od = g_array_new(FALSE, TRUE, sizeof(TrvOdEntry));
  t->od_index = g_hash_table_new_full(key_hash, g_int64_equal, g_free, NULL);
  histogram_init(&t->duration_s, 60.0, 121);
  histogram_init(&t->distance_km, 0.5, 101);
  t->weather = g_array_new(FALSE, TRUE, sizeof(TrvWeatherDay));
  t->rejections = g_array_new(FALSE, TRUE, sizeof(TrvRejection));
  t->stats = g_array_new(FALSE, TRUE, sizeof(TrvStat));
  t->source_zones = g_array_new(FALSE, TRUE, sizeof(TrvSourceZone));
  for (int k = 0; k < TRV_EFFECT_COUNT; k++) trv_cal_table_set_effect(t, k, false, NAN, NAN, "not estimated");
  t->estimator = (TrvEstimator){.version = TRV_EFFECTS_ESTIMATOR_VERSION,
                                .name = g_strdup(TRV_EFFECTS_ESTIMATOR),
                                .resamples = TRV_EFFECTS_BOOTSTRAP_RESAMPLES,
                                .seed = TRV_EFFECTS_BOOTSTRAP_SEED,
                                .level = TRV_EFFECTS_BOOTSTRAP_LEVEL};
  t->sources = g_array_new(FALSE, TRUE, sizeof(TrvSource));
  return t;
}

void trv_cal_table_free(TrvCalTable *t) {
  if (!t) return;
  g_free(t->city);
  g_free(t->source);
  g_free(t->timezone);
  g_free(t->period_start);
  g_free(t->period_end);
  g_free(t->weather_station);
  g_array_free(t->zones, TRUE);
  g_hash_table_destroy(t->zone_index);
  g_array_free(t->od, TRUE);
  g_hash_table_destroy(t->od_index);
  g_free(t->duration_s.counts);
  g_free(t->distance_km.counts);
  g_array_free(t->weather, TRUE);
  for (int k = 0; k < TRV_EFFECT_COUNT; k++) g_free(t->effects[k].note);
  g_free(t->estimator.name);
  for (guint i = 0; i < t->sources->len; i++) g_free(g_array_index(t->sources, TrvSource, i).name);
  g_array_free(t->sources, TRUE);
  if (t->fit_counts) g_hash_table_destroy(t->fit_counts);
  if (t->fit_exposure) g_hash_table_destroy(t->fit_exposure);
  if (t->fit_design) g_free(t->fit_design->days), g_free(t->fit_design);
  trv_travel_free(t->travel);
  for (guint i = 0; i < t->rejections->len; i++) {
    TrvRejection *r = &g_array_index(t->rejections, TrvRejection, i);
    g_free(r->reason);
    g_free(r->first_file);
    g_free(r->first_text);
  }
  g_array_free(t->rejections, TRUE);
  for (guint i = 0; i < t->stats->len; i++) g_free(g_array_index(t->stats, TrvStat, i).name);
  g_array_free(t->stats, TRUE);
  for (guint i = 0; i < t->source_zones->len; i++) g_free(g_array_index(t->source_zones, TrvSourceZone, i).borough);
  g_array_free(t->source_zones, TRUE);
  g_free(t);
}

int trv_cal_table_find_zone(const TrvCalTable *t, TrvHexCell cell) {
  gint64 key = (gint64)trv_hex_cell_key(cell);
  gpointer v = g_hash_table_lookup(t->zone_index, &key);
  return v ? GPOINTER_TO_INT(v) - 1 : -1;
}

int trv_cal_table_zone(TrvCalTable *t, TrvHexCell cell) {
  int i = trv_cal_table_find_zone(t, cell);
  if (i >= 0) return i;
  TrvZoneDemand z;
  memset(&z, 0, sizeof z);
  z.cell = cell;
  g_array_append_val(t->zones, z);
  gint64 *key = g_new(gint64, 1);
  *key = (gint64)trv_hex_cell_key(cell);
  g_hash_table_insert(t->zone_index, key, GINT_TO_POINTER((int)t->zones->len));
  return (int)t->zones->len - 1;
}

void trv_cal_table_add_demand(TrvCalTable *t, TrvHexCell cell, int slot, double amount) {
  g_assert(slot >= 0 && slot < TRV_SLOTS_PER_WEEK && amount >= 0);
  int i = trv_cal_table_zone(t, cell);
  g_array_index(t->zones, TrvZoneDemand, i).rate[slot] += amount;
}

void trv_cal_table_add_od(TrvCalTable *t, TrvHexCell origin, TrvHexCell destination, double count) {
  int o = trv_cal_table_zone(t, origin), d = trv_cal_table_zone(t, destination);
  gint64 key = ((gint64)o << 32) | (gint64)d;
  gpointer v = g_hash_table_lookup(t->od_index, &key);
  if (v) {
    g_array_index(t->od, TrvOdEntry, GPOINTER_TO_INT(v) - 1).count += count;
    return;
  }
  TrvOdEntry e = {o, d, count};
  g_array_append_val(t->od, e);
  gint64 *k = g_new(gint64, 1);
  *k = key;
  g_hash_table_insert(t->od_index, k, GINT_TO_POINTER((int)t->od->len));
}

void trv_histogram_add(TrvHistogram *h, double value, double weight) {
  g_assert(isfinite(value) && value >= 0);
  double b = floor(value / h->bin_width);
  int i = b >= h->n_bins - 1 ? h->n_bins - 1 : (int)b;
  h->counts[i] += weight;
}

double trv_histogram_total(const TrvHistogram *h) {
  double s = 0;
  for (int i = 0; i < h->n_bins; i++) s += h->counts[i];
  return s;
}

double trv_histogram_quantile(const TrvHistogram *h, double q) {
  double total = trv_histogram_total(h), acc = 0;
  if (total <= 0) return NAN;
  double target = q * total;
  for (int i = 0; i < h->n_bins; i++) {
    if (acc + h->counts[i] >= target && h->counts[i] > 0) return h->bin_width * (i + (target - acc) / h->counts[i]);
    acc += h->counts[i];
  }
  return h->bin_width * h->n_bins;
}

/* Rejected lines and file names come from input data and go into the
 * table, which holds only UTF-8 text. */
char *trv_cal_text(const char *s, size_t len, size_t max_out) {
  GString *out = g_string_sized_new(MIN(len, max_out) + 1);
  size_t i = 0;
  while (i < len) {
    unsigned char b = (unsigned char)s[i];
    size_t n = 1;
    if (b >= 0x80) {
      /* the length of a valid sequence at i, or 1 for a stray byte */
      size_t want = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      if (want > 1 && i + want <= len && g_utf8_validate(s + i, (gssize)want, NULL)) n = want;
    }
    if (out->len + n > max_out) break;
    if (n > 1)
      g_string_append_len(out, s + i, (gssize)n);
    else
      g_string_append_c(out, b < 0x20 || b >= 0x7f ? '?' : (char)b);
    i += n;
  }
  return g_string_free(out, FALSE);
}

void trv_cal_table_reject(TrvCalTable *t, const char *reason, const char *file, uint64_t line, const char *text,
                          size_t text_len) {
  for (guint i = 0; i < t->rejections->len; i++) {
    TrvRejection *r = &g_array_index(t->rejections, TrvRejection, i);
    if (!strcmp(r->reason, reason)) {
      r->count++;
      return;
    }
  }
  /* A report line, not a copy of the input: at most TRV_CAL_MAX_TEXT bytes
   * (4 bytes a character at most, so that many input bytes suffice). */
  if (text_len > 4 * TRV_CAL_MAX_TEXT) text_len = 4 * TRV_CAL_MAX_TEXT;
  TrvRejection r = {g_strdup(reason), 1, trv_cal_text(file, strlen(file), SIZE_MAX), line,
                    trv_cal_text(text, text_len, TRV_CAL_MAX_TEXT)};
  g_array_append_val(t->rejections, r);
}

const TrvRejection *trv_cal_table_rejection(const TrvCalTable *t, const char *reason) {
  for (guint i = 0; i < t->rejections->len; i++) {
    const TrvRejection *r = &g_array_index(t->rejections, TrvRejection, i);
    if (!strcmp(r->reason, reason)) return r;
  }
  return NULL;
}

uint64_t trv_cal_table_rejected(const TrvCalTable *t) {
  uint64_t n = 0;
  for (guint i = 0; i < t->rejections->len; i++) n += g_array_index(t->rejections, TrvRejection, i).count;
  return n;
}

void trv_cal_table_set_stat(TrvCalTable *t, const char *name, double value) {
  for (guint i = 0; i < t->stats->len; i++) {
    TrvStat *s = &g_array_index(t->stats, TrvStat, i);
    if (!strcmp(s->name, name)) {
      s->value = value;
      return;
    }
  }
  TrvStat s = {g_strdup(name), value};
  g_array_append_val(t->stats, s);
}

void trv_cal_table_add_stat(TrvCalTable *t, const char *name, double amount) {
  double v = trv_cal_table_stat(t, name);
  trv_cal_table_set_stat(t, name, (isnan(v) ? 0 : v) + amount);
}

double trv_cal_table_stat(const TrvCalTable *t, const char *name) {
  for (guint i = 0; i < t->stats->len; i++) {
    const TrvStat *s = &g_array_index(t->stats, TrvStat, i);
    if (!strcmp(s->name, name)) return s->value;
  }
  return NAN;
}

double trv_cal_round_rate(double x) {
  char buf[32];
  snprintf(buf, sizeof buf, "%.6g", x);
  return strtod(buf, NULL);
}

static int od_compare(gconstpointer a, gconstpointer b) {
  const TrvOdEntry *x = a, *y = b;
  if (x->origin != y->origin) return x->origin < y->origin ? -1 : 1;
  return (x->destination > y->destination) - (x->destination < y->destination);
}

void trv_cal_table_fill_slots(TrvCalTable *t) {
  int filled = 0;
  for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++) filled += t->exposure_hours[s] <= 0;
  t->filled_slots = filled;
  if (!filled) return;
  for (guint z = 0; z < t->zones->len; z++) {
    TrvZoneDemand *zd = &g_array_index(t->zones, TrvZoneDemand, z);
    for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++) {
      if (t->exposure_hours[s] > 0) continue;
      double c = 0, h = 0;
      for (int d = 0; d < 7; d++) {
        int o = d * TRV_SLOTS_PER_DAY + s % TRV_SLOTS_PER_DAY;
        if (t->exposure_hours[o] <= 0) continue;
        c += zd->rate[o] * t->exposure_hours[o];
        h += t->exposure_hours[o];
      }
      zd->rate[s] = h > 0 ? trv_cal_round_rate(c / h) : 0.0;
    }
  }
}

void trv_cal_table_finish(TrvCalTable *t) {
  for (guint z = 0; z < t->zones->len; z++) {
    TrvZoneDemand *zd = &g_array_index(t->zones, TrvZoneDemand, z);
    for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++)
      zd->rate[s] = t->exposure_hours[s] > 0 ? trv_cal_round_rate(zd->rate[s] / t->exposure_hours[s]) : 0.0;
  }
  trv_cal_table_fill_slots(t);
  g_array_sort(t->od, od_compare);
  g_hash_table_remove_all(t->od_index);
  for (guint i = 0; i < t->od->len; i++) {
    const TrvOdEntry *e = &g_array_index(t->od, TrvOdEntry, i);
    gint64 *k = g_new(gint64, 1);
    *k = ((gint64)e->origin << 32) | (gint64)e->destination;
    g_hash_table_insert(t->od_index, k, GINT_TO_POINTER((int)i + 1));
  }
}

void trv_cal_table_city_rate(const TrvCalTable *t, double out[TRV_SLOTS_PER_WEEK]) {
  for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++) out[s] = 0;
  for (guint z = 0; z < t->zones->len; z++) {
    const TrvZoneDemand *zd = &g_array_index(t->zones, TrvZoneDemand, z);
    for (int s = 0; s < TRV_SLOTS_PER_WEEK; s++) out[s] += zd->rate[s];
  }
}

/* ---- writer ------------------------------------------------------------- */

void trv_caltable_put_double(GString *s, double x) {
  if (isnan(x)) {
    g_string_append(s, "NA");
    return;
  }
  char buf[40];
  for (int digits = 15; digits <= 17; digits++) {
    snprintf(buf, sizeof buf, "%.*g", digits, x);
    if (strtod(buf, NULL) == x) break;
  }
  g_string_append(s, buf);
}

static void put_histogram(GString *s, const char *name, const TrvHistogram *h) {
  g_string_append_printf(s, "[%s]\nbin_width=", name);
  trv_caltable_put_double(s, h->bin_width);
  g_string_append_printf(s, "\nn_bins=%d\n", h->n_bins);
  for (int i = 0; i < h->n_bins; i++) {
    g_string_append_printf(s, "%d\t", i);
    trv_caltable_put_double(s, h->counts[i]);
    g_string_append_c(s, '\n');
  }
}

char *trv_cal_table_to_string(const TrvCalTable *t) {
  GString *s = g_string_sized_new(1 << 16); /* grows by doubling for big tables */
  g_string_append_printf(s, "trivium-urs-calibration %d\n", TRV_CAL_FORMAT_VERSION);
  g_string_append(s, "# Trivium URS calibration table (format: docs/urs.md)\n");
  g_string_append_printf(s,
                         "[city]\nname=%s\nsource=%s\ntimezone=%s\nperiod_start=%s\n"
                         "period_end=%s\nweather_station=%s\n",
                         t->city, t->source, t->timezone, t->period_start, t->period_end, t->weather_station);
  g_string_append(s, "[grid]\nlat_min=");
  trv_caltable_put_double(s, t->grid.lat_min);
  g_string_append(s, "\nlat_max=");
  trv_caltable_put_double(s, t->grid.lat_max);
  g_string_append(s, "\nlon_min=");
  trv_caltable_put_double(s, t->grid.lon_min);
  g_string_append(s, "\nlon_max=");
  trv_caltable_put_double(s, t->grid.lon_max);
  g_string_append(s, "\ncell_km2=");
  trv_caltable_put_double(s, t->grid.cell_km2);
  g_string_append_printf(s,
                         "\n[report]\nfiles=%" G_GUINT64_FORMAT "\nrows_read=%" G_GUINT64_FORMAT
                         "\nrows_used=%" G_GUINT64_FORMAT "\nrows_rejected=%" G_GUINT64_FORMAT "\nfilled_slots=%d\n",
                         t->files, t->rows_read, t->rows_used, trv_cal_table_rejected(t), t->filled_slots);
  g_string_append(s, "[rejections]\n");
  for (guint i = 0; i < t->rejections->len; i++) {
    const TrvRejection *r = &g_array_index(t->rejections, TrvRejection, i);
    g_string_append_printf(s, "%s\t%" G_GUINT64_FORMAT "\t%s\t%" G_GUINT64_FORMAT "\t%s\n", r->reason, r->count,
                           r->first_file, r->first_line, r->first_text);
  }
  g_string_append(s, "[stats]\n");
  for (guint i = 0; i < t->stats->len; i++) {
    const TrvStat *st = &g_array_index(t->stats, TrvStat, i);
    g_string_append_printf(s, "%s\t", st->name);
    trv_caltable_put_double(s, st->value);
    g_string_append_c(s, '\n');
  }
  g_string_append(s, "[exposure]\n");
  for (int i = 0; i < TRV_SLOTS_PER_WEEK; i++) {
    g_string_append_printf(s, "%d\t", i);
    trv_caltable_put_double(s, t->exposure_hours[i]);
    g_string_append_c(s, '\n');
  }
  g_string_append(s, "[zones]\n");
  for (guint z = 0; z < t->zones->len; z++) {
    const TrvZoneDemand *zd = &g_array_index(t->zones, TrvZoneDemand, z);
    g_string_append_printf(s, "%u\t%d\t%d\n", z, zd->cell.q, zd->cell.r);
  }
  g_string_append(s, "[demand]\n");
  for (guint z = 0; z < t->zones->len; z++) {
    const TrvZoneDemand *zd = &g_array_index(t->zones, TrvZoneDemand, z);
    for (int i = 0; i < TRV_SLOTS_PER_WEEK; i++)
      if (zd->rate[i] != 0 && t->exposure_hours[i] > 0) g_string_append_printf(s, "%u\t%d\t%.6g\n", z, i, zd->rate[i]);
  }
  g_string_append(s, "[od]\n");
  for (guint i = 0; i < t->od->len; i++) {
    const TrvOdEntry *e = &g_array_index(t->od, TrvOdEntry, i);
    g_string_append_printf(s, "%d\t%d\t", e->origin, e->destination);
    trv_caltable_put_double(s, e->count);
    g_string_append_c(s, '\n');
  }
  put_histogram(s, "duration_s", &t->duration_s);
  put_histogram(s, "distance_km", &t->distance_km);
  g_string_append(s, "[source_zones]\n");
  for (guint i = 0; i < t->source_zones->len; i++) {
    const TrvSourceZone *z = &g_array_index(t->source_zones, TrvSourceZone, i);
    g_string_append_printf(s, "%d\t%d\t%d\t", z->id, z->cell.q, z->cell.r);
    trv_caltable_put_double(s, z->lat);
    g_string_append_c(s, '\t');
    trv_caltable_put_double(s, z->lon);
    g_string_append_printf(s, "\t%" G_GUINT64_FORMAT "\t%" G_GUINT64_FORMAT "\t%s\n", z->pickups, z->dropoffs,
                           z->borough);
  }
  g_string_append(s, "[weather]\n");
  for (guint i = 0; i < t->weather->len; i++) {
    const TrvWeatherDay *w = &g_array_index(t->weather, TrvWeatherDay, i);
    g_string_append_printf(s, "%04d-%02d-%02d\t", w->year, w->month, w->day);
    trv_caltable_put_double(s, w->rain_mm);
    g_string_append_c(s, '\t');
    trv_caltable_put_double(s, w->tmax_c);
    g_string_append_c(s, '\t');
    trv_caltable_put_double(s, w->tmin_c);
    g_string_append_c(s, '\n');
  }
  trv_cal_sources_write(t, s);
  trv_cal_estimator_write(t, s);
  trv_cal_effects_write(t, s);
  trv_travel_write(t, s);
  g_string_append(s, "[end]\n");
  return g_string_free(s, FALSE);
}

/* ---- checks before writing --------------------------------------------- */

/* NULL if s is UTF-8 text without control characters, else what is wrong
 * (to be freed). */
static char *text_problem(const char *s) {
  const char *bad = NULL;
  if (!g_utf8_validate(s, -1, &bad))
    return g_strdup_printf("byte 0x%02x at offset %td is not UTF-8", (unsigned char)*bad, bad - s);
  for (const char *p = s; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f)
      return g_strdup_printf("control character 0x%02x at offset %td", (unsigned char)*p, p - s);
  return NULL;
}

/* A name that starts a line of the file must not read as a comment or a
 * section header, and must not be empty. */
static char *name_problem(const char *s) {
  if (!*s) return g_strdup("it is empty");
  if (*s == '#' || *s == '[') return g_strdup_printf("it starts with '%c'", *s);
  return text_problem(s);
}

static bool refuse(GError **error, char *problem, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static bool refuse(GError **error, char *problem, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
              "%s: %s; a calibration table holds UTF-8 text without control characters", what, problem);
  g_free(what);
  g_free(problem);
  return false;
}

bool trv_cal_table_check(const TrvCalTable *t, GError **error) {
  char *p;
  const char *const keys[] = {"name", "source", "timezone", "period_start", "period_end", "weather_station"};
  const char *const values[] = {t->city, t->source, t->timezone, t->period_start, t->period_end, t->weather_station};
  /* A value follows its key on the line: only name and source must not be
   * empty (the reader needs them); any text may start a value. */
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++)
    if ((p = i < 2 && !*values[i] ? g_strdup("it is empty") : text_problem(values[i])))
      return refuse(error, p, "[city] %s", keys[i]);
  if (t->rejections->len > TRV_CAL_MAX_REASONS || t->stats->len > TRV_CAL_MAX_STATS)
    return refuse(error, g_strdup_printf("%u reasons and %u statistics", t->rejections->len, t->stats->len),
                  "the import report (at most %d each)", TRV_CAL_MAX_REASONS);
  for (guint i = 0; i < t->rejections->len; i++) {
    const TrvRejection *r = &g_array_index(t->rejections, TrvRejection, i);
    if ((p = name_problem(r->reason))) return refuse(error, p, "the rejection reason '%.60s'", r->reason);
    if ((p = text_problem(r->first_file)) || (p = text_problem(r->first_text)))
      return refuse(error, p, "the first line rejected as %s", r->reason);
  }
  for (guint i = 0; i < t->stats->len; i++) {
    const TrvStat *s = &g_array_index(t->stats, TrvStat, i);
    if ((p = name_problem(s->name))) return refuse(error, p, "the statistic '%.60s'", s->name);
  }
  for (guint i = 0; i < t->source_zones->len; i++) {
    const TrvSourceZone *z = &g_array_index(t->source_zones, TrvSourceZone, i);
    if ((p = text_problem(z->borough))) return refuse(error, p, "the borough of source zone %d", z->id);
  }
  if (t->zones->len > TRV_CAL_MAX_ZONES || t->od->len > TRV_CAL_MAX_OD)
    return refuse(error, g_strdup_printf("%u zones and %u OD pairs", t->zones->len, t->od->len),
                  "the table (at most %d zones and %d pairs: use coarser cells)", TRV_CAL_MAX_ZONES, TRV_CAL_MAX_OD);
  return trv_cal_effects_check(t, error) && trv_travel_check(t, error);
}

bool trv_cal_table_write(const TrvCalTable *t, const char *path, GError **error) {
  if (!trv_cal_table_check(t, error)) {
    g_prefix_error(error, "%s not written: ", path);
    return false;
  }
  char *text = trv_cal_table_to_string(t);
  /* What is written must read back: the reader is the judge of every
   * number and string, so a table it would refuse is never created. */
  GError *local = NULL;
  TrvCalTable *back = trv_cal_table_parse(text, strlen(text), path, &local);
  if (!back) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s not written: it would not read back (%s)", path, local->message);
    g_error_free(local);
    g_free(text);
    return false;
  }
  trv_cal_table_free(back);
  bool ok = g_file_set_contents(path, text, -1, &local);
  g_free(text);
  if (!ok) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_IO, "%s: cannot write the calibration table: %s", path, local->message);
    g_error_free(local);
  }
  return ok;
}

/* ---- equality ----------------------------------------------------------- */

static bool same_double(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

static bool same_histogram(const TrvHistogram *a, const TrvHistogram *b) {
  if (a->bin_width != b->bin_width || a->n_bins != b->n_bins) return false;
  return !memcmp(a->counts, b->counts, sizeof(double) * a->n_bins);
}

bool trv_cal_table_equal(const TrvCalTable *a, const TrvCalTable *b) {
  if (strcmp(a->city, b->city) || strcmp(a->source, b->source) || strcmp(a->timezone, b->timezone) ||
      strcmp(a->period_start, b->period_start) || strcmp(a->period_end, b->period_end) ||
      strcmp(a->weather_station, b->weather_station))
    return false;
  if (memcmp(&a->grid, &b->grid, sizeof a->grid) || a->filled_slots != b->filled_slots ||
      memcmp(a->exposure_hours, b->exposure_hours, sizeof a->exposure_hours))
    return false;
  if (a->files != b->files || a->rows_read != b->rows_read || a->rows_used != b->rows_used) return false;
  if (a->zones->len != b->zones->len || a->od->len != b->od->len || a->rejections->len != b->rejections->len ||
      a->stats->len != b->stats->len || a->source_zones->len != b->source_zones->len ||
      a->weather->len != b->weather->len)
    return false;
  for (guint i = 0; i < a->zones->len; i++) {
    const TrvZoneDemand *x = &g_array_index(a->zones, TrvZoneDemand, i);
    const TrvZoneDemand *y = &g_array_index(b->zones, TrvZoneDemand, i);
    if (x->cell.q != y->cell.q || x->cell.r != y->cell.r || memcmp(x->rate, y->rate, sizeof x->rate)) return false;
  }
  if (a->od->len && memcmp(a->od->data, b->od->data, sizeof(TrvOdEntry) * a->od->len)) return false;
  if (!same_histogram(&a->duration_s, &b->duration_s) || !same_histogram(&a->distance_km, &b->distance_km))
    return false;
  for (guint i = 0; i < a->rejections->len; i++) {
    const TrvRejection *x = &g_array_index(a->rejections, TrvRejection, i);
    const TrvRejection *y = &g_array_index(b->rejections, TrvRejection, i);
    if (strcmp(x->reason, y->reason) || x->count != y->count || strcmp(x->first_file, y->first_file) ||
        x->first_line != y->first_line || strcmp(x->first_text, y->first_text))
      return false;
  }
  for (guint i = 0; i < a->stats->len; i++) {
    const TrvStat *x = &g_array_index(a->stats, TrvStat, i), *y = &g_array_index(b->stats, TrvStat, i);
    if (strcmp(x->name, y->name) || !same_double(x->value, y->value)) return false;
  }
  for (guint i = 0; i < a->source_zones->len; i++) {
    const TrvSourceZone *x = &g_array_index(a->source_zones, TrvSourceZone, i);
    const TrvSourceZone *y = &g_array_index(b->source_zones, TrvSourceZone, i);
    if (x->id != y->id || x->cell.q != y->cell.q || x->cell.r != y->cell.r || x->lat != y->lat || x->lon != y->lon ||
        x->pickups != y->pickups || x->dropoffs != y->dropoffs || strcmp(x->borough, y->borough))
      return false;
  }
  for (guint i = 0; i < a->weather->len; i++) {
    const TrvWeatherDay *x = &g_array_index(a->weather, TrvWeatherDay, i);
    const TrvWeatherDay *y = &g_array_index(b->weather, TrvWeatherDay, i);
    if (x->year != y->year || x->month != y->month || x->day != y->day || !same_double(x->rain_mm, y->rain_mm) ||
        !same_double(x->tmax_c, y->tmax_c) || !same_double(x->tmin_c, y->tmin_c))
      return false;
  }
  return trv_cal_effects_equal(a, b) && trv_travel_equal(a, b);
}
