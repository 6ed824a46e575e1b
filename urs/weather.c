/* weather.c - daily weather attached to a calibration table, and how much
 * of the trace's period it covers.
 *
 * Three CSV layouts, recognised by their header and read by column name:
 *  - NOAA GHCN-Daily temperature: station_id,date,tmax_f,tmin_f (deg F);
 *  - NOAA GHCN-Daily precipitation: station_id,date,prcp_in (inches);
 *  - MSS daily table (Changi): Station,Year,Month,Day,
 *    "Daily Rainfall Total (mm)", ..., "Maximum Temperature (°C)",
 *    "Minimum Temperature (°C)".  Some lines of the published file hold two
 *    records glued together (a missing newline before "Changi,"): exactly
 *    2n - 1 fields where the header has n, the n-th reading
 *    "<value><station>".  They are split at the station name and counted
 *    (stat weather_glued_records).
 * Values are stored in mm and deg C.  A value a station did not report (an
 * empty field, "-", the MSS dash "—", "NA") stays NAN; any other value must
 * be a number within physical bounds (-90..60 deg C, 0..2000 mm a day: the
 * world records), or the file is refused.  Every row must have the
 * header's field count, a valid date in TRV_CAL_YEAR_MIN..MAX (strict
 * YYYY-MM-DD for NOAA), the first row's station, and a date not seen
 * before in the file.  The file is read with a size limit
 * (TRV_IMPORT_MAX_WEATHER_BYTES) and must end with a newline.  The first
 * problem is an error naming FILE:LINE with what was found and what was
 * expected; the rows are merged into the table (by date, several files
 * combining their fields) only once the whole file has been read, so a
 * refused file leaves the table as it was. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/posterior.h"
#include "urs/import.h"

enum { NOAA_TEMPERATURE, NOAA_PRECIPITATION, MSS_DAILY };
enum { MAX_COLUMNS = 64 };
#define DEG_C_MIN -90.0
#define DEG_C_MAX 60.0
#define RAIN_MM_MAX 2000.0

typedef struct {
  const char *name;
  uint64_t line;
  GError **error;
} Where;

static bool fail(const Where *w, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool fail(const Where *w, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(w->error, TRV_ERROR, TRV_ERROR_INPUT, "%s:%" G_GUINT64_FORMAT ": %s", w->name, w->line, what);
  g_free(what);
  return false;
}

static int day_key(int y, int m, int d) { return (y * 13 + m) * 32 + d; }

static int compare_day(gconstpointer a, gconstpointer b) {
  const TrvWeatherDay *x = a, *y = b;
  int kx = day_key(x->year, x->month, x->day), ky = day_key(y->year, y->month, y->day);
  return (kx > ky) - (kx < ky);
}

/* A value in the file's unit: NAN when not reported, false with an error
 * when it is not a number in [lo, hi]. */
static bool value(const Where *w, const char *field, const char *column, double lo, double hi, double *out) {
  char *s = g_strstrip(g_strdup(field));
  bool missing = !*s || !strcmp(s, "-") || !strcmp(s, "\xe2\x80\x94") || !strcmp(s, "NA");
  char *end;
  errno = 0;
  double v = missing ? NAN : strtod(s, &end);
  bool ok = missing || (end != s && !*end && errno != ERANGE && v >= lo && v <= hi);
  if (!ok) {
    char *q = trv_cal_text(s, strlen(s), 40);
    fail(w, "%s '%s'; expected a number in [%g, %g] or an empty field", column, q, lo, hi);
    g_free(q);
  }
  g_free(s);
  *out = v;
  return ok;
}

/* An unsigned integer of 1 to max_digits digits (at most 9), spaces around
 * it, nothing else; the digits are not read past max_digits. */
static bool small_int(const char *s, int max_digits, int *out) {
  int v = 0, n = 0;
  while (*s == ' ') s++;
  for (; g_ascii_isdigit(*s); s++, n++) {
    if (n == max_digits) return false;
    v = v * 10 + (*s - '0');
  }
  while (*s == ' ') s++;
  *out = v;
  return n > 0 && !*s;
}

static bool date_in_range(int y, int m, int d) {
  return y >= TRV_CAL_YEAR_MIN && y <= TRV_CAL_YEAR_MAX && g_date_valid_dmy((GDateDay)d, (GDateMonth)m, (GDateYear)y);
}

typedef struct {
  int layout, c[6], n_header;
  char *station;
  GArray *rows;     /* TrvWeatherDay, the fields of this layout set */
  GHashTable *seen; /* day key -> line */
} File;

