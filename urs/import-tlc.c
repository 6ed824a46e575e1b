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
 * "column-count"; an unparsable pickup or drop-off time, or one outside
 * [TRV_IMPORT_TIME_MIN, TRV_IMPORT_TIME_MAX), "bad-timestamp"; a drop-off
 * before the pickup "dropoff-before-pickup", more than a day after it
 * "trip-over-24h" (a clock error: none among the 127,500 real sample
 * rows); a trip_distance that is not a number in [0, 1000] miles, a row of
 * 4 kB or more, or one holding a NUL byte "bad-line"; a pickup zone that is missing, 264
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
 * its rows are rejected as "timestamp-outside-period" (if no month holds
 * 1%, the import fails).  Exposure is every 15-minute slot of every covered
 * month; rates are real requests per hour.  OD counts and histograms are
 * sample counts (unweighted).  When the volume is that of a known year
 * (the default: 2019) and a covered month is of another year, a warning
 * says so with the numbers: a 2020 trace scaled to 2019's volume is ten
 * times too busy after March 2020.  Trips naming zones the centroid table
 * lacks are warned about too (is the table complete?).
 *
 * Limits: a trip file over TRV_IMPORT_MAX_TRACE_BYTES, or cut inside its
 * last line, a header of more than 64 columns, and more than
 * TRV_IMPORT_TLC_MAX_TRIPS kept trips are input errors.  The zone table is
 * import-tlc-zones.c. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "core/posterior.h"
#include "urs/caltable-travel.h"
#include "urs/import.h"

#define MAX_ZONE_ID TRV_TLC_MAX_ZONE_ID
#define KM_PER_MILE 1.609344

/* What the trips read use of the zone table, and the zones' tallies. */
typedef struct {
  TrvTlcZone *zones; /* [0..MAX_ZONE_ID], from trv_tlc_zones_read */
  uint64_t *pickups, *dropoffs;
  int n_zones;
  const char *name; /* of the zone table, for warnings */
} Zones;

typedef struct {
  int month; /* year * 12 + month - 1 */
  int slot;
  int64_t local_s;     /* pickup, local wall-clock seconds */
  int pickup, dropoff; /* zone ids; dropoff 0 when unknown */
  double duration_s, distance_km;
} Trip;

typedef struct {
  uint64_t rows;
  guint file; /* first row of the month, for the stray-month report */
  uint64_t line;
  char *text;
} Month;

/* "YYYY-MM-DD HH:MM:SS" (TLC's local wall-clock time) within the import's
 * time window. */
static bool parse_datetime(const char *s, int *year, int *month, int *day, int64_t *local_s) {
  int h, mi, se;
  char tail;
  if (sscanf(s, "%4d-%2d-%2d %2d:%2d:%2d%c", year, month, day, &h, &mi, &se, &tail) != 6) return false;
  if (*year < 1 || !g_date_valid_dmy(*day, *month, *year) || h > 23 || mi > 59 || se > 60 || h < 0 || mi < 0 || se < 0)
    return false;
  *local_s = trv_days_from_civil(*year, *month, *day) * 86400 + h * 3600 + mi * 60 + se;
  return *local_s >= TRV_IMPORT_TIME_MIN && *local_s < TRV_IMPORT_TIME_MAX;
}

static char *zone_path(const TrvImportOptions *opt, const TrvImportInput *in, size_t n) {
  if (opt->zones_path) return g_strdup(opt->zones_path);
  for (size_t k = 0; k < n; k++) {
    if (in[k].data) continue;
    char *dir = g_path_get_dirname(in[k].name);
    char *p = g_build_filename(dir, "taxi_zone_centroids.csv", NULL);
    g_free(dir);
    if (g_file_test(p, G_FILE_TEST_IS_REGULAR)) return p;
    g_free(p);
  }
  return NULL;
}

/* Records the zone table among the sources (read again: the zone reader
 * keeps no copy; it is 15 kB). */
