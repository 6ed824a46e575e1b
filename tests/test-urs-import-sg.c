/* The URS trace importer of Singapore (availability snapshots) and the
 * weather files on small hand-written inputs (tests/urs/): the net
 * disappearance estimator and its hand-computed counts, weather merged by
 * date, and hostile input (deep JSON, other offsets, wrong shapes, bad
 * weather rows, oversized files and devices) refused or counted.  San
 * Francisco and New York are in test-urs-import.c. */
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/posterior.h"
#include "urs/import.h"
#include "test-urs-util.h"

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

/* ---- hostile input ------------------------------------------------------ */
/* A line of 100,000 nested brackets would overflow json-glib's recursion
 * (a segfault): it is a bad line, and the next one is read. */
static void sg_deeply_nested_line_is_a_bad_line(void) {
  GString *s = g_string_new("{\"geometry\":{\"coordinates\":[[103.85,1.29]]},\"properties\":{\"timestamp\":"
                            "\"2024-03-01T08:00:00+08:00\"}}\n");
  for (int i = 0; i < 100000; i++) g_string_append_c(s, '[');
  for (int i = 0; i < 100000; i++) g_string_append_c(s, ']');
  g_string_append(s, "\n{\"geometry\":{\"coordinates\":[[103.85,1.29]]},\"properties\":{\"timestamp\":"
                     "\"1999-12-31T23:59:59+08:00\"}}\n"
                     "{\"geometry\":{\"coordinates\":[[103.85,1.29]]},\"properties\":{\"timestamp\":"
                     "\"2024-03-01T08:01:00+08:00\",\"x\":\"[[[[[[[[[[[[[[[[[[[[\"}}\n");
  TrvImportInput in = {"deep.jsonl", s->str, s->len};
  TrvImportOptions o = options("sg");
  GError *err = NULL;
  TrvCalTable *t = trv_import_sg_inputs(&o, &in, 1, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(t->rows_read, ==, 4);
  g_assert_cmpuint(t->rows_used, ==, 2); /* brackets inside a string do not count */
  assert_rejection(t, "bad-line", 1, "deep.jsonl", 2);
  assert_rejection(t, "bad-timestamp", 1, "deep.jsonl", 3);
  trv_cal_table_free(t);
  g_string_free(s, TRUE);
}

/* Stamps name instants: one written in UTC or with another offset is
 * converted to Singapore time (UTC+08:00), so the slots and the period
 * follow the instants' order. */
static void sg_stamps_with_other_offsets_are_read_as_singapore_time(void) {
  TrvImportInput in = mem("offsets.jsonl",
                          "{\"geometry\":{\"coordinates\":[[103.85,1.29],[103.85,1.29]]},\"properties\":{\"timestamp\":"
                          "\"2024-03-01T08:02:00+08:00\"}}\n"
                          "{\"geometry\":{\"coordinates\":[[103.85,1.29]]},\"properties\":{\"timestamp\":"
                          "\"2024-03-01T00:03:00Z\"}}\n"
                          "{\"geometry\":{\"coordinates\":[]},\"properties\":{\"timestamp\":"
                          "\"2024-03-01T08:13:00+08:10\"}}\n");
  TrvImportOptions o = options("sg");
  TrvCalTable *t = trv_import_sg_inputs(&o, &in, 1, NULL);
  g_assert_nonnull(t);
  g_assert_cmpstr(t->period_start, ==, "2024-03-01T08:02:00");
  g_assert_cmpstr(t->period_end, ==, "2024-03-01T08:03:00");
  /* 08:13 at +08:10 is 00:03 UTC, the second stamp's instant. */
  assert_rejection(t, "duplicate-time", 1, "offsets.jsonl", 3);
  /* One pair of one minute, Friday 08:00 (slot 4*96+32), one taxi gone:
   * 60 per hour. */
  g_assert_cmpfloat(t->exposure_hours[4 * 96 + 32], ==, 60.0 / 3600.0);
  g_assert_cmpfloat(zone_rate(t, 1.29, 103.85, 4 * 96 + 32), ==, 60);
  trv_cal_table_free(t);
}

/* A line of the wrong shape is a bad line, never a GLib critical (GTest
 * makes those fatal): json-glib asserts the type of every member it is
 * asked for.  A bad line counts none of its points as outside-city. */
static void sg_lines_of_the_wrong_shape_are_bad_lines(void) {
  TrvImportInput in =
      mem("shapes.jsonl",
          "{\"geometry\":1,\"properties\":{\"timestamp\":\"2024-03-01T08:00:00+08:00\"}}\n"
          "{\"geometry\":{\"coordinates\":[[103.85,1.29]]},\"properties\":[1]}\n"
          "{\"geometry\":{\"coordinates\":[[103.85,1.29]]},\"properties\":{\"timestamp\":{}}}\n"
          "{\"geometry\":{\"coordinates\":{}},\"properties\":{\"timestamp\":\"2024-03-01T08:00:00Z\"}}\n"
          "{\"geometry\":{\"coordinates\":[[0,0],[1]]},\"properties\":{\"timestamp\":\"2024-03-01T08:00:00Z\"}}\n"
          "[1,2]\n"
          "{\"geometry\":{\"coordinates\":[[103.85,1.29],[0,0]]},\"properties\":{\"timestamp\":"
          "\"2024-03-01T08:00:00+08:00\"}}\n");
  TrvImportOptions o = options("sg");
  GError *err = NULL;
  TrvCalTable *t = trv_import_sg_inputs(&o, &in, 1, &err);
  g_assert_no_error(err);
  g_assert_cmpuint(t->rows_used, ==, 1);
  assert_rejection(t, "bad-line", 6, "shapes.jsonl", 1);
  assert_rejection(t, "outside-city", 1, "shapes.jsonl", 7); /* the last line's (0, 0) only */
  trv_cal_table_free(t);
}

/* Weather is a reference too: a value that is not a number in its
 * physical range, a malformed or repeated row, is refused with its line,
 * and the table keeps the weather it had. */
static void weather_bad_rows_are_refused_and_leave_the_table_as_it_was(void) {
  static const struct {
    const char *text;
    int line;
    const char *what;
  } cases[] = {
      {"station_id,date,tmax_f,tmin_f\nS,2008-05-18,68.0x,50\n", 2, "tmax_f '68.0x'; expected a number in [-130, 140]"},
      {"station_id,date,tmax_f,tmin_f\nS,2008-05-18,999,50\n", 2, "tmax_f '999'"},
      {"station_id,date,tmax_f,tmin_f\nS,2008-05-18,68,50,7\n", 2, "5 fields; expected 4 as in the header"},
      {"station_id,date,tmax_f,tmin_f\nS,2008-05-18,68,50\nS,2008-05-18,70,51\n", 3,
       "date 2008-05-18 repeated (first at line 2)"},
      {"station_id,date,tmax_f,tmin_f\nS,1850-05-18,68,50\n", 2, "no valid date"},
      {"station_id,date,tmax_f,tmin_f\nS,2008-5-18x,68,50\n", 2, "no valid date"},
      {"station_id,date,tmax_f,tmin_f\nS,2008-05-18,68,50\nT,2008-05-19,68,50\n", 3, "station 'T'; expected 'S'"},
      {"station_id,date,tmax_f,tmin_f\nS,2008-05-18,68,5", 2, "the last line has no newline"},
      {"station_id,date,prcp_in\nS,2008-05-18,-0.5\n", 2, "prcp_in '-0.5'"},
      {"station_id,date,prcp_in\nS\xff,2008-05-18,0.5\n", 2, "expected a station name of UTF-8 text"},
      {"Station,Year,Month,Day,Minimum Temperature (\xc2\xb0"
       "C),Maximum Temperature (\xc2\xb0"
       "C),"
       "Daily Rainfall Total (mm)\nChangi,2018,1,1,24\n",
       2, "5 fields; expected 7"},
      {"Station,Year,Month,Day,Daily Rainfall Total (mm),Maximum Temperature (\xc2\xb0"
       "C),Minimum Temperature "
       "(\xc2\xb0"
       "C)\nChangi,2018,1,1,2,31,24Changi,2018,1\n",
       2, "9 fields; expected 7"},
      {"Station,Year,Month,Day,Daily Rainfall Total (mm),Maximum Temperature (\xc2\xb0"
       "C),Minimum Temperature "
       "(\xc2\xb0"
       "C)\nChangi,20155555555555555558,2,1,0,31,24\n",
       2, "no valid date"},
      {"date,station\n2008-05-18,S\n", 1, "not a weather file this reader knows"},
      {"\n\n", 1, "empty weather file"},
  };
  TrvCalTable *t = sf_table_with_weather();
  char *before = trv_cal_table_to_string(t);
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    TrvImportInput in = mem("w.csv", cases[i].text);
    GError *err = NULL;
    g_assert_false(trv_weather_attach_input(t, &in, &err));
    char *prefix = g_strdup_printf("w.csv:%d: ", cases[i].line);
    assert_input_error(&err, prefix, cases[i].what);
    g_free(prefix);
  }
  char *after = trv_cal_table_to_string(t);
  g_assert_cmpstr(before, ==, after);
  /* Columns are found by name: the MSS table in another order reads. */
  TrvImportInput in = mem("w.csv", "Station,Year,Month,Day,Minimum Temperature (\xc2\xb0"
                                   "C),Maximum Temperature "
                                   "(\xc2\xb0"
                                   "C),Daily Rainfall Total (mm)\nChangi,2019,1,1,24.5,31.5,3.5\n");
  g_assert_true(trv_weather_attach_input(t, &in, NULL));
  const TrvWeatherDay *w = &g_array_index(t->weather, TrvWeatherDay, t->weather->len - 1);
  g_assert_cmpint(w->year, ==, 2019);
  g_assert_cmpfloat(w->rain_mm, ==, 3.5);
  g_assert_cmpfloat(w->tmax_c, ==, 31.5);
  g_assert_cmpfloat(w->tmin_c, ==, 24.5);
  g_free(before);
  g_free(after);
  trv_cal_table_free(t);
}

