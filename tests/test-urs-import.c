/* The URS trace importers of San Francisco (cabspotting) and New York
 * (TLC) on small hand-written traces (tests/urs/): every kind of malformed
 * line is counted by reason with its first file:line, a file with no usable
 * rows is an input error (exit 2 from the command), pickups, trips, rates
 * and the OD matrix come out as computed by hand in the comments, and
 * hostile input (times, cut files, wide CSV, bad zone tables, implausible
 * trips) is refused or counted.  The hand computations use the rules stated
 * at the top of each importer.  Singapore, the weather files and oversized
 * inputs are in test-urs-import-sg.c; the table file's own tests in
 * test-urs-table.c. */
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "core/posterior.h"
#include "urs/import.h"
#include "test-urs-util.h"

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
  g_assert_nonnull(
      strstr(err->message, "trips-noheader.csv:1: the header has no column pickup_location_id or PULocationID"));
  g_clear_error(&err);
  o.zones_path = "/nonexistent/taxi_zone_centroids.csv";
  g_assert_null(trv_import_tlc(&o, files, &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_clear_error(&err);
  g_ptr_array_unref(files);
}

/* ---- hostile input ------------------------------------------------------ */

/* Without a time window, a fix at unix time 1e14 makes the exposure walk
 * over 3 million years of 15-minute intervals.  Times outside 2000..2100 are bad
 * timestamps; the boundaries are exact.  Run in a subprocess with a time
 * limit, so that a hang fails instead of blocking the suite. */
static void sf_times_outside_2000_to_2100_are_bad_timestamps_not_a_hang(void) {
  if (g_test_subprocess()) {
    TrvImportInput in = mem("mem/new_far.txt", "37.77 -122.41 0 946684799\n"
                                               "37.77 -122.41 0 946684800\n"
                                               "37.77 -122.41 0 1211094000\n"
                                               "37.77 -122.41 1 100000000000000\n"
                                               "37.78 -122.41 1 1211094120\n"
                                               "37.79 -122.41 0 1211094240\n"
                                               "37.79 -122.41 0 4102444800\n"
                                               "37.79 -122.41 0 99999999999999999999\n");
    TrvImportOptions o = options("sf");
    GError *err = NULL;
    TrvCalTable *t = trv_import_cabspotting_inputs(&o, &in, 1, &err);
    g_assert_no_error(err);
    assert_rejection(t, "bad-timestamp", 4, "new_far.txt", 1);
    g_assert_cmpuint(t->rows_used, ==, 4);
    g_assert_cmpfloat(trv_cal_table_stat(t, "pickups"), ==, 1);
    /* 2000-01-01T00:00:00Z is 1999-12-31 16:00 PST; 1211094240 00:04 PDT. */
    g_assert_cmpstr(t->period_start, ==, "1999-12-31T16:00:00");
    g_assert_cmpstr(t->period_end, ==, "2008-05-18T00:04:00");
    trv_cal_table_free(t);
    return;
  }
  g_test_trap_subprocess(NULL, 30 * G_USEC_PER_SEC, 0);
  g_test_trap_assert_passed();
}

/* Local times around the fall-back hour (2008-11-02 02:00 PDT -> 01:00
 * PST): a trace from 01:50 PDT to 01:10 PST ends "before" it starts on the
 * wall clock, and its table must still be written and read back. */
static void sf_trace_across_the_fall_back_hour_reads_back(void) {
  TrvImportInput in = mem("mem/new_dst.txt", "37.77 -122.41 0 1225615800\n37.78 -122.41 1 1225616400\n"
                                             "37.79 -122.41 0 1225617000\n");
  TrvImportOptions o = options("sf");
  TrvCalTable *t = trv_import_cabspotting_inputs(&o, &in, 1, NULL);
  g_assert_nonnull(t);
  g_assert_cmpstr(t->period_start, ==, "2008-11-02T01:50:00");
  g_assert_cmpstr(t->period_end, ==, "2008-11-02T01:10:00");
  char *text = trv_cal_table_to_string(t);
  GError *err = NULL;
  TrvCalTable *back = trv_cal_table_parse(text, strlen(text), "dst.cal", &err);
  g_assert_no_error(err);
  g_assert_true(trv_cal_table_equal(t, back));
  g_free(text);
  trv_cal_table_free(back);
  trv_cal_table_free(t);
}

/* A file cut inside its last timestamp ("1211094600" -> "12110") would
 * read as a fix of 1970 and stretch the period over 38 years. */
static void sf_file_cut_inside_its_last_line_is_refused(void) {
  const char *text = "37.77 -122.41 0 1211094000\n37.78 -122.41 1 1211094060\n37.78 -122.41 0 12110";
  TrvImportInput in = mem("mem/new_cut.txt", text);
  TrvImportOptions o = options("sf");
  GError *err = NULL;
  g_assert_null(trv_import_cabspotting_inputs(&o, &in, 1, &err));
  assert_input_error(&err, "mem/new_cut.txt:3: the last line has no newline", "truncated");
  /* The command exits 2 and writes nothing. */
  char *path = temp_file("new_cut.txt", text, strlen(text));
  char *out = g_strconcat(path, ".cal", NULL);
  char *argv[] = {"trace", "import", "--format", "cabspotting", "--city", "sf", "--out", out, path, NULL};
  g_assert_cmpint(trv_cmd_trace(9, argv), ==, 2);
  g_assert_false(g_file_test(out, G_FILE_TEST_EXISTS));
  g_free(out);
  remove_temp(path);
}

static const char ZONES[] = "LocationID,Borough,Zone,Latitude,Longitude\n"
                            "132,\"Queens\",\"JFK Airport\",40.6413111,-73.7781391\n"
                            "161,\"Manhattan\",\"Midtown Center\",40.7580,-73.9776\n"
                            "236,\"Manhattan\",\"Upper East Side North\",40.7766,-73.9533\n";

static bool read_zones(const char *text, size_t len, TrvTlcZone *zones, int *n, GError **err) {
  TrvHexGrid g;
  const TrvCity *c = trv_city_find("nyc");
  trv_hex_grid_init(&g, c->lat_min, c->lat_max, c->lon_min, c->lon_max, 0.1, NULL);
  memset(zones, 0, sizeof(TrvTlcZone) * (TRV_TLC_MAX_ZONE_ID + 1));
  TrvImportInput in = {"zones.csv", text, len};
  bool ok = trv_tlc_zones_read(&in, &g, zones, n, err);
  trv_tlc_zones_clear(zones);
  return ok;
}

/* Headers are split into a bounded number of slots, and no slot beyond
 * them is looked at: a table whose Longitude is column 17 reads, one of 65
 * columns is refused at line 1, and so is a trip file's. */
static void tlc_tables_with_17_or_65_columns_are_read_safely(void) {
  TrvTlcZone *zones = g_new0(TrvTlcZone, TRV_TLC_MAX_ZONE_ID + 1);
  GString *s = g_string_new("LocationID,Borough,Zone,Latitude");
  for (int i = 0; i < 12; i++) g_string_append_printf(s, ",extra%d", i);
  g_string_append(s, ",Longitude\n161,Manhattan,Midtown,40.758");
  for (int i = 0; i < 12; i++) g_string_append(s, ",x");
  g_string_append(s, ",-73.9776\n");
  int n = 0;
  GError *err = NULL;
  TrvHexGrid g;
  const TrvCity *c = trv_city_find("nyc");
  trv_hex_grid_init(&g, c->lat_min, c->lat_max, c->lon_min, c->lon_max, 0.1, NULL);
  TrvImportInput in = {"zones.csv", s->str, s->len};
  g_assert_true(trv_tlc_zones_read(&in, &g, zones, &n, &err));
  g_assert_no_error(err);
  g_assert_cmpint(n, ==, 1);
  g_assert_cmpfloat(zones[161].lon, ==, -73.9776);
  g_assert_cmpstr(zones[161].borough, ==, "Manhattan");
  trv_tlc_zones_clear(zones);
  GString *wide = g_string_new("LocationID,Borough,Zone,Latitude,Longitude");
  for (int i = 0; i < 60; i++) g_string_append_printf(wide, ",c%d", i);
  g_string_append_c(wide, '\n');
  g_assert_false(read_zones(wide->str, wide->len, zones, &n, &err));
  assert_input_error(&err, "zones.csv:1: the header has more than 64 columns", "expected LocationID");
  /* A trip file whose header has 65 names. */
  GString *trips = g_string_new("tpep_pickup_datetime,tpep_dropoff_datetime,trip_distance,PULocationID,DOLocationID");
  for (int i = 0; i < 60; i++) g_string_append_printf(trips, ",c%d", i);
  g_string_append(trips, "\n2019-03-04 08:05:00,2019-03-04 08:20:00,2.5,236,161\n");
  TrvImportInput zin = mem("zones.csv", ZONES), tin = {"trips.csv", trips->str, trips->len};
  TrvImportOptions o = options("nyc");
  o.zones = &zin;
  g_assert_null(trv_import_tlc_inputs(&o, &tin, 1, &err));
  assert_input_error(&err, "trips.csv:1: a header of more than 64 columns", "expected a TLC trip file");
  g_string_free(s, TRUE);
  g_string_free(wide, TRUE);
  g_string_free(trips, TRUE);
  g_free(zones);
}

/* A zone table is a reference, not a trace: a cut or malformed row is an
 * error naming the line, never a zone silently moved or lost. */
static void tlc_zone_table_cut_or_malformed_is_an_error_with_file_and_line(void) {
  static const struct {
    const char *row;
    int line;
    const char *what;
  } cases[] = {
      {"7,Queens,Astoria,40.76\n", 3, "4 fields; expected 5 as in the header"},
      {"0,Queens,X,40.7,-73.9\n", 3, "LocationID '0'; expected an integer in 1..1000"},
      {"7x,Queens,X,40.7,-73.9\n", 3, "LocationID '7x'"},
      {"132,Queens,X,40.7,-73.9\n", 3, "zone 132 repeated (first at line 2)"},
      {"7,Queens,X,95,-73.9\n", 3, "Latitude '95'; expected a number in [-90, 90]"},
      {"7,Queens,X,40.7,-73.9x\n", 3, "Longitude '-73.9x'"},
      {"7,Que\xffns,X,40.7,-73.9\n", 3, "byte 0xff in Borough; expected UTF-8 text"},
      {"7,Que\x01ns,X,40.7,-73.9\n", 3, "byte 0x01 in Borough"},
      {"7,Queens,X,40.7,-73.97", 3, "the last line has no newline"},
  };
  TrvTlcZone *zones = g_new0(TrvTlcZone, TRV_TLC_MAX_ZONE_ID + 1);
  int n;
  GError *err = NULL;
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *text =
        g_strconcat("LocationID,Borough,Zone,Latitude,Longitude\n132,Queens,JFK,40.64,-73.78\n", cases[i].row, NULL);
    g_assert_false(read_zones(text, strlen(text), zones, &n, &err));
    char *prefix = g_strdup_printf("zones.csv:%d: ", cases[i].line);
    assert_input_error(&err, prefix, cases[i].what);
    g_free(prefix);
    g_free(text);
  }
  const char nul_row[] = "LocationID,Borough,Zone,Latitude,Longitude\n7,Queens,X,40.7,-73.9\0\n";
  g_assert_false(read_zones(nul_row, sizeof nul_row - 1, zones, &n, &err));
  assert_input_error(&err, "zones.csv:2: a NUL byte", "expected a text row");
  g_assert_false(read_zones("", 0, zones, &n, &err));
  assert_input_error(&err, "zones.csv:1: empty file", "expected a header");
  const char *only_header = "LocationID,Borough,Zone,Latitude,Longitude\n\n";
  g_assert_false(read_zones(only_header, strlen(only_header), zones, &n, &err));
  assert_input_error(&err, "zones.csv:2: no zone rows", "one row per TLC zone");
  const char *no_lat = "LocationID,Borough,Zone,Lat,Longitude\n7,Queens,X,40.7,-73.9\n";
  g_assert_false(read_zones(no_lat, strlen(no_lat), zones, &n, &err));
  assert_input_error(&err, "zones.csv:1: the header has no column Latitude", "LocationID, Borough");
  /* A table cut inside a row (most trips would lose their zone and the
   * import would succeed): the command exits 2. */
  char *zpath = temp_file("taxi_zone_centroids.csv", ZONES, sizeof ZONES - 1 - 20);
  char *trips = sample("tlc/trips-bad.csv"), *out = g_strconcat(zpath, ".cal", NULL);
  char *argv[] = {"trace", "import", "--format", "tlc", "--city", "nyc", "--zones", zpath, "--out", out, trips, NULL};
  g_assert_cmpint(trv_cmd_trace(11, argv), ==, 2);
  g_assert_false(g_file_test(out, G_FILE_TEST_EXISTS));
  g_free(trips);
  g_free(out);
  remove_temp(zpath);
  g_free(zones);
}

