/* caltable-read.c - reading URS calibration tables, and the size-limited
 * file reader the trace importers share.
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
 * error or not identifiable with NA (caleffects.c); a version 1 table,
 * which has no [effects], reads with every effect not identifiable.
 * What it accepts is exactly what
 * the writer would write back: rates rounded to 6 digits and above 0.  The
 * first problem stops the read: TRV_ERROR_INPUT, "FILE:LINE: what was
 * found; what was expected". */
#include <config.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/decimal.h"
#include "core/input.h"
#include "core/posterior.h"
#include "urs/caltable.h"

static const char *const SECTIONS[] = {
    "city",  "grid", "report",     "rejections",  "stats",        "exposure", "zones",
    "demand", "od",  "duration_s", "distance_km", "source_zones", "weather",  "effects", "end",
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

/* Fields are quoted in messages up to 60 bytes (a hostile file's field can
 * be megabytes long), cut on a character boundary: Q takes clip(s), s. */
#define Q "%.*s"
static int clip(const char *s) {
  size_t n = strnlen(s, 61);
  if (n <= 60) return (int)n;
  for (n = 60; n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80; n--) continue;
  return (int)n;
}

/* A whole field as a double in [lo, hi]; "NA" gives NAN when na_ok. */
static bool get_double(Ctx *c, const char *s, bool na_ok, double lo, double hi, double *out) {
  if (na_ok && !strcmp(s, "NA")) {
    *out = NAN;
    return true;
  }
  double v;
  if (!trv_decimal_double(s, &v)) { /* not plain: the C library reads it, and refuses what it refuses */
    char *end;
    errno = 0;
    v = strtod(s, &end);
    if (!*s || *end || errno == ERANGE || !isfinite(v))
      return fail(c, "'" Q "' is not a finite number%s", clip(s), s, na_ok ? " or NA" : "");
  }
  if (v < lo && lo == 0) return fail(c, "'" Q "' is negative; expected a number >= 0", clip(s), s);
  if (v < lo || v > hi) return fail(c, Q " is outside [%g, %g]", clip(s), s, lo, hi);
  *out = v;
  return true;
}

/* Whether s is a plain decimal ([+-]digits[.digits][e[+-]digits]) of at
 * most six significant digits.  Such a field needs no trv_cal_round_rate
 * (the writer prints rates with %.6g): the nearest double to it prints back
 * to the same six digits, 1e-6 apart where doubles are 1e-16 apart, so
 * rounding gives that double again.  A normal double only: a subnormal has
 * fewer digits than that. */
static bool six_digit_decimal(const char *s, double v) {
  if (!(v >= DBL_MIN)) return false;
  if (*s == '+' || *s == '-') s++;
  int digits = 0, dots = 0;
  bool leading = true;
  for (; *s && *s != 'e' && *s != 'E'; s++) {
    if (*s == '.') {
      if (++dots > 1) return false;
    } else if (g_ascii_isdigit(*s)) {
      if (*s != '0' || !leading) leading = false, digits++;
    } else {
      return false;
    }
  }
  if (*s) { /* the exponent */
    s++;
    if (*s == '+' || *s == '-') s++;
    if (!*s) return false;
    for (; *s; s++)
      if (!g_ascii_isdigit(*s)) return false;
  }
  return digits <= 6;
}

static bool get_u64(Ctx *c, const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  if (!g_ascii_isdigit(*s)) return fail(c, "'" Q "' is not a non-negative integer", clip(s), s);
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno == ERANGE) return fail(c, "'" Q "' is not a non-negative integer below 2^64", clip(s), s);
  *out = v;
  return true;
}

static bool get_int(Ctx *c, const char *s, int lo, int hi, int *out) {
  long v;
  if (!trv_decimal_int(s, &v)) { /* not plain digits: the C library reads it, and refuses what it refuses */
    char *end;
    errno = 0;
    v = strtol(s, &end, 10);
    if (!*s || *end || errno == ERANGE) return fail(c, "'" Q "' is not an integer", clip(s), s);
  }
  if (v < lo || v > hi) return fail(c, "%ld is outside [%d, %d]", v, lo, hi);
  *out = (int)v;
  return true;
}

