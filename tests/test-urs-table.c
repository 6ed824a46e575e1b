/* The URS calibration table file: it survives write -> read -> write byte
 * for byte; a damaged table is refused with its file and line; text that
 * is not UTF-8 is refused on write and on read; rejected lines are quoted
 * as UTF-8 text; a file over its limit or a device is refused before a
 * byte is read. */
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/posterior.h"
#include "urs/import.h"
#include "test-urs-util.h"

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

/* Demand rates are rounded to six significant digits on reading, as the
 * writer rounds them (trv_cal_round_rate); a field already that short is
 * taken as it is.  Every rate of the committed San Francisco table, and
 * rates written by hand in other forms (seven digits and more, signs,
 * exponents, a hexadecimal float), read as trv_cal_round_rate(strtod) of
 * their field, bit for bit. */
static void demand_rates_read_as_rounded_fields(void) {
  char *path = trv_find_data("data/urs", "sf.cal", NULL), *text;
  gsize len;
  g_assert_nonnull(path);
  g_assert_true(g_file_get_contents(path, &text, &len, NULL));
  static const char *const forms[] = {"1.234567",   "0.000123456", "1.5e2",      "+2.5",       "1234560",
                                      "0x1.0001p0", "7.0000049",   "9.99999951", "3.14159e-3", "100000.5",
                                      "2.50000",    "0.1000004",   "12345.65",   "1E1",        "6.02214076e5"};
  /* the first rows of [demand] get the forms above, in place */
  GString *t = g_string_new(NULL);
  char **lines = g_strsplit(text, "\n", -1);
  bool demand = false;
  size_t next = 0, rows = 0;
  for (char **l = lines; *l; l++) {
    if (**l == '[')
      demand = !strcmp(*l, "[demand]");
    else if (demand && next < G_N_ELEMENTS(forms)) {
      char **f = g_strsplit(*l, "\t", 3);
      g_string_append_printf(t, "%s\t%s\t%s\n", f[0], f[1], forms[next++]);
      g_strfreev(f);
      continue;
    }
    g_string_append(t, *l);
    if (l[1]) g_string_append_c(t, '\n');
  }
  g_assert_cmpuint(next, ==, G_N_ELEMENTS(forms));
  GError *err = NULL;
  TrvCalTable *table = trv_cal_table_parse(t->str, t->len, "sf.cal", &err);
  g_assert_no_error(err);
  demand = false;
  for (char **l = lines; *l; l++) {
    if (**l == '[') {
      demand = !strcmp(*l, "[demand]");
      continue;
    }
    if (!demand) continue;
    char **f = g_strsplit(*l, "\t", 3);
    const char *field = rows < G_N_ELEMENTS(forms) ? forms[rows] : f[2];
    double want = trv_cal_round_rate(strtod(field, NULL));
    double got = g_array_index(table->zones, TrvZoneDemand, atoi(f[0])).rate[atoi(f[1])];
    if (got != want) g_error("demand row %zu: '%s' read as %.17g, rounded %.17g", rows, field, got, want);
    g_strfreev(f);
    rows++;
  }
  g_test_message("%zu demand rates, %zu of them written by hand", rows, G_N_ELEMENTS(forms));
  g_assert_cmpuint(rows, >, 70000);
  g_assert_cmpfloat(trv_cal_round_rate(1.234567), ==, 1.23457); /* the rounding the forms go through */
  trv_cal_table_free(table);
  g_strfreev(lines);
  g_string_free(t, TRUE);
  g_free(text);
  g_free(path);
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
  assert_refused(text, "trivium-urs-calibration 3", "trivium-urs-calibration 9", 1, "version 9");
  assert_refused(text, "trivium-urs-calibration 3", "hello", 1, "not a Trivium URS calibration table");
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
  assert_refused(text, "weather_station=USW", "weather_station=\tUSW", line_of(text, "weather_station="),
                 "a TAB in the value of 'weather_station'");
  assert_refused(text, "T00:10:00", "T25:10:00", line_of(text, "[grid]"), "expected two local times");
  assert_refused(text, "period_start=2008", "period_start=1850", line_of(text, "[grid]"), "years 1900-2100");
  assert_refused(text, "lat_max=37.84", "lat_max=1e400", line_of(text, "lat_max="), "'1e400' is not a finite number");
  assert_refused(text, "2008-05-18\tNA\t20\t", "2008-05-18\tNA\t99\t", line_of(text, "2008-05-18\tNA"),
                 "99 is outside [-90, 60]");
  assert_refused(text, "2008-05-19\t", "2008-5-019\t", line_of(text, "2008-05-19\t"), "not a date YYYY-MM-DD");
  assert_refused(text, "2008-05-19\t", "2008-05-190\t", line_of(text, "2008-05-19\t"), "not a date YYYY-MM-DD");
  assert_refused(text, "n_bins=121", "n_bins=100001", line_of(text, "n_bins=121"), "outside [1, 100000]");
  assert_refused(text, "576\t4\n", "576\t1e13\n", line_of(text, "576\t4\n"), "1e13 is outside [0, 1e+12]");
  assert_refused(text, "576\t4\n", "576\t-0\n", line_of(text, "576\t4\n"), "rate -0; expected a rate > 0");
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

/* The [effects] rows are checked like every other row: in their order,
 * estimated with a finite estimate and a positive standard error, or not
 * identifiable with NA; a table of format version 1 (no [effects]) reads
 * with every effect not identifiable. */
static void effects_rows_are_validated_and_version_1_still_reads(void) {
  TrvCalTable *t = sf_table_with_weather();
  trv_cal_table_set_effect(t, TRV_EFFECT_TIME_OF_DAY, true, 0.625, 0.0125, "per SD of the band index");
  char *text = trv_cal_table_to_string(t);
  GError *err = NULL;
  TrvCalTable *back = trv_cal_table_parse(text, strlen(text), "x.cal", &err);
  g_assert_no_error(err);
  g_assert_true(trv_cal_table_equal(t, back));
  g_assert_true(back->effects[TRV_EFFECT_TIME_OF_DAY].estimated);
  g_assert_cmpfloat(back->effects[TRV_EFFECT_TIME_OF_DAY].estimate, ==, 0.625);
  g_assert_cmpfloat(back->effects[TRV_EFFECT_TIME_OF_DAY].se, ==, 0.0125);
  trv_cal_table_free(back);
  const char *row = "time_of_day\testimated\t0.625\t0.0125\t";
  int at = line_of(text, row);
  assert_refused(text, row, "time_of_dy\testimated\t0.625\t0.0125\t", at, "expected 'time_of_day'");
  assert_refused(text, row, "time_of_day\tmaybe\t0.625\t0.0125\t", at, "expected estimated or not-identifiable");
  assert_refused(text, row, "time_of_day\testimated\t0.625\t0\t", at, "standard error 0");
  assert_refused(text, row, "time_of_day\testimated\t0.625\t-1\t", at, "standard error -1");
  assert_refused(text, row, "time_of_day\testimated\t1e400\t0.0125\t", at, "expected two numbers or NA");
  assert_refused(text, row, "time_of_day\testimated\t500\t0.0125\t", at, "estimate 500");
  assert_refused(text, row, "time_of_day\testimated\tNA\t0.0125\t", at, "an estimated effect with NA");
  assert_refused(text, row, "time_of_day\tnot-identifiable\t0.625\t0.0125\t", at, "expected NA and NA");
  assert_refused(text, row, "time_of_day\testimated\t0.625\t0.0125\t\t", at, "TAB-separated fields");
  assert_refused(text, "per SD of the band index\n", "\n", at, "note is empty");
  char *long_note = g_strnfill(201, 'n');
  char *long_row = g_strconcat(row, "poisson\t0\t0\tNA\tNA\t0\tNA\tNA\tNA\t0\t", long_note, "\n", NULL);
  assert_refused(text,
                 "time_of_day\testimated\t0.625\t0.0125\tpoisson\t0\t0\tNA\tNA\t0\tNA\tNA\tNA\t0\tper SD of "
                 "the band index\n",
                 long_row, at, "over 200 bytes");
  g_free(long_row);
  g_free(long_note);
  /* a row missing: found at the next section */
  const char *tail = strstr(text, "temperature\tnot-identifiable");
  const char *eol = strchr(tail, '\n');
  char *missing = g_strndup(tail, (size_t)(eol - tail + 1));
  assert_refused(text, missing, "", line_of(text, strstr(text, "[travel]") ? "[travel]" : "[end]") - 1,
                 "[effects] has 5 rows, expected 6");
  g_free(missing);
  /* version 1: no [sources], [estimator] nor [effects] */
  const char *eff = strstr(text, "[sources]\n"), *end = strstr(text, "[end]\n");
  GString *v1 = g_string_new("trivium-urs-calibration 1");
  g_string_append_len(v1, text + strlen("trivium-urs-calibration 3"), eff - text - strlen("trivium-urs-calibration 3"));
  g_string_append(v1, end);
  TrvCalTable *old = trv_cal_table_parse(v1->str, v1->len, "v1.cal", &err);
  g_assert_no_error(err);
  for (int k = 0; k < TRV_EFFECT_COUNT; k++) g_assert_false(old->effects[k].estimated);
  g_assert_nonnull(strstr(old->effects[0].note, "version 1"));
  trv_cal_table_free(old);
  /* and a version 1 table holding [effects] is refused at that line */
  GString *v1e = g_string_new("trivium-urs-calibration 1");
  g_string_append(v1e, text + strlen("trivium-urs-calibration 3"));
  g_assert_null(trv_cal_table_parse(v1e->str, v1e->len, "v1.cal", &err));
  g_assert_error(err, TRV_ERROR, TRV_ERROR_INPUT);
  g_assert_nonnull(strstr(err->message, "expected [end]"));
  g_clear_error(&err);
  g_string_free(v1e, TRUE);
  g_string_free(v1, TRUE);
  g_free(text);
  trv_cal_table_free(t);
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
  /* A value may start with '[' or '#' (it follows its key); a statistic's
   * name may not (it starts a line). */
  g_free(t->source);
  t->source = g_strdup("[cabspotting]");
  char *text0 = trv_cal_table_to_string(t);
  TrvCalTable *back = trv_cal_table_parse(text0, strlen(text0), "x.cal", NULL);
  g_assert_nonnull(back);
  g_assert_true(trv_cal_table_check(back, NULL));
  g_assert_cmpstr(back->source, ==, "[cabspotting]");
  trv_cal_table_free(back);
  g_free(text0);
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
  char *dir, *big = sparse_3gib_file("big.cal", &dir);
  gint64 t0 = g_get_monotonic_time();
  GError *err = NULL;
  g_assert_null(trv_cal_table_read(big, &err));
  assert_input_error(&err, big, "the calibration table is 3221225472 bytes; expected at most 268435456 bytes");
  g_assert_cmpint(g_get_monotonic_time() - t0, <, G_USEC_PER_SEC); /* nothing was read */
  g_assert_null(trv_cal_table_read("/dev/urandom", &err));
  assert_input_error(&err, "/dev/urandom: the calibration table is a character device",
                     "expected a regular file or a pipe");
  g_unlink(big);
  g_rmdir(dir);
  g_free(big);
  g_free(dir);
}

/* Format 3's new fields: an effect's spread (method, days, resamples,
 * interval, months) is checked against its method, the [sources] rows
 * against their syntax, the [estimator] keys against their ranges; each
 * bad field is refused with its line.  A format 2 table still reads, its
 * effects with no interval, so that none of them is robust. */
static void effect_spread_sources_and_estimator_are_validated(void) {
  TrvCalTable *t = sf_table_with_weather();
  trv_cal_table_set_effect(t, TRV_EFFECT_AIRPORT, true, 0.25, 0.01, "log ratio");
  TrvEffect *e = &t->effects[TRV_EFFECT_AIRPORT];
  e->method = TRV_EFFECT_METHOD_MONTHS, e->days = 365, e->resamples = 1000, e->lo = 0.125, e->hi = 0.375;
  e->months = 12, e->month_sd = 0.0625, e->month_min = -0.125, e->month_max = 0.5, e->months_same_sign = 10;
  trv_cal_table_add_source(t, "/any/dir/trips.csv", "a,b\n", 4);
  g_assert_true(trv_cal_effect_robust(e, NULL)); /* interval above 0, 10 of 12 months positive */
  char *text = trv_cal_table_to_string(t);
  GError *err = NULL;
  TrvCalTable *back = trv_cal_table_parse(text, strlen(text), "x.cal", &err);
  g_assert_no_error(err);
  g_assert_true(trv_cal_table_equal(t, back));
  const TrvSource *src = &g_array_index(back->sources, TrvSource, back->sources->len - 1);
  g_assert_cmpstr(src->name, ==, "trips.csv"); /* the name without its directory */
  g_assert_cmpuint(src->bytes, ==, 4);
  char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, "a,b\n", 4);
  g_assert_cmpstr(src->sha256, ==, sum);
  g_assert_cmpint(back->estimator.resamples, ==, TRV_EFFECTS_BOOTSTRAP_RESAMPLES);
  trv_cal_table_free(back);
  const char *row =
      "airport\testimated\t0.25\t0.01\tpoisson+day-bootstrap+months\t365\t1000\t0.125\t0.375\t12\t0.0625\t"
      "-0.125\t0.5\t10\tlog ratio\n";
  int at = line_of(text, row);
  const struct {
    const char *to, *what;
  } bad[] = {
      {"airport\testimated\t0.25\t0.01\tjackknife\t365\t1000\t0.125\t0.375\t12\t0.0625\t-0.125\t0.5\t10\tlog ratio\n",
       "method 'jackknife'"},
      {"airport\testimated\t0.25\t0.01\tpoisson+day-bootstrap+months\t365\t1000\t0.375\t0.125\t12\t0.0625\t-0.125\t0."
       "5\t10\t"
       "log ratio\n",
       "expected lo <= hi"},
      {"airport\testimated\t0.25\t0.01\tpoisson+day-bootstrap+months\t365\t0\t0.125\t0.375\t12\t0.0625\t-0.125\t0."
       "5\t10\t"
       "log ratio\n",
       "0 resamples with method"},
      {"airport\testimated\t0.25\t0.01\tpoisson+day-bootstrap+months\t365\t1000\t0.125\t0.375\t1\t0.0625\t-0.125\t0."
       "5\t1\t"
       "log ratio\n",
       "1 months with method"},
      {"airport\testimated\t0.25\t0.01\tpoisson+day-bootstrap+months\t365\t1000\t0.125\t0.375\t12\t0.0625\t-0.125\t0."
       "5\t13\t"
       "log ratio\n",
       "13 months of the same sign"},
      {"airport\testimated\t0.25\t0.01\tpoisson+day-bootstrap+months\t365\t1000\t0.125\t0.375\t12\t0.9\t-0.125\t0."
       "5\t10\t"
       "log ratio\n",
       "monthly sd 0.9"},
      {"airport\testimated\t0.25\t0.01\tpoisson\t365\t1000\t0.125\t0.375\t12\t0.0625\t-0.125\t0.5\t10\tlog ratio\n",
       "an interval with method poisson"},
      {"airport\testimated\t0.25\t0.01\tpoisson+day-bootstrap\t365\t1000\t0.125\t0.375\t12\t0.0625\t-0.125\t0.5\t10\t"
       "log ratio\n",
       "monthly figures with method poisson+day-bootstrap"},
      {"airport\testimated\t0.25\t0.01\tpoisson+day-bootstrap+months\t-3\t1000\t0.125\t0.375\t12\t0.0625\t-0.125\t0."
       "5\t10\t"
       "log ratio\n",
       "expected whole numbers"},
      {"airport\testimated\t0.25\t0.01\tpoisson+day-bootstrap+months\t365\t1000\t0.125\tinf\t12\t0.0625\t-0.125\t0."
       "5\t10\t"
       "log ratio\n",
       "expected numbers or NA"},
      {"airport\testimated\t0.25\t0.01\tpoisson+day-bootstrap+months\t365\t1000\t0.125\t0.375\t12\t0.0625\t-0.125\t0."
       "5\t10\n",
       "14 TAB-separated fields, expected 15"},
  };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) assert_refused(text, row, bad[i].to, at, bad[i].what);
  char *hash_row = g_strdup_printf("%s\t4\ttrips.csv\n", sum);
  int hash_at = line_of(text, hash_row);
  char *upper = g_ascii_strup(hash_row, -1);
  assert_refused(text, hash_row, upper, hash_at, "expected 64 lower-case hex digits");
  assert_refused(text, hash_row + 1, "\t4\ttrips.csv\n", hash_at, "expected 64 lower-case hex digits");
  char *no_size = g_strdup_printf("%s\tfour\ttrips.csv\n", sum);
  assert_refused(text, hash_row, no_size, hash_at, "expected a byte count");
  assert_refused(text, "level=0.95\n", "level=1.5\n", line_of(text, "level=0.95"), "expected a number in (0, 1)");
  assert_refused(text, "resamples=1000\n", "resamples=1000000\n", line_of(text, "resamples=1000"),
                 "expected 0 to 100000");
  assert_refused(text, "seed=", "seeds=", line_of(text, "seed="),
                 "expected name=, version=, resamples=, seed= or level=");
  assert_refused(text, "level=0.95\n", "", line_of(text, "[effects]") - 1, "[estimator] is incomplete");
  /* format 2: [sources] and [estimator] absent, effect rows of 5 fields */
  GString *v2 = g_string_new("trivium-urs-calibration 2");
  const char *src_at = strstr(text, "[sources]\n"), *eff_at = strstr(text, "[effects]\n");
  g_string_append_len(v2, text + strlen("trivium-urs-calibration 3"),
                      src_at - text - strlen("trivium-urs-calibration 3"));
  g_string_append(v2, "[effects]\n");
  for (int k = 0; k < TRV_EFFECT_COUNT; k++)
    g_string_append_printf(v2, "%s\t%s\n", trv_effect_names[k],
                           k == TRV_EFFECT_AIRPORT ? "estimated\t0.25\t0.01\tlog ratio"
                                                   : "not-identifiable\tNA\tNA\tx");
  g_string_append(v2, "[end]\n");
  (void)eff_at;
  TrvCalTable *old = trv_cal_table_parse(v2->str, v2->len, "v2.cal", &err);
  g_assert_no_error(err);
  g_assert_true(old->effects[TRV_EFFECT_AIRPORT].estimated);
  g_assert_cmpfloat(old->effects[TRV_EFFECT_AIRPORT].estimate, ==, 0.25);
  g_assert_true(isnan(old->effects[TRV_EFFECT_AIRPORT].lo));
  const char *why = NULL;
  g_assert_false(trv_cal_effect_robust(&old->effects[TRV_EFFECT_AIRPORT], &why));
  g_assert_nonnull(strstr(why, "no bootstrap interval"));
  g_assert_cmpuint(old->sources->len, ==, 0);
  g_assert_cmpint(old->estimator.version, ==, 0);
  /* what a format 2 table reads as writes and reads back as format 3 */
  char *again = trv_cal_table_to_string(old);
  TrvCalTable *three = trv_cal_table_parse(again, strlen(again), "v3.cal", &err);
  g_assert_no_error(err);
  g_assert_true(trv_cal_table_equal(old, three));
  trv_cal_table_free(three);
  g_free(again);
  trv_cal_table_free(old);
  g_string_free(v2, TRUE);
  g_free(no_size);
  g_free(upper);
  g_free(hash_row);
  g_free(sum);
  g_free(text);
  trv_cal_table_free(t);
}

