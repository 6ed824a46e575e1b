/* The URS trace importers on small hand-written traces (tests/urs/): every
 * kind of malformed line is counted by reason with its first file:line, a
 * file with no usable rows is an input error (exit 2 from the command),
 * pickups, trips, rates and the OD matrix come out as computed by hand in
 * the comments, and a calibration table survives write -> read -> write
 * byte for byte.  The hand computations use the rules stated at the top of
 * each importer. */
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "core/posterior.h"
#include "urs/import.h"

static char *sample(const char *name) { return g_build_filename(TRV_URS_SAMPLES, name, NULL); }

static GPtrArray *inputs(const char *format, const char *name) {
  char *p = sample(name);
  char *argv[] = {p};
  GPtrArray *files = trv_import_list_inputs(format, argv, 1, NULL);
  g_assert_nonnull(files);
  g_free(p);
  return files;
}

static TrvImportOptions options(const char *city) {
  TrvImportOptions o = {trv_city_find(city), TRV_HEX_DEFAULT_CELL_KM2, NULL, TRV_IMPORT_TLC_TRIPS_PER_MONTH};
  return o;
}

static void assert_rejection(const TrvCalTable *t, const char *reason, uint64_t count, const char *file_suffix,
                             uint64_t line) {
  const TrvRejection *r = trv_cal_table_rejection(t, reason);
  if (!r) g_error("no rejection '%s'", reason);
  g_assert_cmpuint(r->count, ==, count);
  g_assert_true(g_str_has_suffix(r->first_file, file_suffix));
  g_assert_cmpuint(r->first_line, ==, line);
}

static double zone_rate(const TrvCalTable *t, double lat, double lon, int slot) {
  int z = trv_cal_table_find_zone(t, trv_hex_cell_of_point(&t->grid, lat, lon));
  g_assert_cmpint(z, >=, 0);
  return g_array_index(t->zones, TrvZoneDemand, z).rate[slot];
}

/* ---- San Francisco ------------------------------------------------------ */