static bool add_zone_source(TrvCalTable *t, const TrvImportInput *in, GError **error) {
  if (in->data) return trv_cal_table_add_source(t, in->name, in->data, in->len), true;
  char *text;
  size_t len;
  if (!trv_input_read(in->name, TRV_IMPORT_MAX_ZONE_TABLE_BYTES, "zone table file", TRV_INPUT_PIPE_OK, &text, &len,
                      error))
    return false;
  trv_cal_table_add_source(t, in->name, text, len);
  g_free(text);
  return true;
}

static const char *const UNKNOWN_KINDS[] = {"264", "265", "missing", "no_centroid"};

/* Classifies a zone field: its id, or 0 when unknown, counted in the stat
 * unknown_<end>_zone_<kind> (end: pickup or dropoff). */
static int zone_id(TrvCalTable *t, const char *s, const Zones *zs, const char *end_name) {
  char *end;
  long id = strtol(s, &end, 10);
  int kind = -1;
  if (!*s || *end)
    kind = 2;
  else if (id == 264 || id == 265)
    kind = id == 264 ? 0 : 1;
  else if (id < 1 || id > MAX_ZONE_ID || !zs->zones[id].known)
    kind = 3;
  if (kind < 0) return (int)id;
  char name[64];
  snprintf(name, sizeof name, "unknown_%s_zone_%s", end_name, UNKNOWN_KINDS[kind]);
  trv_cal_table_add_stat(t, name, 1);
  return 0;
}

/* The row's reason for rejection, or NULL with *trip filled. */
static const char *parse_trip(TrvCalTable *t, char **f, const int *c, const Zones *zs, Trip *trip) {
  int y, m, d, y2, m2, d2;
  int64_t pu_s, do_s;
  if (!parse_datetime(f[c[2]], &y, &m, &d, &pu_s) || !parse_datetime(f[c[3]], &y2, &m2, &d2, &do_s))
    return "bad-timestamp";
  if (do_s < pu_s) return "dropoff-before-pickup";
  if (do_s - pu_s > TRV_IMPORT_TLC_MAX_TRIP_S) return "trip-over-24h";
  char *end;
  double miles = strtod(f[c[4]], &end);
  if (!*f[c[4]] || *end || !(miles >= 0 && miles <= TRV_IMPORT_TLC_MAX_TRIP_MILES)) return "bad-line";
  trip->pickup = zone_id(t, f[c[0]], zs, "pickup");
  trip->dropoff = zone_id(t, f[c[1]], zs, "dropoff");
  if (!trip->pickup) return "unknown-pickup-zone";
  const TrvTlcZone *pz = &zs->zones[trip->pickup], *dz = &zs->zones[trip->dropoff];
  if (!trv_hex_grid_contains(&t->grid, pz->lat, pz->lon)) return "outside-city";
  if (trip->dropoff && !trv_hex_grid_contains(&t->grid, dz->lat, dz->lon)) trip->dropoff = 0;
  trip->month = y * 12 + m - 1;
  trip->slot = trv_slot_of_local_seconds(pu_s);
  trip->local_s = pu_s;
  trip->duration_s = (double)(do_s - pu_s);
  trip->distance_km = miles * KM_PER_MILE;
  return NULL;
}

