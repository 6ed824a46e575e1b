/* weather.c - daily weather attached to a calibration table.
 *
 * Three CSV layouts, recognised by their header and read by column name:
 *  - NOAA GHCN-Daily temperature: station_id,date,tmax_f,tmin_f (deg F);
 *  - NOAA GHCN-Daily precipitation: station_id,date,prcp_in (inches);
 *  - MSS daily table (Changi): Station,Year,Month,Day,
 *    "Daily Rainfall Total (mm)", ..., "Maximum Temperature (°C)",
 *    "Minimum Temperature (°C)".  Some lines of the published file hold two
 *    records glued together (a missing newline before "Changi,"); they are
 *    split at the station name and counted (stat weather_glued_records).
 * Values are stored in mm and deg C; an empty or non-numeric value (the MSS
 * marks gaps with a dash) stays NAN.  Days from several files merge by
 * date.  A row whose date does not parse is an input error (file:line). */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/posterior.h"
#include "urs/import.h"

enum { NOAA_TEMPERATURE, NOAA_PRECIPITATION, MSS_DAILY };

static int compare_day(gconstpointer a, gconstpointer b) {
  const TrvWeatherDay *x = a, *y = b;
  int kx = (x->year * 13 + x->month) * 32 + x->day, ky = (y->year * 13 + y->month) * 32 + y->day;
  return (kx > ky) - (kx < ky);
}

static double number_or_nan(const char *s) {
  char *end;
  while (*s == ' ') s++;
  double v = strtod(s, &end);
  while (*end == ' ') end++;
  return (end == s || *end || !isfinite(v)) ? NAN : v;
}

static TrvWeatherDay *day_of(GHashTable *days, GArray *list, int y, int m, int d) {
  int key = (y * 13 + m) * 32 + d;
  gpointer v = g_hash_table_lookup(days, GINT_TO_POINTER(key));
  if (v) return &g_array_index(list, TrvWeatherDay, GPOINTER_TO_INT(v) - 1);
  TrvWeatherDay w = {y, m, d, NAN, NAN, NAN};
  g_array_append_val(list, w);
  g_hash_table_insert(days, GINT_TO_POINTER(key), GINT_TO_POINTER((int)list->len));
  return &g_array_index(list, TrvWeatherDay, list->len - 1);
}

static int col(char **names, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!g_ascii_strcasecmp(g_strstrip(names[i]), name)) return i;
  return -1;
}

/* One record (fields already split); false with an error on a bad date. */
static bool record(int layout, char **f, int n, const int *c, GHashTable *days, GArray *list,
                   const char *path, uint64_t line_no, GError **error) {
  int y, m, d;
  char tail;
  bool date_ok;
  if (layout == MSS_DAILY) {
    date_ok = n > c[5] && sscanf(f[c[0]], "%d%c", &y, &tail) == 1 && sscanf(f[c[1]], "%d%c", &m, &tail) == 1 &&
              sscanf(f[c[2]], "%d%c", &d, &tail) == 1;
  } else {
    date_ok = n > c[2] && sscanf(f[c[0]], "%4d-%2d-%2d%c", &y, &m, &d, &tail) == 3;
  }
  if (!date_ok || !g_date_valid_dmy(d, m, y)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s:%" G_GUINT64_FORMAT ": no valid date in this weather row",
                path, line_no);
    return false;
  }
  TrvWeatherDay *w = day_of(days, list, y, m, d);
  if (layout == NOAA_TEMPERATURE) {
    double hi = number_or_nan(f[c[1]]), lo = number_or_nan(f[c[2]]);
    w->tmax_c = isnan(hi) ? NAN : (hi - 32.0) * 5.0 / 9.0;
    w->tmin_c = isnan(lo) ? NAN : (lo - 32.0) * 5.0 / 9.0;
  } else if (layout == NOAA_PRECIPITATION) {
    double in = number_or_nan(f[c[1]]);
    w->rain_mm = isnan(in) || in < 0 ? NAN : in * 25.4;
  } else {
    double rain = number_or_nan(f[c[3]]);
    w->rain_mm = rain < 0 ? NAN : rain;
    w->tmax_c = number_or_nan(f[c[4]]);
    w->tmin_c = number_or_nan(f[c[5]]);
  }
  return true;
}

