/* caltable-read.c - reading and comparing URS calibration tables.
 *
 * The reader trusts nothing: the header names the format and version;
 * sections must come in the writer's order, each exactly once, and end with
 * [end] (a truncated file is refused); every line is split on TABs and each
 * field parsed in full; numbers must be finite and non-negative where the
 * format says so; indexes must point at existing zones; demand and OD rows
 * must be strictly increasing (no duplicates); zones must lie within one
 * cell of the grid's box; the report's rows_rejected must equal the sum of
 * the rejection counts.  The first problem stops the read with
 * TRV_ERROR_INPUT and "FILE:LINE: what is wrong". */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/posterior.h"
#include "urs/caltable.h"

static const char *const SECTIONS[] = {
    "city",  "grid", "report",     "rejections",  "stats",        "exposure", "zones",
    "demand", "od",  "duration_s", "distance_km", "source_zones", "weather",  "end",
};
enum { N_SECTIONS = sizeof SECTIONS / sizeof *SECTIONS };

typedef struct {
  const char *name;
  int line;
  GError **error;
} Ctx;

static bool fail(Ctx *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool fail(Ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(c->error, TRV_ERROR, TRV_ERROR_INPUT, "%s:%d: %s", c->name, c->line, msg);
  g_free(msg);
  return false;
}

/* A whole field as a double; "NA" gives NAN when na_ok. */
static bool get_double(Ctx *c, const char *s, bool na_ok, bool nonneg, double *out) {
  if (na_ok && !strcmp(s, "NA")) {
    *out = NAN;
    return true;
  }
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (!*s || *end || errno == ERANGE || !isfinite(v))
    return fail(c, "'%s' is not a finite number", s);
  if (nonneg && v < 0) return fail(c, "'%s' is negative", s);
  *out = v;
  return true;
}

static bool get_u64(Ctx *c, const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  if (!g_ascii_isdigit(*s)) return fail(c, "'%s' is not a non-negative integer", s);
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno == ERANGE) return fail(c, "'%s' is not a non-negative integer", s);
  *out = v;
  return true;
}

static bool get_int(Ctx *c, const char *s, int lo, int hi, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno == ERANGE) return fail(c, "'%s' is not an integer", s);
  if (v < lo || v > hi) return fail(c, "%ld is outside [%d, %d]", v, lo, hi);
  *out = (int)v;
  return true;
}

typedef struct {
  TrvCalTable *t;
  Ctx ctx;
  int section;        /* index in SECTIONS, -1 before the first */
  unsigned seen_keys; /* bit per key of a key=value section */
  int next_row;       /* exposure / zones / histogram rows expected in order */
  int64_t last_key;   /* strictly increasing row keys of demand / od */
  uint64_t rows_rejected;
  double grid_values[5];
  TrvHistogram *hist;
} Reader;

static bool key_value(Reader *r, const char *line, const char *const *keys, int n_keys,
                      int *which, const char **value) {
  const char *eq = strchr(line, '=');
  if (!eq) return fail(&r->ctx, "expected key=value in [%s]", SECTIONS[r->section]);
  for (int k = 0; k < n_keys; k++)
    if ((size_t)(eq - line) == strlen(keys[k]) && !strncmp(line, keys[k], eq - line)) {
      if (r->seen_keys & (1u << k)) return fail(&r->ctx, "key '%s' repeated", keys[k]);
      r->seen_keys |= 1u << k;
      *which = k;
      *value = eq + 1;
      return true;
    }
  return fail(&r->ctx, "unknown key '%.*s' in [%s]", (int)(eq - line), line,
              SECTIONS[r->section]);
}

static const char *const CITY_KEYS[] = {"name",         "source",     "timezone",
                                        "period_start", "period_end", "weather_station"};
static const char *const GRID_KEYS[] = {"lat_min", "lat_max", "lon_min", "lon_max", "cell_km2"};
static const char *const REPORT_KEYS[] = {"files", "rows_read", "rows_used", "rows_rejected",
                                          "filled_slots"};
static const char *const HIST_KEYS[] = {"bin_width", "n_bins"};

static bool fields(Reader *r, char *line, char **f, int n) {
  int k = 0;
  f[k++] = line;
  for (char *p = line; *p; p++)
    if (*p == '\t') {
      if (k == n) return fail(&r->ctx, "more than %d TAB-separated fields", n);
      *p = '\0';
      f[k++] = p + 1;
    }
  if (k != n) return fail(&r->ctx, "%d TAB-separated fields, expected %d", k, n);
  return true;
}

