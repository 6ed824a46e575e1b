/* import-cabspotting.c - San Francisco cabspotting GPS traces.
 *
 * One file per cab, lines `lat lon occupied unix_time`.  Rules, in order:
 *  1. a line must have exactly 4 space-separated fields (else
 *     "column-count"); lat, lon must be numbers and occupied 0 or 1 (else
 *     "bad-line", also for a line of 256 bytes or more or holding a NUL);
 *     the time an integer unix time in [TRV_IMPORT_TIME_MIN,
 *     TRV_IMPORT_TIME_MAX) (else "bad-timestamp": a time cut short or
 *     corrupted would otherwise stretch the period, and the exposure walk
 *     over it, to decades);
 *  2. a fix outside the city's box is rejected ("outside-city");
 *  3. the cab's fixes are sorted by time whatever the file order (the files
 *     we have are oldest first; the original data set is newest first); a
 *     second fix with the same time is rejected ("duplicate-time");
 *  4. GPS outlier filter: a fix farther from the previous kept fix than
 *     150 km/h x the time between them plus 0.25 km (the position error of
 *     two fixes, so that jitter between fixes seconds apart is not taken
 *     for speed) is rejected ("speed-outlier").  After 3 rejections
 *     in a row the previous kept fix is taken to be the outlier and the
 *     current fix is kept as the new reference;
 *  5. on the kept fixes, a pickup is an occupancy transition 0 -> 1 (at the
 *     first occupied fix), a drop-off 1 -> 0 (at the first free fix); a trip
 *     runs from a pickup to the next drop-off: its duration is the time
 *     between them, its distance the projected path through its fixes.  A
 *     trip with a gap of more than 10 minutes between fixes still counts as
 *     a pickup (demand) but not in the OD matrix and histograms.
 * Demand is counted in the pickup's cell and local (US Pacific) slot.
 * Exposure: every 15-minute interval holding at least one kept fix (of any
 * cab) counts as 0.25 h of its slot.  The trace has two outages with no fix
 * at all (Tuesday 2008-05-20 07:15-08:30 and Wednesday 11:30-12:15 PDT); their
 * slots get no exposure and are filled from the other days, instead of
 * reading as hours without demand.  The intervals at an outage's edges are
 * partly covered but counted in full (a small downward bias there).
 *
 * A file is read whole (at most TRV_IMPORT_MAX_TRACE_BYTES, so fewer than
 * 2^32 lines: Fix.line fits) and must end with a newline. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/posterior.h"
#include "urs/caltable-travel.h"
#include "urs/import.h"

typedef struct {
  double lat, lon;
  int64_t t;
  uint32_t line;
  int occupied;
  const char *text; /* the line, for reports (inside the file's buffer) */
} Fix;

static int compare_fix(const void *a, const void *b) {
  const Fix *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return (x->line > y->line) - (x->line < y->line);
}

/* Parses one line into *f; returns NULL or the rejection reason. */
static const char *parse_fix(char *line, Fix *f) {
  char *field[5];
  int n = 0;
  for (char *p = line; *p && n < 5;) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) break;
    field[n++] = p;
    while (*p && *p != ' ' && *p != '\t') p++;
    if (*p) *p++ = '\0';
  }
  if (n != 4) return "column-count";
  char *end;
  f->lat = strtod(field[0], &end);
  if (*end || end == field[0] || !isfinite(f->lat)) return "bad-line";
  f->lon = strtod(field[1], &end);
  if (*end || end == field[1] || !isfinite(f->lon)) return "bad-line";
  if (strcmp(field[2], "0") && strcmp(field[2], "1")) return "bad-line";
  f->occupied = field[2][0] - '0';
  errno = 0;
  long long t = strtoll(field[3], &end, 10);
  if (*end || end == field[3] || errno == ERANGE || t < TRV_IMPORT_TIME_MIN || t >= TRV_IMPORT_TIME_MAX)
    return "bad-timestamp";
  f->t = t;
  return NULL;
}

typedef struct {
  TrvCalTable *table;
  const TrvHexGrid *grid;
  uint64_t pickups, dropoffs, trips, trips_with_gaps, cabs;
  int64_t t_min, t_max;
  GHashTable *intervals; /* 15-minute intervals (unix time / 900) with a kept fix */
} Totals;