static const char TRIP_HEADER[] =
    "tpep_pickup_datetime,tpep_dropoff_datetime,trip_distance,PULocationID,DOLocationID\n";

static TrvCalTable *import_trips(const char *rows, TrvImportOptions *o, GError **err) {
  char *text = g_strconcat(TRIP_HEADER, rows, NULL);
  TrvImportInput zin = mem("zones.csv", ZONES), tin = mem("trips.csv", text);
  o->zones = &zin;
  TrvCalTable *t = trv_import_tlc_inputs(o, &tin, 1, err);
  o->zones = NULL;
  g_free(text);
  return t;
}

/* A distance of 1e308 miles would overflow to an infinite km and abort on
 * the histogram's assertion; a day-long trip is a clock error. */
static void tlc_implausible_trips_are_rejected(void) {
  TrvImportOptions o = options("nyc");
  GError *err = NULL;
  TrvCalTable *t = import_trips("2019-03-04 08:05:00,2019-03-04 08:20:00,2.5,236,161\n"
                                "2019-03-04 08:05:00,2019-03-04 08:20:00,1e308,236,161\n"
                                "2019-03-04 08:05:00,2019-03-05 08:05:01,2.5,236,161\n"
                                "1999-12-31 23:59:59,2000-01-01 00:10:00,2.5,236,161\n"
                                "2019-03-04 08:05:00,2019-03-04 08:20:00,1000.5,236,161\n"
                                "2019-03-04 08:05:00,2019-03-05 08:05:00,999.5,236,161\n",
                                &o, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(t->rows_used, ==, 2);
  assert_rejection(t, "bad-line", 2, "trips.csv", 3);
  assert_rejection(t, "trip-over-24h", 1, "trips.csv", 4);
  assert_rejection(t, "bad-timestamp", 1, "trips.csv", 5);
  /* The kept day-long trip sits in the last bins. */
  g_assert_cmpfloat(t->duration_s.counts[t->duration_s.n_bins - 1], ==, 1);
  g_assert_cmpfloat(t->distance_km.counts[t->distance_km.n_bins - 1], ==, 1);
  trv_cal_table_free(t);
  /* 120 trips in 120 months: none holds 1% of them, so there is no
   * period to scale, and the table would be empty. */
  GString *rows = g_string_new("");
  for (int m = 0; m < 120; m++)
    g_string_append_printf(rows, "%04d-%02d-04 08:05:00,%04d-%02d-04 08:20:00,2.5,236,161\n", 2001 + m / 12, m % 12 + 1,
                           2001 + m / 12, m % 12 + 1);
  g_assert_null(import_trips(rows->str, &o, &err));
  assert_input_error(&err, "trips.csv: the 120 trips spread over 120 months, none holding 1% of them", "expected");
  g_string_free(rows, TRUE);
}

/* The default volume is 2019's: a 2020 trace scaled to it is warned
 * about, with the numbers; a volume given without a year is not. */
static void tlc_trace_of_another_year_than_the_volume_warns(void) {
  const char *rows = "2020-03-04 08:05:00,2020-03-04 08:20:00,2.5,236,161\n"
                     "2019-12-04 08:05:00,2019-12-04 08:20:00,2.5,236,161\n"
                     "2020-04-04 08:05:00,2020-04-04 08:20:00,2.5,236,161\n";
  TrvImportOptions o = options("nyc");
  o.scale_year = TRV_IMPORT_TLC_TRIPS_PER_MONTH_YEAR;
  o.warnings = g_ptr_array_new_with_free_func(g_free);
  TrvCalTable *t = import_trips(rows, &o, NULL);
  g_assert_nonnull(t);
  g_assert_cmpuint(o.warnings->len, ==, 1);
  g_assert_cmpstr(o.warnings->pdata[0], ==,
                  "trips are scaled to 7.7e+06 a month, the volume of 2019, but 2 of the 3 covered months are of "
                  "another year (2020-03..2020-04): give --scale-to-trips-per-month for the trace's year");
  trv_cal_table_free(t);
  g_ptr_array_set_size(o.warnings, 0);
  o.scale_year = 0;
  t = import_trips(rows, &o, NULL);
  g_assert_cmpuint(o.warnings->len, ==, 0);
  trv_cal_table_free(t);
  /* Trips from a zone the table lacks (is it complete?). */
  t = import_trips("2019-03-04 08:05:00,2019-03-04 08:20:00,2.5,236,161\n"
                   "2019-03-04 08:05:00,2019-03-04 08:20:00,2.5,7,161\n",
                   &o, NULL);
  g_assert_cmpuint(o.warnings->len, ==, 1);
  g_assert_cmpstr(o.warnings->pdata[0], ==,
                  "1 of 2 trips (50.0%) start in zones the zone table zones.csv does not have "
                  "(it has 3 zones): is it complete?");
  trv_cal_table_free(t);
  g_ptr_array_unref(o.warnings);
  /* The command prints it on stderr and still exits 0. */
  if (g_test_subprocess()) {
    char *text = g_strconcat(TRIP_HEADER, rows, NULL);
    char *path = temp_file("trips.csv", text, strlen(text)), *dir = g_path_get_dirname(path);
    char *zpath = g_build_filename(dir, "taxi_zone_centroids.csv", NULL), *out = g_strconcat(path, ".cal", NULL);
    g_assert_true(g_file_set_contents(zpath, ZONES, -1, NULL));
    char *argv[] = {"trace", "import", "--format", "tlc", "--city", "nyc", "--out", out, path, NULL};
    int code = trv_cmd_trace(9, argv);
    g_unlink(zpath);
    g_unlink(out);
    remove_temp(path);
    g_free(text);
    g_free(dir);
    g_free(zpath);
    g_free(out);
    exit(code);
  }
  g_test_trap_subprocess(NULL, 0, 0);
  g_test_trap_assert_passed();
  g_test_trap_assert_stderr("*trivium trace: warning: trips are scaled to 7.7e+06 a month, the volume of 2019, but 2 "
                            "of the 3 covered months*\n*trivium trace: warning: no weather for the trace's 152 days "
                            "(2019-12-01..2020-04-30)*");
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
  g_test_add_func("/urs/import/sf_times_outside_2000_to_2100_are_bad_timestamps_not_a_hang",
                  sf_times_outside_2000_to_2100_are_bad_timestamps_not_a_hang);
  g_test_add_func("/urs/import/sf_file_cut_inside_its_last_line_is_refused",
                  sf_file_cut_inside_its_last_line_is_refused);
  g_test_add_func("/urs/import/sf_trace_across_the_fall_back_hour_reads_back",
                  sf_trace_across_the_fall_back_hour_reads_back);
  g_test_add_func("/urs/import/tlc_tables_with_17_or_65_columns_are_read_safely",
                  tlc_tables_with_17_or_65_columns_are_read_safely);
  g_test_add_func("/urs/import/tlc_zone_table_cut_or_malformed_is_an_error_with_file_and_line",
                  tlc_zone_table_cut_or_malformed_is_an_error_with_file_and_line);
  g_test_add_func("/urs/import/tlc_implausible_trips_are_rejected", tlc_implausible_trips_are_rejected);
  g_test_add_func("/urs/import/tlc_trace_of_another_year_than_the_volume_warns",
                  tlc_trace_of_another_year_than_the_volume_warns);
  return g_test_run();
}