/* Days of the trace without weather are counted and warned about; a day
 * whose every value is NA is not covered; TLC's period ends at midnight,
 * exclusive. */
static void weather_coverage_counts_the_trace_days_without_weather(void) {
  TrvHexGrid g;
  trv_hex_grid_init(&g, 37.6, 37.84, -122.53, -122.35, 0.1, NULL);
  TrvCalTable *t = trv_cal_table_new("sf", "cabspotting", &g);
  g_free(t->period_start);
  g_free(t->period_end);
  t->period_start = g_strdup("2008-05-18T00:00:00");
  t->period_end = g_strdup("2008-05-24T23:58:42");
  TrvWeatherDay days[] = {
      {2008, 5, 17, 1, 20, 10}, {2008, 5, 19, 0, 20, 10}, {2008, 5, 20, NAN, 21, NAN}, {2008, 5, 21, NAN, NAN, NAN}};
  g_array_append_vals(t->weather, days, G_N_ELEMENTS(days));
  int n, uncovered;
  trv_import_weather_coverage(t, &n, &uncovered);
  g_assert_cmpint(n, ==, 7);
  g_assert_cmpint(uncovered, ==, 5);
  GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
  trv_import_check_weather(t, warnings);
  g_assert_cmpuint(warnings->len, ==, 1);
  g_assert_cmpstr(warnings->pdata[0], ==,
                  "weather covers 2 of the trace's 7 days (2008-05-18..2008-05-24): 5 days "
                  "uncovered; the table's 4 weather days serve as climatology");
  g_free(t->period_start);
  g_free(t->period_end);
  t->period_start = g_strdup("2008-05-01T00:00:00");
  t->period_end = g_strdup("2008-06-01T00:00:00");
  trv_import_weather_coverage(t, &n, &uncovered);
  g_assert_cmpint(n, ==, 31);
  g_assert_cmpint(uncovered, ==, 28); /* the 17th, 19th and 20th are covered */
  g_ptr_array_unref(warnings);
  trv_cal_table_free(t);
}

