/* import-tlc.c - New York City TLC yellow-taxi trip records.
 *
 * Columns are found by NAME in each file's header (case-insensitive), never
 * by position: pickup zone `pickup_location_id` or `PULocationID`, drop-off
 * zone `dropoff_location_id` or `DOLocationID`, `pickup_datetime` or
 * `tpep_pickup_datetime`, the same for drop-off, and `trip_distance`
 * (miles).  Rows may come in any order.  Zones are placed at their
 * centroid (taxi_zone_centroids.csv: LocationID, Borough, Latitude,
 * Longitude), so NYC demand sits in one cell per TLC zone.
 *
 * Row rules: a row with another field count than the header is
 * "column-count"; an unparsable pickup or drop-off time "bad-timestamp"; a
 * drop-off before the pickup "dropoff-before-pickup"; a trip_distance that
 * is not a number >= 0 "bad-line"; a pickup zone that is missing, 264
 * (Unknown), 265 (Outside of NYC) or has no centroid "unknown-pickup-zone";
 * a centroid outside the city box "outside-city".  A row whose drop-off
 * zone is unknown still counts as demand but not in the OD matrix; unknown
 * zones are also counted by end and kind in the stats
 * (unknown_pickup_zone_264, unknown_dropoff_zone_missing, ...).
 *
 * Scaling: the samples stand for the real volume.  Each calendar month with
 * data is weighted so that its trips add up to scale_to_trips_per_month
 * (7.7e6 by default: 2019 yellow taxis); a month holding less than 1% of
 * the used rows is a stray timestamp (TLC data has a few, e.g. 2008-12):
 * its rows are rejected as "timestamp-outside-period".  Exposure is every
 * 15-minute slot of every covered month; rates are real requests per hour.
 * OD counts and histograms are sample counts (unweighted). */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/posterior.h"
#include "urs/import.h"

#define MAX_ZONE_ID 1000
#define KM_PER_MILE 1.609344

typedef struct {
  bool known;
  double lat, lon;
  TrvHexCell cell;
  char *borough;
  uint64_t pickups, dropoffs;
} Zone;

typedef struct {
  int month; /* year * 12 + month - 1 */
  int slot;
  int pickup, dropoff; /* zone ids; dropoff 0 when unknown */
  double duration_s, distance_km;
} Trip;

typedef struct {
  uint64_t rows;
  guint file; /* first row of the month, for the stray-month report */
  uint64_t line;
  char *text;
} Month;

/* Splits a CSV line in place (double quotes around a field are removed;
 * quoted commas kept).  Returns the field count, at most max. */
static int split_csv(char *line, char **field, int max) {
  int n = 0;
  char *p = line;
  for (;;) {
    if (n == max) return max + 1;
    char *out = p;
    field[n++] = p;
    bool quoted = *p == '"';
    if (quoted) p++;
    while (*p) {
      if (quoted && *p == '"') {
        if (p[1] == '"') {
          *out++ = '"';
          p += 2;
          continue;
        }
        quoted = false;
        p++;
        continue;
      }
      if (!quoted && *p == ',') break;
      *out++ = *p++;
    }
    bool more = *p == ',';
    *out = '\0';
    if (!more) return n;
    p++;
  }
}

static int column(char **names, int n, const char *a, const char *b) {
  for (int i = 0; i < n; i++) {
    char *s = g_strstrip(names[i]);
    if (!g_ascii_strcasecmp(s, a) || (b && !g_ascii_strcasecmp(s, b))) return i;
  }
  return -1;
}

static bool parse_datetime(const char *s, int *year, int *month, int *day, int64_t *local_s) {
  int h, mi, se;
  char tail;
  if (sscanf(s, "%4d-%2d-%2d %2d:%2d:%2d%c", year, month, day, &h, &mi, &se, &tail) != 6) return false;
  if (!g_date_valid_dmy(*day, *month, *year) || h > 23 || mi > 59 || se > 60 || h < 0 || mi < 0 || se < 0)
    return false;
  *local_s = trv_days_from_civil(*year, *month, *day) * 86400 + h * 3600 + mi * 60 + se;
  return true;
}