/* The grounding rule at its edges: an interval touching 0 is not robust,
 * nor 9 of 12 months of the estimate's sign (10 are), nor an interval
 * excluding 0 on the other side of the estimate. */
static void robust_rule_at_its_edges(void) {
  TrvEffect e = {.estimated = true,
                 .estimate = 0.2,
                 .se = 0.01,
                 .method = TRV_EFFECT_METHOD_BOOTSTRAP,
                 .days = 7,
                 .resamples = 1000,
                 .lo = 0.01,
                 .hi = 0.3,
                 .month_sd = NAN,
                 .month_min = NAN,
                 .month_max = NAN,
                 .note = (char *)"x"};
  const char *why;
  g_assert_true(trv_cal_effect_robust(&e, &why));
  g_assert_null(why);
  e.lo = 0;
  g_assert_false(trv_cal_effect_robust(&e, &why));
  g_assert_nonnull(strstr(why, "interval holds 0"));
  e.lo = -0.3, e.hi = -0.01; /* excludes 0, but below it while the estimate is above */
  g_assert_false(trv_cal_effect_robust(&e, NULL));
  e.lo = 0.01, e.hi = 0.3;
  e.method = TRV_EFFECT_METHOD_MONTHS, e.months = 12, e.months_same_sign = 10;
  e.month_sd = 0.1, e.month_min = -0.1, e.month_max = 0.4;
  g_assert_true(trv_cal_effect_robust(&e, NULL));
  e.months_same_sign = 9;
  g_assert_false(trv_cal_effect_robust(&e, &why));
  g_assert_nonnull(strstr(why, "sign changes"));
  e.estimate = -0.2, e.lo = -0.3, e.hi = -0.01, e.months_same_sign = 12;
  g_assert_true(trv_cal_effect_robust(&e, NULL));
  e.method = TRV_EFFECT_METHOD_POISSON, e.lo = e.hi = NAN;
  g_assert_false(trv_cal_effect_robust(&e, NULL));
}

