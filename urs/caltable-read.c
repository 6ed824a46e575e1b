/* caltable-read.c - reading URS calibration tables: the grammar of the
 * text format (header, sections, keys, rows); the syntax of one field is
 * caltable-fields.c.
 *
 * The reader trusts nothing: at most TRV_CAL_MAX_FILE_BYTES of UTF-8 text
 * without control characters but TAB and newline; the header names format
 * and version; sections in the writer's order, each once, ending with
 * [end]; every TAB-separated field parsed in full; numbers finite and
 * within caltable.h's bounds; dates strict YYYY-MM-DD of
 * TRV_CAL_YEAR_MIN..MAX; indexes of existing zones; demand, OD,
 * source-zone and weather rows strictly increasing; zones within one cell
 * of the grid's box, a source zone in its centroid's cell; zones, OD
 * pairs, bins, reasons and statistics counted before each is added;
 * rejections adding up to rows_rejected; the effects in their fixed
 * order, each estimated with a finite estimate and a positive standard
 * error or not identifiable with NA, its spread (interval, months) as its
 * method says (caleffects.c); sources with a 64-digit SHA-256, counted
 * before each is added; the estimator's five keys; a version 1 table,
 * which has no [effects], reads with every effect not identifiable, and a
 * version 1 or 2 table, which has no [sources] nor [estimator], with none
 * and the estimator not recorded.  What
 * it accepts is exactly what the writer would write back: rates rounded to
 * 6 digits and above 0.  The first problem stops the read:
 * TRV_ERROR_INPUT, "FILE:LINE: what was found; what was expected". */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/input.h"
#include "core/posterior.h"
#include "urs/caltable-fields.h"
#include "urs/caltable-travel.h"

#define Q TRV_CAL_Q /* a quoted field: takes trv_cal_clip(s), s */

static const char *const SECTIONS[] = {
    "city",       "grid",        "report",       "rejections", "stats",   "exposure",  "zones",   "demand", "od",
    "duration_s", "distance_km", "source_zones", "weather",    "sources", "estimator", "effects", "travel", "end",
};
enum { N_SECTIONS = sizeof SECTIONS / sizeof *SECTIONS };
/* The sections a format version added: [effects] in 2, [sources] and
 * [estimator] in 3; [travel] is optional in 2 and 3. */
enum { SECTION_SOURCES = 13, SECTION_ESTIMATOR = 14, SECTION_EFFECTS = 15, SECTION_TRAVEL = 16 };

typedef struct {
  TrvCalTable *t;
  TrvCalCursor ctx;
  int section;        /* index in SECTIONS, -1 before the first */
  unsigned seen_keys; /* bit per key of a key=value section */
  int next_row;       /* exposure / zones / histogram rows expected in order */
  int64_t last_key;   /* strictly increasing row keys of demand / od */
  uint64_t rows_rejected, rejected_sum;
  double grid_values[5];
  TrvHistogram *hist;
  int version; /* of the header: 1 has no [effects], 1 and 2 no [sources] nor [estimator] */
} Reader;

static bool key_value(Reader *r, const char *line, const char *const *keys, int n_keys, int *which,
                      const char **value) {
  const char *eq = strchr(line, '=');
  if (!eq)
    return trv_cal_fail(&r->ctx, "'" Q "' in [%s]; expected key=value", trv_cal_clip(line), line, SECTIONS[r->section]);
  for (int k = 0; k < n_keys; k++)
    if ((size_t)(eq - line) == strlen(keys[k]) && !strncmp(line, keys[k], eq - line)) {
      if (r->seen_keys & (1u << k)) return trv_cal_fail(&r->ctx, "key '%s' repeated", keys[k]);
      r->seen_keys |= 1u << k;
      *which = k;
      *value = eq + 1;
      return true;
    }
  return trv_cal_fail(&r->ctx, "unknown key '" Q "' in [%s]", MIN((int)(eq - line), trv_cal_clip(line)), line,
                      SECTIONS[r->section]);
}

static const char *const CITY_KEYS[] = {"name", "source", "timezone", "period_start", "period_end", "weather_station"};
static const char *const GRID_KEYS[] = {"lat_min", "lat_max", "lon_min", "lon_max", "cell_km2"};
static const char *const REPORT_KEYS[] = {"files", "rows_read", "rows_used", "rows_rejected", "filled_slots"};
static const char *const HIST_KEYS[] = {"bin_width", "n_bins"};