/* One record (fields already split) into f->rows. */
static bool record(File *file, char **f, const Where *w) {
  const int *c = file->c;
  int y = 0, m = 0, d = 0;
  bool date_ok;
  if (file->layout == MSS_DAILY) {
    date_ok = small_int(f[c[0]], 4, &y) && small_int(f[c[1]], 2, &m) && small_int(f[c[2]], 2, &d);
  } else {
    const char *s = f[c[0]];
    date_ok = strlen(s) == 10 && s[4] == '-' && s[7] == '-' && sscanf(s, "%4d-%2d-%2d", &y, &m, &d) == 3;
    for (int i = 0; date_ok && i < 10; i++) date_ok = i == 4 || i == 7 || g_ascii_isdigit(s[i]);
  }
  if (!date_ok || !date_in_range(y, m, d))
    return fail(w, "no valid date in this weather row; expected a date in %d-%d (%s)", TRV_CAL_YEAR_MIN,
                TRV_CAL_YEAR_MAX, file->layout == MSS_DAILY ? "Year, Month, Day" : "date as YYYY-MM-DD");
  if (strcmp(f[0], file->station)) {
    char *q = trv_cal_text(f[0], strlen(f[0]), 40);
    fail(w, "station '%s'; expected '%s' as on the first row (one station per file)", q, file->station);
    g_free(q);
    return false;
  }
  gpointer first = g_hash_table_lookup(file->seen, GINT_TO_POINTER(day_key(y, m, d)));
  if (first)
    return fail(w, "date %04d-%02d-%02d repeated (first at line %d); expected each day once", y, m, d,
                GPOINTER_TO_INT(first));
  g_hash_table_insert(file->seen, GINT_TO_POINTER(day_key(y, m, d)), GINT_TO_POINTER((int)w->line));
  TrvWeatherDay day = {y, m, d, NAN, NAN, NAN};
  if (file->layout == NOAA_TEMPERATURE) {
    double hi, lo;
    if (!value(w, f[c[1]], "tmax_f", DEG_C_MIN * 1.8 + 32, DEG_C_MAX * 1.8 + 32, &hi) ||
        !value(w, f[c[2]], "tmin_f", DEG_C_MIN * 1.8 + 32, DEG_C_MAX * 1.8 + 32, &lo))
      return false;
    day.tmax_c = (hi - 32.0) * 5.0 / 9.0;
    day.tmin_c = (lo - 32.0) * 5.0 / 9.0;
  } else if (file->layout == NOAA_PRECIPITATION) {
    double in;
    if (!value(w, f[c[1]], "prcp_in", 0, RAIN_MM_MAX / 25.4, &in)) return false;
    day.rain_mm = in * 25.4;
  } else if (!value(w, f[c[3]], "Daily Rainfall Total (mm)", 0, RAIN_MM_MAX, &day.rain_mm) ||
             !value(w, f[c[4]], "Maximum Temperature", DEG_C_MIN, DEG_C_MAX, &day.tmax_c) ||
             !value(w, f[c[5]], "Minimum Temperature", DEG_C_MIN, DEG_C_MAX, &day.tmin_c)) {
    return false;
  }
  g_array_append_val(file->rows, day);
  return true;
}

static int col(char **names, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!g_ascii_strcasecmp(g_strstrip(names[i]), name)) return i;
  return -1;
}

/* Recognises the layout from the header; false with an error if unknown. */
static bool header(File *file, char *line, const Where *w) {
  char **h = g_strsplit(trv_csv_skip_bom(line), ",", MAX_COLUMNS + 1);
  int n = file->n_header = (int)g_strv_length(h);
  int *c = file->c;
  int sid = col(h, n, "station_id"), date = col(h, n, "date");
  file->layout = -1;
  if (n > MAX_COLUMNS) {
    /* not a layout: refused below */
  } else if (sid == 0 && date >= 0 && col(h, n, "tmax_f") >= 0 && col(h, n, "tmin_f") >= 0) {
    file->layout = NOAA_TEMPERATURE;
    c[0] = date, c[1] = col(h, n, "tmax_f"), c[2] = col(h, n, "tmin_f");
  } else if (sid == 0 && date >= 0 && col(h, n, "prcp_in") >= 0) {
    file->layout = NOAA_PRECIPITATION;
    c[0] = date, c[1] = c[2] = col(h, n, "prcp_in");
  } else if (col(h, n, "Station") == 0 && col(h, n, "Year") >= 0 && col(h, n, "Month") >= 0 && col(h, n, "Day") >= 0 &&
             col(h, n, "Daily Rainfall Total (mm)") >= 0 &&
             col(h, n,
                 "Maximum Temperature (\xc2\xb0"
                 "C)") >= 0 &&
             col(h, n,
                 "Minimum Temperature (\xc2\xb0"
                 "C)") >= 0) {
    file->layout = MSS_DAILY;
    c[0] = col(h, n, "Year"), c[1] = col(h, n, "Month"), c[2] = col(h, n, "Day");
    c[3] = col(h, n, "Daily Rainfall Total (mm)");
    c[4] = col(h, n,
               "Maximum Temperature (\xc2\xb0"
               "C)");
    c[5] = col(h, n,
               "Minimum Temperature (\xc2\xb0"
               "C)");
  }
  g_strfreev(h);
  if (file->layout < 0)
    return fail(w, "not a weather file this reader knows; expected the header of NOAA GHCN daily data "
                   "(station_id,date,tmax_f,tmin_f or station_id,date,prcp_in) or of the MSS daily table");
  return true;
}