/* Reads the centroid table into zones[0..MAX_ZONE_ID]. */
static bool read_zones(const char *path, const TrvHexGrid *grid, Zone *zones, GError **error) {
  TrvLineReader rd;
  if (!trv_line_reader_open(&rd, path, error)) return false;
  char *line, *f[16];
  size_t len;
  int c_id = -1, c_bor = -1, c_lat = -1, c_lon = -1, nh = 0;
  bool ok = true;
  while (ok && (line = trv_line_reader_next(&rd, &len))) {
    if (rd.line_no == 1) {
      nh = split_csv(line, f, 16);
      c_id = column(f, nh, "LocationID", NULL);
      c_bor = column(f, nh, "Borough", NULL);
      c_lat = column(f, nh, "Latitude", NULL);
      c_lon = column(f, nh, "Longitude", NULL);
      if (c_id < 0 || c_bor < 0 || c_lat < 0 || c_lon < 0) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                    "%s:1: a zone centroid table needs columns LocationID, Borough, Latitude, Longitude", path);
        ok = false;
      }
      continue;
    }
    if (len == 0) continue;
    char *end1, *end2, *end3;
    int n = split_csv(line, f, 16);
    long id = n == nh ? strtol(f[c_id], &end1, 10) : -1;
    double lat = n == nh ? strtod(f[c_lat], &end2) : NAN, lon = n == nh ? strtod(f[c_lon], &end3) : NAN;
    if (n != nh || *end1 || *end2 || *end3 || id < 1 || id > MAX_ZONE_ID || !isfinite(lat) || !isfinite(lon)) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s:%" G_GUINT64_FORMAT ": not a zone row (id,borough,lat,lon)",
                  path, rd.line_no);
      ok = false;
      break;
    }
    Zone *z = &zones[id];
    z->known = true;
    z->lat = lat;
    z->lon = lon;
    z->cell = trv_hex_cell_of_point(grid, lat, lon);
    g_free(z->borough);
    z->borough = g_strdup(f[c_bor]);
    for (char *p = z->borough; *p; p++)
      if ((unsigned char)*p < 0x20) *p = ' ';
  }
  trv_line_reader_close(&rd);
  return ok;
}

static char *zone_path(const TrvImportOptions *opt, GPtrArray *files) {
  if (opt->zones_path) return g_strdup(opt->zones_path);
  for (guint k = 0; k < files->len; k++) {
    char *dir = g_path_get_dirname(files->pdata[k]);
    char *p = g_build_filename(dir, "taxi_zone_centroids.csv", NULL);
    g_free(dir);
    if (g_file_test(p, G_FILE_TEST_IS_REGULAR)) return p;
    g_free(p);
  }
  return NULL;
}

static const char *const UNKNOWN_KINDS[] = {"264", "265", "missing", "no_centroid"};

/* Classifies a zone field: its id, or 0 when unknown, counted in the stat
 * unknown_<end>_zone_<kind> (end: pickup or dropoff). */
static int zone_id(TrvCalTable *t, const char *s, const Zone *zones, const char *end_name) {
  char *end;
  long id = strtol(s, &end, 10);
  int kind = -1;
  if (!*s || *end)
    kind = 2;
  else if (id == 264 || id == 265)
    kind = id == 264 ? 0 : 1;
  else if (id < 1 || id > MAX_ZONE_ID || !zones[id].known)
    kind = 3;
  if (kind < 0) return (int)id;
  char name[64];
  snprintf(name, sizeof name, "unknown_%s_zone_%s", end_name, UNKNOWN_KINDS[kind]);
  trv_cal_table_add_stat(t, name, 1);
  return 0;
}