static void add_pickup(Totals *tot, const Fix *f) {
  TrvHexCell cell = trv_hex_cell_of_point(tot->grid, f->lat, f->lon);
  int64_t local = f->t + trv_us_pacific_offset(f->t);
  trv_cal_table_add_demand(tot->table, cell, trv_slot_of_local_seconds(local), 1.0);
  trv_effects_add_demand(tot->table, cell, local, 1.0);
  tot->pickups++;
}

/* Steps 3-5 on one cab's fixes, sorted by time; returns the number kept. */
static uint64_t import_cab(Totals *tot, Fix *fix, size_t n, const char *path) {
  TrvCalTable *t = tot->table;
  uint64_t kept = 0;
  const Fix *prev = NULL, *pickup = NULL;
  int rejected_in_row = 0;
  double trip_km = 0;
  bool trip_gap = false;
  for (size_t i = 0; i < n; i++) {
    const Fix *f = &fix[i];
    if (prev && f->t == prev->t) {
      trv_cal_table_reject(t, "duplicate-time", path, f->line, f->text, strlen(f->text));
      continue;
    }
    double km = prev ? trv_hex_point_distance_km(tot->grid, prev->lat, prev->lon, f->lat, f->lon) : 0;
    if (prev && km > TRV_IMPORT_MAX_SPEED_KMH * (double)(f->t - prev->t) / 3600.0 + TRV_IMPORT_GPS_ERROR_KM) {
      if (++rejected_in_row <= 3) {
        trv_cal_table_reject(t, "speed-outlier", path, f->line, f->text, strlen(f->text));
        continue;
      }
      /* The reference fix was the outlier: restart from this one, dropping
       * any trip in progress (its path is not trustworthy). */
      prev = NULL;
      pickup = NULL;
      km = 0;
    }
    rejected_in_row = 0;
    kept++;
    if (tot->t_min == 0 || f->t < tot->t_min) tot->t_min = f->t;
    if (f->t > tot->t_max) tot->t_max = f->t;
    g_hash_table_add(tot->intervals, GINT_TO_POINTER((int)(f->t / 900)));
    if (prev && !prev->occupied && f->occupied) {
      add_pickup(tot, f);
      pickup = f;
      trip_km = 0;
      trip_gap = false;
    } else if (prev && prev->occupied && f->occupied && pickup) {
      trip_km += km;
      trip_gap |= f->t - prev->t > TRV_IMPORT_MAX_GAP_S;
    } else if (prev && prev->occupied && !f->occupied) {
      tot->dropoffs++;
      if (pickup) {
        trip_km += km;
        trip_gap |= f->t - prev->t > TRV_IMPORT_MAX_GAP_S;
        tot->trips++;
        if (trip_gap) {
          tot->trips_with_gaps++;
        } else {
          TrvHexCell from = trv_hex_cell_of_point(tot->grid, pickup->lat, pickup->lon),
                     to = trv_hex_cell_of_point(tot->grid, f->lat, f->lon);
          trv_cal_table_add_od(t, from, to, 1.0);
          trv_travel_add_trip(t, from, to, pickup->t + trv_us_pacific_offset(pickup->t), (double)(f->t - pickup->t));
          trv_histogram_add(&t->duration_s, (double)(f->t - pickup->t), 1.0);
          trv_histogram_add(&t->distance_km, trip_km, 1.0);
        }
      }
      pickup = NULL;
    }
    prev = f;
    /* Zones cost 5.4 kB each: stop as soon as there are too many. */
    if (t->zones->len > TRV_CAL_MAX_ZONES || t->od->len > TRV_CAL_MAX_OD) break;
  }
  return kept;
}

TrvCalTable *trv_import_cabspotting(const TrvImportOptions *opt, GPtrArray *files, GError **error) {
  TrvImportInput *in = trv_import_inputs_of_files(files);
  TrvCalTable *t = trv_import_cabspotting_inputs(opt, in, files->len, error);
  g_free(in);
  return t;
}

