/* import-tlc-zones.c - the TLC taxi-zone centroid table
 * (taxi_zone_centroids.csv: LocationID, Borough, Zone, Latitude,
 * Longitude; columns found by name, case-insensitive, in any order).
 *
 * Unlike a trip file, whose bad rows are counted and skipped, this table
 * is a reference: a wrong or missing row silently moves or drops every trip
 * of its zone (a table cut after its first rows leaves most trips without
 * a zone, and the import would still succeed).  So every problem is an error naming
 * FILE:LINE with what was found and what was expected: a file over
 * TRV_IMPORT_MAX_ZONE_TABLE_BYTES or cut inside its last line (no final
 * newline), a header over 64 columns or without the four columns, a row
 * with another field count than the header or holding a NUL byte, a
 * LocationID that is not an integer in 1..TRV_TLC_MAX_ZONE_ID or repeats
 * one, a latitude or longitude that is not a number in [-90, 90] or
 * [-180, 180], a borough that is not UTF-8 text without control
 * characters, and a table with no zone rows.  Blank lines are skipped.
 * Zones outside the city box are kept: their trips are rejected as
 * "outside-city" by the trip reader. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/posterior.h"
#include "urs/import.h"

enum { MAX_COLUMNS = 64 };

static bool row_error(GError **error, const char *name, uint64_t line, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static bool row_error(GError **error, const char *name, uint64_t line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s:%" G_GUINT64_FORMAT ": %s", name, line, what);
  g_free(what);
  return false;
}

/* A whole field as a double in [lo, hi]. */
static bool number_in(const char *s, double lo, double hi, double *out) {
  char *end;
  errno = 0;
  while (*s == ' ') s++;
  double v = strtod(s, &end);
  while (*end == ' ') end++;
  if (end == s || *end || errno == ERANGE || !(v >= lo && v <= hi)) return false;
  *out = v;
  return true;
}

void trv_tlc_zones_clear(TrvTlcZone *zones) {
  for (int id = 0; id <= TRV_TLC_MAX_ZONE_ID; id++) g_clear_pointer(&zones[id].borough, g_free);
}

bool trv_tlc_zones_read(const TrvImportInput *in, const TrvHexGrid *grid, TrvTlcZone *zones, int *n_zones,
                        GError **error) {
  TrvLineReader rd;
  const char *name = in->name;
  *n_zones = 0;
  if (!trv_line_reader_open(&rd, in, TRV_IMPORT_MAX_ZONE_TABLE_BYTES, "zone table file", error)) return false;
  char *line, *f[MAX_COLUMNS];
  size_t len;
  int c_id = -1, c_bor = -1, c_lat = -1, c_lon = -1, nh = 0;
  bool ok = true;
  while (ok && (line = trv_line_reader_next(&rd, &len))) {
    if (!trv_line_is_text(line, len)) {
      ok = row_error(error, name, rd.line_no, "a NUL byte; expected a text row");
      break;
    }
    if (rd.line_no == 1) {
      nh = trv_csv_split(trv_csv_skip_bom(line), f, MAX_COLUMNS);
      if (nh < 0) {
        ok = row_error(error, name, 1,
                       "the header has more than %d columns; expected LocationID, Borough, Zone, "
                       "Latitude, Longitude",
                       MAX_COLUMNS);
        break;
      }
      c_id = trv_csv_column(f, nh, "LocationID", NULL);
      c_bor = trv_csv_column(f, nh, "Borough", NULL);
      c_lat = trv_csv_column(f, nh, "Latitude", NULL);
      c_lon = trv_csv_column(f, nh, "Longitude", NULL);
      if (c_id < 0 || c_bor < 0 || c_lat < 0 || c_lon < 0)
        ok = row_error(error, name, 1,
                       "the header has no column %s; a zone centroid table needs columns "
                       "LocationID, Borough, Latitude, Longitude",
                       c_id < 0    ? "LocationID"
                       : c_bor < 0 ? "Borough"
                       : c_lat < 0 ? "Latitude"
                                   : "Longitude");
      continue;
    }
    if (len == 0) continue;
    int n = trv_csv_split(line, f, MAX_COLUMNS);
    if (n != nh) {
      ok = n < 0 ? row_error(error, name, rd.line_no, "more than %d fields; expected %d as in the header", MAX_COLUMNS,
                             nh)
                 : row_error(error, name, rd.line_no,
                             "%d fields; expected %d as in the header (a cut or "
                             "malformed row?)",
                             n, nh);
      break;
    }
    char *end;
    errno = 0;
    long id = strtol(f[c_id], &end, 10);
    double lat, lon;
    char *q = NULL; /* a field quoted in a message */
    if (!*f[c_id] || *end || errno == ERANGE || id < 1 || id > TRV_TLC_MAX_ZONE_ID) {
      q = trv_cal_text(f[c_id], strlen(f[c_id]), 40);
      ok = row_error(error, name, rd.line_no, "LocationID '%s'; expected an integer in 1..%d", q, TRV_TLC_MAX_ZONE_ID);
    } else if (zones[id].known) {
      ok = row_error(error, name, rd.line_no,
                     "zone %ld repeated (first at line %" G_GUINT64_FORMAT "); expected each LocationID once", id,
                     zones[id].line);
    } else if (!number_in(f[c_lat], -90, 90, &lat)) {
      q = trv_cal_text(f[c_lat], strlen(f[c_lat]), 40);
      ok = row_error(error, name, rd.line_no, "Latitude '%s'; expected a number in [-90, 90]", q);
    } else if (!number_in(f[c_lon], -180, 180, &lon)) {
      q = trv_cal_text(f[c_lon], strlen(f[c_lon]), 40);
      ok = row_error(error, name, rd.line_no, "Longitude '%s'; expected a number in [-180, 180]", q);
    } else {
      const char *bad = NULL;
      bool text = g_utf8_validate(f[c_bor], -1, &bad);
      for (const char *p = f[c_bor]; text && *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) text = false, bad = p;
      if (!text) {
        ok = row_error(error, name, rd.line_no,
                       "byte 0x%02x in Borough; expected UTF-8 text without control "
                       "characters",
                       (unsigned char)*bad);
        break;
      }
      TrvTlcZone *z = &zones[id];
      z->known = true;
      z->lat = lat;
      z->lon = lon;
      z->cell = trv_hex_cell_of_point(grid, lat, lon);
      z->borough = g_strdup(f[c_bor]);
      z->line = rd.line_no;
      (*n_zones)++;
    }
    g_free(q);
  }
  if (ok && rd.line_no == 0)
    ok = row_error(error, name, 1, "empty file; expected a header LocationID,Borough,Zone,Latitude,Longitude");
  else if (ok && *n_zones == 0)
    ok = row_error(error, name, rd.line_no, "no zone rows after the header; expected one row per TLC zone");
  trv_line_reader_close(&rd);
  return ok;
}