static bool read_trips(TrvCalTable *t, const char *path, guint file_index, Zone *zones, GArray *trips,
                       GHashTable *months, GError **error) {
  TrvLineReader rd;
  if (!trv_line_reader_open(&rd, path, error)) return false;
  enum { MAXF = 64 };
  char *f[MAXF + 1], *line;
  size_t len;
  int nh = 0, c_pu = -1, c_do = -1, c_put = -1, c_dot = -1, c_dist = -1;
  uint64_t used = 0, read = 0;
  bool ok = true;
  while ((line = trv_line_reader_next(&rd, &len))) {
    if (rd.line_no == 1) {
      nh = split_csv(line, f, MAXF);
      c_pu = column(f, nh, "pickup_location_id", "PULocationID");
      c_do = column(f, nh, "dropoff_location_id", "DOLocationID");
      c_put = column(f, nh, "pickup_datetime", "tpep_pickup_datetime");
      c_dot = column(f, nh, "dropoff_datetime", "tpep_dropoff_datetime");
      c_dist = column(f, nh, "trip_distance", NULL);
      const char *missing = c_pu < 0 ? "pickup_location_id or PULocationID"
                            : c_do < 0 ? "dropoff_location_id or DOLocationID"
                            : c_put < 0 ? "pickup_datetime or tpep_pickup_datetime"
                            : c_dot < 0 ? "dropoff_datetime or tpep_dropoff_datetime"
                            : c_dist < 0 ? "trip_distance" : NULL;
      if (missing) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "%s:1: the header has no column %s (is this a TLC trip file?)",
                    path, missing);
        ok = false;
        break;
      }
      continue;
    }
    read++;
    t->rows_read++;
    char copy[4096];
    if (len >= sizeof copy) {
      trv_cal_table_reject(t, "bad-line", path, rd.line_no, line, len);
      continue;
    }
    memcpy(copy, line, len + 1);
    int n = split_csv(copy, f, MAXF);
    if (n != nh) {
      trv_cal_table_reject(t, "column-count", path, rd.line_no, line, len);
      continue;
    }
    Trip trip;
    int y, m, d, y2, m2, d2;
    int64_t pu_s, do_s;
    if (!parse_datetime(f[c_put], &y, &m, &d, &pu_s) || !parse_datetime(f[c_dot], &y2, &m2, &d2, &do_s)) {
      trv_cal_table_reject(t, "bad-timestamp", path, rd.line_no, line, len);
      continue;
    }
    if (do_s < pu_s) {
      trv_cal_table_reject(t, "dropoff-before-pickup", path, rd.line_no, line, len);
      continue;
    }
    char *end;
    double miles = strtod(f[c_dist], &end);
    if (!*f[c_dist] || *end || !isfinite(miles) || miles < 0) {
      trv_cal_table_reject(t, "bad-line", path, rd.line_no, line, len);
      continue;
    }
    trip.pickup = zone_id(t, f[c_pu], zones, "pickup");
    trip.dropoff = zone_id(t, f[c_do], zones, "dropoff");
    if (!trip.pickup) {
      trv_cal_table_reject(t, "unknown-pickup-zone", path, rd.line_no, line, len);
      continue;
    }
    if (!trv_hex_grid_contains(&t->grid, zones[trip.pickup].lat, zones[trip.pickup].lon)) {
      trv_cal_table_reject(t, "outside-city", path, rd.line_no, line, len);
      continue;
    }
    if (trip.dropoff && !trv_hex_grid_contains(&t->grid, zones[trip.dropoff].lat, zones[trip.dropoff].lon))
      trip.dropoff = 0;
    trip.month = y * 12 + m - 1;
    trip.slot = trv_slot_of_local_seconds(pu_s);
    trip.duration_s = (double)(do_s - pu_s);
    trip.distance_km = miles * KM_PER_MILE;
    g_array_append_val(trips, trip);
    used++;
    Month *mo = g_hash_table_lookup(months, GINT_TO_POINTER(trip.month + 1));
    if (!mo) {
      mo = g_new0(Month, 1);
      mo->file = file_index;
      mo->line = rd.line_no;
      mo->text = g_strndup(line, len);
      g_hash_table_insert(months, GINT_TO_POINTER(trip.month + 1), mo);
    }
    mo->rows++;
  }
  trv_line_reader_close(&rd);
  if (ok && used == 0) {
    trv_import_no_usable_rows(error, path, read, t);
    ok = false;
  }
  return ok;
}

static void free_month(gpointer p) {
  Month *m = p;
  g_free(m->text);
  g_free(m);
}