/* Checks done when a section ends (its keys all present, its rows all read). */
static bool close_section(Reader *r) {
  TrvCalTable *t = r->t;
  TrvCalCursor *c = &r->ctx;
  switch (r->section) {
    case 0:
      if (r->seen_keys != (1u << G_N_ELEMENTS(CITY_KEYS)) - 1) return trv_cal_fail(c, "[city] is incomplete");
      if (!*t->city || !*t->source) return trv_cal_fail(c, "[city] has an empty name or source");
      /* Not checked for order: these are local wall-clock times, and a
     * trace within a daylight-saving fall-back hour ends "before" it
     * starts. */
      if (!trv_cal_local_time_ok(t->period_start) || !trv_cal_local_time_ok(t->period_end) ||
          (!*t->period_start != !*t->period_end))
        return trv_cal_fail(c, "period '" Q "' .. '" Q "'; expected two local times YYYY-MM-DDTHH:MM:SS of years %d-%d",
                            trv_cal_clip(t->period_start), t->period_start, trv_cal_clip(t->period_end), t->period_end,
                            TRV_CAL_YEAR_MIN, TRV_CAL_YEAR_MAX);
      break;
    case 1: {
      if (r->seen_keys != (1u << G_N_ELEMENTS(GRID_KEYS)) - 1) return trv_cal_fail(c, "[grid] is incomplete");
      double *g = r->grid_values;
      GError *why = NULL;
      if (!trv_hex_grid_init(&t->grid, g[0], g[1], g[2], g[3], g[4], &why)) {
        trv_cal_fail(c, "%s", why->message);
        g_error_free(why);
        return false;
      }
      break;
    }
    case 2:
      if (r->seen_keys != (1u << G_N_ELEMENTS(REPORT_KEYS)) - 1) return trv_cal_fail(c, "[report] is incomplete");
      break;
    case 3:
      if (r->rejected_sum != r->rows_rejected)
        return trv_cal_fail(c, "rejections add up to %" G_GUINT64_FORMAT ", [report] says %" G_GUINT64_FORMAT,
                            r->rejected_sum, r->rows_rejected);
      break;
    case 5:
      if (r->next_row != TRV_SLOTS_PER_WEEK)
        return trv_cal_fail(c, "[exposure] has %d rows, expected %d", r->next_row, TRV_SLOTS_PER_WEEK);
      break;
    case SECTION_ESTIMATOR: {
      char *why = trv_cal_estimator_close(t, r->seen_keys);
      if (why) {
        trv_cal_fail(c, "%s", why);
        g_free(why);
        return false;
      }
      break;
    }
    case SECTION_EFFECTS:
      if (r->next_row != TRV_EFFECT_COUNT)
        return trv_cal_fail(c, "[effects] has %d rows, expected %d", r->next_row, TRV_EFFECT_COUNT);
      break;
    case SECTION_TRAVEL: { /* [travel] (caltable-travel.c) */
      char *why = trv_travel_close(t, r->next_row);
      if (why) {
        trv_cal_fail(c, "%s", why);
        g_free(why);
        return false;
      }
      break;
    }
    case 9:
    case 10:
      if (r->seen_keys != 3 || r->next_row != r->hist->n_bins)
        return trv_cal_fail(c, "[%s] is incomplete", SECTIONS[r->section]);
      break;
    default: break;
  }
  return true;
}

static bool zone_in_grid(const TrvHexGrid *g, TrvHexCell cell) {
  double lat, lon, slack = trv_hex_spacing_km(g);
  trv_hex_cell_center(g, cell, &lat, &lon);
  return lat >= g->lat_min - slack / g->km_per_deg_lat && lat <= g->lat_max + slack / g->km_per_deg_lat &&
         lon >= g->lon_min - slack / g->km_per_deg_lon && lon <= g->lon_max + slack / g->km_per_deg_lon;
}

static bool histogram_line(Reader *r, char *line) {
  TrvCalCursor *c = &r->ctx;
  if (r->seen_keys != 3) {
    int k;
    const char *v;
    if (!key_value(r, line, HIST_KEYS, 2, &k, &v)) return false;
    if (k == 0)
      return trv_cal_get_double(c, v, false, 0, 1e9, &r->hist->bin_width) &&
             (r->hist->bin_width > 0 || trv_cal_fail(c, "bin_width must be > 0"));
    int n;
    if (!trv_cal_get_int(c, v, 1, TRV_CAL_MAX_BINS, &n)) return false;
    g_free(r->hist->counts);
    r->hist->counts = g_new0(double, n);
    r->hist->n_bins = n;
    return true;
  }
  char *f[2];
  int i;
  if (!trv_cal_fields(&r->ctx, line, f, 2) || !trv_cal_get_int(c, f[0], 0, r->hist->n_bins - 1, &i)) return false;
  if (i != r->next_row) return trv_cal_fail(c, "bin %d out of order, expected %d", i, r->next_row);
  r->next_row++;
  return trv_cal_get_double(c, f[1], false, 0, TRV_CAL_MAX_COUNT, &r->hist->counts[i]);
}