static bool read_trips(TrvCalTable *t, const TrvImportInput *in, guint file_index, const Zones *zs, GArray *trips,
                       GHashTable *months, GError **error) {
  TrvLineReader rd;
  const char *path = in->name;
  if (!trv_line_reader_open(&rd, in, TRV_IMPORT_MAX_TRACE_BYTES, "TLC trip file", error)) return false;
  trv_cal_table_add_source(t, path, rd.data, rd.len);
  enum { MAXF = 64 };
  char *f[MAXF], *line;
  size_t len;
  int nh = 0, c[5] = {-1, -1, -1, -1, -1}; /* pickup zone, drop-off zone, their times, distance */
  uint64_t used = 0, read = 0;
  bool ok = true;
  while ((line = trv_line_reader_next(&rd, &len))) {
    if (rd.line_no == 1) {
      nh = trv_line_is_text(line, len) ? trv_csv_split(trv_csv_skip_bom(line), f, MAXF) : -1;
      if (nh < 0) {
        g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                    "%s:1: a header of more than %d columns or holding a NUL byte; expected a TLC trip file's "
                    "header (18-20 names)",
                    path, MAXF);
        ok = false;
        break;
      }
      c[0] = trv_csv_column(f, nh, "pickup_location_id", "PULocationID");
      c[1] = trv_csv_column(f, nh, "dropoff_location_id", "DOLocationID");
      c[2] = trv_csv_column(f, nh, "pickup_datetime", "tpep_pickup_datetime");
      c[3] = trv_csv_column(f, nh, "dropoff_datetime", "tpep_dropoff_datetime");
      c[4] = trv_csv_column(f, nh, "trip_distance", NULL);
      const char *missing = c[0] < 0   ? "pickup_location_id or PULocationID"
                            : c[1] < 0 ? "dropoff_location_id or DOLocationID"
                            : c[2] < 0 ? "pickup_datetime or tpep_pickup_datetime"
                            : c[3] < 0 ? "dropoff_datetime or tpep_dropoff_datetime"
                            : c[4] < 0 ? "trip_distance"
                                       : NULL;
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
    if (len >= sizeof copy || !trv_line_is_text(line, len)) {
      trv_cal_table_reject(t, "bad-line", path, rd.line_no, line, len);
      continue;
    }
    memcpy(copy, line, len + 1);
    int n = trv_csv_split(copy, f, MAXF);
    if (n != nh) {
      trv_cal_table_reject(t, "column-count", path, rd.line_no, line, len);
      continue;
    }
    Trip trip;
    const char *why = parse_trip(t, f, c, zs, &trip);
    if (why) {
      trv_cal_table_reject(t, why, path, rd.line_no, line, len);
      continue;
    }
    if (trips->len >= TRV_IMPORT_TLC_MAX_TRIPS) {
      g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                  "%s:%" G_GUINT64_FORMAT ": more than %llu trips in all; import fewer months at a time", path,
                  rd.line_no, TRV_IMPORT_TLC_MAX_TRIPS);
      ok = false;
      break;
    }
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

/* Warns when the volume trips are scaled to is that of another year than
 * some covered month (months[] holds year * 12 + month - 1, sorted). */
static void check_scale_year(const TrvImportOptions *opt, const int *months, int n) {
  if (!opt->scale_year || !n) return;
  int other = 0, first = -1, last = -1;
  for (int i = 0; i < n; i++)
    if (months[i] / 12 != opt->scale_year) {
      other++;
      if (first < 0) first = months[i];
      last = months[i];
    }
  if (!other) return;
  trv_import_warn(opt->warnings,
                  "trips are scaled to %.4g a month, the volume of %d, but %d of the %d covered months are of "
                  "another year (%04d-%02d..%04d-%02d): give --scale-to-trips-per-month for the trace's year",
                  opt->scale_to_trips_per_month, opt->scale_year, other, n, first / 12, first % 12 + 1, last / 12,
                  last % 12 + 1);
}

/* Covered months, their exposure and the stray months' rejection; the
 * covered months (sorted) go to covered[]. */
static int cover_months(TrvCalTable *t, GHashTable *months, guint n_trips, const TrvImportInput *in, double scale,
                        int *covered) {
  GHashTableIter it;
  gpointer key, value;
  int n = 0;
  uint64_t stray = 0;
  Month *first_stray = NULL;
  g_hash_table_iter_init(&it, months);
  while (g_hash_table_iter_next(&it, &key, &value)) {
    Month *mo = value;
    int month = GPOINTER_TO_INT(key) - 1;
    if (mo->rows * 100 < n_trips) {
      stray += mo->rows;
      if (!first_stray || mo->file < first_stray->file ||
          (mo->file == first_stray->file && mo->line < first_stray->line))
        first_stray = mo;
      continue;
    }
    covered[n++] = month;
    int y = month / 12, m = month % 12 + 1;
    int64_t d0 = trv_days_from_civil(y, m, 1), d1 = trv_days_from_civil(y + (m == 12), m % 12 + 1, 1);
    for (int64_t d = d0; d < d1; d++)
      for (int s = 0; s < TRV_SLOTS_PER_DAY; s++) {
        t->exposure_hours[trv_slot_of_local_seconds(d * 86400) + s] += 0.25;
        /* the effects count sampled trips: a slot's hours times the month's sampling fraction */
        trv_effects_add_exposure(t, d * 86400 + s * 900, 0.25 * (double)mo->rows / scale);
      }
  }
  if (first_stray) {
    trv_cal_table_reject(t, "timestamp-outside-period", in[first_stray->file].name, first_stray->line,
                         first_stray->text, strlen(first_stray->text));
    g_array_index(t->rejections, TrvRejection, t->rejections->len - 1).count = stray;
  }
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && covered[j - 1] > covered[j]; j--) {
      int x = covered[j];
      covered[j] = covered[j - 1];
      covered[j - 1] = x;
    }
  return n;
}

