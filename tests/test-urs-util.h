/* test-urs-util.h - what the URS import and table tests share: the sample
 * traces of tests/urs, the import options, and small assertions and
 * temporary files.  Included by tests/test-urs-import.c,
 * tests/test-urs-import-sg.c and tests/test-urs-table.c only. */
#ifndef TRV_TEST_URS_UTIL_H
#define TRV_TEST_URS_UTIL_H

#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "core/posterior.h"
#include "urs/import.h"

static G_GNUC_UNUSED char *sample(const char *name) { return g_build_filename(TRV_URS_SAMPLES, name, NULL); }

/* An in-memory input file of the importers. */
static G_GNUC_UNUSED TrvImportInput mem(const char *name, const char *text) {
  TrvImportInput in = {name, text, strlen(text)};
  return in;
}

static G_GNUC_UNUSED GPtrArray *inputs(const char *format, const char *name) {
  char *p = sample(name);
  char *argv[] = {p};
  GPtrArray *files = trv_import_list_inputs(format, argv, 1, NULL);
  g_assert_nonnull(files);
  g_free(p);
  return files;
}

static G_GNUC_UNUSED TrvImportOptions options(const char *city) {
  TrvImportOptions o = {.city = trv_city_find(city),
                        .cell_km2 = TRV_HEX_DEFAULT_CELL_KM2,
                        .scale_to_trips_per_month = TRV_IMPORT_TLC_TRIPS_PER_MONTH};
  return o;
}

static G_GNUC_UNUSED void assert_rejection(const TrvCalTable *t, const char *reason, uint64_t count,
                                           const char *file_suffix, uint64_t line) {
  const TrvRejection *r = trv_cal_table_rejection(t, reason);
  if (!r) g_error("no rejection '%s'", reason);
  g_assert_cmpuint(r->count, ==, count);
  g_assert_true(g_str_has_suffix(r->first_file, file_suffix));
  g_assert_cmpuint(r->first_line, ==, line);
}

static G_GNUC_UNUSED double zone_rate(const TrvCalTable *t, double lat, double lon, int slot) {
  int z = trv_cal_table_find_zone(t, trv_hex_cell_of_point(&t->grid, lat, lon));
  g_assert_cmpint(z, >=, 0);
  return g_array_index(t->zones, TrvZoneDemand, z).rate[slot];
}

/* ---- San Francisco ------------------------------------------------------ */

static G_GNUC_UNUSED void check_sf_sample(const TrvCalTable *t) {
  g_assert_cmpuint(t->rows_read, ==, 14);
  g_assert_cmpuint(t->rows_used, ==, 6);
  g_assert_cmpuint(trv_cal_table_rejected(t), ==, 8);
  g_assert_cmpfloat(trv_cal_table_stat(t, "pickups"), ==, 2);
  g_assert_cmpfloat(trv_cal_table_stat(t, "dropoffs"), ==, 2);
  g_assert_cmpfloat(trv_cal_table_stat(t, "trips"), ==, 2);
  /* Both pickups on Sunday 2008-05-18 00:03 and 00:08 PDT: slot 6*96 = 576,
   * one 15-minute interval of data (0.25 h): 1 pickup / 0.25 h = 4 per hour
   * in each of the two cells (0.01 deg apart). */
  g_assert_cmpfloat(t->exposure_hours[576], ==, 0.25);
  g_assert_cmpint(t->filled_slots, ==, 671);
  g_assert_cmpfloat(zone_rate(t, 37.78, -122.41, 576), ==, 4.0);
  g_assert_cmpfloat(zone_rate(t, 37.79, -122.41, 576), ==, 4.0);
  /* Filled from the same time of day: Monday 00:00 is slot 0. */
  g_assert_cmpfloat(zone_rate(t, 37.78, -122.41, 0), ==, 4.0);
  g_assert_cmpfloat(zone_rate(t, 37.78, -122.41, 1), ==, 0.0);
  /* Trips: 120 s each over 0.01 deg of latitude = 1.1132 km. */
  g_assert_cmpfloat(t->duration_s.counts[2], ==, 2);
  g_assert_cmpfloat(t->distance_km.counts[2], ==, 2);
  g_assert_cmpuint(t->od->len, ==, 2);
}

static G_GNUC_UNUSED TrvCalTable *sf_table_with_weather(void) {
  GPtrArray *files = inputs("cabspotting", "sf-bad");
  TrvImportOptions o = options("sf");
  TrvCalTable *t = trv_import_cabspotting(&o, files, NULL);
  g_ptr_array_unref(files);
  const char *w[] = {"weather-noaa-temp.csv", "weather-noaa-prcp.csv", "weather-mss.csv"};
  for (size_t i = 0; i < G_N_ELEMENTS(w); i++) {
    char *p = sample(w[i]);
    GError *err = NULL;
    g_assert_true(trv_weather_attach(t, p, &err));
    g_assert_no_error(err);
    g_free(p);
  }
  return t;
}

/* err is an input error whose message starts with prefix and holds what. */
static G_GNUC_UNUSED void assert_input_error(GError **err, const char *prefix, const char *what) {
  g_assert_error(*err, TRV_ERROR, TRV_ERROR_INPUT);
  if (!g_str_has_prefix((*err)->message, prefix) || !strstr((*err)->message, what))
    g_error("got '%s', wanted prefix '%s' and '%s'", (*err)->message, prefix, what);
  g_clear_error(err);
}

/* Writes text to DIR/name in a new temporary directory; returns the path. */
static G_GNUC_UNUSED char *temp_file(const char *name, const char *text, size_t len) {
  char *dir = g_dir_make_tmp("trv-urs-XXXXXX", NULL);
  char *path = g_build_filename(dir, name, NULL);
  g_assert_true(g_file_set_contents(path, text, (gssize)len, NULL));
  g_free(dir);
  return path;
}

static G_GNUC_UNUSED void remove_temp(char *path) {
  char *dir = g_path_get_dirname(path);
  g_unlink(path);
  g_rmdir(dir);
  g_free(dir);
  g_free(path);
}

/* A sparse file of 3 GiB (no disk used) named `name` in a new scratch
 * directory, *dir; the caller unlinks it, removes *dir and frees both. */
static inline char *sparse_3gib_file(const char *name, char **dir) {
  *dir = g_dir_make_tmp("trv-urs-XXXXXX", NULL);
  char *path = g_build_filename(*dir, name, NULL);
  int fd = g_open(path, O_WRONLY | O_CREAT, 0600);
  g_assert_cmpint(fd, >=, 0);
  g_assert_cmpint(ftruncate(fd, (off_t)3 << 30), ==, 0);
  close(fd);
  return path;
}

#endif