static bool rejection_line(Reader *r, char **f) {
  TrvCalTable *t = r->t;
  TrvCalCursor *c = &r->ctx;
  uint64_t count, at;
  if (!trv_cal_get_u64(c, f[1], &count) || !trv_cal_get_u64(c, f[3], &at)) return false;
  if (!*f[0] || count == 0) return trv_cal_fail(c, "empty reason or zero count");
  if (trv_cal_table_rejection(t, f[0])) return trv_cal_fail(c, "reason '" Q "' repeated", trv_cal_clip(f[0]), f[0]);
  if (t->rejections->len >= TRV_CAL_MAX_REASONS)
    return trv_cal_fail(c, "more than %d rejection reasons", TRV_CAL_MAX_REASONS);
  if (strlen(f[4]) > TRV_CAL_MAX_TEXT)
    return trv_cal_fail(c, "a quoted line of %zu bytes; expected at most %d", strlen(f[4]), TRV_CAL_MAX_TEXT);
  if (r->rejected_sum + count < r->rejected_sum) return trv_cal_fail(c, "rejection counts overflow 2^64");
  r->rejected_sum += count;
  trv_cal_table_reject(t, f[0], f[2], at, f[4], strlen(f[4]));
  g_array_index(t->rejections, TrvRejection, t->rejections->len - 1).count = count;
  return true;
}

static bool source_zone_line(Reader *r, char **f) {
  TrvCalTable *t = r->t;
  TrvCalCursor *c = &r->ctx;
  TrvSourceZone z = {0};
  if (!trv_cal_get_int(c, f[0], 0, 1000000, &z.id) || !trv_cal_get_int(c, f[1], -(1 << 24), 1 << 24, &z.cell.q) ||
      !trv_cal_get_int(c, f[2], -(1 << 24), 1 << 24, &z.cell.r) ||
      !trv_cal_get_double(c, f[3], false, -90, 90, &z.lat) || !trv_cal_get_double(c, f[4], false, -180, 180, &z.lon) ||
      !trv_cal_get_u64(c, f[5], &z.pickups) || !trv_cal_get_u64(c, f[6], &z.dropoffs))
    return false;
  if (t->source_zones->len && g_array_index(t->source_zones, TrvSourceZone, t->source_zones->len - 1).id >= z.id)
    return trv_cal_fail(c, "source zone %d out of order or repeated", z.id);
  TrvHexCell at = trv_hex_cell_of_point(&t->grid, z.lat, z.lon);
  if (!trv_hex_grid_contains(&t->grid, z.lat, z.lon) || at.q != z.cell.q || at.r != z.cell.r)
    return trv_cal_fail(c, "source zone %d at (%d, %d); expected its centroid's cell inside the grid", z.id, z.cell.q,
                        z.cell.r);
  z.borough = g_strdup(f[7]);
  g_array_append_val(t->source_zones, z);
  return true;
}

static bool weather_line(Reader *r, char **f) {
  TrvCalTable *t = r->t;
  TrvCalCursor *c = &r->ctx;
  TrvWeatherDay w;
  if (strlen(f[0]) != 10 || !trv_cal_parse_date(f[0], &w.year, &w.month, &w.day))
    return trv_cal_fail(c, "'" Q "' is not a date YYYY-MM-DD in %d-%d", trv_cal_clip(f[0]), f[0], TRV_CAL_YEAR_MIN,
                        TRV_CAL_YEAR_MAX);
  /* The same physical bounds as the weather reader (the world records). */
  if (!trv_cal_get_double(c, f[1], true, 0, 2000, &w.rain_mm) ||
      !trv_cal_get_double(c, f[2], true, -90, 60, &w.tmax_c) || !trv_cal_get_double(c, f[3], true, -90, 60, &w.tmin_c))
    return false;
  if (t->weather->len) {
    const TrvWeatherDay *p = &g_array_index(t->weather, TrvWeatherDay, t->weather->len - 1);
    if ((p->year * 13 + p->month) * 32 + p->day >= (w.year * 13 + w.month) * 32 + w.day)
      return trv_cal_fail(c, "date %s out of order or repeated", f[0]);
  }
  g_array_append_val(t->weather, w);
  return true;
}