/* Checks done when a section ends (its keys all present, its rows all read). */
static bool close_section(Reader *r) {
  TrvCalTable *t = r->t;
  Ctx *c = &r->ctx;
  switch (r->section) {
  case 0:
    if (r->seen_keys != (1u << G_N_ELEMENTS(CITY_KEYS)) - 1) return fail(c, "[city] is incomplete");
    break;
  case 1: {
    if (r->seen_keys != (1u << G_N_ELEMENTS(GRID_KEYS)) - 1) return fail(c, "[grid] is incomplete");
    double *g = r->grid_values;
    if (!trv_hex_grid_init(&t->grid, g[0], g[1], g[2], g[3], g[4], c->error)) {
      char *msg = g_strdup(c->error && *c->error ? (*c->error)->message : "bad grid");
      g_clear_error(c->error);
      fail(c, "%s", msg);
      g_free(msg);
      return false;
    }
    break;
  }
  case 2:
    if (r->seen_keys != (1u << G_N_ELEMENTS(REPORT_KEYS)) - 1)
      return fail(c, "[report] is incomplete");
    break;
  case 3:
    if (trv_cal_table_rejected(t) != r->rows_rejected)
      return fail(c, "rejections add up to %" G_GUINT64_FORMAT ", [report] says %" G_GUINT64_FORMAT,
                  trv_cal_table_rejected(t), r->rows_rejected);
    break;
  case 5:
    if (r->next_row != TRV_SLOTS_PER_WEEK)
      return fail(c, "[exposure] has %d rows, expected %d", r->next_row, TRV_SLOTS_PER_WEEK);
    break;
  case 9:
  case 10:
    if (r->seen_keys != 3 || r->next_row != r->hist->n_bins)
      return fail(c, "[%s] is incomplete", SECTIONS[r->section]);
    break;
  default:
    break;
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
  Ctx *c = &r->ctx;
  if (r->seen_keys != 3) {
    int k;
    const char *v;
    if (!key_value(r, line, HIST_KEYS, 2, &k, &v)) return false;
    if (k == 0) return get_double(c, v, false, true, &r->hist->bin_width) &&
                       (r->hist->bin_width > 0 || fail(c, "bin_width must be > 0"));
    int n;
    if (!get_int(c, v, 1, 1000000, &n)) return false;
    g_free(r->hist->counts);
    r->hist->counts = g_new0(double, n);
    r->hist->n_bins = n;
    return true;
  }
  char *f[2];
  int i;
  if (!fields(r, line, f, 2) || !get_int(c, f[0], 0, r->hist->n_bins - 1, &i)) return false;
  if (i != r->next_row) return fail(c, "bin %d out of order, expected %d", i, r->next_row);
  r->next_row++;
  return get_double(c, f[1], false, true, &r->hist->counts[i]);
}

static bool data_line(Reader *r, char *line) {
  TrvCalTable *t = r->t;
  Ctx *c = &r->ctx;
  int k;
  const char *v;
  char *f[8];
  switch (r->section) {
  case 0:
    if (!key_value(r, line, CITY_KEYS, G_N_ELEMENTS(CITY_KEYS), &k, &v)) return false;
    {
      char **slot[] = {&t->city, &t->source, &t->timezone,
                       &t->period_start, &t->period_end, &t->weather_station};
      g_free(*slot[k]);
      *slot[k] = g_strdup(v);
    }
    return true;
  case 1:
    if (!key_value(r, line, GRID_KEYS, G_N_ELEMENTS(GRID_KEYS), &k, &v)) return false;
    return get_double(c, v, false, false, &r->grid_values[k]);
  case 2: {
    if (!key_value(r, line, REPORT_KEYS, G_N_ELEMENTS(REPORT_KEYS), &k, &v)) return false;
    uint64_t *slot[] = {&t->files, &t->rows_read, &t->rows_used, &r->rows_rejected};
    if (k < 4) return get_u64(c, v, slot[k]);
    return get_int(c, v, 0, TRV_SLOTS_PER_WEEK, &t->filled_slots);
  }
  case 3: {
    uint64_t count, at;
    if (!fields(r, line, f, 5) || !get_u64(c, f[1], &count) || !get_u64(c, f[3], &at))
      return false;
    if (!*f[0] || count == 0) return fail(c, "empty reason or zero count");
    if (trv_cal_table_rejection(t, f[0])) return fail(c, "reason '%s' repeated", f[0]);
    trv_cal_table_reject(t, f[0], f[2], at, f[4], strlen(f[4]));
    g_array_index(t->rejections, TrvRejection, t->rejections->len - 1).count = count;
    return true;
  }
  case 4: {
    double x;
    if (!fields(r, line, f, 2) || !get_double(c, f[1], true, false, &x)) return false;
    if (!*f[0] || !isnan(trv_cal_table_stat(t, f[0])))
      return fail(c, "statistic '%s' empty or repeated", f[0]);
    trv_cal_table_set_stat(t, f[0], x);
    return true;
  }
  case 5: {
    int s;
    if (!fields(r, line, f, 2) || !get_int(c, f[0], 0, TRV_SLOTS_PER_WEEK - 1, &s)) return false;
    if (s != r->next_row) return fail(c, "slot %d out of order, expected %d", s, r->next_row);
    r->next_row++;
    return get_double(c, f[1], false, true, &t->exposure_hours[s]);
  }
  case 6: {
    int i;
    TrvHexCell cell;
    if (!fields(r, line, f, 3) || !get_int(c, f[0], 0, G_MAXINT - 1, &i) ||
        !get_int(c, f[1], -(1 << 24), 1 << 24, &cell.q) ||
        !get_int(c, f[2], -(1 << 24), 1 << 24, &cell.r))
      return false;
    if (i != (int)t->zones->len) return fail(c, "zone %d out of order, expected %u", i, t->zones->len);
    if (trv_cal_table_find_zone(t, cell) >= 0) return fail(c, "zone (%d, %d) repeated", cell.q, cell.r);
    if (!zone_in_grid(&t->grid, cell)) return fail(c, "zone (%d, %d) lies outside the grid", cell.q, cell.r);
    trv_cal_table_zone(t, cell);
    return true;
  }
  case 7: {
    int z, s;
    double rate;
    if (!fields(r, line, f, 3) || !get_int(c, f[0], 0, (int)t->zones->len - 1, &z) ||
        !get_int(c, f[1], 0, TRV_SLOTS_PER_WEEK - 1, &s) || !get_double(c, f[2], false, true, &rate))
      return false;
    int64_t key = (int64_t)z * TRV_SLOTS_PER_WEEK + s;
    if (key <= r->last_key) return fail(c, "demand row out of order or repeated");
    if (!(t->exposure_hours[s] > 0)) return fail(c, "demand in slot %d, which has no exposure", s);
    r->last_key = key;
    g_array_index(t->zones, TrvZoneDemand, z).rate[s] = rate;
    return true;
  }
  case 8: {
    int o, d;
    double n;
    int last = (int)t->zones->len - 1;
    if (!fields(r, line, f, 3) || !get_int(c, f[0], 0, last, &o) || !get_int(c, f[1], 0, last, &d) ||
        !get_double(c, f[2], false, true, &n))
      return false;
    int64_t key = ((int64_t)o << 32) | d;
    if (key <= r->last_key) return fail(c, "od row out of order or repeated");
    r->last_key = key;
    TrvOdEntry e = {o, d, n};
    g_array_append_val(t->od, e);
    gint64 *hk = g_new(gint64, 1);
    *hk = key;
    g_hash_table_insert(t->od_index, hk, GINT_TO_POINTER((int)t->od->len));
    return true;
  }
  case 9:
  case 10:
    return histogram_line(r, line);
  case 11: {
    TrvSourceZone z = {0};
    if (!fields(r, line, f, 8) || !get_int(c, f[0], 0, 1000000, &z.id) ||
        !get_int(c, f[1], -(1 << 24), 1 << 24, &z.cell.q) ||
        !get_int(c, f[2], -(1 << 24), 1 << 24, &z.cell.r) || !get_double(c, f[3], false, false, &z.lat) ||
        !get_double(c, f[4], false, false, &z.lon) || !get_u64(c, f[5], &z.pickups) ||
        !get_u64(c, f[6], &z.dropoffs))
      return false;
    if (t->source_zones->len &&
        g_array_index(t->source_zones, TrvSourceZone, t->source_zones->len - 1).id >= z.id)
      return fail(c, "source zone %d out of order or repeated", z.id);
    z.borough = g_strdup(f[7]);
    g_array_append_val(t->source_zones, z);
    return true;
  }
  case 12: {
    TrvWeatherDay w;
    if (!fields(r, line, f, 4)) return false;
    if (sscanf(f[0], "%4d-%2d-%2d", &w.year, &w.month, &w.day) != 3 || strlen(f[0]) != 10 ||
        !g_date_valid_dmy(w.day, w.month, w.year))
      return fail(c, "'%s' is not a date YYYY-MM-DD", f[0]);
    if (!get_double(c, f[1], true, true, &w.rain_mm) || !get_double(c, f[2], true, false, &w.tmax_c) ||
        !get_double(c, f[3], true, false, &w.tmin_c))
      return false;
    if (t->weather->len) {
      const TrvWeatherDay *p = &g_array_index(t->weather, TrvWeatherDay, t->weather->len - 1);
      if ((p->year * 13 + p->month) * 32 + p->day >= (w.year * 13 + w.month) * 32 + w.day)
        return fail(c, "date %s out of order or repeated", f[0]);
    }
    g_array_append_val(t->weather, w);
    return true;
  }
  default:
    return fail(c, "text after [end]");
  }
}

/* The table starts on a unit grid; the [grid] section replaces it. */
TrvCalTable *trv_cal_table_parse(const char *text, size_t len, const char *name, GError **error) {
  TrvHexGrid initial_grid;
  trv_hex_grid_init(&initial_grid, 0, 1, 0, 1, TRV_HEX_DEFAULT_CELL_KM2, NULL);
  Reader r = {.t = trv_cal_table_new("", "", &initial_grid),
              .ctx = {name, 0, error},
              .section = -1,
              .last_key = -1};
  char *copy = g_strndup(text, len);
  char *save = copy, *line;
  bool ok = true, header = false;
  if (strlen(copy) != len) ok = fail(&r.ctx, "the file contains a NUL byte");
  while (ok && (line = save) && *line) {
    char *nl = strchr(line, '\n');
    if (!nl) {
      r.ctx.line++;
      ok = fail(&r.ctx, "the last line has no newline (truncated file?)");
      break;
    }
    *nl = '\0';
    save = nl + 1;
    r.ctx.line++;
    if (!header) {
      int v;
      char tail;
      if (sscanf(line, "trivium-urs-calibration %d%c", &v, &tail) != 1)
        ok = fail(&r.ctx, "not a Trivium URS calibration table (expected 'trivium-urs-calibration %d')",
                  TRV_CAL_FORMAT_VERSION);
      else if (v != TRV_CAL_FORMAT_VERSION)
        ok = fail(&r.ctx, "format version %d, this build reads version %d", v, TRV_CAL_FORMAT_VERSION);
      header = true;
      continue;
    }
    if (line[0] == '#' || (line[0] == '\0' && r.section != 3 && r.section != 4)) continue;
    if (line[0] == '[') {
      int want = r.section + 1;
      if (want >= N_SECTIONS) {
        ok = fail(&r.ctx, "text after [end]");
        break;
      }
      char *expect = g_strdup_printf("[%s]", SECTIONS[want]);
      if (strcmp(line, expect)) ok = fail(&r.ctx, "found %s, expected %s", line, expect);
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
    if (r.section < 0) ok = fail(&r.ctx, "data before the first section");
    else ok = data_line(&r, line);
  }
  if (ok && !header) ok = fail(&r.ctx, "empty file");
  if (ok && r.section != N_SECTIONS - 1) {
    r.ctx.line++;
    ok = fail(&r.ctx, "file ends before [end] (truncated?)");
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
    fail(&r.ctx, "[report] filled_slots=%d but %d slots have no exposure", declared, r.t->filled_slots);
    trv_cal_table_free(r.t);
    return NULL;
  }
  return r.t;
}

TrvCalTable *trv_cal_table_read(const char *path, GError **error) {
  char *text;
  gsize len;
  GError *local = NULL;
  if (!g_file_get_contents(path, &text, &len, &local)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: cannot read the calibration table: %s",
                path, local->message);
    g_error_free(local);
    return NULL;
  }
  TrvCalTable *t = trv_cal_table_parse(text, len, path, error);
  g_free(text);
  return t;
}

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
  if (a->files != b->files || a->rows_read != b->rows_read || a->rows_used != b->rows_used)
    return false;
  if (a->zones->len != b->zones->len || a->od->len != b->od->len ||
      a->rejections->len != b->rejections->len || a->stats->len != b->stats->len ||
      a->source_zones->len != b->source_zones->len || a->weather->len != b->weather->len)
    return false;
  for (guint i = 0; i < a->zones->len; i++) {
    const TrvZoneDemand *x = &g_array_index(a->zones, TrvZoneDemand, i);
    const TrvZoneDemand *y = &g_array_index(b->zones, TrvZoneDemand, i);
    if (x->cell.q != y->cell.q || x->cell.r != y->cell.r || memcmp(x->rate, y->rate, sizeof x->rate))
      return false;
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
    if (x->id != y->id || x->cell.q != y->cell.q || x->cell.r != y->cell.r || x->lat != y->lat ||
        x->lon != y->lon || x->pickups != y->pickups || x->dropoffs != y->dropoffs ||
        strcmp(x->borough, y->borough))
      return false;
  }
  for (guint i = 0; i < a->weather->len; i++) {
    const TrvWeatherDay *x = &g_array_index(a->weather, TrvWeatherDay, i);
    const TrvWeatherDay *y = &g_array_index(b->weather, TrvWeatherDay, i);
    if (x->year != y->year || x->month != y->month || x->day != y->day ||
        !same_double(x->rain_mm, y->rain_mm) || !same_double(x->tmax_c, y->tmax_c) ||
        !same_double(x->tmin_c, y->tmin_c))
      return false;
  }
  return true;
}