TrvCalTable *trv_import_tlc(const TrvImportOptions *opt, GPtrArray *files, GError **error) {
  TrvImportInput *in = trv_import_inputs_of_files(files);
  TrvCalTable *t = trv_import_tlc_inputs(opt, in, files->len, error);
  g_free(in);
  return t;
}

TrvCalTable *trv_import_tlc_inputs(const TrvImportOptions *opt, const TrvImportInput *in, size_t n_in, GError **error) {
  TrvHexGrid grid;
  const TrvCity *c = opt->city;
  if (!trv_hex_grid_init(&grid, c->lat_min, c->lat_max, c->lon_min, c->lon_max, opt->cell_km2, error)) return NULL;
  if (!(opt->scale_to_trips_per_month > 0 && opt->scale_to_trips_per_month <= TRV_IMPORT_TLC_MAX_TRIPS_PER_MONTH)) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT, "--scale-to-trips-per-month %g; expected a number in (0, %g]",
                opt->scale_to_trips_per_month, TRV_IMPORT_TLC_MAX_TRIPS_PER_MONTH);
    return NULL;
  }
  char *zpath = opt->zones ? g_strdup(opt->zones->name) : zone_path(opt, in, n_in);
  if (!zpath) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "no taxi_zone_centroids.csv beside the input: give it with --zones FILE");
    return NULL;
  }
  TrvImportInput zin = {zpath, NULL, 0};
  Zones zs = {g_new0(TrvTlcZone, MAX_ZONE_ID + 1), g_new0(uint64_t, MAX_ZONE_ID + 1), g_new0(uint64_t, MAX_ZONE_ID + 1),
              0, zpath};
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
  bool ok = trv_tlc_zones_read(opt->zones ? opt->zones : &zin, &grid, zs.zones, &zs.n_zones, error) &&
            add_zone_source(t, opt->zones ? opt->zones : &zin, error);
  for (size_t k = 0; ok && k < n_in; k++, t->files++) ok = read_trips(t, &in[k], (guint)k, &zs, trips, months, error);
  if (!ok) goto out;
  g_free(t->timezone);
  t->timezone = g_strdup(c->timezone);
  /* At most 100 months can each hold 1% of the rows. */
  int covered_months[101];
  int covered = cover_months(t, months, trips->len, in, opt->scale_to_trips_per_month, covered_months);
  if (covered == 0) {
    g_set_error(error, TRV_ERROR, TRV_ERROR_INPUT,
                "%s: the %u trips spread over %u months, none holding 1%% of them; expected the samples of a few "
                "months",
                in[0].name, trips->len, g_hash_table_size(months));
    ok = false;
    goto out;
  }
  check_scale_year(opt, covered_months, covered);
  for (guint i = 0; i < trips->len; i++) {
    const Trip *tr = &g_array_index(trips, Trip, i);
    Month *mo = g_hash_table_lookup(months, GINT_TO_POINTER(tr->month + 1));
    if (mo->rows * 100 < trips->len) continue;
    t->rows_used++;
    const TrvTlcZone *pz = &zs.zones[tr->pickup];
    zs.pickups[tr->pickup]++;
    trv_cal_table_add_demand(t, pz->cell, tr->slot, opt->scale_to_trips_per_month / (double)mo->rows);
    trv_effects_add_demand(t, pz->cell, tr->local_s, 1.0);
    trv_histogram_add(&t->duration_s, tr->duration_s, 1.0);
    trv_histogram_add(&t->distance_km, tr->distance_km, 1.0);
    if (tr->dropoff) {
      zs.dropoffs[tr->dropoff]++;
      trv_cal_table_add_od(t, pz->cell, zs.zones[tr->dropoff].cell, 1.0);
      trv_travel_add_trip(t, pz->cell, zs.zones[tr->dropoff].cell, tr->local_s, tr->duration_s);
    } else {
      trv_cal_table_add_stat(t, "rows_with_unknown_dropoff_zone", 1);
    }
  }
  uint64_t manhattan = 0;
  for (int id = 1; id <= MAX_ZONE_ID; id++) {
    const TrvTlcZone *z = &zs.zones[id];
    if (!z->known || !trv_hex_grid_contains(&grid, z->lat, z->lon)) continue;
    TrvSourceZone sz = {id, z->cell, z->lat, z->lon, zs.pickups[id], zs.dropoffs[id], g_strdup(z->borough)};
    g_array_append_val(t->source_zones, sz);
    if (!strcmp(z->borough, "Manhattan")) manhattan += zs.pickups[id];
  }
  int first_month = covered_months[0], last_month = covered_months[covered - 1];
  g_free(t->period_start);
  g_free(t->period_end);
  t->period_start = g_strdup_printf("%04d-%02d-01T00:00:00", first_month / 12, first_month % 12 + 1);
  t->period_end = g_strdup_printf("%04d-%02d-01T00:00:00", (last_month + 1) / 12, (last_month + 1) % 12 + 1);
  trv_cal_table_set_stat(t, "scale_to_trips_per_month", opt->scale_to_trips_per_month);
  trv_cal_table_set_stat(t, "months_covered", covered);
  trv_cal_table_set_stat(t, "sample_trips_per_month", (double)t->rows_used / covered);
  trv_cal_table_set_stat(t, "manhattan_pickup_share", t->rows_used ? (double)manhattan / (double)t->rows_used : 0);
  double no_centroid = trv_cal_table_stat(t, "unknown_pickup_zone_no_centroid");
  if (no_centroid > 0)
    trv_import_warn(opt->warnings,
                    "%.0f of %" G_GUINT64_FORMAT " trips (%.1f%%) start in zones the zone table %s does not have "
                    "(it has %d zones): is it complete?",
                    no_centroid, t->rows_read, 100.0 * no_centroid / (double)t->rows_read, zs.name, zs.n_zones);
  trv_travel_finish(t, opt->warnings);
  trv_cal_table_finish(t);
out:
  trv_tlc_zones_clear(zs.zones);
  g_free(zs.zones);
  g_free(zs.pickups);
  g_free(zs.dropoffs);
  g_free(zpath);
  g_array_free(trips, TRUE);
  g_hash_table_destroy(months);
  if (!ok) {
    trv_cal_table_free(t);
    return NULL;
  }
  return t;
}