static bool data_line(Reader *r, char *line) {
  TrvCalTable *t = r->t;
  TrvCalCursor *c = &r->ctx;
  int k;
  const char *v;
  char *f[8];
  switch (r->section) {
    case 0:
      if (!key_value(r, line, CITY_KEYS, G_N_ELEMENTS(CITY_KEYS), &k, &v)) return false;
      /* The only fields that may hold a TAB in the file's text; the writer
     * refuses one in any string. */
      if (strchr(v, '\t'))
        return trv_cal_fail(c, "a TAB in the value of '%s'; expected text without control characters", CITY_KEYS[k]);
      {
        char **slot[] = {&t->city, &t->source, &t->timezone, &t->period_start, &t->period_end, &t->weather_station};
        g_free(*slot[k]);
        *slot[k] = g_strdup(v);
      }
      return true;
    case 1:
      if (!key_value(r, line, GRID_KEYS, G_N_ELEMENTS(GRID_KEYS), &k, &v)) return false;
      return trv_cal_get_double(c, v, false, -G_MAXDOUBLE, G_MAXDOUBLE, &r->grid_values[k]);
    case 2: {
      if (!key_value(r, line, REPORT_KEYS, G_N_ELEMENTS(REPORT_KEYS), &k, &v)) return false;
      uint64_t *slot[] = {&t->files, &t->rows_read, &t->rows_used, &r->rows_rejected};
      if (k < 4) return trv_cal_get_u64(c, v, slot[k]);
      return trv_cal_get_int(c, v, 0, TRV_SLOTS_PER_WEEK, &t->filled_slots);
    }
    case 3: return trv_cal_fields(&r->ctx, line, f, 5) && rejection_line(r, f);
    case 4: {
      double x;
      if (!trv_cal_fields(&r->ctx, line, f, 2) || !trv_cal_get_double(c, f[1], true, -G_MAXDOUBLE, G_MAXDOUBLE, &x))
        return false;
      if (!*f[0] || !isnan(trv_cal_table_stat(t, f[0])))
        return trv_cal_fail(c, "statistic '" Q "' empty or repeated", trv_cal_clip(f[0]), f[0]);
      if (t->stats->len >= TRV_CAL_MAX_STATS) return trv_cal_fail(c, "more than %d statistics", TRV_CAL_MAX_STATS);
      trv_cal_table_set_stat(t, f[0], x);
      return true;
    }
    case 5: {
      int s;
      if (!trv_cal_fields(&r->ctx, line, f, 2) || !trv_cal_get_int(c, f[0], 0, TRV_SLOTS_PER_WEEK - 1, &s))
        return false;
      if (s != r->next_row) return trv_cal_fail(c, "slot %d out of order, expected %d", s, r->next_row);
      r->next_row++;
      return trv_cal_get_double(c, f[1], false, 0, TRV_CAL_MAX_EXPOSURE_H, &t->exposure_hours[s]);
    }
    case 6: {
      int i;
      TrvHexCell cell;
      if (!trv_cal_fields(&r->ctx, line, f, 3) || !trv_cal_get_int(c, f[0], 0, G_MAXINT - 1, &i) ||
          !trv_cal_get_int(c, f[1], -(1 << 24), 1 << 24, &cell.q) ||
          !trv_cal_get_int(c, f[2], -(1 << 24), 1 << 24, &cell.r))
        return false;
      if (i != (int)t->zones->len) return trv_cal_fail(c, "zone %d out of order, expected %u", i, t->zones->len);
      if (i >= TRV_CAL_MAX_ZONES) return trv_cal_fail(c, "more than %d zones", TRV_CAL_MAX_ZONES);
      if (trv_cal_table_find_zone(t, cell) >= 0) return trv_cal_fail(c, "zone (%d, %d) repeated", cell.q, cell.r);
      if (!zone_in_grid(&t->grid, cell)) return trv_cal_fail(c, "zone (%d, %d) lies outside the grid", cell.q, cell.r);
      trv_cal_table_zone(t, cell);
      return true;
    }
    case 7: {
      int z, s;
      double rate;
      if (!trv_cal_fields(&r->ctx, line, f, 3) || !trv_cal_get_int(c, f[0], 0, (int)t->zones->len - 1, &z) ||
          !trv_cal_get_int(c, f[1], 0, TRV_SLOTS_PER_WEEK - 1, &s) ||
          !trv_cal_get_double(c, f[2], false, 0, TRV_CAL_MAX_RATE, &rate))
        return false;
      /* The writer leaves zero rates out: a row of 0 (or -0) would not be
     * written back. */
      if (!trv_cal_six_digit_decimal(f[2], rate)) rate = trv_cal_round_rate(rate);
      if (!(rate > 0))
        return trv_cal_fail(c, "rate " Q "; expected a rate > 0 (zero rates are not written)", trv_cal_clip(f[2]),
                            f[2]);
      int64_t key = (int64_t)z * TRV_SLOTS_PER_WEEK + s;
      if (key <= r->last_key) return trv_cal_fail(c, "demand row out of order or repeated");
      if (!(t->exposure_hours[s] > 0)) return trv_cal_fail(c, "demand in slot %d, which has no exposure", s);
      r->last_key = key;
      g_array_index(t->zones, TrvZoneDemand, z).rate[s] = rate;
      return true;
    }
    case 8: {
      int o, d;
      double n;
      int last = (int)t->zones->len - 1;
      if (!trv_cal_fields(&r->ctx, line, f, 3) || !trv_cal_get_int(c, f[0], 0, last, &o) ||
          !trv_cal_get_int(c, f[1], 0, last, &d) || !trv_cal_get_double(c, f[2], false, 0, TRV_CAL_MAX_COUNT, &n))
        return false;
      int64_t key = ((int64_t)o << 32) | d;
      if (key <= r->last_key) return trv_cal_fail(c, "od row out of order or repeated");
      if (t->od->len >= TRV_CAL_MAX_OD) return trv_cal_fail(c, "more than %d OD pairs", TRV_CAL_MAX_OD);
      r->last_key = key;
      TrvOdEntry e = {o, d, n};
      g_array_append_val(t->od, e);
      gint64 *hk = g_new(gint64, 1);
      *hk = key;
      g_hash_table_insert(t->od_index, hk, GINT_TO_POINTER((int)t->od->len));
      return true;
    }
    case 9:
    case 10: return histogram_line(r, line);
    case 11: return trv_cal_fields(&r->ctx, line, f, 8) && source_zone_line(r, f);
    case 12: return trv_cal_fields(&r->ctx, line, f, 4) && weather_line(r, f);
    case SECTION_SOURCES:
    case SECTION_ESTIMATOR: {
      if (r->section == SECTION_SOURCES && !trv_cal_fields(&r->ctx, line, f, 3)) return false;
      char *why = r->section == SECTION_ESTIMATOR ? trv_cal_estimator_parse(t, line, &r->seen_keys)
                                                  : trv_cal_source_parse(t, f);
      if (why) {
        trv_cal_fail(c, "%s", why);
        g_free(why);
        return false;
      }
      return true;
    }
    case SECTION_EFFECTS: {
      char *fe[TRV_CAL_EFFECT_FIELDS];
      if (!trv_cal_fields(&r->ctx, line, fe, r->version < 3 ? TRV_CAL_EFFECT_FIELDS_V2 : TRV_CAL_EFFECT_FIELDS))
        return false;
      char *why = trv_cal_effect_parse(t, r->version, r->next_row, fe);
      if (why) {
        trv_cal_fail(c, "%s", why);
        g_free(why);
        return false;
      }
      r->next_row++;
      return true;
    }
    case SECTION_TRAVEL: {
      char *why = trv_travel_parse_line(t, line, &r->next_row);
      if (why) {
        trv_cal_fail(c, "%s", why);
        g_free(why);
        return false;
      }
      return true;
    }
    default: return trv_cal_fail(c, "text after [end]");
  }
}