bool trv_weather_attach(TrvCalTable *t, const char *path, GError **error) {
  TrvLineReader rd;
  if (!trv_line_reader_open(&rd, path, error)) return false;
  GHashTable *days = g_hash_table_new(g_direct_hash, g_direct_equal);
  for (guint i = 0; i < t->weather->len; i++) {
    const TrvWeatherDay *w = &g_array_index(t->weather, TrvWeatherDay, i);
    g_hash_table_insert(days, GINT_TO_POINTER((w->year * 13 + w->month) * 32 + w->day), GINT_TO_POINTER((int)i + 1));
  }
  char *line;
  size_t len;
  int layout = -1, c[6] = {-1, -1, -1, -1, -1, -1}, n_header = 0, glued = 0;
  char *station = NULL;
  bool ok = true;
  while (ok && (line = trv_line_reader_next(&rd, &len))) {
    if (len == 0) continue;
    if (layout < 0) {
      char **h = g_strsplit(line, ",", -1);
      n_header = (int)g_strv_length(h);
      int sid = col(h, n_header, "station_id"), date = col(h, n_header, "date");
      if (sid == 0 && date >= 0 && col(h, n_header, "tmax_f") >= 0 && col(h, n_header, "tmin_f") >= 0) {
        layout = NOAA_TEMPERATURE;
        c[0] = date, c[1] = col(h, n_header, "tmax_f"), c[2] = col(h, n_header, "tmin_f");
      } else if (sid == 0 && date >= 0 && col(h, n_header, "prcp_in") >= 0) {
        layout = NOAA_PRECIPITATION;
        c[0] = date, c[1] = c[2] = col(h, n_header, "prcp_in");
      } else if (col(h, n_header, "Station") == 0 && col(h, n_header, "Year") >= 0 &&
                 col(h, n_header, "Daily Rainfall Total (mm)") >= 0 &&
                 col(h, n_header, "Maximum Temperature (\xc2\xb0" "C)") >= 0) {
        layout = MSS_DAILY;
        c[0] = col(h, n_header, "Year"), c[1] = col(h, n_header, "Month"), c[2] = col(h, n_header, "Day");
        c[3] = col(h, n_header, "Daily Rainfall Total (mm)");
        c[4] = col(h, n_header, "Maximum Temperature (\xc2\xb0" "C)");
        c[5] = col(h, n_header, "Minimum Temperature (\xc2\xb0" "C)");
        if (c[1] < 0 || c[2] < 0 || c[5] < 0) layout = -2;
      } else {
        layout = -2;
      }
      g_strfreev(h);
      if (layout == -2) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                    "%s:1: not a weather file this reader knows (NOAA GHCN station_id,date,tmax_f,tmin_f or "
                    "station_id,date,prcp_in, or the MSS daily table)", path);
        ok = false;
      }
      continue;
    }
    char **f = g_strsplit(line, ",", -1);
    int n = (int)g_strv_length(f);
    if (!station) station = g_strdup(f[0]);
    if (layout == MSS_DAILY && n > n_header && station[0]) {
      /* Two records glued: field n_header-1 reads "<value><station>". */
      char *glue = g_strrstr(f[n_header - 1], station);
      if (glue && glue != f[n_header - 1]) {
        char **second = g_new0(char *, n - n_header + 3);
        second[0] = g_strdup(station);
        for (int i = n_header; i < n; i++) second[i - n_header + 1] = g_strdup(f[i]);
        *glue = '\0';
        ok = record(layout, f, n_header, c, days, t->weather, path, rd.line_no, error) &&
             record(layout, second, n - n_header + 1, c, days, t->weather, path, rd.line_no, error);
        g_strfreev(second);
        g_strfreev(f);
        glued++;
        continue;
      }
    }
    ok = record(layout, f, n, c, days, t->weather, path, rd.line_no, error);
    g_strfreev(f);
  }
  trv_line_reader_close(&rd);
  g_hash_table_destroy(days);
  if (ok && layout < 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s: empty weather file", path);
    ok = false;
  }
  if (ok) {
    g_array_sort(t->weather, compare_day);
    if (station && !strstr(t->weather_station, station)) {
      char *joined = t->weather_station[0] ? g_strconcat(t->weather_station, ",", station, NULL) : g_strdup(station);
      g_free(t->weather_station);
      t->weather_station = joined;
    }
    if (glued) {
      trv_cal_table_add_stat(t, "weather_glued_records", glued);
    }
  }
  g_free(station);
  return ok;
}