int main(int argc, char **argv) {
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/urs/table/round_trips_exactly", table_round_trips_exactly);
  g_test_add_func("/urs/table/demand_rates_read_as_rounded_fields", demand_rates_read_as_rounded_fields);
  g_test_add_func("/urs/table/reader_refuses_damaged_tables_with_file_and_line",
                  reader_refuses_damaged_tables_with_file_and_line);
  g_test_add_func("/urs/table/text_that_is_not_utf8_is_refused_on_write_and_read",
                  table_text_that_is_not_utf8_is_refused_on_write_and_read);
  g_test_add_func("/urs/table/rejected_lines_are_quoted_as_utf8_text", rejected_lines_are_quoted_as_utf8_text);
  g_test_add_func("/urs/table/effect_spread_sources_and_estimator_are_validated",
                  effect_spread_sources_and_estimator_are_validated);
  g_test_add_func("/urs/table/robust_rule_at_its_edges", robust_rule_at_its_edges);
  g_test_add_func("/urs/table/effects_rows_are_validated_and_version_1_still_reads",
                  effects_rows_are_validated_and_version_1_still_reads);
  g_test_add_func("/urs/table/file_over_its_limit_or_a_device_is_refused_before_reading",
                  table_file_over_its_limit_or_a_device_is_refused_before_reading);
  return g_test_run();
}