/* The table starts on a unit grid; the [grid] section replaces it. */
TrvCalTable *trv_cal_table_parse(const char *text, size_t len, const char *name, GError **error) {
  TrvHexGrid initial_grid;
  trv_hex_grid_init(&initial_grid, 0, 1, 0, 1, TRV_HEX_DEFAULT_CELL_KM2, NULL);
  Reader r = {.t = trv_cal_table_new("", "", &initial_grid), .ctx = {name, 0, error}, .section = -1, .last_key = -1};
  if (len > TRV_CAL_MAX_FILE_BYTES) {
    trv_cal_fail(&r.ctx, "%zu bytes; a calibration table has at most %zu", len, TRV_CAL_MAX_FILE_BYTES);
    trv_cal_table_free(r.t);
    return NULL;
  }
  bool ok = trv_cal_text_ok(&r.ctx, text, len), header = false;
  char *copy = g_strndup(text, len);
  char *save = copy, *line;
  while (ok && (line = save) && *line) {
    char *nl = strchr(line, '\n');
    if (!nl) {
      r.ctx.line++;
      ok = trv_cal_fail(&r.ctx, "the last line has no newline (truncated file?)");
      break;
    }
    *nl = '\0';
    save = nl + 1;
    r.ctx.line++;
    if (!header) {
      int v;
      char tail;
      if (sscanf(line, "trivium-urs-calibration %d%c", &v, &tail) != 1)
        ok = trv_cal_fail(&r.ctx, "not a Trivium URS calibration table (expected 'trivium-urs-calibration %d')",
                          TRV_CAL_FORMAT_VERSION);
      else if (v < 1 || v > TRV_CAL_FORMAT_VERSION)
        ok = trv_cal_fail(&r.ctx, "format version %d, this build reads versions 1 to %d", v, TRV_CAL_FORMAT_VERSION);
      else if (v < 3) {
        for (int k = 0; v == 1 && k < TRV_EFFECT_COUNT; k++)
          trv_cal_table_set_effect(r.t, k, false, NAN, NAN, "a table of format version 1 holds no effects");
        g_free(r.t->estimator.name);
        r.t->estimator = (TrvEstimator){.name = g_strdup("not recorded (a table of format version 1 or 2)"),
                                        .level = TRV_EFFECTS_BOOTSTRAP_LEVEL};
      }
      r.version = v;
      header = true;
      continue;
    }
    if (line[0] == '#' || (line[0] == '\0' && r.section != 3 && r.section != 4)) continue;
    if (line[0] == '[') {
      int want = r.section + 1;
      if (want == SECTION_SOURCES && r.version < 3) want += 2;      /* versions 1 and 2: no [sources], [estimator] */
      if (want == SECTION_EFFECTS && r.version == 1) want += 2;     /* version 1: no [effects] nor [travel] */
      if (want == SECTION_TRAVEL && !strcmp(line, "[end]")) want++; /* [travel] is optional: older tables have none */
      if (want >= N_SECTIONS) {
        ok = trv_cal_fail(&r.ctx, "text after [end]");
        break;
      }
      char *expect = g_strdup_printf("[%s]", SECTIONS[want]);
      if (strcmp(line, expect)) ok = trv_cal_fail(&r.ctx, "found " Q ", expected %s", trv_cal_clip(line), line, expect);
      g_free(expect);
      if (ok && r.section >= 0) ok = close_section(&r);
      r.section = want;
      r.seen_keys = 0;
      r.next_row = 0;
      r.last_key = -1;
      r.hist = want == 9 ? &r.t->duration_s : want == 10 ? &r.t->distance_km : NULL;
      if (r.hist) r.hist->n_bins = 0;
      continue;
    }
    if (r.section < 0)
      ok = trv_cal_fail(&r.ctx, "data before the first section");
    else
      ok = data_line(&r, line);
  }
  if (ok && !header) ok = trv_cal_fail(&r.ctx, "empty file");
  if (ok && r.section != N_SECTIONS - 1) {
    r.ctx.line++;
    ok = trv_cal_fail(&r.ctx, "file ends before [end] (truncated?)");
  }
  g_free(copy);
  if (!ok) {
    trv_cal_table_free(r.t);
    return NULL;
  }
  /* Demand rows are the rates of exposed slots; the others are filled by
   * the rule the writer used. */
  int declared = r.t->filled_slots;
  trv_cal_table_fill_slots(r.t);
  if (declared != r.t->filled_slots) {
    r.ctx.line = 0;
    trv_cal_fail(&r.ctx, "[report] filled_slots=%d but %d slots have no exposure", declared, r.t->filled_slots);
    trv_cal_table_free(r.t);
    return NULL;
  }
  return r.t;
}

TrvCalTable *trv_cal_table_read(const char *path, GError **error) {
  char *text;
  size_t len;
  if (!trv_input_read(path, TRV_CAL_MAX_FILE_BYTES, "calibration table", TRV_INPUT_PIPE_OK, &text, &len, error))
    return NULL;
  TrvCalTable *t = trv_cal_table_parse(text, len, path, error);
  g_free(text);
  return t;
}