/* One data line: one record, or two glued ones (MSS). */
static bool data_line(File *file, char *line, const Where *w) {
  char **f = g_strsplit(line, ",", 2 * MAX_COLUMNS);
  int n = (int)g_strv_length(f), nh = file->n_header;
  bool ok = true;
  if (!file->station) {
    const char *bad = NULL;
    bool text = *f[0] && g_utf8_validate(f[0], -1, &bad) && strlen(f[0]) <= 64;
    for (const char *p = f[0]; text && *p; p++) text = (unsigned char)*p >= 0x20 && *p != 0x7f;
    if (!text) {
      g_strfreev(f);
      return fail(w, "the station name is not UTF-8 text of 1 to 64 bytes without control characters; expected "
                     "a station name of UTF-8 text");
    }
    file->station = g_strdup(f[0]);
  }
  char *glue = file->layout == MSS_DAILY && n == 2 * nh - 1 ? g_strrstr(f[nh - 1], file->station) : NULL;
  if (glue && glue != f[nh - 1]) {
    /* Two records glued: field nh-1 reads "<value><station>". */
    char **second = g_new0(char *, nh + 1);
    second[0] = g_strdup(file->station);
    for (int i = nh; i < n; i++) second[i - nh + 1] = g_strdup(f[i]);
    *glue = '\0';
    ok = record(file, f, w) && record(file, second, w);
    g_strfreev(second);
    g_strfreev(f);
    return ok;
  }
  if (n != nh)
    ok = fail(w, "%d fields; expected %d as in the header", n, nh);
  else
    ok = record(file, f, w);
  g_strfreev(f);
  return ok;
}

/* Merges a file's rows into the table: the fields its layout carries. */
static void merge(TrvCalTable *t, const File *file, int glued) {
  GHashTable *days = g_hash_table_new(g_direct_hash, g_direct_equal);
  for (guint i = 0; i < t->weather->len; i++) {
    const TrvWeatherDay *w = &g_array_index(t->weather, TrvWeatherDay, i);
    g_hash_table_insert(days, GINT_TO_POINTER(day_key(w->year, w->month, w->day)), GINT_TO_POINTER((int)i + 1));
  }
  for (guint i = 0; i < file->rows->len; i++) {
    const TrvWeatherDay *r = &g_array_index(file->rows, TrvWeatherDay, i);
    int at = GPOINTER_TO_INT(g_hash_table_lookup(days, GINT_TO_POINTER(day_key(r->year, r->month, r->day))));
    if (!at) {
      TrvWeatherDay blank = {r->year, r->month, r->day, NAN, NAN, NAN};
      g_array_append_val(t->weather, blank);
      at = (int)t->weather->len;
      g_hash_table_insert(days, GINT_TO_POINTER(day_key(r->year, r->month, r->day)), GINT_TO_POINTER(at));
    }
    TrvWeatherDay *w = &g_array_index(t->weather, TrvWeatherDay, at - 1);
    if (file->layout != NOAA_PRECIPITATION) w->tmax_c = r->tmax_c, w->tmin_c = r->tmin_c;
    if (file->layout != NOAA_TEMPERATURE) w->rain_mm = r->rain_mm;
  }
  g_hash_table_destroy(days);
  g_array_sort(t->weather, compare_day);
  if (file->station && !strstr(t->weather_station, file->station)) {
    char *joined =
        t->weather_station[0] ? g_strconcat(t->weather_station, ",", file->station, NULL) : g_strdup(file->station);
    g_free(t->weather_station);
    t->weather_station = joined;
  }
  if (glued) trv_cal_table_add_stat(t, "weather_glued_records", glued);
}