static void check_sf_sample(const TrvCalTable *t) {
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

static void sf_malformed_lines_are_counted_with_first_line(void) {
  GPtrArray *files = inputs("cabspotting", "sf-bad");
  TrvImportOptions o = options("sf");
  GError *err = NULL;
  TrvCalTable *t = trv_import_cabspotting(&o, files, &err);
  g_assert_no_error(err);
  check_sf_sample(t);
  assert_rejection(t, "column-count", 2, "new_badcab.txt", 2);
  assert_rejection(t, "bad-line", 1, "new_badcab.txt", 3);
  assert_rejection(t, "bad-timestamp", 1, "new_badcab.txt", 4);
  assert_rejection(t, "outside-city", 2, "new_badcab.txt", 5);
  assert_rejection(t, "speed-outlier", 1, "new_badcab.txt", 9);
  assert_rejection(t, "duplicate-time", 1, "new_badcab.txt", 11);
  g_assert_cmpstr(trv_cal_table_rejection(t, "bad-timestamp")->first_text, ==, "37.78000 -122.41000 1 12110940xx");
  g_assert_cmpstr(t->period_start, ==, "2008-05-18T00:00:00");
  trv_cal_table_free(t);
  g_ptr_array_unref(files);
}

static void sf_newest_first_file_gives_the_same_table(void) {
  GPtrArray *files = inputs("cabspotting", "sf-reversed");
  TrvImportOptions o = options("sf");
  TrvCalTable *t = trv_import_cabspotting(&o, files, NULL);
  g_assert_nonnull(t);
  check_sf_sample(t);
  /* Same fixes rejected; line numbers count from the other end (15 - n). */
  assert_rejection(t, "column-count", 2, "new_badcab.txt", 2);
  assert_rejection(t, "speed-outlier", 1, "new_badcab.txt", 6);
  assert_rejection(t, "duplicate-time", 1, "new_badcab.txt", 5);
  trv_cal_table_free(t);
  g_ptr_array_unref(files);
}

static void sf_file_without_usable_rows_is_an_input_error(void) {
  GPtrArray *files = inputs("cabspotting", "sf-empty");
  TrvImportOptions o = options("sf");
  GError *err = NULL;
  g_assert_null(trv_import_cabspotting(&o, files, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "new_lost.txt: no usable rows among 3 read"));
  g_assert_nonnull(strstr(err->message, "outside-city first at"));
  g_clear_error(&err);
  g_ptr_array_unref(files);
  /* The command exits 2. */
  char *dir = sample("sf-empty"), *out = g_build_filename(g_get_tmp_dir(), "trv-urs-none.cal", NULL);
  char *argv[] = {"trace", "import", "--format", "cabspotting", "--city", "sf", "--out", out, dir, NULL};
  g_assert_cmpint(trv_cmd_trace(9, argv), ==, 2);
  g_assert_false(g_file_test(out, G_FILE_TEST_EXISTS));
  char *argv2[] = {"trace", "import", "--format", "gps", "--city", "sf", "--out", out, dir, NULL};
  g_assert_cmpint(trv_cmd_trace(9, argv2), ==, 2);
  g_free(dir);
  g_free(out);
}

/* ---- New York ----------------------------------------------------------- */

static void tlc_both_header_variants_and_every_bad_row(void) {
  char *a = sample("tlc/trips-bad.csv"), *b = sample("tlc/trips-renamed.csv");
  char *argv[] = {a, b};
  GPtrArray *files = trv_import_list_inputs("tlc", argv, 2, NULL);
  TrvImportOptions o = options("nyc");
  o.scale_to_trips_per_month = 400; /* 4 sample trips in March 2019: weight 100 */
  GError *err = NULL;
  TrvCalTable *t = trv_import_tlc(&o, files, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(t->rows_read, ==, 12);
  g_assert_cmpuint(t->rows_used, ==, 4);
  assert_rejection(t, "column-count", 1, "trips-bad.csv", 4);
  assert_rejection(t, "bad-timestamp", 1, "trips-bad.csv", 5);
  assert_rejection(t, "unknown-pickup-zone", 3, "trips-bad.csv", 6);
  assert_rejection(t, "outside-city", 1, "trips-bad.csv", 9);
  assert_rejection(t, "bad-line", 1, "trips-bad.csv", 10);
  assert_rejection(t, "dropoff-before-pickup", 1, "trips-bad.csv", 11);
  g_assert_cmpuint(trv_cal_table_rejected(t), ==, 8);
  g_assert_cmpfloat(trv_cal_table_stat(t, "unknown_pickup_zone_264"), ==, 1);
  g_assert_cmpfloat(trv_cal_table_stat(t, "unknown_pickup_zone_265"), ==, 1);
  g_assert_cmpfloat(trv_cal_table_stat(t, "unknown_pickup_zone_missing"), ==, 1);
  g_assert_cmpfloat(trv_cal_table_stat(t, "unknown_dropoff_zone_264"), ==, 1);
  g_assert_cmpfloat(trv_cal_table_stat(t, "rows_with_unknown_dropoff_zone"), ==, 1);
  g_assert_cmpfloat(trv_cal_table_stat(t, "manhattan_pickup_share"), ==, 0.75);
  /* Monday 2019-03-04 08:05 from zone 236: slot 32; March 2019 has four
   * Mondays, so 1 h of exposure: rate = weight 100 / 1 h. */
  g_assert_cmpfloat(t->exposure_hours[32], ==, 1.0);
  g_assert_cmpfloat(zone_rate(t, 40.7766, -73.9533, 32), ==, 100.0);
  /* Wednesday 2019-03-06 12:00 from 161 (renamed header): slot 2*96+48,
   * four Wednesdays. */
  g_assert_cmpfloat(zone_rate(t, 40.7580, -73.9776, 2 * 96 + 48), ==, 100.0);
  g_assert_cmpint(t->filled_slots, ==, 0);
  /* 17.2 miles = 27.68 km in 40 minutes. */
  g_assert_cmpfloat(t->distance_km.counts[55], ==, 1);
  g_assert_cmpfloat(t->duration_s.counts[40], ==, 1);
  g_assert_cmpuint(t->od->len, ==, 3);
  g_assert_cmpuint(t->source_zones->len, ==, 3); /* 700 lies outside the city */
  const TrvSourceZone *jfk = &g_array_index(t->source_zones, TrvSourceZone, 0);
  g_assert_cmpint(jfk->id, ==, 132);
  g_assert_cmpuint(jfk->pickups, ==, 1);
  g_assert_cmpuint(jfk->dropoffs, ==, 1);
  g_assert_cmpstr(jfk->borough, ==, "Queens");
  trv_cal_table_free(t);
  g_ptr_array_unref(files);
  g_free(a);
  g_free(b);
}

static void tlc_errors_name_the_file_and_the_fix(void) {
  TrvImportOptions o = options("nyc");
  GError *err = NULL;
  GPtrArray *files = inputs("tlc", "tlc/trips-none.csv");
  g_assert_null(trv_import_tlc(&o, files, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "trips-none.csv: no usable rows among 2 read"));
  g_assert_nonnull(strstr(err->message, "trips-none.csv:3 "));
  g_clear_error(&err);
  g_ptr_array_unref(files);
  files = inputs("tlc", "tlc/trips-noheader.csv");
  g_assert_null(trv_import_tlc(&o, files, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "trips-noheader.csv:1: the header has no column pickup_location_id or PULocationID"));
  g_clear_error(&err);
  o.zones_path = "/nonexistent/taxi_zone_centroids.csv";
  g_assert_null(trv_import_tlc(&o, files, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  g_ptr_array_unref(files);
}

/* ---- Singapore ---------------------------------------------------------- */

static void sg_estimator_counts_net_disappearances(void) {
  GPtrArray *files = inputs("sg-availability", "sg");
  g_assert_cmpuint(files->len, ==, 2);
  g_ptr_array_remove_index(files, 1); /* taxi-none.jsonl: the next test */
  TrvImportOptions o = options("sg");
  GError *err = NULL;
  TrvCalTable *t = trv_import_sg(&o, files, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(t->rows_read, ==, 8);
  g_assert_cmpuint(t->rows_used, ==, 3);
  assert_rejection(t, "bad-line", 3, "taxi-bad.jsonl", 2);
  assert_rejection(t, "bad-timestamp", 1, "taxi-bad.jsonl", 3);
  assert_rejection(t, "outside-city", 3, "taxi-bad.jsonl", 5); /* points */
  assert_rejection(t, "duplicate-time", 1, "taxi-bad.jsonl", 7);
  /* A: 3 -> 1 -> 0 available, B: 1 -> 2 -> 1.  D(A) = 2 + 1, D(B) = 0 + 1
   * over 2 minutes of Friday 08:00 (slot 4*96+32): 90 and 30 per hour. */
  g_assert_cmpfloat(trv_cal_table_stat(t, "estimated_requests"), ==, 4);
  g_assert_cmpfloat(t->exposure_hours[4 * 96 + 32], ==, 120.0 / 3600.0);
  g_assert_cmpfloat(zone_rate(t, 1.29, 103.85, 4 * 96 + 32), ==, 90);
  g_assert_cmpfloat(zone_rate(t, 1.35, 103.95, 4 * 96 + 32), ==, 30);
  g_assert_cmpfloat(zone_rate(t, 1.29, 103.85, 32), ==, 90); /* Monday, filled */
  g_assert_cmpint(t->filled_slots, ==, 671);
  g_assert_cmpuint(t->od->len, ==, 0);
  trv_cal_table_free(t);
  g_ptr_array_unref(files);
}

static void sg_file_without_usable_rows_is_an_input_error(void) {
  GPtrArray *files = inputs("sg-availability", "sg/taxi-none.jsonl");
  TrvImportOptions o = options("sg");
  GError *err = NULL;
  g_assert_null(trv_import_sg(&o, files, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "taxi-none.jsonl: no usable rows among 3 read"));
  g_clear_error(&err);
  g_ptr_array_unref(files);
}

/* ---- weather and the table file ----------------------------------------- */

static TrvCalTable *sf_table_with_weather(void) {
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

static void weather_files_merge_by_date_in_mm_and_celsius(void) {
  TrvCalTable *t = sf_table_with_weather();
  g_assert_cmpuint(t->weather->len, ==, 6);
  const TrvWeatherDay *w = (const TrvWeatherDay *)t->weather->data;
  /* NOAA (2008): 68 F = 20 C; 0.5 in = 12.7 mm; a missing tmax stays NAN. */
  g_assert_cmpint(w[0].year, ==, 2008);
  g_assert_cmpfloat(fabs(w[0].tmax_c - 20.0), <, 1e-12);
  g_assert_cmpfloat(fabs(w[0].tmin_c - 10.0), <, 1e-12);
  g_assert_true(isnan(w[0].rain_mm));
  g_assert_true(isnan(w[1].tmax_c));
  g_assert_cmpfloat(fabs(w[1].rain_mm - 12.7), <, 1e-12);
  g_assert_cmpfloat(w[2].rain_mm, ==, 0.0);
  /* MSS (2018), the glued line split in two records. */
  g_assert_cmpint(w[3].year, ==, 2018);
  g_assert_cmpfloat(w[3].rain_mm, ==, 2.6);
  g_assert_cmpfloat(w[3].tmax_c, ==, 32.2);
  g_assert_cmpint(w[4].month, ==, 2);
  g_assert_cmpfloat(w[4].tmin_c, ==, 25.9);
  g_assert_true(isnan(w[5].rain_mm)); /* the MSS dash */
  g_assert_cmpfloat(w[5].tmax_c, ==, 31.0);
  g_assert_cmpfloat(trv_cal_table_stat(t, "weather_glued_records"), ==, 1);
  g_assert_cmpstr(t->weather_station, ==, "USW00023234,Changi");
  char *p = sample("tlc/trips-bad.csv");
  GError *err = NULL;
  g_assert_false(trv_weather_attach(t, p, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  g_free(p);
  trv_cal_table_free(t);
}

static void table_round_trips_exactly(void) {
  TrvCalTable *t = sf_table_with_weather();
  char *first = trv_cal_table_to_string(t);
  GError *err = NULL;
  TrvCalTable *back = trv_cal_table_parse(first, strlen(first), "mem", &err);
  g_assert_no_error(err);
  g_assert_true(trv_cal_table_equal(t, back));
  char *second = trv_cal_table_to_string(back);
  g_assert_cmpstr(first, ==, second);
  /* Through a file, with a TLC table (source zones, scaled rates). */
  char *a = sample("tlc/trips-bad.csv"), *b = sample("tlc/trips-renamed.csv");
  char *argv[] = {a, b};
  GPtrArray *files = trv_import_list_inputs("tlc", argv, 2, NULL);
  g_free(a);
  g_free(b);
  TrvImportOptions o = options("nyc");
  TrvCalTable *nyc = trv_import_tlc(&o, files, NULL);
  g_assert_nonnull(nyc);
  char *path = g_build_filename(g_get_tmp_dir(), "trv-urs-roundtrip.cal", NULL);
  g_assert_true(trv_cal_table_write(nyc, path, NULL));
  TrvCalTable *nyc2 = trv_cal_table_read(path, &err);
  g_assert_no_error(err);
  g_assert_true(trv_cal_table_equal(nyc, nyc2));
  g_assert_false(trv_cal_table_equal(t, nyc2));
  g_unlink(path);
  g_free(path);
  g_ptr_array_unref(files);
  trv_cal_table_free(nyc);
  trv_cal_table_free(nyc2);
  g_free(first);
  g_free(second);
  trv_cal_table_free(back);
  trv_cal_table_free(t);
}

/* Replaces the first occurrence of `from` in a written table by `to`, reads
 * it, and checks the error names line `line`. */
static void assert_refused(const char *text, const char *from, const char *to, int line, const char *what) {
  const char *at = strstr(text, from);
  g_assert_nonnull(at);
  GString *s = g_string_new_len(text, at - text);
  g_string_append(s, to);
  g_string_append(s, at + strlen(from));
  GError *err = NULL;
  TrvCalTable *t = trv_cal_table_parse(s->str, s->len, "x.cal", &err);
  g_assert_null(t);
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  char *prefix = g_strdup_printf("x.cal:%d: ", line);
  if (!g_str_has_prefix(err->message, prefix) || !strstr(err->message, what))
    g_error("'%s' gave '%s', wanted prefix '%s' and '%s'", to, err->message, prefix, what);
  g_free(prefix);
  g_clear_error(&err);
  g_string_free(s, TRUE);
}

static int line_of(const char *text, const char *needle) {
  const char *at = strstr(text, needle);
  g_assert_nonnull(at);
  int line = 1;
  for (const char *p = text; p < at; p++) line += *p == '\n';
  return line;
}

static void reader_refuses_damaged_tables_with_file_and_line(void) {
  TrvCalTable *t = sf_table_with_weather();
  char *text = trv_cal_table_to_string(t);
  assert_refused(text, "trivium-urs-calibration 1", "trivium-urs-calibration 9", 1, "version 9");
  assert_refused(text, "trivium-urs-calibration 1", "hello", 1, "not a Trivium URS calibration table");
  assert_refused(text, "cell_km2=0.1", "cell_km2=0", line_of(text, "[report]"), "cell area");
  assert_refused(text, "rows_used=6", "rows_used=six", line_of(text, "rows_used="), "not a non-negative integer");
  assert_refused(text, "[stats]", "[zones]", line_of(text, "[stats]"), "expected [stats]");
  assert_refused(text, "576\t4\n", "576\t-4\n", line_of(text, "576\t4\n"), "negative");
  assert_refused(text, "576\t4\n", "700\t4\n", line_of(text, "576\t4\n"), "outside [0, 671]");
  assert_refused(text, "576\t4\n", "575\t4\n", line_of(text, "576\t4\n"), "no exposure");
  assert_refused(text, "2008-05-19\t", "2008-02-30\t", line_of(text, "2008-05-19\t"), "not a date");
  assert_refused(text, "[end]\n", "", line_of(text, "[end]"), "truncated");
  assert_refused(text, "outside-city\t2", "outside-city\t3", line_of(text, "[stats]"), "rejections add up to 9");
  /* Bounds and formats the writer never leaves. */
  assert_refused(text, "T00:10:00", "T25:10:00", line_of(text, "[grid]"), "expected two local times");
  assert_refused(text, "period_start=2008", "period_start=1850", line_of(text, "[grid]"), "years 1900-2100");
  assert_refused(text, "lat_max=37.84", "lat_max=1e400", line_of(text, "lat_max="), "'1e400' is not a finite number");
  assert_refused(text, "2008-05-18\tNA\t20\t", "2008-05-18\tNA\t99\t", line_of(text, "2008-05-18\tNA"),
                 "99 is outside [-90, 60]");
  assert_refused(text, "2008-05-19\t", "2008-5-019\t", line_of(text, "2008-05-19\t"), "not a date YYYY-MM-DD");
  assert_refused(text, "n_bins=121", "n_bins=100001", line_of(text, "n_bins=121"), "outside [1, 100000]");
  assert_refused(text, "576\t4\n", "576\t1e13\n", line_of(text, "576\t4\n"), "1e13 is outside [0, 1e+12]");
  char *long_text = g_strnfill(201, 'x');
  char *long_row = g_strconcat("\t2\t", long_text, "\nbad-line", NULL);
  assert_refused(text, "\t2\t37.77000 -122.41000 0\nbad-line", long_row, line_of(text, "column-count"),
                 "a quoted line of 201 bytes; expected at most 200");
  g_free(long_row);
  g_free(long_text);
  /* Rates read back rounded to the 6 digits the format keeps. */
  GError *err = NULL;
  const char *at = strstr(text, "576\t4\n");
  GString *more = g_string_new_len(text, at - text);
  g_string_append_printf(more, "576\t4.0000001\n%s", at + strlen("576\t4\n"));
  TrvCalTable *rounded = trv_cal_table_parse(more->str, more->len, "x.cal", &err);
  g_assert_no_error(err);
  g_assert_true(trv_cal_table_equal(t, rounded));
  trv_cal_table_free(rounded);
  g_string_free(more, TRUE);
  /* Cut mid-line: the last line has no newline. */
  size_t cut = strstr(text, "[od]") - text + 2;
  g_assert_null(trv_cal_table_parse(text, cut, "x.cal", &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "truncated"));
  g_clear_error(&err);
  g_assert_null(trv_cal_table_read("/nonexistent.cal", &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  g_free(text);
  trv_cal_table_free(t);
}

/* ---- hostile input ------------------------------------------------------ */

/* err is an input error whose message starts with prefix and holds what. */
static void assert_input_error(GError **err, const char *prefix, const char *what) {
  g_assert_error(*err, TRV_ERROR, TRV_ERROR_INPUT);
  if (!g_str_has_prefix((*err)->message, prefix) || !strstr((*err)->message, what))
    g_error("got '%s', wanted prefix '%s' and '%s'", (*err)->message, prefix, what);
  g_clear_error(err);
}

/* Writes text to DIR/name in a new temporary directory; returns the path. */
static char *temp_file(const char *name, const char *text, size_t len) {
  char *dir = g_dir_make_tmp("trv-urs-XXXXXX", NULL);
  char *path = g_build_filename(dir, name, NULL);
  g_assert_true(g_file_set_contents(path, text, (gssize)len, NULL));
  g_free(dir);
  return path;
}

static void remove_temp(char *path) {
  char *dir = g_path_get_dirname(path);
  g_unlink(path);
  g_rmdir(dir);
  g_free(dir);
  g_free(path);
}

/* Names come from input data: a table holding bytes that are not UTF-8,
 * or a control character, is refused on write (nothing is created) and on
 * read, with the field or line. */
static void table_text_that_is_not_utf8_is_refused_on_write_and_read(void) {
  TrvCalTable *t = sf_table_with_weather();
  char *path = g_build_filename(g_get_tmp_dir(), "trv-urs-not-utf8.cal", NULL);
  static const char *const bad[] = {"USW\xff", "USW\x01", "USW\xc3"};
  static const char *const why[] = {"byte 0xff at offset 3 is not UTF-8", "control character 0x01",
                                    "byte 0xc3 at offset 3"};
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_free(t->weather_station);
    t->weather_station = g_strdup(bad[i]);
    GError *err = NULL;
    g_assert_false(trv_cal_table_write(t, path, &err));
    char *prefix = g_strdup_printf("%s not written: [city] weather_station: %s", path, why[i]);
    assert_input_error(&err, prefix, "UTF-8 text without control characters");
    g_free(prefix);
    g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
  }
  g_free(t->weather_station);
  t->weather_station = g_strdup("USW00023234,Changi");
  trv_cal_table_set_stat(t, "#hidden", 1);
  GError *err = NULL;
  g_assert_false(trv_cal_table_write(t, path, &err));
  assert_input_error(&err, path, "the statistic '#hidden': it starts with '#'");
  char *text = trv_cal_table_to_string(t);
  int line = line_of(text, "weather_station=");
  assert_refused(text, "weather_station=USW00023234", "weather_station=USW\xff", line, "byte 0xff is not UTF-8");
  assert_refused(text, "weather_station=USW00023234", "weather_station=USW\r", line, "control character 0x0d");
  assert_refused(text, "pickups\t2", "pick\xe2\x82ups\t2", line_of(text, "pickups\t2"), "byte 0xe2 is not UTF-8");
  g_free(text);
  g_free(path);
  trv_cal_table_free(t);
}

/* Rejected lines are quoted in the table: bad bytes become '?', and a long
 * line is cut at 200 bytes on a character boundary, so the table is always
 * UTF-8 and reads back equal. */
static void rejected_lines_are_quoted_as_utf8_text(void) {
  GString *s = g_string_new("37.77 -122.41 0 1211094000\n");
  for (int i = 0; i < 150; i++) g_string_append(s, "\xc3\xa9"); /* e acute */
  g_string_append(s, "\n37.7\xff\xfe -122.41 0\n37.78 -122.41 1 1211094120\n");
  char *path = temp_file("new_bytes.txt", s->str, s->len);
  GPtrArray *files = g_ptr_array_new();
  g_ptr_array_add(files, path);
  TrvImportOptions o = options("sf");
  TrvCalTable *t = trv_import_cabspotting(&o, files, NULL);
  g_assert_nonnull(t);
  g_ptr_array_unref(files);
  remove_temp(path);
  g_assert_cmpstr(trv_cal_table_rejection(t, "column-count")->first_text, ==, "37.7?? -122.41 0");
  const char *cut = trv_cal_table_rejection(t, "bad-line")->first_text;
  g_assert_cmpuint(strlen(cut), ==, 200);
  g_assert_true(g_utf8_validate(cut, -1, NULL));
  char *text = trv_cal_table_to_string(t);
  TrvCalTable *back = trv_cal_table_parse(text, strlen(text), "mem", NULL);
  g_assert_nonnull(back);
  g_assert_true(trv_cal_table_equal(t, back));
  g_free(text);
  trv_cal_table_free(back);
  trv_cal_table_free(t);
  g_string_free(s, TRUE);
}

/* A 3 GiB table is refused from its size before a byte is read, and a
 * device (which would never end) is refused outright. */
static void table_file_over_its_limit_or_a_device_is_refused_before_reading(void) {
  char *dir = g_dir_make_tmp("trv-urs-XXXXXX", NULL);
  char *big = g_build_filename(dir, "big.cal", NULL);
  int fd = g_open(big, O_WRONLY | O_CREAT, 0600);
  g_assert_cmpint(fd, >=, 0);
  g_assert_cmpint(ftruncate(fd, (off_t)3 << 30), ==, 0); /* sparse: no disk used */
  close(fd);
  gint64 t0 = g_get_monotonic_time();
  GError *err = NULL;
  g_assert_null(trv_cal_table_read(big, &err));
  assert_input_error(&err, big, "3221225472 bytes; a calibration table file may have at most 268435456");
  g_assert_cmpint(g_get_monotonic_time() - t0, <, G_USEC_PER_SEC); /* nothing was read */
  g_assert_null(trv_cal_table_read("/dev/urandom", &err));
  assert_input_error(&err, "/dev/urandom: is a device", "expected a calibration table file");
  g_unlink(big);
  g_rmdir(dir);
  g_free(big);
  g_free(dir);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/urs/import/sf_malformed_lines_are_counted_with_first_line",
                  sf_malformed_lines_are_counted_with_first_line);
  g_test_add_func("/urs/import/sf_newest_first_file_gives_the_same_table", sf_newest_first_file_gives_the_same_table);
  g_test_add_func("/urs/import/sf_file_without_usable_rows_is_an_input_error",
                  sf_file_without_usable_rows_is_an_input_error);
  g_test_add_func("/urs/import/tlc_both_header_variants_and_every_bad_row", tlc_both_header_variants_and_every_bad_row);
  g_test_add_func("/urs/import/tlc_errors_name_the_file_and_the_fix", tlc_errors_name_the_file_and_the_fix);
  g_test_add_func("/urs/import/sg_estimator_counts_net_disappearances", sg_estimator_counts_net_disappearances);
  g_test_add_func("/urs/import/sg_file_without_usable_rows_is_an_input_error",
                  sg_file_without_usable_rows_is_an_input_error);
  g_test_add_func("/urs/import/weather_files_merge_by_date_in_mm_and_celsius",
                  weather_files_merge_by_date_in_mm_and_celsius);
  g_test_add_func("/urs/table/round_trips_exactly", table_round_trips_exactly);
  g_test_add_func("/urs/table/reader_refuses_damaged_tables_with_file_and_line",
                  reader_refuses_damaged_tables_with_file_and_line);
  g_test_add_func("/urs/table/text_that_is_not_utf8_is_refused_on_write_and_read",
                  table_text_that_is_not_utf8_is_refused_on_write_and_read);
  g_test_add_func("/urs/table/rejected_lines_are_quoted_as_utf8_text", rejected_lines_are_quoted_as_utf8_text);
  g_test_add_func("/urs/table/file_over_its_limit_or_a_device_is_refused_before_reading",
                  table_file_over_its_limit_or_a_device_is_refused_before_reading);
  return g_test_run();
}