/* n decimal digits at s, nothing else. */
static bool digits(const char *s, int n, int *out) {
  int v = 0;
  for (int i = 0; i < n; i++) {
    if (!g_ascii_isdigit(s[i])) return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

/* A strict YYYY-MM-DD at s (the caller checks what follows) of a valid
 * date within TRV_CAL_YEAR_MIN..MAX: anything the writer would print
 * differently is refused, so that reading and writing again gives the same
 * bytes. */
static bool parse_date(const char *s, int *y, int *m, int *d) {
  return digits(s, 4, y) && s[4] == '-' && digits(s + 5, 2, m) && s[7] == '-' && digits(s + 8, 2, d) &&
         *y >= TRV_CAL_YEAR_MIN && *y <= TRV_CAL_YEAR_MAX && g_date_valid_dmy((GDateDay)*d, (GDateMonth)*m,
                                                                              (GDateYear)*y);
}

/* "" or a local time YYYY-MM-DDTHH:MM:SS (the period's ends). */
static bool local_time_ok(const char *s) {
  int y, mo, d, h = 0, mi = 0, se = 0;
  if (!*s) return true;
  return strlen(s) == 19 && parse_date(s, &y, &mo, &d) && s[10] == 'T' && digits(s + 11, 2, &h) && s[13] == ':' &&
         digits(s + 14, 2, &mi) && s[16] == ':' && digits(s + 17, 2, &se) && h < 24 && mi < 60 && se < 60;
}

typedef struct {
  TrvCalTable *t;
  Ctx ctx;
  int section;        /* index in SECTIONS, -1 before the first */
  unsigned seen_keys; /* bit per key of a key=value section */
  int next_row;       /* exposure / zones / histogram rows expected in order */
  int64_t last_key;   /* strictly increasing row keys of demand / od */
  uint64_t rows_rejected, rejected_sum;
  double grid_values[5];
  TrvHistogram *hist;
  int version;        /* of the header: 1 has no [effects] */
} Reader;

static bool key_value(Reader *r, const char *line, const char *const *keys, int n_keys,
                      int *which, const char **value) {
  const char *eq = strchr(line, '=');
  if (!eq) return fail(&r->ctx, "'" Q "' in [%s]; expected key=value", clip(line), line, SECTIONS[r->section]);
  for (int k = 0; k < n_keys; k++)
    if ((size_t)(eq - line) == strlen(keys[k]) && !strncmp(line, keys[k], eq - line)) {
      if (r->seen_keys & (1u << k)) return fail(&r->ctx, "key '%s' repeated", keys[k]);
      r->seen_keys |= 1u << k;
      *which = k;
      *value = eq + 1;
      return true;
    }
  return fail(&r->ctx, "unknown key '" Q "' in [%s]", MIN((int)(eq - line), clip(line)), line,
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
      if (k == n) return fail(&r->ctx, "more than %d TAB-separated fields; expected %d", n, n);
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
    if (!*t->city || !*t->source) return fail(c, "[city] has an empty name or source");
    /* Not checked for order: these are local wall-clock times, and a
     * trace within a daylight-saving fall-back hour ends "before" it
     * starts. */
    if (!local_time_ok(t->period_start) || !local_time_ok(t->period_end) || (!*t->period_start != !*t->period_end))
      return fail(c, "period '" Q "' .. '" Q "'; expected two local times YYYY-MM-DDTHH:MM:SS of years %d-%d",
                  clip(t->period_start), t->period_start, clip(t->period_end), t->period_end, TRV_CAL_YEAR_MIN,
                  TRV_CAL_YEAR_MAX);
    break;
  case 1: {
    if (r->seen_keys != (1u << G_N_ELEMENTS(GRID_KEYS)) - 1) return fail(c, "[grid] is incomplete");
    double *g = r->grid_values;
    GError *why = NULL;
    if (!trv_hex_grid_init(&t->grid, g[0], g[1], g[2], g[3], g[4], &why)) {
      fail(c, "%s", why->message);
      g_error_free(why);
      return false;
    }
    break;
  }
  case 2:
    if (r->seen_keys != (1u << G_N_ELEMENTS(REPORT_KEYS)) - 1)
      return fail(c, "[report] is incomplete");
    break;
  case 3:
    if (r->rejected_sum != r->rows_rejected)
      return fail(c, "rejections add up to %" G_GUINT64_FORMAT ", [report] says %" G_GUINT64_FORMAT,
                  r->rejected_sum, r->rows_rejected);
    break;
  case 5:
    if (r->next_row != TRV_SLOTS_PER_WEEK)
      return fail(c, "[exposure] has %d rows, expected %d", r->next_row, TRV_SLOTS_PER_WEEK);
    break;
  case 13:
    if (r->next_row != TRV_EFFECT_COUNT)
      return fail(c, "[effects] has %d rows, expected %d", r->next_row, TRV_EFFECT_COUNT);
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
    if (k == 0) return get_double(c, v, false, 0, 1e9, &r->hist->bin_width) &&
                       (r->hist->bin_width > 0 || fail(c, "bin_width must be > 0"));
    int n;
    if (!get_int(c, v, 1, TRV_CAL_MAX_BINS, &n)) return false;
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
  return get_double(c, f[1], false, 0, TRV_CAL_MAX_COUNT, &r->hist->counts[i]);
}

static bool rejection_line(Reader *r, char **f) {
  TrvCalTable *t = r->t;
  Ctx *c = &r->ctx;
  uint64_t count, at;
  if (!get_u64(c, f[1], &count) || !get_u64(c, f[3], &at)) return false;
  if (!*f[0] || count == 0) return fail(c, "empty reason or zero count");
  if (trv_cal_table_rejection(t, f[0])) return fail(c, "reason '" Q "' repeated", clip(f[0]), f[0]);
  if (t->rejections->len >= TRV_CAL_MAX_REASONS)
    return fail(c, "more than %d rejection reasons", TRV_CAL_MAX_REASONS);
  if (strlen(f[4]) > TRV_CAL_MAX_TEXT)
    return fail(c, "a quoted line of %zu bytes; expected at most %d", strlen(f[4]), TRV_CAL_MAX_TEXT);
  if (r->rejected_sum + count < r->rejected_sum) return fail(c, "rejection counts overflow 2^64");
  r->rejected_sum += count;
  trv_cal_table_reject(t, f[0], f[2], at, f[4], strlen(f[4]));
  g_array_index(t->rejections, TrvRejection, t->rejections->len - 1).count = count;
  return true;
}

static bool source_zone_line(Reader *r, char **f) {
  TrvCalTable *t = r->t;
  Ctx *c = &r->ctx;
  TrvSourceZone z = {0};
  if (!get_int(c, f[0], 0, 1000000, &z.id) || !get_int(c, f[1], -(1 << 24), 1 << 24, &z.cell.q) ||
      !get_int(c, f[2], -(1 << 24), 1 << 24, &z.cell.r) || !get_double(c, f[3], false, -90, 90, &z.lat) ||
      !get_double(c, f[4], false, -180, 180, &z.lon) || !get_u64(c, f[5], &z.pickups) ||
      !get_u64(c, f[6], &z.dropoffs))
    return false;
  if (t->source_zones->len &&
      g_array_index(t->source_zones, TrvSourceZone, t->source_zones->len - 1).id >= z.id)
    return fail(c, "source zone %d out of order or repeated", z.id);
  TrvHexCell at = trv_hex_cell_of_point(&t->grid, z.lat, z.lon);
  if (!trv_hex_grid_contains(&t->grid, z.lat, z.lon) || at.q != z.cell.q || at.r != z.cell.r)
    return fail(c, "source zone %d at (%d, %d); expected its centroid's cell inside the grid", z.id, z.cell.q,
                z.cell.r);
  z.borough = g_strdup(f[7]);
  g_array_append_val(t->source_zones, z);
  return true;
}

static bool weather_line(Reader *r, char **f) {
  TrvCalTable *t = r->t;
  Ctx *c = &r->ctx;
  TrvWeatherDay w;
  if (strlen(f[0]) != 10 || !parse_date(f[0], &w.year, &w.month, &w.day))
    return fail(c, "'" Q "' is not a date YYYY-MM-DD in %d-%d", clip(f[0]), f[0], TRV_CAL_YEAR_MIN,
                TRV_CAL_YEAR_MAX);
  /* The same physical bounds as the weather reader (the world records). */
  if (!get_double(c, f[1], true, 0, 2000, &w.rain_mm) || !get_double(c, f[2], true, -90, 60, &w.tmax_c) ||
      !get_double(c, f[3], true, -90, 60, &w.tmin_c))
    return false;
  if (t->weather->len) {
    const TrvWeatherDay *p = &g_array_index(t->weather, TrvWeatherDay, t->weather->len - 1);
    if ((p->year * 13 + p->month) * 32 + p->day >= (w.year * 13 + w.month) * 32 + w.day)
      return fail(c, "date %s out of order or repeated", f[0]);
  }
  g_array_append_val(t->weather, w);
  return true;
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
    /* The only fields that may hold a TAB in the file's text; the writer
     * refuses one in any string. */
    if (strchr(v, '\t')) return fail(c, "a TAB in the value of '%s'; expected text without control characters",
                                      CITY_KEYS[k]);
    {
      char **slot[] = {&t->city, &t->source, &t->timezone,
                       &t->period_start, &t->period_end, &t->weather_station};
      g_free(*slot[k]);
      *slot[k] = g_strdup(v);
    }
    return true;
  case 1:
    if (!key_value(r, line, GRID_KEYS, G_N_ELEMENTS(GRID_KEYS), &k, &v)) return false;
    return get_double(c, v, false, -G_MAXDOUBLE, G_MAXDOUBLE, &r->grid_values[k]);
  case 2: {
    if (!key_value(r, line, REPORT_KEYS, G_N_ELEMENTS(REPORT_KEYS), &k, &v)) return false;
    uint64_t *slot[] = {&t->files, &t->rows_read, &t->rows_used, &r->rows_rejected};
    if (k < 4) return get_u64(c, v, slot[k]);
    return get_int(c, v, 0, TRV_SLOTS_PER_WEEK, &t->filled_slots);
  }
  case 3:
    return fields(r, line, f, 5) && rejection_line(r, f);
  case 4: {
    double x;
    if (!fields(r, line, f, 2) || !get_double(c, f[1], true, -G_MAXDOUBLE, G_MAXDOUBLE, &x)) return false;
    if (!*f[0] || !isnan(trv_cal_table_stat(t, f[0])))
      return fail(c, "statistic '" Q "' empty or repeated", clip(f[0]), f[0]);
    if (t->stats->len >= TRV_CAL_MAX_STATS) return fail(c, "more than %d statistics", TRV_CAL_MAX_STATS);
    trv_cal_table_set_stat(t, f[0], x);
    return true;
  }
  case 5: {
    int s;
    if (!fields(r, line, f, 2) || !get_int(c, f[0], 0, TRV_SLOTS_PER_WEEK - 1, &s)) return false;
    if (s != r->next_row) return fail(c, "slot %d out of order, expected %d", s, r->next_row);
    r->next_row++;
    return get_double(c, f[1], false, 0, TRV_CAL_MAX_EXPOSURE_H, &t->exposure_hours[s]);
  }
  case 6: {
    int i;
    TrvHexCell cell;
    if (!fields(r, line, f, 3) || !get_int(c, f[0], 0, G_MAXINT - 1, &i) ||
        !get_int(c, f[1], -(1 << 24), 1 << 24, &cell.q) ||
        !get_int(c, f[2], -(1 << 24), 1 << 24, &cell.r))
      return false;
    if (i != (int)t->zones->len) return fail(c, "zone %d out of order, expected %u", i, t->zones->len);
    if (i >= TRV_CAL_MAX_ZONES) return fail(c, "more than %d zones", TRV_CAL_MAX_ZONES);
    if (trv_cal_table_find_zone(t, cell) >= 0) return fail(c, "zone (%d, %d) repeated", cell.q, cell.r);
    if (!zone_in_grid(&t->grid, cell)) return fail(c, "zone (%d, %d) lies outside the grid", cell.q, cell.r);
    trv_cal_table_zone(t, cell);
    return true;
  }
  case 7: {
    int z, s;
    double rate;
    if (!fields(r, line, f, 3) || !get_int(c, f[0], 0, (int)t->zones->len - 1, &z) ||
        !get_int(c, f[1], 0, TRV_SLOTS_PER_WEEK - 1, &s) || !get_double(c, f[2], false, 0, TRV_CAL_MAX_RATE, &rate))
      return false;
    /* The writer leaves zero rates out: a row of 0 (or -0) would not be
     * written back. */
    if (!six_digit_decimal(f[2], rate)) rate = trv_cal_round_rate(rate);
    if (!(rate > 0)) return fail(c, "rate " Q "; expected a rate > 0 (zero rates are not written)", clip(f[2]), f[2]);
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
        !get_double(c, f[2], false, 0, TRV_CAL_MAX_COUNT, &n))
      return false;
    int64_t key = ((int64_t)o << 32) | d;
    if (key <= r->last_key) return fail(c, "od row out of order or repeated");
    if (t->od->len >= TRV_CAL_MAX_OD) return fail(c, "more than %d OD pairs", TRV_CAL_MAX_OD);
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
  case 11:
    return fields(r, line, f, 8) && source_zone_line(r, f);
  case 12:
    return fields(r, line, f, 4) && weather_line(r, f);
  case 13: {
    if (!fields(r, line, f, 5)) return false;
    char *why = trv_cal_effect_parse(t, r->next_row, f);
    if (why) {
      fail(c, "%s", why);
      g_free(why);
      return false;
    }
    r->next_row++;
    return true;
  }
  default:
    return fail(c, "text after [end]");
  }
}

/* The whole text is UTF-8 with no control character but TAB and newline
 * (the writer never writes another); the first offence is reported with
 * its line.  Checked before any line is parsed, so the parser and every
 * message quoting a field see valid text. */
static bool text_ok(Ctx *c, const char *text, size_t len) {
  const char *bad = NULL;
  if (!g_utf8_validate_len(text, len, &bad)) {
    c->line = 1;
    for (const char *p = text; p < bad; p++) c->line += *p == '\n';
    return fail(c, "byte 0x%02x is not UTF-8; expected UTF-8 text", (unsigned char)*bad);
  }
  c->line = 1;
  for (size_t i = 0; i < len; i++) {
    unsigned char b = (unsigned char)text[i];
    if (b == '\n') c->line++;
    else if ((b < 0x20 && b != '\t') || b == 0x7f)
      return fail(c, "control character 0x%02x; expected text (TAB and newline only)", b);
  }
  c->line = 0;
  return true;
}

/* The table starts on a unit grid; the [grid] section replaces it. */
TrvCalTable *trv_cal_table_parse(const char *text, size_t len, const char *name, GError **error) {
  TrvHexGrid initial_grid;
  trv_hex_grid_init(&initial_grid, 0, 1, 0, 1, TRV_HEX_DEFAULT_CELL_KM2, NULL);
  Reader r = {.t = trv_cal_table_new("", "", &initial_grid),
              .ctx = {name, 0, error},
              .section = -1,
              .last_key = -1};
  if (len > TRV_CAL_MAX_FILE_BYTES) {
    fail(&r.ctx, "%zu bytes; a calibration table has at most %zu", len, TRV_CAL_MAX_FILE_BYTES);
    trv_cal_table_free(r.t);
    return NULL;
  }
  bool ok = text_ok(&r.ctx, text, len), header = false;
  char *copy = g_strndup(text, len);
  char *save = copy, *line;
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
      else if (v != TRV_CAL_FORMAT_VERSION && v != 1)
        ok = fail(&r.ctx, "format version %d, this build reads versions 1 and %d", v, TRV_CAL_FORMAT_VERSION);
      else if (v == 1)
        for (int k = 0; k < TRV_EFFECT_COUNT; k++)
          trv_cal_table_set_effect(r.t, k, false, NAN, NAN, "a table of format version 1 holds no effects");
      r.version = v;
      header = true;
      continue;
    }
    if (line[0] == '#' || (line[0] == '\0' && r.section != 3 && r.section != 4)) continue;
    if (line[0] == '[') {
      int want = r.section + 1;
      if (want == 13 && r.version == 1) want++; /* version 1 has no [effects] */
      if (want >= N_SECTIONS) {
        ok = fail(&r.ctx, "text after [end]");
        break;
      }
      char *expect = g_strdup_printf("[%s]", SECTIONS[want]);
      if (strcmp(line, expect)) ok = fail(&r.ctx, "found " Q ", expected %s", clip(line), line, expect);
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
  size_t len;
  if (!trv_input_read(path, TRV_CAL_MAX_FILE_BYTES, "calibration table", TRV_INPUT_PIPE_OK, &text, &len, error))
    return NULL;
  TrvCalTable *t = trv_cal_table_parse(text, len, path, error);
  g_free(text);
  return t;
}