TrvCalTable *trv_import_cabspotting_inputs(const TrvImportOptions *opt, const TrvImportInput *in, size_t n_in,
                                           GError **error) {
  TrvHexGrid grid;
  const TrvCity *c = opt->city;
  if (!trv_hex_grid_init(&grid, c->lat_min, c->lat_max, c->lon_min, c->lon_max, opt->cell_km2, error)) return NULL;
  TrvCalTable *t = trv_cal_table_new(c->name, "cabspotting", &grid);
  g_free(t->timezone);
  t->timezone = g_strdup(c->timezone);
  Totals tot = {.table = t, .grid = &t->grid, .intervals = g_hash_table_new(g_direct_hash, g_direct_equal)};
  GArray *fixes = g_array_new(FALSE, FALSE, sizeof(Fix));
  for (size_t k = 0; k < n_in; k++) {
    const char *path = in[k].name;
    TrvLineReader rd;
    if (!trv_line_reader_open(&rd, &in[k], TRV_IMPORT_MAX_TRACE_BYTES, "cabspotting trace file", error)) goto fail;
    trv_cal_table_add_source(t, path, rd.data, rd.len);
    g_array_set_size(fixes, 0);
    char *line;
    size_t len;
    uint64_t read_before = t->rows_read;
    while ((line = trv_line_reader_next(&rd, &len))) {
      t->rows_read++;
      char buf[256]; /* parse_fix cuts its copy; the line stays for reports */
      Fix f;
      const char *why = "bad-line";
      if (len < sizeof buf && trv_line_is_text(line, len)) {
        memcpy(buf, line, len + 1);
        why = parse_fix(buf, &f);
      }
      if (!why && !trv_hex_grid_contains(&grid, f.lat, f.lon)) why = "outside-city";
      if (why) {
        trv_cal_table_reject(t, why, path, rd.line_no, line, len);
        continue;
      }
      f.line = (uint32_t)rd.line_no;
      f.text = line;
      g_array_append_val(fixes, f);
    }
    Fix *fx = (Fix *)fixes->data;
    bool sorted = true;
    for (guint i = 1; i < fixes->len && sorted; i++) sorted = fx[i - 1].t <= fx[i].t;
    if (!sorted) qsort(fx, fixes->len, sizeof *fx, compare_fix);
    uint64_t kept = import_cab(&tot, fx, fixes->len, path);
    trv_line_reader_close(&rd);
    t->files++;
    tot.cabs++;
    if (kept == 0) {
      trv_import_no_usable_rows(error, path, t->rows_read - read_before, t);
      goto fail;
    }
    t->rows_used += kept;
    if (!trv_import_check_zone_count(t, path, error)) goto fail;
  }
  g_array_free(fixes, TRUE);
  /* Exposure: every 15-minute interval with data, in local time.  The
   * intervals with a fix are walked, not the whole period (a stray fix
   * years away would make that walk long); sums of 0.25 are exact in any
   * order, so the table does not depend on the hash order. */
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init(&it, tot.intervals);
  while (g_hash_table_iter_next(&it, &key, NULL)) {
    int64_t at = (int64_t)GPOINTER_TO_INT(key) * 900;
    t->exposure_hours[trv_slot_of_local_seconds(at + trv_us_pacific_offset(at))] += 0.25;
    trv_effects_add_exposure(t, at + trv_us_pacific_offset(at), 0.25);
  }
  uint64_t outage = (uint64_t)(tot.t_max / 900 - tot.t_min / 900 + 1) - g_hash_table_size(tot.intervals);
  g_hash_table_destroy(tot.intervals);
  g_free(t->period_start);
  g_free(t->period_end);
  t->period_start = trv_format_local(tot.t_min + trv_us_pacific_offset(tot.t_min));
  t->period_end = trv_format_local(tot.t_max + trv_us_pacific_offset(tot.t_max));
  trv_cal_table_set_stat(t, "cabs", (double)tot.cabs);
  trv_cal_table_set_stat(t, "pickups", (double)tot.pickups);
  trv_cal_table_set_stat(t, "dropoffs", (double)tot.dropoffs);
  trv_cal_table_set_stat(t, "trips", (double)tot.trips);
  trv_cal_table_set_stat(t, "trips_with_gaps_over_600s", (double)tot.trips_with_gaps);
  trv_cal_table_set_stat(t, "intervals_without_fixes", (double)outage);
  trv_cal_table_set_stat(t, "max_speed_kmh", TRV_IMPORT_MAX_SPEED_KMH);
  trv_cal_table_set_stat(t, "gps_error_km", TRV_IMPORT_GPS_ERROR_KM);
  trv_travel_finish(t, opt->warnings);
  trv_cal_table_finish(t);
  return t;
fail:
  g_hash_table_destroy(tot.intervals);
  g_array_free(fixes, TRUE);
  trv_cal_table_free(t);
  return NULL;
}