bool trv_weather_attach_input(TrvCalTable *t, const TrvImportInput *in, GError **error) {
  TrvLineReader rd;
  if (!trv_line_reader_open(&rd, in, TRV_IMPORT_MAX_WEATHER_BYTES, "weather file", error)) return false;
  File file = {.layout = -1,
               .rows = g_array_new(FALSE, FALSE, sizeof(TrvWeatherDay)),
               .seen = g_hash_table_new(g_direct_hash, g_direct_equal)};
  Where w = {in->name, 0, error};
  char *line;
  size_t len;
  int glued = 0;
  bool ok = true;
  while (ok && (line = trv_line_reader_next(&rd, &len))) {
    w.line = rd.line_no;
    if (len == 0) continue;
    if (!trv_line_is_text(line, len)) {
      ok = fail(&w, "a NUL byte; expected a text row");
    } else if (file.layout < 0) {
      ok = header(&file, line, &w);
    } else {
      guint before = file.rows->len;
      ok = data_line(&file, line, &w);
      glued += ok && file.rows->len == before + 2;
    }
  }
  if (ok && file.layout < 0) {
    w.line = 1;
    ok = fail(&w, "empty weather file; expected a header and one row per day");
  }
  if (ok) {
    merge(t, &file, glued);
    trv_cal_table_add_source(t, in->name, rd.data, rd.len);
  }
  trv_line_reader_close(&rd);
  g_free(file.station);
  g_array_free(file.rows, TRUE);
  g_hash_table_destroy(file.seen);
  return ok;
}

bool trv_weather_attach(TrvCalTable *t, const char *path, GError **error) {
  TrvImportInput in = {path, NULL, 0};
  return trv_weather_attach_input(t, &in, error);
}

/* ---- coverage of the trace's period ------------------------------------- */

/* Days since 1970 of "YYYY-MM-DDTHH:MM:SS", and whether the time is 00:00:00. */
static bool local_day(const char *s, int64_t *day, bool *midnight) {
  int y, m, d, h, mi, se;
  if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &m, &d, &h, &mi, &se) != 6 || !g_date_valid_dmy(d, m, y)) return false;
  *day = trv_days_from_civil(y, m, d);
  *midnight = h == 0 && mi == 0 && se == 0;
  return true;
}

/* The trace's first and last local day (days since 1970), false without a
 * period. */
static bool trace_days(const TrvCalTable *t, int64_t *first, int64_t *last) {
  bool m0, m1;
  if (!local_day(t->period_start, first, &m0) || !local_day(t->period_end, last, &m1) || *last < *first) return false;
  if (m1 && *last > *first) (*last)--; /* an end at midnight is exclusive (TLC's months) */
  return true;
}

static char *iso_day(int64_t day) {
  GDateTime *dt = g_date_time_new_from_unix_utc(day * 86400);
  char *s = g_date_time_format(dt, "%Y-%m-%d");
  g_date_time_unref(dt);
  return s;
}

void trv_import_weather_coverage(const TrvCalTable *t, int *n_days, int *uncovered) {
  int64_t first, last;
  *n_days = *uncovered = 0;
  if (!trace_days(t, &first, &last)) return;
  GHashTable *have = g_hash_table_new(g_direct_hash, g_direct_equal);
  for (guint i = 0; i < t->weather->len; i++) {
    const TrvWeatherDay *w = &g_array_index(t->weather, TrvWeatherDay, i);
    if (!isnan(w->rain_mm) || !isnan(w->tmax_c) || !isnan(w->tmin_c))
      g_hash_table_add(have, GINT_TO_POINTER((int)trv_days_from_civil(w->year, w->month, w->day)));
  }
  for (int64_t d = first; d <= last; d++) {
    (*n_days)++;
    *uncovered += !g_hash_table_contains(have, GINT_TO_POINTER((int)d));
  }
  g_hash_table_destroy(have);
}

void trv_import_check_weather(const TrvCalTable *t, GPtrArray *warnings) {
  int days, uncovered;
  int64_t first, last;
  trv_import_weather_coverage(t, &days, &uncovered);
  if (!uncovered || !trace_days(t, &first, &last)) return;
  char *from = iso_day(first), *to = iso_day(last);
  if (!t->weather->len)
    trv_import_warn(warnings, "no weather for the trace's %d day%s (%s..%s): give --weather FILE", days,
                    days == 1 ? "" : "s", from, to);
  else
    trv_import_warn(warnings,
                    "weather covers %d of the trace's %d day%s (%s..%s): %d day%s uncovered; the table's %u weather "
                    "days serve as climatology",
                    days - uncovered, days, days == 1 ? "" : "s", from, to, uncovered, uncovered == 1 ? "" : "s",
                    t->weather->len);
  g_free(from);
  g_free(to);
}