/* A 3 GiB trace is refused from its size before a byte is read, and a
 * device (which would never end) is refused outright, by every importer
 * and the weather reader. */
static void oversized_files_and_devices_are_refused_before_reading(void) {
  char *dir, *big = sparse_3gib_file("new_big.txt", &dir);
  gint64 t0 = g_get_monotonic_time();
  GError *err = NULL;
  GPtrArray *files = g_ptr_array_new();
  g_ptr_array_add(files, big);
  TrvImportOptions o = options("sf");
  g_assert_null(trv_import_cabspotting(&o, files, &err));
  assert_input_error(&err, big, "the cabspotting trace file is 3221225472 bytes; expected at most 1073741824 bytes");
  g_assert_cmpint(g_get_monotonic_time() - t0, <, G_USEC_PER_SEC); /* nothing was read */
  TrvCalTable *t = sf_table_with_weather();
  g_assert_false(trv_weather_attach(t, "/dev/zero", &err));
  assert_input_error(&err, "/dev/zero: the weather file is a character device", "expected a regular file or a pipe");
  char *argv[] = {"/dev/urandom"};
  g_assert_null(trv_import_list_inputs("cabspotting", argv, 1, &err));
  assert_input_error(&err, "/dev/urandom: not a file or directory", "expected a trace file");
  trv_cal_table_free(t);
  g_ptr_array_unref(files);
  g_unlink(big);
  g_rmdir(dir);
  g_free(big);
  g_free(dir);
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/urs/import/sg_estimator_counts_net_disappearances", sg_estimator_counts_net_disappearances);
  g_test_add_func("/urs/import/sg_file_without_usable_rows_is_an_input_error",
                  sg_file_without_usable_rows_is_an_input_error);
  g_test_add_func("/urs/import/weather_files_merge_by_date_in_mm_and_celsius",
                  weather_files_merge_by_date_in_mm_and_celsius);
  g_test_add_func("/urs/import/sg_deeply_nested_line_is_a_bad_line", sg_deeply_nested_line_is_a_bad_line);
  g_test_add_func("/urs/import/sg_stamps_with_other_offsets_are_read_as_singapore_time",
                  sg_stamps_with_other_offsets_are_read_as_singapore_time);
  g_test_add_func("/urs/import/sg_lines_of_the_wrong_shape_are_bad_lines", sg_lines_of_the_wrong_shape_are_bad_lines);
  g_test_add_func("/urs/import/weather_bad_rows_are_refused_and_leave_the_table_as_it_was",
                  weather_bad_rows_are_refused_and_leave_the_table_as_it_was);
  g_test_add_func("/urs/import/weather_coverage_counts_the_trace_days_without_weather",
                  weather_coverage_counts_the_trace_days_without_weather);
  g_test_add_func("/urs/import/oversized_files_and_devices_are_refused_before_reading",
                  oversized_files_and_devices_are_refused_before_reading);
  return g_test_run();
}