TrvCalTable *trv_import_tlc(const TrvImportOptions *opt, GPtrArray *files, GError **error) {
  TrvHexGrid grid;
  const TrvCity *c = opt->city;
  if (!trv_hex_grid_init(&grid, c->lat_min, c->lat_max, c->lon_min, c->lon_max, opt->cell_km2, error))
    return NULL;
  if (!(opt->scale_to_trips_per_month > 0)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "--scale-to-trips-per-month must be > 0");
    return NULL;
  }
  char *zpath = zone_path(opt, files);
  if (!zpath) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "no taxi_zone_centroids.csv beside the input: give it with --zones FILE");
    return NULL;
  }
  Zone *zones = g_new0(Zone, MAX_ZONE_ID + 1);
  TrvCalTable *t = trv_cal_table_new(c->name, "tlc", &grid);
  GArray *trips = g_array_new(FALSE, FALSE, sizeof(Trip));
  GHashTable *months = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, free_month);
  /* Every unknown-zone counter is reported, zeros included, in one order. */
  for (int e = 0; e < 2; e++)
    for (size_t k = 0; k < G_N_ELEMENTS(UNKNOWN_KINDS); k++) {
      char name[64];
      snprintf(name, sizeof name, "unknown_%s_zone_%s", e ? "dropoff" : "pickup", UNKNOWN_KINDS[k]);
      trv_cal_table_set_stat(t, name, 0);
    }
  trv_cal_table_set_stat(t, "rows_with_unknown_dropoff_zone", 0);
  bool ok = read_zones(zpath, &grid, zones, error);
  for (guint k = 0; ok && k < files->len; k++, t->files++)
    ok = read_trips(t, files->pdata[k], k, zones, trips, months, error);
  if (!ok) goto out;
  g_free(t->timezone);
  t->timezone = g_strdup(c->timezone);
  /* Covered months and their weights; stray months rejected. */
  GHashTableIter it;
  gpointer key, value;
  int covered = 0, first_month = G_MAXINT, last_month = -1;
  uint64_t stray = 0;
  Month *first_stray = NULL;
  g_hash_table_iter_init(&it, months);
  while (g_hash_table_iter_next(&it, &key, &value)) {
    Month *mo = value;
    int month = GPOINTER_TO_INT(key) - 1;
    if (mo->rows * 100 < trips->len) {
      stray += mo->rows;
      if (!first_stray || mo->file < first_stray->file || (mo->file == first_stray->file && mo->line < first_stray->line))
        first_stray = mo;
      continue;
    }
    covered++;
    if (month < first_month) first_month = month;
    if (month > last_month) last_month = month;
    int y = month / 12, m = month % 12 + 1;
    int64_t d0 = trv_days_from_civil(y, m, 1), d1 = trv_days_from_civil(y + (m == 12), m % 12 + 1, 1);
    for (int64_t d = d0; d < d1; d++)
      for (int s = 0; s < TRV_SLOTS_PER_DAY; s++) t->exposure_hours[trv_slot_of_local_seconds(d * 86400) + s] += 0.25;
  }
  if (first_stray) {
    trv_cal_table_reject(t, "timestamp-outside-period", files->pdata[first_stray->file], first_stray->line,
                         first_stray->text, strlen(first_stray->text));
    g_array_index(t->rejections, TrvRejection, t->rejections->len - 1).count = stray;
  }
  for (guint i = 0; i < trips->len; i++) {
    const Trip *tr = &g_array_index(trips, Trip, i);
    Month *mo = g_hash_table_lookup(months, GINT_TO_POINTER(tr->month + 1));
    if (mo->rows * 100 < trips->len) continue;
    t->rows_used++;
    Zone *pz = &zones[tr->pickup];
    pz->pickups++;
    trv_cal_table_add_demand(t, pz->cell, tr->slot, opt->scale_to_trips_per_month / (double)mo->rows);
    trv_histogram_add(&t->duration_s, tr->duration_s, 1.0);
    trv_histogram_add(&t->distance_km, tr->distance_km, 1.0);
    if (tr->dropoff) {
      zones[tr->dropoff].dropoffs++;
      trv_cal_table_add_od(t, pz->cell, zones[tr->dropoff].cell, 1.0);
    } else {
      trv_cal_table_add_stat(t, "rows_with_unknown_dropoff_zone", 1);
    }
  }
  uint64_t manhattan = 0;
  for (int id = 1; id <= MAX_ZONE_ID; id++) {
    Zone *z = &zones[id];
    if (!z->known || !trv_hex_grid_contains(&grid, z->lat, z->lon)) continue;
    TrvSourceZone sz = {id, z->cell, z->lat, z->lon, z->pickups, z->dropoffs, g_strdup(z->borough)};
    g_array_append_val(t->source_zones, sz);
    if (!strcmp(z->borough, "Manhattan")) manhattan += z->pickups;
  }
  g_free(t->period_start);
  g_free(t->period_end);
  t->period_start = g_strdup_printf("%04d-%02d-01T00:00:00", first_month / 12, first_month % 12 + 1);
  t->period_end = g_strdup_printf("%04d-%02d-01T00:00:00", (last_month + 1) / 12, (last_month + 1) % 12 + 1);
  trv_cal_table_set_stat(t, "scale_to_trips_per_month", opt->scale_to_trips_per_month);
  trv_cal_table_set_stat(t, "months_covered", covered);
  trv_cal_table_set_stat(t, "sample_trips_per_month", covered ? (double)t->rows_used / covered : 0);
  trv_cal_table_set_stat(t, "manhattan_pickup_share", t->rows_used ? (double)manhattan / (double)t->rows_used : 0);
  trv_cal_table_finish(t);
out:
  for (int id = 0; id <= MAX_ZONE_ID; id++) g_free(zones[id].borough);
  g_free(zones);
  g_free(zpath);
  g_array_free(trips, TRUE);
  g_hash_table_destroy(months);
  if (!ok) {
    trv_cal_table_free(t);
    return NULL;
  }
  return t;
}
